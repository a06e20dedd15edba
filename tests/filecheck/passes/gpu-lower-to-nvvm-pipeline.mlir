// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa}' --split-input-file | filecheck %s
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa kernel-bare-ptr-calling-convention=1}' --split-input-file | filecheck %s --check-prefix=BARE
// RUN: not xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{opt-level=7}' 2>&1 | filecheck %s --check-prefix=ERR-LEVEL
// RUN: not xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-format=cubin}' 2>&1 | filecheck %s --check-prefix=ERR-FORMAT

// ERR-LEVEL: xdsl-opt: error: gpu-lower-to-nvvm-pipeline: opt-level=7: the optimization level must be a number between 0 and 3
// ERR-FORMAT: xdsl-opt: error: gpu-lower-to-nvvm-pipeline: cubin-format: Invalid format specified: 'cubin'

// Seed 001 exactly (MLIR's gpu.launch printf example, with the docs' comma-less
// printf): the launch is outlined, the kernel serialized (PTX here), the host lowered
// to llvm.

// CHECK-LABEL: llvm.func @main() {
// Constants in MLIR 22's order: its canonicalize hoists 1 (used first) before 2.
// CHECK:         %[[C1:.*]] = llvm.mlir.constant(1{{( : index)?}}) : i64
// CHECK:         %[[C2:.*]] = llvm.mlir.constant(2{{( : index)?}}) : i64
// CHECK:         gpu.launch_func @main_kernel::@main_kernel blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C2]], %[[C1]], %[[C1]]) : i64
// CHECK-NEXT:    llvm.return
// CHECK:       gpu.binary @main_kernel [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {O = 2 : i32, LLVMIRToISATimeInMs = {{[0-9]+}} : i64}, assembly = "{{.*}}.target sm_90{{.*}}.entry main_kernel(){{.*}}call.uni {{.*}}vprintf,
// CHECK-NOT:   gpu.module
// CHECK-NOT:   func.func
func.func @main() {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  gpu.launch
    blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1)
    threads(%6, %7, %8) in (%9 = %c2, %10 = %c1, %11 = %c1) {
    gpu.printf "Hello from %d\n" %6 : index
    gpu.terminator
  }
  return
}

// -----

// An async launch of an outlined kernel with a memref argument: a stream for the
// token chain, the memref as its descriptor (default) or its aligned pointer
// (kernel-bare-ptr-calling-convention).

// CHECK-LABEL: llvm.func @scale(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) {
// CHECK:         %[[S:.*]] = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
// CHECK:         gpu.launch_func <%[[S]] : !llvm.ptr> @k::@scale blocks in ({{.*}}) threads in ({{.*}}) : i64 args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64)
// CHECK:         llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK:         llvm.call @mgpuStreamDestroy(%[[S]])
// CHECK:       gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, {{.*}}.entry scale({{.*}}scale_param_4\0A)

// BARE-LABEL:  llvm.func @scale(
// BARE:          gpu.launch_func <%{{.*}} : !llvm.ptr> @k::@scale blocks in ({{.*}}) threads in ({{.*}}) : i64 args(%{{.*}} : !llvm.ptr)
// BARE:        gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, {{.*}}.entry scale(\0A\09.param .u64 .ptr .align 1 scale_param_0\0A)
module attributes {gpu.container_module} {
  func.func @scale(%m: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %t = gpu.wait async
    %t2 = gpu.launch_func async [%t] @k::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%m : memref<16xf32>)
    gpu.wait [%t2]
    return
  }
  gpu.module @k {
    gpu.func @scale(%m: memref<16xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %m[%i] : memref<16xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %m[%i] : memref<16xf32>
      gpu.return
    }
  }
}
