"""The ``llvm`` dialect: xDSL's, extended with what the GPU flow needs."""

from xdsl.dialects.llvm import LLVM as XDSL_LLVM

LLVM = XDSL_LLVM
