// RUN: xdsl-opt %s -p convert-nvvm-to-llvm --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-nvvm-to-llvm --split-input-file | filecheck %s %}

// The nvvm ops that MLIR 22 lowers to inline PTX; both tools are checked by the same
// lines. Ops with an intrinsic stay.

// A predicate guards the instruction and is the last operand; shared pointers are
// 32-bit registers (r), others 64-bit (l).
// CHECK-LABEL: llvm.func @predicated
// CHECK: nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$2 mbarrier.init.shared.b64 [$0], $1;", "r,r,b" %{{.*}}, %{{.*}}, %{{.*}} : (!llvm.ptr<3>, i32, i1) -> ()
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$2 mbarrier.init.b64 [$0], $1;", "l,r,b"
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$2 mbarrier.arrive.expect_tx.shared.b64 _, [$0], $1;", "r,r,b"
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}} : !llvm.ptr, i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$1 prefetch.tensormap [$0];", "l,b"
// CHECK: nvvm.prefetch tensormap, %{{.*}} : !llvm.ptr
llvm.func @predicated(%s: !llvm.ptr<3>, %g: !llvm.ptr, %n: i32, %p: i1) {
  nvvm.mbarrier.init %s, %n : !llvm.ptr<3>, i32
  nvvm.mbarrier.init %s, %n, predicate = %p : !llvm.ptr<3>, i32, i1
  nvvm.mbarrier.init %g, %n, predicate = %p : !llvm.ptr, i32, i1
  nvvm.mbarrier.arrive.expect_tx %s, %n, predicate = %p : !llvm.ptr<3>, i32, i1
  nvvm.mbarrier.arrive.expect_tx %g, %n : !llvm.ptr, i32
  nvvm.prefetch tensormap, %g, predicate = %p : !llvm.ptr, i1
  nvvm.prefetch tensormap, %g : !llvm.ptr
  llvm.return
}

// -----

// An operand defined by llvm.mlir.constant is an immediate (n); any other is a
// register, even a value computed from a constant.
// CHECK-LABEL: llvm.func @immediates
// CHECK: %[[C:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$2 mbarrier.init.shared.b64 [$0], $1;", "r,n,b" %{{.*}}, %[[C]], %{{.*}} :
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$2 mbarrier.arrive.expect_tx.shared.b64 _, [$0], $1;", "r,r,b"
llvm.func @immediates(%s: !llvm.ptr<3>, %p: i1) {
  %c = llvm.mlir.constant(128 : i32) : i32
  nvvm.mbarrier.init %s, %c, predicate = %p : !llvm.ptr<3>, i32, i1
  %d = llvm.add %c, %c : i32
  nvvm.mbarrier.arrive.expect_tx %s, %d, predicate = %p : !llvm.ptr<3>, i32, i1
  llvm.return
}

// -----

// try_wait.parity is always a PTX loop.
// CHECK-LABEL: llvm.func @try_wait
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A\09.reg .pred       P1; \0A\09LAB_WAIT: \0A\09mbarrier.try_wait.parity.shared.b64 P1, [$0], $1, $2; \0A\09@P1 bra.uni DONE; \0A\09bra.uni     LAB_WAIT; \0A\09DONE: \0A\09}", "r,r,r"
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}mbarrier.try_wait.parity.b64 P1, [$0], $1, $2;{{.*}}", "l,r,r"
llvm.func @try_wait(%s: !llvm.ptr<3>, %g: !llvm.ptr, %phase: i32, %ticks: i32) {
  nvvm.mbarrier.try_wait.parity %s, %phase, %ticks : !llvm.ptr<3>, i32, i32
  nvvm.mbarrier.try_wait.parity %g, %phase, %ticks : !llvm.ptr, i32, i32
  llvm.return
}

// -----

// TMA copies with a predicate: coordinates, then the barrier, the im2col offsets,
// the multicast mask and the cache hint.
// CHECK-LABEL: llvm.func @tma
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$5 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1, {$2,$3} ], [$4];", "l,l,r,r,r,b"
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$9 cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.im2col.multicast::cluster.L2::cache_hint [$0], [$1, {$2,$3,$4} ], [$5],{$6}, $7, $8;", "l,l,r,r,r,r,h,h,l,b"
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$4 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$0, {$2, $3} ], [$1];", "l,r,r,r,b"
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
llvm.func @tma(%dst: !llvm.ptr<7>, %src: !llvm.ptr<3>, %map: !llvm.ptr, %bar: !llvm.ptr<3>, %x: i32, %y: i32, %off: i16, %mask: i16, %hint: i64, %p: i1) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y] : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y] predicate = %p : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y, %x] im2col[%off] multicast_mask = %mask l2_cache_hint = %hint predicate = %p {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x, %y], predicate = %p : !llvm.ptr, !llvm.ptr<3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x, %y] : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}

// -----

// wgmma.mma_async: the immediates first, then the accumulator's registers, written
// (=f) and read (tied: 0, 1, ...); the result is the struct.
// CHECK-LABEL: llvm.func @wgmma
// CHECK: %[[SD:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[SA:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK: %[[SB:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[TA:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[TB:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[R0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[R3:.*]] = llvm.extractvalue %{{.*}}[3] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[D:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, $10, 0;\0Awgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, $8, $9, p, $11,  $12, $13,  $14;\0A}\0A", "=f,=f,=f,=f,0,1,2,3,l,l,n,n,n,n,n" %[[R0]], %{{.*}}, %{{.*}}, %[[R3]], %{{.*}}, %{{.*}}, %[[SD]], %[[SA]], %[[SB]], %[[TA]], %[[TB]] : (f32, f32, f32, f32, i64, i64, i32, i32, i32, i32, i32) -> !llvm.struct<(f32, f32, f32, f32)>
// Integer accumulators: =r, and only the scale-d immediate.
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, $10, 0;\0Awgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {$0, $1, $2, $3}, $8, $9, p;\0A}\0A", "=r,=r,=r,=r,0,1,2,3,l,l,n"
// CHECK: nvvm.wgmma.commit.group.sync.aligned
llvm.func @wgmma(%a: i64, %b: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %iacc: !llvm.struct<(i32, i32, i32, i32)>) -> !llvm.struct<(f32, f32, f32, f32)> {
  nvvm.wgmma.fence.aligned
  %d = nvvm.wgmma.mma_async %a, %b, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <neg>, <col>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %i = nvvm.wgmma.mma_async %a, %b, %iacc, <m = 64, n = 8, k = 32>, D[<s32>, <one>, <wrapped>], A[<s8>, <one>, <row>], B[<s8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  nvvm.wgmma.commit.group.sync.aligned
  llvm.return %d : !llvm.struct<(f32, f32, f32, f32)>
}
