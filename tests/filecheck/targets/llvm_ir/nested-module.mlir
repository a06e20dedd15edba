// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s | filecheck %s
// RUN: xdsl-opt --xdsl-gpu %s -t llvm-offload | filecheck %s

// A nested builtin.module (what -test-transform-dialect-erase-schedule leaves of a
// transform script) translates to nothing, as in mlir-translate; the functions around
// it do.

// CHECK:     define void @f()
// CHECK-NOT: @g
module {
  llvm.func @f() {
    llvm.return
  }
  module attributes {transform.with_named_sequence} {
  }
  module {
    llvm.func @g() {
      llvm.return
    }
  }
}
