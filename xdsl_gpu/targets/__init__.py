"""Serialization and translation targets (``xdsl-opt -t NAME``)."""

from collections.abc import Callable

from xdsl.utils.target import Target


def _llvmir() -> type[Target]:
    from xdsl_gpu.targets.llvm_ir.target import LLVMIRTarget

    return LLVMIRTarget


def _llvm_offload() -> type[Target]:
    from xdsl_gpu.targets.offloading.target import LLVMOffloadTarget

    return LLVMOffloadTarget


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """Lazy getters for every target, keyed by its ``-t`` name."""
    return {"llvm-offload": _llvm_offload, "llvmir": _llvmir}
