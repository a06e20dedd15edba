// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// gpu.printf from four threads of two blocks, with an index, an i32 and an f32
// (promoted to double, as C's varargs want); host output follows the kernel's.

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%nx = %c2, %ny = %c1, %nz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %e = arith.constant 2.718282 : f32
    gpu.printf "block %lld thread %d: %f\n", %bx, %t, %e : index, i32, f32
    gpu.terminator
  }
  %done = arith.constant 4 : i64
  call @printI64(%done) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func private @printI64(i64)
func.func private @printNewline()

// COMPILE: define void @main()
// COMPILE: declare void @printI64(i64)

// CHECK-DAG: block 0 thread 0: 2.718282
// CHECK-DAG: block 0 thread 1: 2.718282
// CHECK-DAG: block 1 thread 0: 2.718282
// CHECK-DAG: block 1 thread 1: 2.718282
// CHECK: {{^}}4{{$}}
