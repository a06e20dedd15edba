"""``#nvvm.target``: how a ``gpu.module`` is compiled for NVIDIA GPUs.

Syntax (MLIR 22)::

    #nvvm.target
    #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80",
                 flags = {fast, ftz, "ptxas-cmd-options" = ["-v"]},
                 link = ["/a.bc"], verifyTarget = false>

========================  =======================  ====================================
key                       default                  Python accessor
========================  =======================  ====================================
``O``                     ``2`` (0 to 3)           ``opt_level``
``triple``                ``"nvptx64-nvidia-cuda"``  ``triple``
``chip``                  ``"sm_50"``              ``chip``, ``sm``, ``sm_version``
``features``              ``""``                   ``features``
``flags``                 absent (a dictionary)    ``flags``, ``flags_dict``,
                                                   ``fast_math``, ``ftz``,
                                                   ``ptxas_options``
``link``                  absent (array of str)    ``link``, ``link_files``
``verifyTarget``          ``true``                 ``verify_target_enabled``
========================  =======================  ====================================

With ``verifyTarget`` (the default), :meth:`NVVMTargetAttr.verify_target`, which the
``gpu.module`` verifier calls, checks every op nested in the module against the chip:
ops with a :class:`~xdsl_gpu.gpu_dialect.nvvm.sm.RequiresSM` trait fail with upstream's
``'nvvm.read.ptx.sreg.clusterid.x' op is not supported on sm_70``.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DictionaryAttr,
    IntAttr,
    IntegerAttr,
    NoneAttr,
    StringAttr,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvvm.sm import INVALID_CHIP_MESSAGE, RequiresSM, SMVersion
from xdsl_gpu.gpu_dialect.nvvm.target_base import (
    FlagsLike,
    TargetAttrBase,
    TargetParam,
    flags_attr,
    link_attr,
)

PTXAS_OPTIONS_FLAG = "ptxas-cmd-options"
"""The ``flags`` key holding extra ``ptxas`` options (``nvvm-attach-target``'s
``ptxas-cmd-options``)."""


@irdl_attr_definition
class NVVMTargetAttr(TargetAttrBase):
    """``#nvvm.target``: optimization level, triple, chip, features, flags, bitcode
    libraries to link, and whether to check ops against the chip."""

    name = "nvvm.target"

    opt_level_attr: IntAttr
    triple_attr: StringAttr
    chip_attr: StringAttr
    features_attr: StringAttr
    flags_attr: DictionaryAttr | NoneAttr
    link_attr: ArrayAttr | NoneAttr
    verify_target_attr: BoolAttr

    STRUCT: ClassVar[tuple[TargetParam, ...]] = (
        TargetParam("O", "opt_level_attr", "int", IntAttr(2)),
        TargetParam("triple", "triple_attr", "str", StringAttr("nvptx64-nvidia-cuda")),
        TargetParam("chip", "chip_attr", "str", StringAttr("sm_50")),
        TargetParam("features", "features_attr", "str", StringAttr("")),
        TargetParam("flags", "flags_attr", "dict", NoneAttr()),
        TargetParam("link", "link_attr", "array", NoneAttr()),
        TargetParam(
            "verifyTarget", "verify_target_attr", "bool", IntegerAttr.from_bool(True)
        ),
    )

    def __init__(
        self,
        O: int = 2,  # noqa: E741 (upstream's key)
        triple: str = "nvptx64-nvidia-cuda",
        chip: str = "sm_50",
        features: str = "",
        flags: FlagsLike | None = None,
        link: ArrayAttr | Sequence[str] | None = None,
        verify_target: bool = True,
    ):
        super().__init__(
            IntAttr(O),
            StringAttr(triple),
            StringAttr(chip),
            StringAttr(features),
            flags_attr(flags),
            link_attr(link),
            IntegerAttr.from_bool(verify_target),
        )

    @classmethod
    def invalid_reason(cls, values: Mapping[str, Attribute]) -> str | None:
        return super().invalid_reason(values) or cls.invalid_link_reason(values["link"])

    @property
    def verify_target_enabled(self) -> bool:
        """``verifyTarget``: whether ``gpu.module`` verification checks ops against
        the chip."""
        return bool(self.verify_target_attr.value.data)

    @property
    def sm_version(self) -> SMVersion | None:
        """The chip as an :class:`SMVersion`, or ``None`` if it is not
        ``sm_<N>[a|f]``."""
        return SMVersion.from_chip(self.chip)

    @property
    def sm(self) -> int:
        """The chip's SM number: 90 for ``sm_90`` and ``sm_90a``."""
        if (version := self.sm_version) is None:
            raise ValueError(INVALID_CHIP_MESSAGE.format(chip=self.chip))
        return version.number

    @property
    def fast_math(self) -> bool:
        return self.has_flag("fast")

    @property
    def ftz(self) -> bool:
        return self.has_flag("ftz")

    @property
    def ptxas_options(self) -> tuple[str, ...]:
        """Extra ``ptxas`` options from ``flags["ptxas-cmd-options"]``: an array of
        strings (as ``nvvm-attach-target`` writes it), or one string split like a
        shell command line."""
        options = self.flags_dict.get(PTXAS_OPTIONS_FLAG)
        if isinstance(options, StringAttr):
            return tuple(shlex.split(options.data))
        if isinstance(options, ArrayAttr):
            return tuple(o.data for o in options.data if isinstance(o, StringAttr))
        return ()

    def verify_target(self, module_op: Operation) -> None:
        """Check the ops nested in ``module_op`` (a ``gpu.module``) against the chip,
        as upstream's ``NVVMTargetAttr::verifyTarget``; does nothing when
        ``verifyTarget`` is false.

        Raises ``VerifyException`` with upstream's messages: ``'<op>' op is not
        supported on <chip>`` for the first op whose SM requirement the chip does not
        meet (the op is marked in the diagnostic), ``Minimum NVVM target SM version is
        sm_20``, or, where MLIR 22 reads an undefined number, ``invalid NVVM target
        chip "<chip>", expected sm_<version>[a|f]``.
        """
        if not self.verify_target_enabled:
            return
        if module_op.name != "gpu.module":
            raise VerifyException(
                "NVVM target attribute must be attached to a GPU module"
            )
        target = self.sm_version
        if target is None:
            raise VerifyException(INVALID_CHIP_MESSAGE.format(chip=self.chip))
        if target.number < 20:
            raise VerifyException("Minimum NVVM target SM version is sm_20")
        for op in module_op.walk():
            requirement = op.get_trait(RequiresSM)
            if requirement is not None and not requirement.is_compatible_with(target):
                message = f"'{op.name}' op is not supported on {self.chip}"
                # Emitted at the op, not at the gpu.module whose verifier runs this,
                # so that the command line places the error on the op, as MLIR does.
                op.emit_error(message, VerifyException(message))


__all__ = ["PTXAS_OPTIONS_FLAG", "NVVMTargetAttr"]
