// RUN: xdsl-opt %s --verify-diagnostics --split-input-file | filecheck %s
// An nvvm op that needs a newer SM than the chip of the gpu.module's #nvvm.target is
// rejected where it stands. The `expected-error`s are MLIR 22's:
// check-target-sm-mlir-opt.mlir runs this file through mlir-opt 22 too.

// Ops the chip supports, exactly or newer, with and without a suffix; no target; an
// arch-accelerated chip also has everything of its plain SM.
// CHECK:      gpu.module @exact
// CHECK:      gpu.module @newer
// CHECK:      gpu.module @arch_accelerated
// CHECK:      gpu.module @family_is_plain
// CHECK:      gpu.module @no_target
// CHECK:      gpu.module @not_verified
// CHECK:      gpu.module @unmarked
// CHECK-NEXT:   llvm.func @k
// CHECK:      gpu.module @test_ops [#nvvm.target<chip = "sm_100a">] {
// CHECK-NEXT:   test.nvvm_requires_sm_80
// CHECK-NEXT:   test.nvvm_requires_sm_90a_or_sm_100a
// CHECK:      gpu.module @test_ops_90a
// CHECK-NEXT:   test.nvvm_requires_sm_90a
gpu.module @exact [#nvvm.target<chip = "sm_90">] {
  llvm.func @k(%v: i32) {
    %0 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    nvvm.cp.async.bulk.wait_group 1
    llvm.return
  }
}
gpu.module @newer [#nvvm.target<chip = "sm_120">] {
  llvm.func @k(%v: i32) {
    %0 = nvvm.redux.sync add %v, %v : i32 -> i32
    nvvm.cluster.wait
    llvm.return
  }
}
gpu.module @arch_accelerated [#nvvm.target<chip = "sm_90a">] {
  llvm.func @k(%v: i32) {
    nvvm.wgmma.fence.aligned
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    %0 = nvvm.read.ptx.sreg.clusterid.x : i32
    llvm.return
  }
}
gpu.module @family_is_plain [#nvvm.target<chip = "sm_90f">] {
  llvm.func @k(%v: i32) {
    %0 = nvvm.read.ptx.sreg.aggr.smem.size : i32
    llvm.return
  }
}
gpu.module @no_target {
  llvm.func @k(%v: i32) {
    nvvm.wgmma.fence.aligned
    llvm.return
  }
}
gpu.module @not_verified [#nvvm.target<chip = "sm_70", verifyTarget = false>] {
  llvm.func @k(%v: i32) {
    nvvm.wgmma.fence.aligned
    %0 = nvvm.redux.sync add %v, %v : i32 -> i32
    llvm.return
  }
}
// wgmma.mma_async itself carries no requirement in MLIR 22, nor do the cluster ids
// that it does not mark (clusterid.y, cluster.nctaid.z).
gpu.module @unmarked [#nvvm.target<chip = "sm_70">] {
  llvm.func @k(%a: i64, %b: i64, %d: !llvm.struct<(f32, f32, f32, f32)>) {
    %0 = nvvm.read.ptx.sreg.clusterid.y : i32
    %1 = nvvm.read.ptx.sreg.cluster.nctaid.z : i32
    %2 = nvvm.wgmma.mma_async %a, %b, %d, <m = 64, n = 8, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
    llvm.return
  }
}
// mlir-opt's test ops that carry nothing but a requirement (upstream tests use them).
gpu.module @test_ops [#nvvm.target<chip = "sm_100a">] {
  test.nvvm_requires_sm_80
  test.nvvm_requires_sm_90a_or_sm_100a
}
gpu.module @test_ops_90a [#nvvm.target<chip = "sm_90a">] {
  test.nvvm_requires_sm_90a
}

// -----

// CHECK: 'nvvm.wgmma.fence.aligned' op is not supported on sm_90
gpu.module @plain_sm90 [#nvvm.target<chip = "sm_90">] {
  llvm.func @k() {
    // expected-error@+1 {{'nvvm.wgmma.fence.aligned' op is not supported on sm_90}}
    nvvm.wgmma.fence.aligned
    llvm.return
  }
}

// -----

// Arch-accelerated features are of that SM only: sm_100a lacks sm_90a's.
// CHECK: 'nvvm.wgmma.commit.group.sync.aligned' op is not supported on sm_100a
gpu.module @other_accelerated [#nvvm.target<chip = "sm_100a">] {
  llvm.func @k() {
    // expected-error@+1 {{'nvvm.wgmma.commit.group.sync.aligned' op is not supported on sm_100a}}
    nvvm.wgmma.commit.group.sync.aligned
    llvm.return
  }
}

// -----

// In MLIR 22 the `f` suffix adds nothing: sm_90f is sm_90.
// CHECK: 'nvvm.wgmma.wait.group.sync.aligned' op is not supported on sm_90f
gpu.module @family [#nvvm.target<chip = "sm_90f">] {
  llvm.func @k() {
    // expected-error@+1 {{'nvvm.wgmma.wait.group.sync.aligned' op is not supported on sm_90f}}
    nvvm.wgmma.wait.group.sync.aligned 1
    llvm.return
  }
}

// -----

// CHECK: 'nvvm.cp.async.bulk.wait_group' op is not supported on sm_89
gpu.module @bulk_wait [#nvvm.target<chip = "sm_89">] {
  llvm.func @k() {
    // expected-error@+1 {{'nvvm.cp.async.bulk.wait_group' op is not supported on sm_89}}
    nvvm.cp.async.bulk.wait_group 0 {read}
    llvm.return
  }
}

// -----

// CHECK: 'nvvm.cp.async.bulk.tensor.shared.cluster.global' op is not supported on sm_80
gpu.module @tma_load [#nvvm.target<chip = "sm_80">] {
  llvm.func @k(%dst: !llvm.ptr<7>, %map: !llvm.ptr, %bar: !llvm.ptr<3>, %x: i32) {
    // expected-error@+1 {{'nvvm.cp.async.bulk.tensor.shared.cluster.global' op is not supported on sm_80}}
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x] : !llvm.ptr<7>, !llvm.ptr
    llvm.return
  }
}

// -----

// The minimum of shfl.sync is sm_30.
// CHECK: 'nvvm.shfl.sync' op is not supported on sm_21
gpu.module @shuffle [#nvvm.target<chip = "sm_21">] {
  llvm.func @k(%v: i32) {
    // expected-error@+1 {{'nvvm.shfl.sync' op is not supported on sm_21}}
    %0 = nvvm.shfl.sync bfly %v, %v, %v, %v : i32 -> i32
    llvm.return
  }
}

// -----

// Inside a gpu.func, and below other ops: the whole module is checked.
// CHECK: 'nvvm.cluster.arrive.relaxed' op is not supported on sm_86
gpu.module @nested [#nvvm.target<chip = "sm_86">] {
  gpu.func @k(%c: i1) kernel {
    scf.if %c {
      // expected-error@+1 {{'nvvm.cluster.arrive.relaxed' op is not supported on sm_86}}
      nvvm.cluster.arrive.relaxed
    }
    gpu.return
  }
}

// -----

// Only the first op that the chip does not support is reported (mlir-opt would
// report an unexpected second error).
// CHECK: 'nvvm.redux.sync' op is not supported on sm_75
gpu.module @first_only [#nvvm.target<chip = "sm_75">] {
  llvm.func @k(%v: i32) {
    // expected-error@+1 {{'nvvm.redux.sync' op is not supported on sm_75}}
    %0 = nvvm.redux.sync add %v, %v : i32 -> i32
    %1 = nvvm.redux.sync max %v, %v : i32 -> i32
    llvm.return
  }
}

// -----

// Every target is checked, in order; one with verifyTarget = false is not.
// CHECK: 'nvvm.read.ptx.sreg.cluster.nctaid.x' op is not supported on sm_80
gpu.module @second_target [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_70", verifyTarget = false>, #nvvm.target<chip = "sm_80">] {
  llvm.func @k() {
    // expected-error@+1 {{'nvvm.read.ptx.sreg.cluster.nctaid.x' op is not supported on sm_80}}
    %0 = nvvm.read.ptx.sreg.cluster.nctaid.x : i32
    llvm.return
  }
}

// -----

// A target without a chip is sm_50.
// CHECK: 'nvvm.redux.sync' op is not supported on sm_50
gpu.module @default_chip [#nvvm.target] {
  llvm.func @k(%v: i32) {
    // expected-error@+1 {{'nvvm.redux.sync' op is not supported on sm_50}}
    %0 = nvvm.redux.sync add %v, %v : i32 -> i32
    llvm.return
  }
}

// -----

// CHECK: 'test.nvvm_requires_sm_90a_or_sm_100a' op is not supported on sm_103a
gpu.module @test_op [#nvvm.target<chip = "sm_103a">] {
  test.nvvm_requires_sm_80
  // expected-error@+1 {{'test.nvvm_requires_sm_90a_or_sm_100a' op is not supported on sm_103a}}
  test.nvvm_requires_sm_90a_or_sm_100a
}
