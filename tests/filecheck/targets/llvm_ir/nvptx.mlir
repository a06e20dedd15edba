// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s --triple nvptx64-nvidia-cuda | filecheck %s

// Device side: NVPTX's triple and data layout, `nvvm.kernel` as LLVM 22's
// `ptx_kernel` calling convention (no nvvm.annotations), the launch bounds as the
// string function attributes the NVPTX backend reads, shared memory in addrspace(3),
// nvvm ops as calls of the intrinsics their classes name (with `range` on the call).
// CHECK: target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// CHECK-NEXT: target triple = "nvptx64-nvidia-cuda"
// CHECK: @tile = internal addrspace(3) global [256 x float] undef, align 16
// CHECK-NEXT: @dyn = external addrspace(3) global [0 x i8], align 16
// CHECK: declare float @__nv_expf(float)
// CHECK-LABEL: define ptx_kernel void @kernel(ptr addrspace(1) noalias align 16 %arg0, i32 %arg1) "nvvm.maxntid"="128,1,1" "nvvm.minctasm"="2" "nvvm.maxnreg"="64" {
// CHECK-NEXT: bb0:
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %{{[a-z]+[0-9]+}}, i32 %arg1, i32 31)
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = sext i32 %{{[a-z]+[0-9]+}} to i64
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = getelementptr float, ptr addrspace(1) %arg0, i64 %{{[a-z]+[0-9]+}}
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = load float, ptr addrspace(1) %{{[a-z]+[0-9]+}}, align 4
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = call float @__nv_expf(float %{{[a-z]+[0-9]+}})
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = getelementptr [256 x float], ptr addrspace(3) @tile, i32 0, i64 %{{[a-z]+[0-9]+}}
// CHECK-NEXT: store float %{{[a-z]+[0-9]+}}, ptr addrspace(3) %{{[a-z]+[0-9]+}}, align 4
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = addrspacecast ptr addrspace(3) %{{[a-z]+[0-9]+}} to ptr
// CHECK-NEXT: %{{[a-z]+[0-9]+}} = atomicrmw fadd ptr addrspace(1) %{{[a-z]+[0-9]+}}, float %{{[a-z]+[0-9]+}} syncscope("agent") monotonic, align 4
// CHECK-NEXT: ret void
// CHECK-NEXT: }
// CHECK-LABEL: define ptx_kernel void @cluster_kernel(ptr byval({ i32, float }) "nvvm.grid_constant" %arg0) "nvvm.reqntid"="64,1,1" "nvvm.cluster_dim"="2,1,1" "nvvm.maxclusterrank"="8" "nvvm.blocksareclusters" {
// CHECK-NEXT: bb0:
// CHECK-NEXT: ret void
// CHECK-NEXT: }
// CHECK-LABEL: define float @helper(float %arg0) "nvvm.reqntid"="32,4" {
// CHECK-NEXT: bb0:
// CHECK-NEXT: ret float %arg0
// CHECK-NEXT: }
// CHECK: declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// CHECK-NEXT: declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// CHECK-NEXT: declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)

module {
  llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<256 x f32>
  llvm.mlir.global external @dyn() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @__nv_expf(f32) -> f32
  llvm.func @kernel(%x: !llvm.ptr<1> {llvm.noalias, llvm.align = 16 : i64}, %n: i32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.minctasm = 2 : i32, nvvm.maxnreg = 64 : i32} {
    %tid = nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
    %bid = nvvm.read.ptx.sreg.ctaid.x : i32
    %m = llvm.mlir.constant(-1 : i32) : i32
    %c = llvm.mlir.constant(31 : i32) : i32
    %s = nvvm.shfl.sync bfly %m, %tid, %n, %c : i32 -> i32
    %i = llvm.sext %tid : i32 to i64
    %p = llvm.getelementptr %x[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr<1> -> f32
    %e = llvm.call @__nv_expf(%v) : (f32) -> f32
    %t = llvm.mlir.addressof @tile : !llvm.ptr<3>
    %q = llvm.getelementptr %t[0, %i] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, !llvm.array<256 x f32>
    llvm.store %e, %q {alignment = 4 : i64} : f32, !llvm.ptr<3>
    %g = llvm.addrspacecast %q : !llvm.ptr<3> to !llvm.ptr
    %old = llvm.atomicrmw fadd %p, %e syncscope("agent") monotonic {alignment = 4 : i64} : !llvm.ptr<1>, f32
    llvm.return
  }
  llvm.func @cluster_kernel(%p: !llvm.ptr {llvm.byval = !llvm.struct<(i32, f32)>, nvvm.grid_constant}) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 64, 1, 1>, nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.cluster_max_blocks = 8 : i32, nvvm.blocksareclusters} {
    llvm.return
  }
  llvm.func @helper(%a: f32) -> f32 attributes {nvvm.reqntid = array<i32: 32, 4>} {
    llvm.return %a : f32
  }
}
