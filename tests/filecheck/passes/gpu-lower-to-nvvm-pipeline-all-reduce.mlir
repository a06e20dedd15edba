// RUN: xdsl-opt %s -p convert-nvgpu-to-nvvm --split-input-file | filecheck %s --check-prefix=NVGPU
// RUN: not xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa}' --split-input-file 2>&1 | filecheck %s --check-prefixes=CHECK,ERR

// gpu.all_reduce written without `uniform` (upstream's CUDA test all-reduce-xor.mlir).
// MLIR 22 lowers no non-uniform all_reduce; its pipeline compiles this one because
// the first pass, convert-nvgpu-to-nvvm, folds every op it visits and the group ops'
// folder marks one in the entry block of a gpu.launch `uniform` (every work item
// reaches it). Ours does the same.

// NVGPU-LABEL: func.func @entry_block(
// NVGPU:         gpu.all_reduce xor %{{.*}} uniform {
// NVGPU:         gpu.subgroup_reduce add %{{.*}} uniform : (i32) -> i32

// CHECK-LABEL: llvm.func @entry_block(
// CHECK:         gpu.launch_func @entry_block_kernel::@entry_block_kernel
// CHECK:       gpu.binary @entry_block_kernel [#gpu.object<#nvvm.target<chip = "sm_90">, {{.*}}assembly = "{{.*}}shfl.sync.bfly.b32{{.*}}bar.sync{{.*}}bar.sync
module attributes {gpu.container_module} {
  func.func @entry_block(%out: memref<2xi32>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c6 = arith.constant 6 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c6, %b = %c1, %c = %c1) {
      %v = arith.index_cast %tx : index to i32
      %r = gpu.all_reduce xor %v {} : (i32) -> (i32)
      %s = gpu.subgroup_reduce add %r : (i32) -> i32
      memref.store %s, %out[%c0] : memref<2xi32>
      gpu.terminator
    }
    return
  }
}

// -----

// Under control flow it stays non-uniform, and neither MLIR 22 nor ours lowers it.

// NVGPU-LABEL: func.func @divergent(
// NVGPU:         gpu.all_reduce xor %{{.*}} {

// ERR: error: convert-gpu-to-nvvm: failed to legalize operation 'gpu.all_reduce' in @divergent_kernel: only a `uniform` all_reduce can be lowered
module attributes {gpu.container_module} {
  func.func @divergent(%out: memref<2xi32>, %p: i1) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
      %v = arith.index_cast %tx : index to i32
      scf.if %p {
        %r = gpu.all_reduce xor %v {} : (i32) -> (i32)
        memref.store %r, %out[%c0] : memref<2xi32>
      }
      gpu.terminator
    }
    return
  }
}
