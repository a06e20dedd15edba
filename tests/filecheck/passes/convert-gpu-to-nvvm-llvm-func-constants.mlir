// RUN: xdsl-opt %s -p convert-func-to-llvm,convert-gpu-to-nvvm | filecheck %s

// A function that convert-func-to-llvm has already made an llvm.func keeps its
// constants: MLIR's llvm.func is isolated from above, so convert-gpu-to-nvvm's
// constant hoisting stops at it (it moved them into the gpu.module's body).

// CHECK:      gpu.module @kernels {
// CHECK-NEXT:   llvm.func @device(
// CHECK-NEXT:     %[[C:.*]] = llvm.mlir.constant(4 : index) : i64
// CHECK:          llvm.getelementptr inbounds|nuw %{{.*}}[%[[C]]]
// CHECK:        llvm.func @kernel(
// CHECK:          llvm.mlir.constant(4 : index) : i64
gpu.module @kernels {
  func.func @device(%m: memref<8xf32>) -> f32 {
    %c4 = arith.constant 4 : index
    %v = memref.load %m[%c4] : memref<8xf32>
    return %v : f32
  }
  gpu.func @kernel(%m: memref<8xf32>) kernel {
    %c4 = arith.constant 4 : index
    %v = memref.load %m[%c4] : memref<8xf32>
    memref.store %v, %m[%c4] : memref<8xf32>
    gpu.return
  }
}
