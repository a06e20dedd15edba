// RUN: xdsl-opt %s -p expand-strided-metadata --split-input-file | filecheck %s
// RUN: xdsl-opt %s -p lower-affine,expand-strided-metadata,finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts --split-input-file | filecheck %s --check-prefix=LLVM

// A view of a view of a static buffer: the inner subview is rewritten while its
// source's metadata is still an extract_strided_metadata; once that resolves to
// constants, the affine.apply ops built over it fold to constants too, as the greedy
// driver of mlir-opt-22 folds them. Nothing affine is left, so lower-affine may run
// first (as in mlir-opt-22 -lower-affine -expand-strided-metadata).

// CHECK-LABEL: func.func @view_of_view
// CHECK-NOT: affine.apply
// CHECK-DAG: %[[OFF:.*]] = arith.constant 52 : index
// CHECK-DAG: %[[S0:.*]] = arith.constant 32 : index
// CHECK: memref.reinterpret_cast %a to offset: [%[[OFF]]], sizes: [2, 2], strides: [%[[S0]], %{{.*}}] : memref<16x16xf32> to memref<2x2xf32, strided<[?, ?], offset: ?>>
// CHECK-NOT: affine.apply
// LLVM-LABEL: llvm.func @view_of_view
// LLVM-NOT: affine.
// LLVM: llvm.mlir.constant(52 : index) : i64
// LLVM-NOT: affine.
// LLVM: llvm.return
func.func @view_of_view() -> f32 {
  %a = memref.alloc() : memref<16x16xf32>
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %s = memref.subview %a[%c2, %c3] [%c4, %c4] [%c1, %c1] : memref<16x16xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %t = memref.subview %s[1, 1] [2, 2] [2, 1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  %v = memref.load %t[%c1, %c1] : memref<2x2xf32, strided<[?, ?], offset: ?>>
  return %v : f32
}

// -----

// The case of the issue: a static subview of a static allocation is one
// reinterpret_cast with static metadata.

// CHECK-LABEL: func.func @static_subview
// CHECK-NEXT: %[[A:.*]] = memref.alloc() : memref<16x16xf32>
// CHECK-NEXT: %[[V:.*]] = memref.reinterpret_cast %[[A]] to offset: [35], sizes: [4, 4], strides: [16, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 35>>
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: memref.load %[[V]][%[[C1]], %[[C1]]]
func.func @static_subview() -> f32 {
  %a = memref.alloc() : memref<16x16xf32>
  %s = memref.subview %a[2, 3] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 35>>
  %c1 = arith.constant 1 : index
  %v = memref.load %s[%c1, %c1] : memref<4x4xf32, strided<[16, 1], offset: 35>>
  return %v : f32
}

// -----

// An affine.apply of the input folds when its constant operands make it a
// constant; with an unknown operand it stays (upstream does not compose it).

// CHECK-DAG:   #[[$ESF1:.*]] = affine_map<()[s0, s1] -> (s0 * 4 + s1 floordiv 2)>
// CHECK-LABEL: func.func @user_applies
// CHECK-NEXT: %[[C40:.*]] = arith.constant 40 : index
// CHECK-NEXT: %[[X:.*]] = affine.apply #[[$ESF1]]()[%i, %[[C40]]]
// CHECK-NEXT: %[[R:.*]] = arith.addi %[[C40]], %[[X]] : index
// CHECK-NEXT: func.return %[[R]] : index
func.func @user_applies(%i: index) -> index {
  %c16 = arith.constant 16 : index
  %c3 = arith.constant 3 : index
  %0 = affine.apply affine_map<()[s0] -> (s0 * 2)> ()[%c16]
  %1 = affine.apply affine_map<()[s0, s1] -> (s0 + s1 + 5)> ()[%0, %c3]
  %2 = affine.apply affine_map<()[s0, s1] -> (s0 * 4 + s1 floordiv 2)> ()[%i, %1]
  %3 = arith.addi %1, %2 : index
  return %3 : index
}

// -----

// The greedy driver also folds arith ops whose operands the patterns resolved to
// constants (offset 34 + size 8 of a collapsed view of a view of a static alloc).

// CHECK-LABEL: func.func @metadata_arith
// CHECK:      %[[R:.*]] = arith.constant 42 : index
// CHECK-NEXT: func.return %[[R]] : index
func.func @metadata_arith() -> index {
  %a = memref.alloc() : memref<16x16xf32>
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %s = memref.subview %a[%c2, %c2] [%c8, 8] [1, 1] : memref<16x16xf32> to memref<?x8xf32, strided<[16, 1], offset: ?>>
  %t = memref.subview %s[0, 0] [1, 8] [1, 1] : memref<?x8xf32, strided<[16, 1], offset: ?>> to memref<1x8xf32, strided<[16, 1], offset: ?>>
  %c = memref.collapse_shape %t [[0, 1]] : memref<1x8xf32, strided<[16, 1], offset: ?>> into memref<8xf32, strided<[1], offset: ?>>
  %base, %off, %sz, %st = memref.extract_strided_metadata %c : memref<8xf32, strided<[1], offset: ?>> -> memref<f32>, index, index, index
  %r = arith.addi %off, %sz : index
  return %r : index
}
