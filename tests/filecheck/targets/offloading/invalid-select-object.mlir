// RUN: xdsl-opt %s -t llvm-offload --split-input-file --verify-diagnostics | filecheck %s

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  llvm.func @main() {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    llvm.return
  }
}
// CHECK: gpu.launch_func refers to @m, which is not a gpu.binary; run gpu-module-to-binary first

// -----

module attributes {gpu.container_module} {
  gpu.binary @b <#gpu.select_object<2>> [#gpu.object<#nvvm.target, "x">]
  llvm.func @main() {
    llvm.return
  }
}
// CHECK: gpu.binary @b: the requested target object couldn't be found

// -----

module attributes {gpu.container_module} {
  gpu.binary @b [#gpu.object<#nvvm.target, "x">]
  func.func @main(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    func.return
  }
}
// CHECK: run gpu-to-llvm first
