// RUN: xdsl-opt --xdsl-gpu %s --transform-interpreter --split-input-file -canonicalize -cse | filecheck %s
// RUN: xdsl-opt %s --transform-interpreter --split-input-file -canonicalize -cse | filecheck %s

// transform.gpu.map_forall_to_blocks and map_nested_forall_to_threads: the loops
// become block and thread ids of the gpu.launch, predicated where the launch has more
// ids than the loop uses; the output is mlir-opt-22's (with the same pipeline).

// Blocks of an existing launch: 2 of the 4 grid columns do work.
// CHECK-LABEL: func.func @blocks(
// CHECK-SAME:      %[[A:.*]]: memref<4x6xf32>
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C4]], %{{.*}} = %[[C6]], %{{.*}} = %[[C1]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C1]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]])
// CHECK-NEXT:      %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT:      %[[BY:.*]] = gpu.block_id y
// CHECK-NEXT:      %[[P:.*]] = arith.cmpi ult, %[[BX]], %[[C2]] : index
// CHECK-NEXT:      scf.if %[[P]] {
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[A]][%[[BX]], %[[BY]]]
// CHECK-NEXT:        memref.store %[[V]], %[[A]][%[[BY]], %[[BX]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.terminator
func.func @blocks(%a: memref<4x6xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.forall (%i, %j) in (2, 6) {
      %v = memref.load %a[%i, %j] : memref<4x6xf32>
      memref.store %v, %a[%j, %i] : memref<4x6xf32>
    } {mapping = [#gpu.block<x>, #gpu.block<y>]}
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_forall_to_blocks %l grid_dims = [4, 6, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A new launch around blocks and threads (the handle of the first op is the launch);
// the 8x4 thread loop fills the block: no predicate; a barrier after it.
// CHECK-LABEL: func.func @launch(
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C16]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C8]], %{{.*}} = %[[C4]], %{{.*}} = %[[C1]])
// CHECK-NEXT:      %[[B:.*]] = gpu.block_id x
// CHECK-NEXT:      %[[TX:.*]] = gpu.thread_id x
// CHECK-NEXT:      %[[TY:.*]] = gpu.thread_id y
// CHECK-NEXT:      memref.load %{{.*}}[%[[B]], %[[TX]], %[[TY]]]
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      gpu.terminator
func.func @launch(%a: memref<16x8x4xf32>) {
  scf.forall (%b) in (16) {
    scf.forall (%i, %j) in (8, 4) {
      %v = memref.load %a[%b, %i, %j] : memref<16x8x4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%b, %i, %j] : memref<16x8x4xf32>
    } {mapping = [#gpu.thread<x>, #gpu.thread<y>]}
  } {mapping = [#gpu.block<x>]}
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.gpu.map_forall_to_blocks %f generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %l block_dims = [8, 4, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Warps along x (3-D mapping, warp_size = 16): thread_id x floordiv 16; 2 of the 3
// rows of threads work; no barrier.
// CHECK-DAG:   #[[$W:.*]] = affine_map<()[s0] -> (s0 floordiv 16)>
// CHECK-LABEL: func.func @warps(
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[TX:.*]] = gpu.thread_id x
// CHECK-NEXT:      %[[TY:.*]] = gpu.thread_id y
// CHECK-NEXT:      %[[W:.*]] = affine.apply #[[$W]]()[%[[TX]]]
// CHECK-NEXT:      %[[P:.*]] = arith.cmpi ult, %[[TY]], %[[C2]] : index
// CHECK-NEXT:      scf.if %[[P]] {
// CHECK-NEXT:        memref.load %{{.*}}[%[[W]], %[[TY]]]
// CHECK:           }
// CHECK-NEXT:      gpu.terminator
func.func @warps(%a: memref<8x8xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.forall (%i, %j) in (4, 2) {
      %v = memref.load %a[%i, %j] : memref<8x8xf32>
      memref.store %v, %a[%j, %i] : memref<8x8xf32>
    } {mapping = [#gpu.warp<x>, #gpu.warp<y>]}
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %l block_dims = [64, 3, 1] sync_after_distribute = false warp_size = 16 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Linear thread mapping: the linear thread id (z is 0: the block is 4x4x1)
// delinearized over (5, 3), linear_dim_0 fastest; 15 of the 16 threads work.
// CHECK-DAG:   #[[$LIN:.*]] = affine_map<()[s0, s1] -> (s0 + s1 * 4)>
// CHECK-DAG:   #[[$I:.*]] = affine_map<()[s0, s1] -> ((s0 + s1 * 4) mod 5)>
// CHECK-DAG:   #[[$J:.*]] = affine_map<()[s0, s1] -> ((s0 + s1 * 4) floordiv 5)>
// CHECK-LABEL: func.func @linear(
// CHECK-DAG:     %[[C15:.*]] = arith.constant 15 : index
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[TX:.*]] = gpu.thread_id x
// CHECK-NEXT:      %[[TY:.*]] = gpu.thread_id y
// CHECK-NEXT:      %[[L:.*]] = affine.apply #[[$LIN]]()[%[[TX]], %[[TY]]]
// CHECK-NEXT:      %[[I:.*]] = affine.apply #[[$I]]()[%[[TX]], %[[TY]]]
// CHECK-NEXT:      %[[J:.*]] = affine.apply #[[$J]]()[%[[TX]], %[[TY]]]
// CHECK-NEXT:      %[[P:.*]] = arith.cmpi ult, %[[L]], %[[C15]] : index
// CHECK-NEXT:      scf.if %[[P]] {
// CHECK-NEXT:        %[[V:.*]] = memref.load %{{.*}}[%[[I]]]
// CHECK-NEXT:        memref.store %[[V]], %{{.*}}[%[[J]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
func.func @linear(%a: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.forall (%i, %j) in (5, 3) {
      %v = memref.load %a[%i] : memref<16xf32>
      memref.store %v, %a[%j] : memref<16xf32>
    } {mapping = [#gpu.thread<linear_dim_0>, #gpu.thread<linear_dim_1>]}
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %l block_dims = [4, 4, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Lanes: the lane id (linear thread id mod 32) delinearized over (2, 3).
// CHECK-DAG:   #[[$LANE:.*]] = affine_map<()[s0, s1] -> ((s0 + s1 * 40) mod 32)>
// CHECK-LABEL: func.func @lanes(
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK:         %[[LANE:.*]] = affine.apply #[[$LANE]]()
// CHECK:         arith.cmpi ult, %[[LANE]], %[[C6]] : index
func.func @lanes(%a: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.forall (%i, %j) in (2, 3) {
      %v = memref.load %a[%i] : memref<16xf32>
      memref.store %v, %a[%j] : memref<16xf32>
    } {mapping = [#gpu.lane<linear_dim_0>, #gpu.lane<linear_dim_1>]}
    gpu.terminator
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_nested_forall_to_threads %l block_dims = [40, 2, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A masked linear warp mapping: of the 4 warps of the block, those whose bit of
// 0xb is set work (3), numbered by the set bits below them.
// CHECK-DAG:   #[[$WARP:.*]] = affine_map<()[s0, s1] -> (s1 * 2 + s0 floordiv 32)>
// CHECK-LABEL: func.func @masked(
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[MASK:.*]] = arith.constant 11 : i64
// CHECK:         %[[W:.*]] = affine.apply #[[$WARP]]()
// CHECK-NEXT:    %[[W64:.*]] = arith.index_castui %[[W]] : index to i64
// CHECK-NEXT:    %[[BIT:.*]] = arith.shli %[[ONE]], %[[W64]] : i64
// CHECK-NEXT:    %[[BELOW:.*]] = arith.subi %[[BIT]], %[[ONE]] : i64
// CHECK-NEXT:    %[[ACTIVE_BELOW:.*]] = arith.andi %[[BELOW]], %[[MASK]] : i64
// CHECK-NEXT:    %[[LOGICAL64:.*]] = math.ctpop %[[ACTIVE_BELOW]] : i64
// CHECK-NEXT:    %[[LOGICAL:.*]] = arith.index_castui %[[LOGICAL64]] : i64 to index
// CHECK-NEXT:    %[[MINE:.*]] = arith.andi %[[BIT]], %[[MASK]] : i64
// CHECK-NEXT:    %[[ACTIVE:.*]] = arith.cmpi ne, %[[MINE]], %[[ZERO]] : i64
// CHECK-NEXT:    scf.if %[[ACTIVE]] {
// CHECK-NEXT:      memref.load %{{.*}}[%[[LOGICAL]]]
func.func @masked(%a: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.forall (%i) in (3) {
      %v = memref.load %a[%i] : memref<8xf32>
      memref.store %v, %a[%i] : memref<8xf32>
    } {mapping = [#gpu.warp<linear_dim_0>, #gpu.mask<0xb>]}
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
