// A program not lowered far enough for the target is the user's to fix: one
// located error that names the pass to run, never "a fault of the target".
// RUN: not xdsl-opt %s -t llvm 2>&1 | filecheck %s --check-prefix=XDSL-LLVM
// RUN: not xdsl-opt %s -t llvmir 2>&1 | filecheck %s --check-prefix=LLVMIR
// RUN: not xdsl-opt %s -t llvm-offload 2>&1 | filecheck %s --check-prefix=OFFLOAD

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// XDSL-LLVM-NOT: fault
// XDSL-LLVM: {{.*}}unlowered-input.mlir:8:3: error: 'gpu.module' op cannot be translated by -t llvm; lower the program first: gpu-lower-to-nvvm-pipeline (kernels to a gpu.binary, the host to the llvm dialect), then translate it with -t llvm-offload
// XDSL-LLVM-NEXT: {{^}}  gpu.module @kernels {
// XDSL-LLVM-NEXT: {{^}}  ^
// XDSL-LLVM-NEXT: {{.*}}unlowered-input.mlir:8:3: note: see current operation: "gpu.module"() <{sym_name = "kernels"}> ({...}) : () -> ()
// XDSL-LLVM-NOT: {{.}}

// LLVMIR: {{.*}}unlowered-input.mlir:8:3: error: 'gpu.module' at module level has no LLVM IR translation; lower the program first: gpu-lower-to-nvvm-pipeline

// OFFLOAD: {{.*}}unlowered-input.mlir:8:3: error: 'gpu.module' cannot be translated to LLVM IR; serialize it with gpu-module-to-binary first (or run gpu-lower-to-nvvm-pipeline)
