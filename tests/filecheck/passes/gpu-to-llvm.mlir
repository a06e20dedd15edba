// RUN: xdsl-opt %s -p gpu-to-llvm --split-input-file | filecheck %s

// The golden example of upstream (inventory §5, async1): the chain of one stream.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @f(%h: memref<16xf32>, %c1: index) {
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<16xf32>, memref<16xf32>
    %t3 = gpu.launch_func async [%t2] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32>)
    %t4 = gpu.dealloc async [%t3] %d : memref<16xf32>
    gpu.wait [%t4]
    return
  }
}

// CHECK-LABEL: llvm.func @f(
// CHECK:         %[[S:.*]] = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
// CHECK:         %[[BYTES:.*]] = llvm.ptrtoint
// CHECK:         %[[ZERO:.*]] = llvm.mlir.constant(0 : i8) : i8
// CHECK-NEXT:    %[[D:.*]] = llvm.call @mgpuMemAlloc(%[[BYTES]], %[[S]], %[[ZERO]]) : (i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK:         llvm.call @mgpuMemcpy({{.*}}, {{.*}}, {{.*}}, %[[S]]) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK:         gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64)
// CHECK:         llvm.call @mgpuMemFree(%{{.*}}, %[[S]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize(%[[S]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @mgpuStreamDestroy(%[[S]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return
// CHECK:       llvm.func @mgpuStreamCreate() -> !llvm.ptr
// CHECK-NEXT:  llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK-NEXT:  llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
// CHECK-NEXT:  llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
// CHECK-NEXT:  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
// CHECK-NEXT:  llvm.func @mgpuStreamDestroy(!llvm.ptr)
// -----

// The fork/join example of upstream (async2). Beyond upstream: the two joined
// streams are destroyed after the join, their last use.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @fork_join(%n: index, %x: f32) {
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %t2 = gpu.wait async [%t0, %t1]
    %t3 = gpu.launch_func async [%t2] @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%x : f32)
    gpu.wait [%t3]
    return
  }
}

// CHECK-LABEL: llvm.func @fork_join(%n: i64, %x: f32) {
// CHECK-NEXT:    %[[S0:.*]] = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
// CHECK-NEXT:    %[[E0:.*]] = llvm.call @mgpuEventCreate() : () -> !llvm.ptr
// CHECK-NEXT:    llvm.call @mgpuEventRecord(%[[E0]], %[[S0]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    %[[S1:.*]] = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
// CHECK-NEXT:    %[[E1:.*]] = llvm.call @mgpuEventCreate() : () -> !llvm.ptr
// CHECK-NEXT:    llvm.call @mgpuEventRecord(%[[E1]], %[[S1]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    %[[S2:.*]] = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
// CHECK-NEXT:    llvm.call @mgpuStreamWaitEvent(%[[S2]], %[[E0]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @mgpuStreamWaitEvent(%[[S2]], %[[E1]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @mgpuEventDestroy(%[[E0]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @mgpuEventDestroy(%[[E1]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @mgpuStreamDestroy(%[[S0]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @mgpuStreamDestroy(%[[S1]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    gpu.launch_func <%[[S2]] : !llvm.ptr> @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) : i64 args(%x : f32)
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize(%[[S2]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @mgpuStreamDestroy(%[[S2]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return
// -----

// A token argument is an event; a one-dependency chain on it uses it as its stream
// (upstream's convention, which lets a caller pass its stream).
module attributes {gpu.container_module} {
  func.func @event_arg(%t: !gpu.async.token, %u: !gpu.async.token, %m: memref<?xf32>, %v: f32) -> !gpu.async.token {
    gpu.wait [%t]
    %t1 = gpu.memset async [%u] %m, %v : memref<?xf32>, f32
    return %t1 : !gpu.async.token
  }
}

// CHECK-LABEL: llvm.func @event_arg(%t: !llvm.ptr, %u: !llvm.ptr,
// CHECK-SAME:      -> !llvm.ptr {
// CHECK:         llvm.call @mgpuEventSynchronize(%t) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @mgpuEventDestroy(%t) : (!llvm.ptr) -> ()
// CHECK:         %[[BITS:.*]] = llvm.bitcast %v : f32 to i32
// CHECK:         llvm.call @mgpuMemset32(%{{.*}}, %[[BITS]], %{{.*}}, %u) : (!llvm.ptr, i32, i64, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return %u : !llvm.ptr
// -----

module attributes {gpu.container_module} {
  func.func @runtime_ops(%d: memref<?x4xi16>, %w: i16, %h: memref<?x4xi16>, %n: index) {
    %t0 = gpu.wait async
    %t1 = gpu.memset async [%t0] %d, %w : memref<?x4xi16>, i16
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<?x4xi16>, memref<?x4xi16>
    %g, %t3 = gpu.alloc async [%t2] (%n) : memref<?xf32, 1>
    %t4 = gpu.dealloc async [%t3] %g : memref<?xf32, 1>
    gpu.wait [%t4]
    return
  }
}

// CHECK-LABEL: llvm.func @runtime_ops(
// CHECK:         %[[S:.*]] = llvm.call @mgpuStreamCreate()
// CHECK:         %[[COUNT:.*]] = llvm.mul %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    %[[DST:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NEXT:    llvm.call @mgpuMemset16(%[[DST]], %w, %[[COUNT]], %[[S]]) : (!llvm.ptr, i16, i64, !llvm.ptr) -> ()
// CHECK:         %[[N:.*]] = llvm.mul %{{.*}}, %{{.*}} : i64
// CHECK:         llvm.getelementptr %{{.*}}[%[[N]]] : (!llvm.ptr, i64) -> !llvm.ptr, i16
// CHECK:         llvm.call @mgpuMemcpy({{.*}}, %[[S]])
// CHECK:         %[[P:.*]] = llvm.call @mgpuMemAlloc(%{{.*}}, %[[S]], %{{.*}}) : (i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK-NEXT:    llvm.addrspacecast %[[P]] : !llvm.ptr to !llvm.ptr<1>
// CHECK:         %[[F:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:    llvm.call @mgpuMemFree(%[[F]], %[[S]])
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK-NEXT:    llvm.call @mgpuStreamDestroy(%[[S]])
// -----

module attributes {gpu.container_module} {
  func.func @host(%n: index, %u: memref<*xf32>, %i: i32) -> memref<?xf32> {
    %m = gpu.alloc host_shared (%n) : memref<?xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.host_unregister %u : memref<*xf32>
    gpu.set_default_device %i
    return %m : memref<?xf32>
  }
}

// CHECK-LABEL: llvm.func @host(%n: i64, %0: i64, %1: !llvm.ptr, %i: i32)
// CHECK:         llvm.ptrtoint
// CHECK-NEXT:    %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    %[[SHARED:.*]] = llvm.mlir.constant(1 : i8) : i8
// CHECK-NEXT:    llvm.call @mgpuMemAlloc(%{{.*}}, %[[NULL]], %[[SHARED]]) : (i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK:         %[[SIZE:.*]] = llvm.ptrtoint
// CHECK-NEXT:    %[[RANK:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(i64, ptr)>
// CHECK-NEXT:    %[[DESC:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(i64, ptr)>
// CHECK-NEXT:    llvm.call @mgpuMemHostRegisterMemRef(%[[RANK]], %[[DESC]], %[[SIZE]]) : (i64, !llvm.ptr, i64) -> ()
// CHECK:         llvm.call @mgpuMemHostUnregisterMemRef(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i64) -> ()
// CHECK-NEXT:    llvm.call @mgpuSetDefaultDevice(%i) : (i32) -> ()
// -----

// Beyond upstream: several dependencies (upstream: failed to legalize). The op runs on
// the first stream; it waits for the others through events recorded on them.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @two_deps(%n: index, %e: !gpu.async.token, %a: memref<8xf32>, %b: memref<8xf32>) {
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %t2 = gpu.launch_func async [%t0, %t1] @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    %t3 = gpu.memcpy async [%e, %t2] %a, %b : memref<8xf32>, memref<8xf32>
    gpu.wait [%t3]
    return
  }
}

// CHECK-LABEL: llvm.func @two_deps(%n: i64, %e: !llvm.ptr,
// CHECK-NEXT:    %{{.*}} = llvm.mlir.poison
// CHECK:         %[[S0:.*]] = llvm.call @mgpuStreamCreate()
// CHECK-NEXT:    %[[S1:.*]] = llvm.call @mgpuStreamCreate()
// CHECK-NEXT:    %[[E1:.*]] = llvm.call @mgpuEventCreate()
// CHECK-NEXT:    llvm.call @mgpuEventRecord(%[[E1]], %[[S1]])
// CHECK-NEXT:    llvm.call @mgpuStreamWaitEvent(%[[S0]], %[[E1]])
// CHECK-NEXT:    llvm.call @mgpuEventDestroy(%[[E1]])
// CHECK-NEXT:    gpu.launch_func <%[[S0]] : !llvm.ptr> @kernels::@k
// CHECK-NEXT:    llvm.call @mgpuStreamDestroy(%[[S1]])
// CHECK-NEXT:    llvm.call @mgpuStreamWaitEvent(%[[S0]], %e)
// CHECK-NEXT:    llvm.call @mgpuEventDestroy(%e)
// CHECK:         llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S0]])
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize(%[[S0]])
// CHECK-NEXT:    llvm.call @mgpuStreamDestroy(%[[S0]])
// CHECK-NEXT:    llvm.return
// -----

// Beyond upstream: synchronous ops are lowered (upstream leaves them behind).
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @sync_ops(%a: memref<8xf32>, %b: memref<8xf32>, %v: f32, %n: index) {
    %m = gpu.alloc () : memref<8xf32>
    gpu.memcpy %m, %a : memref<8xf32>, memref<8xf32>
    gpu.memset %b, %v : memref<8xf32>, f32
    %t0 = gpu.wait async
    gpu.launch_func [%t0] @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<8xf32>)
    gpu.dealloc %m : memref<8xf32>
    return
  }
}

// CHECK-LABEL: llvm.func @sync_ops(
// CHECK:         llvm.ptrtoint
// CHECK-NEXT:    %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    %[[NOT_SHARED:.*]] = llvm.mlir.constant(0 : i8) : i8
// CHECK-NEXT:    llvm.call @mgpuMemAlloc(%{{.*}}, %[[NULL]], %[[NOT_SHARED]])
// CHECK:         %[[T1:.*]] = llvm.call @mgpuStreamCreate()
// CHECK:         llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[T1]])
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize(%[[T1]])
// CHECK-NEXT:    llvm.call @mgpuStreamDestroy(%[[T1]])
// CHECK-NEXT:    %[[T2:.*]] = llvm.call @mgpuStreamCreate()
// CHECK:         llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[T2]])
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize(%[[T2]])
// CHECK-NEXT:    llvm.call @mgpuStreamDestroy(%[[T2]])
// CHECK-NEXT:    %[[S:.*]] = llvm.call @mgpuStreamCreate()
// CHECK:         gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@k
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK-NEXT:    llvm.call @mgpuStreamDestroy(%[[S]])
// CHECK:         %[[NULL2:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    llvm.call @mgpuMemFree(%{{.*}}, %[[NULL2]])
// CHECK-NOT:     gpu.
// CHECK:         llvm.return
// -----

// No destroy where the stream escapes (returned, or used in a nested region).
module attributes {gpu.container_module} {
  func.func @escapes(%a: memref<8xf32>, %c: i1) -> !gpu.async.token {
    %t0 = gpu.wait async
    %t1 = gpu.wait async [%t0]
    scf.if %c {
      %t2 = gpu.wait async [%t1]
      scf.yield
    }
    return %t1 : !gpu.async.token
  }
}

// CHECK-LABEL: llvm.func @escapes(
// CHECK:         %[[S0:.*]] = llvm.call @mgpuStreamCreate()
// CHECK:         %[[S1:.*]] = llvm.call @mgpuStreamCreate()
// CHECK:         llvm.call @mgpuStreamDestroy(%[[S0]])
// CHECK:         scf.if
// CHECK:           %[[S2:.*]] = llvm.call @mgpuStreamCreate()
// CHECK:           llvm.call @mgpuStreamDestroy(%[[S2]])
// CHECK-NOT:     llvm.call @mgpuStreamDestroy(%[[S1]])
// CHECK:         llvm.return %[[S1]] : !llvm.ptr
