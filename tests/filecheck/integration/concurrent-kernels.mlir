// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// Two kernels on two streams that must run at the same time: the first spins in an
// scf.while with no operands until the second, launched after it on another stream,
// sets a flag in device memory. Run one after the other, they would never finish.

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %flag = gpu.alloc () : memref<1xi32>
  %seen = gpu.alloc () : memref<1xi32>
  gpu.memset %flag, %zero : memref<1xi32>, i32
  gpu.memset %seen, %zero : memref<1xi32>, i32
  %s1 = gpu.wait async
  %k1 = gpu.launch async [%s1] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%nx = %c1, %ny = %c1, %nz = %c1) {
    %z = arith.constant 0 : i32
    %i0 = arith.constant 0 : index
    scf.while : () -> () {
      %v = memref.atomic_rmw addi %z, %flag[%i0] : (i32, memref<1xi32>) -> i32
      %waiting = arith.cmpi eq, %v, %z : i32
      scf.condition(%waiting)
    } do {
      scf.yield
    }
    %v = memref.atomic_rmw addi %z, %flag[%i0] : (i32, memref<1xi32>) -> i32
    memref.store %v, %seen[%i0] : memref<1xi32>
    gpu.terminator
  }
  %s2 = gpu.wait async
  %k2 = gpu.launch async [%s2] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%nx = %c1, %ny = %c1, %nz = %c1) {
    %i0 = arith.constant 0 : index
    %o = arith.constant 7 : i32
    %old = memref.atomic_rmw assign %o, %flag[%i0] : (i32, memref<1xi32>) -> i32
    gpu.terminator
  }
  gpu.wait [%k1, %k2]
  %host = memref.alloc() : memref<1xi32>
  gpu.memcpy %host, %seen : memref<1xi32>, memref<1xi32>
  %u = memref.cast %host : memref<1xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)

// COMPILE: define void @main()
// COMPILE: call void @mgpuLaunchKernel(
// COMPILE-NOT: mgpuStreamSynchronize
// COMPILE: call void @mgpuLaunchKernel(
// COMPILE: declare void @printMemrefI32(i64, ptr)

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [1] strides = [1] data =
// CHECK-NEXT: [7]
