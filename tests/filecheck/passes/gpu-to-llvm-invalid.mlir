// RUN: xdsl-opt %s -p gpu-to-llvm --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s -p 'gpu-to-llvm{use-bare-pointers-for-kernels=true intersperse-sizes-for-kernels=true}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=SIZES
// RUN: xdsl-opt %s -p 'gpu-to-llvm{intersperse-sizes-for-kernels=true}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=NOBARE
// RUN: not xdsl-opt %s -p gpu-to-llvm 2>&1 | filecheck %s --check-prefix=EXIT

// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: gpu-to-llvm: 'gpu.alloc' op in @async_host_shared is async and host_shared: Host Shared allocation cannot be done async
// EXIT-NOT:  Traceback

// Upstream leaves this op in place without a word.
func.func @async_host_shared(%t: !gpu.async.token) -> memref<4xf32> {
  %m, %t1 = gpu.alloc async [%t] host_shared () : memref<4xf32>
  return %m : memref<4xf32>
}
// CHECK: gpu-to-llvm: 'gpu.alloc' op in @async_host_shared is async and host_shared: Host Shared allocation cannot be done async (managed memory is allocated synchronously): drop `async` and its dependencies

// -----

func.func @memset64(%m: memref<4xf64>, %v: f64) {
  gpu.memset %m, %v : memref<4xf64>, f64
  return
}
// CHECK: gpu-to-llvm: 'gpu.memset' op in @memset64 sets f64 values: the runtime sets 16- or 32-bit elements only (mgpuMemset16/mgpuMemset32); store wider or narrower elements with a kernel

// -----

func.func @memset8(%t: !gpu.async.token, %m: memref<4xi8>, %v: i8) {
  %t1 = gpu.memset async [%t] %m, %v : memref<4xi8>, i8
  return
}
// CHECK: gpu-to-llvm: 'gpu.memset' op in @memset8 sets i8 values: the runtime sets 16- or 32-bit elements only

// -----

func.func @strided_copy(%m: memref<4x4xf32, strided<[8, 1]>>, %d: memref<4x4xf32>) {
  gpu.memcpy %d, %m : memref<4x4xf32>, memref<4x4xf32, strided<[8, 1]>>
  return
}
// CHECK: gpu-to-llvm: 'gpu.memcpy' op in @strided_copy needs a source with the identity layout, not 'memref<4x4xf32, strided<[8, 1]>>': the runtime works on contiguous buffers (copy through an identity-layout memref first)

// -----

func.func @not_outlined(%n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%x = %n, %y = %n, %z = %n) threads(%tx, %ty, %tz) in (%a = %n, %b = %n, %c = %n) {
    gpu.terminator
  }
  return
}
// CHECK: gpu-to-llvm: 'gpu.launch' op in @not_outlined must be outlined before gpu-to-llvm: run gpu-kernel-outlining first

// -----

func.func @kernel_op_on_host() -> index {
  %i = gpu.thread_id x
  return %i : index
}
// CHECK: gpu-to-llvm: 'gpu.thread_id' op in @kernel_op_on_host has no host lowering in gpu-to-llvm

// -----

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @unranked_bare(%u: memref<*xf32>, %n: index) {
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%u : memref<*xf32>)
    return
  }
}
// SIZES: gpu-to-llvm: 'gpu.launch_func' op in @unranked_bare passes the unranked memref 'memref<*xf32>' (kernel operand #0) with bare pointers: cast it to a ranked memref, or drop use-bare-pointers-for-kernels

// -----

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @scalar_with_sizes(%m: memref<4xf32>, %x: f32, %n: index) {
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<4xf32>, %x : f32)
    return
  }
}
// NOBARE: gpu-to-llvm: 'gpu.launch_func' op in @scalar_with_sizes cannot intersperse sizes with memref descriptors: intersperse-sizes-for-kernels needs use-bare-pointers-for-kernels (or use-bare-pointers-for-host)
// SIZES: gpu-to-llvm: 'gpu.launch_func' op in @scalar_with_sizes cannot intersperse the size of kernel operand #1 of type 'f32': with intersperse-sizes-for-kernels every kernel operand must be a memref with a static shape and byte-sized integer or float elements

// -----

module attributes {gpu.container_module} {
  llvm.func @mgpuMemAlloc(i64, !llvm.ptr) -> !llvm.ptr
  func.func @old_declaration(%n: index) -> memref<?xf32> {
    %m = gpu.alloc (%n) : memref<?xf32>
    return %m : memref<?xf32>
  }
}
// CHECK: gpu-to-llvm: 'gpu.alloc' op in @old_declaration needs @mgpuMemAlloc of type !llvm.func<ptr (i64, ptr, i8)>, but the module declares it as !llvm.func<ptr (i64, ptr)>: drop that declaration (gpu-to-llvm adds the right one)
