// RUN: xdsl-opt %s -p convert-nvgpu-to-nvvm --split-input-file | filecheck %s

// convert-nvgpu-to-nvvm on the sm_90 nvgpu ops (mbarrier, TMA, warpgroup).
// tests/passes/test_nvgpu_to_nvvm_hopper_differential.py lowers every case of this
// file with mlir-opt-22 --convert-nvgpu-to-nvvm too and requires the same output.

// A group of barriers is a private memref.global of i64 in the nearest symbol
// table; each op addresses barrier %id of it.
// CHECK:       memref.global "private" @__mbarrier : memref<4xi64, 3> {alignment = 8 : i64}
// CHECK-LABEL: func.func @mbarrier
// CHECK:       %[[G:.*]] = memref.get_global @__mbarrier : memref<4xi64, 3>
// CHECK-NEXT:  %[[D:.*]] = builtin.unrealized_conversion_cast %[[G]] : memref<4xi64, 3> to !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:  %[[B:.*]] = llvm.extractvalue %[[D]][1]
// CHECK-NEXT:  %[[P:.*]] = llvm.getelementptr %[[B]][%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i64
// CHECK-NEXT:  %[[N:.*]] = llvm.trunc %{{.*}} : i64 to i32
// CHECK-NEXT:  nvvm.mbarrier.init %[[P]], %[[N]] : !llvm.ptr<3>, i32
// CHECK:       nvvm.mbarrier.init %{{.*}}, %{{.*}}, predicate = %{{.*}} : !llvm.ptr<3>, i32, i1
// CHECK:       %[[T:.*]] = nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3> -> i64
// CHECK:       nvvm.mbarrier.arrive.nocomplete %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32 -> i64
// CHECK:       nvvm.mbarrier.test.wait %{{.*}}, %[[T]] : !llvm.ptr<3>, i64 -> i1
// CHECK:       nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK:       nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}}, predicate = %{{.*}} : !llvm.ptr<3>, i32, i1
// CHECK:       %[[TICKS:.*]] = llvm.trunc %{{.*}} : i64 to i32
// CHECK-NEXT:  %[[PARITY:.*]] = llvm.zext %{{.*}} : i1 to i32
// CHECK-NEXT:  nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PARITY]], %[[TICKS]] : !llvm.ptr<3>, i32, i32
// CHECK:       llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
!bg4 = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @mbarrier(%count: index, %id: index, %p: i1, %tx: index, %parity: i1, %ticks: index) -> (i1, i32) {
  %barrier = nvgpu.mbarrier.create -> !bg4
  nvgpu.mbarrier.init %barrier[%id], %count : !bg4
  nvgpu.mbarrier.init %barrier[%id], %count, predicate = %p : !bg4
  %token = nvgpu.mbarrier.arrive %barrier[%id] : !bg4 -> !nvgpu.mbarrier.token
  %t2 = nvgpu.mbarrier.arrive.nocomplete %barrier[%id], %count : !bg4 -> !nvgpu.mbarrier.token
  %done = nvgpu.mbarrier.test.wait %barrier[%id], %token : !bg4, !nvgpu.mbarrier.token
  nvgpu.mbarrier.arrive.expect_tx %barrier[%id], %tx : !bg4
  nvgpu.mbarrier.arrive.expect_tx %barrier[%id], %tx, predicate = %p : !bg4
  nvgpu.mbarrier.try_wait.parity %barrier[%id], %parity, %ticks : !bg4
  %a = nvgpu.mbarrier.get %barrier[%id] : !bg4 -> i32
  return %done, %a : i1, i32
}

// -----

// Barriers in the generic address space; a second group in one module gets a
// uniqued name.
// CHECK:       memref.global "private" @__mbarrier_0 : memref<1xi64> {alignment = 8 : i64}
// CHECK-NEXT:  memref.global "private" @__mbarrier : memref<1xi64> {alignment = 8 : i64}
// CHECK-LABEL: func.func @generic_barriers
// CHECK:       nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr, i32
// CHECK:       nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr -> i64
// CHECK:       nvvm.mbarrier.test.wait %{{.*}}, %{{.*}} : !llvm.ptr, i64 -> i1
!generic = !nvgpu.mbarrier.group<memorySpace = 0>
func.func @generic_barriers(%count: index, %id: index) -> i1 {
  %barrier = nvgpu.mbarrier.create -> !generic
  %other = nvgpu.mbarrier.create -> !generic
  nvgpu.mbarrier.init %barrier[%id], %count : !generic
  %token = nvgpu.mbarrier.arrive %barrier[%id] : !generic -> !nvgpu.mbarrier.token
  %done = nvgpu.mbarrier.test.wait %barrier[%id], %token : !generic, !nvgpu.mbarrier.token
  return %done : i1
}

// -----

// Inside a kernel the globals go into the gpu.module.
// CHECK:      gpu.module @kernels {
// CHECK-NEXT:   memref.global "private" @__mbarrier : memref<2xi64, 3> {alignment = 8 : i64}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @kernel(%i: index) {
      %b = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
      %t = nvgpu.mbarrier.arrive %b[%i] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2> -> !nvgpu.mbarrier.token
      return
    }
  }
}

// -----

// TMA copies: the aligned pointer of the shared tile (a cluster pointer for loads),
// the barrier's address and i32 coordinates.
// CHECK-LABEL: func.func @tma
// CHECK:       %[[A:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:  %[[DST:.*]] = llvm.addrspacecast %[[A]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK:       nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK:       nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}} box[%{{.*}}, %{{.*}}] multicast_mask = %{{.*}} predicate = %{{.*}} : !llvm.ptr<7>, !llvm.ptr
// CHECK:       nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}], predicate = %{{.*}} : !llvm.ptr, <3>
// CHECK:       nvvm.prefetch tensormap, %{{.*}} : !llvm.ptr
// CHECK:       %[[SIZE:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT:  nvvm.fence.proxy.acquire <sys> %{{.*}}, %[[SIZE]]
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!map = !nvgpu.tensormap.descriptor<tensor = memref<32x8xf32, 3>, swizzle = swizzle_32b, l2promo = none, oob = zero, interleave = none>
func.func @tma(%map: !map, %tile: memref<32x8xf32, 3>, %barriers: !barrier, %p: i1, %mask: i16) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  nvgpu.tma.async.load %map[%c0, %c8], %barriers[%c0] to %tile : !map, !barrier -> memref<32x8xf32, 3>
  nvgpu.tma.async.load %map[%c0, %c8], %barriers[%c0] to %tile multicast_mask = %mask, predicate = %p : !map, !barrier -> memref<32x8xf32, 3>
  nvgpu.tma.async.store %tile to %map[%c8, %c0], predicate = %p : memref<32x8xf32, 3> -> !map
  nvgpu.tma.prefetch.descriptor %map : !map
  nvgpu.tma.fence.descriptor %map : !map
  return
}

// -----

// A 5-D load, and 1-D copies.
// CHECK-LABEL: func.func @tma_ranks
// CHECK:       nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK:       nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, box[%{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK:       nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, box[%{{.*}}] : !llvm.ptr, <3>
!barrier = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!map1 = !nvgpu.tensormap.descriptor<tensor = memref<128xf32, 3>, swizzle = none, l2promo = none, oob = nan, interleave = none>
!map5 = !nvgpu.tensormap.descriptor<tensor = memref<2x2x2x32x8xf32, 3>, swizzle = swizzle_32b, l2promo = none, oob = zero, interleave = none>
func.func @tma_ranks(%map1: !map1, %map5: !map5, %t1: memref<128xf32, 3>, %t5: memref<2x2x2x32x8xf32, 3>, %barriers: !barrier, %i: index) {
  nvgpu.tma.async.load %map5[%i, %i, %i, %i, %i], %barriers[%i] to %t5 : !map5, !barrier -> memref<2x2x2x32x8xf32, 3>
  nvgpu.tma.async.load %map1[%i], %barriers[%i] to %t1 : !map1, !barrier -> memref<128xf32, 3>
  nvgpu.tma.async.store %t1 to %map1[%i] : memref<128xf32, 3> -> !map1
  return
}

// -----

// On the host: mgpuTensorMapEncodeTiledMemref(rank, descriptor, CU_TENSOR_MAP_DATA_TYPE
// (6: f16), interleave, swizzle (3: 128B), l2promo (3: 256B), oob (0: zero), box).
// CHECK-LABEL: func.func @create_descriptor
// CHECK:       %[[TYPE:.*]] = llvm.mlir.constant(6 : i32) : i64
// CHECK:       %[[BOX:.*]] = llvm.alloca %{{.*}} x i64 : (i64) -> !llvm.ptr
// CHECK:       llvm.store
// CHECK:       llvm.store
// CHECK:       %[[INTERLEAVE:.*]] = llvm.mlir.constant(0 : i32) : i64
// CHECK-NEXT:  %[[SWIZZLE:.*]] = llvm.mlir.constant(3 : i32) : i64
// CHECK-NEXT:  %[[L2:.*]] = llvm.mlir.constant(3 : i32) : i64
// CHECK-NEXT:  %[[OOB:.*]] = llvm.mlir.constant(0 : i32) : i64
// CHECK-NEXT:  %{{.*}} = llvm.call @mgpuTensorMapEncodeTiledMemref(%{{.*}}, %{{.*}}, %[[TYPE]], %[[INTERLEAVE]], %[[SWIZZLE]], %[[L2]], %[[OOB]], %[[BOX]]) : (i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr) -> !llvm.ptr
// CHECK:       llvm.func @mgpuTensorMapEncodeTiledMemref(i64, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr) -> !llvm.ptr
func.func @create_descriptor(%a: memref<64x128xf16>) {
  %c64 = arith.constant 64 : index
  %u = memref.cast %a : memref<64x128xf16> to memref<*xf16>
  %d = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
  return
}

// -----

// Element types as upstream numbers them (unsigned by width, i32 as INT32, i8 falls
// through to BFLOAT16 as upstream's does).
// CHECK-LABEL: func.func @create_descriptor_types
// CHECK:       llvm.mlir.constant(3 : i32) : i64
// CHECK:       llvm.mlir.constant(2 : i32) : i64
// CHECK:       llvm.mlir.constant(9 : i32) : i64
func.func @create_descriptor_types(%a: memref<*xi32>, %b: memref<*xui32>, %c: memref<*xi8>, %n: index) {
  %0 = nvgpu.tma.create.descriptor %a box[%n] : memref<*xi32> -> !nvgpu.tensormap.descriptor<tensor = memref<32xi32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  %1 = nvgpu.tma.create.descriptor %b box[%n] : memref<*xui32> -> !nvgpu.tensormap.descriptor<tensor = memref<32xui32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  %2 = nvgpu.tma.create.descriptor %c box[%n] : memref<*xi8> -> !nvgpu.tensormap.descriptor<tensor = memref<32xi8, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  return
}

// -----

// The wgmma descriptor: swizzle mode 1 (128B) at bit 62, stride 64 (8 rows of 128
// bytes >> 4) at bit 32, leading dimension 1024 (128 rows of 128 bytes >> 4) at bit
// 16, start address >> 4 in bits 0-13.
// CHECK-LABEL: func.func @descriptor
// CHECK:       %[[STRIDE:.*]] = llvm.mlir.constant(64) : i64
// CHECK-NEXT:  %[[LEAD:.*]] = llvm.mlir.constant(1024) : i64
// CHECK-NEXT:  %[[BASE:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NEXT:  %[[ADDR:.*]] = llvm.ptrtoint %[[BASE]] : !llvm.ptr<3> to i64
// CHECK:       llvm.mlir.constant(62) : i64
// CHECK:       llvm.mlir.constant(49) : i64
// CHECK:       llvm.shl %[[STRIDE]], %{{.*}} : i64
// CHECK:       llvm.shl %[[LEAD]], %{{.*}} : i64
// CHECK:       llvm.or
// CHECK:       builtin.unrealized_conversion_cast %{{.*}} : i64 to !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
!lhs = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @descriptor(%tile: memref<128x64xf16, 3>, %map: !lhs) -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>> {
  %d = nvgpu.warpgroup.generate.descriptor %tile, %map : memref<128x64xf16, 3>, !lhs -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
  return %d : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
}

// -----

// 128x8 += 128x32 * 32x8: two 64-row blocks of two k-steps; A advances 2 (32 bytes
// >> 4) per k-step and 128 per block, B 64 per k-step.
// CHECK-LABEL: func.func @mma
// CHECK:       nvvm.wgmma.fence.aligned
// CHECK-NEXT:  %[[R:.*]] = llvm.mlir.poison : !llvm.struct<(struct<(f32, f32, f32, f32)>, struct<(f32, f32, f32, f32)>)>
// CHECK-NEXT:  %[[C0:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK-NEXT:  %[[D0:.*]] = nvvm.wgmma.mma_async %[[A:.*]], %[[B:.*]], %[[C0]], <m = 64, n = 8, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:  %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i64
// CHECK-NEXT:  %[[A1:.*]] = llvm.add %[[A]], %[[TWO]] : i64
// CHECK-NEXT:  %[[SIXTYFOUR:.*]] = llvm.mlir.constant(64 : i32) : i64
// CHECK-NEXT:  %[[B1:.*]] = llvm.add %[[B]], %[[SIXTYFOUR]] : i64
// CHECK-NEXT:  %[[D1:.*]] = nvvm.wgmma.mma_async %[[A1]], %[[B1]], %[[D0]]
// CHECK:       llvm.mlir.constant(128 : i32) : i64
// CHECK:       llvm.mlir.constant(130 : i32) : i64
// CHECK:       %[[D3:.*]] = nvvm.wgmma.mma_async
// CHECK-NEXT:  %[[R0:.*]] = llvm.insertvalue %[[D1]], %[[R]][0]
// CHECK-NEXT:  %[[R1:.*]] = llvm.insertvalue %[[D3]], %[[R0]][1]
// CHECK-NEXT:  builtin.unrealized_conversion_cast %[[R1]]
// CHECK-NEXT:  nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:  nvvm.wgmma.wait.group.sync.aligned 1
func.func @mma(%a: !nvgpu.warpgroup.descriptor<tensor = memref<128x32xf16, 3>>, %b: !nvgpu.warpgroup.descriptor<tensor = memref<32x8xf16, 3>>, %acc: !nvgpu.warpgroup.accumulator<fragmented = vector<128x8xf32>>) -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x8xf32>> {
  %r = nvgpu.warpgroup.mma %a, %b, %acc {transposeB} : !nvgpu.warpgroup.descriptor<tensor = memref<128x32xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<32x8xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x8xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x8xf32>>
  return %r : !nvgpu.warpgroup.accumulator<fragmented = vector<128x8xf32>>
}

// -----

// Without transposeB, B is column-major; transposeA makes A column-major; waitGroup.
// CHECK-LABEL: func.func @mma_layouts
// CHECK:       A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK:       nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:       A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// CHECK:       nvvm.wgmma.wait.group.sync.aligned 1
!da = !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, 3>>
!db = !nvgpu.warpgroup.descriptor<tensor = memref<16x8xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x8xf32>>
func.func @mma_layouts(%a: !da, %b: !db, %acc: !acc) -> (!acc, !acc) {
  %r = nvgpu.warpgroup.mma %a, %b, %acc {waitGroup = 0} : !da, !db, !acc -> !acc
  %s = nvgpu.warpgroup.mma %a, %b, %acc {transposeA, transposeB} : !da, !db, !acc -> !acc
  return %r, %s : !acc, !acc
}

// -----

// CHECK-LABEL: func.func @init_accumulator
// CHECK:       %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-NEXT:  %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(struct<(f32, f32, f32, f32)>, struct<(f32, f32, f32, f32)>)>
// CHECK-NEXT:  %[[I0:.*]] = llvm.extractvalue %[[P]][0]
// CHECK-NEXT:  llvm.insertvalue %[[ZERO]], %[[I0]][0]
// CHECK:       %[[F16:.*]] = llvm.mlir.constant(0.000000e+00 : f16) : f16
// CHECK-NEXT:  llvm.mlir.poison : !llvm.struct<(struct<(f16, f16, f16, f16)>)>
func.func @init_accumulator() -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x8xf32>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x16xf16>>) {
  %a = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x8xf32>>
  %b = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x16xf16>>
  return %a, %b : !nvgpu.warpgroup.accumulator<fragmented = vector<128x8xf32>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x16xf16>>
}

// -----

// Each thread stores its register pairs at rows 16 * warp + lane / 4 (+ 8) and
// columns 2 * (lane % 4) + 8 * j (+ 1).
// CHECK-LABEL: func.func @store
// CHECK:       %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT:  %[[LANE:.*]] = llvm.urem %[[TID]], %{{.*}} : i32
// CHECK-NEXT:  %[[WARP:.*]] = llvm.udiv %[[TID]], %{{.*}} : i32
// CHECK:       %[[V0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:  %[[V1:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:  memref.store %[[V0]], %{{.*}}[%[[ROW:.*]], %{{.*}}] : memref<128x16xf32, 3>
// CHECK-NEXT:  memref.store %[[V1]], %{{.*}}[%[[ROW]], %{{.*}}] : memref<128x16xf32, 3>
// CHECK:       llvm.extractvalue %{{.*}}[4]
// CHECK:       llvm.extractvalue %{{.*}}[2]
// CHECK:       nvvm.read.ptx.sreg.tid.x : i32
func.func @store(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<128x16xf32>>, %m: memref<128x16xf32, 3>) {
  nvgpu.warpgroup.mma.store %acc, %m : !nvgpu.warpgroup.accumulator<fragmented = vector<128x16xf32>> to memref<128x16xf32, 3 : i64>
  return
}

// -----

// A tile with an offset (a subview) is addressed at its first element, for TMA copies
// and wgmma descriptors alike.
// CHECK-LABEL: func.func @tile_offsets
// CHECK:       %[[BASE:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:  %[[OFFSET:.*]] = llvm.mlir.constant(4096 : index) : i64
// CHECK-NEXT:  %[[FIRST:.*]] = llvm.getelementptr %[[BASE]][%[[OFFSET]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK-NEXT:  llvm.addrspacecast %[[FIRST]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK:       nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:       llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK-NEXT:  llvm.ptrtoint
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tile = memref<64x64xf16, strided<[64, 1], offset: 4096>, 3>
func.func @tile_offsets(%m: !map, %t: !tile, %dynamic: memref<64x64xf16, strided<[64, 1], offset: ?>, 3>, %b: !bar, %i: index) -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>> {
  nvgpu.tma.async.load %m[%i, %i], %b[%i] to %t : !map, !bar -> !tile
  nvgpu.tma.async.load %m[%i, %i], %b[%i] to %dynamic : !map, !bar -> memref<64x64xf16, strided<[64, 1], offset: ?>, 3>
  nvgpu.tma.async.store %t to %m[%i, %i] : !tile -> !map
  %d = nvgpu.warpgroup.generate.descriptor %t, %m : !tile, !map -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
  return %d : !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
}
