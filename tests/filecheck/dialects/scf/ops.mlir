// RUN: xdsl-opt %s --xdsl-gpu --split-input-file | filecheck %s
// RUN: xdsl-opt %s --xdsl-gpu --print-op-generic --split-input-file | xdsl-opt --xdsl-gpu --split-input-file | filecheck %s
// RUN: xdsl-opt %s --split-input-file | filecheck %s --check-prefix=STOCK

// scf.parallel and scf.reduce in MLIR 22's custom form, which xDSL 0.74 does not
// read (scf.parallel has no custom format; scf.reduce's regions are not separated by
// commas there). Runs that use xdsl-gpu print it back in that form; a run with
// xDSL's own dialects reads it too and prints the generic form (STOCK). Every chunk
// is also compared with mlir-opt-22 (tests/test_mlir_conformance.py).

// A loop without results: the implicit scf.reduce is printed, as MLIR does.
// CHECK-LABEL: func.func @fill
// CHECK-NEXT: scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%s, %s) {
// CHECK-NEXT:   memref.store %x, %m[%i, %j] : memref<?x?xf32>
// CHECK-NEXT:   scf.reduce
// CHECK-NEXT: }
// STOCK-LABEL: func.func @fill
// STOCK-NEXT: "scf.parallel"(%lb, %lb, %ub, %ub, %s, %s) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
// STOCK-NEXT: ^bb0(%i: index, %j: index):
func.func @fill(%lb: index, %ub: index, %s: index, %x: f32, %m: memref<?x?xf32>) {
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%s, %s) {
    memref.store %x, %m[%i, %j] : memref<?x?xf32>
  }
  return
}

// -----

// One reduction: init values, '->' and the result type.
// CHECK-LABEL: func.func @sum
// CHECK:      %r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%zero) -> f32 {
// CHECK-NEXT:   %v = memref.load %m[%i] : memref<?xf32>
// CHECK-NEXT:   scf.reduce(%v : f32) {
// CHECK-NEXT:   ^bb0(%a: f32, %b: f32):
// CHECK-NEXT:     %t = arith.addf %a, %b : f32
// CHECK-NEXT:     scf.reduce.return %t : f32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: func.return %r : f32
func.func @sum(%lb: index, %ub: index, %s: index, %m: memref<?xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%zero) -> f32 {
    %v = memref.load %m[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      scf.reduce.return %t : f32
    }
  }
  return %r : f32
}

// -----

// Two reductions: the result types in parentheses, the reduce regions separated by
// a comma; the discardable attributes follow the body.
// CHECK-LABEL: func.func @sum_and_max
// CHECK:      scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%zero, %low) -> (f32, i32) {
// CHECK:        scf.reduce(%v, %w : f32, i32) {
// CHECK:          scf.reduce.return %t : f32
// CHECK-NEXT:   }, {
// CHECK-NEXT:   ^bb0(%c: i32, %d: i32):
// CHECK-NEXT:     %u = arith.maxsi %c, %d : i32
// CHECK-NEXT:     scf.reduce.return %u : i32
// CHECK-NEXT:   }
// CHECK-NEXT: } {mapping = "x"}
// STOCK-LABEL: func.func @sum_and_max
// STOCK: "scf.parallel"(%lb, %ub, %s, %zero, %low) <{operandSegmentSizes = array<i32: 1, 1, 1, 2>}> ({
// STOCK: scf.reduce(%v, %w : f32, i32) {
// STOCK: scf.reduce.return %t : f32
// STOCK-NEXT: } {
func.func @sum_and_max(%lb: index, %ub: index, %s: index, %m: memref<?xf32>) -> (f32, i32) {
  %zero = arith.constant 0.0 : f32
  %low = arith.constant -2147483648 : i32
  %r:2 = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%zero, %low) -> (f32, i32) {
    %v = memref.load %m[%i] : memref<?xf32>
    %w = arith.fptosi %v : f32 to i32
    scf.reduce(%v, %w : f32, i32) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      scf.reduce.return %t : f32
    }, {
    ^bb0(%c: i32, %d: i32):
      %u = arith.maxsi %c, %d : i32
      scf.reduce.return %u : i32
    }
  } {mapping = "x"}
  return %r#0, %r#1 : f32, i32
}
