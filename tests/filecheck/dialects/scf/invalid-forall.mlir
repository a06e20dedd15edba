// RUN: xdsl-opt %s --xdsl-gpu --split-input-file --verify-diagnostics | filecheck %s

// scf.forall's verifier: upstream's messages.

func.func @mapping_rank(%n: index) {
  scf.forall (%i, %j) in (%n, 9) {
  } {mapping = [#gpu.block<x>]}
  return
}

// CHECK: mapping attribute size must match op rank

// -----

func.func @generic_bounds() {
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 4, 4>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index):
    scf.forall.in_parallel {
    }
  }) : () -> ()
  return
}

// CHECK: expected 1 upper bound values, got 2

// -----

func.func @not_index() {
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 4>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: i32):
    scf.forall.in_parallel {
    }
  }) : () -> ()
  return
}

// CHECK: expects 0-th block argument to be an index

// -----

func.func @in_parallel_content(%t: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
      "test.op"() : () -> ()
    }
  }
  return %r : tensor<8xf32>
}

// CHECK: expected only ParallelCombiningOpInterface ops (found 'test.op'
