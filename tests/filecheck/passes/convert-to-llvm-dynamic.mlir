// RUN: xdsl-opt %s -p 'convert-to-llvm{dynamic=true}' | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --pass-pipeline='builtin.module(gpu.module(convert-to-llvm{dynamic=true}))' | filecheck %s %}

// dynamic: a gpu.module with an #nvvm.target gets that attribute's patterns too,
// convert-gpu-to-nvvm's (kernel function, thread ids, libdevice calls).
// CHECK: gpu.module @kernels [#nvvm.target]
// CHECK: llvm.func @__nv_expf(f32) -> f32
// CHECK: llvm.func @k(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) attributes {gpu.kernel, nvvm.kernel}
// CHECK: %[[T:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: llvm.sext %[[T]] : i32 to i64
// CHECK: %[[V:.*]] = llvm.load
// CHECK: %[[E:.*]] = llvm.call @__nv_expf(%[[V]]) : (f32) -> f32
// CHECK: llvm.store %[[E]]
// CHECK: llvm.return
gpu.module @kernels [#nvvm.target] {
  gpu.func @k(%a: memref<4xf32>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<4xf32>
    %s = math.exp %v : f32
    memref.store %s, %a[%t] : memref<4xf32>
    gpu.return
  }
}
