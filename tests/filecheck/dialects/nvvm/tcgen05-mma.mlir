// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s | filecheck %s %}
// The tcgen05.mma ops print as MLIR 22 prints them (both tools are checked by the
// same lines): attributes sorted, collectorOp/blockScale/collectorBBuffer only when
// not the default, `scale =` and `mask =` before them.

// CHECK-LABEL: llvm.func @mma
llvm.func @mma(%d: !llvm.ptr<6>, %a: i64, %at: !llvm.ptr<6>, %b: i64, %idesc: i32,
               %e: i1, %s: i64, %m4: vector<4xi32>, %m8: vector<8xi32>, %sp: !llvm.ptr<6>) {
  // CHECK-NEXT: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  nvvm.tcgen05.mma %d, %a, %b, %idesc, %e {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>, collectorOp = #nvvm.tcgen05_mma_collectorop<discard>} : (!llvm.ptr<6>, i64, i64, i32, i1)
  // CHECK-NEXT: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} scale = %{{.*}} mask = %{{.*}} {aShift, collectorOp = #nvvm.tcgen05_mma_collectorop<lastuse>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<tf32>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, i64, vector<4xi32>)
  nvvm.tcgen05.mma %d, %at, %b, %idesc, %e scale = %s mask = %m4 {kind = #nvvm.tcgen05_mma_kind<tf32>, ctaGroup = #nvvm.cta_group<cta_1>, aShift, collectorOp = #nvvm.tcgen05_mma_collectorop<lastuse>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, i64, vector<4xi32>)
  // CHECK-NEXT: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} mask = %{{.*}} {ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<i8>} : (!llvm.ptr<6>, i64, i64, i32, i1, vector<8xi32>)
  nvvm.tcgen05.mma %d, %a, %b, %idesc, %e mask = %m8 {kind = #nvvm.tcgen05_mma_kind<i8>, ctaGroup = #nvvm.cta_group<cta_2>} : (!llvm.ptr<6>, i64, i64, i32, i1, vector<8xi32>)
  // CHECK-NEXT: nvvm.tcgen05.mma.sp %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} scale = %{{.*}} {ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<f8f6f4>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, i64)
  nvvm.tcgen05.mma.sp %d, %a, %b, %idesc, %e, %sp scale = %s {kind = #nvvm.tcgen05_mma_kind<f8f6f4>, ctaGroup = #nvvm.cta_group<cta_2>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, i64)
  llvm.return
}

// CHECK-LABEL: llvm.func @block_scale_and_ws
llvm.func @block_scale_and_ws(%d: !llvm.ptr<6>, %a: i64, %at: !llvm.ptr<6>, %b: i64,
    %idesc: i32, %e: i1, %sp: !llvm.ptr<6>, %sa: !llvm.ptr<6>, %sb: !llvm.ptr<6>, %z: i64) {
  // CHECK-NEXT: nvvm.tcgen05.mma.block_scale %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {blockScale = #nvvm.tcgen05_mma_block_scale<block32>, ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.block_scale_kind<mxf8f6f4>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
  nvvm.tcgen05.mma.block_scale %d, %a, %b, %idesc, %e, %sa, %sb {kind = #nvvm.block_scale_kind<mxf8f6f4>, ctaGroup = #nvvm.cta_group<cta_1>, blockScale = #nvvm.tcgen05_mma_block_scale<block32>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
  // CHECK-NEXT: nvvm.tcgen05.mma.sp.block_scale %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {blockScale = #nvvm.tcgen05_mma_block_scale<block16>, collectorOp = #nvvm.tcgen05_mma_collectorop<fill>, ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.block_scale_kind<mxf4nvf4>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>, !llvm.ptr<6>)
  nvvm.tcgen05.mma.sp.block_scale %d, %at, %b, %idesc, %e, %sp, %sa, %sb {kind = #nvvm.block_scale_kind<mxf4nvf4>, ctaGroup = #nvvm.cta_group<cta_2>, blockScale = #nvvm.tcgen05_mma_block_scale<block16>, collectorOp = #nvvm.tcgen05_mma_collectorop<fill>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>, !llvm.ptr<6>)
  // CHECK-NEXT: nvvm.tcgen05.mma.ws %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {collectorBBuffer = #nvvm.tcgen05_mma_collectorb<b1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1, i64)
  nvvm.tcgen05.mma.ws %d, %a, %b, %idesc, %e, %z {kind = #nvvm.tcgen05_mma_kind<f16>, collectorBBuffer = #nvvm.tcgen05_mma_collectorb<b1>} : (!llvm.ptr<6>, i64, i64, i32, i1, i64)
  // CHECK-NEXT: nvvm.tcgen05.mma.ws.sp %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {kind = #nvvm.tcgen05_mma_kind<tf32>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>)
  nvvm.tcgen05.mma.ws.sp %d, %at, %b, %idesc, %e, %sp {kind = #nvvm.tcgen05_mma_kind<tf32>, collectorBBuffer = #nvvm.tcgen05_mma_collectorb<b0>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>)
  llvm.return
}
