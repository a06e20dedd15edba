// RUN: xdsl-opt %s --xdsl-gpu -p lower-affine | filecheck %s

// mlir-opt-22 -lower-affine tries the folder of affine.apply first: an apply whose
// operands are all constants of the input is one constant; one whose operand is the
// result of such an apply is expanded (the replacement is not visible yet when
// upstream's conversion folds), and a lone symbol is its operand.

// CHECK-LABEL: func.func @fold_constants
// CHECK-NEXT: %c16 = arith.constant 16 : index
// CHECK-NEXT: %c3 = arith.constant 3 : index
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[A:.*]] = arith.addi %[[C32]], %c3 : index
// CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT: %[[B:.*]] = arith.addi %[[A]], %[[C5]] : index
// CHECK-NEXT: %[[R:.*]] = arith.addi %[[B]], %i : index
// CHECK-NEXT: func.return %[[R]] : index
func.func @fold_constants(%i: index) -> index {
  %c16 = arith.constant 16 : index
  %c3 = arith.constant 3 : index
  %0 = affine.apply affine_map<()[s0] -> (s0 * 2)> ()[%c16]
  %1 = affine.apply affine_map<()[s0, s1] -> (s0 + s1 + 5)> ()[%0, %c3]
  %2 = affine.apply affine_map<(d0)[s0] -> (s0)> (%1)[%i]
  %3 = arith.addi %1, %2 : index
  return %3 : index
}

// floordiv, mod and ceildiv of negative values fold as upstream computes them.
// CHECK-LABEL: func.func @fold_divisions
// CHECK-NEXT: %c7 = arith.constant 7 : index
// CHECK-NEXT: %[[Q:.*]] = arith.constant -4 : index
// CHECK-NEXT: %[[M:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[C:.*]] = arith.constant 3 : index
// CHECK-NEXT: func.return %[[Q]], %[[M]], %[[C]] : index, index, index
func.func @fold_divisions() -> (index, index, index) {
  %c7 = arith.constant 7 : index
  %0 = affine.apply affine_map<()[s0] -> ((s0 * -1) floordiv 2)> ()[%c7]
  %1 = affine.apply affine_map<()[s0] -> ((s0 * -2) mod 4)> ()[%c7]
  %2 = affine.apply affine_map<()[s0] -> (s0 ceildiv 3)> ()[%c7]
  return %0, %1, %2 : index, index, index
}

// affine.min over constants of the input is the least result (mlir-opt-22: %c4);
// with an unknown operand it is expanded.
// CHECK-LABEL: func.func @fold_min
// CHECK-NEXT: %c8 = arith.constant 8 : index
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[A:.*]] = arith.addi %i, %[[C2]] : index
// CHECK-NEXT: %[[M:.*]] = arith.minsi %c8, %[[A]] : index
// CHECK-NEXT: func.return %[[C4]], %[[M]] : index, index
func.func @fold_min(%i: index) -> (index, index) {
  %c8 = arith.constant 8 : index
  %0 = affine.min affine_map<()[s0] -> (s0, 4)> ()[%c8]
  %1 = affine.min affine_map<()[s0, s1] -> (s0, s1 + 2)> ()[%c8, %i]
  return %0, %1 : index, index
}
