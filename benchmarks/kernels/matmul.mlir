// The matmul kernel of seed 002 (examples/async_matmul/matmul.mlir), alone:
// C = A * B for 256x1024 * 1024x256 f32, one element of C per thread, 8x8 blocks of
// 32x32 threads. kernels.cu beside this file has the same kernel in CUDA for nvcc.
#map = affine_map<()[s0, s1, s2] -> (s0 * s2 + s1)>
module attributes {gpu.container_module} {
  gpu.module @test_parallel_kernel {
  gpu.func @test_parallel_kernel(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: memref<256x1024xf32>, %arg6: memref<1024x256xf32>, %arg7: index, %arg8: f32, %arg9: memref<256x256xf32>) kernel {
  %block_id_x = gpu.block_id x
  %block_id_y = gpu.block_id y
  %thread_id_x = gpu.thread_id x
  %thread_id_y = gpu.thread_id y
  %0 = affine.apply #map()[%arg0, %arg1, %block_id_x]
  %1 = affine.apply #map()[%arg2, %arg1, %block_id_y]
  %2 = affine.apply #map()[%arg3, %arg4, %thread_id_x]
  %3 = affine.apply #map()[%arg3, %arg4, %thread_id_y]
  %4 = arith.addi %2, %0 : index
  %5 = arith.addi %3, %1 : index
  %6 = scf.for %arg10 = %arg1 to %arg7 step %arg3 iter_args(%arg11 = %arg8) -> (f32) {
  %7 = memref.load %arg5[%4, %arg10] : memref<256x1024xf32>
  %8 = memref.load %arg6[%arg10, %5] : memref<1024x256xf32>
  %9 = arith.mulf %7, %8 : f32
  %10 = arith.addf %arg11, %9 : f32
  scf.yield %10 : f32
  }
  memref.store %6, %arg9[%4, %5] : memref<256x256xf32>
  gpu.return
  }
  }
}
