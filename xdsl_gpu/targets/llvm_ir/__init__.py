"""LLVM IR emission for modules of llvm-dialect (and nvvm) ops.

``convert_module`` gives LLVM IR text for the host or for NVPTX; ``parse_module``
reads it back into llvmlite and verifies it. ``LLVMIRTarget`` (``target.py``) is the
``xdsl-opt -t llvmir`` target.
"""

from xdsl_gpu.targets.llvm_ir.convert_module import (
    NVPTX_DATA_LAYOUT,
    NVPTX_TRIPLE,
    convert_module,
    parse_module,
)
from xdsl_gpu.targets.llvm_ir.convert_type import LLVMIRTranslationError

__all__ = [
    "NVPTX_DATA_LAYOUT",
    "NVPTX_TRIPLE",
    "LLVMIRTranslationError",
    "convert_module",
    "parse_module",
]
