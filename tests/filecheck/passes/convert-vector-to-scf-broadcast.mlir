// RUN: xdsl-opt %s -p convert-vector-to-scf --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf --split-input-file | filecheck %s %}
// RUN: xdsl-opt %s -p 'convert-vector-to-scf{full-unroll=true}' --split-input-file | filecheck %s --check-prefix=UNROLL
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf=full-unroll=true --split-input-file | filecheck %s --check-prefix=UNROLL %}
// transfer_read with broadcast dims: broadcast dims moved first (a transpose back),
// leading ones dropped (a read of the rest and a vector.broadcast), as mlir-opt-22
// does; the same lines check both outputs.

// CHECK-LABEL: func.func @leading(
// CHECK:         %[[R:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %[[B:.*]] = vector.broadcast %[[R]] : vector<4xf32> to vector<3x4xf32>
// CHECK-NEXT:    return %[[B]] : vector<3x4xf32>
func.func @leading(%m: memref<?x?xf32>, %i: index, %j: index) -> vector<3x4xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %j], %pad {permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<?x?xf32>, vector<3x4xf32>
  return %v : vector<3x4xf32>
}

// -----

// CHECK-LABEL: func.func @element(
// CHECK:         %[[R:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : memref<?x?xf32>, vector<f32>
// CHECK-NEXT:    %[[B:.*]] = vector.broadcast %[[R]] : vector<f32> to vector<4xf32>
func.func @element(%m: memref<?x?xf32>, %i: index, %j: index) -> vector<4xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %j], %pad {permutation_map = affine_map<(d0, d1) -> (0)>} : memref<?x?xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @trailing(
// CHECK:         %[[R:.*]] = vector.transfer_read %{{.*}} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %[[B:.*]] = vector.broadcast %[[R]] : vector<4xf32> to vector<3x4xf32>
// CHECK-NEXT:    %[[T:.*]] = vector.transpose %[[B]], [1, 0] : vector<3x4xf32> to vector<4x3xf32>
// CHECK-NEXT:    return %[[T]] : vector<4x3xf32>
func.func @trailing(%m: memref<?x?xf32>, %i: index, %j: index) -> vector<4x3xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %j], %pad {permutation_map = affine_map<(d0, d1) -> (d1, 0)>} : memref<?x?xf32>, vector<4x3xf32>
  return %v : vector<4x3xf32>
}

// -----

// A masked read: the mask has the shape without the broadcast dim and is kept.
// CHECK-LABEL: func.func @masked(
// CHECK:         %[[R:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    vector.broadcast %[[R]] : vector<4xf32> to vector<3x4xf32>
func.func @masked(%m: memref<?x?xf32>, %i: index, %mask: vector<4xi1>) -> vector<3x4xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %i], %pad, %mask {permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<?x?xf32>, vector<3x4xf32>
  return %v : vector<3x4xf32>
}

// -----

// A broadcast in the middle of a 3-D read: a 2-D read of the rest (then lowered
// row by row), broadcast and transposed.
// CHECK-LABEL: func.func @middle(
// CHECK:         %[[V:.*]] = memref.load %{{.*}}[] : memref<vector<2x4xf32>>
// CHECK-NEXT:    %[[B:.*]] = vector.broadcast %[[V]] : vector<2x4xf32> to vector<3x2x4xf32>
// CHECK-NEXT:    vector.transpose %[[B]], [1, 0, 2] : vector<3x2x4xf32> to vector<2x3x4xf32>
// UNROLL-LABEL: func.func @middle(
// UNROLL:         vector.transfer_read %{{.*}} : memref<?x?x?xf32>, vector<4xf32>
// UNROLL:         vector.transfer_read %{{.*}} : memref<?x?x?xf32>, vector<4xf32>
// UNROLL:         %[[B:.*]] = vector.broadcast %{{.*}} : vector<2x4xf32> to vector<3x2x4xf32>
// UNROLL-NEXT:    vector.transpose %[[B]], [1, 0, 2] : vector<3x2x4xf32> to vector<2x3x4xf32>
func.func @middle(%m: memref<?x?x?xf32>, %i: index) -> vector<2x3x4xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %i, %i], %pad {permutation_map = affine_map<(d0, d1, d2) -> (d1, 0, d2)>} : memref<?x?x?xf32>, vector<2x3x4xf32>
  return %v : vector<2x3x4xf32>
}
