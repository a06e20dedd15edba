// RUN: xdsl-opt %s -p convert-arith-to-llvm --split-input-file --verify-diagnostics | filecheck %s
// RUN: not xdsl-opt %s -p convert-arith-to-llvm 2>&1 | filecheck %s --check-prefix=EXIT

// A failure is one line naming the pass, the op and the reason, with exit status 1.
// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: convert-arith-to-llvm: 'arith.addi' op in @tensors has a type with no LLVM equivalent (tensor<4xi32>)
// EXIT-NOT:  Traceback

func.func @tensors(%t: tensor<4xi32>) -> tensor<4xi32> {
  %0 = arith.addi %t, %t : tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// CHECK: convert-arith-to-llvm: 'arith.addi' op in @tensors has a type with no LLVM equivalent (tensor<4xi32>); only scalars and vectors of static shape can be lowered (bufferize tensors first)

// -----

// Only the innermost dimension of an LLVM vector can be scalable.
func.func @scalable(%v: vector<[2]x4xf32>) -> vector<[2]x4xf32> {
  %0 = arith.addf %v, %v : vector<[2]x4xf32>
  func.return %0 : vector<[2]x4xf32>
}

// CHECK: convert-arith-to-llvm: 'arith.addf' op in @scalable has a type with no LLVM equivalent (vector<[2]x4xf32>)
