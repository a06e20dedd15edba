// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// Elementwise ops on WMMA fragments between the tensor-core product and the store:
// P = A * B + C (f16), then x = (-(2 * max(P, 0) - P) + C) / 2, extended to f32
// (maxf, mulf, subf, negatef, addf, divf, extf; subf, negatef and extf are beyond
// what MLIR 22 lowers). The f32 result is stored from an f32 fragment: extf relies on
// a lane holding the same elements of the f16 and f32 accumulator fragments.
// A[i][k] = (i + 2k) mod 5 - 2 and B[k][j] = (3k + j) mod 7 - 3 in f16, small integers,
// so every product and sum is exact and the expected matrix is NumPy's.

func.func @main() {
  %a = memref.alloc() : memref<16x16xf16>
  %b = memref.alloc() : memref<16x16xf16>
  %c = memref.alloc() : memref<16x16xf16>
  %out = memref.alloc() : memref<16x16xf32>
  %out_u = memref.cast %out : memref<16x16xf32> to memref<*xf32>
  gpu.host_register %out_u : memref<*xf32>
  call @init(%a, %b, %c) : (memref<16x16xf16>, memref<16x16xf16>, memref<16x16xf16>) -> ()
  %a_u = memref.cast %a : memref<16x16xf16> to memref<*xf16>
  %b_u = memref.cast %b : memref<16x16xf16> to memref<*xf16>
  %c_u = memref.cast %c : memref<16x16xf16> to memref<*xf16>
  gpu.host_register %a_u : memref<*xf16>
  gpu.host_register %b_u : memref<*xf16>
  gpu.host_register %c_u : memref<*xf16>
  %one = arith.constant 1 : index
  %warp = arith.constant 32 : index
  // One warp computes the whole 16x16 tile.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%nx = %warp, %ny = %one, %nz = %one) {
    %c0 = arith.constant 0 : index
    %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %fb = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %p = gpu.subgroup_mma_compute %fa, %fb, %fc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
    %zero = arith.constant 0.0 : f16
    %two = arith.constant 2.0 : f16
    %z = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf16, "COp">
    %t = gpu.subgroup_mma_constant_matrix %two : !gpu.mma_matrix<16x16xf16, "COp">
    %r = gpu.subgroup_mma_elementwise maxf %p, %z : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %s = gpu.subgroup_mma_elementwise mulf %r, %t : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %u = gpu.subgroup_mma_elementwise subf %s, %p : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %v = gpu.subgroup_mma_elementwise negatef %u : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %w = gpu.subgroup_mma_elementwise addf %v, %fc : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %x = gpu.subgroup_mma_elementwise divf %w, %t : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %y = gpu.subgroup_mma_elementwise extf %x : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %y, %out[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}

// Fills A (i + 2k) mod 5 - 2, B (3k + j) mod 7 - 3 and C (i - j), on the host.
func.func @init(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>) {
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
      %cf = arith.sitofp %d : i32 to f16
      memref.store %cf, %c[%i, %j] : memref<16x16xf16>
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF16(memref<*xf16>)

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 16] strides = [16, 1] data =
// CHECK-NEXT: {{\[\[}}-5,   -7.5,   -13,   -11.5,   -3,   -10.5,   -9.5,   -5,   -14.5,   -20,   -18.5,   -10,   -10.5,   -9.5,   -9,   -21.5],
// CHECK-NEXT:  [-8.5,   -8,   -4,   -9,   -10.5,   -8.5,   -5.5,   -8.5,   -8,   -11,   -16,   -17.5,   -15.5,   -6.5,   -8.5,   -8],
// CHECK-NEXT:  [-2,   -12.5,   -12.5,   -2,   -10.5,   -15,   -12.5,   -3,   -12.5,   -12.5,   -6,   -17.5,   -22,   -19.5,   -10,   -12.5],
// CHECK-NEXT:  [-4,   -1,   -8,   -8.5,   -5.5,   -6.5,   -10.5,   -11,   -8,   -8,   -8.5,   -5.5,   -13.5,   -17.5,   -18,   -15],
// CHECK-NEXT:  [-4.5,   -8,   -4.5,   -5,   -9.5,   -10.5,   -1,   -11.5,   -15,   -11.5,   -5,   -9.5,   -10.5,   -8,   -18.5,   -22],
// CHECK-NEXT:  [-5,   -2.5,   -8,   -6.5,   -1,   -10.5,   -9.5,   -5,   -9.5,   -15,   -13.5,   -5,   -10.5,   -9.5,   -5,   -16.5],
// CHECK-NEXT:  [-8.5,   -8,   1,   -4,   -5.5,   -3.5,   -5.5,   -8.5,   -8,   -6,   -11,   -12.5,   -10.5,   -5.5,   -8.5,   -8],
// CHECK-NEXT:  [-2,   -12.5,   -12.5,   -2,   -5.5,   -10,   -7.5,   -2,   -12.5,   -12.5,   -2,   -12.5,   -17,   -14.5,   -5,   -12.5],
// CHECK-NEXT:  [1,   3,   -8,   -8.5,   -5.5,   -1.5,   -5.5,   -6,   -3,   -8,   -8.5,   -5.5,   -8.5,   -12.5,   -13,   -10],
// CHECK-NEXT:  [0.5,   -3,   0.5,   -5,   -9.5,   -10.5,   -1,   -6.5,   -10,   -6.5,   -5,   -9.5,   -10.5,   -3,   -13.5,   -17],
// CHECK-NEXT:  [-5,   2.5,   -3,   -1.5,   -1,   -10.5,   -9.5,   -5,   -4.5,   -10,   -8.5,   -1,   -10.5,   -9.5,   -5,   -11.5],
// CHECK-NEXT:  [-8.5,   -8,   3,   1,   -0.5,   1.5,   -5.5,   -8.5,   -8,   -1,   -6,   -7.5,   -5.5,   -5.5,   -8.5,   -8],
// CHECK-NEXT:  [-2,   -12.5,   -12.5,   -2,   -0.5,   -5,   -2.5,   -2,   -12.5,   -12.5,   -2,   -7.5,   -12,   -9.5,   -2,   -12.5],
// CHECK-NEXT:  [6,   3,   -8,   -8.5,   -5.5,   3.5,   -0.5,   -1,   2,   -8,   -8.5,   -5.5,   -3.5,   -7.5,   -8,   -5],
// CHECK-NEXT:  [5.5,   2,   5.5,   -5,   -9.5,   -10.5,   -1,   -1.5,   -5,   -1.5,   -5,   -9.5,   -10.5,   -1,   -8.5,   -12],
// CHECK-NEXT:  [-5,   6.5,   2,   3.5,   -1,   -10.5,   -9.5,   -5,   0.5,   -5,   -3.5,   -1,   -10.5,   -9.5,   -5,   -6.5]]

// COMPILE: define void @main()
// COMPILE: declare void @printMemrefF32(i64, ptr)
