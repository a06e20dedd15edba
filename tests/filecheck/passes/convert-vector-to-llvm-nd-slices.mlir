// RUN: xdsl-opt %s -p convert-vector-to-llvm --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-llvm --split-input-file | filecheck %s %}
// n-D strided slices and (de)interleaves row by row (a zero constant, each row
// extracted, shuffled, inserted), a dynamic position in the innermost dim of an n-D
// vector; a dynamic row position is left, as mlir-opt-22 leaves it. The same lines
// check both outputs (tests/passes/vector_programs/nd_slices.mlir runs them).

// CHECK-LABEL: func.func @extract_slice(
// CHECK:         %[[R1:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.array<4 x vector<4xf32>>
// CHECK-NEXT:    %[[S1:.*]] = llvm.shufflevector %[[R1]], %[[R1]] [2, 3] : vector<4xf32>
// CHECK-NEXT:    %[[A1:.*]] = llvm.insertvalue %[[S1]], %{{.*}}[0] : !llvm.array<2 x vector<2xf32>>
// CHECK:         %[[R2:.*]] = llvm.extractvalue %{{.*}}[2] : !llvm.array<4 x vector<4xf32>>
// CHECK-NEXT:    %[[S2:.*]] = llvm.shufflevector %[[R2]], %[[R2]] [2, 3] : vector<4xf32>
// CHECK-NEXT:    llvm.insertvalue %[[S2]], %[[A1]][1] : !llvm.array<2 x vector<2xf32>>
func.func @extract_slice(%v: vector<4x4xf32>) -> vector<2x2xf32> {
  %r = vector.extract_strided_slice %v {offsets = [1, 2], sizes = [2, 2], strides = [1, 1]} : vector<4x4xf32> to vector<2x2xf32>
  return %r : vector<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @insert_slice(
// CHECK:         %[[W:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 1, 0, 0] : vector<2xf32>
// CHECK-NEXT:    %[[N:.*]] = llvm.shufflevector %[[W]], %{{.*}} [4, 5, 0, 1] : vector<4xf32>
// CHECK-NEXT:    %[[A:.*]] = llvm.insertvalue %[[N]], %{{.*}}[1] : !llvm.array<4 x vector<4xf32>>
// CHECK:         llvm.shufflevector %{{.*}}, %{{.*}} [4, 5, 0, 1] : vector<4xf32>
// CHECK-NEXT:    llvm.insertvalue %{{.*}}, %[[A]][2] : !llvm.array<4 x vector<4xf32>>
func.func @insert_slice(%s: vector<2x2xf32>, %v: vector<4x4xf32>) -> vector<4x4xf32> {
  %r = vector.insert_strided_slice %s, %v {offsets = [1, 2], strides = [1, 1]} : vector<2x2xf32> into vector<4x4xf32>
  return %r : vector<4x4xf32>
}

// -----

// CHECK-LABEL: func.func @interleave(
// CHECK:         %[[S0:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xf32>
// CHECK-NEXT:    %[[A0:.*]] = llvm.insertvalue %[[S0]], %{{.*}}[0] : !llvm.array<2 x vector<8xf32>>
// CHECK:         %[[S1:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xf32>
// CHECK-NEXT:    llvm.insertvalue %[[S1]], %[[A0]][1] : !llvm.array<2 x vector<8xf32>>
func.func @interleave(%a: vector<2x4xf32>, %b: vector<2x4xf32>) -> vector<2x8xf32> {
  %r = vector.interleave %a, %b : vector<2x4xf32> -> vector<2x8xf32>
  return %r : vector<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @deinterleave(
// CHECK:         %[[E0:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 2] : vector<4xf32>
// CHECK-NEXT:    llvm.shufflevector %{{.*}}, %{{.*}} [1, 3] : vector<4xf32>
// CHECK-NEXT:    llvm.insertvalue %[[E0]], %{{.*}}[0] : !llvm.array<2 x vector<2xf32>>
func.func @deinterleave(%a: vector<2x4xf32>) -> vector<2x2xf32> {
  %r, %s = vector.deinterleave %a : vector<2x4xf32> -> vector<2x2xf32>
  return %r : vector<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_row(
// CHECK:         vector.extract %{{.*}}[%{{.*}}, 1] : f32 from vector<2x4xf32>
func.func @dynamic_row(%a: vector<2x4xf32>, %i: index) -> f32 {
  %r = vector.extract %a[%i, 1] : f32 from vector<2x4xf32>
  return %r : f32
}

// -----

// CHECK-LABEL: func.func @dynamic_element(
// CHECK:         %[[R:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.array<2 x vector<4xf32>>
// CHECK:         llvm.extractelement %[[R]][%{{.*}} : i64] : vector<4xf32>
func.func @dynamic_element(%a: vector<2x4xf32>, %i: index) -> f32 {
  %r = vector.extract %a[1, %i] : f32 from vector<2x4xf32>
  return %r : f32
}

// -----

// CHECK-LABEL: func.func @dynamic_insert(
// CHECK:         %[[R:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.array<2 x vector<4xf32>>
// CHECK:         %[[N:.*]] = llvm.insertelement %{{.*}}, %[[R]][%{{.*}} : i64] : vector<4xf32>
// CHECK-NEXT:    llvm.insertvalue %[[N]], %{{.*}}[1] : !llvm.array<2 x vector<4xf32>>
func.func @dynamic_insert(%a: vector<2x4xf32>, %i: index, %x: f32) -> vector<2x4xf32> {
  %r = vector.insert %x, %a[1, %i] : f32 into vector<2x4xf32>
  return %r : vector<2x4xf32>
}
