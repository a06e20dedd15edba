// PIPELINE: gpu-to-llvm
// FOUND: InternalPassError: ValueError at passes/llvm_type_converter.py:replace_op
func.func@s(){%a,%b="gpu.wait"():()->(memref<?xf32>,!gpu.async.token)}
