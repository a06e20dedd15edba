// RUN: xdsl-opt --xdsl-gpu %s --transform-interpreter --split-input-file --verify-diagnostics | filecheck %s
// RUN: not xdsl-opt %s --transform-interpreter --split-input-file 2>&1 | filecheck %s --check-prefix=EXIT

// transform.gpu.map_forall_to_blocks and map_nested_forall_to_threads refuse what
// MLIR 22 refuses, with its messages (checked against mlir-opt-22).

// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:20:5: error: Given target is not gpu.launch, set `generate_gpu_launch` attribute
// EXIT:      note: when applied to this payload op: func.func
// EXIT-NOT:  Traceback

func.func @not_a_launch(%a: memref<4xf32>) {
  scf.forall (%i) in (4) {
  } {mapping = [#gpu.block<x>]}
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_forall_to_blocks %f grid_dims = [4, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// CHECK: Given target is not gpu.launch, set `generate_gpu_launch` attribute

// -----

func.func @threads_need_a_launch(%a: memref<4xf32>) {
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %f block_dims = [4, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// CHECK: Given target is not a gpu.launch

// -----

func.func @two_top_level_loops() {
  scf.forall (%i) in (4) {
  } {mapping = [#gpu.block<x>]}
  scf.forall (%i) in (4) {
  } {mapping = [#gpu.block<x>]}
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_forall_to_blocks %f generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// CHECK: could not find a unique topLevel scf.forall

// -----

func.func @too_many_threads() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.forall (%i, %j) in (8, 8) {
    } {mapping = [#gpu.thread<x>, #gpu.thread<y>]}
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %l block_dims = [4, 8, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// CHECK: the number of required parallel resources (blocks or threads) 64 overflows the number of available resources 32

// -----

func.func @block_too_large() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %l block_dims = [2048, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// CHECK: Trying to launch a GPU kernel with grid_dims = (1, 1, 1) block_dims = (2048, 1, 1). It is larger than the limits.

// -----

func.func @mixed_kinds() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.forall (%i, %j) in (2, 2) {
    } {mapping = [#gpu.thread<x>, #gpu.warp<y>]}
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %l block_dims = [64, 2, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// CHECK: cannot mix different mapping types, use nesting

// -----

func.func @warps_need_whole_warps() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.forall (%i) in (2) {
    } {mapping = [#gpu.warp<x>]}
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %l block_dims = [48, 2, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// CHECK: 3-D mapping: size of threadIdx.x must be a multiple of 32

// -----

func.func @no_mapping() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.forall (%i) in (2) {
    }
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %l block_dims = [32, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// CHECK: scf.forall op requires a mapping attribute

// -----

func.func @grid_dims_of_two() {
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_forall_to_blocks %f grid_dims = [4, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// CHECK: transform requires empty or size-3 grid_dims

// -----

func.func @mask_too_short() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.forall (%i) in (4) {
    } {mapping = [#gpu.thread<linear_dim_0>, #gpu.mask<0xf>]}
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %l block_dims = [128, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// CHECK: mask representation too short to capture all physical ids: 64

// -----

func.func @mask_needs_linear() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.forall (%i) in (4) {
    } {mapping = [#gpu.thread<x>, #gpu.mask<0xf>]}
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %l block_dims = [32, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// CHECK: device masking is only available in linear mapping mode
