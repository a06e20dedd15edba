// RUN: xdsl-opt %s --transform-interpreter --split-input-file | filecheck %s

// transform.nvgpu.rewrite_matmul_as_mma_sync: the lane id is gpu.thread_id x, each
// lane loads its fragment of A, B and C, packs it into vectors, runs one
// nvgpu.mma.sync and stores its fragment of C back; the matmul is gone.

// CHECK-DAG:   #[[$NVGPU_1:.*]] = affine_map<()[s0] -> (s0 floordiv 4)>
// CHECK-DAG:   #[[$NVGPU_2:.*]] = affine_map<()[s0] -> (s0 mod 4)>
// CHECK-DAG:   #[[$NVGPU_3:.*]] = affine_map<()[s0] -> (s0 floordiv 4 + 8)>
// CHECK-DAG:   #[[$NVGPU_4:.*]] = affine_map<()[s0] -> (s0 * 2 - (s0 floordiv 4) * 8)>
// CHECK-DAG:   #[[$NVGPU_5:.*]] = affine_map<()[s0] -> (s0 * 2 - (s0 floordiv 4) * 8 + 1)>
// CHECK-LABEL: func.func @tf32
// CHECK-SAME:    (%[[A:.*]]: memref<16x4xf32>, %[[B:.*]]: memref<4x8xf32>, %[[C:.*]]: memref<16x8xf32>)
// CHECK:         %[[LANE:.*]] = gpu.thread_id x
// A's two elements: rows lane/4 and lane/4 + 8, column lane%4.
// CHECK-NEXT:    %[[R0:.*]] = affine.apply #[[$NVGPU_1]]()[%[[LANE]]]
// CHECK-NEXT:    %[[C0:.*]] = affine.apply #[[$NVGPU_2]]()[%[[LANE]]]
// CHECK-NEXT:    %[[A0:.*]] = memref.load %[[A]][%[[R0]], %[[C0]]] : memref<16x4xf32>
// CHECK-NEXT:    %[[R1:.*]] = affine.apply #[[$NVGPU_3]]()[%[[LANE]]]
// CHECK-NEXT:    %[[C1:.*]] = affine.apply #[[$NVGPU_2]]()[%[[LANE]]]
// CHECK-NEXT:    %[[A1:.*]] = memref.load %[[A]][%[[R1]], %[[C1]]] : memref<16x4xf32>
// CHECK-NEXT:    %[[SPLAT:.*]] = vector.broadcast %[[A0]] : f32 to vector<2x1xf32>
// CHECK-NEXT:    %[[V0:.*]] = vector.insert %[[A0]], %[[SPLAT]] [0, 0] : f32 into vector<2x1xf32>
// CHECK-NEXT:    %[[LHS:.*]] = vector.insert %[[A1]], %[[V0]] [1, 0] : f32 into vector<2x1xf32>
// CHECK:         %[[RHS:.*]] = vector.insert %{{.*}} [0, 0] : f32 into vector<1x1xf32>
// C's four elements: columns (lane%4)*2 and +1, as MLIR's affine simplification writes them.
// CHECK:         affine.apply #[[$NVGPU_4]]()[%[[LANE]]]
// CHECK:         affine.apply #[[$NVGPU_5]]()[%[[LANE]]]
// CHECK:         %[[ACC:.*]] = vector.insert %{{.*}} [1, 1] : f32 into vector<2x2xf32>
// CHECK-NEXT:    %[[D:.*]] = nvgpu.mma.sync(%[[LHS]], %[[RHS]], %[[ACC]]) {mmaShape = [16{{( : i64)?}}, 8{{( : i64)?}}, 4{{( : i64)?}}], tf32Enabled} : (vector<2x1xf32>, vector<1x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NEXT:    %[[D0:.*]] = vector.extract %[[D]][0, 0] : f32 from vector<2x2xf32>
// CHECK-NEXT:    %[[D1:.*]] = vector.extract %[[D]][0, 1] : f32 from vector<2x2xf32>
// CHECK-NEXT:    %[[D2:.*]] = vector.extract %[[D]][1, 0] : f32 from vector<2x2xf32>
// CHECK-NEXT:    %[[D3:.*]] = vector.extract %[[D]][1, 1] : f32 from vector<2x2xf32>
// CHECK-COUNT-2: affine.apply
// CHECK-NEXT:    memref.store %[[D0]], %[[C]]
// CHECK-COUNT-2: affine.apply
// CHECK-NEXT:    memref.store %[[D1]], %[[C]]
// CHECK-COUNT-2: affine.apply
// CHECK-NEXT:    memref.store %[[D2]], %[[C]]
// CHECK-COUNT-2: affine.apply
// CHECK-NEXT:    memref.store %[[D3]], %[[C]]
// CHECK-NEXT:    func.return
// CHECK-NOT:   linalg.matmul ins
func.func @tf32(%a: memref<16x4xf32>, %b: memref<4x8xf32>, %c: memref<16x8xf32>) {
  linalg.matmul ins(%a, %b : memref<16x4xf32>, memref<4x8xf32>) outs(%c : memref<16x8xf32>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// f16: 8 elements of A per lane (vector<4x2xf16>), 4 of B and of C; the upper half
// of A's columns (+8) in slots 4..7.

// CHECK-LABEL: func.func @f16
// CHECK-COUNT-8: memref.load %{{.*}} : memref<16x16xf16>
// CHECK:         vector.insert %{{.*}} [3, 1] : f16 into vector<4x2xf16>
// CHECK-COUNT-4: memref.load %{{.*}} : memref<16x8xf16>
// CHECK:         vector.insert %{{.*}} [1, 1] : f16 into vector<2x2xf16>
// CHECK-COUNT-4: memref.load %{{.*}} : memref<16x8xf16>
// CHECK:         nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16{{( : i64)?}}, 8{{( : i64)?}}, 16{{( : i64)?}}]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
// CHECK-COUNT-4: memref.store %{{.*}} : memref<16x8xf16>
// CHECK-NOT:     linalg.matmul ins
func.func @f16(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %c: memref<16x8xf16>) {
  linalg.matmul ins(%a, %b : memref<16x16xf16>, memref<16x8xf16>) outs(%c : memref<16x8xf16>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
}
