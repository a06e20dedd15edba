// A kernel that stores through a null pointer: the run must stop with the CUDA error
// and the kernel's name, exit status 1.
module attributes {gpu.container_module} {
  gpu.module @fault_kernel [#nvvm.target<chip = "sm_90">] {
    llvm.func @fault_kernel() attributes {gpu.kernel, nvvm.kernel} {
      %null = llvm.mlir.zero : !llvm.ptr
      %v = llvm.mlir.constant(7 : i32) : i32
      llvm.store volatile %v, %null : i32, !llvm.ptr
      llvm.return
    }
  }
  llvm.func @main() {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @fault_kernel::@fault_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    llvm.return
  }
}
