// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | grep -v "^ *|" | filecheck %s --check-prefixes=CHECK,XDSL
// RUN: %if mlir-opt %{ not mlir-opt %s --split-input-file -o /dev/null 2>&1 | filecheck %s --check-prefixes=CHECK,MLIR %}

// Every verifier rule of the memory ops, and every type rule of their operands and
// results. CHECK lines are upstream's words and must match both xdsl-opt and
// mlir-opt-22 (xDSL puts "operand 'x' at position N does not verify:" where
// upstream puts "'gpu.x' op operand #N"); XDSL and MLIR lines are where the two
// differ (the parsers' own messages, xDSL's count of optional results). `grep -v`
// drops the copy of each message that xdsl-opt prints inside the annotated IR.

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
// CHECK: must be memref of any type values, but got 'memref<*xf32>'

// -----

func.func @alloc_size_not_index(%sz: i64) {
  %m = "gpu.alloc"(%sz) <{operandSegmentSizes = array<i32: 0, 1, 0>}> : (i64) -> memref<?xf32>
  func.return
}
// CHECK: must be variadic of index, but got 'i64'

// -----

func.func @alloc_symbol_not_index(%s: i32) {
  %m = "gpu.alloc"(%s) <{operandSegmentSizes = array<i32: 0, 0, 1>}> : (i32) -> memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  func.return
}
// CHECK: must be variadic of index, but got 'i32'

// -----

func.func @alloc_dependency_not_token(%sz: index) {
  %m, %t = gpu.alloc async [%sz] () : memref<4xf32>
  func.return
}
// XDSL: operand is used with type !gpu.async.token, but has been previously used or defined with type index
// MLIR: use of value '%sz' expects different type than prior uses: '!gpu.async.token' vs 'index'

// -----

func.func @alloc_token_type() {
  %m, %t = "gpu.alloc"() <{operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> (memref<4xf32>, index)
  func.return
}
// CHECK: must be async token type, but got 'index'

// -----

func.func @dealloc_unranked(%m: memref<*xf32>) {
  "gpu.dealloc"(%m) : (memref<*xf32>) -> ()
  func.return
}
// CHECK: must be memref of any type values, but got 'memref<*xf32>'

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
// CHECK: must be memref of any type values, but got 'memref<*xf32>'

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
// CHECK: must be memref of any type values, but got 'tensor<4xf32>'

// -----

func.func @wait_dependency_not_token(%i: index) {
  "gpu.wait"(%i) : (index) -> ()
  func.return
}
// CHECK: must be variadic of async token type, but got 'index'

// -----

func.func @wait_two_tokens() {
  %a, %b = "gpu.wait"() : () -> (!gpu.async.token, !gpu.async.token)
  func.return
}
// XDSL: Expected 0 or 1 results, but got 2
// MLIR: result group starting at #0 requires 0 or 1 element, but found 2

// -----

func.func @host_register_ranked(%m: memref<4xf32>) {
  gpu.host_register %m : memref<4xf32>
  func.return
}
// CHECK: invalid kind of type specified: expected builtin.unranked_memref, but found 'memref<4xf32>'

// -----

func.func @host_unregister_ranked(%m: memref<4xf32>) {
  "gpu.host_unregister"(%m) : (memref<4xf32>) -> ()
  func.return
}
// CHECK: must be unranked.memref of any type values, but got 'memref<4xf32>'

// -----

func.func @set_default_device_i64(%i: i64) {
  "gpu.set_default_device"(%i) : (i64) -> ()
  func.return
}
// CHECK: must be 32-bit signless integer, but got 'i64'

// -----

// ===--- In the custom syntax, a memref type of the wrong kind is a parse error ---=== //

func.func @alloc_custom_unranked() {
  // CHECK: invalid kind of type specified: expected builtin.memref, but found 'memref<*xf32>'
  %m = gpu.alloc () : memref<*xf32>
  func.return
}

// -----

func.func @dealloc_custom_unranked(%m: memref<*xf32>) {
  // CHECK: invalid kind of type specified: expected builtin.memref, but found 'memref<*xf32>'
  gpu.dealloc %m : memref<*xf32>
  func.return
}

// -----

func.func @memcpy_custom_unranked(%a: memref<4xf32>, %b: memref<*xf32>) {
  // CHECK: invalid kind of type specified: expected builtin.memref, but found 'memref<*xf32>'
  gpu.memcpy %a, %b : memref<4xf32>, memref<*xf32>
  func.return
}

// -----

func.func @memset_custom_tensor(%a: tensor<4xf32>, %v: f32) {
  // CHECK: invalid kind of type specified: expected builtin.memref, but found 'tensor<4xf32>'
  gpu.memset %a, %v : tensor<4xf32>, f32
  func.return
}

// -----

func.func @host_unregister_custom_ranked(%m: memref<4xf32>) {
  // CHECK: invalid kind of type specified: expected builtin.unranked_memref, but found 'memref<4xf32>'
  gpu.host_unregister %m : memref<4xf32>
  func.return
}

// -----

// The device index is an i32 by the syntax.
func.func @set_default_device_custom_i64(%i: i64) {
  // XDSL: operand is used with type i32, but has been previously used or defined with type i64
  // MLIR: use of value '%i' expects different type than prior uses: 'i32' vs 'i64'
  gpu.set_default_device %i
  func.return
}

// -----

// ===--- The type rules that the chunks above leave out: one chunk each ---=== //

func.func @alloc_async_dependencies(%a0: index, %a1: !gpu.async.token, %a2: index) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0, %r1 = "gpu.alloc"(%a0, %a1, %a2) <{hostShared = unit, operandSegmentSizes = array<i32: 2, 1, 0>}> : (index, !gpu.async.token, index) -> (memref<64x?xf32, 1 : i64>, !gpu.async.token)
  func.return
}

// -----

func.func @dealloc_async_dependencies(%a0: index, %a1: memref<3x7xf32, 1 : i64>) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0 = "gpu.dealloc"(%a0, %a1) : (index, memref<3x7xf32, 1 : i64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @dealloc_async_token(%a0: !gpu.async.token, %a1: memref<3x7xf32, 1 : i64>) {
  // CHECK: must be async token type, but got 'index'
  %r0 = "gpu.dealloc"(%a0, %a1) : (!gpu.async.token, memref<3x7xf32, 1 : i64>) -> (index)
  func.return
}

// -----

func.func @memcpy_async_dependencies(%a0: index, %a1: memref<?x7xf32>, %a2: memref<3x7xf32, 1 : i64>) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0 = "gpu.memcpy"(%a0, %a1, %a2) : (index, memref<?x7xf32>, memref<3x7xf32, 1 : i64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @memcpy_dst(%a0: !gpu.async.token, %a1: tensor<4xf32>, %a2: memref<3x7xf32, 1 : i64>) {
  // CHECK: must be memref of any type values, but got 'tensor<4xf32>'
  %r0 = "gpu.memcpy"(%a0, %a1, %a2) : (!gpu.async.token, tensor<4xf32>, memref<3x7xf32, 1 : i64>) -> (!gpu.async.token)
  func.return
}

// -----

func.func @memcpy_async_token(%a0: !gpu.async.token, %a1: memref<?x7xf32>, %a2: memref<3x7xf32, 1 : i64>) {
  // CHECK: must be async token type, but got 'index'
  %r0 = "gpu.memcpy"(%a0, %a1, %a2) : (!gpu.async.token, memref<?x7xf32>, memref<3x7xf32, 1 : i64>) -> (index)
  func.return
}

// -----

func.func @memset_async_dependencies(%a0: index, %a1: memref<3x7xf32, 1 : i64>, %a2: f32) {
  // CHECK: must be variadic of async token type, but got 'index'
  %r0 = "gpu.memset"(%a0, %a1, %a2) : (index, memref<3x7xf32, 1 : i64>, f32) -> (!gpu.async.token)
  func.return
}

// -----

func.func @memset_async_token(%a0: !gpu.async.token, %a1: memref<3x7xf32, 1 : i64>, %a2: f32) {
  // CHECK: must be async token type, but got 'index'
  %r0 = "gpu.memset"(%a0, %a1, %a2) : (!gpu.async.token, memref<3x7xf32, 1 : i64>, f32) -> (index)
  func.return
}

// -----

func.func @wait_async_token(%a0: !gpu.async.token, %a1: !gpu.async.token) {
  // CHECK: must be async token type, but got 'index'
  %r0 = "gpu.wait"(%a0, %a1) : (!gpu.async.token, !gpu.async.token) -> (index)
  func.return
}

// -----

func.func @host_register_value(%a0: memref<4xf32>) {
  // CHECK: must be unranked.memref of any type values, but got 'memref<4xf32>'
  "gpu.host_register"(%a0) : (memref<4xf32>) -> ()
  func.return
}

// -----

// A block that ends without terminator: the memset's own error comes first.
func.func @memset_last_in_block(%dst: memref<4xi32>, %v: f32) {
  gpu.memset %dst, %v : memref<4xi32>, f32
}

// CHECK: failed to verify that all of {dst, value} have same element type

// -----

func.func @memcpy_last_in_block(%dst: memref<4xf32>, %src: memref<8xf32>) {
  gpu.memcpy %dst, %src : memref<4xf32>, memref<8xf32>
}

// CHECK: arguments have incompatible shape

// -----

// An async op's token must be named to be used.
func.func @alloc_async_unnamed() {
  gpu.alloc async () : memref<4xf32>
  func.return
}

// CHECK: custom op 'gpu.alloc' needs to be named when marked 'async'

// -----

func.func @dealloc_named(%m: memref<4xf32>) {
  %t = gpu.dealloc %m : memref<4xf32>
  func.return
}

// CHECK: cannot name an operation with no results
