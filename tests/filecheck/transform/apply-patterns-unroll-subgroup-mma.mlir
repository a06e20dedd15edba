// RUN: xdsl-opt %s --transform-interpreter --split-input-file | filecheck %s

// transform.apply_patterns.gpu.unroll_vectors_subgroup_mma [16, 8, 8]: a 32x16x16
// contraction becomes 2x2 output tiles of two 8-deep steps each, its accumulator
// read (32x16 -> 16x8 tiles), its inputs' arith.extf and reads unrolled to the
// slices the contraction takes, the trailing arith.mulf and the write to 16x8; the
// slices in between fold away. Checked against mlir-opt-22's output.

// CHECK-DAG:   #[[$APPLY_1:.*]] = affine_map<(d0) -> (d0 + 16)>
// CHECK-LABEL: func.func @mma
// CHECK-SAME:    (%[[A:.*]]: memref<32x32xf16>, %[[B:.*]]: memref<32x32xf16>, %[[C:.*]]: memref<32x32xf32>, %[[I:.*]]: index)
// Offsets added to a constant index are folded and hoisted, as MLIR's folder does.
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-COUNT-4: vector.transfer_read %[[C]]{{.*}} : memref<32x32xf32>, vector<16x8xf32>
// CHECK:         vector.transfer_read %[[A]][%[[I]], %[[C0]]]{{.*}} vector<16x8xf16>
// CHECK-NEXT:    vector.transfer_read %[[A]][%[[I]], %[[C8]]]{{.*}} vector<16x8xf16>
// CHECK-NEXT:    %[[I16:.*]] = affine.apply #[[$APPLY_1]](%[[I]])
// CHECK-NEXT:    vector.transfer_read %[[A]][%[[I16]], %[[C0]]]{{.*}} vector<16x8xf16>
// CHECK-COUNT-4: vector.transfer_read %[[B]]{{.*}} : memref<32x32xf16>, vector<8x8xf16>
// CHECK-COUNT-4: arith.extf %{{.*}} : vector<16x8xf16> to vector<16x8xf32>
// CHECK-COUNT-4: arith.extf %{{.*}} : vector<8x8xf16> to vector<8x8xf32>
// Reduction outermost, then the LHS's rows: each step's contractions share an LHS tile.
// CHECK-NEXT:    %[[D0:.*]] = vector.contract {{.*}} : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
// CHECK-NEXT:    %[[D1:.*]] = vector.contract {{.*}} : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
// CHECK-NEXT:    %[[D2:.*]] = vector.contract {{.*}} : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
// CHECK-NEXT:    %[[D3:.*]] = vector.contract {{.*}} : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
// CHECK-NEXT:    %[[E0:.*]] = vector.contract {{.*}}, %[[D0]] : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
// CHECK-NEXT:    %[[E1:.*]] = vector.contract {{.*}}, %[[D1]] : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
// CHECK-NEXT:    %[[E2:.*]] = vector.contract {{.*}}, %[[D2]] : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
// CHECK-NEXT:    %[[E3:.*]] = vector.contract {{.*}}, %[[D3]] : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
// CHECK-NEXT:    %[[M0:.*]] = arith.mulf %[[E0]], %[[E0]] : vector<16x8xf32>
// CHECK-NEXT:    %[[M1:.*]] = arith.mulf %[[E1]], %[[E1]] : vector<16x8xf32>
// CHECK-NEXT:    %[[M2:.*]] = arith.mulf %[[E2]], %[[E2]] : vector<16x8xf32>
// CHECK-NEXT:    %[[M3:.*]] = arith.mulf %[[E3]], %[[E3]] : vector<16x8xf32>
// CHECK-NEXT:    vector.transfer_write %[[M0]], %[[C]][%[[I]], %[[C0]]]
// CHECK-NEXT:    vector.transfer_write %[[M1]], %[[C]][%[[I]], %[[C8]]]
// CHECK-NEXT:    %[[J:.*]] = affine.apply #[[$APPLY_1]](%[[I]])
// CHECK-NEXT:    vector.transfer_write %[[M2]], %[[C]][%[[J]], %[[C0]]]
// CHECK-NEXT:    %[[K:.*]] = affine.apply #[[$APPLY_1]](%[[I]])
// CHECK-NEXT:    vector.transfer_write %[[M3]], %[[C]][%[[K]], %[[C8]]]
// CHECK-NOT:     vector.extract_strided_slice
// CHECK-NOT:     vector.insert_strided_slice
// CHECK:         func.return
func.func @mma(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %c: memref<32x32xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f16
  %padf = arith.constant 0.0 : f32
  %acc = vector.transfer_read %c[%i, %c0], %padf {in_bounds = [true, true]} : memref<32x32xf32>, vector<32x16xf32>
  %lhs = vector.transfer_read %a[%i, %c0], %pad {in_bounds = [true, true]} : memref<32x32xf16>, vector<32x16xf16>
  %rhs = vector.transfer_read %b[%c0, %i], %pad {in_bounds = [true, true]} : memref<32x32xf16>, vector<16x16xf16>
  %lhs32 = arith.extf %lhs : vector<32x16xf16> to vector<32x16xf32>
  %rhs32 = arith.extf %rhs : vector<16x16xf16> to vector<16x16xf32>
  %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs32, %rhs32, %acc : vector<32x16xf32>, vector<16x16xf32> into vector<32x16xf32>
  %e = arith.mulf %d, %d : vector<32x16xf32>
  vector.transfer_write %e, %c[%i, %c0] {in_bounds = [true, true]} : vector<32x16xf32>, memref<32x32xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gpu.unroll_vectors_subgroup_mma [16, 8, 8]
    } : !transform.any_op
    transform.yield
  }
}

// -----

// What stays: a masked read (its write is still split, slicing the read's value), a
// contraction whose 24 rows are no multiple of m = 16.

// CHECK-LABEL: func.func @left_alone
// CHECK:         %[[R:.*]] = vector.transfer_read %{{.*}}, %{{.*}}, %{{.*}} {in_bounds = [true, true]} : memref<32x32xf32>, vector<16x16xf32>
// CHECK-NEXT:    %[[S0:.*]] = vector.extract_strided_slice %[[R]] {offsets = [0, 0], sizes = [16, 8], strides = [1, 1]}
// CHECK-NEXT:    vector.transfer_write %[[S0]]
// CHECK-NEXT:    %[[S1:.*]] = vector.extract_strided_slice %[[R]] {offsets = [0, 8], sizes = [16, 8], strides = [1, 1]}
// CHECK-NEXT:    affine.apply
// CHECK-NEXT:    vector.transfer_write %[[S1]]
// CHECK-NEXT:    vector.contract {{.*}} : vector<24x16xf32>, vector<16x16xf32> into vector<24x16xf32>
func.func @left_alone(%a: memref<32x32xf32>, %i: index, %n: index, %x: vector<24x16xf32>, %y: vector<16x16xf32>, %z: vector<24x16xf32>) -> vector<24x16xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %mask = vector.create_mask %n, %n : vector<16x16xi1>
  %r = vector.transfer_read %a[%i, %c0], %pad, %mask {in_bounds = [true, true]} : memref<32x32xf32>, vector<16x16xf32>
  vector.transfer_write %r, %a[%c0, %i] {in_bounds = [true, true]} : vector<16x16xf32>, memref<32x32xf32>
  %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %z : vector<24x16xf32>, vector<16x16xf32> into vector<24x16xf32>
  return %d : vector<24x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gpu.unroll_vectors_subgroup_mma [16, 8, 8]
    } : !transform.any_op
    transform.yield
  }
}
