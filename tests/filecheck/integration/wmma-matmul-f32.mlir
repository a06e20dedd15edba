// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// A 16x16x16 WMMA matmul on tensor cores, f16 inputs, f32 accumulator:
// C = A * B + C, one warp, m16n16k16.
// A[i][k] = (i + 2k) mod 5 - 2 and B[k][j] = (3k + j) mod 7 - 3 in f16, small integers,
// so every product and sum is exact and the expected matrix is NumPy's.

func.func @main() {
  %a = memref.alloc() : memref<16x16xf16>
  %b = memref.alloc() : memref<16x16xf16>
  %c = memref.alloc() : memref<16x16xf32>
  call @init(%a, %b, %c) : (memref<16x16xf16>, memref<16x16xf16>, memref<16x16xf32>) -> ()
  %a_u = memref.cast %a : memref<16x16xf16> to memref<*xf16>
  %b_u = memref.cast %b : memref<16x16xf16> to memref<*xf16>
  %c_u = memref.cast %c : memref<16x16xf32> to memref<*xf32>
  gpu.host_register %a_u : memref<*xf16>
  gpu.host_register %b_u : memref<*xf16>
  gpu.host_register %c_u : memref<*xf32>
  %one = arith.constant 1 : index
  %warp = arith.constant 32 : index
  // One warp computes the whole 16x16 tile.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%nx = %warp, %ny = %one, %nz = %one) {
    %c0 = arith.constant 0 : index
    %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %fd = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %fd, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }
  call @printMemrefF32(%c_u) : (memref<*xf32>) -> ()
  return
}

// Fills A (i + 2k) mod 5 - 2, B (3k + j) mod 7 - 3 and C (i - j), on the host.
func.func @init(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %i5 = arith.constant 5 : index
  %i7 = arith.constant 7 : index
  %i2 = arith.constant 2 : index
  %i3 = arith.constant 3 : index
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %j2 = arith.muli %j, %i2 : index
      %s = arith.addi %i, %j2 : index
      %m = arith.remui %s, %i5 : index
      %a0 = arith.subi %m, %i2 : index
      %ai = arith.index_cast %a0 : index to i32
      %af = arith.sitofp %ai : i32 to f16
      memref.store %af, %a[%i, %j] : memref<16x16xf16>
      %i3x = arith.muli %i, %i3 : index
      %t = arith.addi %i3x, %j : index
      %n = arith.remui %t, %i7 : index
      %b0 = arith.subi %n, %i3 : index
      %bi = arith.index_cast %b0 : index to i32
      %bf = arith.sitofp %bi : i32 to f16
      memref.store %bf, %b[%i, %j] : memref<16x16xf16>
      %ii = arith.index_cast %i : index to i32
      %ji = arith.index_cast %j : index to i32
      %d = arith.subi %ii, %ji : i32
      %cf = arith.sitofp %d : i32 to f32
      memref.store %cf, %c[%i, %j] : memref<16x16xf32>
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF16(memref<*xf16>)

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}10,   -14,   -24,   -20,   -2,   16,   13,   3,   -21,   -31,   -27,   -9,   9,   6,   -4,   -28],
// CHECK-NEXT:  [18,   16,   -7,   -16,   -18,   -13,   6,   11,   9,   -14,   -23,   -25,   -20,   -1,   4,   2],
// CHECK-NEXT:  [6,   26,   25,   3,   -19,   -27,   -21,   -1,   19,   18,   -4,   -26,   -34,   -28,   -8,   12],
// CHECK-NEXT:  [-11,   -4,   17,   17,   10,   -11,   -18,   -18,   -11,   10,   10,   3,   -18,   -25,   -25,   -18],
// CHECK-NEXT:  [-13,   -19,   -11,   11,   19,   20,   0,   -20,   -26,   -18,   4,   12,   13,   -7,   -27,   -33],
// CHECK-NEXT:  [15,   -9,   -19,   -15,   3,   21,   18,   8,   -16,   -26,   -22,   -4,   14,   11,   1,   -23],
// CHECK-NEXT:  [23,   21,   -2,   -11,   -13,   -8,   11,   16,   14,   -9,   -18,   -20,   -15,   4,   9,   7],
// CHECK-NEXT:  [11,   31,   30,   8,   -14,   -22,   -16,   4,   24,   23,   1,   -21,   -29,   -23,   -3,   17],
// CHECK-NEXT:  [-6,   1,   22,   22,   15,   -6,   -13,   -13,   -6,   15,   15,   8,   -13,   -20,   -20,   -13],
// CHECK-NEXT:  [-8,   -14,   -6,   16,   24,   25,   5,   -15,   -21,   -13,   9,   17,   18,   -2,   -22,   -28],
// CHECK-NEXT:  [20,   -4,   -14,   -10,   8,   26,   23,   13,   -11,   -21,   -17,   1,   19,   16,   6,   -18],
// CHECK-NEXT:  [28,   26,   3,   -6,   -8,   -3,   16,   21,   19,   -4,   -13,   -15,   -10,   9,   14,   12],
// CHECK-NEXT:  [16,   36,   35,   13,   -9,   -17,   -11,   9,   29,   28,   6,   -16,   -24,   -18,   2,   22],
// CHECK-NEXT:  [-1,   6,   27,   27,   20,   -1,   -8,   -8,   -1,   20,   20,   13,   -8,   -15,   -15,   -8],
// CHECK-NEXT:  [-3,   -9,   -1,   21,   29,   30,   10,   -10,   -16,   -8,   14,   22,   23,   3,   -17,   -23],
// CHECK-NEXT:  [25,   1,   -9,   -5,   13,   31,   28,   18,   -6,   -16,   -12,   6,   24,   21,   11,   -13]]

// COMPILE: define void @main()
// COMPILE: declare void @printMemrefF32(i64, ptr)
