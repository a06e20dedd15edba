// RUN: xdsl-opt %s -p 'xgpu-check-kernel-abi{search-path="%S/Inputs/xgpu" use-bare-pointers-for-kernels=true}' --split-input-file | filecheck %s
// RUN: xdsl-opt %s -p 'xgpu-embed-object-files{search-path="%S/Inputs/xgpu" use-bare-pointers-for-kernels=true}' --split-input-file | filecheck %s --check-prefix=EMBED

// Launches that agree with the kernels of abi.ptx pass unchanged: before gpu-to-llvm
// (memrefs as bare pointers, as the option says) ...
module attributes {gpu.container_module} {
  gpu.binary @k [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "abi.ptx">]
  func.func @memrefs(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@simple_mul blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %b : memref<8xf32>, %c : memref<8xf32>, %n : i32)
    gpu.launch_func @k::@nothing blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
// CHECK-LABEL: func.func @memrefs
// CHECK: gpu.launch_func @k::@simple_mul
// EMBED-LABEL: func.func @memrefs
// EMBED: gpu.launch_func @k::@simple_mul

// -----

// ... and after it (LLVM-typed operands): pointers, floats, integers, a struct.
module attributes {gpu.container_module} {
  gpu.binary @k [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "abi.ptx">]
  llvm.func @lowered(%p: !llvm.ptr, %f: f32, %i: i32, %s: !llvm.struct<(f64, i32)>) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @k::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%p : !llvm.ptr, %f : f32)
    gpu.launch_func @k::@offsets blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%i : i32, %p : !llvm.ptr)
    gpu.launch_func @k::@pair blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%s : !llvm.struct<(f64, i32)>)
    // A .u64 without .ptr takes a pointer or a 64-bit integer.
    %n = llvm.mlir.constant(8 : i32) : i32
    %x = llvm.mlir.constant(0 : i64) : i64
    gpu.launch_func @k::@simple_mul blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%p : !llvm.ptr, %x : i64, %p : !llvm.ptr, %n : i32)
    llvm.return
  }
}
// CHECK-LABEL: llvm.func @lowered
// CHECK-COUNT-4: gpu.launch_func

// -----

// The descriptor convention: a memref<?xf32> is 5 parameters (desc takes them).
module attributes {gpu.container_module} {
  gpu.binary @k [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "abi.ptx">]
  llvm.func @descriptor(%a: !llvm.ptr, %b: !llvm.ptr, %o: i64, %s: i64, %t: i64) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @k::@desc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%a : !llvm.ptr, %b : !llvm.ptr, %o : i64, %s : i64, %t : i64)
    llvm.return
  }
}
// CHECK-LABEL: llvm.func @descriptor
