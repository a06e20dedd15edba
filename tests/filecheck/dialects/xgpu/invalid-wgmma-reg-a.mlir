// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// The verifier of xgpu.wgmma.mma_async.reg_a: the descriptor form's rules (MLIR 22's
// messages) and the register type of A.

!a = !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
!d = !llvm.struct<(f32, f32, f32, f32)>

// CHECK: 'xgpu.wgmma.mma_async.reg_a' op A in registers for input type f16 must be !llvm.struct of 4 x vector<2xf16>, got !llvm.struct<(i32, i32, i32, i32)>
llvm.func @a_type(%a: !llvm.struct<(i32, i32, i32, i32)>, %b: i64, %c: !d) {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>], B[<f16>, <one>, <row>] : !llvm.struct<(i32, i32, i32, i32)>, !d -> !d
  llvm.return
}

// -----

!d = !llvm.struct<(f32, f32, f32, f32)>

// CHECK: 'xgpu.wgmma.mma_async.reg_a' op A in registers for input type f16 must be !llvm.struct of 4 x vector<2xf16>, got !llvm.struct<(vector<2xf16>, vector<2xf16>)>
llvm.func @a_count(%a: !llvm.struct<(vector<2xf16>, vector<2xf16>)>, %b: i64, %c: !d) {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>], B[<f16>, <one>, <row>] : !llvm.struct<(vector<2xf16>, vector<2xf16>)>, !d -> !d
  llvm.return
}

// -----

!a = !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
!d = !llvm.struct<(f32, f32, f32, f32)>

// CHECK: 'xgpu.wgmma.mma_async.reg_a' op shape 'k' must be 16 for input type f16
llvm.func @k(%a: !a, %b: i64, %c: !d) {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<f16>, <one>], B[<f16>, <one>, <row>] : !a, !d -> !d
  llvm.return
}

// -----

!a = !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
!d = !llvm.struct<(f32, f32, f32, f32)>

// CHECK: 'xgpu.wgmma.mma_async.reg_a' op shape 'm' must be 64
llvm.func @m(%a: !a, %b: i64, %c: !d) {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 32, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>], B[<f16>, <one>, <row>] : !a, !d -> !d
  llvm.return
}

// -----

!a = !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
!d = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>

// CHECK: 'xgpu.wgmma.mma_async.reg_a' op results 4, however output struct has 8 elements
llvm.func @registers(%a: !a, %b: i64, %c: !d) {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>], B[<f16>, <one>, <row>] : !a, !d -> !d
  llvm.return
}

// -----

!a = !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
!d = !llvm.struct<(f32, f32, f32, f32)>

// CHECK: 'xgpu.wgmma.mma_async.reg_a' op f32 += f16 * bf16, it is not supported.
llvm.func @types(%a: !a, %b: i64, %c: !d) {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>], B[<bf16>, <one>, <row>] : !a, !d -> !d
  llvm.return
}

// -----

!a = !llvm.struct<(i32, i32, i32, i32)>
!d = !llvm.struct<(f32, f32, f32, f32)>

// CHECK: 'xgpu.wgmma.mma_async.reg_a' op layout_b = row for input type e4m3 requires transpose, which is only supported for f16 and bf16
llvm.func @transpose(%a: !a, %b: i64, %c: !d) {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>], B[<e4m3>, <one>, <row>] : !a, !d -> !d
  llvm.return
}

// -----

!a = !llvm.struct<(i32, i32, i32, i32)>
!d = !llvm.struct<(i32, i32, i32, i32)>

// CHECK: 'xgpu.wgmma.mma_async.reg_a' op A in registers is not supported for b1
llvm.func @b1(%a: !a, %b: i64, %c: !d) {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 256>, D[<s32>, <one>], A[<b1>, <one>], B[<b1>, <one>, <col>] : !a, !d -> !d
  llvm.return
}

// -----

!a = !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
!d = !llvm.struct<(f32, f32, f32, f32)>
!e = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>

// CHECK: 'xgpu.wgmma.mma_async.reg_a' op failed to verify that input struct and result struct must be the same type
llvm.func @result(%a: !a, %b: i64, %c: !d) {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>], B[<f16>, <one>, <row>] : !a, !d -> !e
  llvm.return
}
