// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// gpu.shuffle in a warp of 16 active lanes: `xor` with offset 1 swaps neighbours;
// `down` by 4 reads lane+4, and the lanes whose partner is outside the width keep
// their own value (the shuffle's validity flag says so).

func.func @main() {
  %out = memref.alloc() : memref<2x16xf32>
  %out_u = memref.cast %out : memref<2x16xf32> to memref<*xf32>
  gpu.host_register %out_u : memref<*xf32>
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%nx = %c16, %ny = %c1, %nz = %c1) {
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %t = arith.index_cast %tx : index to i32
    %v = arith.sitofp %t : i32 to f32
    %one = arith.constant 1 : i32
    %four = arith.constant 4 : i32
    %width = arith.constant 16 : i32
    %x, %xvalid = gpu.shuffle xor %v, %one, %width : f32
    memref.store %x, %out[%i0, %tx] : memref<2x16xf32>
    %d, %dvalid = gpu.shuffle down %v, %four, %width : f32
    %kept = arith.select %dvalid, %d, %v : f32
    memref.store %kept, %out[%i1, %tx] : memref<2x16xf32>
    gpu.terminator
  }
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// COMPILE: define void @main()
// COMPILE: declare void @printMemrefF32(i64, ptr)

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [2, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}1,   0,   3,   2,   5,   4,   7,   6,   9,   8,   11,   10,   13,   12,   15,   14],
// CHECK-NEXT:  [4,   5,   6,   7,   8,   9,   10,   11,   12,   13,   14,   15,   12,   13,   14,   15]]
