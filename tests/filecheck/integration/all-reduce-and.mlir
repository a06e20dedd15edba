// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// gpu.all_reduce and over each row of a 2x6 matrix: one block per row, one
// thread per element; the result of block b goes to out[b].

memref.global "private" constant @rows : memref<2x6xi32> = dense<[[1, 3, 7, 15, 31, 63], [-5, 12, 4, -9, 6, 2]]>

func.func @main() {
  %data = memref.alloc() : memref<2x6xi32>
  %rows = memref.get_global @rows : memref<2x6xi32>
  memref.copy %rows, %data : memref<2x6xi32> to memref<2x6xi32>
  %out = memref.alloc() : memref<2xi32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %data_u = memref.cast %data : memref<2x6xi32> to memref<*xi32>
  gpu.host_register %data_u : memref<*xi32>
  %out_u = memref.cast %out : memref<2xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%nx = %c6, %ny = %c1, %nz = %c1) {
    %v = memref.load %data[%bx, %tx] : memref<2x6xi32>
    %r = gpu.all_reduce and %v uniform {} : (i32) -> i32
    memref.store %r, %out[%bx] : memref<2xi32>
    gpu.terminator
  }
  call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// COMPILE: define void @main()
// COMPILE: declare void @printMemrefI32(i64, ptr)

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [1,  0]
