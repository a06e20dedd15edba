// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// Two gpu.all_reduce in one kernel (add, then min over the same values; each gets
// its own workgroup buffer and barriers), one block per row of a 2x8 matrix.

memref.global "private" constant @rows : memref<2x8xf32> = dense<[[1.5, -2.0, 4.25, 0.5, 8.0, -0.75, 3.0, 2.0], [10.0, 20.0, -30.0, 0.125, 0.25, 0.5, 1.0, 2.0]]>

func.func @main() {
  %data = memref.alloc() : memref<2x8xf32>
  %rows = memref.get_global @rows : memref<2x8xf32>
  memref.copy %rows, %data : memref<2x8xf32> to memref<2x8xf32>
  %sum = memref.alloc() : memref<2xf32>
  %min = memref.alloc() : memref<2xf32>
  %data_u = memref.cast %data : memref<2x8xf32> to memref<*xf32>
  gpu.host_register %data_u : memref<*xf32>
  %sum_u = memref.cast %sum : memref<2xf32> to memref<*xf32>
  gpu.host_register %sum_u : memref<*xf32>
  %min_u = memref.cast %min : memref<2xf32> to memref<*xf32>
  gpu.host_register %min_u : memref<*xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%nx = %c8, %ny = %c1, %nz = %c1) {
    %v = memref.load %data[%bx, %tx] : memref<2x8xf32>
    %s = gpu.all_reduce add %v uniform {} : (f32) -> f32
    %m = gpu.all_reduce minnumf %v uniform {} : (f32) -> f32
    memref.store %s, %sum[%bx] : memref<2xf32>
    memref.store %m, %min[%bx] : memref<2xf32>
    gpu.terminator
  }
  call @printMemrefF32(%sum_u) : (memref<*xf32>) -> ()
  call @printMemrefF32(%min_u) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// COMPILE: define void @main()
// COMPILE: declare void @printMemrefF32(i64, ptr)

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [16.5,  3.875]
// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [-2,  -30]
