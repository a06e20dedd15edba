// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s --triple nvptx64-nvidia-cuda | filecheck %s
// RUN: %if mlir-opt %{ mlir-translate --mlir-to-llvmir %s | filecheck %s %}
// The nvvm.wmma.* ops become the same intrinsic calls as mlir-translate-22 writes
// (both tools are checked by the same lines): the address space in the name, the
// store's stride after its data, one-register fragments.

// CHECK-LABEL: define void @wmma(
llvm.func @wmma(%p: !llvm.ptr, %q: !llvm.ptr<3>, %g: !llvm.ptr<1>, %s: i32, %h: vector<2xf16>, %f: f32, %i: i32, %d: f64) {
  // CHECK: call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr %{{.*}}, i32 %{{.*}})
  %0 = nvvm.wmma.load %p, %s {eltype = #nvvm.mma_type<f16>, frag = #nvvm.mma_frag<a>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  // CHECK: call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.b.col.stride.f16.p3(ptr addrspace(3) %{{.*}}, i32 %{{.*}})
  %1 = nvvm.wmma.load %q, %s {eltype = #nvvm.mma_type<f16>, frag = #nvvm.mma_frag<b>, k = 16 : i32, layout = #nvvm.mma_layout<col>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  // CHECK: call { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.load.c.row.stride.f32.p1(ptr addrspace(1) %{{.*}}, i32 %{{.*}})
  %2 = nvvm.wmma.load %g, %s {eltype = #nvvm.mma_type<f32>, frag = #nvvm.mma_frag<c>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr<1>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  // CHECK: call void @llvm.nvvm.wmma.m16n16k16.store.d.col.stride.f32.p3(ptr addrspace(3) %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, float %{{.*}}, i32 %{{.*}})
  nvvm.wmma.store %q, %s, %f, %f, %f, %f, %f, %f, %f, %f {eltype = #nvvm.mma_type<f32>, k = 16 : i32, layout = #nvvm.mma_layout<col>, m = 16 : i32, n = 16 : i32} : !llvm.ptr<3>, f32, f32, f32, f32, f32, f32, f32, f32
  // CHECK: call void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f16.p0(ptr %{{.*}}, <2 x half> %{{.*}}, <2 x half> %{{.*}}, <2 x half> %{{.*}}, <2 x half> %{{.*}}, i32 %{{.*}})
  nvvm.wmma.store %p, %s, %h, %h, %h, %h {eltype = #nvvm.mma_type<f16>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : !llvm.ptr, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>
  // CHECK: call { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.col.f32.f32(<2 x half> %{{.*}}, float %{{.*}})
  %3 = nvvm.wmma.mma %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %f, %f, %f, %f, %f, %f, %f, %f {eltypeA = #nvvm.mma_type<f16>, eltypeB = #nvvm.mma_type<f32>, k = 16 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, m = 16 : i32, n = 16 : i32} : (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, f32, f32, f32, f32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  // CHECK: call { <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.mma.row.row.f16.f16(
  %4 = nvvm.wmma.mma %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h {eltypeA = #nvvm.mma_type<f16>, eltypeB = #nvvm.mma_type<f16>, k = 16 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  // CHECK: call { i32, i32, i32, i32, i32, i32, i32, i32 } @llvm.nvvm.wmma.m16n16k16.mma.row.col.u8(i32
  %5 = nvvm.wmma.mma %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i {eltypeA = #nvvm.mma_type<u8>, eltypeB = #nvvm.mma_type<s32>, k = 16 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, m = 16 : i32, n = 16 : i32} : (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>
  // CHECK: call { double, double } @llvm.nvvm.wmma.m8n8k4.mma.col.col.f64(double %{{.*}}, double %{{.*}}, double %{{.*}}, double %{{.*}})
  %6 = nvvm.wmma.mma %d, %d, %d, %d {eltypeA = #nvvm.mma_type<f64>, eltypeB = #nvvm.mma_type<f64>, k = 4 : i32, layoutA = #nvvm.mma_layout<col>, layoutB = #nvvm.mma_layout<col>, m = 8 : i32, n = 8 : i32} : (f64, f64, f64, f64) -> !llvm.struct<(f64, f64)>
  // CHECK: call { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k8.mma.col.row.tf32(i32
  %7 = nvvm.wmma.mma %i, %i, %i, %i, %i, %i, %i, %i, %f, %f, %f, %f, %f, %f, %f, %f {eltypeA = #nvvm.mma_type<tf32>, eltypeB = #nvvm.mma_type<f32>, k = 8 : i32, layoutA = #nvvm.mma_layout<col>, layoutB = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (i32, i32, i32, i32, i32, i32, i32, i32, f32, f32, f32, f32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  // CHECK: call double @llvm.nvvm.wmma.m8n8k4.load.a.col.stride.f64.p1(ptr addrspace(1) %{{.*}}, i32 %{{.*}})
  %8 = nvvm.wmma.load %g, %s {eltype = #nvvm.mma_type<f64>, frag = #nvvm.mma_frag<a>, k = 4 : i32, layout = #nvvm.mma_layout<col>, m = 8 : i32, n = 8 : i32} : (!llvm.ptr<1>) -> f64
  // CHECK: call i32 @llvm.nvvm.wmma.m32n8k16.load.b.col.stride.s8.p1(ptr addrspace(1) %{{.*}}, i32 %{{.*}})
  %9 = nvvm.wmma.load %g, %s {eltype = #nvvm.mma_type<s8>, frag = #nvvm.mma_frag<b>, k = 16 : i32, layout = #nvvm.mma_layout<col>, m = 32 : i32, n = 8 : i32} : (!llvm.ptr<1>) -> !llvm.struct<(i32)>
  // CHECK: call void @llvm.nvvm.wmma.m8n8k4.store.d.row.stride.f64.p1(ptr addrspace(1) %{{.*}}, double %{{.*}}, double %{{.*}}, i32 %{{.*}})
  nvvm.wmma.store %g, %s, %d, %d {eltype = #nvvm.mma_type<f64>, k = 4 : i32, layout = #nvvm.mma_layout<row>, m = 8 : i32, n = 8 : i32} : !llvm.ptr<1>, f64, f64
  // CHECK: call void @llvm.nvvm.wmma.m8n32k16.store.d.row.stride.s32.p1(ptr addrspace(1) %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}})
  nvvm.wmma.store %g, %s, %i, %i, %i, %i, %i, %i, %i, %i {eltype = #nvvm.mma_type<s32>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 8 : i32, n = 32 : i32} : !llvm.ptr<1>, i32, i32, i32, i32, i32, i32, i32, i32
  llvm.return
}
