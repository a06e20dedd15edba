// PIPELINE: gpu-kernel-outlining
// FOUND: ValueError at dialects/builtin.py:get_normalized_value
%0=memref.subview%m[44467440737095516161]