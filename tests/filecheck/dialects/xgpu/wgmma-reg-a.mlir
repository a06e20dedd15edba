// RUN: xdsl-opt %s --split-input-file | filecheck %s
// RUN: XDSL_ROUNDTRIP
// xgpu.wgmma.mma_async.reg_a (xdsl-gpu's: MLIR 22 has no register-A wgmma). Its LLVM
// IR: tests/filecheck/targets/llvm_ir/xgpu-wgmma-reg-a.mlir.

// NO-MLIR-OPT: xdsl-gpu's op, which mlir-opt 22 does not know.
// f16 A in registers, N-major B (transposed), f32 accumulator.
// CHECK-LABEL: llvm.func @f16_f32
// CHECK: %{{.*}} = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 16, k = 16>, D[<f32>, <one>], A[<f16>, <one>], B[<f16>, <one>, <row>] : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
llvm.func @f16_f32(%a: !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>, %b: i64, %c: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 16, k = 16>, D[<f32>, <one>], A[<f16>, <one>], B[<f16>, <one>, <row>] : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  llvm.return
}

// -----

// NO-MLIR-OPT: xdsl-gpu's op.
// bf16, A negated, K-major B, D not added.
// CHECK-LABEL: llvm.func @bf16
// CHECK: xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<bf16>, <neg>], B[<bf16>, <one>, <col>] : !llvm.struct<(vector<2xbf16>, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>)>, !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
llvm.func @bf16(%a: !llvm.struct<(vector<2xbf16>, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>)>, %b: i64, %c: !llvm.struct<(f32, f32, f32, f32)>) {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<bf16>, <neg>], B[<bf16>, <one>, <col>] : !llvm.struct<(vector<2xbf16>, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>)>, !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// NO-MLIR-OPT: xdsl-gpu's op.
// 8-bit integers: i32 registers, s32 accumulator with satfinite.
// CHECK-LABEL: llvm.func @s8
// CHECK: xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 32>, D[<s32>, <one>, <satfinite>], A[<s8>, <one>], B[<u8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32)>, !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
llvm.func @s8(%a: !llvm.struct<(i32, i32, i32, i32)>, %b: i64, %c: !llvm.struct<(i32, i32, i32, i32)>) {
  %d = xgpu.wgmma.mma_async.reg_a %a, %b, %c, <m = 64, n = 8, k = 32>, D[<s32>, <one>, <satfinite>], A[<s8>, <one>], B[<u8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32)>, !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.return
}
