// RUN: xdsl-opt %s -p convert-vector-to-llvm --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-llvm --split-input-file | filecheck %s %}
// RUN: xdsl-opt %s -p 'convert-vector-to-llvm{use-vector-alignment=true}' --split-input-file | filecheck %s --check-prefix=VEC-ALIGN
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-llvm=use-vector-alignment=1 --split-input-file | filecheck %s --check-prefix=VEC-ALIGN %}
// vector.gather/scatter: a getelementptr of the vector of indices (one pointer per
// lane) and llvm.intr.masked.gather/scatter; n-D gathers row by row. The same lines
// check our output and mlir-opt-22's (tests/passes/vector_programs/gather_scatter.mlir
// runs a program both ways).

// CHECK-LABEL: func.func @gather_1d(
// CHECK:         %[[BASE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[PTRS:.*]] = llvm.getelementptr %[[BASE]][%{{.*}}] : (!llvm.ptr, vector<4xi32>) -> vector<4x!llvm.ptr>, f32
// CHECK-NEXT:    %[[G:.*]] = llvm.intr.masked.gather %[[PTRS]], %{{.*}}, %{{.*}} {alignment = 4 : i32} : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:    return %[[G]] : vector<4xf32>
// VEC-ALIGN-LABEL: func.func @gather_1d(
// VEC-ALIGN:         llvm.intr.masked.gather %{{.*}} {alignment = 16 : i32}
func.func @gather_1d(%m: memref<?xf32>, %idx: vector<4xi32>, %mask: vector<4xi1>, %p: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %g = vector.gather %m[%c0] [%idx], %mask, %p : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @scatter_1d(
// CHECK:         %[[BASE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[PTRS:.*]] = llvm.getelementptr %[[BASE]][%{{.*}}] : (!llvm.ptr, vector<4xi64>) -> vector<4x!llvm.ptr>, f32
// CHECK-NEXT:    llvm.intr.masked.scatter %{{.*}}, %[[PTRS]], %{{.*}} {alignment = 8 : i32} : vector<4xf32>, vector<4xi1> into vector<4x!llvm.ptr>
// VEC-ALIGN-LABEL: func.func @scatter_1d(
// VEC-ALIGN:         llvm.intr.masked.scatter %{{.*}} {alignment = 8 : i32}
func.func @scatter_1d(%m: memref<4x8xf32>, %idx: vector<4xindex>, %mask: vector<4xi1>, %v: vector<4xf32>, %i: index) {
  vector.scatter %m[%i, %i] [%idx], %mask, %v {alignment = 8} : memref<4x8xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>
  return
}

// -----

// CHECK-LABEL: func.func @gather_2d(
// CHECK:         %[[I0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.array<2 x vector<3xi64>>
// CHECK-NEXT:    %[[M0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.array<2 x vector<3xi1>>
// CHECK-NEXT:    %[[P0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.array<2 x vector<3xf32>>
// CHECK:         %[[B0:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[PS0:.*]] = llvm.getelementptr %[[B0]][%[[I0]]] : (!llvm.ptr, vector<3xi64>) -> vector<3x!llvm.ptr>, f32
// CHECK-NEXT:    %[[G0:.*]] = llvm.intr.masked.gather %[[PS0]], %[[M0]], %[[P0]] {alignment = 4 : i32} : (vector<3x!llvm.ptr>, vector<3xi1>, vector<3xf32>) -> vector<3xf32>
// CHECK-NEXT:    %[[A0:.*]] = llvm.insertvalue %[[G0]], %{{.*}}[0] : !llvm.array<2 x vector<3xf32>>
// CHECK-NEXT:    %[[I1:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.array<2 x vector<3xi64>>
// CHECK:         %[[G1:.*]] = llvm.intr.masked.gather
// CHECK-NEXT:    %[[A1:.*]] = llvm.insertvalue %[[G1]], %[[A0]][1] : !llvm.array<2 x vector<3xf32>>
// CHECK-NEXT:    %[[R:.*]] = builtin.unrealized_conversion_cast %[[A1]] : !llvm.array<2 x vector<3xf32>> to vector<2x3xf32>
// CHECK-NEXT:    return %[[R]] : vector<2x3xf32>
func.func @gather_2d(%m: memref<?x?xf32>, %idx: vector<2x3xindex>, %mask: vector<2x3xi1>, %p: vector<2x3xf32>, %i: index) -> vector<2x3xf32> {
  %g = vector.gather %m[%i, %i] [%idx], %mask, %p : memref<?x?xf32>, vector<2x3xindex>, vector<2x3xi1>, vector<2x3xf32> into vector<2x3xf32>
  return %g : vector<2x3xf32>
}

// -----

// Left as they are, by both: an n-D scatter, a memref whose innermost stride is 2.
// CHECK-LABEL: func.func @left(
// CHECK:         vector.scatter
// CHECK:         vector.gather
func.func @left(%m: memref<?x?xf32>, %s: memref<4x4xf32, strided<[8, 2]>>, %idx: vector<2x3xindex>, %mask: vector<2x3xi1>, %p: vector<2x3xf32>, %i: index, %idx1: vector<3xindex>, %mask1: vector<3xi1>, %p1: vector<3xf32>) -> vector<3xf32> {
  vector.scatter %m[%i, %i] [%idx], %mask, %p : memref<?x?xf32>, vector<2x3xindex>, vector<2x3xi1>, vector<2x3xf32>
  %g = vector.gather %s[%i, %i] [%idx1], %mask1, %p1 : memref<4x4xf32, strided<[8, 2]>>, vector<3xindex>, vector<3xi1>, vector<3xf32> into vector<3xf32>
  return %g : vector<3xf32>
}
