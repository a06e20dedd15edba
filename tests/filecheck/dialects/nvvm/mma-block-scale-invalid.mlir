// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --split-input-file --verify-diagnostics %}
// The `expected-error`s are MLIR 22's (the second RUN line checks them with
// mlir-opt 22); the CHECK lines are ours. The shapes, kinds, scale vector sizes and
// formats that the block-scaled mma ops accept.

// CHECK: unsupported Kind, ScaleVecSize and BlockScaleFormat attributes for mma.m16n8k32
llvm.func @dense_k32_kind(%r: i32, %c: f32, %m: i32, %s: i32, %i: i16) {
  // expected-error @below {{unsupported Kind, ScaleVecSize and BlockScaleFormat attributes for mma.m16n8k32}}
  %0 = nvvm.mma.block_scale A[%r] B[%r] C[%c] scaleA[%s, %i, %i] scaleB[%s, %i, %i] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<e4m3>, scaleVecSize = #nvvm.scale_vec_size<x1>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: unsupported MMATypes attribute for mma.m16n8k64.(mxf4nvf4|mxf4)
llvm.func @dense_k64_types(%r: i32, %c: f32, %m: i32, %s: i32, %i: i16) {
  // expected-error @below {{unsupported MMATypes attribute for mma.m16n8k64.(mxf4nvf4|mxf4)}}
  %0 = nvvm.mma.block_scale A[%r] B[%r] C[%c] scaleA[%s, %i, %i] scaleB[%s, %i, %i] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x2>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: unsupported ScaleVecSize attribute for mma.m16n8k64.mxf4
llvm.func @dense_k64_mxf4_vec(%r: i32, %c: f32, %m: i32, %s: i32, %i: i16) {
  // expected-error @below {{unsupported ScaleVecSize attribute for mma.m16n8k64.mxf4}}
  %0 = nvvm.mma.block_scale A[%r] B[%r] C[%c] scaleA[%s, %i, %i] scaleB[%s, %i, %i] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x1>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: unsupported BlockScaleFormat attribute for mma.m16n8k64.mxf4
llvm.func @dense_k64_mxf4_fmt(%r: i32, %c: f32, %m: i32, %s: i32, %i: i16) {
  // expected-error @below {{unsupported BlockScaleFormat attribute for mma.m16n8k64.mxf4}}
  %0 = nvvm.mma.block_scale A[%r] B[%r] C[%c] scaleA[%s, %i, %i] scaleB[%s, %i, %i] {blockScaleFormat = #nvvm.block_scale_format<ue4m3>, kind = #nvvm.block_scale_kind<mxf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x2>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: unsupported ScaleVecSize and BlockScaleFormat attributes for mma.m16n8k64.mxf4nvf4
llvm.func @dense_k64_nvf4(%r: i32, %c: f32, %m: i32, %s: i32, %i: i16) {
  // expected-error @below {{unsupported ScaleVecSize and BlockScaleFormat attributes for mma.m16n8k64.mxf4nvf4}}
  %0 = nvvm.mma.block_scale A[%r] B[%r] C[%c] scaleA[%s, %i, %i] scaleB[%s, %i, %i] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4nvf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x4>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: unsupported Kind attribute for mma.m16n8k64
llvm.func @dense_k64_kind(%r: i32, %c: f32, %m: i32, %s: i32, %i: i16) {
  // expected-error @below {{unsupported Kind attribute for mma.m16n8k64}}
  %0 = nvvm.mma.block_scale A[%r] B[%r] C[%c] scaleA[%s, %i, %i] scaleB[%s, %i, %i] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf8f6f4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x1>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: unsupported Geom for mma with block scaling
llvm.func @dense_geom(%r: i32, %c: f32, %m: i32, %s: i32, %i: i16) {
  // expected-error @below {{unsupported Geom for mma with block scaling}}
  %0 = nvvm.mma.block_scale A[%r] B[%r] C[%c] scaleA[%s, %i, %i] scaleB[%s, %i, %i] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf8f6f4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x1>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: unsupported Kind, ScaleVecSize and BlockScaleFormat attributes for mma.m16n8k64
llvm.func @sparse_k64(%r: i32, %c: f32, %m: i32, %s: i32, %i: i16) {
  // expected-error @below {{unsupported Kind, ScaleVecSize and BlockScaleFormat attributes for mma.m16n8k64}}
  %0 = nvvm.mma.sp.block_scale A[%r] B[%r] C[%c] sparseMetadata[%m] selector[%m] scaleA[%s, %i, %i] scaleB[%s, %i, %i] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf8f6f4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x2>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: unsupported ScaleVecSize and BlockScaleFormat attributes for mma.m16n8k128.mxf4nvf4
llvm.func @sparse_k128_nvf4(%r: i32, %c: f32, %m: i32, %s: i32, %i: i16) {
  // expected-error @below {{unsupported ScaleVecSize and BlockScaleFormat attributes for mma.m16n8k128.mxf4nvf4}}
  %0 = nvvm.mma.sp.block_scale A[%r] B[%r] C[%c] sparseMetadata[%m] selector[%m] scaleA[%s, %i, %i] scaleB[%s, %i, %i] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4nvf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x1>, shape = #nvvm.shape<m = 16, n = 8, k = 128>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

// CHECK: unsupported Geom for sparse mma with block scaling
llvm.func @sparse_geom(%r: i32, %c: f32, %m: i32, %s: i32, %i: i16) {
  // expected-error @below {{unsupported Geom for sparse mma with block scaling}}
  %0 = nvvm.mma.sp.block_scale A[%r] B[%r] C[%c] sparseMetadata[%m] selector[%m] scaleA[%s, %i, %i] scaleB[%s, %i, %i] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf8f6f4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x1>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}
