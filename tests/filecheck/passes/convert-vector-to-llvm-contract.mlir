// RUN: xdsl-opt %s -p convert-vector-to-llvm --split-input-file | filecheck %s --check-prefixes=CHECK,DOT
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-llvm --split-input-file | filecheck %s --check-prefixes=CHECK,DOT %}
// RUN: xdsl-opt %s -p 'convert-vector-to-llvm{vector-contract-lowering=outerproduct}' --split-input-file | filecheck %s --check-prefixes=CHECK,OUTER
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-llvm=vector-contract-lowering=outerproduct --split-input-file | filecheck %s --check-prefixes=CHECK,OUTER %}

// vector.contract beyond the matmul form, per vector-contract-lowering strategy, as
// MLIR 22 lowers it (the same CHECK lines hold for mlir-opt-22's output);
// tests/passes/test_vector_contract_strategies.py runs such contractions against
// mlir-runner-22.

// matvec: dot products of the rows without the accumulator, added at the end (dot);
// an AXPY per k (outerproduct).
// CHECK-LABEL: func.func @matvec(
func.func @matvec(%a: vector<2x3xf32>, %b: vector<3xf32>, %c: vector<2xf32>) -> vector<2xf32> {
  // DOT-COUNT-2: "llvm.intr.vector.reduce.fadd"
  // DOT:         arith.addf %{{.*}}, %{{.*}} : vector<2xf32>
  // OUTER-COUNT-3: llvm.intr.fmuladd({{.*}}) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
  // CHECK-NOT: vector.
  %0 = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3xf32> into vector<2xf32>
  return %0 : vector<2xf32>
}

// -----

// Transposed operands and result: (k, m) x (n, k) -> (n, m).
// CHECK-LABEL: func.func @transposed(
func.func @transposed(%a: vector<3x2xf32>, %b: vector<4x3xf32>, %c: vector<4x2xf32>) -> vector<4x2xf32> {
  // DOT-COUNT-8: "llvm.intr.vector.reduce.fadd"
  // OUTER-COUNT-12: llvm.intr.fmuladd({{.*}}) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
  // CHECK-NOT: vector.
  %0 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n, m)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<3x2xf32>, vector<4x3xf32> into vector<4x2xf32>
  return %0 : vector<4x2xf32>
}

// -----

// Mixed precision: the outerproduct strategy extends each slice; dot leaves it, as
// upstream.
// CHECK-LABEL: func.func @mixed(
func.func @mixed(%a: vector<2x3xf16>, %b: vector<3x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  // DOT:   vector.contract
  // OUTER-COUNT-6: arith.extf %{{.*}} : vector<2xf16> to vector<2xf32>
  %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf16>, vector<3x2xf16> into vector<2x2xf32>
  return %0 : vector<2x2xf32>
}

// -----

// A dot product of 1-D vectors into a scalar: one reduction with the accumulator.
// CHECK-LABEL: func.func @dot(
// CHECK-SAME: %[[A:[^:]*]]: vector<4xi32>, %[[B:[^:]*]]: vector<4xi32>, %[[C:[^:]*]]: i32)
func.func @dot(%a: vector<4xi32>, %b: vector<4xi32>, %c: i32) -> i32 {
  // DOT:      %[[P:.*]] = arith.muli %[[A]], %[[B]] : vector<4xi32>
  // DOT-NEXT: %[[R:.*]] = "llvm.intr.vector.reduce.add"(%[[P]]) : (vector<4xi32>) -> i32
  // DOT-NEXT: %[[S:.*]] = llvm.add %[[C]], %[[R]] : i32
  // DOT-NEXT: return %[[S]]
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4xi32>, vector<4xi32> into i32
  return %0 : i32
}
