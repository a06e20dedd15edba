// RUN: xdsl-opt %s -p convert-math-to-llvm --split-input-file --verify-diagnostics | filecheck %s
// RUN: not xdsl-opt %s -p convert-math-to-llvm 2>&1 | filecheck %s --check-prefix=EXIT

// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: convert-math-to-llvm: 'math.sqrt' op in @tensor on tensor<4xf32> cannot be lowered
// EXIT-NOT:  Traceback

func.func @tensor(%t: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.sqrt %t : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// CHECK: convert-math-to-llvm: 'math.sqrt' op in @tensor on tensor<4xf32> cannot be lowered: only scalars and vectors of static shape have an LLVM form (bufferize tensors first)
