"""``xdsl-opt -t llvm-offload``: the host module, with its ``gpu.binary`` embedded and
its ``gpu.launch_func`` ops as runtime calls, as LLVM IR (what
``mlir-translate --mlir-to-llvmir`` prints for it upstream)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from xdsl_gpu.targets.llvm_ir import convert_module, parse_module
from xdsl_gpu.targets.offloading.translation import lower_offloading


def host_llvm_ir(
    module: ModuleOp, *, triple: str | None = None, verify: bool = True
) -> str:
    """The host LLVM IR of ``module`` (left untouched): binaries embedded, launches
    lowered to ``mgpu*`` calls."""
    from xdsl_gpu.targets.registration import register_target_interfaces

    register_target_interfaces()  # the built-in handlers, as mlir-translate does
    lowered = module.clone()
    lower_offloading(lowered)
    text = convert_module(lowered, triple=triple)
    if verify:
        parse_module(text)
    return text


@dataclass(frozen=True)
class LLVMOffloadTarget(Target):
    """Translate a host module with GPU binaries to LLVM IR.

    Options: ``triple`` (default: the host's), ``verify`` (check the result with
    LLVM's verifier, default true).
    """

    name = "llvm-offload"

    triple: str = ""
    verify: bool = True

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(
            host_llvm_ir(module, triple=self.triple or None, verify=self.verify)
        )
