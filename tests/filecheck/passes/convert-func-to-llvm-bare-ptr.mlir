// RUN: xdsl-opt %s -p 'convert-func-to-llvm{use-bare-ptr-memref-call-conv=true}' | filecheck %s
// The spellings mlir-opt accepts for a boolean option work too:
// RUN: xdsl-opt %s -p 'convert-func-to-llvm{use-bare-ptr-memref-call-conv}' | filecheck %s
// RUN: xdsl-opt %s -p 'convert-func-to-llvm{use-bare-ptr-memref-call-conv=1}' | filecheck %s

// Static memrefs travel as one pointer; the body rebuilds a descriptor from constants.
// No C interface wrappers with this convention (as upstream).
// CHECK-LABEL: llvm.func @bare(%m: !llvm.ptr) -> !llvm.ptr attributes {llvm.emit_c_interface} {
// CHECK-NEXT:    %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:    %[[D0:.*]] = llvm.insertvalue %m, %[[P]][0]
// CHECK-NEXT:    %[[D1:.*]] = llvm.insertvalue %m, %[[D0]][1]
// CHECK-NEXT:    %[[OFF:.*]] = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[OFF]], %[[D1]][2]
// CHECK-NEXT:    %[[SZ0:.*]] = llvm.mlir.constant(2 : index) : i64
// CHECK-NEXT:    %[[D3:.*]] = llvm.insertvalue %[[SZ0]], %[[D2]][3, 0]
// CHECK-NEXT:    %[[ST0:.*]] = llvm.mlir.constant(3 : index) : i64
// CHECK-NEXT:    %[[D4:.*]] = llvm.insertvalue %[[ST0]], %[[D3]][4, 0]
// CHECK-NEXT:    %[[SZ1:.*]] = llvm.mlir.constant(3 : index) : i64
// CHECK-NEXT:    %[[D5:.*]] = llvm.insertvalue %[[SZ1]], %[[D4]][3, 1]
// CHECK-NEXT:    %[[ST1:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:    %[[D6:.*]] = llvm.insertvalue %[[ST1]], %[[D5]][4, 1]
// A returned memref is its allocated pointer.
// CHECK-NEXT:    %[[ALLOC:.*]] = llvm.extractvalue %[[D6]][0]
// CHECK-NEXT:    llvm.return %[[ALLOC]] : !llvm.ptr
// CHECK-NOT:   _mlir_ciface_
func.func @bare(%m: memref<2x3xf32>) -> memref<2x3xf32> attributes {llvm.emit_c_interface} {
  func.return %m : memref<2x3xf32>
}

// A call passes the aligned pointer; a returned pointer becomes a descriptor again.
// CHECK-LABEL: llvm.func @caller(%{{[0-9a-z_]+}}: !llvm.ptr) -> f32 {
// CHECK:         %[[ALIGNED:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NEXT:    %[[R:.*]] = llvm.call @bare(%[[ALIGNED]]) : (!llvm.ptr) -> !llvm.ptr
// CHECK-NEXT:    llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:    llvm.insertvalue %[[R]], %{{.*}}[0]
// CHECK-NEXT:    llvm.insertvalue %[[R]], %{{.*}}[1]
func.func @caller(%m: memref<2x3xf32>) -> f32 {
  %r = func.call @bare(%m) : (memref<2x3xf32>) -> memref<2x3xf32>
  %v = "test.op"(%r) : (memref<2x3xf32>) -> f32
  func.return %v : f32
}
