// RUN: XDSL_ROUNDTRIP
// RUN: xdsl-opt %s --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --split-input-file | filecheck %s %}

// vector.mask and vector.yield in MLIR 22's custom syntax
// (xdsl_gpu/gpu_dialect/vector/masking_ops.py): the masked op is printed without its
// results and the vector.yield of them is implicit; an empty mask prints its yield.
// The same CHECK lines hold for mlir-opt-22's output, and tests/test_mlir_conformance.py
// compares each chunk with mlir-opt-22 in both directions and the generic form.

// CHECK-LABEL: func.func @masked_ops(
func.func @masked_ops(%m: memref<?x?xf32>, %i: index, %mask: vector<16xi1>, %pt: vector<16xf32>, %v: vector<16xf32>, %idx: vector<16xi32>, %m2: vector<16xi1>, %mask2: vector<4x8xi1>) -> (vector<16xf32>, vector<16xf32>, f32, vector<16xf32>, vector<8x4xf32>) {
  %c0 = arith.constant 0.0 : f32
  %ci = arith.constant 0 : index
  // CHECK: %{{.*}} = vector.mask %{{.*}} { vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : memref<?x?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  %0 = vector.mask %mask { vector.transfer_read %m[%i, %i], %c0 : memref<?x?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  // CHECK-NEXT: %{{.*}} = vector.mask %{{.*}}, %{{.*}} { vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : memref<?x?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  %1 = vector.mask %mask, %pt { vector.transfer_read %m[%i, %i], %c0 : memref<?x?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  // CHECK-NEXT: vector.mask %{{.*}} { vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : vector<16xf32>, memref<?x?xf32> } : vector<16xi1>
  vector.mask %mask { vector.transfer_write %v, %m[%i, %i] : vector<16xf32>, memref<?x?xf32> } : vector<16xi1>
  // CHECK-NEXT: %{{.*}} = vector.mask %{{.*}} { vector.reduction <add>, %{{.*}} : vector<16xf32> into f32 } : vector<16xi1> -> f32
  %2 = vector.mask %mask { vector.reduction <add>, %v : vector<16xf32> into f32 } : vector<16xi1> -> f32
  // CHECK-NEXT: %{{.*}} = vector.mask %{{.*}} { vector.gather %{{.*}}[%{{.*}}, %{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : memref<?x?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  %3 = vector.mask %mask { vector.gather %m[%ci, %ci][%idx], %m2, %pt : memref<?x?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  // A transposed read takes its mask in the memref's dim order.
  // CHECK-NEXT: %{{.*}} = vector.mask %{{.*}} { vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {permutation_map = {{.*}}} : memref<?x?xf32>, vector<8x4xf32> } : vector<4x8xi1> -> vector<8x4xf32>
  %4 = vector.mask %mask2 { vector.transfer_read %m[%i, %i], %c0 {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x?xf32>, vector<8x4xf32> } : vector<4x8xi1> -> vector<8x4xf32>
  // CHECK-NEXT: vector.mask %{{.*}} { vector.yield } : vector<16xi1>
  vector.mask %mask { vector.yield } : vector<16xi1>
  // CHECK-NEXT: %{{.*}} = vector.mask %{{.*}} { vector.yield %{{.*}} : vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  %5 = vector.mask %mask { vector.yield %v : vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  return %0, %1, %2, %3, %4 : vector<16xf32>, vector<16xf32>, f32, vector<16xf32>, vector<8x4xf32>
}

// -----

// A contraction takes a mask of its iteration space, an outer product one of its
// result, a multi-reduction one of its source.
// CHECK-LABEL: func.func @masked_compute(
func.func @masked_compute(%a: vector<4x3xf32>, %b: vector<3x5xf32>, %c: vector<4x5xf32>, %mc: vector<4x5x3xi1>, %x: vector<4xf32>, %y: vector<5xf32>, %mo: vector<4x5xi1>, %acc: vector<4xf32>, %mr: vector<4x3xi1>, %s: f32, %m4: vector<4xi1>) -> (vector<4x5xf32>, vector<4x5xf32>, vector<4xf32>, vector<4xf32>) {
  // CHECK: %{{.*}} = vector.mask %{{.*}} { vector.contract {indexing_maps = [{{.*}}, {{.*}}, {{.*}}], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %{{.*}}, %{{.*}}, %{{.*}} : vector<4x3xf32>, vector<3x5xf32> into vector<4x5xf32> } : vector<4x5x3xi1> -> vector<4x5xf32>
  %0 = vector.mask %mc { vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4x3xf32>, vector<3x5xf32> into vector<4x5xf32> } : vector<4x5x3xi1> -> vector<4x5xf32>
  // CHECK-NEXT: %{{.*}} = vector.mask %{{.*}} { vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<4xf32>, vector<5xf32> } : vector<4x5xi1> -> vector<4x5xf32>
  %1 = vector.mask %mo { vector.outerproduct %x, %y, %c {kind = #vector.kind<add>} : vector<4xf32>, vector<5xf32> } : vector<4x5xi1> -> vector<4x5xf32>
  // CHECK-NEXT: %{{.*}} = vector.mask %{{.*}} { vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<4x3xf32> to vector<4xf32> } : vector<4x3xi1> -> vector<4xf32>
  %2 = vector.mask %mr { vector.multi_reduction <add>, %a, %acc [1] : vector<4x3xf32> to vector<4xf32> } : vector<4x3xi1> -> vector<4xf32>
  // CHECK-NEXT: %{{.*}} = vector.mask %{{.*}} { vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<4xf32>, f32 } : vector<4xi1> -> vector<4xf32>
  %3 = vector.mask %m4 { vector.outerproduct %x, %s, %acc {kind = #vector.kind<add>} : vector<4xf32>, f32 } : vector<4xi1> -> vector<4xf32>
  return %0, %1, %2, %3 : vector<4x5xf32>, vector<4x5xf32>, vector<4xf32>, vector<4xf32>
}

// -----

// The generic form, with the explicit yield, reads the same.
// CHECK-LABEL: func.func @generic(
func.func @generic(%mask: vector<8xi1>, %v: vector<8xi32>, %acc: i32) -> i32 {
  // CHECK: %{{.*}} = vector.mask %{{.*}} { vector.reduction <maxsi>, %{{.*}}, %{{.*}} : vector<8xi32> into i32 } : vector<8xi1> -> i32
  %0 = "vector.mask"(%mask) ({
    %r = vector.reduction <maxsi>, %v, %acc : vector<8xi32> into i32
    "vector.yield"(%r) : (i32) -> ()
  }) : (vector<8xi1>) -> i32
  return %0 : i32
}
