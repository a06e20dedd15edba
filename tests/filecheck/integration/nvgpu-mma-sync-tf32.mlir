// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// The tf32 variant (mma.sync.m16n8k8.tf32, tf32Enabled): A 16x8 and B 8x8 f32, ldmatrix
// of 32-bit elements, and cp.async's zero-filling form (srcElements): column 7 of B
// is never read, so it is 0 in shared memory. The CHECK lines are NumPy's product
// with that column zeroed.

func.func @main() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16x8xf32>
  %b = memref.alloc() : memref<8x8xf32>
  call @init(%a, %b) : (memref<16x8xf32>, memref<8x8xf32>) -> ()
  // Each lane's accumulator fragment (vector<2x2xf32>) is stored whole, as one row of
  // four floats of the same buffer.
  %raw = memref.alloc() : memref<512xi8>
  %frags = memref.view %raw[%c0][] : memref<512xi8> to memref<32xvector<2x2xf32>>
  %a_u = memref.cast %a : memref<16x8xf32> to memref<*xf32>
  %b_u = memref.cast %b : memref<8x8xf32> to memref<*xf32>
  %raw_u = memref.cast %raw : memref<512xi8> to memref<*xi8>
  gpu.host_register %a_u : memref<*xf32>
  gpu.host_register %b_u : memref<*xf32>
  gpu.host_register %raw_u : memref<*xi8>
  %one = arith.constant 1 : index
  %warp = arith.constant 32 : index
  // One warp: cp.async global -> shared, ldmatrix shared -> registers, mma.sync.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%nx = %warp, %ny = %one, %nz = %one)
             workgroup(%sa : memref<16x8xf32, #gpu.address_space<workgroup>>, %sb : memref<8x8xf32, #gpu.address_space<workgroup>>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    // A: 4 floats (16 bytes, bypassing L1) per lane. B: 2 floats (8 bytes) per lane, but
    // the lanes of columns 6-7 read one: column 7 is zero-filled (srcElements).
    %ar = arith.divui %tx, %c2 : index
    %am = arith.remui %tx, %c2 : index
    %ac = arith.muli %am, %c4 : index
    %ta = nvgpu.device_async_copy %a[%ar, %ac], %sa[%ar, %ac], 4 {bypassL1} : memref<16x8xf32> to memref<16x8xf32, #gpu.address_space<workgroup>>
    %br = arith.divui %tx, %c4 : index
    %bm = arith.remui %tx, %c4 : index
    %bc = arith.muli %bm, %c2 : index
    %last = arith.cmpi eq, %bm, %c3 : index
    %n = arith.select %last, %c1, %c2 : index
    %tb = nvgpu.device_async_copy %b[%br, %bc], %sb[%br, %bc], 2, %n : memref<8x8xf32> to memref<8x8xf32, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %ta, %tb
    nvgpu.device_async_wait %g {numGroups = 0 : i32}
    gpu.barrier
    // ldmatrix of 32-bit elements: an 8x8 b16 tile is 8 rows of 4 floats. Lane l gives
    // row l % 16 of A, column 4 (l / 16); B (n-major) row l % 8, column 4 ((l / 8) % 2).
    %lr = arith.remui %tx, %c16 : index
    %lh = arith.divui %tx, %c16 : index
    %lc = arith.muli %lh, %c4 : index
    %fa = nvgpu.ldmatrix %sa[%lr, %lc] {numTiles = 4 : i32, transpose = false} : memref<16x8xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
    %nr = arith.remui %tx, %c8 : index
    %nh = arith.divui %lr, %c8 : index
    %nc = arith.muli %nh, %c4 : index
    %fb = nvgpu.ldmatrix %sb[%nr, %nc] {numTiles = 2 : i32, transpose = false} : memref<8x8xf32, #gpu.address_space<workgroup>> -> vector<2x1xf32>
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %d = nvgpu.mma.sync(%fa, %fb, %zero) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
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
func.func @init(%a: memref<16x8xf32>, %b: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %cK = arith.constant 8 : index
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
      %af = arith.sitofp %ai : i32 to f32
      memref.store %af, %a[%i, %k] : memref<16x8xf32>
    }
  }
  scf.for %n = %c0 to %c8 step %c1 {
    scf.for %k = %c0 to %cK step %c1 {
      %k3 = arith.muli %k, %i3 : index
      %t = arith.addi %k3, %n : index
      %r = arith.remui %t, %i7 : index
      %b0 = arith.subi %r, %i3 : index
      %bi = arith.index_cast %b0 : index to i32
      %bf = arith.sitofp %bi : i32 to f32
      memref.store %bf, %b[%n, %k] : memref<8x8xf32>
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
// CHECK-NEXT: {{\[\[}}19,   3,   -6,   -8,   -10,   -5,   7,   19],
// CHECK-NEXT:  [4,   18,   4,   -3,   -10,   -10,   -3,   4],
// CHECK-NEXT:  [-6,   3,   19,   7,   -5,   -10,   -8,   -6],
// CHECK-NEXT:  [-11,   -12,   -6,   7,   20,   5,   -3,   -11],
// CHECK-NEXT:  [-6,   -12,   -11,   -3,   5,   20,   7,   -6],
// CHECK-NEXT:  [19,   3,   -6,   -8,   -10,   -5,   7,   19],
// CHECK-NEXT:  [4,   18,   4,   -3,   -10,   -10,   -3,   4],
// CHECK-NEXT:  [-6,   3,   19,   7,   -5,   -10,   -8,   -6],
// CHECK-NEXT:  [-11,   -12,   -6,   7,   20,   5,   -3,   -11],
// CHECK-NEXT:  [-6,   -12,   -11,   -3,   5,   20,   7,   -6],
// CHECK-NEXT:  [19,   3,   -6,   -8,   -10,   -5,   7,   19],
// CHECK-NEXT:  [4,   18,   4,   -3,   -10,   -10,   -3,   4],
// CHECK-NEXT:  [-6,   3,   19,   7,   -5,   -10,   -8,   -6],
// CHECK-NEXT:  [-11,   -12,   -6,   7,   20,   5,   -3,   -11],
// CHECK-NEXT:  [-6,   -12,   -11,   -3,   5,   20,   7,   -6],
// CHECK-NEXT:  [19,   3,   -6,   -8,   -10,   -5,   7,   19]]

// COMPILE: define void @main()
// COMPILE: declare void @printMemrefF32(i64, ptr)
