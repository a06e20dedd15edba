// PIPELINE: gpu-to-llvm
// FOUND: InternalPassError: AssertionError at gpu_to_llvm_patterns/patterns.py:match_and_rewrite
func.func@d(%m:memref<4xf32>){"gpu.host_unregister"(%m):(memref<4xf32>)->()}
