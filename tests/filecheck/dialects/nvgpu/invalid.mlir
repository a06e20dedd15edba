// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// Each case also carries upstream's `expected-error`: invalid-mlir-opt.mlir runs this
// file through mlir-opt 22 --verify-diagnostics, so the messages are upstream's.

// CHECK: expected nvgpu.ldmatrix srcMemref must have a memory space attribute of IntegerAttr(3) or gpu::AddressSpaceAttr(Workgroup)
func.func @f(%m: memref<128x128xf16>, %i: index) {
  // expected-error@+1 {{expected nvgpu.ldmatrix srcMemref must have a memory space attribute of IntegerAttr(3) or gpu::AddressSpaceAttr(Workgroup)}}
  %0 = nvgpu.ldmatrix %m[%i, %i] {numTiles = 4 : i32, transpose = false} : memref<128x128xf16> -> vector<4x2xf16>
  return
}

// -----

// CHECK: nvgpu.ldmatrix transpose works only at 16b granularity
func.func @f(%m: memref<128x128xi8, 3>, %i: index) {
  // expected-error@+1 {{nvgpu.ldmatrix transpose works only at 16b granularity}}
  %0 = nvgpu.ldmatrix %m[%i, %i] {numTiles = 4 : i32, transpose = true} : memref<128x128xi8, 3> -> vector<4x4xi8>
  return
}

// -----

// CHECK: expected vector register shape[0] and numTiles to match
func.func @f(%m: memref<128x128xf16, 3>, %i: index) {
  // expected-error@+1 {{expected vector register shape[0] and numTiles to match}}
  %0 = nvgpu.ldmatrix %m[%i, %i] {numTiles = 2 : i32, transpose = false} : memref<128x128xf16, 3> -> vector<4x2xf16>
  return
}

// -----

// CHECK: 'nvgpu.mma.sync' op expected 256 warp-wide matrix A elements
func.func @f(%a: vector<2x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) {
  // expected-error@+1 {{expected 256 warp-wide matrix A elements}}
  %0 = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<2x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return
}

// -----

// CHECK: 'nvgpu.mma.sync' op expected tf32 tensor cores only for F32 operands
func.func @f(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) {
  // expected-error@+1 {{expected tf32 tensor cores only for F32 operands}}
  %0 = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16], tf32Enabled} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return
}

// -----

// CHECK: 'nvgpu.mma.sp.sync' op sparsity selector should be 0 or 1
func.func @f(%a: vector<4x2xf16>, %b: vector<4x2xf16>, %c: vector<2x2xf16>, %m: vector<2xi16>) {
  // expected-error@+1 {{sparsity selector should be 0 or 1}}
  %0 = nvgpu.mma.sp.sync (%a, %b, %c) metadata (%m) {mmaShape = [16, 8, 32], sparsitySelector = 2 : i32} : (vector<4x2xf16>, vector<4x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
  return
}

// -----

// CHECK: destination memref must have a memory space attribute of IntegerAttr(3) or gpu::AddressSpaceAttr(Workgroup)
func.func @f(%g: memref<128xf32>, %s: memref<128xf32>, %i: index) {
  // expected-error@+1 {{destination memref must have a memory space attribute of IntegerAttr(3) or gpu::AddressSpaceAttr(Workgroup)}}
  %0 = nvgpu.device_async_copy %g[%i], %s[%i], 4 : memref<128xf32> to memref<128xf32>
  return
}

// -----

// CHECK: Requested copy elements is 3 with width 32. But copy elements could be one of 1, 2, 4.
func.func @f(%g: memref<128xf32>, %s: memref<128xf32, 3>, %i: index) {
  // expected-error@+1 {{Requested copy elements is 3 with width 32. But copy elements could be one of 1, 2, 4.}}
  %0 = nvgpu.device_async_copy %g[%i], %s[%i], 3 : memref<128xf32> to memref<128xf32, 3>
  return
}

// -----

// CHECK: 'nvgpu.device_async_copy' op bypassL1 does not satify alignment for memref<128xf32, 3> with destination element 2. Unset bypassL1, or set destination element to 4
func.func @f(%g: memref<128xf32>, %s: memref<128xf32, 3>, %i: index) {
  // expected-error@+1 {{bypassL1 does not satify alignment for 'memref<128xf32, 3>' with destination element 2. Unset bypassL1, or set destination element to 4}}
  %0 = nvgpu.device_async_copy %g[%i], %s[%i], 2 {bypassL1} : memref<128xf32> to memref<128xf32, 3>
  return
}

// -----

// CHECK: 'nvgpu.device_async_copy' op expected 2 source indices, got 1
func.func @f(%g: memref<16x16xf32>, %s: memref<128xf32, 3>, %i: index) {
  // expected-error@+1 {{expected 2 source indices, got 1}}
  %0 = nvgpu.device_async_copy %g[%i], %s[%i], 4 : memref<16x16xf32> to memref<128xf32, 3>
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<128x32xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// CHECK: the tensormap descriptor must have last dimension of 128 bytes but it is 64 bytes
func.func @f(%c: memref<*xf16>, %i: index) {
  // expected-error@+1 {{the tensormap descriptor must have last dimension of 128 bytes but it is 64 bytes}}
  %d = nvgpu.tma.create.descriptor %c box[%i, %i] : memref<*xf16> -> !tmap
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
// CHECK: number of coordinates do not match with the rank of tensor descriptor map.
func.func @f(%t: !tmap, %b: !barrier, %tile: memref<128x64xf16, 3>, %i: index) {
  // expected-error@+1 {{number of coordinates do not match with the rank of tensor descriptor map.}}
  nvgpu.tma.async.load %t[%i], %b[%i] to %tile : !tmap, !barrier -> memref<128x64xf16, 3>
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
// CHECK: the destination memref has incorrect address space, it must be shared memory address space.
func.func @f(%t: !tmap, %b: !barrier, %tile: memref<128x64xf16>, %i: index) {
  // expected-error@+1 {{the destination memref has incorrect address space, it must be shared memory address space.}}
  nvgpu.tma.async.load %t[%i, %i], %b[%i] to %tile : !tmap, !barrier -> memref<128x64xf16>
  return
}

// -----

!dA = !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
!dB = !nvgpu.warpgroup.descriptor<tensor = memref<32x128xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
// CHECK: 'nvgpu.warpgroup.mma' op 2nd dim matrix-A (64)!= 1st dim matrix-B (32 )
func.func @f(%a: !dA, %b: !dB, %c: !acc) {
  // expected-error@+1 {{2nd dim matrix-A (64)!= 1st dim matrix-B (32 )}}
  %d = nvgpu.warpgroup.mma %a, %b, %c {transposeB} : !dA, !dB, !acc -> !acc
  return
}

// -----

!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf16>>
// CHECK: 'nvgpu.warpgroup.mma.store' op hit a limitation: only f32 results for the time being
func.func @f(%c: !acc, %out: memref<128x128xf16, 3>) {
  // expected-error@+1 {{hit a limitation: only f32 results for the time being}}
  nvgpu.warpgroup.mma.store %c, %out : !acc to memref<128x128xf16, 3>
  return
}

// -----

// CHECK: 'nvgpu.warpgroup.mma.init.accumulator' op has type 'vector<100x128xf32>'. It does not fit into warp-group level (wgmma) matrix multiplication instruction (or not supported yet)
func.func @f() {
  // expected-error@+1 {{has type 'vector<100x128xf32>'. It does not fit into warp-group level (wgmma) matrix multiplication instruction (or not supported yet)}}
  %c = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<100x128xf32>>
  return
}

// -----

// CHECK: 'nvgpu.rcp' op has a limitation. #nvgpu<rcp_rounding_mode rn> or non-ftz is not supported yet.
func.func @f(%v: vector<4xf32>) {
  // expected-error@+1 {{has a limitation. #nvgpu<rcp_rounding_mode rn> or non-ftz is not supported yet.}}
  %r = nvgpu.rcp %v {rounding = rn, ftz} : vector<4xf32>
  return
}

// -----

// Types in the message are quoted, as upstream's diagnostics print them.
// CHECK: 'nvgpu.warpgroup.mma' op 'f32' += 'f16' * 'bf16', it is not supported.
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x64xf32>>
!da = !nvgpu.warpgroup.descriptor<tensor = memref<128x32xf16, 3>>
!db = !nvgpu.warpgroup.descriptor<tensor = memref<32x64xbf16, 3>>
func.func @f(%a: !da, %b: !db, %c: !acc) {
  // expected-error@+1 {{'f32' += 'f16' * 'bf16', it is not supported.}}
  %d = nvgpu.warpgroup.mma %a, %b, %c : !da, !db, !acc -> !acc
  return
}

// -----

// CHECK: 'nvgpu.warpgroup.mma' op has input type 'memref<32x20xf16, #gpu.address_space<workgroup>>' n is set to 20, it is not supported
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x20xf32>>
!da = !nvgpu.warpgroup.descriptor<tensor = memref<128x32xf16, #gpu.address_space<workgroup>>>
!db = !nvgpu.warpgroup.descriptor<tensor = memref<32x20xf16, #gpu.address_space<workgroup>>>
func.func @f(%a: !da, %b: !db, %c: !acc) {
  // expected-error@+1 {{has input type 'memref<32x20xf16, #gpu.address_space<workgroup>>' n is set to 20, it is not supported}}
  %d = nvgpu.warpgroup.mma %a, %b, %c : !da, !db, !acc -> !acc
  return
}
