// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s --triple nvptx64-nvidia-cuda | filecheck %s
// RUN: xdsl-opt %s -p convert-nvvm-to-llvm | python3 -m xdsl_gpu.targets.llvm_ir --triple nvptx64-nvidia-cuda | filecheck %s
// xgpu.wgmma.mma_async.reg_a (xdsl-gpu's register-A wgmma) becomes the inline
// wgmma.mma_async with A's four registers as i32 inputs, the same from the op's own
// translation and from convert-nvvm-to-llvm's llvm.inline_asm.

// f16: accumulator outputs tied to inputs, A's <2 x half> registers bit-cast to i32,
// B's descriptor, the scale-d predicate, scale-a, scale-b and trans-b immediates.
// CHECK-LABEL: define { float, float, float, float, float, float, float, float } @f16_f32(
// CHECK-COUNT-4: bitcast <2 x half> %{{.*}} to i32
// CHECK: call { float, float, float, float, float, float, float, float } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $21, 0;\0Awgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7}, {$16, $17, $18, $19}, $20, p, $22, $23, $24;\0A}\0A", "=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,r,r,r,r,l,n,n,n,n"(float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i64 %{{.*}}, i32 1, i32 1, i32 1, i32 1)
llvm.func @f16_f32(%a: !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>, %b: i64, %c: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 16, k = 16>, D[<f32>, <one>], A[<f16>, <one>], B[<f16>, <one>, <row>] : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return %d : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
}

// bf16 with D not added, A negated, B K-major (trans-b 0).
// CHECK-LABEL: @bf16(
// CHECK-COUNT-4: bitcast <2 x bfloat> %{{.*}} to i32
// CHECK: wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, {$8, $9, $10, $11}, $12, p, $14, $15, $16;
// CHECK-SAME: "=f,=f,=f,=f,0,1,2,3,r,r,r,r,l,n,n,n,n"(
// CHECK-SAME: i64 %{{.*}}, i32 0, i32 -1, i32 1, i32 0)
llvm.func @bf16(%a: !llvm.struct<(vector<2xbf16>, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>)>, %b: i64, %c: !llvm.struct<(f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32)> {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<bf16>, <neg>], B[<bf16>, <one>, <col>] : !llvm.struct<(vector<2xbf16>, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>)>, !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return %d : !llvm.struct<(f32, f32, f32, f32)>
}

// Integers: i32 registers as they are, =r outputs, no immediates but scale-d.
// CHECK-LABEL: @s8(
// CHECK-NOT: bitcast
// CHECK: wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8.satfinite {$0, $1, $2, $3}, {$8, $9, $10, $11}, $12, p;
// CHECK-SAME: "=r,=r,=r,=r,0,1,2,3,r,r,r,r,l,n"(
llvm.func @s8(%a: !llvm.struct<(i32, i32, i32, i32)>, %b: i64, %c: !llvm.struct<(i32, i32, i32, i32)>) -> !llvm.struct<(i32, i32, i32, i32)> {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 32>, D[<s32>, <one>, <satfinite>], A[<s8>, <one>], B[<s8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32)>, !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.return %d : !llvm.struct<(i32, i32, i32, i32)>
}
