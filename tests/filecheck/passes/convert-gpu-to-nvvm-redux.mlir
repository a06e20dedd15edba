// RUN: xdsl-opt %s -p convert-gpu-to-nvvm --split-input-file | filecheck %s
// RUN: not xdsl-opt %s -p 'convert-gpu-to-nvvm{has-redux=true}' --split-input-file 2>&1 | filecheck %s --check-prefix=FORCED
// RUN: xdsl-opt %S/Inputs/subgroup-reduce-launch.mlir -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa}' | filecheck %s --check-prefix=PTX90
// RUN: xdsl-opt %S/Inputs/subgroup-reduce-launch.mlir -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_75 cubin-format=isa}' | filecheck %s --check-prefix=PTX75

// gpu.subgroup_reduce on i32 becomes nvvm.redux.sync where the gpu.module's targets
// are all sm_80 or later (or with has-redux, as upstream); a shuffle tree elsewhere:
// older chips, no target, other types, clusters, non-uniform reductions.

// CHECK-LABEL: gpu.module @sm90
// CHECK:       %[[M:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:  %[[A:.*]] = nvvm.redux.sync add %{{.*}}, %[[M]] : i32 -> i32
// CHECK:       nvvm.redux.sync and %[[A]], %{{.*}} : i32 -> i32
// CHECK:       nvvm.redux.sync or
// CHECK:       nvvm.redux.sync xor
// CHECK:       nvvm.redux.sync min {{.*}} : i32 -> i32
// CHECK:       nvvm.redux.sync umin {{.*}} : i32 -> i32
// CHECK:       nvvm.redux.sync max {{.*}} : i32 -> i32
// CHECK:       nvvm.redux.sync umax {{.*}} : i32 -> i32
// CHECK-NOT:   nvvm.shfl.sync
// CHECK:       llvm.return
gpu.module @sm90 [#nvvm.target<chip = "sm_90">] {
  gpu.func @all_kinds(%i: i32, %out: memref<1xi32>) kernel {
    %a = gpu.subgroup_reduce add %i uniform : (i32) -> i32
    %b = gpu.subgroup_reduce and %a uniform : (i32) -> i32
    %c = gpu.subgroup_reduce or %b uniform : (i32) -> i32
    %d = gpu.subgroup_reduce xor %c uniform : (i32) -> i32
    %e = gpu.subgroup_reduce minsi %d uniform : (i32) -> i32
    %f = gpu.subgroup_reduce minui %e uniform : (i32) -> i32
    %g = gpu.subgroup_reduce maxsi %f uniform : (i32) -> i32
    %h = gpu.subgroup_reduce maxui %g uniform : (i32) -> i32
    %c0 = arith.constant 0 : index
    memref.store %h, %out[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// sm_80 is the first chip with redux.sync; sm_90a counts as sm_90.

// CHECK-LABEL: gpu.module @sm80
// CHECK:       nvvm.redux.sync add
// CHECK-NOT:   nvvm.shfl.sync
// CHECK-LABEL: gpu.module @sm90a
// CHECK:       nvvm.redux.sync umax
// CHECK-NOT:   nvvm.shfl.sync
// CHECK:       llvm.return
gpu.module @sm80 [#nvvm.target<chip = "sm_80">] {
  gpu.func @add(%i: i32, %out: memref<1xi32>) kernel {
    %a = gpu.subgroup_reduce add %i uniform : (i32) -> i32
    %c0 = arith.constant 0 : index
    memref.store %a, %out[%c0] : memref<1xi32>
    gpu.return
  }
}
gpu.module @sm90a [#nvvm.target<chip = "sm_90a">] {
  gpu.func @umax(%i: i32, %out: memref<1xi32>) kernel {
    %a = gpu.subgroup_reduce maxui %i uniform : (i32) -> i32
    %c0 = arith.constant 0 : index
    memref.store %a, %out[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// Older chips, a module with an older chip among its targets, and no target: the
// shuffle tree (five xor shuffles over the warp).

// CHECK-LABEL: gpu.module @sm75
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK-NOT:   nvvm.redux.sync
// CHECK-LABEL: gpu.module @mixed
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK-NOT:   nvvm.redux.sync
// CHECK-LABEL: gpu.module @untargeted
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK-NOT:   nvvm.redux.sync
// CHECK:       llvm.return

// has-redux on an older chip: the module's verifier rejects the op, at the
// subgroup_reduce it was made for, as upstream's.
// FORCED: {{.*}}convert-gpu-to-nvvm-redux.mlir:[[# @LINE + 3]]:10: error: 'nvvm.redux.sync' op is not supported on sm_75
gpu.module @sm75 [#nvvm.target<chip = "sm_75">] {
  gpu.func @add(%i: i32, %out: memref<1xi32>) kernel {
    %a = gpu.subgroup_reduce add %i uniform : (i32) -> i32
    %c0 = arith.constant 0 : index
    memref.store %a, %out[%c0] : memref<1xi32>
    gpu.return
  }
}
gpu.module @mixed [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_70">] {
  gpu.func @add(%i: i32, %out: memref<1xi32>) kernel {
    %a = gpu.subgroup_reduce add %i uniform : (i32) -> i32
    %c0 = arith.constant 0 : index
    memref.store %a, %out[%c0] : memref<1xi32>
    gpu.return
  }
}
gpu.module @untargeted {
  gpu.func @add(%i: i32, %out: memref<1xi32>) kernel {
    %a = gpu.subgroup_reduce add %i uniform : (i32) -> i32
    %c0 = arith.constant 0 : index
    memref.store %a, %out[%c0] : memref<1xi32>
    gpu.return
  }
}

// -----

// On sm_90, what redux.sync cannot do stays a shuffle tree: a non-uniform
// reduction (redux.sync's full mask needs the whole warp, as upstream), i64, f32,
// a cluster, mul.

// CHECK-LABEL: gpu.module @not_redux
// CHECK-COUNT-5: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
// CHECK-COUNT-10: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
// CHECK-COUNT-5: nvvm.shfl.sync bfly {{.*}} : f32 -> f32
// CHECK-COUNT-2: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
// CHECK-COUNT-5: nvvm.shfl.sync bfly {{.*}} : i32 -> i32
// CHECK-NOT:   nvvm.redux.sync
// CHECK:       llvm.return
gpu.module @not_redux [#nvvm.target<chip = "sm_90">] {
  gpu.func @others(%i: i32, %l: i64, %f: f32, %out: memref<5xi32>, %lout: memref<1xi64>, %fout: memref<1xf32>) kernel {
    %a = gpu.subgroup_reduce add %i : (i32) -> i32
    %b = gpu.subgroup_reduce add %l uniform : (i64) -> i64
    %c = gpu.subgroup_reduce add %f uniform : (f32) -> f32
    %d = gpu.subgroup_reduce add %i uniform cluster(size = 4) : (i32) -> i32
    %e = gpu.subgroup_reduce mul %i uniform : (i32) -> i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    memref.store %a, %out[%c0] : memref<5xi32>
    memref.store %d, %out[%c1] : memref<5xi32>
    memref.store %e, %out[%c2] : memref<5xi32>
    memref.store %b, %lout[%c0] : memref<1xi64>
    memref.store %c, %fout[%c0] : memref<1xf32>
    gpu.return
  }
}

// The PTX of a gpu.launch through upstream's pipeline: redux.sync on sm_90, the
// shuffle tree on sm_75.

// PTX90: gpu.binary @main_kernel
// PTX90-SAME: redux.sync.add.s32
// PTX90-SAME: redux.sync.min.u32
// PTX90-NOT: shfl.sync

// PTX75: gpu.binary @main_kernel
// PTX75-NOT: redux.sync
// PTX75-SAME: shfl.sync.bfly.b32
