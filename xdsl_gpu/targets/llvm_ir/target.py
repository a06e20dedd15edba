"""``xdsl-opt -t llvmir``: print a module of llvm-dialect (and nvvm) ops as LLVM IR.

Options (``-t 'llvmir{triple=nvptx64-nvidia-cuda verify=true}'``):

* ``triple``: the target triple when the module has no ``llvm.target_triple``
  (default: the host's). ``nvptx64-nvidia-cuda`` also selects NVPTX's data layout;
* ``data_layout``: when the module has no ``llvm.data_layout``;
* ``verify``: parse the result with llvmlite and run LLVM's verifier first.

The target is not registered here: ``xdsl_gpu/targets/__init__.py`` wires the names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from xdsl_gpu.targets.llvm_ir.convert_module import (
    NVPTX_DATA_LAYOUT,
    NVPTX_TRIPLE,
    convert_module,
    parse_module,
)


@dataclass(frozen=True)
class LLVMIRTarget(Target):
    """Translate the module to LLVM IR text (``mlir-translate --mlir-to-llvmir``)."""

    name = "llvmir"

    triple: str = ""
    data_layout: str = ""
    verify: bool = True

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        data_layout = self.data_layout
        if not data_layout and self.triple == NVPTX_TRIPLE:
            data_layout = NVPTX_DATA_LAYOUT
        text = convert_module(
            module, triple=self.triple or None, data_layout=data_layout or None
        )
        if self.verify:
            parse_module(text)
        output.write(text)
