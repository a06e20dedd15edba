// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// Every verifier rule of the memory ops, worded as mlir-opt-22 words it.

func.func @alloc_too_few_sizes(%sz: index) {
  %m = gpu.alloc (%sz) : memref<?x?xf32>
  func.return
}
// CHECK: incorrect number of dynamic sizes, has 1, expected 2

// -----

func.func @alloc_too_many_sizes(%sz: index) {
  %m = gpu.alloc (%sz) : memref<4xf32>
  func.return
}
// CHECK: incorrect number of dynamic sizes, has 1, expected 0

// -----

func.func @alloc_missing_symbol(%sz: index) {
  %m = gpu.alloc (%sz) : memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  func.return
}
// CHECK: symbol operand count does not equal memref symbol count

// -----

func.func @alloc_extra_symbol(%sz: index) {
  %m = gpu.alloc ()[%sz] : memref<4xf32>
  func.return
}
// CHECK: symbol operand count does not equal memref symbol count

// -----

// An identity layout has no symbols, whatever symbols its map declares.
func.func @alloc_identity_layout_symbol(%sz: index) {
  %m = gpu.alloc ()[%sz] : memref<4xf32, affine_map<(d0)[s0] -> (d0)>>
  func.return
}
// CHECK: symbol operand count does not equal memref symbol count

// -----

// A dynamic strided offset is a symbol.
func.func @alloc_strided_symbol() {
  %m = gpu.alloc () : memref<4xf32, strided<[1], offset: ?>>
  func.return
}
// CHECK: symbol operand count does not equal memref symbol count

// -----

func.func @alloc_unranked(%sz: index) {
  %m = "gpu.alloc"(%sz) <{operandSegmentSizes = array<i32: 0, 1, 0>}> : (index) -> memref<*xf32>
  func.return
}
// CHECK: result 'memref' at position 0 does not verify:
// CHECK-NEXT: memref<*xf32> should be of base attribute memref

// -----

func.func @alloc_size_not_index(%sz: i64) {
  %m = "gpu.alloc"(%sz) <{operandSegmentSizes = array<i32: 0, 1, 0>}> : (i64) -> memref<?xf32>
  func.return
}
// CHECK: operand 'dynamic_sizes' at position 0 does not verify:
// CHECK-NEXT: i64 should be of base attribute index

// -----

func.func @alloc_dependency_not_token(%sz: index) {
  %m, %t = gpu.alloc async [%sz] () : memref<4xf32>
  func.return
}
// CHECK: operand is used with type !gpu.async.token, but has been previously used or defined with type index

// -----

func.func @alloc_token_type() {
  %m, %t = "gpu.alloc"() <{operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> (memref<4xf32>, index)
  func.return
}
// CHECK: result 'async_token' at position 1 does not verify:
// CHECK-NEXT: index should be of base attribute gpu.async.token

// -----

func.func @dealloc_unranked(%m: memref<*xf32>) {
  "gpu.dealloc"(%m) : (memref<*xf32>) -> ()
  func.return
}
// CHECK: operand 'memref' at position 0 does not verify:
// CHECK-NEXT: memref<*xf32> should be of base attribute memref

// -----

func.func @memcpy_element_type(%dst: memref<4xf32>, %src: memref<4xf64>) {
  gpu.memcpy %dst, %src : memref<4xf32>, memref<4xf64>
  func.return
}
// CHECK: arguments have incompatible element type

// -----

func.func @memcpy_shape(%dst: memref<4xf32>, %src: memref<5xf32>) {
  gpu.memcpy %dst, %src : memref<4xf32>, memref<5xf32>
  func.return
}
// CHECK: arguments have incompatible shape

// -----

func.func @memcpy_rank(%dst: memref<4xf32>, %src: memref<4x1xf32>) {
  gpu.memcpy %dst, %src : memref<4xf32>, memref<4x1xf32>
  func.return
}
// CHECK: arguments have incompatible shape

// -----

func.func @memcpy_unranked(%dst: memref<4xf32>, %src: memref<*xf32>) {
  "gpu.memcpy"(%dst, %src) : (memref<4xf32>, memref<*xf32>) -> ()
  func.return
}
// CHECK: operand 'src' at position 1 does not verify:
// CHECK-NEXT: memref<*xf32> should be of base attribute memref

// -----

func.func @memset_element_type(%dst: memref<4xf32>, %v: f64) {
  gpu.memset %dst, %v : memref<4xf32>, f64
  func.return
}
// CHECK: failed to verify that all of {dst, value} have same element type

// -----

func.func @memset_not_memref(%dst: tensor<4xf32>, %v: f32) {
  "gpu.memset"(%dst, %v) : (tensor<4xf32>, f32) -> ()
  func.return
}
// CHECK: operand 'dst' at position 0 does not verify:
// CHECK-NEXT: tensor<4xf32> should be of base attribute memref

// -----

func.func @wait_dependency_not_token(%i: index) {
  "gpu.wait"(%i) : (index) -> ()
  func.return
}
// CHECK: operand 'async_dependencies' at position 0 does not verify:
// CHECK-NEXT: index should be of base attribute gpu.async.token

// -----

func.func @wait_two_tokens() {
  %a, %b = "gpu.wait"() : () -> (!gpu.async.token, !gpu.async.token)
  func.return
}
// CHECK: Expected 0 or 1 results, but got 2

// -----

func.func @host_register_ranked(%m: memref<4xf32>) {
  gpu.host_register %m : memref<4xf32>
  func.return
}
// CHECK: memref<4xf32> should be of base attribute unranked_memref

// -----

func.func @host_unregister_ranked(%m: memref<4xf32>) {
  "gpu.host_unregister"(%m) : (memref<4xf32>) -> ()
  func.return
}
// CHECK: operand 'value' at position 0 does not verify:
// CHECK-NEXT: memref<4xf32> should be of base attribute unranked_memref

// -----

func.func @set_default_device_i64(%i: i64) {
  "gpu.set_default_device"(%i) : (i64) -> ()
  func.return
}
// CHECK: operand 'dev_index' at position 0 does not verify:
// CHECK-NEXT: Expected attribute i32 but got i64
