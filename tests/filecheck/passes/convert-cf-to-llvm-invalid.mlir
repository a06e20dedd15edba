// RUN: xdsl-opt %s -p convert-cf-to-llvm --split-input-file --verify-diagnostics | filecheck %s
// RUN: not xdsl-opt %s -p convert-cf-to-llvm 2>&1 | filecheck %s --check-prefix=EXIT

// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: convert-cf-to-llvm: 'cf.br' op in @tensor_block branches to a block with an argument type that has no LLVM equivalent (tensor<4xf32>)
// EXIT-NOT:  Traceback

func.func @tensor_block(%t: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1(%t : tensor<4xf32>)
^bb1(%u: tensor<4xf32>):
  func.return %u : tensor<4xf32>
}

// CHECK: convert-cf-to-llvm: 'cf.br' op in @tensor_block branches to a block with an argument type that has no LLVM equivalent (tensor<4xf32>)
