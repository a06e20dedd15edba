// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// gpu.subgroup_reduce over a full warp (lane i holds 7·i - 50), every kind that
// redux.sync computes on i32; on sm_90 each is one redux.sync instruction. Lane 0
// writes the eight results: add, and, or, xor, minsi, minui, maxsi, maxui.

func.func @main() {
  %out = memref.alloc() : memref<8xi32>
  %out_u = memref.cast %out : memref<8xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%nx = %c32, %ny = %c1, %nz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %seven = arith.constant 7 : i32
    %fifty = arith.constant 50 : i32
    %m = arith.muli %t, %seven : i32
    %v = arith.subi %m, %fifty : i32
    %r0 = gpu.subgroup_reduce add %v uniform : (i32) -> i32
    %r1 = gpu.subgroup_reduce and %v uniform : (i32) -> i32
    %r2 = gpu.subgroup_reduce or %v uniform : (i32) -> i32
    %r3 = gpu.subgroup_reduce xor %v uniform : (i32) -> i32
    %r4 = gpu.subgroup_reduce minsi %v uniform : (i32) -> i32
    %r5 = gpu.subgroup_reduce minui %v uniform : (i32) -> i32
    %r6 = gpu.subgroup_reduce maxsi %v uniform : (i32) -> i32
    %r7 = gpu.subgroup_reduce maxui %v uniform : (i32) -> i32
    %i0 = arith.constant 0 : index
    %first = arith.cmpi eq, %tx, %i0 : index
    scf.if %first {
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i3 = arith.constant 3 : index
      %i4 = arith.constant 4 : index
      %i5 = arith.constant 5 : index
      %i6 = arith.constant 6 : index
      %i7 = arith.constant 7 : index
      memref.store %r0, %out[%i0] : memref<8xi32>
      memref.store %r1, %out[%i1] : memref<8xi32>
      memref.store %r2, %out[%i2] : memref<8xi32>
      memref.store %r3, %out[%i3] : memref<8xi32>
      memref.store %r4, %out[%i4] : memref<8xi32>
      memref.store %r5, %out[%i5] : memref<8xi32>
      memref.store %r6, %out[%i6] : memref<8xi32>
      memref.store %r7, %out[%i7] : memref<8xi32>
    }
    gpu.terminator
  }
  call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// COMPILE: define void @main()
// COMPILE: declare void @printMemrefI32(i64, ptr)

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [1872,  0,  -1,  96,  -50,  6,  167,  -1]
