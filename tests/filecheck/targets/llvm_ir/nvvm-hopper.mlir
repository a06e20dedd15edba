// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s --triple nvptx64-nvidia-cuda | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt --convert-nvvm-to-llvm %s | mlir-translate --mlir-to-llvmir | filecheck %s %}
// The sm_90 nvvm ops become the intrinsic calls, and (predicated copies,
// try_wait.parity, wgmma.mma_async) the inline PTX, that mlir-translate-22 writes after
// convert-nvvm-to-llvm; both tools are checked by the same lines.

// CHECK-LABEL: define void @mbarrier(
// CHECK: call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %{{.*}}, i32 %{{.*}})
// CHECK: call void @llvm.nvvm.mbarrier.init(ptr %{{.*}}, i32 %{{.*}})
// CHECK: call void asm sideeffect "@$2 mbarrier.init.shared.b64 [$0], $1;", "r,r,b"(ptr addrspace(3) %{{.*}}, i32 %{{.*}}, i1 %{{.*}})
// CHECK: call void @llvm.nvvm.mbarrier.inval.shared(ptr addrspace(3) %{{.*}})
// CHECK: call void @llvm.nvvm.mbarrier.inval(ptr %{{.*}})
// CHECK: call i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3) %{{.*}})
// CHECK: call i64 @llvm.nvvm.mbarrier.arrive.scope.cta.space.cta(ptr addrspace(3) %{{.*}}, i32 %{{.*}})
// CHECK: call i64 @llvm.nvvm.mbarrier.arrive.relaxed.scope.cluster.space.cta(ptr addrspace(3) %{{.*}}, i32 1)
// CHECK: call i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3) %{{.*}})
// CHECK: call void @llvm.nvvm.mbarrier.arrive.scope.cluster.space.cluster(ptr addrspace(7) %{{.*}}, i32 %{{.*}})
// CHECK: call i64 @llvm.nvvm.mbarrier.arrive.noComplete.shared(ptr addrspace(3) %{{.*}}, i32 %{{.*}})
// CHECK: call i64 @llvm.nvvm.mbarrier.arrive.noComplete(ptr %{{.*}}, i32 %{{.*}})
// CHECK: call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) %{{.*}}, i32 %{{.*}})
// CHECK: call void asm sideeffect "@$2 mbarrier.arrive.expect_tx.b64 _, [$0], $1;", "l,r,b"(ptr %{{.*}}, i32 %{{.*}}, i1 %{{.*}})
// CHECK: call void @llvm.nvvm.mbarrier.arrive.expect.tx.relaxed.scope.cta.space.cluster(ptr addrspace(7) %{{.*}}, i32 %{{.*}})
// CHECK: call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) %{{.*}}, i32 %{{.*}})
// CHECK: call i1 @llvm.nvvm.mbarrier.test.wait.scope.cta.space.cta(ptr addrspace(3) %{{.*}}, i64 %{{.*}})
// CHECK: call i1 @llvm.nvvm.mbarrier.test.wait.relaxed.scope.cta.space.cta(ptr addrspace(3) %{{.*}}, i64 %{{.*}})
// CHECK: call void asm sideeffect "{\0A\09.reg .pred       P1; \0A\09LAB_WAIT: \0A\09mbarrier.try_wait.parity.shared.b64 P1, [$0], $1, $2; \0A\09@P1 bra.uni DONE; \0A\09bra.uni     LAB_WAIT; \0A\09DONE: \0A\09}", "r,r,r"(ptr addrspace(3) %{{.*}}, i32 %{{.*}}, i32 %{{.*}})
// CHECK: call void asm sideeffect "{\0A\09.reg .pred       P1; \0A\09LAB_WAIT: \0A\09mbarrier.try_wait.parity.b64 P1, [$0], $1, $2; \0A\09@P1 bra.uni DONE; \0A\09bra.uni     LAB_WAIT; \0A\09DONE: \0A\09}", "l,r,r"(ptr %{{.*}}, i32 %{{.*}}, i32 %{{.*}})
llvm.func @mbarrier(%shared: !llvm.ptr<3>, %generic: !llvm.ptr, %remote: !llvm.ptr<7>, %count: i32, %pred: i1, %state: i64) {
  nvvm.mbarrier.init %shared, %count : !llvm.ptr<3>, i32
  nvvm.mbarrier.init %generic, %count : !llvm.ptr, i32
  nvvm.mbarrier.init %shared, %count, predicate = %pred : !llvm.ptr<3>, i32, i1
  nvvm.mbarrier.inval %shared : !llvm.ptr<3>
  nvvm.mbarrier.inval %generic : !llvm.ptr
  %0 = nvvm.mbarrier.arrive %shared : !llvm.ptr<3> -> i64
  %1 = nvvm.mbarrier.arrive %generic, %count : !llvm.ptr -> i64
  %2 = nvvm.mbarrier.arrive %shared {relaxed = true, scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3> -> i64
  nvvm.mbarrier.arrive %shared : !llvm.ptr<3>
  nvvm.mbarrier.arrive %remote, %count {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
  %3 = nvvm.mbarrier.arrive.nocomplete %shared, %count : !llvm.ptr<3>, i32 -> i64
  %4 = nvvm.mbarrier.arrive.nocomplete %generic, %count : !llvm.ptr, i32 -> i64
  nvvm.mbarrier.arrive.expect_tx %shared, %count : !llvm.ptr<3>, i32
  nvvm.mbarrier.arrive.expect_tx %generic, %count, predicate = %pred : !llvm.ptr, i32, i1
  nvvm.mbarrier.arrive.expect_tx %remote, %count {relaxed = true} : !llvm.ptr<7>, i32
  %5 = nvvm.mbarrier.arrive.expect_tx %shared, %count : !llvm.ptr<3>, i32 -> i64
  %6 = nvvm.mbarrier.test.wait %shared, %state : !llvm.ptr<3>, i64 -> i1
  %7 = nvvm.mbarrier.test.wait %generic, %state {relaxed = true} : !llvm.ptr, i64 -> i1
  nvvm.mbarrier.try_wait.parity %shared, %count, %count : !llvm.ptr<3>, i32, i32
  nvvm.mbarrier.try_wait.parity %generic, %count, %count : !llvm.ptr, i32, i32
  llvm.return
}

// CHECK-LABEL: define void @tma(
// CHECK: call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.1d(ptr addrspace(7) %{{.*}}, ptr addrspace(3) %{{.*}}, ptr %{{.*}}, i32 %{{.*}}, i16 0, i64 0, i1 false, i1 false, i32 0)
// CHECK: call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.5d(ptr addrspace(7) %{{.*}}, ptr addrspace(3) %{{.*}}, ptr %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i16 %{{.*}}, i64 %{{.*}}, i1 true, i1 true, i32 0)
// CHECK: call void asm sideeffect "@$6 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [$0], [$1, {$2,$3} ], [$4], $5;", "l,l,r,r,r,h,b"(ptr addrspace(7) %{{.*}}, ptr %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, ptr addrspace(3) %{{.*}}, i16 %{{.*}}, i1 %{{.*}})
// CHECK: call void @llvm.nvvm.cp.async.bulk.tensor.g2s.cta.tile.2d(ptr addrspace(3) %{{.*}}, ptr addrspace(3) %{{.*}}, ptr %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i64 0, i1 false)
// CHECK: call void @llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d(ptr addrspace(3) %{{.*}}, ptr %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i64 0, i1 false)
// CHECK: call void @llvm.nvvm.cp.async.bulk.tensor.g2s.im2col.3d(ptr addrspace(7) %{{.*}}, ptr addrspace(3) %{{.*}}, ptr %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i16 %{{.*}}, i16 0, i64 0, i1 false, i1 false, i32 0)
// CHECK: call void asm sideeffect "@$10 cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes.im2col.multicast::cluster [$0], [$1, {$2,$3,$4,$5} ], [$6],{$7,$8}, $9;", "l,l,r,r,r,r,r,h,h,h,b"(ptr addrspace(7) %{{.*}}, ptr %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, ptr addrspace(3) %{{.*}}, i16 %{{.*}}, i16 %{{.*}}, i16 %{{.*}}, i1 %{{.*}})
// CHECK: call void @llvm.nvvm.cp.async.bulk.tensor.s2g.im2col.3d(ptr addrspace(3) %{{.*}}, ptr %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i64 0, i1 false)
// CHECK: call void @llvm.nvvm.cp.async.bulk.tensor.s2g.tile.3d(ptr addrspace(3) %{{.*}}, ptr %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i64 %{{.*}}, i1 true)
// CHECK: call void asm sideeffect "@$3 cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [$0, {$2} ], [$1];", "l,r,r,b"(ptr %{{.*}}, ptr addrspace(3) %{{.*}}, i32 %{{.*}}, i1 %{{.*}})
// CHECK: call void @llvm.nvvm.cp.async.bulk.commit.group()
// CHECK: call void @llvm.nvvm.cp.async.bulk.wait.group(i32 1)
// CHECK: call void @llvm.nvvm.cp.async.bulk.wait.group.read(i32 0)
// CHECK: call void @llvm.nvvm.prefetch.tensormap.p0(ptr %{{.*}})
// CHECK: call void @llvm.nvvm.prefetch.tensormap.p101(ptr addrspace(101) %{{.*}})
// CHECK: call void asm sideeffect "@$1 prefetch.tensormap [$0];", "l,b"(ptr %{{.*}}, i1 %{{.*}})
llvm.func @tma(%dst: !llvm.ptr<7>, %src: !llvm.ptr<3>, %map: !llvm.ptr, %bar: !llvm.ptr<3>, %x: i32, %y: i32, %mask: i16, %hint: i64, %pred: i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x] : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y, %x, %y, %x] multicast_mask = %mask l2_cache_hint = %hint : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y] multicast_mask = %mask predicate = %pred : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %src, %map, %bar, box[%x, %y] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x, %y] : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y, %x] im2col[%mask] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y, %x, %y] im2col[%mask, %mask] multicast_mask = %mask predicate = %pred {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x, %y, %x] {mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x, %y, %x] l2_cache_hint = %hint : !llvm.ptr, <3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x], predicate = %pred : !llvm.ptr, <3>
  nvvm.cp.async.bulk.commit.group
  nvvm.cp.async.bulk.wait_group 1
  nvvm.cp.async.bulk.wait_group 0 {read}
  nvvm.prefetch tensormap, %map : !llvm.ptr
  nvvm.prefetch tensormap in_param_space, %map : !llvm.ptr
  nvvm.prefetch tensormap, %map, predicate = %pred : !llvm.ptr, i1
  llvm.return
}

// CHECK-LABEL: define void @wgmma(
// CHECK: call void @llvm.nvvm.wgmma.fence.sync.aligned()
// CHECK: call { float, float, float, float } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $10, 0;\0Awgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, $8, $9, p, $11,  $12, $13,  $14;\0A}\0A", "=f,=f,=f,=f,0,1,2,3,l,l,n,n,n,n,n"(float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i32 1, i32 1, i32 1, i32 0, i32 1)
// CHECK: call { float, float, float, float } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $10, 0;\0Awgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, $8, $9, p, $11,  $12, $13,  $14;\0A}\0A", "=f,=f,=f,=f,0,1,2,3,l,l,n,n,n,n,n"(float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i32 0, i32 -1, i32 1, i32 1, i32 0)
// CHECK: call { <2 x half>, <2 x half> } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $6, 0;\0Awgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {$0, $1}, $4, $5, p, $7,  $8, $9,  $10;\0A}\0A", "=f,=f,0,1,l,l,n,n,n,n,n"(<2 x half> %{{.*}}, <2 x half> %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i32 1, i32 1, i32 1, i32 0, i32 1)
// CHECK: call { float, float, float, float } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $10, 0;\0Awgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {$0, $1, $2, $3}, $8, $9, p, $11,  $12;\0A}\0A", "=f,=f,=f,=f,0,1,2,3,l,l,n,n,n"(float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i32 1, i32 1, i32 1)
// CHECK: call { float, float, float, float } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $10, 0;\0Awgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2 {$0, $1, $2, $3}, $8, $9, p, $11,  $12;\0A}\0A", "=f,=f,=f,=f,0,1,2,3,l,l,n,n,n"(float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i32 1, i32 -1, i32 1)
// CHECK: call { i32, i32, i32, i32 } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $10, 0;\0Awgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8.satfinite {$0, $1, $2, $3}, $8, $9, p;\0A}\0A", "=r,=r,=r,=r,0,1,2,3,l,l,n"(i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i32 1)
// CHECK: call void @llvm.nvvm.wgmma.commit_group.sync.aligned()
// CHECK: call void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64 1)
llvm.func @wgmma(%a: i64, %b: i64, %f32: !llvm.struct<(f32, f32, f32, f32)>, %f16: !llvm.struct<(vector<2xf16>, vector<2xf16>)>, %s32: !llvm.struct<(i32, i32, i32, i32)>) {
  nvvm.wgmma.fence.aligned
  %0 = nvvm.wgmma.mma_async %a, %b, %f32, <m = 64, n = 8, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %1 = nvvm.wgmma.mma_async %a, %b, %0, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<bf16>, <neg>, <col>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %2 = nvvm.wgmma.mma_async %a, %b, %f16, <m = 64, n = 8, k = 16>, D[<f16>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(vector<2xf16>, vector<2xf16>)> -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  %3 = nvvm.wgmma.mma_async %a, %b, %f32, <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %4 = nvvm.wgmma.mma_async %a, %b, %f32, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e4m3>, <neg>, <row>], B[<e5m2>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %5 = nvvm.wgmma.mma_async %a, %b, %s32, <m = 64, n = 8, k = 32>, D[<s32>, <one>, <satfinite>], A[<s8>, <one>, <row>], B[<u8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 1
  llvm.return
}
