// RUN: xdsl-opt %s -p 'xgpu-check-kernel-abi{search-path="%S/Inputs/xgpu" use-bare-pointers-for-kernels=true}' --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s -p 'xgpu-check-kernel-abi{search-path="%S/Inputs/xgpu"}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=DESC
// RUN: xdsl-gpu-nvrtc %S/../../../examples/custom_dispatch/kernels.cu -arch=sm_80 --emit=cubin -o %t
// RUN: sed 's|abi.ptx|kernels_sm_80.cubin|' %s | xdsl-opt -p 'xgpu-check-kernel-abi{search-path="%t" use-bare-pointers-for-kernels=true}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=CUBIN

// Count: with memref descriptors simple_mul would receive 16 parameters, not 4
// (with bare pointers, the other RUN lines, this launch is right).
module attributes {gpu.container_module} {
  gpu.binary @k [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "abi.ptx">]
  func.func @count(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@simple_mul blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %b : memref<8xf32>, %c : memref<8xf32>, %n : i32)
    return
  }
}
// DESC: 'gpu.launch_func' op in @count @k::@simple_mul passes 16 arguments but kernel 'simple_mul' in abi.ptx (ptx, sm_80) takes 4 (memrefs are passed as descriptors; set use-bare-pointers-for-kernels if the kernel takes plain pointers)
// DESC-NEXT:     #  launch (memref descriptors)                  kernel 'simple_mul' in abi.ptx (ptx, sm_80)
// DESC-NEXT:     0  ptr (8 B) from %a : memref<8xf32> allocated  .u64 (8 B, integer or pointer)
// DESC-NEXT:     1  ptr (8 B) from %a : memref<8xf32> aligned    .u64 (8 B, integer or pointer)
// DESC-NEXT:     2  i64 (8 B) from %a : memref<8xf32> offset     .u64 (8 B, integer or pointer)
// DESC-NEXT:     3  i64 (8 B) from %a : memref<8xf32> size[0]    .u32 (4 B, integer)
// DESC-NEXT:     4  i64 (8 B) from %a : memref<8xf32> stride[0]  -  <-- first difference

// -----

// Size: an index (i64) where the kernel takes an int.
module attributes {gpu.container_module} {
  gpu.binary @k [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "abi.ptx">]
  func.func @size(%a: memref<8xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@simple_mul blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %a : memref<8xf32>, %a : memref<8xf32>, %n : index)
    return
  }
}
// CHECK: 'gpu.launch_func' op in @size @k::@simple_mul argument 3 is 8 bytes (i64) but parameter 3 of kernel 'simple_mul' in abi.ptx (ptx, sm_80) is 4 bytes (.u32)
// CHECK-NEXT:     #  launch (bare pointers)  kernel 'simple_mul' in abi.ptx (ptx, sm_80)
// CHECK-NEXT:     0  ptr (8 B) from %a : memref<8xf32>  .u64 (8 B, integer or pointer)
// CHECK-NEXT:     1  ptr (8 B) from %a : memref<8xf32>  .u64 (8 B, integer or pointer)
// CHECK-NEXT:     2  ptr (8 B) from %a : memref<8xf32>  .u64 (8 B, integer or pointer)
// CHECK-NEXT:     3  i64 (8 B) from %n : index          .u32 (4 B, integer)  <-- first difference
// CUBIN: 'gpu.launch_func' op in @size @k::@simple_mul argument 3 is 8 bytes (i64) but parameter 3 of kernel 'simple_mul' in kernels_sm_80.cubin (elf, sm_80) is 4 bytes (4 bytes)

// -----

// Kind: an integer where the kernel takes a float (same size: only PTX can tell).
module attributes {gpu.container_module} {
  gpu.binary @k [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "abi.ptx">]
  llvm.func @kind(%p: !llvm.ptr, %i: i32) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @k::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%p : !llvm.ptr, %i : i32)
    llvm.return
  }
}
// CHECK: 'gpu.launch_func' op in @kind @k::@scale argument 1 is an integer (i32) but parameter 1 of kernel 'scale' in abi.ptx (ptx, sm_80) is a float (.f32)
// CHECK-NEXT: #  launch (LLVM-typed operands)

// -----

// Kind: an integer where the kernel takes a pointer (.ptr).
module attributes {gpu.container_module} {
  gpu.binary @k [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "abi.ptx">]
  llvm.func @pointer(%x: i64, %f: f32) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @k::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%x : i64, %f : f32)
    llvm.return
  }
}
// CHECK: 'gpu.launch_func' op in @pointer @k::@scale argument 0 is an integer (i64) but parameter 0 of kernel 'scale' in abi.ptx (ptx, sm_80) is a pointer (.u64 .ptr)

// -----

// Order: the right parameters, swapped.
module attributes {gpu.container_module} {
  gpu.binary @k [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "abi.ptx">]
  llvm.func @order(%p: !llvm.ptr, %i: i32) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @k::@offsets blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%p : !llvm.ptr, %i : i32)
    llvm.return
  }
}
// CHECK: 'gpu.launch_func' op in @order @k::@offsets argument 0 is 8 bytes (ptr) but parameter 0 of kernel 'offsets' in abi.ptx (ptx, sm_80) is 4 bytes (.u32); the kernel takes the same parameters in another order: check the order of the launch's arguments

// -----

// An aggregate of the wrong size.
module attributes {gpu.container_module} {
  gpu.binary @k [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "abi.ptx">]
  llvm.func @aggregate(%s: !llvm.struct<(f32, i32)>) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @k::@pair blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%s : !llvm.struct<(f32, i32)>)
    llvm.return
  }
}
// CHECK: 'gpu.launch_func' op in @aggregate @k::@pair argument 0 is 8 bytes (!llvm.struct<(f32, i32)>) but parameter 0 of kernel 'pair' in abi.ptx (ptx, sm_80) is 16 bytes (.b8[16])

// -----

// A kernel the object does not define.
module attributes {gpu.container_module} {
  gpu.binary @k [#xgpu.object_file<#nvvm.target<chip = "sm_80">, "abi.ptx">]
  llvm.func @missing() {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @k::@simple_add blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    llvm.return
  }
}
// CHECK: 'gpu.launch_func' op in @missing launches kernel 'simple_add', which abi.ptx (ptx, sm_80) does not define (it defines: desc, nothing, offsets, pair, scale, simple_mul); fix the kernel name or rebuild the object
// CUBIN: 'gpu.launch_func' op in @missing launches kernel 'simple_add', which kernels_sm_80.cubin (elf, sm_80) does not define (it defines: simple_mul)
