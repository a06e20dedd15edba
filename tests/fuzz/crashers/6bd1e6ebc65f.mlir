// PIPELINE: expand-strided-metadata,lower-affine
// FOUND: InternalVerifyError: ValueError at parser/core.py:owner
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// Transposed fragments: B is stored transposed in memory and loaded with
// `transpose` (a col-major B fragment); the product, accumulated from a zero constant
// matrix, is stored with `transpose`, so the output is (A * B)^T.
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
    %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index, transpose} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %zero = arith.constant 0.0 : f32
    %fz = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    %fd = gpu.subgroup_mma_compute %fa, %fb, %fz : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %fd, %c[%c0, %c0] {leadDimension = 16 : index, transpose} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }
  call @printMemrefF32(%c_u) : (memref<*xf32>) -> ()
  return
}

// Fills A (i + 2k) mod 5 - 2, B (3k + j) mod 7 - 3 and C (i - j), on the host.
func.func @init(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
      %n = arith.remui %t, %i7 : index
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
  %c1 = arith.constant 1 : index
      %b0 = arith.subi %n, %i3 : index
      %bi = arith.index_cast %b0 : index to i32
      %bf = arith.sitofp %bi : i32 to f16
      memref.store %bf, %b[%j, %i] : memref<16x16xf16>
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
// CHECK-NEXT: {{\[\[}}10,   17,   4,   -14,   -17,   10,   17,   4,   -14,   -17,   10,   17,   4,   -14,   -17,   10],
// CHECK-NEXT:  [-13,   16,   25,   -6,   -22,   -13,   16,   25,   -6,   -22,   -13,   16,   25,   -6,   -22,   -13],
// CHECK-NEXT:  [-22,   -6,   25,   16,   -13,   -22,   -6,   25,   16,   -13,   -22,   -6,   25,   16,   -13,   -22],
// CHECK-NEXT:  [-17,   -14,   4,   17,   10,   -17,   -14,   4,   17,   10,   -17,   -14,   4,   17,   10,   -17],
// CHECK-NEXT:  [2,   -15,   -17,   11,   19,   2,   -15,   -17,   11,   19,   2,   -15,   -17,   11,   19,   2],
// CHECK-NEXT:  [21,   -9,   -24,   -9,   21,   21,   -9,   -24,   -9,   21,   21,   -9,   -24,   -9,   21,   21],
// CHECK-NEXT:  [19,   11,   -17,   -15,   2,   19,   11,   -17,   -15,   2,   19,   11,   -17,   -15,   2,   19],
// CHECK-NEXT:  [10,   17,   4,   -14,   -17,   10,   17,   4,   -14,   -17,   10,   17,   4,   -14,   -17,   10],
// CHECK-NEXT:  [-13,   16,   25,   -6,   -22,   -13,   16,   25,   -6,   -22,   -13,   16,   25,   -6,   -22,   -13],
// CHECK-NEXT:  [-22,   -6,   25,   16,   -13,   -22,   -6,   25,   16,   -13,   -22,   -6,   25,   16,   -13,   -22],
// CHECK-NEXT:  [-17,   -14,   4,   17,   10,   -17,   -14,   4,   17,   10,   -17,   -14,   4,   17,   10,   -17],
// CHECK-NEXT:  [2,   -15,   -17,   11,   19,   2,   -15,   -17,   11,   19,   2,   -15,   -17,   11,   19,   2],
// CHECK-NEXT:  [21,   -9,   -24,   -9,   21,   21,   -9,   -24,   -9,   21,   21,   -9,   -24,   -9,   21,   21],
// CHECK-NEXT:  [19,   11,   -17,   -15,   2,   19,   11,   -17,   -15,   2,   19,   11,   -17,   -15,   2,   19],
// CHECK-NEXT:  [10,   17,   4,   -14,   -17,   10,   17,   4,   -14,   -17,   10,   17,   4,   -14,   -17,   10],
// CHECK-NEXT:  [-13,   16,   25,   -6,   -22,   -13,   16,   25,   -6,   -22,   -13,   16,   25,   -6,   -22,   -13]]

// COMPILE: define void @main()
// COMPILE: declare void @printMemrefF32(i64, ptr)
