// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --split-input-file --verify-diagnostics %}
// The `expected-error`s are MLIR 22's (the second RUN line checks them with
// mlir-opt 22); the CHECK lines are ours.

// CHECK: Disable Output Lane of length 8 is incompatible with CtaGroupAttr
llvm.func @a(%d: !llvm.ptr<6>, %at: !llvm.ptr<6>, %b: i64, %idesc: i32, %e: i1, %m8: vector<8xi32>) {
  // expected-error @below {{Disable Output Lane of length 8 is incompatible with CtaGroupAttr}}
  nvvm.tcgen05.mma %d, %at, %b, %idesc, %e mask = %m8 {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, vector<8xi32>)
  llvm.return
}

// -----

// CHECK: Disable Output Lane of length 4 is incompatible with CtaGroupAttr
llvm.func @a2(%d: !llvm.ptr<6>, %at: !llvm.ptr<6>, %b: i64, %idesc: i32, %e: i1, %m4: vector<4xi32>) {
  // expected-error @below {{Disable Output Lane of length 4 is incompatible with CtaGroupAttr}}
  nvvm.tcgen05.mma %d, %at, %b, %idesc, %e mask = %m4 {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_2>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, vector<4xi32>)
  llvm.return
}

// -----

// CHECK: A-shift can be applied only when matrix A is in tensor memory
llvm.func @b(%d: !llvm.ptr<6>, %a: i64, %b: i64, %idesc: i32, %e: i1) {
  // expected-error @below {{A-shift can be applied only when matrix A is in tensor memory}}
  nvvm.tcgen05.mma %d, %a, %b, %idesc, %e {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>, aShift} : (!llvm.ptr<6>, i64, i64, i32, i1)
  llvm.return
}

// -----

// CHECK: Cannot use collector buffer operation fill or use with ashift
llvm.func @c(%d: !llvm.ptr<6>, %at: !llvm.ptr<6>, %b: i64, %idesc: i32, %e: i1) {
  // expected-error @below {{Cannot use collector buffer operation fill or use with ashift}}
  nvvm.tcgen05.mma %d, %at, %b, %idesc, %e {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>, collectorOp = #nvvm.tcgen05_mma_collectorop<use>, aShift} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
  llvm.return
}

// -----

// CHECK: mxf4nvf4 requires block scale attribute
llvm.func @d(%d: !llvm.ptr<6>, %at: !llvm.ptr<6>, %b: i64, %idesc: i32, %e: i1, %sa: !llvm.ptr<6>, %sb: !llvm.ptr<6>) {
  // expected-error @below {{mxf4nvf4 requires block scale attribute}}
  nvvm.tcgen05.mma.block_scale %d, %at, %b, %idesc, %e, %sa, %sb {kind = #nvvm.block_scale_kind<mxf4nvf4>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
  llvm.return
}

// -----

// CHECK: mxf4 kind does not support block16 attribute
llvm.func @e(%d: !llvm.ptr<6>, %at: !llvm.ptr<6>, %b: i64, %idesc: i32, %e: i1, %sa: !llvm.ptr<6>, %sb: !llvm.ptr<6>) {
  // expected-error @below {{mxf4 kind does not support block16 attribute}}
  nvvm.tcgen05.mma.block_scale %d, %at, %b, %idesc, %e, %sa, %sb {kind = #nvvm.block_scale_kind<mxf4>, ctaGroup = #nvvm.cta_group<cta_1>, blockScale = #nvvm.tcgen05_mma_block_scale<block16>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
  llvm.return
}

// -----

// CHECK: mxf8f6f4 kind does not support block16 attribute
llvm.func @f(%d: !llvm.ptr<6>, %at: !llvm.ptr<6>, %b: i64, %idesc: i32, %e: i1, %sa: !llvm.ptr<6>, %sb: !llvm.ptr<6>) {
  // expected-error @below {{mxf8f6f4 kind does not support block16 attribute}}
  nvvm.tcgen05.mma.block_scale %d, %at, %b, %idesc, %e, %sa, %sb {kind = #nvvm.block_scale_kind<mxf8f6f4>, ctaGroup = #nvvm.cta_group<cta_1>, blockScale = #nvvm.tcgen05_mma_block_scale<block16>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
  llvm.return
}

// -----

// The tcgen05.mma ops need sm_100a or sm_110a.
// CHECK: 'nvvm.tcgen05.mma.ws' op is not supported on sm_101a
gpu.module @ws_sm101a [#nvvm.target<chip = "sm_101a">] {
  llvm.func @k(%d: !llvm.ptr<6>, %a: i64, %b: i64, %idesc: i32, %e: i1) {
    // expected-error @below {{'nvvm.tcgen05.mma.ws' op is not supported on sm_101a}}
    nvvm.tcgen05.mma.ws %d, %a, %b, %idesc, %e {kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
    llvm.return
  }
}

// -----

// CHECK: gpu.module @mma_sm110a
gpu.module @mma_sm110a [#nvvm.target<chip = "sm_110a">] {
  llvm.func @k(%d: !llvm.ptr<6>, %a: i64, %b: i64, %idesc: i32, %e: i1) {
    nvvm.tcgen05.mma %d, %a, %b, %idesc, %e {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
    llvm.return
  }
}
