// RUN: xdsl-opt %s --split-input-file | filecheck %s
// RUN: XDSL_ROUNDTRIP
// The sm_90 nvvm ops that convert-nvgpu-to-nvvm produces (mbarrier, TMA, wgmma);
// compared with mlir-opt 22 (custom and generic forms, both ways) by
// tests/test_mlir_conformance.py. Their LLVM IR: tests/filecheck/targets/llvm_ir/nvvm-hopper.mlir.

// CHECK-LABEL: llvm.func @mbarrier(
llvm.func @mbarrier(%shared: !llvm.ptr<3>, %generic: !llvm.ptr, %remote: !llvm.ptr<7>, %count: i32, %pred: i1, %state: i64) {
  // CHECK-NEXT: nvvm.mbarrier.init %shared, %count : !llvm.ptr<3>, i32
  nvvm.mbarrier.init %shared, %count : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.mbarrier.init %generic, %count : !llvm.ptr, i32
  nvvm.mbarrier.init %generic, %count : !llvm.ptr, i32
  // CHECK-NEXT: nvvm.mbarrier.init %shared, %count, predicate = %pred : !llvm.ptr<3>, i32, i1
  nvvm.mbarrier.init %shared, %count, predicate = %pred : !llvm.ptr<3>, i32, i1
  // CHECK-NEXT: nvvm.mbarrier.inval %shared : !llvm.ptr<3>
  nvvm.mbarrier.inval %shared : !llvm.ptr<3>
  // CHECK-NEXT: nvvm.mbarrier.inval %generic : !llvm.ptr
  nvvm.mbarrier.inval %generic : !llvm.ptr
  // CHECK-NEXT: %0 = nvvm.mbarrier.arrive %shared : !llvm.ptr<3> -> i64
  %0 = nvvm.mbarrier.arrive %shared : !llvm.ptr<3> -> i64
  // CHECK-NEXT: %1 = nvvm.mbarrier.arrive %generic, %count : !llvm.ptr -> i64
  %1 = nvvm.mbarrier.arrive %generic, %count : !llvm.ptr -> i64
  // CHECK-NEXT: %2 = nvvm.mbarrier.arrive %shared {relaxed = true, scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3> -> i64
  %2 = nvvm.mbarrier.arrive %shared {relaxed = true, scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3> -> i64
  // CHECK-NEXT: nvvm.mbarrier.arrive %shared : !llvm.ptr<3>
  nvvm.mbarrier.arrive %shared : !llvm.ptr<3>
  // CHECK-NEXT: nvvm.mbarrier.arrive %remote, %count {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
  nvvm.mbarrier.arrive %remote, %count {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
  // CHECK-NEXT: %3 = nvvm.mbarrier.arrive.nocomplete %shared, %count : !llvm.ptr<3>, i32 -> i64
  %3 = nvvm.mbarrier.arrive.nocomplete %shared, %count : !llvm.ptr<3>, i32 -> i64
  // CHECK-NEXT: %4 = nvvm.mbarrier.arrive.nocomplete %generic, %count : !llvm.ptr, i32 -> i64
  %4 = nvvm.mbarrier.arrive.nocomplete %generic, %count : !llvm.ptr, i32 -> i64
  // CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %shared, %count : !llvm.ptr<3>, i32
  nvvm.mbarrier.arrive.expect_tx %shared, %count : !llvm.ptr<3>, i32
  // CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %generic, %count, predicate = %pred : !llvm.ptr, i32, i1
  nvvm.mbarrier.arrive.expect_tx %generic, %count, predicate = %pred : !llvm.ptr, i32, i1
  // CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %remote, %count {relaxed = true} : !llvm.ptr<7>, i32
  nvvm.mbarrier.arrive.expect_tx %remote, %count {relaxed = true} : !llvm.ptr<7>, i32
  // CHECK-NEXT: %5 = nvvm.mbarrier.arrive.expect_tx %shared, %count : !llvm.ptr<3>, i32 -> i64
  %5 = nvvm.mbarrier.arrive.expect_tx %shared, %count : !llvm.ptr<3>, i32 -> i64
  // CHECK-NEXT: %6 = nvvm.mbarrier.test.wait %shared, %state : !llvm.ptr<3>, i64 -> i1
  %6 = nvvm.mbarrier.test.wait %shared, %state : !llvm.ptr<3>, i64 -> i1
  // CHECK-NEXT: %7 = nvvm.mbarrier.test.wait %generic, %state {relaxed = true} : !llvm.ptr, i64 -> i1
  %7 = nvvm.mbarrier.test.wait %generic, %state {relaxed = true} : !llvm.ptr, i64 -> i1
  // CHECK-NEXT: nvvm.mbarrier.try_wait.parity %shared, %count, %count : !llvm.ptr<3>, i32, i32
  nvvm.mbarrier.try_wait.parity %shared, %count, %count : !llvm.ptr<3>, i32, i32
  // CHECK-NEXT: nvvm.mbarrier.try_wait.parity %generic, %count, %count : !llvm.ptr, i32, i32
  nvvm.mbarrier.try_wait.parity %generic, %count, %count : !llvm.ptr, i32, i32
  llvm.return
}

// CHECK-LABEL: llvm.func @tma(
llvm.func @tma(%dst: !llvm.ptr<7>, %src: !llvm.ptr<3>, %map: !llvm.ptr, %bar: !llvm.ptr<3>, %x: i32, %y: i32, %mask: i16, %hint: i64, %pred: i1) {
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x] : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x] : !llvm.ptr<7>, !llvm.ptr
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y, %x, %y, %x] multicast_mask = %mask l2_cache_hint = %hint : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y, %x, %y, %x] multicast_mask = %mask l2_cache_hint = %hint : !llvm.ptr<7>, !llvm.ptr
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y] multicast_mask = %mask predicate = %pred : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y] multicast_mask = %mask predicate = %pred : !llvm.ptr<7>, !llvm.ptr
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %src, %map, %bar, box[%x, %y] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %src, %map, %bar, box[%x, %y] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x, %y] : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x, %y] : !llvm.ptr, <3>
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y, %x] im2col[%mask] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y, %x] im2col[%mask] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y, %x, %y] im2col[%mask, %mask] multicast_mask = %mask predicate = %pred {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y, %x, %y] im2col[%mask, %mask] multicast_mask = %mask predicate = %pred {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x, %y, %x] {mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x, %y, %x] {mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, <3>
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x, %y, %x] l2_cache_hint = %hint : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x, %y, %x] l2_cache_hint = %hint : !llvm.ptr, <3>
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x], predicate = %pred : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x], predicate = %pred : !llvm.ptr, <3>
  // CHECK-NEXT: nvvm.cp.async.bulk.commit.group
  nvvm.cp.async.bulk.commit.group
  // CHECK-NEXT: nvvm.cp.async.bulk.wait_group 1
  nvvm.cp.async.bulk.wait_group 1
  // CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
  nvvm.cp.async.bulk.wait_group 0 {read}
  // CHECK-NEXT: nvvm.prefetch tensormap, %map : !llvm.ptr
  nvvm.prefetch tensormap, %map : !llvm.ptr
  // CHECK-NEXT: nvvm.prefetch tensormap in_param_space, %map : !llvm.ptr
  nvvm.prefetch tensormap in_param_space, %map : !llvm.ptr
  // CHECK-NEXT: nvvm.prefetch tensormap, %map, predicate = %pred : !llvm.ptr, i1
  nvvm.prefetch tensormap, %map, predicate = %pred : !llvm.ptr, i1
  llvm.return
}

// CHECK-LABEL: llvm.func @wgmma(
llvm.func @wgmma(%a: i64, %b: i64, %f32: !llvm.struct<(f32, f32, f32, f32)>, %f16: !llvm.struct<(vector<2xf16>, vector<2xf16>)>, %s32: !llvm.struct<(i32, i32, i32, i32)>) {
  // CHECK-NEXT: nvvm.wgmma.fence.aligned
  nvvm.wgmma.fence.aligned
  // CHECK-NEXT: %0 = nvvm.wgmma.mma_async %a, %b, %f32, <m = 64, n = 8, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %0 = nvvm.wgmma.mma_async %a, %b, %f32, <m = 64, n = 8, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  // CHECK-NEXT: %1 = nvvm.wgmma.mma_async %a, %b, %0, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<bf16>, <neg>, <col>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %1 = nvvm.wgmma.mma_async %a, %b, %0, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<bf16>, <neg>, <col>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  // CHECK-NEXT: %2 = nvvm.wgmma.mma_async %a, %b, %f16, <m = 64, n = 8, k = 16>, D[<f16>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(vector<2xf16>, vector<2xf16>)> -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  %2 = nvvm.wgmma.mma_async %a, %b, %f16, <m = 64, n = 8, k = 16>, D[<f16>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(vector<2xf16>, vector<2xf16>)> -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  // CHECK-NEXT: %3 = nvvm.wgmma.mma_async %a, %b, %f32, <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %3 = nvvm.wgmma.mma_async %a, %b, %f32, <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  // CHECK-NEXT: %4 = nvvm.wgmma.mma_async %a, %b, %f32, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e4m3>, <neg>, <row>], B[<e5m2>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %4 = nvvm.wgmma.mma_async %a, %b, %f32, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e4m3>, <neg>, <row>], B[<e5m2>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  // CHECK-NEXT: %5 = nvvm.wgmma.mma_async %a, %b, %s32, <m = 64, n = 8, k = 32>, D[<s32>, <one>, <satfinite>], A[<s8>, <one>, <row>], B[<u8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  %5 = nvvm.wgmma.mma_async %a, %b, %s32, <m = 64, n = 8, k = 32>, D[<s32>, <one>, <satfinite>], A[<s8>, <one>, <row>], B[<u8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  // CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.commit.group.sync.aligned
  // CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
  nvvm.wgmma.wait.group.sync.aligned 1
  llvm.return
}

// -----

// The generic form names every property and attribute (defaults included).
// CHECK-LABEL: llvm.func @generic(
llvm.func @generic(%dst: !llvm.ptr<7>, %src: !llvm.ptr<3>, %map: !llvm.ptr, %x: i32, %a: i64, %b: i64, %c: !llvm.struct<(f32, f32, f32, f32)>) {
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %src, box[%x] : !llvm.ptr<7>, !llvm.ptr
  "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%dst, %map, %x, %src) <{isCTAOnly = false, mode = #nvvm.tma_load_mode<tile>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>}> : (!llvm.ptr<7>, !llvm.ptr, i32, !llvm.ptr<3>) -> ()
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x] : !llvm.ptr, <3>
  "nvvm.cp.async.bulk.tensor.global.shared.cta"(%map, %src, %x) <{mode = #nvvm.tma_store_mode<tile>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (!llvm.ptr, !llvm.ptr<3>, i32) -> ()
  // CHECK-NEXT: %0 = nvvm.wgmma.mma_async %a, %b, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <neg>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %0 = "nvvm.wgmma.mma_async"(%c, %a, %b) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, scaleA = #nvvm.wgmma_scale_in<neg>, scaleB = #nvvm.wgmma_scale_in<one>, scaleD = #nvvm.wgmma_scale_out<one>, shape = #nvvm.shape<m = 64, n = 8, k = 16>, typeA = #nvvm.wgmma_type<f16>, typeB = #nvvm.wgmma_type<f16>, typeD = #nvvm.wgmma_type<f32>}> : (!llvm.struct<(f32, f32, f32, f32)>, i64, i64) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}
