// PIPELINE: convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts
// FOUND: InternalVerifyError: KeyError at irdl/operations.py:__get__ (gpu.return read a function_type its gpu.func lacked)
module@m{"gpu.func"()<{V=(f32)->()}>({"gpu.return"():()->()}){e=""}:()->()}
