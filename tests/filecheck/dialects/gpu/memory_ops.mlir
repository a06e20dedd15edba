// RUN: XDSL_ROUNDTRIP
// RUN: xdsl-opt %s --split-input-file | filecheck %s

// Host-side memory and synchronisation ops in upstream's syntax. Every chunk is
// also checked against mlir-opt-22 by tests/test_mlir_conformance.py.

// CHECK-LABEL: func.func @alloc
func.func @alloc(%sz: index, %dep: !gpu.async.token) {
  // CHECK-NEXT: %m0 = gpu.alloc () : memref<13xf32, 1>
  %m0 = gpu.alloc () : memref<13xf32, 1>
  // CHECK-NEXT: %m1, %t1 = gpu.alloc async [%dep] (%sz) : memref<?x64xf32>
  %m1, %t1 = gpu.alloc async [%dep] (%sz) : memref<?x64xf32>
  // CHECK-NEXT: %m2, %t2 = gpu.alloc async () : memref<4xf32>
  %m2, %t2 = gpu.alloc async () : memref<4xf32>
  // CHECK-NEXT: %m3 = gpu.alloc host_shared () : memref<4xf32>
  %m3 = gpu.alloc host_shared () : memref<4xf32>
  // Accepted by the v22 verifier; only gpu-to-llvm refuses (leaves unlowered) an
  // async host_shared allocation.
  // CHECK-NEXT: %m4, %t4 = gpu.alloc async [%t1, %t2] host_shared (%sz) : memref<64x?xf32, 1>
  %m4, %t4 = gpu.alloc async [%t1, %t2] host_shared (%sz) : memref<64x?xf32, 1>
  // CHECK-NEXT: %m5 = gpu.alloc (%sz) {foo} : memref<?xf32>
  %m5 = gpu.alloc (%sz) {foo} : memref<?xf32>
  func.return
}

// -----

// Symbol operands, one per symbol of the layout.

// CHECK-LABEL: func.func @alloc_symbols
func.func @alloc_symbols(%sz: index, %off: index) {
  // CHECK-NEXT: %m0 = gpu.alloc (%sz)[%off] : memref<?xf32, affine_map<(d0)[s0] -> ((d0 + s0))>>
  %m0 = gpu.alloc (%sz)[%off] : memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  // CHECK-NEXT: %m1 = gpu.alloc ()[%off, %sz] : memref<4x4xf32, strided<[?, 1], offset: ?>>
  %m1 = gpu.alloc ()[%off, %sz] : memref<4x4xf32, strided<[?, 1], offset: ?>>
  // CHECK-NEXT: %m2 = gpu.alloc () : memref<4x4xf32, strided<[4, 1], offset: 2>>
  %m2 = gpu.alloc () : memref<4x4xf32, strided<[4, 1], offset: 2>>
  // An identity map has no symbols (upstream drops it from the type).
  // CHECK-NEXT: %m3 = gpu.alloc () : memref<4xf32, affine_map<(d0)[s0] -> (d0)>>
  %m3 = gpu.alloc () : memref<4xf32, affine_map<(d0)[s0] -> (d0)>>
  func.return
}

// -----

// CHECK-LABEL: func.func @dealloc_memcpy_memset
func.func @dealloc_memcpy_memset(%dst: memref<3x7xf32>, %src: memref<3x7xf32, 1>, %dyn: memref<?x7xf32>, %v: f32, %dep: !gpu.async.token) {
  // CHECK-NEXT: gpu.memcpy %dst, %src : memref<3x7xf32>, memref<3x7xf32, 1>
  gpu.memcpy %dst, %src : memref<3x7xf32>, memref<3x7xf32, 1>
  // CHECK-NEXT: %t0 = gpu.memcpy async [%dep] %dyn, %src : memref<?x7xf32>, memref<3x7xf32, 1>
  %t0 = gpu.memcpy async [%dep] %dyn, %src : memref<?x7xf32>, memref<3x7xf32, 1>
  // CHECK-NEXT: gpu.memcpy %dst, %dyn : memref<3x7xf32>, memref<?x7xf32> {foo}
  gpu.memcpy %dst, %dyn : memref<3x7xf32>, memref<?x7xf32> {foo}
  // CHECK-NEXT: gpu.memset %dst, %v : memref<3x7xf32>, f32
  gpu.memset %dst, %v : memref<3x7xf32>, f32
  // CHECK-NEXT: %t1 = gpu.memset async [%t0] %src, %v : memref<3x7xf32, 1>, f32
  %t1 = gpu.memset async [%t0] %src, %v : memref<3x7xf32, 1>, f32
  // CHECK-NEXT: %t2 = gpu.dealloc async [%t1] %src : memref<3x7xf32, 1>
  %t2 = gpu.dealloc async [%t1] %src : memref<3x7xf32, 1>
  // CHECK-NEXT: gpu.dealloc %dst : memref<3x7xf32>
  gpu.dealloc %dst : memref<3x7xf32>
  // CHECK-NEXT: %t3 = gpu.dealloc async %dyn : memref<?x7xf32>
  %t3 = gpu.dealloc async %dyn : memref<?x7xf32>
  func.return
}

// -----

// CHECK-LABEL: func.func @wait
func.func @wait(%arg: !gpu.async.token) {
  // CHECK-NEXT: %t0 = gpu.wait async
  %t0 = gpu.wait async
  // CHECK-NEXT: %t1 = gpu.wait async [%t0, %arg]
  %t1 = gpu.wait async [%t0, %arg]
  // CHECK-NEXT: %t2 = gpu.wait async {foo}
  %t2 = gpu.wait async [] {foo}
  // CHECK-NEXT: gpu.wait [%t1, %t2]
  gpu.wait [%t1, %t2]
  // CHECK-NEXT: gpu.wait
  gpu.wait
  // CHECK-NEXT: gpu.wait {bar}
  gpu.wait [] {bar}
  func.return
}

// -----

// CHECK-LABEL: func.func @host_register_and_device
func.func @host_register_and_device(%u: memref<*xf32>, %i: i32) {
  // CHECK-NEXT: gpu.host_register %u : memref<*xf32>
  gpu.host_register %u : memref<*xf32>
  // CHECK-NEXT: gpu.host_unregister %u {foo} : memref<*xf32>
  gpu.host_unregister %u {foo} : memref<*xf32>
  // CHECK-NEXT: gpu.set_default_device %i
  gpu.set_default_device %i
  // CHECK-NEXT: gpu.set_default_device {foo} %i
  gpu.set_default_device {foo} %i
  func.return
}

// -----

// The sequence that gpu-async-region produces (inventory, ex/ar.mlir).

// CHECK-LABEL: func.func @async_chain
func.func @async_chain(%h: memref<16xf32>) {
  // CHECK-NEXT: %t0 = gpu.wait async
  // CHECK-NEXT: %d, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
  // CHECK-NEXT: %t2 = gpu.memcpy async [%t1] %d, %h : memref<16xf32>, memref<16xf32>
  // CHECK-NEXT: %t3 = gpu.memcpy async [%t2] %h, %d : memref<16xf32>, memref<16xf32>
  // CHECK-NEXT: %t4 = gpu.dealloc async [%t3] %d : memref<16xf32>
  // CHECK-NEXT: gpu.wait [%t4]
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
  %t2 = gpu.memcpy async [%t1] %d, %h : memref<16xf32>, memref<16xf32>
  %t3 = gpu.memcpy async [%t2] %h, %d : memref<16xf32>, memref<16xf32>
  %t4 = gpu.dealloc async [%t3] %d : memref<16xf32>
  gpu.wait [%t4]
  func.return
}
