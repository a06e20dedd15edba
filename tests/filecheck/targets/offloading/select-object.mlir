// RUN: xdsl-opt %s -t llvm-offload --split-input-file | filecheck %s

// The default handler embeds object 0; a cubin is loaded with mgpuModuleLoad and its
// size, in a priority-123 constructor.

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\7FELF\00\01">]
  llvm.func @main(%n: i64, %x: !llvm.ptr, %a: f32) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @kernels::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%x : !llvm.ptr, %a : f32)
    llvm.return
  }
}

// CHECK-DAG: @kernels_binary = internal constant [6 x i8] c"\7FELF\00\01", align 8
// CHECK-DAG: @kernels_module = internal global ptr null
// CHECK-DAG: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 123, ptr @kernels_load, ptr null }]
// CHECK-DAG: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 123, ptr @kernels_unload, ptr null }]
// CHECK-DAG: @kernels_k_name = private unnamed_addr constant [2 x i8] c"k\00", align 1
// CHECK-LABEL: define void @main(
// CHECK: alloca { ptr, float }, i64 1, align 8
// CHECK: alloca ptr, i64 2, align 8
// CHECK: call ptr @mgpuModuleGetFunction(ptr %{{.*}}, ptr @kernels_k_name)
// CHECK: %[[S:.*]] = call ptr @mgpuStreamCreate()
// CHECK: store ptr @__xdsl_gpu_site, ptr @__xdsl_gpu_launch_site
// CHECK: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 %{{.*}}, i64 1, i64 1, i64 1, i64 1, i64 1, i32 0, ptr %[[S]], ptr %{{.*}}, ptr null, i64 2)
// CHECK: call void @mgpuStreamSynchronize(ptr %[[S]])
// CHECK: call void @mgpuStreamDestroy(ptr %[[S]])
// CHECK-LABEL: define internal void @kernels_load() section ".text.startup"
// CHECK: call ptr @mgpuModuleLoad(ptr @kernels_binary, i64 6)
// CHECK-LABEL: define internal void @kernels_unload() section ".text.startup"
// CHECK: call void @mgpuModuleUnload(ptr

// -----

// PTX is JIT-loaded with the object's O (and gets a trailing NUL); an async launch
// uses its stream and neither synchronizes nor destroys it; `section` is honoured.

module attributes {gpu.container_module} {
  gpu.binary @ptx <#gpu.select_object<1>> [
    #gpu.object<#nvvm.target, "ignored">,
    #gpu.object<#nvvm.target<chip = "sm_90">, properties = {O = 3 : i32, section = "__gpu"}, assembly = ".version">
  ]
  llvm.func @main(%s: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i32) : i32
    gpu.launch_func <%s : !llvm.ptr> @ptx::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 dynamic_shared_memory_size %c8
    llvm.return
  }
}

// CHECK-DAG: @ptx_binary = internal constant [9 x i8] c".version\00", section "__gpu", align 8
// CHECK-LABEL: define void @main(ptr
// CHECK-NOT: mgpuStreamCreate
// CHECK: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, i32 8, ptr %arg0, ptr null, ptr null, i64 0)
// CHECK-NOT: mgpuStreamDestroy
// CHECK: ret void
// CHECK: call ptr @mgpuModuleLoadJIT(ptr @ptx_binary, i32 3)

// -----

// Each module has its own kernel-name constant (@<module>_<kernel>_name), as upstream's,
// even where two modules name their kernels alike.

module attributes {gpu.container_module} {
  gpu.binary @a [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "A">]
  gpu.binary @b [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "B">]
  llvm.func @twice() {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    llvm.return
  }
}

// CHECK-DAG: @a_k_name = private unnamed_addr constant [2 x i8] c"k\00", align 1
// CHECK-DAG: @b_k_name = private unnamed_addr constant [2 x i8] c"k\00", align 1
// CHECK-LABEL: define void @twice(
// CHECK: call ptr @mgpuModuleGetFunction(ptr %{{.*}}, ptr @a_k_name)
// CHECK: call ptr @mgpuModuleGetFunction(ptr %{{.*}}, ptr @b_k_name)
// CHECK: call ptr @mgpuModuleGetFunction(ptr %{{.*}}, ptr @a_k_name)
