"""The CUDA runtime (mgpu* ABI) and the JIT runner for generated host code."""
