"""The NVVM target: LLVM IR to PTX, cubin and fatbin without a CUDA toolkit."""
