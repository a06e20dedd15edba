// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// An sm_80 tensor-core tile as nvgpu writes it (convert-nvgpu-to-nvvm): one warp copies
// A (16x16 f16) and B (8x16 f16, n-major) to shared memory with cp.async, loads the
// fragments with ldmatrix.x4/.x2 and computes C = A * B^T (16x8 f32) with
// mma.sync.m16n8k16. The PTX is sm_80's; on a newer GPU the driver compiles it. The
// CHECK lines are NumPy's product of the same matrices.

func.func @main() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16x16xf16>
  %b = memref.alloc() : memref<8x16xf16>
  call @init(%a, %b) : (memref<16x16xf16>, memref<8x16xf16>) -> ()
  // Each lane's accumulator fragment (vector<2x2xf32>) is stored whole, as one row of
  // four floats of the same buffer.
  %raw = memref.alloc() : memref<512xi8>
  %frags = memref.view %raw[%c0][] : memref<512xi8> to memref<32xvector<2x2xf32>>
  %a_u = memref.cast %a : memref<16x16xf16> to memref<*xf16>
  %b_u = memref.cast %b : memref<8x16xf16> to memref<*xf16>
  %raw_u = memref.cast %raw : memref<512xi8> to memref<*xi8>
  gpu.host_register %a_u : memref<*xf16>
  gpu.host_register %b_u : memref<*xf16>
  gpu.host_register %raw_u : memref<*xi8>
  %one = arith.constant 1 : index
  %warp = arith.constant 32 : index
  // One warp: cp.async global -> shared, ldmatrix shared -> registers, mma.sync.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%nx = %warp, %ny = %one, %nz = %one)
             workgroup(%sa : memref<16x16xf16, #gpu.address_space<workgroup>>, %sb : memref<8x16xf16, #gpu.address_space<workgroup>>) {
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    // A: 8 halves (16 bytes, bypassing L1) per lane; B: 4 halves (8 bytes) per lane.
    %ar = arith.divui %tx, %c2 : index
    %am = arith.remui %tx, %c2 : index
    %ac = arith.muli %am, %c8 : index
    %ta = nvgpu.device_async_copy %a[%ar, %ac], %sa[%ar, %ac], 8 {bypassL1} : memref<16x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
    %br = arith.divui %tx, %c4 : index
    %bm = arith.remui %tx, %c4 : index
    %bc = arith.muli %bm, %c4 : index
    %tb = nvgpu.device_async_copy %b[%br, %bc], %sb[%br, %bc], 4 : memref<8x16xf16> to memref<8x16xf16, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %ta, %tb
    nvgpu.device_async_wait %g
    gpu.barrier
    // ldmatrix: lane l gives the address of row l % 16 of A, column 8 (l / 16): the four
    // 8x8 tiles are A's registers a0..a3; B (n-major) row l % 8, column 8 ((l / 8) % 2).
    %lr = arith.remui %tx, %c16 : index
    %lh = arith.divui %tx, %c16 : index
    %lc = arith.muli %lh, %c8 : index
    %fa = nvgpu.ldmatrix %sa[%lr, %lc] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %nr = arith.remui %tx, %c8 : index
    %nh = arith.divui %lr, %c8 : index
    %nc = arith.muli %nh, %c8 : index
    %fb = nvgpu.ldmatrix %sb[%nr, %nc] {numTiles = 2 : i32, transpose = false} : memref<8x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %d = nvgpu.mma.sync(%fa, %fb, %zero) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    memref.store %d, %frags[%tx] : memref<32xvector<2x2xf32>>
    gpu.terminator
  }
  %frags4 = memref.view %raw[%c0][] : memref<512xi8> to memref<32x4xf32>
  %out = memref.alloc() : memref<16x8xf32>
  call @unscramble(%frags4, %out) : (memref<32x4xf32>, memref<16x8xf32>) -> ()
  %out_u = memref.cast %out : memref<16x8xf32> to memref<*xf32>
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}

// A[i][k] = (i + 2k) mod 5 - 2 and B[n][k] = (3k + n) mod 7 - 3 (B stored n-major, the
// "col" operand of mma.sync), small integers: every product and sum is exact.
func.func @init(%a: memref<16x16xf16>, %b: memref<8x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %cK = arith.constant 16 : index
  %i5 = arith.constant 5 : index
  %i7 = arith.constant 7 : index
  %i2 = arith.constant 2 : index
  %i3 = arith.constant 3 : index
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %k = %c0 to %cK step %c1 {
      %k2 = arith.muli %k, %i2 : index
      %s = arith.addi %i, %k2 : index
      %m = arith.remui %s, %i5 : index
      %a0 = arith.subi %m, %i2 : index
      %ai = arith.index_cast %a0 : index to i32
      %af = arith.sitofp %ai : i32 to f16
      memref.store %af, %a[%i, %k] : memref<16x16xf16>
    }
  }
  scf.for %n = %c0 to %c8 step %c1 {
    scf.for %k = %c0 to %cK step %c1 {
      %k3 = arith.muli %k, %i3 : index
      %t = arith.addi %k3, %n : index
      %r = arith.remui %t, %i7 : index
      %b0 = arith.subi %r, %i3 : index
      %bi = arith.index_cast %b0 : index to i32
      %bf = arith.sitofp %bi : i32 to f16
      memref.store %bf, %b[%n, %k] : memref<8x16xf16>
    }
  }
  return
}

// The accumulator fragments back into the 16x8 matrix: lane l holds
// C[l / 4 + 8 r][2 (l % 4) + e] at position 2 r + e of its row.
func.func @unscramble(%frags: memref<32x4xf32>, %out: memref<16x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  scf.for %l = %c0 to %c32 step %c1 {
    %g = arith.divui %l, %c4 : index
    %t = arith.remui %l, %c4 : index
    %col = arith.muli %t, %c2 : index
    scf.for %r = %c0 to %c2 step %c1 {
      scf.for %e = %c0 to %c2 step %c1 {
        %r8 = arith.muli %r, %c8 : index
        %i = arith.addi %g, %r8 : index
        %j = arith.addi %col, %e : index
        %r2 = arith.muli %r, %c2 : index
        %p = arith.addi %r2, %e : index
        %v = memref.load %frags[%l, %p] : memref<32x4xf32>
        memref.store %v, %out[%i, %j] : memref<16x8xf32>
      }
    }
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [16, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}10,   -13,   -22,   -17,   2,   21,   19,   10],
// CHECK-NEXT:  [17,   16,   -6,   -14,   -15,   -9,   11,   17],
// CHECK-NEXT:  [4,   25,   25,   4,   -17,   -24,   -17,   4],
// CHECK-NEXT:  [-14,   -6,   16,   17,   11,   -9,   -15,   -14],
// CHECK-NEXT:  [-17,   -22,   -13,   10,   19,   21,   2,   -17],
// CHECK-NEXT:  [10,   -13,   -22,   -17,   2,   21,   19,   10],
// CHECK-NEXT:  [17,   16,   -6,   -14,   -15,   -9,   11,   17],
// CHECK-NEXT:  [4,   25,   25,   4,   -17,   -24,   -17,   4],
// CHECK-NEXT:  [-14,   -6,   16,   17,   11,   -9,   -15,   -14],
// CHECK-NEXT:  [-17,   -22,   -13,   10,   19,   21,   2,   -17],
// CHECK-NEXT:  [10,   -13,   -22,   -17,   2,   21,   19,   10],
// CHECK-NEXT:  [17,   16,   -6,   -14,   -15,   -9,   11,   17],
// CHECK-NEXT:  [4,   25,   25,   4,   -17,   -24,   -17,   4],
// CHECK-NEXT:  [-14,   -6,   16,   17,   11,   -9,   -15,   -14],
// CHECK-NEXT:  [-17,   -22,   -13,   10,   19,   21,   2,   -17],
// CHECK-NEXT:  [10,   -13,   -22,   -17,   2,   21,   19,   10]]

// COMPILE: define void @main()
// COMPILE: declare void @printMemrefF32(i64, ptr)
