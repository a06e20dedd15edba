// RUN: xdsl-opt %s -p convert-vector-to-llvm --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-llvm --split-input-file | filecheck %s %}
// 0-D vectors (vector<1xT> in LLVM: transfers, broadcasts of their element) and
// broadcasts that add leading dims to an n-D vector, as convert-vector-to-scf
// leaves them for transfers with broadcast dims; the same lines check mlir-opt-22.

// CHECK-LABEL: func.func @read_0d(
// CHECK:         %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[L:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> vector<1xf32>
// CHECK:         %[[E:.*]] = llvm.extractelement %{{.*}}[%{{.*}} : i64] : vector<1xf32>
// CHECK:         %[[I:.*]] = llvm.insertelement %[[E]], %{{.*}}[%{{.*}} : i32] : vector<3xf32>
// CHECK-NEXT:    %[[S:.*]] = llvm.shufflevector %[[I]], %{{.*}} [0, 0, 0] : vector<3xf32>
// CHECK-NEXT:    return %[[S]] : vector<3xf32>
func.func @read_0d(%m: memref<?x?xf32>, %i: index) -> vector<3xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %i], %pad : memref<?x?xf32>, vector<f32>
  %b = vector.broadcast %v : vector<f32> to vector<3xf32>
  return %b : vector<3xf32>
}

// -----

// CHECK-LABEL: func.func @write_0d(
// CHECK:         %[[V:.*]] = builtin.unrealized_conversion_cast %{{.*}} : vector<f32> to vector<1xf32>
// CHECK:         %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    llvm.store %[[V]], %[[P]] {alignment = 4 : i64} : vector<1xf32>, !llvm.ptr
func.func @write_0d(%m: memref<?x?xf32>, %i: index, %v: vector<f32>) {
  vector.transfer_write %v, %m[%i, %i] : vector<f32>, memref<?x?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @leading_dims(
// CHECK:         %[[A:.*]] = builtin.unrealized_conversion_cast %{{.*}} : vector<3x3xf32> to !llvm.array<3 x vector<3xf32>>
// CHECK:         %[[R0:.*]] = llvm.insertvalue %[[A]], %{{.*}}[0] : !llvm.array<2 x array<3 x vector<3xf32>>>
// CHECK-NEXT:    %[[R1:.*]] = llvm.insertvalue %[[A]], %[[R0]][1] : !llvm.array<2 x array<3 x vector<3xf32>>>
func.func @leading_dims(%v: vector<3x3xf32>) -> vector<2x3x3xf32> {
  %b = vector.broadcast %v : vector<3x3xf32> to vector<2x3x3xf32>
  return %b : vector<2x3x3xf32>
}
