"""``nvvm-attach-target``: add an ``#nvvm.target`` to every matching ``gpu.module``
(upstream's ``NVVMAttachTarget.cpp``; same options and defaults)."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.gpu_dialect.gpu.kernel_ops import ModuleOp as GPUModuleOp
from xdsl_gpu.gpu_dialect.nvvm.target import PTXAS_OPTIONS_FLAG, NVVMTargetAttr
from xdsl_gpu.passes.ir_walk import preorder


@dataclass(frozen=True)
class NVVMAttachTargetPass(ModulePass):
    """Attach ``#nvvm.target<O, triple, chip, features, flags, link>`` to the
    ``gpu.module``s whose name matches the ``module`` regular expression (all of them
    when it is empty). A module that already has an equal target keeps just one.

    Options (upstream's): ``module``, ``triple``, ``chip`` (default ``sm_50``, as
    upstream; CUDA 13 needs ``sm_75`` or newer), ``features``, ``O``, ``fast``,
    ``ftz``, ``l`` (bitcode files to link), ``ptxas-cmd-options``.
    """

    name = "nvvm-attach-target"

    module: str = ""
    triple: str = "nvptx64-nvidia-cuda"
    chip: str = "sm_50"
    features: str = ""
    O: int = 2  # noqa: E741 (upstream's option name)
    fast: bool = False
    ftz: bool = False
    l: tuple[str, ...] = ()  # noqa: E741 (upstream's option name)
    ptxas_cmd_options: str = ""

    def target(self) -> NVVMTargetAttr:
        flags: dict[str, bool | list[str]] = {}
        if self.fast:
            flags["fast"] = True
        if self.ftz:
            flags["ftz"] = True
        if options := shlex.split(self.ptxas_cmd_options):
            flags[PTXAS_OPTIONS_FLAG] = options
        if not 0 <= self.O <= 3:
            raise PassFailedException(
                f"nvvm-attach-target: O={self.O}: the optimization level must be a "
                "number between 0 and 3"
            )
        return NVVMTargetAttr(
            O=self.O,
            triple=self.triple,
            chip=self.chip,
            features=self.features,
            flags=flags or None,
            link=list(self.l) or None,
        )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            pattern = re.compile(self.module)
        except re.error as e:
            raise PassFailedException(
                f"nvvm-attach-target: module={self.module!r} is not a valid regular "
                f"expression: {e}"
            ) from None
        target = self.target()
        for module in preorder(op):
            if not isinstance(module, GPUModuleOp):
                continue
            if self.module and pattern.fullmatch(module.sym_name.data) is None:
                continue
            existing = list(module.targets.data) if module.targets is not None else []
            if target not in existing:
                module.targets = ArrayAttr([*existing, target])
