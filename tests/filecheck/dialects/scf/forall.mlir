// RUN: xdsl-opt %s --xdsl-gpu --split-input-file | filecheck %s
// RUN: xdsl-opt %s --xdsl-gpu --print-op-generic --split-input-file | xdsl-opt --xdsl-gpu --split-input-file | filecheck %s
// RUN: xdsl-opt %s --split-input-file | filecheck %s

// scf.forall in MLIR 22's custom form (xDSL 0.74 has no scf.forall: a program that
// uses it runs with xdsl-gpu's scf dialect without --xdsl-gpu): constant and value
// bounds, the normalized `in` form, shared_outs with an explicit in_parallel, the
// mapping attribute.

// CHECK-LABEL: func.func @normalized
// CHECK:       scf.forall (%{{.*}}, %{{.*}}) in (%{{.*}}, 9) {
// CHECK-NEXT:    "test.op"
// CHECK-NEXT:  } {mapping = [#gpu.block<x>, #gpu.thread<linear_dim_3>]}
func.func @normalized(%n: index) {
  scf.forall (%i, %j) in (%n, 9) {
    "test.op"(%i, %j) : (index, index) -> ()
  } {mapping = [#gpu.block<x>, #gpu.thread<linear_dim_3>]}
  return
}

// -----

// CHECK-LABEL: func.func @bounds
// CHECK:       scf.forall (%{{.*}}) = (1) to (%{{.*}}) step (2) {
// CHECK-NEXT:  }
// A lower bound 0 and a step 1 print in the `in` form.
// CHECK:       scf.forall (%{{.*}}) in (8) {
func.func @bounds(%n: index) {
  scf.forall (%i) = (1) to (%n) step (2) {
  }
  scf.forall (%i) = (0) to (8) step (1) {
  }
  return
}

// -----

// CHECK-LABEL: func.func @shared_outs
// CHECK:       %{{.*}} = scf.forall (%{{.*}}) in (4) shared_outs(%[[O:.*]] = %{{.*}}) -> (tensor<8xf32>) {
// CHECK-NEXT:    scf.forall.in_parallel {
// CHECK-NEXT:    }
// CHECK-NEXT:  }
func.func @shared_outs(%t: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
    }
  }
  return %r : tensor<8xf32>
}
