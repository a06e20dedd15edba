// Seed 001's offloading example: a gpu.binary with two objects, of which
// #gpu.select_object picks the one for the gfx90a target to embed; a function
// launches a kernel of it. Translate it to host LLVM IR:
//   xdsl-opt examples/select_object/binary.mlir -t llvm-offload
module attributes {gpu.container_module} {
  gpu.binary @binary <#gpu.select_object<#rocdl.target<chip = "gfx90a">>> [
    #gpu.object<#nvvm.target, "NVPTX">,
    #gpu.object<#rocdl.target<chip = "gfx90a">, "AMDGPU">
  ]
  llvm.func @foo() {
    %0 = llvm.mlir.constant(1 : i64) : i64
    %1 = llvm.mlir.constant(2 : i32) : i32
    %2 = llvm.mlir.constant(0 : i32) : i32
    gpu.launch_func @binary::@func blocks in (%0, %0, %0) threads in (%0, %0, %0) : i64 dynamic_shared_memory_size %2 args(%1 : i32, %1 : i32)
    llvm.return
  }
}
