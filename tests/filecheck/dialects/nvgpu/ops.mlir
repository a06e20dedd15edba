// RUN: xdsl-opt %s --split-input-file | filecheck %s
// RUN: xdsl-opt %s --split-input-file --print-op-generic | xdsl-opt --split-input-file | filecheck %s
// Every chunk is compared with mlir-opt 22 (custom and generic forms, both ways) by
// tests/test_mlir_conformance.py and tests/gpu_dialect/test_nvgpu.py.

// CHECK-LABEL: func.func @mma
func.func @mma(%sm: memref<?x?xf16, 3>, %i: index, %a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>, %b4: vector<4x2xf16>, %meta: vector<2xi16>, %af: vector<2x1xf32>, %bf: vector<1x1xf32>, %cf: vector<2x2xf32>) {
  // CHECK: nvgpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<?x?xf16, 3> -> vector<4x2xf16>
  %0 = nvgpu.ldmatrix %sm[%i, %i] {numTiles = 4 : i32, transpose = false} : memref<?x?xf16, 3> -> vector<4x2xf16>
  // CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16 : i64, 8 : i64, 16 : i64]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  %1 = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  // CHECK: nvgpu.mma.sync(%{{.*}}) {mmaShape = [16 : i64, 8 : i64, 4 : i64], tf32Enabled}
  %2 = nvgpu.mma.sync (%af, %bf, %cf) {mmaShape = [16, 8, 4], tf32Enabled} : (vector<2x1xf32>, vector<1x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  // CHECK: nvgpu.mma.sp.sync(%{{.*}}, %{{.*}}, %{{.*}}) metadata(%{{.*}}) {mmaShape = [16 : i64, 8 : i64, 32 : i64], sparsitySelector = 1 : i32}
  %3 = nvgpu.mma.sp.sync (%a, %b4, %c) metadata (%meta) {mmaShape = [16, 8, 32], sparsitySelector = 1 : i32} : (vector<4x2xf16>, vector<4x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return
}

// -----

// CHECK-LABEL: func.func @async_copy
func.func @async_copy(%g: memref<128x128xf32>, %s: memref<3x16x128xf32, 3>, %i: index, %tok: !nvgpu.device.async.token) {
  // CHECK: %[[T0:.*]] = nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], 4 : memref<128x128xf32> to memref<3x16x128xf32, 3>
  %0 = nvgpu.device_async_copy %g[%i, %i], %s[%i, %i, %i], 4 : memref<128x128xf32> to memref<3x16x128xf32, 3>
  // CHECK: nvgpu.device_async_copy %{{.*}}, 4, %{{.*}} {bypassL1}
  %1 = nvgpu.device_async_copy %g[%i, %i], %s[%i, %i, %i], 4, %i {bypassL1} : memref<128x128xf32> to memref<3x16x128xf32, 3>
  // CHECK: %[[G:.*]] = nvgpu.device_async_create_group %[[T0]], %{{.*}}
  %2 = nvgpu.device_async_create_group %0, %1
  // CHECK: nvgpu.device_async_wait %[[G]] {numGroups = 1 : i32}
  nvgpu.device_async_wait %2 {numGroups = 1 : i32}
  // CHECK: nvgpu.device_async_wait %[[G]]
  nvgpu.device_async_wait %2
  // CHECK: nvgpu.device_async_create_group %{{.*}}
  %3 = nvgpu.device_async_create_group %tok
  return
}

// -----

!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK-LABEL: func.func @mbarrier
func.func @mbarrier(%i: index, %p: i1) {
  // CHECK: %[[B:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
  %b = nvgpu.mbarrier.create -> !barrier
  // CHECK: nvgpu.mbarrier.init %[[B]][%{{.*}}], %{{.*}} : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
  nvgpu.mbarrier.init %b[%i], %i : !barrier
  // CHECK: nvgpu.mbarrier.init %[[B]][%{{.*}}], %{{.*}}, predicate = %{{.*}} : <
  nvgpu.mbarrier.init %b[%i], %i, predicate = %p : !barrier
  // CHECK: %[[T:.*]] = nvgpu.mbarrier.arrive %[[B]][%{{.*}}] : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4> -> !nvgpu.mbarrier.token
  %t = nvgpu.mbarrier.arrive %b[%i] : !barrier -> !nvgpu.mbarrier.token
  // CHECK: nvgpu.mbarrier.arrive.nocomplete %[[B]][%{{.*}}], %{{.*}} : <{{.*}}> -> !nvgpu.mbarrier.token
  %t2 = nvgpu.mbarrier.arrive.nocomplete %b[%i], %i : !barrier -> !nvgpu.mbarrier.token
  // CHECK: nvgpu.mbarrier.arrive.expect_tx %[[B]][%{{.*}}], %{{.*}}, predicate = %{{.*}} : <
  nvgpu.mbarrier.arrive.expect_tx %b[%i], %i, predicate = %p : !barrier
  // CHECK: nvgpu.mbarrier.arrive.expect_tx %[[B]][%{{.*}}], %{{.*}} : <
  nvgpu.mbarrier.arrive.expect_tx %b[%i], %i : !barrier
  // CHECK: nvgpu.mbarrier.test.wait %[[B]][%{{.*}}], %[[T]] : <{{.*}}>, !nvgpu.mbarrier.token
  %done = nvgpu.mbarrier.test.wait %b[%i], %t : !barrier, !nvgpu.mbarrier.token
  // CHECK: nvgpu.mbarrier.try_wait.parity %[[B]][%{{.*}}], %{{.*}}, %{{.*}} : <
  nvgpu.mbarrier.try_wait.parity %b[%i], %p, %i : !barrier
  // CHECK: nvgpu.mbarrier.get %[[B]][%{{.*}}] : <{{.*}}> -> i32
  %addr = nvgpu.mbarrier.get %b[%i] : !barrier -> i32
  // CHECK: nvgpu.mbarrier.create -> <memorySpace = 3 : i64>
  %b1 = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = 3>
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @tma
func.func @tma(%u: memref<*xf16>, %tile: memref<128x64xf16, 3>, %t: !tmap, %b: !barrier, %i: index, %p: i1, %mask: i16) {
  // CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  %d = nvgpu.tma.create.descriptor %u box[%i, %i] : memref<*xf16> -> !tmap
  // CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] to %{{.*}} : <tensor = {{.*}}>, <memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, 3>
  nvgpu.tma.async.load %t[%i, %i], %b[%i] to %tile : !tmap, !barrier -> memref<128x64xf16, 3>
  // CHECK: nvgpu.tma.async.load %{{.*}} to %{{.*}} multicast_mask = %{{.*}}, predicate = %{{.*}} : <
  nvgpu.tma.async.load %t[%i, %i], %b[%i] to %tile multicast_mask = %mask, predicate = %p : !tmap, !barrier -> memref<128x64xf16, 3>
  // CHECK: nvgpu.tma.async.store %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}], predicate = %{{.*}} : memref<128x64xf16, 3> -> <tensor = {{.*}}>
  nvgpu.tma.async.store %tile to %t[%i, %i], predicate = %p : memref<128x64xf16, 3> -> !tmap
  // CHECK: nvgpu.tma.prefetch.descriptor %{{.*}} : <tensor
  nvgpu.tma.prefetch.descriptor %t : !tmap
  // CHECK: nvgpu.tma.prefetch.descriptor %{{.*}}, predicate = %{{.*}} : <tensor
  nvgpu.tma.prefetch.descriptor %t, predicate = %p : !tmap
  // CHECK: nvgpu.tma.fence.descriptor %{{.*}} : <tensor
  nvgpu.tma.fence.descriptor %t : !tmap
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!dA = !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
!dB = !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
// CHECK-LABEL: func.func @warpgroup
func.func @warpgroup(%tile: memref<128x64xf16, 3>, %t: !tmap, %b: !dB, %out: memref<128x128xf32, 3>) {
  // CHECK: %[[A:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %{{.*}} : memref<128x64xf16, 3>, <tensor = {{.*}}> -> <tensor = memref<128x64xf16, 3>>
  %a = nvgpu.warpgroup.generate.descriptor %tile, %t : memref<128x64xf16, 3>, !tmap -> !dA
  // CHECK: %[[C:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>
  %c = nvgpu.warpgroup.mma.init.accumulator -> !acc
  // CHECK: %[[D:.*]] = nvgpu.warpgroup.mma %[[A]], %{{.*}}, %[[C]] {transposeB} : <tensor = memref<128x64xf16, 3>>, <tensor = memref<64x128xf16, 3>>, <fragmented = vector<128x128xf32>> -> <fragmented = vector<128x128xf32>>
  %d = nvgpu.warpgroup.mma %a, %b, %c {transposeB} : !dA, !dB, !acc -> !acc
  // CHECK: nvgpu.warpgroup.mma %[[A]], %{{.*}}, %[[D]] {transposeB, waitGroup = 2 : i64}
  %e = nvgpu.warpgroup.mma %a, %b, %d {transposeB, waitGroup = 2} : !dA, !dB, !acc -> !acc
  // CHECK: nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} : <fragmented = vector<128x128xf32>> to memref<128x128xf32, 3>
  nvgpu.warpgroup.mma.store %e, %out : !acc to memref<128x128xf32, 3>
  return
}

// -----

// CHECK-LABEL: func.func @rcp
func.func @rcp(%v: vector<4x8xf32>) -> vector<4x8xf32> {
  // CHECK: nvgpu.rcp %{{.*}}{rounding =  approx, ftz} : vector<4x8xf32>
  %r = nvgpu.rcp %v {rounding = approx, ftz} : vector<4x8xf32>
  return %r : vector<4x8xf32>
}
