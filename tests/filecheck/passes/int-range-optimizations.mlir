// RUN: xdsl-opt %s --split-input-file -p int-range-optimizations | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt-22 %s --split-input-file -int-range-optimizations | filecheck %s %}

// Every chunk is checked against mlir-opt-22 too: these are MLIR 22's answers.

// A kernel's known block size makes block_dim a constant and bounds thread_id;
// comparisons the bounds decide become constants.

// CHECK-LABEL: gpu.func @known_sizes
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:    test.reflect_bounds {smax = 63 : index, smin = 0 : index, umax = 63 : index, umin = 0 : index} %[[TID]] : index
// CHECK-NEXT:    test.reflect_bounds {smax = 64 : index, smin = 64 : index, umax = 64 : index, umin = 64 : index} %[[C64]] : index
// CHECK-NEXT:    gpu.printf "%d %d", %[[TRUE]], %[[TID]] : i1, index
gpu.module @m {
  gpu.func @known_sizes() kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %r0 = test.reflect_bounds %tid : index
    %bdim = gpu.block_dim x
    %r1 = test.reflect_bounds %bdim : index
    %lt = arith.cmpi ult, %tid, %bdim : index
    %c64 = arith.constant 64 : index
    %rem = arith.remui %tid, %c64 : index
    gpu.printf "%d %d", %lt, %rem : i1, index
    gpu.return
  }
}

// -----

// upper_bound on the op; no bounds at all: the hardware limits (2^32 - 1 blocks
// or threads per dimension, subgroups of at most 128).

// CHECK-LABEL: func.func @local_bounds
// CHECK: test.reflect_bounds {smax = 15 : index, smin = 0 : index, umax = 15 : index, umin = 0 : index}
// CHECK: test.reflect_bounds {smax = 4294967294 : index, smin = 0 : index, umax = 4294967294 : index, umin = 0 : index}
// CHECK: test.reflect_bounds {smax = 127 : index, smin = 0 : index, umax = 127 : index, umin = 0 : index}
// CHECK: test.reflect_bounds {smax = 4294967295 : index, smin = 1 : index, umax = 4294967295 : index, umin = 1 : index}
func.func @local_bounds() {
  %0 = gpu.block_id y upper_bound 16
  %1 = test.reflect_bounds %0 : index
  %2 = gpu.block_id y
  %3 = test.reflect_bounds %2 : index
  %4 = gpu.lane_id
  %5 = test.reflect_bounds %4 : index
  %6 = gpu.grid_dim z
  %7 = test.reflect_bounds %6 : index
  return
}

// -----

// gpu.known_grid_size on a func.func; an affine thread index computation.

// CHECK-LABEL: func.func @linear_id
// CHECK: test.reflect_bounds {smax = 7 : index, smin = 0 : index, umax = 7 : index, umin = 0 : index}
// CHECK: test.reflect_bounds {smax = 263 : index, smin = 8 : index, umax = 263 : index, umin = 8 : index}
func.func @linear_id() attributes {gpu.known_grid_size = array<i32: 8, 1, 1>} {
  %bid = gpu.block_id x
  %r = test.reflect_bounds %bid : index
  %tid = gpu.thread_id x upper_bound 32
  %c32 = arith.constant 32 : index
  %m = arith.muli %bid, %c32 : index
  %a = arith.addi %m, %tid : index
  %c8 = arith.constant 8 : index
  %b = arith.addi %a, %c8 : index
  %rb = test.reflect_bounds %b : index
  return
}

// -----

// nvvm special registers: the `range` attribute gives the bounds (both ends
// taken as they are); without one nothing is known and test.reflect_bounds stays
// bare. A block argument of an llvm.func gets an llvm.mlir.constant.

// CHECK-LABEL: llvm.func @sregs
// CHECK:       %[[C5:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK:       %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 32> : i32
// CHECK-NEXT:  test.reflect_bounds {smax = 32 : si32, smin = 0 : si32, umax = 32 : ui32, umin = 0 : ui32} %[[TID]] : i32
// CHECK:       %[[NT:.*]] = nvvm.read.ptx.sreg.ntid.x : i32
// CHECK-NEXT:  test.reflect_bounds %[[NT]] : i32
// CHECK:       ^bb1:
// CHECK-NEXT:  llvm.return %[[C5]] : i32
llvm.func @sregs() -> i32 {
  %tid = nvvm.read.ptx.sreg.tid.x range <i32, 0, 32> : i32
  %r0 = test.reflect_bounds %tid : i32
  %nt = nvvm.read.ptx.sreg.ntid.x : i32
  %r1 = test.reflect_bounds %nt : i32
  %c5 = arith.constant 5 : i32
  llvm.br ^bb1(%c5 : i32)
^bb1(%x: i32):
  llvm.return %x : i32
}

// -----

// Loops: the induction variable from the bounds, a loop-carried value that
// changes every iteration from the whole range, one that never does stays known.

// CHECK-LABEL: func.func @loop
// CHECK:         %[[C3:.*]] = arith.constant 3 : i32
// CHECK:         scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %{{.*}} = %[[C3]])
// CHECK-NEXT:      test.reflect_bounds {smax = 9 : index, smin = 2 : index, umax = 9 : index, umin = 2 : index} %[[IV]] : index
// CHECK-NEXT:      test.reflect_bounds {smax = 9223372036854775807 : index, smin = -9223372036854775808 : index, umax = -1 : index, umin = 0 : index} %[[ACC]] : index
// CHECK-NEXT:      test.reflect_bounds {smax = 3 : si32, smin = 3 : si32, umax = 3 : ui32, umin = 3 : ui32} %[[C3]] : i32
// CHECK:         return %{{.*}}, %[[C3]] : index, i32
func.func @loop() -> (index, i32) {
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : i32
  %r:2 = scf.for %i = %c2 to %c10 step %c1 iter_args(%acc = %c2, %k = %c3) -> (index, i32) {
    %ri = test.reflect_bounds %i : index
    %ra = test.reflect_bounds %acc : index
    %rk = test.reflect_bounds %k : i32
    %s = arith.addi %acc, %i : index
    scf.yield %s, %k : index, i32
  }
  return %r#0, %r#1 : index, i32
}

// -----

// gpu.launch: ids below the sizes passed to it; a constant size also bounds
// gpu.thread_id inside.

// CHECK-LABEL: func.func @launch
// CHECK: test.reflect_bounds {smax = 127 : index, smin = 0 : index, umax = 127 : index, umin = 0 : index}
// CHECK: test.reflect_bounds {smax = 127 : index, smin = 0 : index, umax = 127 : index, umin = 0 : index}
// CHECK: test.reflect_bounds {smax = 4294967295 : index, smin = 1 : index, umax = 4294967295 : index, umin = 1 : index}
func.func @launch(%n: index) {
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %n, %sz = %n) {
    %0 = test.reflect_bounds %tx : index
    %tid = gpu.thread_id x
    %1 = test.reflect_bounds %tid : index
    %2 = test.reflect_bounds %gx : index
    gpu.terminator
  }
  return
}

// -----

// Clusters: known_cluster_size, else MLIR 22's limit of 8 blocks per dimension.

// CHECK-LABEL: gpu.func @clusters
// CHECK: test.reflect_bounds {smax = 3 : index, smin = 0 : index, umax = 3 : index, umin = 0 : index}
// CHECK: test.reflect_bounds {smax = 4 : index, smin = 4 : index, umax = 4 : index, umin = 4 : index}
// CHECK-LABEL: gpu.func @no_cluster_size
// CHECK: test.reflect_bounds {smax = 7 : index, smin = 0 : index, umax = 7 : index, umin = 0 : index}
// CHECK: test.reflect_bounds {smax = 8 : index, smin = 1 : index, umax = 8 : index, umin = 1 : index}
gpu.module @c {
  gpu.func @clusters() kernel attributes {known_cluster_size = array<i32: 4, 2, 1>} {
    %0 = gpu.cluster_block_id x
    %1 = test.reflect_bounds %0 : index
    %2 = gpu.cluster_dim_blocks x
    %3 = test.reflect_bounds %2 : index
    gpu.return
  }
  gpu.func @no_cluster_size() kernel {
    %0 = gpu.cluster_block_id x
    %1 = test.reflect_bounds %0 : index
    %2 = gpu.cluster_dim_blocks x
    %3 = test.reflect_bounds %2 : index
    gpu.return
  }
}

// -----

// The index dialect: what its ops prove becomes index.constant and
// index.bool.constant; an i32 result gets an arith.constant.

// CHECK-LABEL: func.func @index_ops
// CHECK-DAG:     %[[I32:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[FALSE:.*]] = index.bool.constant false
// CHECK-DAG:     %[[IDX:.*]] = index.constant 4
// CHECK:         return %[[IDX]], %[[FALSE]], %[[I32]] : index, i1, i32
func.func @index_ops() -> (index, i1, i32) {
  %a = index.constant 3
  %b = index.constant 4
  %bd = gpu.block_dim x upper_bound 1
  %c = index.add %a, %bd
  %d = index.cmp slt(%c, %b)
  %e = index.casts %c : index to i32
  return %c, %d, %e : index, i1, i32
}

// -----

// Dead code: a branch a known condition rules out adds nothing.

// CHECK-LABEL: func.func @dead_code
// CHECK: test.reflect_bounds {smax = 1 : index, smin = 1 : index, umax = 1 : index, umin = 1 : index}
// CHECK: test.reflect_bounds {smax = 1 : index, smin = 1 : index, umax = 1 : index, umin = 1 : index}
// CHECK: test.reflect_bounds {smax = 2 : index, smin = 2 : index, umax = 2 : index, umin = 2 : index}
func.func @dead_code() -> index {
  %true = arith.constant true
  %false = arith.constant false
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.if %true -> (index) {
    scf.yield %c1 : index
  } else {
    scf.yield %c2 : index
  }
  %0 = test.reflect_bounds %r : index
  %w = scf.while (%a = %c1) : (index) -> index {
    scf.condition(%false) %a : index
  } do {
  ^bb0(%b: index):
    %b2 = arith.addi %b, %c1 : index
    scf.yield %b2 : index
  }
  %1 = test.reflect_bounds %w : index
  cf.cond_br %false, ^bb1(%c1 : index), ^bb2(%c2 : index)
^bb1(%x: index):
  cf.br ^bb2(%x : index)
^bb2(%y: index):
  %2 = test.reflect_bounds %y : index
  return %2 : index
}

// -----

// Vectors share one range for their elements; a single value becomes a splat.
// memref.dim: a dynamic size is non-negative, a static one a constant.

// CHECK-LABEL: func.func @shaped
// CHECK-DAG:     %[[SIX:.*]] = arith.constant dense<6> : vector<4xi32>
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK:         test.reflect_bounds {smax = 7 : si32, smin = 4 : si32, umax = 7 : ui32, umin = 4 : ui32}
// CHECK:         test.reflect_bounds {smax = 9223372036854775807 : index, smin = 0 : index, umax = 9223372036854775807 : index, umin = 0 : index}
// CHECK:         return %[[SIX]], %[[C5]] : vector<4xi32>, index
func.func @shaped(%m: memref<?x5xf32>) -> (vector<4xi32>, index) {
  %c = arith.constant dense<3> : vector<4xi32>
  %d = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %a = arith.addi %c, %c : vector<4xi32>
  %b = arith.addi %d, %c : vector<4xi32>
  %r = test.reflect_bounds %b : vector<4xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dyn = memref.dim %m, %c0 : memref<?x5xf32>
  %rd = test.reflect_bounds %dyn : index
  %static = memref.dim %m, %c1 : memref<?x5xf32>
  return %a, %static : vector<4xi32>, index
}

// -----

// Vector ops that keep or combine their operands' elements; vector.step.

// CHECK-LABEL: func.func @vector_ops
// CHECK: test.reflect_bounds {smax = 9 : si32, smin = 7 : si32, umax = 9 : ui32, umin = 7 : ui32}
// CHECK: test.reflect_bounds {smax = 9 : si32, smin = 7 : si32, umax = 9 : ui32, umin = 7 : ui32}
// CHECK: test.reflect_bounds {smax = 15 : index, smin = 0 : index, umax = 15 : index, umin = 0 : index}
func.func @vector_ops(%idx: index) {
  %c = arith.constant 7 : i32
  %d = arith.constant 9 : i32
  %b = vector.broadcast %c : i32 to vector<4xi32>
  %i = vector.insert %d, %b[1] : i32 into vector<4xi32>
  %0 = test.reflect_bounds %i : vector<4xi32>
  %s = vector.shape_cast %i : vector<4xi32> to vector<2x2xi32>
  %t = vector.transpose %s, [1, 0] : vector<2x2xi32> to vector<2x2xi32>
  %e = vector.extract %t[%idx, 0] : i32 from vector<2x2xi32>
  %1 = test.reflect_bounds %e : i32
  %st = vector.step : vector<16xindex>
  %2 = test.reflect_bounds %st : vector<16xindex>
  return
}

// -----

// Calls: a call gets what its callee returns; a private function that only calls
// reach takes its arguments from them, and one nothing calls is not analysed.

// CHECK-LABEL: func.func private @callee
// CHECK:         test.reflect_bounds {smax = 5 : index, smin = 3 : index, umax = 5 : index, umin = 3 : index}
// CHECK-LABEL: func.func @caller
// CHECK:         test.reflect_bounds {smax = 5 : index, smin = 3 : index, umax = 5 : index, umin = 3 : index}
// CHECK:         test.reflect_bounds {smax = 4 : index, smin = 4 : index, umax = 4 : index, umin = 4 : index}
// CHECK-LABEL: func.func private @never_called
// CHECK:         test.reflect_bounds %{{.*}} : index
func.func private @callee(%a: index) -> index {
  %0 = test.reflect_bounds %a : index
  return %0 : index
}
func.func @four(%a: index) -> index {
  %c4 = arith.constant 4 : index
  return %c4 : index
}
func.func @caller() -> (index, index) {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %r = func.call @callee(%c3) : (index) -> index
  %s = func.call @callee(%c5) : (index) -> index
  %rr = test.reflect_bounds %r : index
  %f = func.call @four(%c3) : (index) -> index
  %ff = test.reflect_bounds %f : index
  return %rr, %ff : index, index
}
func.func private @never_called(%a: index) -> index {
  %0 = test.reflect_bounds %a : index
  return %0 : index
}

// -----

// scf.index_switch on a known value runs that case only.

// CHECK-LABEL: func.func @switch
// CHECK: test.reflect_bounds {smax = 5 : index, smin = 5 : index, umax = 5 : index, umin = 5 : index}
// CHECK: test.reflect_bounds {smax = 5 : index, smin = 1 : index, umax = 5 : index, umin = 1 : index}
func.func @switch(%x: index) -> (index, index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %r = scf.index_switch %c2 -> index
  case 1 {
    scf.yield %c1 : index
  }
  case 2 {
    scf.yield %c5 : index
  }
  default {
    scf.yield %c2 : index
  }
  %rr = test.reflect_bounds %r : index
  %s = scf.index_switch %x -> index
  case 1 {
    scf.yield %c1 : index
  }
  default {
    scf.yield %c5 : index
  }
  %ss = test.reflect_bounds %s : index
  return %rr, %ss : index, index
}

// -----

// An scf.if whose result is known is erased with everything in it.

// CHECK-LABEL: func.func @erased_if
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    return %[[C1]] : index
func.func @erased_if(%b: i1) -> index {
  %c1 = arith.constant 1 : index
  %r = scf.if %b -> (index) {
    %x = arith.addi %c1, %c1 : index
    %y = arith.subi %x, %c1 : index
    scf.yield %y : index
  } else {
    scf.yield %c1 : index
  }
  return %r : index
}
