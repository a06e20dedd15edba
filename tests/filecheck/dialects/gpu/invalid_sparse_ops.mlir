// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// The sparse ops have no verifier of their own upstream: what they check is the
// types of their operands, results and attributes, and the enum keywords.

func.func @bad_transpose_mode(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  %b = gpu.spmv_buffer_size %s{FOO}, %d, %d into f32
  func.return
}
// CHECK: Expected `NON_TRANSPOSE`, `TRANSPOSE`, or `CONJUGATE_TRANSPOSE`.

// -----

func.func @bad_prune_flag(%n: index, %m: memref<?xf64>) {
  %s = gpu.create_2to4_spmat {PRUNE} %n, %n, %m : memref<?xf64>
  func.return
}
// CHECK: Expected `NONE`, `PRUNE_ONLY`, or `PRUNE_AND_{{C}}HECK`.

// -----

// The prune flag is not optional in the custom syntax.
func.func @missing_prune_flag(%n: index, %m: memref<?xf64>) {
  %s = gpu.create_2to4_spmat %n, %n, %m : memref<?xf64>
  func.return
}
// CHECK: Expected '{'

// -----

func.func @bad_spgemm_kind(%a: !gpu.sparse.spmat_handle, %desc: !gpu.sparse.spgemmop_handle, %n: index, %buf: memref<?xi8>) {
  %sz = gpu.spgemm_work_estimation_or_compute {ESTIMATE} %a, %a, %a, %desc, %n, %buf : f32 into memref<?xi8>
  func.return
}
// CHECK: Expected `WORK_ESTIMATION`, or `COMPUTE`.

// -----

func.func @missing_spgemm_kind(%a: !gpu.sparse.spmat_handle, %desc: !gpu.sparse.spgemmop_handle, %n: index, %buf: memref<?xi8>) {
  %sz = "gpu.spgemm_work_estimation_or_compute"(%desc, %a, %a, %a, %n, %buf) <{computeType = f32}> : (!gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, index, memref<?xi8>) -> index
  func.return
}
// CHECK: property 'kind' expected

// -----

func.func @missing_compute_type(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  %b = "gpu.spmv_buffer_size"(%s, %d, %d) : (!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> index
  func.return
}
// CHECK: property 'computeType' expected

// -----

func.func @compute_type_not_a_type(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  %b = "gpu.spmv_buffer_size"(%s, %d, %d) <{computeType = 1 : i32}> : (!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> index
  func.return
}
// CHECK: 1 : i32 should be of attribute subclassing `TypeAttribute`

// -----

func.func @mode_of_wrong_enum(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  %b = "gpu.spmv_buffer_size"(%s, %d, %d) <{computeType = f32, modeA = #gpu<prune_2to4_spmat_flag NONE>}> : (!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> index
  func.return
}
// CHECK: #gpu<prune_2to4_spmat_flag NONE> should be of base attribute gpu.mat_transpose_mode

// -----

func.func @dense_handle_for_sparse(%d: !gpu.sparse.dntensor_handle) {
  %b = "gpu.spmv_buffer_size"(%d, %d, %d) <{computeType = f32}> : (!gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> index
  func.return
}
// CHECK: operand 'spmat_a' at position 0 does not verify:
// CHECK-NEXT: !gpu.sparse.dntensor_handle should be of base attribute gpu.sparse.spmat_handle

// -----

func.func @sparse_handle_for_dense(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  %b = gpu.sddmm_buffer_size %s, %d, %s into f32
  func.return
}
// CHECK: operand is used with type !gpu.sparse.dntensor_handle, but has been previously used or defined with type !gpu.sparse.spmat_handle

// -----

func.func @spgemm_descriptor_type(%a: !gpu.sparse.spmat_handle) {
  gpu.spgemm_destroy_descr %a
  func.return
}
// CHECK: operand is used with type !gpu.sparse.spgemmop_handle, but has been previously used or defined with type !gpu.sparse.spmat_handle

// -----

func.func @buffer_size_not_index(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  %b = "gpu.spmv_buffer_size"(%s, %d, %d) <{computeType = f32}> : (!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> i64
  func.return
}
// CHECK: result 'buffer_sz' at position 0 does not verify:
// CHECK-NEXT: i64 should be of base attribute index

// -----

func.func @size_not_index(%m: memref<?xf64>, %i: i32) {
  %s = "gpu.create_coo"(%i, %i, %i, %m, %m, %m) : (i32, i32, i32, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> !gpu.sparse.spmat_handle
  func.return
}
// CHECK: operand 'rows' at position 0 does not verify:
// CHECK-NEXT: i32 should be of base attribute index

// -----

func.func @unranked_buffer(%m: memref<*xf64>, %n: index) {
  %s = "gpu.create_csr"(%n, %n, %n, %m, %m, %m) : (index, index, index, memref<*xf64>, memref<*xf64>, memref<*xf64>) -> !gpu.sparse.spmat_handle
  func.return
}
// CHECK: operand 'row_pos' at position 3 does not verify:
// CHECK-NEXT: memref<*xf64> should be of base attribute memref

// -----

func.func @handle_of_wrong_kind(%m: memref<?xf64>, %n: index) {
  %s = "gpu.create_coo"(%n, %n, %n, %m, %m, %m) : (index, index, index, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> !gpu.sparse.dntensor_handle
  func.return
}
// CHECK: result 'spmat' at position 0 does not verify:
// CHECK-NEXT: !gpu.sparse.dntensor_handle should be of base attribute gpu.sparse.spmat_handle

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
// CHECK: operand 'buffers' at position 3 does not verify:
// CHECK-NEXT: tensor<4xf32> should be of base attribute memref

// -----

func.func @token_result_type(%s: !gpu.sparse.spmat_handle) {
  %t = "gpu.destroy_sp_mat"(%s) : (!gpu.sparse.spmat_handle) -> index
  func.return
}
// CHECK: result 'async_token' at position 0 does not verify:
// CHECK-NEXT: index should be of base attribute gpu.async.token
