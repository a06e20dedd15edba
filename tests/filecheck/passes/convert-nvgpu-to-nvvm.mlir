// RUN: xdsl-opt %s -p convert-nvgpu-to-nvvm --split-input-file | filecheck %s

// convert-nvgpu-to-nvvm on the sm_80 nvgpu ops. tests/passes/test_nvgpu_to_nvvm_differential.py
// runs every case of this file through mlir-opt-22 --convert-nvgpu-to-nvvm too and
// requires the same output, op for op.

// f16 fragments: each row is one vector<2xf16> register, passed as it is.
// CHECK-LABEL: func.func @m16n8k16_f16
// CHECK:      %[[C:.*]] = builtin.unrealized_conversion_cast %arg2 : vector<2x2xf16> to !llvm.array<2 x vector<2xf16>>
// CHECK-NEXT: %[[B:.*]] = builtin.unrealized_conversion_cast %arg1 : vector<2x2xf16> to !llvm.array<2 x vector<2xf16>>
// CHECK-NEXT: %[[A:.*]] = builtin.unrealized_conversion_cast %arg0 : vector<4x2xf16> to !llvm.array<4 x vector<2xf16>>
// CHECK-NEXT: %[[A0:.*]] = llvm.extractvalue %[[A]][0] : !llvm.array<4 x vector<2xf16>>
// CHECK-NEXT: %[[A1:.*]] = llvm.extractvalue %[[A]][1] : !llvm.array<4 x vector<2xf16>>
// CHECK-NEXT: %[[A2:.*]] = llvm.extractvalue %[[A]][2] : !llvm.array<4 x vector<2xf16>>
// CHECK-NEXT: %[[A3:.*]] = llvm.extractvalue %[[A]][3] : !llvm.array<4 x vector<2xf16>>
// CHECK-NEXT: %[[B0:.*]] = llvm.extractvalue %[[B]][0] : !llvm.array<2 x vector<2xf16>>
// CHECK-NEXT: %[[B1:.*]] = llvm.extractvalue %[[B]][1] : !llvm.array<2 x vector<2xf16>>
// CHECK-NEXT: %[[C0:.*]] = llvm.extractvalue %[[C]][0] : !llvm.array<2 x vector<2xf16>>
// CHECK-NEXT: %[[C1:.*]] = llvm.extractvalue %[[C]][1] : !llvm.array<2 x vector<2xf16>>
// CHECK-NEXT: %[[D:.*]] = nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]] B[%[[B0]], %[[B1]]] C[%[[C0]], %[[C1]]] {shape = #nvvm.shape<m = 16, n = 8, k = 16>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
// CHECK-NEXT: %[[D0:.*]] = llvm.extractvalue %[[D]][0] : !llvm.struct<(vector<2xf16>, vector<2xf16>)>
// CHECK-NEXT: %[[D1:.*]] = llvm.extractvalue %[[D]][1] : !llvm.struct<(vector<2xf16>, vector<2xf16>)>
// CHECK-NEXT: %[[P:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<2xf16>>
// CHECK-NEXT: %[[R0:.*]] = llvm.insertvalue %[[D0]], %[[P]][0] : !llvm.array<2 x vector<2xf16>>
// CHECK-NEXT: %[[R1:.*]] = llvm.insertvalue %[[D1]], %[[R0]][1] : !llvm.array<2 x vector<2xf16>>
// CHECK-NEXT: %{{.*}} = builtin.unrealized_conversion_cast %[[R1]] : !llvm.array<2 x vector<2xf16>> to vector<2x2xf16>
func.func @m16n8k16_f16(%arg0: vector<4x2xf16>, %arg1: vector<2x2xf16>, %arg2: vector<2x2xf16>) -> vector<2x2xf16> {
  %d = nvgpu.mma.sync (%arg0, %arg1, %arg2) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
  return %d : vector<2x2xf16>
}

// -----

// An f32 accumulator: its rows are split into scalars, and the four f32 results
// are packed in pairs again.
// CHECK-LABEL: func.func @m16n8k16_f32
// CHECK:      %[[C0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT: %[[I0:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT: %[[E0:.*]] = llvm.extractelement %[[C0]][%[[I0]] : i64] : vector<2xf32>
// CHECK-NEXT: %[[I1:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT: %[[E1:.*]] = llvm.extractelement %[[C0]][%[[I1]] : i64] : vector<2xf32>
// CHECK:      %[[D:.*]] = nvvm.mma.sync A[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] B[%{{.*}}, %{{.*}}] C[%[[E0]], %[[E1]], %{{.*}}, %{{.*}}] {shape = #nvvm.shape<m = 16, n = 8, k = 16>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %[[V:.*]] = llvm.mlir.poison : vector<2xf32>
// CHECK-NEXT: %[[X0:.*]] = llvm.extractvalue %[[D]][0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %[[X1:.*]] = llvm.extractvalue %[[D]][1] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %[[L0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[V0:.*]] = llvm.insertelement %[[X0]], %[[V]][%[[L0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[L1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[V1:.*]] = llvm.insertelement %[[X1]], %[[V0]][%[[L1]] : i32] : vector<2xf32>
// CHECK-NEXT: llvm.mlir.poison : vector<2xf32>
// CHECK-NEXT: llvm.extractvalue %[[D]][2]
// CHECK-NEXT: llvm.extractvalue %[[D]][3]
// CHECK:      %[[P:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT: llvm.insertvalue %[[V1]], %[[P]][0] : !llvm.array<2 x vector<2xf32>>
func.func @m16n8k16_f32(%arg0: vector<4x2xf16>, %arg1: vector<2x2xf16>, %arg2: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%arg0, %arg1, %arg2) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// tf32: A and B rows (vector<1xf32>) are bitcast to i32 registers.
// CHECK-LABEL: func.func @m16n8k8_tf32
// CHECK:      %[[A0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.array<4 x vector<1xf32>>
// CHECK-NEXT: %{{.*}} = llvm.bitcast %[[A0]] : vector<1xf32> to i32
// CHECK:      nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {shape = #nvvm.shape<m = 16, n = 8, k = 8>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @m16n8k8_tf32(%arg0: vector<4x1xf32>, %arg1: vector<2x1xf32>, %arg2: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%arg0, %arg1, %arg2) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// i8 and i4: rows bitcast to i32, s32 accumulators, saturating; the second mma takes
// the first's result without a cast in between.
// CHECK-LABEL: func.func @integer
// CHECK:      llvm.bitcast %{{.*}} : vector<4xi8> to i32
// CHECK:      %[[D8:.*]] = nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {shape = #nvvm.shape<m = 16, n = 8, k = 32>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK:      %[[R8:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[1] : !llvm.array<2 x vector<2xi32>>
// CHECK:      llvm.bitcast %{{.*}} : vector<8xi4> to i32
// CHECK:      llvm.extractvalue %[[R8]][0] : !llvm.array<2 x vector<2xi32>>
// CHECK:      nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {shape = #nvvm.shape<m = 16, n = 8, k = 64>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s4>, multiplicandBPtxType = #nvvm.mma_type<s4>, intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
func.func @integer(%a8: vector<4x4xi8>, %b8: vector<2x4xi8>, %a4: vector<4x8xi4>, %b4: vector<2x8xi4>, %c: vector<2x2xi32>) -> (vector<2x2xi32>, vector<2x2xi32>) {
  %d8 = nvgpu.mma.sync (%a8, %b8, %c) {mmaShape = [16, 8, 32]} : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
  %d4 = nvgpu.mma.sync (%a4, %b4, %d8) {mmaShape = [16, 8, 64]} : (vector<4x8xi4>, vector<2x8xi4>, vector<2x2xi32>) -> vector<2x2xi32>
  return %d8, %d4 : vector<2x2xi32>, vector<2x2xi32>
}

// -----

// f64: one element per register, extracted.
// CHECK-LABEL: func.func @m8n8k4_f64
// CHECK:      nvvm.mma.sync A[%{{.*}}] B[%{{.*}}] C[%{{.*}}, %{{.*}}] {shape = #nvvm.shape<m = 8, n = 8, k = 4>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>} : (f64, f64, f64) -> !llvm.struct<(f64, f64)>
// CHECK:      llvm.mlir.poison : vector<2xf64>
func.func @m8n8k4_f64(%arg0: vector<1x1xf64>, %arg1: vector<1x1xf64>, %arg2: vector<1x2xf64>) -> vector<1x2xf64> {
  %d = nvgpu.mma.sync (%arg0, %arg1, %arg2) {mmaShape = [8, 8, 4]} : (vector<1x1xf64>, vector<1x1xf64>, vector<1x2xf64>) -> vector<1x2xf64>
  return %d : vector<1x2xf64>
}

// -----

// mma.sp.sync: inline PTX; outputs as many as C's registers, then A, B, C, the
// metadata (bitcast to i32) and the selector.
// CHECK-LABEL: func.func @sparse
// CHECK:      %[[M:.*]] = llvm.bitcast %arg3 : vector<2xi16> to i32
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {$0,$1,$2,$3},{$4,$5,$6,$7},{$8,$9,$10,$11},{$12,$13,$14,$15},$16,0x1;", "=r,=r,=r,=r,r,r,r,r,r,r,r,r,r,r,r,r,r" {{.*}}, %[[M]] : (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, f32, f32, f32, f32, i32) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @sparse(%arg0: vector<4x2xf16>, %arg1: vector<4x2xf16>, %arg2: vector<2x2xf32>, %arg3: vector<2xi16>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sp.sync (%arg0, %arg1, %arg2) metadata(%arg3) {mmaShape = [16, 8, 32], sparsitySelector = 1 : i32} : (vector<4x2xf16>, vector<4x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// ldmatrix: the address from the descriptor, 8x8 b16 tiles, transpose as col layout;
// each i32 register bitcast to a row.
// CHECK-LABEL: func.func @ldmatrix
// CHECK:      %[[J:.*]] = builtin.unrealized_conversion_cast %arg2 : index to i64
// CHECK-NEXT: %[[I:.*]] = builtin.unrealized_conversion_cast %arg1 : index to i64
// CHECK-NEXT: %[[S:.*]] = builtin.unrealized_conversion_cast %arg0 : memref<128x128xf16, #gpu.address_space<workgroup>> to !llvm.struct<(ptr<3>, ptr<3>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT: %[[BASE:.*]] = llvm.extractvalue %[[S]][1] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT: %[[STRIDE:.*]] = llvm.mlir.constant(128 : index) : i64
// CHECK-NEXT: %[[ROW:.*]] = llvm.mul %[[I]], %[[STRIDE]] : i64
// CHECK-NEXT: %[[OFF:.*]] = llvm.add %[[ROW]], %[[J]] : i64
// CHECK-NEXT: %[[PTR:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK-NEXT: %[[L:.*]] = nvvm.ldmatrix %[[PTR]] {num = 4 : i32, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT: %[[P:.*]] = llvm.mlir.poison : !llvm.array<4 x vector<2xf16>>
// CHECK-NEXT: %[[R0:.*]] = llvm.extractvalue %[[L]][0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT: %[[V0:.*]] = llvm.bitcast %[[R0]] : i32 to vector<2xf16>
// CHECK-NEXT: llvm.insertvalue %[[V0]], %[[P]][0] : !llvm.array<4 x vector<2xf16>>
// CHECK:      nvvm.ldmatrix %{{.*}} {num = 2 : i32, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK:      %[[X1:.*]] = nvvm.ldmatrix %{{.*}} {num = 1 : i32, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> i32
// CHECK-NEXT: llvm.mlir.poison : !llvm.array<1 x vector<2xf16>>
// CHECK-NEXT: llvm.bitcast %[[X1]] : i32 to vector<2xf16>
func.func @ldmatrix(%arg0: memref<128x128xf16, #gpu.address_space<workgroup>>, %arg1: index, %arg2: index) -> (vector<4x2xf16>, vector<2x2xf16>, vector<1x2xf16>) {
  %a = nvgpu.ldmatrix %arg0[%arg1, %arg2] {numTiles = 4 : i32, transpose = false} : memref<128x128xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
  %b = nvgpu.ldmatrix %arg0[%arg1, %arg2] {numTiles = 2 : i32, transpose = true} : memref<128x128xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
  %c = nvgpu.ldmatrix %arg0[%arg1, %arg2] {numTiles = 1 : i32, transpose = false} : memref<128x128xf16, #gpu.address_space<workgroup>> -> vector<1x2xf16>
  return %a, %b, %c : vector<4x2xf16>, vector<2x2xf16>, vector<1x2xf16>
}

// -----

// cp.async: 16 bytes (.ca, or .cg with bypassL1), 4 bytes (.ca), and the zero-fill
// form whose byte count is srcElements * bitwidth >> 3; tokens become i32 0.
// CHECK-LABEL: func.func @async_copy
// CHECK:      %[[DST:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK:      %[[SRC:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT: %[[GLOBAL:.*]] = llvm.addrspacecast %[[SRC]] : !llvm.ptr to !llvm.ptr<1>
// CHECK-NEXT: nvvm.cp.async.shared.global %[[DST]], %[[GLOBAL]], 16, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT: llvm.mlir.constant(0 : i32) : i32
// CHECK:      nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK:      nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK:      %[[THREE:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: %[[BITS:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT: %[[N:.*]] = llvm.trunc %{{.*}} : i64 to i32
// CHECK-NEXT: %[[PRODUCT:.*]] = llvm.mul %[[BITS]], %[[N]] : i32
// CHECK-NEXT: %[[BYTES:.*]] = llvm.lshr %[[PRODUCT]], %[[THREE]] : i32
// CHECK-NEXT: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = ca, %[[BYTES]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NEXT: llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.cp.async.wait.group 0
func.func @async_copy(%arg0: memref<128x128xf32>, %arg1: memref<3x16x128xf32, #gpu.address_space<workgroup>>, %arg2: index, %arg3: index) {
  %0 = nvgpu.device_async_copy %arg0[%arg2, %arg2], %arg1[%arg2, %arg2, %arg2], 4 : memref<128x128xf32> to memref<3x16x128xf32, #gpu.address_space<workgroup>>
  %1 = nvgpu.device_async_copy %arg0[%arg2, %arg2], %arg1[%arg2, %arg2, %arg2], 4 {bypassL1} : memref<128x128xf32> to memref<3x16x128xf32, #gpu.address_space<workgroup>>
  %2 = nvgpu.device_async_copy %arg0[%arg2, %arg2], %arg1[%arg2, %arg2, %arg2], 1 : memref<128x128xf32> to memref<3x16x128xf32, #gpu.address_space<workgroup>>
  %3 = nvgpu.device_async_copy %arg0[%arg2, %arg2], %arg1[%arg2, %arg2, %arg2], 4, %arg3 : memref<128x128xf32> to memref<3x16x128xf32, #gpu.address_space<workgroup>>
  %4 = nvgpu.device_async_create_group %0, %1, %2, %3
  nvgpu.device_async_wait %4 {numGroups = 1 : i32}
  nvgpu.device_async_wait %4
  return
}

// -----

// A token carried by scf.for becomes an i32 iter_arg (the loop's bounds i64, as
// upstream's structural type conversion does).
// CHECK-LABEL: func.func @pipelined
// CHECK:      nvvm.cp.async.commit.group
// CHECK-NEXT: %[[T:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[T]]) -> (i32) : i64 {
// CHECK-NEXT:   nvvm.cp.async.wait.group 1
// CHECK:        nvvm.cp.async.commit.group
// CHECK-NEXT:   %[[T1:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:   scf.yield %[[T1]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.wait.group 0
func.func @pipelined(%arg0: memref<128xf32, #gpu.address_space<global>>, %arg1: memref<128xf32, #gpu.address_space<workgroup>>, %arg2: index, %arg3: index, %arg4: index) {
  %t0 = nvgpu.device_async_copy %arg0[%arg2], %arg1[%arg2], 4 : memref<128xf32, #gpu.address_space<global>> to memref<128xf32, #gpu.address_space<workgroup>>
  %g0 = nvgpu.device_async_create_group %t0
  %r = scf.for %i = %arg2 to %arg3 step %arg4 iter_args(%g = %g0) -> (!nvgpu.device.async.token) {
    nvgpu.device_async_wait %g {numGroups = 1 : i32}
    %t = nvgpu.device_async_copy %arg0[%i], %arg1[%i], 4 : memref<128xf32, #gpu.address_space<global>> to memref<128xf32, #gpu.address_space<workgroup>>
    %g1 = nvgpu.device_async_create_group %t
    scf.yield %g1 : !nvgpu.device.async.token
  }
  nvgpu.device_async_wait %r
  return
}

// -----

// rcp: one nvvm.rcp.approx.ftz.f per element; an n-D vector row by row.
// CHECK-LABEL: func.func @rcp
// CHECK:      %[[P:.*]] = llvm.mlir.poison : vector<2xf32>
// CHECK-NEXT: %[[I0:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT: %[[E0:.*]] = llvm.extractelement %arg0[%[[I0]] : i64] : vector<2xf32>
// CHECK-NEXT: %[[R0:.*]] = nvvm.rcp.approx.ftz.f %[[E0]] : f32
// CHECK-NEXT: %{{.*}} = llvm.insertelement %[[R0]], %[[P]][%[[I0]] : i64] : vector<2xf32>
// CHECK:      %[[ARRAY:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT: %{{.*}} = llvm.extractvalue %{{.*}}[0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT: llvm.mlir.poison : vector<2xf32>
// CHECK-COUNT-2: nvvm.rcp.approx.ftz.f
// CHECK:      llvm.insertvalue %{{.*}}, %[[ARRAY]][0] : !llvm.array<2 x vector<2xf32>>
func.func @rcp(%arg0: vector<2xf32>, %arg1: vector<2x2xf32>) -> (vector<2xf32>, vector<2x2xf32>) {
  %a = nvgpu.rcp %arg0 {rounding = approx, ftz} : vector<2xf32>
  %b = nvgpu.rcp %arg1 {rounding = approx, ftz} : vector<2x2xf32>
  return %a, %b : vector<2xf32>, vector<2x2xf32>
}
