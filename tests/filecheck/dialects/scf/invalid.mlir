// RUN: xdsl-opt %s --xdsl-gpu --parsing-diagnostics --split-input-file | filecheck %s
// RUN: xdsl-opt %s --parsing-diagnostics --split-input-file | filecheck %s

// scf.parallel's custom form with its parts miscounted: located errors, in runs
// with xdsl-gpu's dialects and with xDSL's own (mlir-opt-22 says "expected 2
// operands" and "number of operands and types do not match").

func.func @bounds(%lb: index, %ub: index, %s: index) {
  scf.parallel (%i, %j) = (%lb) to (%ub, %ub) step (%s, %s) {
  }
  return
}
// CHECK: expected 2 lower bounds, one per induction variable, got 1

// -----

func.func @steps(%lb: index, %ub: index, %s: index) {
  scf.parallel (%i) = (%lb) to (%ub) step (%s, %s) {
  }
  return
}
// CHECK: expected 1 step, one per induction variable, got 2

// -----

func.func @init_without_type(%lb: index, %ub: index, %s: index, %x: f32) {
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) {
  }
  return
}
// CHECK: expected one result type after '->' per value of 'init (...)': got 1 values and 0 types

// -----

func.func @reduce_types(%lb: index, %ub: index, %s: index, %x: f32) {
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> f32 {
    scf.reduce(%x, %x : f32) {
    ^bb0(%a: f32, %b: f32):
      scf.reduce.return %a : f32
    }
  }
  return
}
// CHECK: expected one type per reduced value: got 2 values and 1 types
