// RUN: xdsl-opt --xdsl-gpu %s | filecheck %s
// RUN: %if mlir-opt %{ xdsl-opt --xdsl-gpu %s | mlir-opt-22 | filecheck %s %}

// An llvm.mlir.constant keeps its value's type when it differs from the result's
// (`1 : index` lowered to i64), as mlir-opt-22 prints it (xDSL dropped it). An i64
// value xdsl-opt prints bare, mlir-opt-22 with `: i64`; both read either.

// CHECK-LABEL: llvm.func @constants
llvm.func @constants() -> i64 {
  // CHECK: llvm.mlir.constant(1 : index) : i64
  %0 = llvm.mlir.constant(1 : index) : i64
  // CHECK: llvm.mlir.constant(7{{( : i64)?}}) : i64
  %1 = llvm.mlir.constant(7 : i64) : i64
  // CHECK: llvm.mlir.constant(3 : i32) : i32
  %2 = llvm.mlir.constant(3 : i32) : i32
  llvm.return %0 : i64
}
