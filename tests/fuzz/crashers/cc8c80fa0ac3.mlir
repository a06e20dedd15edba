// PIPELINE: gpu-to-llvm
// FOUND: InternalPassError: AssertionError at passes/finalize_memref_to_llvm.py:lower
func.func@m(%m:memref<4xf32>){%u=memref.memory_space_cast%m:memref<4xf32>to memref<*xf32>}
