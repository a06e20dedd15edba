// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s --triple nvptx64-nvidia-cuda | filecheck %s
// RUN: %if mlir-opt %{ mlir-translate --mlir-to-llvmir %s | filecheck %s %}
// The block-scaled mma ops become the intrinsic calls that mlir-translate 22 writes
// (both tools are checked by the same lines): registers of A, B, C, (sparse: metadata
// and selector,) then the scales; the name tells shape, kind, scale vector size,
// the types and the scale format. Byte and thread ids
// and the sparsity selector are immediates (immarg).

// CHECK-LABEL: define { float, float, float, float } @dense_mxf8f6f4(
// CHECK: call { float, float, float, float } @llvm.nvvm.mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.1x.f32.e4m3.e2m1.f32.ue8m0(i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, i32 %{{.*}}, i16 0, i16 1, i32 %{{.*}}, i16 2, i16 3)
llvm.func @dense_mxf8f6f4(%a0: i32, %a1: i32, %a2: i32, %a3: i32, %b0: i32, %b1: i32,
    %c0: f32, %c1: f32, %c2: f32, %c3: f32, %sa: i32, %sb: i32) -> !llvm.struct<(f32, f32, f32, f32)> {
  %ba = llvm.mlir.constant(0 : i16) : i16
  %ta = llvm.mlir.constant(1 : i16) : i16
  %bb = llvm.mlir.constant(2 : i16) : i16
  %tb = llvm.mlir.constant(3 : i16) : i16
  %d = nvvm.mma.block_scale A[%a0, %a1, %a2, %a3] B[%b0, %b1] C[%c0, %c1, %c2, %c3]
      scaleA[%sa, %ba, %ta] scaleB[%sb, %bb, %tb]
      {blockScaleFormat = #nvvm.block_scale_format<ue8m0>,
       kind = #nvvm.block_scale_kind<mxf8f6f4>,
       multiplicandAPtxType = #nvvm.mma_type<e4m3>,
       multiplicandBPtxType = #nvvm.mma_type<e2m1>,
       scaleVecSize = #nvvm.scale_vec_size<x1>,
       shape = #nvvm.shape<m = 16, n = 8, k = 32>}
      : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return %d : !llvm.struct<(f32, f32, f32, f32)>
}

// CHECK-LABEL: define { float, float, float, float } @dense_mxf4nvf4(
// CHECK: call { float, float, float, float } @llvm.nvvm.mma.block.scale.m16n8k64.row.col.mxf4nvf4.scale.4x.f32.e2m1.e2m1.f32.ue4m3(
llvm.func @dense_mxf4nvf4(%a0: i32, %a1: i32, %a2: i32, %a3: i32, %b0: i32, %b1: i32,
    %c0: f32, %c1: f32, %c2: f32, %c3: f32, %sa: i32, %sb: i32) -> !llvm.struct<(f32, f32, f32, f32)> {
  %ba = llvm.mlir.constant(0 : i16) : i16
  %ta = llvm.mlir.constant(1 : i16) : i16
  %bb = llvm.mlir.constant(2 : i16) : i16
  %tb = llvm.mlir.constant(3 : i16) : i16
  %d = nvvm.mma.block_scale A[%a0, %a1, %a2, %a3] B[%b0, %b1] C[%c0, %c1, %c2, %c3]
      scaleA[%sa, %ba, %ta] scaleB[%sb, %bb, %tb]
      {blockScaleFormat = #nvvm.block_scale_format<ue4m3>,
       kind = #nvvm.block_scale_kind<mxf4nvf4>,
       multiplicandAPtxType = #nvvm.mma_type<e2m1>,
       multiplicandBPtxType = #nvvm.mma_type<e2m1>,
       scaleVecSize = #nvvm.scale_vec_size<x4>,
       shape = #nvvm.shape<m = 16, n = 8, k = 64>}
      : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return %d : !llvm.struct<(f32, f32, f32, f32)>
}

// CHECK-LABEL: define { float, float, float, float } @sparse_mxf8f6f4(
// CHECK: call { float, float, float, float } @llvm.nvvm.mma.sp.ordered.metadata.block.scale.m16n8k64.row.col.mxf8f6f4.scale.1x.f32.e3m2.e2m3.f32.ue8m0(i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, i32 %{{.*}}, i32 0, i32 %{{.*}}, i16 0, i16 1, i32 %{{.*}}, i16 2, i16 3)
llvm.func @sparse_mxf8f6f4(%a0: i32, %a1: i32, %a2: i32, %a3: i32,
    %b0: i32, %b1: i32, %b2: i32, %b3: i32,
    %c0: f32, %c1: f32, %c2: f32, %c3: f32, %meta: i32,
    %sa: i32, %sb: i32)
    -> !llvm.struct<(f32, f32, f32, f32)> {
  %ba = llvm.mlir.constant(0 : i16) : i16
  %ta = llvm.mlir.constant(1 : i16) : i16
  %bb = llvm.mlir.constant(2 : i16) : i16
  %tb = llvm.mlir.constant(3 : i16) : i16
  %sel = llvm.mlir.constant(0 : i32) : i32
  %d = nvvm.mma.sp.block_scale A[%a0, %a1, %a2, %a3] B[%b0, %b1, %b2, %b3]
      C[%c0, %c1, %c2, %c3] sparseMetadata[%meta] selector[%sel]
      scaleA[%sa, %ba, %ta] scaleB[%sb, %bb, %tb]
      {blockScaleFormat = #nvvm.block_scale_format<ue8m0>,
       kind = #nvvm.block_scale_kind<mxf8f6f4>,
       multiplicandAPtxType = #nvvm.mma_type<e3m2>,
       multiplicandBPtxType = #nvvm.mma_type<e2m3>,
       scaleVecSize = #nvvm.scale_vec_size<x1>,
       shape = #nvvm.shape<m = 16, n = 8, k = 64>}
      : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return %d : !llvm.struct<(f32, f32, f32, f32)>
}

// CHECK-LABEL: define { float, float, float, float } @sparse_mxf4(
// CHECK: call { float, float, float, float } @llvm.nvvm.mma.sp.ordered.metadata.block.scale.m16n8k128.row.col.mxf4.scale.2x.f32.e2m1.e2m1.f32.ue8m0(
llvm.func @sparse_mxf4(%a0: i32, %a1: i32, %a2: i32, %a3: i32,
    %b0: i32, %b1: i32, %b2: i32, %b3: i32,
    %c0: f32, %c1: f32, %c2: f32, %c3: f32, %meta: i32,
    %sa: i32, %sb: i32)
    -> !llvm.struct<(f32, f32, f32, f32)> {
  %ba = llvm.mlir.constant(0 : i16) : i16
  %ta = llvm.mlir.constant(1 : i16) : i16
  %bb = llvm.mlir.constant(2 : i16) : i16
  %tb = llvm.mlir.constant(3 : i16) : i16
  %sel = llvm.mlir.constant(0 : i32) : i32
  %d = nvvm.mma.sp.block_scale A[%a0, %a1, %a2, %a3] B[%b0, %b1, %b2, %b3]
      C[%c0, %c1, %c2, %c3] sparseMetadata[%meta] selector[%sel]
      scaleA[%sa, %ba, %ta] scaleB[%sb, %bb, %tb]
      {blockScaleFormat = #nvvm.block_scale_format<ue8m0>,
       kind = #nvvm.block_scale_kind<mxf4>,
       multiplicandAPtxType = #nvvm.mma_type<e2m1>,
       multiplicandBPtxType = #nvvm.mma_type<e2m1>,
       scaleVecSize = #nvvm.scale_vec_size<x2>,
       shape = #nvvm.shape<m = 16, n = 8, k = 128>}
      : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return %d : !llvm.struct<(f32, f32, f32, f32)>
}
