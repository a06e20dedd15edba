// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// A 128x128x128 GEMM, f32 += f16 * f16, on one warpgroup of one CTA (sm_90a): K in two
// slices of 64. For each slice thread 0 starts three TMA loads with 128-byte swizzling
// (A's 128x64 slice, B's 64x128 slice as two 64x64 boxes) completing on the slice's
// mbarrier, every thread waits on it, and nvgpu.warpgroup.mma multiplies from the
// shared tiles through wgmma descriptors (two 64-row blocks of four m64n128k16
// wgmma.mma_async each). The accumulator goes from the registers straight to global
// memory (nvgpu.warpgroup.mma.store). The host compares every element with its own
// product: all 16384 are equal (the inputs are small integers, every sum exact).

// COMPILE: call ptr @mgpuTensorMapEncodeTiledMemref(i64 {{%[^,]*|2}}, ptr %{{.*}}, i64 6, i64 0, i64 3, i64 0, i64 0, ptr %{{.*}})
// COMPILE: call ptr @mgpuTensorMapEncodeTiledMemref(i64 {{%[^,]*|2}}, ptr %{{.*}}, i64 6, i64 0, i64 3, i64 0, i64 0, ptr %{{.*}})
// COMPILE: call void @mgpuLaunchKernel(

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!mapA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!mapB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!descA = !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>

module attributes {gpu.container_module} {
  // One K-slice of A (128x64) and of B (64x128, as two 64x64 boxes of 64 columns).
  memref.global "private" @tileA : memref<128x64xf16, 3> {alignment = 1024 : i64}
  memref.global "private" @tileB : memref<2x64x64xf16, 3> {alignment = 1024 : i64}

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %a = memref.alloc() : memref<128x128xf16>
    %b = memref.alloc() : memref<128x128xf16>
    call @init(%a, %b) : (memref<128x128xf16>, memref<128x128xf16>) -> ()
    %d_a = gpu.alloc () : memref<128x128xf16>
    %d_b = gpu.alloc () : memref<128x128xf16>
    %d_c = gpu.alloc () : memref<128x128xf32>
    gpu.memcpy %d_a, %a : memref<128x128xf16>, memref<128x128xf16>
    gpu.memcpy %d_b, %b : memref<128x128xf16>, memref<128x128xf16>
    %ua = memref.cast %d_a : memref<128x128xf16> to memref<*xf16>
    %ub = memref.cast %d_b : memref<128x128xf16> to memref<*xf16>
    %map_a = nvgpu.tma.create.descriptor %ua box[%c128, %c64] : memref<*xf16> -> !mapA
    %map_b = nvgpu.tma.create.descriptor %ub box[%c64, %c64] : memref<*xf16> -> !mapB
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %k64 = arith.constant 64 : index
      %bytes = arith.constant 32768 : index
      %ticks = arith.constant 10000000 : index
      %parity = arith.constant false
      %tile_a = memref.get_global @tileA : memref<128x64xf16, 3>
      %tile_b = memref.get_global @tileB : memref<2x64x64xf16, 3>
      %left = memref.subview %tile_b[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, 3> to memref<64x64xf16, 3>
      %right = memref.subview %tile_b[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, 3> to memref<64x64xf16, strided<[64, 1], offset: 4096>, 3>
      %barriers = nvgpu.mbarrier.create -> !bars
      %first = arith.cmpi eq, %tx, %k0 : index
      scf.if %first {
        nvgpu.mbarrier.init %barriers[%k0], %k1 : !bars
        nvgpu.mbarrier.init %barriers[%k1], %k1 : !bars
      }
      gpu.barrier
      %zero = nvgpu.warpgroup.mma.init.accumulator -> !acc
      // K = 128 in two slices of 64, one barrier each: thread 0 starts the copies of
      // a slice, every thread waits for its bytes, the warpgroup multiplies, and
      // waits for the wgmma to be done with the tiles before they are reused.
      %c = scf.for %s = %k0 to %k2 step %k1 iter_args(%sum = %zero) -> (!acc) {
        %k = arith.muli %s, %k64 : index
        scf.if %first {
          nvgpu.mbarrier.arrive.expect_tx %barriers[%s], %bytes : !bars
          nvgpu.tma.async.load %map_a[%k, %k0], %barriers[%s] to %tile_a : !mapA, !bars -> memref<128x64xf16, 3>
          nvgpu.tma.async.load %map_b[%k0, %k], %barriers[%s] to %left : !mapB, !bars -> memref<64x64xf16, 3>
          nvgpu.tma.async.load %map_b[%k64, %k], %barriers[%s] to %right : !mapB, !bars -> memref<64x64xf16, strided<[64, 1], offset: 4096>, 3>
        }
        nvgpu.mbarrier.try_wait.parity %barriers[%s], %parity, %ticks : !bars
        %da = nvgpu.warpgroup.generate.descriptor %tile_a, %map_a : memref<128x64xf16, 3>, !mapA -> !descA
        %db = nvgpu.warpgroup.generate.descriptor %tile_b, %map_b : memref<2x64x64xf16, 3>, !mapB -> !descB
        %next = nvgpu.warpgroup.mma %da, %db, %sum {transposeB, waitGroup = 0} : !descA, !descB, !acc -> !acc
        gpu.barrier
        scf.yield %next : !acc
      }
      nvgpu.warpgroup.mma.store %c, %d_c : !acc to memref<128x128xf32>
      gpu.terminator
    }
    %result = memref.alloc() : memref<128x128xf32>
    gpu.memcpy %result, %d_c : memref<128x128xf32>, memref<128x128xf32>
    %counts = memref.alloc() : memref<2xf32>
    call @check(%a, %b, %result, %counts) : (memref<128x128xf16>, memref<128x128xf16>, memref<128x128xf32>, memref<2xf32>) -> ()
    %pc = memref.cast %counts : memref<2xf32> to memref<*xf32>
    call @printMemrefF32(%pc) : (memref<*xf32>) -> ()
    %row = memref.subview %result[5, 0] [1, 8] [1, 1] : memref<128x128xf32> to memref<8xf32, strided<[1], offset: 640>>
    %pr = memref.cast %row : memref<8xf32, strided<[1], offset: 640>> to memref<*xf32>
    call @printMemrefF32(%pr) : (memref<*xf32>) -> ()
    return
  }

  // A[i][k] = (i + 3k) mod 7 - 3 and B[k][n] = (2k + n) mod 5 - 2: small integers, so
  // every product and sum is exact in f16 inputs and f32 sums.
  func.func @init(%a: memref<128x128xf16>, %b: memref<128x128xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c128 = arith.constant 128 : index
    scf.for %i = %c0 to %c128 step %c1 {
      scf.for %j = %c0 to %c128 step %c1 {
        %j3 = arith.muli %j, %c3 : index
        %s = arith.addi %i, %j3 : index
        %m = arith.remui %s, %c7 : index
        %av = arith.subi %m, %c3 : index
        %ai = arith.index_cast %av : index to i32
        %af = arith.sitofp %ai : i32 to f16
        memref.store %af, %a[%i, %j] : memref<128x128xf16>
        %i2 = arith.muli %i, %c2 : index
        %t = arith.addi %i2, %j : index
        %r = arith.remui %t, %c5 : index
        %bv = arith.subi %r, %c2 : index
        %bi = arith.index_cast %bv : index to i32
        %bf = arith.sitofp %bi : i32 to f16
        memref.store %bf, %b[%i, %j] : memref<128x128xf16>
      }
    }
    return
  }

  // counts = [entries equal to the host's product, entries that differ].
  func.func @check(%a: memref<128x128xf16>, %b: memref<128x128xf16>, %c: memref<128x128xf32>, %counts: memref<2xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %good, %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%g0 = %zero, %b0 = %zero) -> (f32, f32) {
      %g2, %b2 = scf.for %j = %c0 to %c128 step %c1 iter_args(%g1 = %g0, %b1 = %b0) -> (f32, f32) {
        %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {
          %x = memref.load %a[%i, %k] : memref<128x128xf16>
          %y = memref.load %b[%k, %j] : memref<128x128xf16>
          %xf = arith.extf %x : f16 to f32
          %yf = arith.extf %y : f16 to f32
          %p = arith.mulf %xf, %yf : f32
          %n = arith.addf %acc, %p : f32
          scf.yield %n : f32
        }
        %got = memref.load %c[%i, %j] : memref<128x128xf32>
        %same = arith.cmpf oeq, %sum, %got : f32
        %gn = arith.addf %g1, %one : f32
        %bn = arith.addf %b1, %one : f32
        %g = arith.select %same, %gn, %g1 : f32
        %bb = arith.select %same, %b1, %bn : f32
        scf.yield %g, %bb : f32, f32
      }
      scf.yield %g2, %b2 : f32, f32
    }
    memref.store %good, %counts[%c0] : memref<2xf32>
    memref.store %bad, %counts[%c1] : memref<2xf32>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [16384,  0]
// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 1 offset = 640 sizes = [8] strides = [1] data =
// CHECK-NEXT: [16,  11,  -19,  -19,  11,  16,  11,  -19]
