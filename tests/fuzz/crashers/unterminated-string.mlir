// PIPELINE: canonicalize
// FOUND: timeout (a string literal left open: exponential backtracking in the lexer)


func.func @destroy_dn_tensor_async_dependencies(%a0: index, %a1: !gpu.sparse.dntensor_handle) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0 = "gpu.destroy_dn(_tensor,(%a0, %a1) : (index, !gpu.sparse.dntensor_handle) -> (!gpu.async.token)
  func.return
}

