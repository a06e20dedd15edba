// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s --triple nvptx64-nvidia-cuda | filecheck %s
// RUN: %if mlir-opt %{ mlir-translate --mlir-to-llvmir %s | filecheck %s %}
// The tcgen05.mma ops become the intrinsic calls that mlir-translate 22 writes (both
// tools are checked by the same lines): A in Tensor Memory or shared memory picks
// `.tensor`/`.shared`; `scale_d`, `disable_output_lane.cg<N>`, `ashift`, the block
// scale kind and size, `zero_col_mask` name the variant; the kind (f16 0, tf32 1,
// f8f6f4 2, i8 3), CTA group (1, 2; in the name with a mask), collector B buffer and
// collector op (discard 0, lastuse 1, fill 2, use 3) follow as i32 immediates.

// CHECK-LABEL: define void @f(
// CHECK: call void @llvm.nvvm.tcgen05.mma.tensor.ashift(ptr addrspace(6) %{{.*}}, ptr addrspace(6) %{{.*}}, i64 %{{.*}}, i32 %{{.*}}, i1 %{{.*}}, i32 1, i32 2, i32 0)
// CHECK: call void @llvm.nvvm.tcgen05.mma.tensor.scale_d.ashift(ptr addrspace(6) %{{.*}}, ptr addrspace(6) %{{.*}}, i64 %{{.*}}, i32 %{{.*}}, i1 %{{.*}}, i64 3, i32 0, i32 1, i32 1)
// CHECK: call void @llvm.nvvm.tcgen05.mma.shared.disable_output_lane.cg2(ptr addrspace(6) %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i32 %{{.*}}, i1 %{{.*}}, <8 x i32> %{{.*}}, i32 3, i32 3)
// CHECK: call void @llvm.nvvm.tcgen05.mma.sp.tensor.ashift(ptr addrspace(6) %{{.*}}, ptr addrspace(6) %{{.*}}, i64 %{{.*}}, i32 %{{.*}}, i1 %{{.*}}, ptr addrspace(6) %{{.*}}, i32 2, i32 1, i32 0)
// CHECK: call void @llvm.nvvm.tcgen05.mma.sp.tensor.disable_output_lane.cg1.ashift(ptr addrspace(6) %{{.*}}, ptr addrspace(6) %{{.*}}, i64 %{{.*}}, i32 %{{.*}}, i1 %{{.*}}, ptr addrspace(6) %{{.*}}, <4 x i32> %{{.*}}, i32 0, i32 0)
// CHECK: call void @llvm.nvvm.tcgen05.mma.tensor.mxf4nvf4.block_scale.block16(ptr addrspace(6) %{{.*}}, ptr addrspace(6) %{{.*}}, i64 %{{.*}}, i32 %{{.*}}, i1 %{{.*}}, ptr addrspace(6) %{{.*}}, ptr addrspace(6) %{{.*}}, i32 2, i32 2)
// CHECK: call void @llvm.nvvm.tcgen05.mma.shared.mxf4.block_scale(ptr addrspace(6) %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i32 %{{.*}}, i1 %{{.*}}, ptr addrspace(6) %{{.*}}, ptr addrspace(6) %{{.*}}, i32 1, i32 0)
// CHECK: call void @llvm.nvvm.tcgen05.mma.sp.tensor.mxf8f6f4.block_scale.block32(ptr addrspace(6) %{{.*}}, ptr addrspace(6) %{{.*}}, i64 %{{.*}}, i32 %{{.*}}, i1 %{{.*}}, ptr addrspace(6) %{{.*}}, ptr addrspace(6) %{{.*}}, ptr addrspace(6) %{{.*}}, i32 2, i32 0)
// CHECK: call void @llvm.nvvm.tcgen05.mma.ws.tensor(ptr addrspace(6) %{{.*}}, ptr addrspace(6) %{{.*}}, i64 %{{.*}}, i32 %{{.*}}, i1 %{{.*}}, i32 3, i32 3, i32 2)
// CHECK: call void @llvm.nvvm.tcgen05.mma.ws.sp.tensor.zero_col_mask(ptr addrspace(6) %{{.*}}, ptr addrspace(6) %{{.*}}, i64 %{{.*}}, i32 %{{.*}}, i1 %{{.*}}, ptr addrspace(6) %{{.*}}, i64 %{{.*}}, i32 1, i32 0, i32 0)
llvm.func @f(%d: !llvm.ptr<6>, %a: i64, %at: !llvm.ptr<6>, %b: i64, %idesc: i32, %e: i1, %m4: vector<4xi32>, %m8: vector<8xi32>, %sp: !llvm.ptr<6>, %sa: !llvm.ptr<6>, %sb: !llvm.ptr<6>, %z: i64) {
  %s = llvm.mlir.constant(3 : i64) : i64
  nvvm.tcgen05.mma %d, %at, %b, %idesc, %e {kind = #nvvm.tcgen05_mma_kind<tf32>, ctaGroup = #nvvm.cta_group<cta_2>, aShift} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
  nvvm.tcgen05.mma %d, %at, %b, %idesc, %e scale = %s {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>, aShift, collectorOp = #nvvm.tcgen05_mma_collectorop<lastuse>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, i64)
  nvvm.tcgen05.mma %d, %a, %b, %idesc, %e mask = %m8 {kind = #nvvm.tcgen05_mma_kind<i8>, ctaGroup = #nvvm.cta_group<cta_2>, collectorOp = #nvvm.tcgen05_mma_collectorop<use>} : (!llvm.ptr<6>, i64, i64, i32, i1, vector<8xi32>)
  nvvm.tcgen05.mma.sp %d, %at, %b, %idesc, %e, %sp {kind = #nvvm.tcgen05_mma_kind<f8f6f4>, ctaGroup = #nvvm.cta_group<cta_1>, aShift} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>)
  nvvm.tcgen05.mma.sp %d, %at, %b, %idesc, %e, %sp mask = %m4 {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>, aShift} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, vector<4xi32>)
  nvvm.tcgen05.mma.block_scale %d, %at, %b, %idesc, %e, %sa, %sb {kind = #nvvm.block_scale_kind<mxf4nvf4>, ctaGroup = #nvvm.cta_group<cta_2>, blockScale = #nvvm.tcgen05_mma_block_scale<block16>, collectorOp = #nvvm.tcgen05_mma_collectorop<fill>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
  nvvm.tcgen05.mma.block_scale %d, %a, %b, %idesc, %e, %sa, %sb {kind = #nvvm.block_scale_kind<mxf4>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
  nvvm.tcgen05.mma.sp.block_scale %d, %at, %b, %idesc, %e, %sp, %sa, %sb {kind = #nvvm.block_scale_kind<mxf8f6f4>, ctaGroup = #nvvm.cta_group<cta_2>, blockScale = #nvvm.tcgen05_mma_block_scale<block32>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>, !llvm.ptr<6>)
  nvvm.tcgen05.mma.ws %d, %at, %b, %idesc, %e {kind = #nvvm.tcgen05_mma_kind<i8>, collectorBBuffer = #nvvm.tcgen05_mma_collectorb<b3>, collectorOp = #nvvm.tcgen05_mma_collectorop<fill>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
  nvvm.tcgen05.mma.ws.sp %d, %at, %b, %idesc, %e, %sp, %z {kind = #nvvm.tcgen05_mma_kind<tf32>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, i64)
  llvm.return
}
