// RUN: xdsl-opt %s -p gpu-to-llvm | filecheck %s
// RUN: xdsl-opt %s -p 'gpu-to-llvm{use-bare-pointers-for-kernels=true}' | filecheck %s --check-prefix=BARE
// RUN: xdsl-opt %s -p 'gpu-to-llvm{use-bare-pointers-for-kernels=true intersperse-sizes-for-kernels=true}' | filecheck %s --check-prefix=SIZES
// RUN: xdsl-opt %s -p 'gpu-to-llvm{use-bare-pointers-for-host=true}' | filecheck %s --check-prefix=HOST
// RUN: xdsl-opt %s -p gpu-to-llvm | mlir-opt | filecheck %s --check-prefix=UPSTREAM
// REQUIRES: mlir-opt

// gpu.launch_func stays, with LLVM-typed operands: a memref as its five descriptor
// fields, or as its aligned pointer with bare pointers (then followed by its size in
// bytes with intersperse-sizes-for-kernels). A synchronous launch has no stream (the
// offloading translation makes one); an async one without dependencies creates one.

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @launch(%a: memref<16xf32>, %b: memref<4x8xi32>, %n: index, %s: i32) {
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) dynamic_shared_memory_size %s args(%a : memref<16xf32>, %b : memref<4x8xi32>)
    %t = gpu.launch_func async @kernels::@k clusters in (%n, %n, %n) blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%a : memref<16xf32>, %b : memref<4x8xi32>)
    gpu.wait [%t]
    return
  }
}

// CHECK-LABEL: llvm.func @launch(%0: !llvm.ptr, %1: !llvm.ptr, %2: i64, %3: i64, %4: i64, %5: !llvm.ptr, %6: !llvm.ptr, %7: i64, %8: i64, %9: i64, %10: i64, %11: i64, %n: i64, %s: i32) {
// CHECK:         gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) : i64 dynamic_shared_memory_size %s args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64)
// CHECK:         %[[S:.*]] = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
// CHECK-NEXT:    gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@k clusters in (%n, %n, %n) blocks in (%n, %n, %n) threads in (%n, %n, %n) : i64 args(
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK-NEXT:    llvm.call @mgpuStreamDestroy(%[[S]])

// BARE-LABEL: llvm.func @launch(
// BARE:         %[[A:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// BARE-NEXT:    %[[B:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// BARE-NEXT:    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) : i64 dynamic_shared_memory_size %s args(%[[A]] : !llvm.ptr, %[[B]] : !llvm.ptr)

// SIZES-LABEL: llvm.func @launch(
// SIZES:         %[[A:.*]] = llvm.extractvalue %{{.*}}[1]
// SIZES-NEXT:    %[[B:.*]] = llvm.extractvalue %{{.*}}[1]
// SIZES-NEXT:    %[[SA:.*]] = llvm.mlir.constant(64{{( : index)?}}) : i64
// SIZES-NEXT:    %[[SB:.*]] = llvm.mlir.constant(128{{( : index)?}}) : i64
// SIZES-NEXT:    gpu.launch_func @kernels::@k {{.*}} args(%[[A]] : !llvm.ptr, %[[SA]] : i64, %[[B]] : !llvm.ptr, %[[SB]] : i64)

// With bare pointers for the host, the function takes pointers and passes pointers.
// HOST-LABEL: llvm.func @launch(%a: !llvm.ptr, %b: !llvm.ptr, %n: i64, %s: i32) {
// HOST:         gpu.launch_func @kernels::@k {{.*}} args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr)

// UPSTREAM: gpu.launch_func <%{{.*}} : !llvm.ptr> @kernels::@k clusters in
