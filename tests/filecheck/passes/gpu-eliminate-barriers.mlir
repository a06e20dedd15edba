// RUN: xdsl-opt %s -p gpu-eliminate-barriers | filecheck %s

// The pass form of transform.apply_patterns.gpu.eliminate_barriers
// (tests/filecheck/transform/apply-patterns-eliminate-barriers.mlir).

// CHECK-LABEL: func.func @f
// CHECK:         memref.load
// CHECK-NOT:     gpu.barrier
// CHECK:         memref.load
// CHECK:         gpu.barrier
// CHECK-NEXT:    memref.store
func.func @f(%a: memref<64xf32>, %i: index) {
  %x = memref.load %a[%i] : memref<64xf32>
  gpu.barrier
  %y = memref.load %a[%i] : memref<64xf32>
  %s = arith.addf %x, %y : f32
  gpu.barrier
  memref.store %s, %a[%i] : memref<64xf32>
  return
}

// As upstream's, the pass works on func.func only: a gpu.func keeps its barriers.
// CHECK-LABEL: gpu.func @k
// CHECK:         gpu.barrier
// CHECK:         gpu.return
gpu.module @m {
  gpu.func @k() kernel {
    gpu.barrier
    gpu.return
  }
}
