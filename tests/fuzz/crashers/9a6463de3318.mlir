// PIPELINE: gpu-to-llvm
// FOUND: form: 12 lines (VerifyException), isolated from above
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// Two gpu.launch ops in one function: each is outlined into a gpu.module of its own
// (two binaries, two module loads). The first writes 3·i, the second adds 100 to
// what the first wrote.

func.func @main() {
  %out = memref.alloc() : memref<8xi32>
  %out_u = memref.cast %out : memref<8xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>
  %c1 = arith.constant 1 : index

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%nx = %c8, %ny = %c1, %nz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %three = arith.constant 3 : i32
    %v = arith.muli %t, %three : i32
    memref.store %v, %out[%tx] : memref<8xi32>
    gpu.terminator
  }
  call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%nx = %c8, %ny = %c1, %nz = %c1) {
    %v = memref.load %out[%tx] : memref<8xi32>
    %hundred = arith.constant 100 : i32
    %w = arith.addi %v, %hundred : i32
    memref.store %w, %out[%tx] : memref<8xi32>
    gpu.terminator
  }
  call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}
  %c8 = arith.constant 8 : index
func.func private @printMemrefI32(memref<*xi32>)

// COMPILE: @main_kernel_binary = internal constant
// COMPILE: @main_kernel_0_binary = internal constant
// COMPILE: define void @main()

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [0,  3,  6,  9,  12,  15,  18,  21]
// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [100,  103,  106,  109,  112,  115,  118,  121]
