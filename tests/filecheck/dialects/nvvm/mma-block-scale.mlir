// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s | filecheck %s %}
// The block-scaled mma ops print as MLIR 22 prints them (both tools are checked by
// the same lines): attributes sorted, the sparse op's orderedMetadata added when
// left out, a multiplicand type that the registers tell (f16) not printed.

// CHECK-LABEL: llvm.func @dense
llvm.func @dense(%a: vector<4xi32>, %b: vector<2xi32>, %c: vector<4xf32>,
                 %sa: i32, %ba: i16, %ta: i16, %sb: i32, %bb: i16, %tb: i16) {
  // CHECK-NEXT: %{{.*}} = nvvm.mma.block_scale A[%{{.*}}] B[%{{.*}}] C[%{{.*}}] scaleA[%{{.*}}, %{{.*}}, %{{.*}}] scaleB[%{{.*}}, %{{.*}}, %{{.*}}] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf8f6f4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e5m2>, scaleVecSize = #nvvm.scale_vec_size<x1>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (vector<4xi32>, vector<2xi32>, vector<4xf32>) -> !llvm.struct<(vector<4xf32>)>
  %0 = nvvm.mma.block_scale A[%a] B[%b] C[%c] scaleA[%sa, %ba, %ta] scaleB[%sb, %bb, %tb]
      {shape = #nvvm.shape<m = 16, n = 8, k = 32>,
       multiplicandAPtxType = #nvvm.mma_type<e2m1>,
       multiplicandBPtxType = #nvvm.mma_type<e5m2>,
       scaleVecSize = #nvvm.scale_vec_size<x1>,
       blockScaleFormat = #nvvm.block_scale_format<ue8m0>,
       kind = #nvvm.block_scale_kind<mxf8f6f4>}
      : (vector<4xi32>, vector<2xi32>, vector<4xf32>) -> !llvm.struct<(vector<4xf32>)>
  // CHECK-NEXT: %{{.*}} = nvvm.mma.block_scale A[%{{.*}}] B[%{{.*}}] C[%{{.*}}] scaleA[%{{.*}}, %{{.*}}, %{{.*}}] scaleB[%{{.*}}, %{{.*}}, %{{.*}}] {blockScaleFormat = #nvvm.block_scale_format<ue4m3>, kind = #nvvm.block_scale_kind<mxf4nvf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x4>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (vector<4xi32>, vector<2xi32>, vector<4xf32>) -> !llvm.struct<(vector<4xf32>)>
  %1 = nvvm.mma.block_scale A[%a] B[%b] C[%c] scaleA[%sa, %ba, %ta] scaleB[%sb, %bb, %tb]
      {blockScaleFormat = #nvvm.block_scale_format<ue4m3>, kind = #nvvm.block_scale_kind<mxf4nvf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x4>, shape = #nvvm.shape<m = 16, n = 8, k = 64>}
      : (vector<4xi32>, vector<2xi32>, vector<4xf32>) -> !llvm.struct<(vector<4xf32>)>
  llvm.return
}

// CHECK-LABEL: llvm.func @inferred
llvm.func @inferred(%a: f16, %b: f16, %c: f32, %sa: i32, %ba: i16, %ta: i16) {
  // CHECK-NEXT: %{{.*}} = nvvm.mma.block_scale A[%{{.*}}, %{{.*}}] B[%{{.*}}] C[%{{.*}}] scaleA[%{{.*}}, %{{.*}}, %{{.*}}] scaleB[%{{.*}}, %{{.*}}, %{{.*}}] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf8f6f4>, scaleVecSize = #nvvm.scale_vec_size<x1>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (f16, f16, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  %0 = nvvm.mma.block_scale A[%a, %a] B[%b] C[%c] scaleA[%sa, %ba, %ta] scaleB[%sa, %ba, %ta]
      {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf8f6f4>, scaleVecSize = #nvvm.scale_vec_size<x1>, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
      : (f16, f16, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// CHECK-LABEL: llvm.func @sparse
llvm.func @sparse(%a: vector<4xi32>, %b: vector<4xi32>, %c: vector<4xf32>, %meta: i32,
                  %sel: i32, %sa: i32, %ba: i16, %ta: i16, %sb: i32, %bb: i16, %tb: i16) {
  // CHECK-NEXT: %{{.*}} = nvvm.mma.sp.block_scale A[%{{.*}}] B[%{{.*}}] C[%{{.*}}] sparseMetadata[%{{.*}}] selector[%{{.*}}] scaleA[%{{.*}}, %{{.*}}, %{{.*}}] scaleB[%{{.*}}, %{{.*}}, %{{.*}}] {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, orderedMetadata, scaleVecSize = #nvvm.scale_vec_size<x2>, shape = #nvvm.shape<m = 16, n = 8, k = 128>} : (vector<4xi32>, vector<4xi32>, vector<4xf32>) -> !llvm.struct<(vector<4xf32>)>
  %0 = nvvm.mma.sp.block_scale A[%a] B[%b] C[%c] sparseMetadata[%meta] selector[%sel]
      scaleA[%sa, %ba, %ta] scaleB[%sb, %bb, %tb]
      {blockScaleFormat = #nvvm.block_scale_format<ue8m0>, kind = #nvvm.block_scale_kind<mxf4>, multiplicandAPtxType = #nvvm.mma_type<e2m1>, multiplicandBPtxType = #nvvm.mma_type<e2m1>, scaleVecSize = #nvvm.scale_vec_size<x2>, shape = #nvvm.shape<m = 16, n = 8, k = 128>}
      : (vector<4xi32>, vector<4xi32>, vector<4xf32>) -> !llvm.struct<(vector<4xf32>)>
  llvm.return
}
