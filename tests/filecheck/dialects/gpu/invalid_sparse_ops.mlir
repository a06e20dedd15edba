// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | grep -v "^ *|" | filecheck %s --check-prefixes=CHECK,XDSL
// RUN: %if mlir-opt %{ not mlir-opt %s --split-input-file -o /dev/null 2>&1 | filecheck %s --check-prefixes=CHECK,MLIR %}

// The sparse ops have no verifier of their own upstream: what they check is the
// types of their operands, results and attributes, and the enum keywords. CHECK
// lines are upstream's words and must match both xdsl-opt and mlir-opt-22 (xDSL
// puts "operand 'x' at position N does not verify:" where upstream puts "'gpu.x' op
// operand #N"); XDSL and MLIR lines are where the two differ (the parsers' own
// messages). `grep -v` drops the copy of each message that xdsl-opt prints inside
// the annotated IR.

func.func @bad_transpose_mode(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  %b = gpu.spmv_buffer_size %s{FOO}, %d, %d into f32
  func.return
}
// CHECK: expected ::mlir::gpu::TransposeMode to be one of: NON_TRANSPOSE, TRANSPOSE, CONJUGATE_TRANSPOSE

// -----

func.func @bad_prune_flag(%n: index, %m: memref<?xf64>) {
  %s = gpu.create_2to4_spmat {PRUNE} %n, %n, %m : memref<?xf64>
  func.return
}
// CHECK: expected ::mlir::gpu::Prune2To4SpMatFlag to be one of: NONE, PRUNE_ONLY, PRUNE_AND_{{C}}HECK

// -----

// The prune flag is not optional in the custom syntax.
func.func @missing_prune_flag(%n: index, %m: memref<?xf64>) {
  %s = gpu.create_2to4_spmat %n, %n, %m : memref<?xf64>
  func.return
}
// CHECK: expected '{'

// -----

func.func @bad_spgemm_kind(%a: !gpu.sparse.spmat_handle, %desc: !gpu.sparse.spgemmop_handle, %n: index, %buf: memref<?xi8>) {
  %sz = gpu.spgemm_work_estimation_or_compute {ESTIMATE} %a, %a, %a, %desc, %n, %buf : f32 into memref<?xi8>
  func.return
}
// CHECK: expected ::mlir::gpu::SpGEMMWorkEstimationOrComputeKind to be one of: WORK_ESTIMATION, COMPUTE

// -----

func.func @missing_spgemm_kind(%a: !gpu.sparse.spmat_handle, %desc: !gpu.sparse.spgemmop_handle, %n: index, %buf: memref<?xi8>) {
  %sz = "gpu.spgemm_work_estimation_or_compute"(%desc, %a, %a, %a, %n, %buf) <{computeType = f32}> : (!gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, index, memref<?xi8>) -> index
  func.return
}
// CHECK: requires attribute 'kind'

// -----

func.func @missing_compute_type(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  %b = "gpu.spmv_buffer_size"(%s, %d, %d) : (!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> index
  func.return
}
// CHECK: requires attribute 'computeType'

// -----

func.func @compute_type_not_a_type(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  %b = "gpu.spmv_buffer_size"(%s, %d, %d) <{computeType = 1 : i32}> : (!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> index
  func.return
}
// CHECK: Invalid attribute `computeType` in property conversion: 1 : i32

// -----

func.func @mode_of_wrong_enum(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  %b = "gpu.spmv_buffer_size"(%s, %d, %d) <{computeType = f32, modeA = #gpu<prune_2to4_spmat_flag NONE>}> : (!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> index
  func.return
}
// CHECK: Invalid attribute `modeA` in property conversion: #gpu<prune_2to4_spmat_flag NONE>

// -----

func.func @dense_handle_for_sparse(%d: !gpu.sparse.dntensor_handle) {
  %b = "gpu.spmv_buffer_size"(%d, %d, %d) <{computeType = f32}> : (!gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> index
  func.return
}
// CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'

// -----

func.func @sparse_handle_for_dense(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  %b = gpu.sddmm_buffer_size %s, %d, %s into f32
  func.return
}
// XDSL: operand is used with type !gpu.sparse.dntensor_handle, but has been previously used or defined with type !gpu.sparse.spmat_handle
// MLIR: use of value '%s' expects different type than prior uses: '!gpu.sparse.dntensor_handle' vs '!gpu.sparse.spmat_handle'

// -----

func.func @spgemm_descriptor_type(%a: !gpu.sparse.spmat_handle) {
  gpu.spgemm_destroy_descr %a
  func.return
}
// XDSL: operand is used with type !gpu.sparse.spgemmop_handle, but has been previously used or defined with type !gpu.sparse.spmat_handle
// MLIR: use of value '%a' expects different type than prior uses: '!gpu.sparse.spgemmop_handle' vs '!gpu.sparse.spmat_handle'

// -----

func.func @buffer_size_not_index(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  %b = "gpu.spmv_buffer_size"(%s, %d, %d) <{computeType = f32}> : (!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> i64
  func.return
}
// CHECK: must be index, but got 'i64'

// -----

func.func @size_not_index(%m: memref<?xf64>, %i: i32) {
  %s = "gpu.create_coo"(%i, %i, %i, %m, %m, %m) : (i32, i32, i32, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> !gpu.sparse.spmat_handle
  func.return
}
// CHECK: must be index, but got 'i32'

// -----

func.func @unranked_buffer(%m: memref<*xf64>, %n: index) {
  %s = "gpu.create_csr"(%n, %n, %n, %m, %m, %m) : (index, index, index, memref<*xf64>, memref<*xf64>, memref<*xf64>) -> !gpu.sparse.spmat_handle
  func.return
}
// CHECK: must be memref of any type values, but got 'memref<*xf64>'

// -----

func.func @handle_of_wrong_kind(%m: memref<?xf64>, %n: index) {
  %s = "gpu.create_coo"(%n, %n, %n, %m, %m, %m) : (index, index, index, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> !gpu.sparse.dntensor_handle
  func.return
}
// CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'

// -----

func.func @dn_tensor_segments(%m: memref<?xf64>, %n: index) {
  %d = "gpu.create_dn_tensor"(%m, %n) <{operandSegmentSizes = array<i32: 0, 1, 2>}> : (memref<?xf64>, index) -> !gpu.sparse.dntensor_handle
  func.return
}
// CHECK: operand count (2) does not match with the total size (3) specified in attribute 'operandSegmentSizes'

// -----

func.func @spmm_buffer_size_segments(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  %a, %b = "gpu.spmm_buffer_size"(%s, %d, %d) <{computeType = f32, resultSegmentSizes = array<i32: 1, 0>}> : (!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> (index, index)
  func.return
}
// CHECK: result count (2) does not match with the total size (1) specified in attribute 'resultSegmentSizes'

// -----

func.func @spmm_buffers_memref(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle, %t: tensor<4xf32>) {
  "gpu.spmm"(%s, %d, %d, %t) <{computeType = f32, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1>}> : (!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, tensor<4xf32>) -> ()
  func.return
}
// CHECK: must be variadic of memref of any type values, but got 'tensor<4xf32>'

// -----

func.func @token_result_type(%s: !gpu.sparse.spmat_handle) {
  %t = "gpu.destroy_sp_mat"(%s) : (!gpu.sparse.spmat_handle) -> index
  func.return
}
// CHECK: must be async token type, but got 'index'

// -----

func.func @bad_transpose_mode_attribute() {
  // CHECK: expected ::mlir::gpu::TransposeMode to be one of: NON_TRANSPOSE, TRANSPOSE, CONJUGATE_TRANSPOSE
  "test.op"() {mode = #gpu<mat_transpose_mode FOO>} : () -> ()
  func.return
}

// -----

func.func @prune_flag_of_wrong_enum(%n: index, %m: memref<?xf64>) {
  // CHECK: Invalid attribute `pruneFlag` in property conversion: #gpu<mat_transpose_mode TRANSPOSE>
  %s = "gpu.create_2to4_spmat"(%n, %n, %m) <{pruneFlag = #gpu<mat_transpose_mode TRANSPOSE>}> : (index, index, memref<?xf64>) -> !gpu.sparse.spmat_handle
  func.return
}

// -----

func.func @kind_of_wrong_enum(%a: !gpu.sparse.spmat_handle, %desc: !gpu.sparse.spgemmop_handle, %n: index, %buf: memref<?xi8>) {
  // CHECK: Invalid attribute `kind` in property conversion: #gpu<mat_transpose_mode TRANSPOSE>
  %sz = "gpu.spgemm_work_estimation_or_compute"(%desc, %a, %a, %a, %n, %buf) <{computeType = f32, kind = #gpu<mat_transpose_mode TRANSPOSE>}> : (!gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, index, memref<?xi8>) -> index
  func.return
}

// -----

// ===--- In the custom syntax, a memref type of the wrong kind is a parse error ---=== //

func.func @create_csr_custom_unranked(%m: memref<*xf64>, %n: index) {
  // CHECK: invalid kind of type specified: expected builtin.memref, but found 'memref<*xf64>'
  %s = gpu.create_csr %n, %n, %n, %m, %m, %m : memref<*xf64>, memref<*xf64>, memref<*xf64>
  func.return
}

// -----

func.func @create_dn_tensor_custom_unranked(%m: memref<*xf64>, %n: index) {
  // CHECK: invalid kind of type specified: expected builtin.memref, but found 'memref<*xf64>'
  %s = gpu.create_dn_tensor %m, %n : index into memref<*xf64>
  func.return
}

// -----

// A variadic memref is parsed as any type, and checked by the verifier.
func.func @spmm_custom_tensor(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle, %t: tensor<4xf32>) {
  // CHECK: must be variadic of memref of any type values, but got 'tensor<4xf32>'
  gpu.spmm %s, %d, %d, %t : tensor<4xf32> into f32
  func.return
}

// -----

func.func @spmm_buffer_size_custom_i32(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  // CHECK: must be variadic of index, but got 'i32'
  %b = gpu.spmm_buffer_size %s, %d, %d : i32 into f32
  func.return
}

// -----

// ===--- The type rules that the chunks above leave out: one chunk each ---=== //

func.func @create_dn_tensor_async_dependencies(%a0: index, %a1: memref<?xf64>, %a2: index) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0, %r1 = "gpu.create_dn_tensor"(%a0, %a1, %a2) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (index, memref<?xf64>, index) -> (!gpu.sparse.dntensor_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_dn_tensor_memref(%a0: !gpu.async.token, %a1: tensor<4xf32>, %a2: index) {
  // CHECK: must be memref of any type values, but got 'tensor<4xf32>'
  %r0, %r1 = "gpu.create_dn_tensor"(%a0, %a1, %a2) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (!gpu.async.token, tensor<4xf32>, index) -> (!gpu.sparse.dntensor_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_dn_tensor_dims(%a0: !gpu.async.token, %a1: memref<?xf64>, %a2: i32) {
  // CHECK: must be variadic of index, but got 'i32'
  %r0, %r1 = "gpu.create_dn_tensor"(%a0, %a1, %a2) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (!gpu.async.token, memref<?xf64>, i32) -> (!gpu.sparse.dntensor_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_dn_tensor_dn_tensor(%a0: !gpu.async.token, %a1: memref<?xf64>, %a2: index) {
  // CHECK: must be dense tensor handle type, but got '!gpu.sparse.spmat_handle'
  %r0, %r1 = "gpu.create_dn_tensor"(%a0, %a1, %a2) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (!gpu.async.token, memref<?xf64>, index) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_dn_tensor_async_token(%a0: !gpu.async.token, %a1: memref<?xf64>, %a2: index) {
  // CHECK: must be async token type, but got 'index'
  %r0, %r1 = "gpu.create_dn_tensor"(%a0, %a1, %a2) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (!gpu.async.token, memref<?xf64>, index) -> (!gpu.sparse.dntensor_handle, index)
  func.return
}

// -----

func.func @destroy_dn_tensor_async_dependencies(%a0: index, %a1: !gpu.sparse.dntensor_handle) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0 = "gpu.destroy_dn_tensor"(%a0, %a1) : (index, !gpu.sparse.dntensor_handle) -> (!gpu.async.token)
  func.return
}

// -----

func.func @destroy_dn_tensor_dn_tensor(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle) {
  // CHECK: must be dense tensor handle type, but got '!gpu.sparse.spmat_handle'
  %r0 = "gpu.destroy_dn_tensor"(%a0, %a1) : (!gpu.async.token, !gpu.sparse.spmat_handle) -> (!gpu.async.token)
  func.return
}

// -----

func.func @destroy_dn_tensor_async_token(%a0: !gpu.async.token, %a1: !gpu.sparse.dntensor_handle) {
  // CHECK: must be async token type, but got 'index'
  %r0 = "gpu.destroy_dn_tensor"(%a0, %a1) : (!gpu.async.token, !gpu.sparse.dntensor_handle) -> (index)
  func.return
}

// -----

func.func @create_coo_async_dependencies(%a0: index, %a1: index, %a2: index, %a3: index, %a4: memref<?xindex>, %a5: memref<?xindex>, %a6: memref<?xf64>) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0, %r1 = "gpu.create_coo"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) : (index, index, index, index, memref<?xindex>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_coo_row_idxs(%a0: !gpu.async.token, %a1: index, %a2: index, %a3: index, %a4: tensor<4xf32>, %a5: memref<?xindex>, %a6: memref<?xf64>) {
  // CHECK: must be memref of any type values, but got 'tensor<4xf32>'
  %r0, %r1 = "gpu.create_coo"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) : (!gpu.async.token, index, index, index, tensor<4xf32>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_coo_async_token(%a0: !gpu.async.token, %a1: index, %a2: index, %a3: index, %a4: memref<?xindex>, %a5: memref<?xindex>, %a6: memref<?xf64>) {
  // CHECK: must be async token type, but got 'index'
  %r0, %r1 = "gpu.create_coo"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) : (!gpu.async.token, index, index, index, memref<?xindex>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, index)
  func.return
}

// -----

func.func @create_coo_aos_async_dependencies(%a0: index, %a1: index, %a2: index, %a3: index, %a4: memref<?xindex>, %a5: memref<?xf64>) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0, %r1 = "gpu.create_coo_aos"(%a0, %a1, %a2, %a3, %a4, %a5) : (index, index, index, index, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_coo_aos_rows(%a0: !gpu.async.token, %a1: i32, %a2: index, %a3: index, %a4: memref<?xindex>, %a5: memref<?xf64>) {
  // CHECK: must be index, but got 'i32'
  %r0, %r1 = "gpu.create_coo_aos"(%a0, %a1, %a2, %a3, %a4, %a5) : (!gpu.async.token, i32, index, index, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_coo_aos_idxs(%a0: !gpu.async.token, %a1: index, %a2: index, %a3: index, %a4: tensor<4xf32>, %a5: memref<?xf64>) {
  // CHECK: must be memref of any type values, but got 'tensor<4xf32>'
  %r0, %r1 = "gpu.create_coo_aos"(%a0, %a1, %a2, %a3, %a4, %a5) : (!gpu.async.token, index, index, index, tensor<4xf32>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_coo_aos_spmat(%a0: !gpu.async.token, %a1: index, %a2: index, %a3: index, %a4: memref<?xindex>, %a5: memref<?xf64>) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0, %r1 = "gpu.create_coo_aos"(%a0, %a1, %a2, %a3, %a4, %a5) : (!gpu.async.token, index, index, index, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.dntensor_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_coo_aos_async_token(%a0: !gpu.async.token, %a1: index, %a2: index, %a3: index, %a4: memref<?xindex>, %a5: memref<?xf64>) {
  // CHECK: must be async token type, but got 'index'
  %r0, %r1 = "gpu.create_coo_aos"(%a0, %a1, %a2, %a3, %a4, %a5) : (!gpu.async.token, index, index, index, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, index)
  func.return
}

// -----

func.func @create_csr_async_dependencies(%a0: index, %a1: index, %a2: index, %a3: index, %a4: memref<?xindex>, %a5: memref<?xi32>, %a6: memref<?xf64>) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0, %r1 = "gpu.create_csr"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) : (index, index, index, index, memref<?xindex>, memref<?xi32>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_csr_rows(%a0: !gpu.async.token, %a1: i32, %a2: index, %a3: index, %a4: memref<?xindex>, %a5: memref<?xi32>, %a6: memref<?xf64>) {
  // CHECK: must be index, but got 'i32'
  %r0, %r1 = "gpu.create_csr"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) : (!gpu.async.token, i32, index, index, memref<?xindex>, memref<?xi32>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_csr_spmat(%a0: !gpu.async.token, %a1: index, %a2: index, %a3: index, %a4: memref<?xindex>, %a5: memref<?xi32>, %a6: memref<?xf64>) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0, %r1 = "gpu.create_csr"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) : (!gpu.async.token, index, index, index, memref<?xindex>, memref<?xi32>, memref<?xf64>) -> (!gpu.sparse.dntensor_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_csr_async_token(%a0: !gpu.async.token, %a1: index, %a2: index, %a3: index, %a4: memref<?xindex>, %a5: memref<?xi32>, %a6: memref<?xf64>) {
  // CHECK: must be async token type, but got 'index'
  %r0, %r1 = "gpu.create_csr"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) : (!gpu.async.token, index, index, index, memref<?xindex>, memref<?xi32>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, index)
  func.return
}

// -----

func.func @create_csc_rows(%a0: i32, %a1: index, %a2: index, %a3: memref<?xi32>, %a4: memref<?xindex>, %a5: memref<?xf64>) {
  // CHECK: must be index, but got 'i32'
  %r0 = "gpu.create_csc"(%a0, %a1, %a2, %a3, %a4, %a5) : (i32, index, index, memref<?xi32>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle)
  func.return
}

// -----

func.func @create_csc_col_pos(%a0: index, %a1: index, %a2: index, %a3: tensor<4xf32>, %a4: memref<?xindex>, %a5: memref<?xf64>) {
  // CHECK: must be memref of any type values, but got 'tensor<4xf32>'
  %r0 = "gpu.create_csc"(%a0, %a1, %a2, %a3, %a4, %a5) : (index, index, index, tensor<4xf32>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle)
  func.return
}

// -----

func.func @create_csc_spmat(%a0: index, %a1: index, %a2: index, %a3: memref<?xi32>, %a4: memref<?xindex>, %a5: memref<?xf64>) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0 = "gpu.create_csc"(%a0, %a1, %a2, %a3, %a4, %a5) : (index, index, index, memref<?xi32>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.dntensor_handle)
  func.return
}

// -----

func.func @create_bsr_async_dependencies(%a0: index, %a1: index, %a2: index, %a3: index, %a4: index, %a5: index, %a6: memref<?xindex>, %a7: memref<?xindex>, %a8: memref<?xf64>) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0, %r1 = "gpu.create_bsr"(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8) : (index, index, index, index, index, index, memref<?xindex>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_bsr_brows(%a0: !gpu.async.token, %a1: i32, %a2: index, %a3: index, %a4: index, %a5: index, %a6: memref<?xindex>, %a7: memref<?xindex>, %a8: memref<?xf64>) {
  // CHECK: must be index, but got 'i32'
  %r0, %r1 = "gpu.create_bsr"(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8) : (!gpu.async.token, i32, index, index, index, index, memref<?xindex>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_bsr_b_row_pos(%a0: !gpu.async.token, %a1: index, %a2: index, %a3: index, %a4: index, %a5: index, %a6: tensor<4xf32>, %a7: memref<?xindex>, %a8: memref<?xf64>) {
  // CHECK: must be memref of any type values, but got 'tensor<4xf32>'
  %r0, %r1 = "gpu.create_bsr"(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8) : (!gpu.async.token, index, index, index, index, index, tensor<4xf32>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_bsr_spmat(%a0: !gpu.async.token, %a1: index, %a2: index, %a3: index, %a4: index, %a5: index, %a6: memref<?xindex>, %a7: memref<?xindex>, %a8: memref<?xf64>) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0, %r1 = "gpu.create_bsr"(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8) : (!gpu.async.token, index, index, index, index, index, memref<?xindex>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.dntensor_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_bsr_async_token(%a0: !gpu.async.token, %a1: index, %a2: index, %a3: index, %a4: index, %a5: index, %a6: memref<?xindex>, %a7: memref<?xindex>, %a8: memref<?xf64>) {
  // CHECK: must be async token type, but got 'index'
  %r0, %r1 = "gpu.create_bsr"(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8) : (!gpu.async.token, index, index, index, index, index, memref<?xindex>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, index)
  func.return
}

// -----

func.func @create_2to4_spmat_async_dependencies(%a0: index, %a1: index, %a2: index, %a3: memref<?xf64>) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0, %r1 = "gpu.create_2to4_spmat"(%a0, %a1, %a2, %a3) <{pruneFlag = #gpu<prune_2to4_spmat_flag PRUNE_AND_CHECK>}> : (index, index, index, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_2to4_spmat_rows(%a0: !gpu.async.token, %a1: i32, %a2: index, %a3: memref<?xf64>) {
  // CHECK: must be index, but got 'i32'
  %r0, %r1 = "gpu.create_2to4_spmat"(%a0, %a1, %a2, %a3) <{pruneFlag = #gpu<prune_2to4_spmat_flag PRUNE_AND_CHECK>}> : (!gpu.async.token, i32, index, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_2to4_spmat_memref(%a0: !gpu.async.token, %a1: index, %a2: index, %a3: tensor<4xf32>) {
  // CHECK: must be memref of any type values, but got 'tensor<4xf32>'
  %r0, %r1 = "gpu.create_2to4_spmat"(%a0, %a1, %a2, %a3) <{pruneFlag = #gpu<prune_2to4_spmat_flag PRUNE_AND_CHECK>}> : (!gpu.async.token, index, index, tensor<4xf32>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_2to4_spmat_spmat(%a0: !gpu.async.token, %a1: index, %a2: index, %a3: memref<?xf64>) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0, %r1 = "gpu.create_2to4_spmat"(%a0, %a1, %a2, %a3) <{pruneFlag = #gpu<prune_2to4_spmat_flag PRUNE_AND_CHECK>}> : (!gpu.async.token, index, index, memref<?xf64>) -> (!gpu.sparse.dntensor_handle, !gpu.async.token)
  func.return
}

// -----

func.func @create_2to4_spmat_async_token(%a0: !gpu.async.token, %a1: index, %a2: index, %a3: memref<?xf64>) {
  // CHECK: must be async token type, but got 'index'
  %r0, %r1 = "gpu.create_2to4_spmat"(%a0, %a1, %a2, %a3) <{pruneFlag = #gpu<prune_2to4_spmat_flag PRUNE_AND_CHECK>}> : (!gpu.async.token, index, index, memref<?xf64>) -> (!gpu.sparse.spmat_handle, index)
  func.return
}

// -----

func.func @destroy_sp_mat_async_dependencies(%a0: index, %a1: !gpu.sparse.spmat_handle) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0 = "gpu.destroy_sp_mat"(%a0, %a1) : (index, !gpu.sparse.spmat_handle) -> (!gpu.async.token)
  func.return
}

// -----

func.func @destroy_sp_mat_spmat(%a0: !gpu.async.token, %a1: !gpu.sparse.dntensor_handle) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0 = "gpu.destroy_sp_mat"(%a0, %a1) : (!gpu.async.token, !gpu.sparse.dntensor_handle) -> (!gpu.async.token)
  func.return
}

// -----

func.func @spmv_buffer_size_async_dependencies(%a0: index, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0, %r1 = "gpu.spmv_buffer_size"(%a0, %a1, %a2, %a3) <{modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, computeType = f64}> : (index, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> (index, !gpu.async.token)
  func.return
}

// -----

func.func @spmv_buffer_size_dn_x(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.spmat_handle, %a3: !gpu.sparse.dntensor_handle) {
  // CHECK: must be dense tensor handle type, but got '!gpu.sparse.spmat_handle'
  %r0, %r1 = "gpu.spmv_buffer_size"(%a0, %a1, %a2, %a3) <{modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, computeType = f64}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle) -> (index, !gpu.async.token)
  func.return
}

// -----

func.func @spmv_buffer_size_async_token(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle) {
  // CHECK: must be async token type, but got 'index'
  %r0, %r1 = "gpu.spmv_buffer_size"(%a0, %a1, %a2, %a3) <{modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, computeType = f64}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> (index, index)
  func.return
}

// -----

func.func @spmv_async_dependencies(%a0: index, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle, %a4: memref<?xf64>) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0 = "gpu.spmv"(%a0, %a1, %a2, %a3, %a4) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64}> : (index, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xf64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @spmv_spmat_a(%a0: !gpu.async.token, %a1: !gpu.sparse.dntensor_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle, %a4: memref<?xf64>) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0 = "gpu.spmv"(%a0, %a1, %a2, %a3, %a4) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64}> : (!gpu.async.token, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xf64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @spmv_dn_x(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.spmat_handle, %a3: !gpu.sparse.dntensor_handle, %a4: memref<?xf64>) {
  // CHECK: must be dense tensor handle type, but got '!gpu.sparse.spmat_handle'
  %r0 = "gpu.spmv"(%a0, %a1, %a2, %a3, %a4) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, memref<?xf64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @spmv_buffer(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle, %a4: tensor<4xf32>) {
  // CHECK: must be memref of any type values, but got 'tensor<4xf32>'
  %r0 = "gpu.spmv"(%a0, %a1, %a2, %a3, %a4) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, tensor<4xf32>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @spmv_async_token(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle, %a4: memref<?xf64>) {
  // CHECK: must be async token type, but got 'index'
  %r0 = "gpu.spmv"(%a0, %a1, %a2, %a3, %a4) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xf64>) -> (index)
  func.return
}

// -----

func.func @spmm_buffer_size_async_dependencies(%a0: index, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0, %r1, %r2, %r3 = "gpu.spmm_buffer_size"(%a0, %a1, %a2, %a3) <{modeA = #gpu<mat_transpose_mode CONJUGATE_TRANSPOSE>, computeType = f16, resultSegmentSizes = array<i32: 3, 1>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (index, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> (index, index, index, !gpu.async.token)
  func.return
}

// -----

func.func @spmm_buffer_size_spmat_a(%a0: !gpu.async.token, %a1: !gpu.sparse.dntensor_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0, %r1, %r2, %r3 = "gpu.spmm_buffer_size"(%a0, %a1, %a2, %a3) <{modeA = #gpu<mat_transpose_mode CONJUGATE_TRANSPOSE>, computeType = f16, resultSegmentSizes = array<i32: 3, 1>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> (index, index, index, !gpu.async.token)
  func.return
}

// -----

func.func @spmm_buffer_size_dnmat_b(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.spmat_handle, %a3: !gpu.sparse.dntensor_handle) {
  // CHECK: must be dense tensor handle type, but got '!gpu.sparse.spmat_handle'
  %r0, %r1, %r2, %r3 = "gpu.spmm_buffer_size"(%a0, %a1, %a2, %a3) <{modeA = #gpu<mat_transpose_mode CONJUGATE_TRANSPOSE>, computeType = f16, resultSegmentSizes = array<i32: 3, 1>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle) -> (index, index, index, !gpu.async.token)
  func.return
}

// -----

func.func @spmm_buffer_size_buffer_szs(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle) {
  // CHECK: must be variadic of index, but got 'i32'
  %r0, %r1, %r2, %r3 = "gpu.spmm_buffer_size"(%a0, %a1, %a2, %a3) <{modeA = #gpu<mat_transpose_mode CONJUGATE_TRANSPOSE>, computeType = f16, resultSegmentSizes = array<i32: 3, 1>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> (i32, index, index, !gpu.async.token)
  func.return
}

// -----

func.func @spmm_buffer_size_async_token(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle) {
  // CHECK: must be async token type, but got 'index'
  %r0, %r1, %r2, %r3 = "gpu.spmm_buffer_size"(%a0, %a1, %a2, %a3) <{modeA = #gpu<mat_transpose_mode CONJUGATE_TRANSPOSE>, computeType = f16, resultSegmentSizes = array<i32: 3, 1>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> (index, index, index, index)
  func.return
}

// -----

func.func @spmm_async_dependencies(%a0: index, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle, %a4: memref<?xf64>, %a5: memref<?xi8>, %a6: memref<?xf64>) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0 = "gpu.spmm"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, modeB = #gpu<mat_transpose_mode TRANSPOSE>, computeType = bf16, operandSegmentSizes = array<i32: 1, 1, 1, 1, 3>}> : (index, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xf64>, memref<?xi8>, memref<?xf64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @spmm_spmat_a(%a0: !gpu.async.token, %a1: !gpu.sparse.dntensor_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle, %a4: memref<?xf64>, %a5: memref<?xi8>, %a6: memref<?xf64>) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0 = "gpu.spmm"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, modeB = #gpu<mat_transpose_mode TRANSPOSE>, computeType = bf16, operandSegmentSizes = array<i32: 1, 1, 1, 1, 3>}> : (!gpu.async.token, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xf64>, memref<?xi8>, memref<?xf64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @spmm_dnmat_b(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.spmat_handle, %a3: !gpu.sparse.dntensor_handle, %a4: memref<?xf64>, %a5: memref<?xi8>, %a6: memref<?xf64>) {
  // CHECK: must be dense tensor handle type, but got '!gpu.sparse.spmat_handle'
  %r0 = "gpu.spmm"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, modeB = #gpu<mat_transpose_mode TRANSPOSE>, computeType = bf16, operandSegmentSizes = array<i32: 1, 1, 1, 1, 3>}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, memref<?xf64>, memref<?xi8>, memref<?xf64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @spmm_async_token(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle, %a4: memref<?xf64>, %a5: memref<?xi8>, %a6: memref<?xf64>) {
  // CHECK: must be async token type, but got 'index'
  %r0 = "gpu.spmm"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, modeB = #gpu<mat_transpose_mode TRANSPOSE>, computeType = bf16, operandSegmentSizes = array<i32: 1, 1, 1, 1, 3>}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xf64>, memref<?xi8>, memref<?xf64>) -> (index)
  func.return
}

// -----

func.func @sddmm_buffer_size_async_dependencies(%a0: index, %a1: !gpu.sparse.dntensor_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.spmat_handle) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0, %r1 = "gpu.sddmm_buffer_size"(%a0, %a1, %a2, %a3) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (index, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.spmat_handle) -> (index, !gpu.async.token)
  func.return
}

// -----

func.func @sddmm_buffer_size_dnmat_a(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.spmat_handle) {
  // CHECK: must be dense tensor handle type, but got '!gpu.sparse.spmat_handle'
  %r0, %r1 = "gpu.sddmm_buffer_size"(%a0, %a1, %a2, %a3) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.spmat_handle) -> (index, !gpu.async.token)
  func.return
}

// -----

func.func @sddmm_buffer_size_spmat_c(%a0: !gpu.async.token, %a1: !gpu.sparse.dntensor_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0, %r1 = "gpu.sddmm_buffer_size"(%a0, %a1, %a2, %a3) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> (index, !gpu.async.token)
  func.return
}

// -----

func.func @sddmm_buffer_size_buffer_sz(%a0: !gpu.async.token, %a1: !gpu.sparse.dntensor_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.spmat_handle) {
  // CHECK: must be index, but got 'i32'
  %r0, %r1 = "gpu.sddmm_buffer_size"(%a0, %a1, %a2, %a3) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.spmat_handle) -> (i32, !gpu.async.token)
  func.return
}

// -----

func.func @sddmm_buffer_size_async_token(%a0: !gpu.async.token, %a1: !gpu.sparse.dntensor_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.spmat_handle) {
  // CHECK: must be async token type, but got 'index'
  %r0, %r1 = "gpu.sddmm_buffer_size"(%a0, %a1, %a2, %a3) <{modeA = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.spmat_handle) -> (index, index)
  func.return
}

// -----

func.func @sddmm_async_dependencies(%a0: index, %a1: !gpu.sparse.dntensor_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.spmat_handle, %a4: memref<?xf64>) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0 = "gpu.sddmm"(%a0, %a1, %a2, %a3, %a4) <{modeB = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (index, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.spmat_handle, memref<?xf64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @sddmm_dnmat_a(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.spmat_handle, %a4: memref<?xf64>) {
  // CHECK: must be dense tensor handle type, but got '!gpu.sparse.spmat_handle'
  %r0 = "gpu.sddmm"(%a0, %a1, %a2, %a3, %a4) <{modeB = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.spmat_handle, memref<?xf64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @sddmm_spmat_c(%a0: !gpu.async.token, %a1: !gpu.sparse.dntensor_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.dntensor_handle, %a4: memref<?xf64>) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0 = "gpu.sddmm"(%a0, %a1, %a2, %a3, %a4) <{modeB = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xf64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @sddmm_buffer(%a0: !gpu.async.token, %a1: !gpu.sparse.dntensor_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.spmat_handle, %a4: tensor<4xf32>) {
  // CHECK: must be memref of any type values, but got 'tensor<4xf32>'
  %r0 = "gpu.sddmm"(%a0, %a1, %a2, %a3, %a4) <{modeB = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.spmat_handle, tensor<4xf32>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @sddmm_async_token(%a0: !gpu.async.token, %a1: !gpu.sparse.dntensor_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.spmat_handle, %a4: memref<?xf64>) {
  // CHECK: must be async token type, but got 'index'
  %r0 = "gpu.sddmm"(%a0, %a1, %a2, %a3, %a4) <{modeB = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f64, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.spmat_handle, memref<?xf64>) -> (index)
  func.return
}

// -----

func.func @spgemm_create_descr_async_dependencies(%a0: index) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0, %r1 = "gpu.spgemm_create_descr"(%a0) : (index) -> (!gpu.sparse.spgemmop_handle, !gpu.async.token)
  func.return
}

// -----

func.func @spgemm_create_descr_desc(%a0: !gpu.async.token) {
  // CHECK: must be SpGEMM operation handle type, but got '!gpu.sparse.spmat_handle'
  %r0, %r1 = "gpu.spgemm_create_descr"(%a0) : (!gpu.async.token) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  func.return
}

// -----

func.func @spgemm_create_descr_async_token(%a0: !gpu.async.token) {
  // CHECK: must be async token type, but got 'index'
  %r0, %r1 = "gpu.spgemm_create_descr"(%a0) : (!gpu.async.token) -> (!gpu.sparse.spgemmop_handle, index)
  func.return
}

// -----

func.func @spgemm_destroy_descr_async_dependencies(%a0: index, %a1: !gpu.sparse.spgemmop_handle) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0 = "gpu.spgemm_destroy_descr"(%a0, %a1) : (index, !gpu.sparse.spgemmop_handle) -> (!gpu.async.token)
  func.return
}

// -----

func.func @spgemm_destroy_descr_desc(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle) {
  // CHECK: must be SpGEMM operation handle type, but got '!gpu.sparse.spmat_handle'
  %r0 = "gpu.spgemm_destroy_descr"(%a0, %a1) : (!gpu.async.token, !gpu.sparse.spmat_handle) -> (!gpu.async.token)
  func.return
}

// -----

func.func @spgemm_destroy_descr_async_token(%a0: !gpu.async.token, %a1: !gpu.sparse.spgemmop_handle) {
  // CHECK: must be async token type, but got 'index'
  %r0 = "gpu.spgemm_destroy_descr"(%a0, %a1) : (!gpu.async.token, !gpu.sparse.spgemmop_handle) -> (index)
  func.return
}

// -----

func.func @spgemm_work_estimation_or_compute_async_dependencies(%a0: index, %a1: !gpu.sparse.spgemmop_handle, %a2: !gpu.sparse.spmat_handle, %a3: !gpu.sparse.spmat_handle, %a4: !gpu.sparse.spmat_handle, %a5: index, %a6: memref<0xi8>) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0, %r1 = "gpu.spgemm_work_estimation_or_compute"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) <{kind = #gpu<spgemm_work_estimation_or_compute_kind WORK_ESTIMATION>, computeType = f32, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (index, !gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, index, memref<0xi8>) -> (index, !gpu.async.token)
  func.return
}

// -----

func.func @spgemm_work_estimation_or_compute_desc(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.spmat_handle, %a3: !gpu.sparse.spmat_handle, %a4: !gpu.sparse.spmat_handle, %a5: index, %a6: memref<0xi8>) {
  // CHECK: must be SpGEMM operation handle type, but got '!gpu.sparse.spmat_handle'
  %r0, %r1 = "gpu.spgemm_work_estimation_or_compute"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) <{kind = #gpu<spgemm_work_estimation_or_compute_kind WORK_ESTIMATION>, computeType = f32, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, index, memref<0xi8>) -> (index, !gpu.async.token)
  func.return
}

// -----

func.func @spgemm_work_estimation_or_compute_spmat_a(%a0: !gpu.async.token, %a1: !gpu.sparse.spgemmop_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.spmat_handle, %a4: !gpu.sparse.spmat_handle, %a5: index, %a6: memref<0xi8>) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0, %r1 = "gpu.spgemm_work_estimation_or_compute"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) <{kind = #gpu<spgemm_work_estimation_or_compute_kind WORK_ESTIMATION>, computeType = f32, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spgemmop_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, index, memref<0xi8>) -> (index, !gpu.async.token)
  func.return
}

// -----

func.func @spgemm_work_estimation_or_compute_buffer_sz(%a0: !gpu.async.token, %a1: !gpu.sparse.spgemmop_handle, %a2: !gpu.sparse.spmat_handle, %a3: !gpu.sparse.spmat_handle, %a4: !gpu.sparse.spmat_handle, %a5: i32, %a6: memref<0xi8>) {
  // CHECK: must be index, but got 'i32'
  %r0, %r1 = "gpu.spgemm_work_estimation_or_compute"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) <{kind = #gpu<spgemm_work_estimation_or_compute_kind WORK_ESTIMATION>, computeType = f32, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, i32, memref<0xi8>) -> (index, !gpu.async.token)
  func.return
}

// -----

func.func @spgemm_work_estimation_or_compute_buffer(%a0: !gpu.async.token, %a1: !gpu.sparse.spgemmop_handle, %a2: !gpu.sparse.spmat_handle, %a3: !gpu.sparse.spmat_handle, %a4: !gpu.sparse.spmat_handle, %a5: index, %a6: tensor<4xf32>) {
  // CHECK: must be memref of any type values, but got 'tensor<4xf32>'
  %r0, %r1 = "gpu.spgemm_work_estimation_or_compute"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) <{kind = #gpu<spgemm_work_estimation_or_compute_kind WORK_ESTIMATION>, computeType = f32, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, index, tensor<4xf32>) -> (index, !gpu.async.token)
  func.return
}

// -----

func.func @spgemm_work_estimation_or_compute_buffer_sz_new(%a0: !gpu.async.token, %a1: !gpu.sparse.spgemmop_handle, %a2: !gpu.sparse.spmat_handle, %a3: !gpu.sparse.spmat_handle, %a4: !gpu.sparse.spmat_handle, %a5: index, %a6: memref<0xi8>) {
  // CHECK: must be index, but got 'i32'
  %r0, %r1 = "gpu.spgemm_work_estimation_or_compute"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) <{kind = #gpu<spgemm_work_estimation_or_compute_kind WORK_ESTIMATION>, computeType = f32, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, index, memref<0xi8>) -> (i32, !gpu.async.token)
  func.return
}

// -----

func.func @spgemm_work_estimation_or_compute_async_token(%a0: !gpu.async.token, %a1: !gpu.sparse.spgemmop_handle, %a2: !gpu.sparse.spmat_handle, %a3: !gpu.sparse.spmat_handle, %a4: !gpu.sparse.spmat_handle, %a5: index, %a6: memref<0xi8>) {
  // CHECK: must be async token type, but got 'index'
  %r0, %r1 = "gpu.spgemm_work_estimation_or_compute"(%a0, %a1, %a2, %a3, %a4, %a5, %a6) <{kind = #gpu<spgemm_work_estimation_or_compute_kind WORK_ESTIMATION>, computeType = f32, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, index, memref<0xi8>) -> (index, index)
  func.return
}

// -----

func.func @spgemm_copy_async_dependencies(%a0: index, %a1: !gpu.sparse.spgemmop_handle, %a2: !gpu.sparse.spmat_handle, %a3: !gpu.sparse.spmat_handle, %a4: !gpu.sparse.spmat_handle) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0 = "gpu.spgemm_copy"(%a0, %a1, %a2, %a3, %a4) <{modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f32}> : (index, !gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle) -> (!gpu.async.token)
  func.return
}

// -----

func.func @spgemm_copy_desc(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: !gpu.sparse.spmat_handle, %a3: !gpu.sparse.spmat_handle, %a4: !gpu.sparse.spmat_handle) {
  // CHECK: must be SpGEMM operation handle type, but got '!gpu.sparse.spmat_handle'
  %r0 = "gpu.spgemm_copy"(%a0, %a1, %a2, %a3, %a4) <{modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f32}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle) -> (!gpu.async.token)
  func.return
}

// -----

func.func @spgemm_copy_spmat_a(%a0: !gpu.async.token, %a1: !gpu.sparse.spgemmop_handle, %a2: !gpu.sparse.dntensor_handle, %a3: !gpu.sparse.spmat_handle, %a4: !gpu.sparse.spmat_handle) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0 = "gpu.spgemm_copy"(%a0, %a1, %a2, %a3, %a4) <{modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f32}> : (!gpu.async.token, !gpu.sparse.spgemmop_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle) -> (!gpu.async.token)
  func.return
}

// -----

func.func @spgemm_copy_async_token(%a0: !gpu.async.token, %a1: !gpu.sparse.spgemmop_handle, %a2: !gpu.sparse.spmat_handle, %a3: !gpu.sparse.spmat_handle, %a4: !gpu.sparse.spmat_handle) {
  // CHECK: must be async token type, but got 'index'
  %r0 = "gpu.spgemm_copy"(%a0, %a1, %a2, %a3, %a4) <{modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode TRANSPOSE>, computeType = f32}> : (!gpu.async.token, !gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle) -> (index)
  func.return
}

// -----

func.func @spmat_get_size_async_dependencies(%a0: index, %a1: !gpu.sparse.spmat_handle) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0, %r1, %r2, %r3 = "gpu.spmat_get_size"(%a0, %a1) : (index, !gpu.sparse.spmat_handle) -> (index, index, index, !gpu.async.token)
  func.return
}

// -----

func.func @spmat_get_size_spmat(%a0: !gpu.async.token, %a1: !gpu.sparse.dntensor_handle) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0, %r1, %r2, %r3 = "gpu.spmat_get_size"(%a0, %a1) : (!gpu.async.token, !gpu.sparse.dntensor_handle) -> (index, index, index, !gpu.async.token)
  func.return
}

// -----

func.func @spmat_get_size_rows(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle) {
  // CHECK: must be index, but got 'i32'
  %r0, %r1, %r2, %r3 = "gpu.spmat_get_size"(%a0, %a1) : (!gpu.async.token, !gpu.sparse.spmat_handle) -> (i32, index, index, !gpu.async.token)
  func.return
}

// -----

func.func @spmat_get_size_async_token(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle) {
  // CHECK: must be async token type, but got 'index'
  %r0, %r1, %r2, %r3 = "gpu.spmat_get_size"(%a0, %a1) : (!gpu.async.token, !gpu.sparse.spmat_handle) -> (index, index, index, index)
  func.return
}

// -----

func.func @set_csr_pointers_async_dependencies(%a0: index, %a1: !gpu.sparse.spmat_handle, %a2: memref<?xindex>, %a3: memref<?xi32>, %a4: memref<?xf64>) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0 = "gpu.set_csr_pointers"(%a0, %a1, %a2, %a3, %a4) : (index, !gpu.sparse.spmat_handle, memref<?xindex>, memref<?xi32>, memref<?xf64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @set_csr_pointers_spmat(%a0: !gpu.async.token, %a1: !gpu.sparse.dntensor_handle, %a2: memref<?xindex>, %a3: memref<?xi32>, %a4: memref<?xf64>) {
  // CHECK: must be sparse matrix handle type, but got '!gpu.sparse.dntensor_handle'
  %r0 = "gpu.set_csr_pointers"(%a0, %a1, %a2, %a3, %a4) : (!gpu.async.token, !gpu.sparse.dntensor_handle, memref<?xindex>, memref<?xi32>, memref<?xf64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @set_csr_pointers_positions(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: tensor<4xf32>, %a3: memref<?xi32>, %a4: memref<?xf64>) {
  // CHECK: must be memref of any type values, but got 'tensor<4xf32>'
  %r0 = "gpu.set_csr_pointers"(%a0, %a1, %a2, %a3, %a4) : (!gpu.async.token, !gpu.sparse.spmat_handle, tensor<4xf32>, memref<?xi32>, memref<?xf64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @set_csr_pointers_async_token(%a0: !gpu.async.token, %a1: !gpu.sparse.spmat_handle, %a2: memref<?xindex>, %a3: memref<?xi32>, %a4: memref<?xf64>) {
  // CHECK: must be async token type, but got 'index'
  %r0 = "gpu.set_csr_pointers"(%a0, %a1, %a2, %a3, %a4) : (!gpu.async.token, !gpu.sparse.spmat_handle, memref<?xindex>, memref<?xi32>, memref<?xf64>) -> (index)
  func.return
}
