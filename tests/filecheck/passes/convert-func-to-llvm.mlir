// RUN: xdsl-opt %s -p convert-func-to-llvm --split-input-file | filecheck %s
// RUN: xdsl-opt %s -p 'convert-func-to-llvm{index-bitwidth=32}' --split-input-file | filecheck %s --check-prefix=IDX32

// Scalars convert one to one; an index argument is cast back for unconverted users.
// CHECK-LABEL: llvm.func @scalars(%a: i32, %x: i64) -> i64 {
// CHECK-NEXT:    %[[X:.*]] = builtin.unrealized_conversion_cast %x : i64 to index
// CHECK-NEXT:    %[[R:.*]] = "test.op"(%a, %[[X]]) : (i32, index) -> index
// CHECK-NEXT:    %[[RI:.*]] = builtin.unrealized_conversion_cast %[[R]] : index to i64
// CHECK-NEXT:    llvm.return %[[RI]] : i64
// IDX32-LABEL: llvm.func @scalars(%a: i32, %x: i32) -> i32 {
func.func @scalars(%a: i32, %x: index) -> index {
  %0 = "test.op"(%a, %x) : (i32, index) -> index
  func.return %0 : index
}

// -----

// A ranked memref expands to (allocated, aligned, offset, sizes..., strides...); the
// body rebuilds the descriptor only where the memref is used. A memref result is
// returned as its descriptor.
// CHECK-LABEL: llvm.func @memrefs(
// CHECK-SAME:    %[[ALLOC:[^:]*]]: !llvm.ptr, %[[ALIGN:[^:]*]]: !llvm.ptr, %[[OFF:[^:]*]]: i64, %[[S0:[^:]*]]: i64, %[[S1:[^:]*]]: i64, %[[T0:[^:]*]]: i64, %[[T1:[^:]*]]: i64,
// CHECK-SAME:    %{{[0-9a-z_]+}}: !llvm.ptr, %{{[0-9a-z_]+}}: !llvm.ptr, %{{[0-9a-z_]+}}: i64, %{{[0-9a-z_]+}}: i64, %{{[0-9a-z_]+}}: i64)
// CHECK-SAME:    -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> {
// CHECK-NEXT:    %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:    %[[D0:.*]] = llvm.insertvalue %[[ALLOC]], %[[P]][0]
// CHECK-NEXT:    %[[D1:.*]] = llvm.insertvalue %[[ALIGN]], %[[D0]][1]
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[OFF]], %[[D1]][2]
// CHECK-NEXT:    %[[D3:.*]] = llvm.insertvalue %[[S0]], %[[D2]][3, 0]
// CHECK-NEXT:    %[[D4:.*]] = llvm.insertvalue %[[T0]], %[[D3]][4, 0]
// CHECK-NEXT:    %[[D5:.*]] = llvm.insertvalue %[[S1]], %[[D4]][3, 1]
// CHECK-NEXT:    %[[D6:.*]] = llvm.insertvalue %[[T1]], %[[D5]][4, 1]
// CHECK-NEXT:    llvm.return %[[D6]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// IDX32-LABEL: llvm.func @memrefs(%{{[0-9a-z_]+}}: !llvm.ptr, %{{[0-9a-z_]+}}: !llvm.ptr, %{{[0-9a-z_]+}}: i32, %{{[0-9a-z_]+}}: i32, %{{[0-9a-z_]+}}: i32, %{{[0-9a-z_]+}}: i32, %{{[0-9a-z_]+}}: i32,
// IDX32-SAME:    -> !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)> {
func.func @memrefs(%m: memref<?x4xf32>, %unused: memref<8xi32>) -> memref<?x4xf32> {
  func.return %m : memref<?x4xf32>
}

// -----

// Unranked: (rank, pointer to a descriptor); rank 0: no sizes or strides; the memory
// space becomes the address space of the pointers.
// CHECK-LABEL: llvm.func @special(
// CHECK-SAME:    %{{[0-9a-z_]+}}: i64, %{{[0-9a-z_]+}}: !llvm.ptr,
// CHECK-SAME:    %{{[0-9a-z_]+}}: !llvm.ptr, %{{[0-9a-z_]+}}: !llvm.ptr, %{{[0-9a-z_]+}}: i64,
// CHECK-SAME:    %{{[0-9a-z_]+}}: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %{{[0-9a-z_]+}}: i64, %{{[0-9a-z_]+}}: i64, %{{[0-9a-z_]+}}: i64) {
// CHECK:         llvm.mlir.poison : !llvm.struct<(i64, ptr)>
// CHECK:         builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(i64, ptr)> to memref<*xf32>
// CHECK:         llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64)>
// CHECK:         builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64)> to memref<f32>
// CHECK:         llvm.mlir.poison : !llvm.struct<(ptr<1>, ptr<1>, i64, array<1 x i64>, array<1 x i64>)>
func.func @special(%u: memref<*xf32>, %z: memref<f32>, %g: memref<4xf32, 1>) {
  "test.op"(%u, %z, %g) : (memref<*xf32>, memref<f32>, memref<4xf32, 1>) -> ()
  func.return
}

// -----

// Calls pass the descriptor fields; several results come back packed in a struct.
// CHECK-LABEL: llvm.func @decl(!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, f32) -> !llvm.struct<(i32, f32)> attributes {sym_visibility = "private"}
func.func private @decl(memref<2x3xf32>, f32) -> (i32, f32)

// CHECK-LABEL: llvm.func @calls(
// CHECK:         %[[DESC:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[4, 1]
// CHECK-NEXT:    %[[F0:.*]] = llvm.extractvalue %[[DESC]][0]
// CHECK-NEXT:    %[[F1:.*]] = llvm.extractvalue %[[DESC]][1]
// CHECK-NEXT:    %[[F2:.*]] = llvm.extractvalue %[[DESC]][2]
// CHECK-NEXT:    %[[F3:.*]] = llvm.extractvalue %[[DESC]][3, 0]
// CHECK-NEXT:    %[[F4:.*]] = llvm.extractvalue %[[DESC]][3, 1]
// CHECK-NEXT:    %[[F5:.*]] = llvm.extractvalue %[[DESC]][4, 0]
// CHECK-NEXT:    %[[F6:.*]] = llvm.extractvalue %[[DESC]][4, 1]
// CHECK-NEXT:    %[[CALL:.*]] = llvm.call @decl(%[[F0]], %[[F1]], %[[F2]], %[[F3]], %[[F4]], %[[F5]], %[[F6]], %f) : (!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, f32) -> !llvm.struct<(i32, f32)>
// CHECK-NEXT:    %[[R0:.*]] = llvm.extractvalue %[[CALL]][0] : !llvm.struct<(i32, f32)>
// CHECK-NEXT:    %[[R1:.*]] = llvm.extractvalue %[[CALL]][1] : !llvm.struct<(i32, f32)>
// CHECK-NEXT:    %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(i32, f32)>
// CHECK-NEXT:    %[[S0:.*]] = llvm.insertvalue %[[R0]], %[[P]][0] : !llvm.struct<(i32, f32)>
// CHECK-NEXT:    %[[S1:.*]] = llvm.insertvalue %[[R1]], %[[S0]][1] : !llvm.struct<(i32, f32)>
// CHECK-NEXT:    llvm.return %[[S1]] : !llvm.struct<(i32, f32)>
func.func @calls(%m: memref<2x3xf32>, %f: f32) -> (i32, f32) {
  %0, %1 = func.call @decl(%m, %f) : (memref<2x3xf32>, f32) -> (i32, f32)
  func.return %0, %1 : i32, f32
}

// -----

// llvm.linkage sets the linkage; argument attributes stay where an argument converts
// one to one; discardable attributes are kept.
// CHECK-LABEL: llvm.func internal @attributes(%a: i32 {llvm.signext}, %{{[0-9a-z_]+}}: !llvm.ptr, %{{[0-9a-z_]+}}: !llvm.ptr, %{{[0-9a-z_]+}}: i64, %{{[0-9a-z_]+}}: i64, %{{[0-9a-z_]+}}: i64) -> (i32 {llvm.zeroext}) attributes {passthrough = ["noinline"]} {
func.func @attributes(%a: i32 {llvm.signext}, %m: memref<4xf32> {llvm.noalias}) -> (i32 {llvm.zeroext}) attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]} {
  func.return %a : i32
}

// -----

// llvm.emit_c_interface on a definition: @_mlir_ciface_ takes the memref by pointer to
// its descriptor and returns the struct result through a first pointer argument.
// CHECK-LABEL: llvm.func @cface(%{{[0-9a-z_]+}}: !llvm.ptr, %{{[0-9a-z_]+}}: !llvm.ptr, %{{[0-9a-z_]+}}: i64, %{{[0-9a-z_]+}}: i64, %{{[0-9a-z_]+}}: i64, %s: f32) -> !llvm.struct<(f32, i64)> attributes {llvm.emit_c_interface} {
// CHECK:       llvm.func @_mlir_ciface_cface(%[[RES:.*]]: !llvm.ptr, %[[MPTR:.*]]: !llvm.ptr, %[[S:.*]]: f32) attributes {llvm.emit_c_interface} {
// CHECK-NEXT:    %[[D:.*]] = llvm.load %[[MPTR]] : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:    %[[A:.*]] = llvm.extractvalue %[[D]][0]
// CHECK-NEXT:    %[[B:.*]] = llvm.extractvalue %[[D]][1]
// CHECK-NEXT:    %[[C:.*]] = llvm.extractvalue %[[D]][2]
// CHECK-NEXT:    %[[E:.*]] = llvm.extractvalue %[[D]][3, 0]
// CHECK-NEXT:    %[[F:.*]] = llvm.extractvalue %[[D]][4, 0]
// CHECK-NEXT:    %[[V:.*]] = llvm.call @cface(%[[A]], %[[B]], %[[C]], %[[E]], %[[F]], %[[S]]) : (!llvm.ptr, !llvm.ptr, i64, i64, i64, f32) -> !llvm.struct<(f32, i64)>
// CHECK-NEXT:    llvm.store %[[V]], %[[RES]] : !llvm.struct<(f32, i64)>, !llvm.ptr
// CHECK-NEXT:    llvm.return
func.func @cface(%m: memref<?xf32>, %s: f32) -> (f32, index) attributes {llvm.emit_c_interface} {
  %c = "test.op"() : () -> index
  func.return %s, %c : f32, index
}

// -----

// llvm.emit_c_interface on a declaration: the function gets a private body that puts
// the descriptors on the stack and calls the external @_mlir_ciface_.
// CHECK-LABEL: llvm.func private @ext_cface(
// CHECK-SAME: %[[A0:[^:]*]]: !llvm.ptr, %[[A1:[^:]*]]: !llvm.ptr, %[[A2:[^:]*]]: i64, %[[A3:[^:]*]]: i64, %[[A4:[^:]*]]: i64, %[[N:[^:]*]]: i32) -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> attributes {llvm.emit_c_interface, sym_visibility = "private"} {
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:    %[[RES:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> : (i64) -> !llvm.ptr
// CHECK-NEXT:    llvm.mlir.poison
// CHECK-NEXT:    llvm.insertvalue %[[A0]]
// CHECK-NEXT:    llvm.insertvalue %[[A1]]
// CHECK-NEXT:    llvm.insertvalue %[[A2]]
// CHECK-NEXT:    llvm.insertvalue %[[A3]]
// CHECK-NEXT:    %[[DESC:.*]] = llvm.insertvalue %[[A4]]
// CHECK-NEXT:    %[[ONE2:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:    %[[SLOT:.*]] = llvm.alloca %[[ONE2]] x !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> : (i64) -> !llvm.ptr
// CHECK-NEXT:    llvm.store %[[DESC]], %[[SLOT]]
// CHECK-NEXT:    llvm.call @_mlir_ciface_ext_cface(%[[RES]], %[[SLOT]], %[[N]]) : (!llvm.ptr, !llvm.ptr, i32) -> ()
// CHECK-NEXT:    %[[LOADED:.*]] = llvm.load %[[RES]] : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:    llvm.return %[[LOADED]]
// CHECK:       llvm.func @_mlir_ciface_ext_cface(!llvm.ptr, !llvm.ptr, i32) attributes {llvm.emit_c_interface, sym_visibility = "private"}
func.func private @ext_cface(memref<?xf32>, i32) -> memref<?xf32> attributes {llvm.emit_c_interface}

// -----

// func.varargs makes the declaration variadic.
// CHECK-LABEL: llvm.func @printf(!llvm.ptr, ...) -> i32 attributes {sym_visibility = "private"}
func.func private @printf(!llvm.ptr) -> i32 attributes {func.varargs = true}
