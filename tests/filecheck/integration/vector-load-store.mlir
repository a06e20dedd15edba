// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// vector.load/vector.store in kernels: vector<4xf32> (ld.global.v4 with alignment 16),
// vector<8xf16> (one 16-byte access) and vector<2xbf16> (one 4-byte access), the
// halves widened to f32 with arith.extf on vectors.

memref.global "private" constant @f32s : memref<8xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]>
memref.global "private" constant @f16s : memref<8xf16> = dense<[0.5, 1.5, 2.5, 3.5, -1.0, -2.0, 10.0, 0.25]>
memref.global "private" constant @bf16s : memref<4xbf16> = dense<[1.0, -3.0, 0.5, 64.0]>

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.alloc() : memref<8xf32>
  %ga = memref.get_global @f32s : memref<8xf32>
  memref.copy %ga, %a : memref<8xf32> to memref<8xf32>
  %h = memref.alloc() : memref<8xf16>
  %gh = memref.get_global @f16s : memref<8xf16>
  memref.copy %gh, %h : memref<8xf16> to memref<8xf16>
  %b = memref.alloc() : memref<4xbf16>
  %gb = memref.get_global @bf16s : memref<4xbf16>
  memref.copy %gb, %b : memref<4xbf16> to memref<4xbf16>
  %out = memref.alloc() : memref<20xf32>
  %a_u = memref.cast %a : memref<8xf32> to memref<*xf32>
  gpu.host_register %a_u : memref<*xf32>
  %h_u = memref.cast %h : memref<8xf16> to memref<*xf16>
  gpu.host_register %h_u : memref<*xf16>
  %b_u = memref.cast %b : memref<4xbf16> to memref<*xbf16>
  gpu.host_register %b_u : memref<*xbf16>
  %out_u = memref.cast %out : memref<20xf32> to memref<*xf32>
  gpu.host_register %out_u : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%nx = %c2, %ny = %c1, %nz = %c1) {
    // out[4t .. 4t+3] = a[4t ..] * a[4t ..]
    %c4 = arith.constant 4 : index
    %i = arith.muli %tx, %c4 : index
    %x = vector.load %a[%i] {alignment = 16} : memref<8xf32>, vector<4xf32>
    %sq = arith.mulf %x, %x : vector<4xf32>
    vector.store %sq, %out[%i] {alignment = 16} : memref<20xf32>, vector<4xf32>
    // thread 0: out[8 .. 15] = 2 * h; thread 1: out[16 .. 19] = b * b
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %c8 = arith.constant 8 : index
      %hv = vector.load %h[%c0] {alignment = 16} : memref<8xf16>, vector<8xf16>
      %h2 = arith.addf %hv, %hv : vector<8xf16>
      %hw = arith.extf %h2 : vector<8xf16> to vector<8xf32>
      vector.store %hw, %out[%c8] : memref<20xf32>, vector<8xf32>
    } else {
      %c16 = arith.constant 16 : index
      %c18 = arith.constant 18 : index
      %b0 = vector.load %b[%c0] {alignment = 4} : memref<4xbf16>, vector<2xbf16>
      %b1 = vector.load %b[%c2] {alignment = 4} : memref<4xbf16>, vector<2xbf16>
      %w0 = arith.extf %b0 : vector<2xbf16> to vector<2xf32>
      %w1 = arith.extf %b1 : vector<2xbf16> to vector<2xf32>
      %s0 = arith.mulf %w0, %w0 : vector<2xf32>
      %s1 = arith.mulf %w1, %w1 : vector<2xf32>
      vector.store %s0, %out[%c16] : memref<20xf32>, vector<2xf32>
      vector.store %s1, %out[%c18] : memref<20xf32>, vector<2xf32>
    }
    gpu.terminator
  }
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// COMPILE: define void @main()
// COMPILE: declare void @printMemrefF32(i64, ptr)

// CHECK: Unranked Memref
// CHECK-SAME: rank = 1 offset = 0 sizes = [20] strides = [1] data =
// CHECK-NEXT: [1,  4,  9,  16,  25,  36,  49,  64,  1,  3,  5,  7,  -2,  -4,  20,  0.5,  1,  9,  0.25,  4096]
