// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s --triple nvptx64-nvidia-cuda | filecheck %s
// RUN: %if mlir-opt %{ mlir-translate --mlir-to-llvmir %s | filecheck %s %}
// The nvvm ops that convert-nvgpu-to-nvvm makes of the sm_80 nvgpu ops become the same
// intrinsic calls as mlir-translate-22 writes (both tools are checked by the same
// lines); cp.async.wait.group's count is the call's immarg argument.

// CHECK-LABEL: define void @ampere(
llvm.func @ampere(%p: !llvm.ptr<3>, %g: !llvm.ptr<1>, %n: i32, %h: vector<2xf16>, %f: f32, %i: i32, %d: f64) {
  // CHECK: call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %{{.*}})
  %0 = nvvm.ldmatrix %p {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
  // CHECK: call { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16.p3(ptr addrspace(3) %{{.*}})
  %1 = nvvm.ldmatrix %p {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
  // CHECK: call i32 @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x1.b16.p3(ptr addrspace(3) %{{.*}})
  %2 = nvvm.ldmatrix %p {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 1 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> i32
  // CHECK: call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half> %{{.*}}, <2 x half> %{{.*}}, <2 x half> %{{.*}}, <2 x half> %{{.*}}, <2 x half> %{{.*}}, <2 x half> %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}})
  %3 = nvvm.mma.sync A[%h, %h, %h, %h] B[%h, %h] C[%f, %f, %f, %f] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  // CHECK: call { <2 x half>, <2 x half> } @llvm.nvvm.mma.m16n8k16.row.col.f16.f16(
  %4 = nvvm.mma.sync A[%h, %h, %h, %h] B[%h, %h] C[%h, %h] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  // CHECK: call { float, float, float, float } @llvm.nvvm.mma.m16n8k8.row.col.tf32(i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, float
  %5 = nvvm.mma.sync A[%i, %i, %i, %i] B[%i, %i] C[%f, %f, %f, %f] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  // CHECK: call { i32, i32, i32, i32 } @llvm.nvvm.mma.m16n8k32.row.col.satfinite.s8(
  %6 = nvvm.mma.sync A[%i, %i, %i, %i] B[%i, %i] C[%i, %i, %i, %i] {intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  // CHECK: call { i32, i32, i32, i32 } @llvm.nvvm.mma.m16n8k64.row.col.satfinite.s4(
  %7 = nvvm.mma.sync A[%i, %i, %i, %i] B[%i, %i] C[%i, %i, %i, %i] {intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s4>, multiplicandBPtxType = #nvvm.mma_type<s4>, shape = #nvvm.shape<m = 16, n = 8, k = 64>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  // CHECK: call { double, double } @llvm.nvvm.mma.m8n8k4.row.col.f64(double %{{.*}}, double %{{.*}}, double %{{.*}}, double %{{.*}})
  %8 = nvvm.mma.sync A[%d] B[%d] C[%d, %d] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 8, n = 8, k = 4>} : (f64, f64, f64) -> !llvm.struct<(f64, f64)>
  // CHECK: call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %{{.*}}, ptr addrspace(1) %{{.*}})
  nvvm.cp.async.shared.global %p, %g, 4, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK: call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %{{.*}}, ptr addrspace(1) %{{.*}})
  nvvm.cp.async.shared.global %p, %g, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK: call void @llvm.nvvm.cp.async.ca.shared.global.16.s(ptr addrspace(3) %{{.*}}, ptr addrspace(1) %{{.*}}, i32 %{{.*}})
  nvvm.cp.async.shared.global %p, %g, 16, cache = ca, %n : !llvm.ptr<3>, !llvm.ptr<1>, i32
  // CHECK: call void @llvm.nvvm.cp.async.commit.group()
  nvvm.cp.async.commit.group
  // CHECK: call void @llvm.nvvm.cp.async.wait.group(i32 1)
  nvvm.cp.async.wait.group 1
  // CHECK: call void @llvm.nvvm.cp.async.wait.group(i32 0)
  nvvm.cp.async.wait.group 0
  // CHECK: call float @llvm.nvvm.rcp.approx.ftz.f(float %{{.*}})
  %9 = nvvm.rcp.approx.ftz.f %f : f32
  llvm.return
}
// CHECK: declare void @llvm.nvvm.cp.async.wait.group(i32
