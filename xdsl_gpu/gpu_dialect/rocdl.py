"""The ``rocdl`` dialect, reduced to ``#rocdl.target`` (AMD GPU targets).

Syntax (MLIR 22), with upstream's struct syntax shared with ``#nvvm.target``
(:mod:`xdsl_gpu.gpu_dialect.nvvm.target_base`)::

    #rocdl.target
    #rocdl.target<O = 3, chip = "gfx90a", features = "+sramecc", abi = "500",
                  flags = {no_wave64, fast}, link = ["/ocml.bc"]>

Keys and defaults: ``O`` = 2 (0 to 3), ``triple`` = ``"amdgcn-amd-amdhsa"``,
``chip`` = ``"gfx900"``, ``features`` = ``""``, ``abi`` = ``"600"`` (``400``, ``500``
or ``600``), ``flags`` (a dictionary) and ``link`` (an array of strings).

Flags read by upstream's serializer: ``wave64``/``no_wave64`` (wave64 is on unless
``no_wave64``), ``fast``, ``daz``, ``finite_only``, ``unsafe_math`` and
``unsafe_sqrt`` (correctly rounded sqrt is on unless this key is present).

Beyond MLIR: upstream's source declares a verifier for this attribute (the messages
below), but ``mlir-opt`` 22 never runs it and accepts ``#rocdl.target<O = 4>``; here it
runs, like ``#nvvm.target``'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntAttr,
    NoneAttr,
    StringAttr,
)
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import irdl_attr_definition

from xdsl_gpu.gpu_dialect.nvvm.target_base import (
    FlagsLike,
    TargetAttrBase,
    TargetParam,
    flags_attr,
    link_attr,
)

ABI_VERSIONS = ("400", "500", "600")


@irdl_attr_definition
class ROCDLTargetAttr(TargetAttrBase):
    """``#rocdl.target``: optimization level, triple, chip, features, code object ABI
    version, flags and bitcode libraries to link."""

    name = "rocdl.target"

    opt_level_attr: IntAttr
    triple_attr: StringAttr
    chip_attr: StringAttr
    features_attr: StringAttr
    abi_attr: StringAttr
    flags_attr: DictionaryAttr | NoneAttr
    link_attr: ArrayAttr | NoneAttr

    STRUCT: ClassVar[tuple[TargetParam, ...]] = (
        TargetParam("O", "opt_level_attr", "int", IntAttr(2)),
        TargetParam("triple", "triple_attr", "str", StringAttr("amdgcn-amd-amdhsa")),
        TargetParam("chip", "chip_attr", "str", StringAttr("gfx900")),
        TargetParam("features", "features_attr", "str", StringAttr("")),
        TargetParam("abi", "abi_attr", "str", StringAttr("600")),
        TargetParam("flags", "flags_attr", "dict", NoneAttr()),
        TargetParam("link", "link_attr", "array", NoneAttr()),
    )

    def __init__(
        self,
        O: int = 2,  # noqa: E741 (upstream's key)
        triple: str = "amdgcn-amd-amdhsa",
        chip: str = "gfx900",
        features: str = "",
        abi: str = "600",
        flags: FlagsLike | None = None,
        link: ArrayAttr | Sequence[str] | None = None,
    ):
        super().__init__(
            IntAttr(O),
            StringAttr(triple),
            StringAttr(chip),
            StringAttr(features),
            StringAttr(abi),
            flags_attr(flags),
            link_attr(link),
        )

    @classmethod
    def invalid_reason(cls, values: Mapping[str, Attribute]) -> str | None:
        if (message := super().invalid_reason(values)) is not None:
            return message
        abi = values["abi"]
        if not isinstance(abi, StringAttr) or abi.data not in ABI_VERSIONS:
            return "Invalid ABI version, it must be `400`, `500` or '600'."
        return cls.invalid_link_reason(values["link"])

    @property
    def abi(self) -> str:
        return self.abi_attr.data

    @property
    def wave64(self) -> bool:
        return self.has_flag("wave64") or not self.has_flag("no_wave64")

    @property
    def fast_math(self) -> bool:
        return self.has_flag("fast")

    @property
    def daz(self) -> bool:
        return self.has_flag("daz")

    @property
    def finite_only(self) -> bool:
        return self.has_flag("finite_only")

    @property
    def unsafe_math(self) -> bool:
        return self.has_flag("unsafe_math")

    @property
    def correct_sqrt(self) -> bool:
        return not self.has_flag("unsafe_sqrt")


ROCDL = Dialect("rocdl", [], [ROCDLTargetAttr])

__all__ = ["ABI_VERSIONS", "ROCDL", "ROCDLTargetAttr"]
