// PIPELINE: convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts
// FOUND: InternalParseError: InternalParseError at xdsl_gpu/compat.py:parse_operation
gpu.all_reduce%s{cf.cond_br%c,^b,^bb2^bb2:^bb2
