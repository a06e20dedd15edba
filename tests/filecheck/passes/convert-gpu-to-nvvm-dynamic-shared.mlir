// RUN: xdsl-opt %s -p convert-gpu-to-nvvm --split-input-file | filecheck %s
// RUN: xdsl-opt %s -p 'convert-gpu-to-nvvm,reconcile-unrealized-casts,gpu-module-to-binary{format=isa}' --split-input-file | filecheck %s --check-prefix=PTX

// gpu.dynamic_shared_memory: one internal zero-length i8 array in shared memory per
// module, aligned to 16, as MLIR 22 makes it. In PTX every zero-length shared array
// is dynamic shared memory (`.extern .shared ... []`, not a one-byte static
// variable that the other static ones would follow), aligned to 1024 for TMA tiles.

// CHECK:       gpu.module @dyn [#nvvm.target<chip = "sm_90">] {
// CHECK-NEXT:    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT:    llvm.mlir.global internal @__wg_first_0() {addr_space = 3 : i32} : !llvm.array<16 x f32>
// CHECK-NOT:     llvm.mlir.global
// CHECK-LABEL:   llvm.func @first(
// CHECK:           %[[A:.*]] = llvm.mlir.addressof @__dynamic_shmem__0 : !llvm.ptr<3>
// CHECK-NEXT:      %{{.*}} = llvm.getelementptr %[[A]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-LABEL:   llvm.func @second(
// CHECK:           llvm.mlir.addressof @__dynamic_shmem__0 : !llvm.ptr<3>

// PTX:       .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// PTX-NOT:   .shared .align 16 .b8 __dynamic_shmem__0;
// PTX:       .shared .align 4 .b8 __wg_first_0[64];
module attributes {gpu.container_module} {
  gpu.module @dyn [#nvvm.target<chip = "sm_90">] {
    gpu.func @first(%out: memref<?xf32>, %f: f32) workgroup(%w: memref<16xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %t = gpu.thread_id x
      %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %d[%c16][%c16] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
      memref.store %f, %v[%t] : memref<?xf32, #gpu.address_space<workgroup>>
      memref.store %f, %w[%t] : memref<16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %x = memref.load %v[%c0] : memref<?xf32, #gpu.address_space<workgroup>>
      %y = memref.load %w[%c0] : memref<16xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %x, %y : f32
      memref.store %s, %out[%t] : memref<?xf32>
      gpu.return
    }
    gpu.func @second(%out: memref<?xf32>, %f: f32) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %d[%c0][%c0] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
      memref.store %f, %v[%t] : memref<?xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %x = memref.load %v[%c0] : memref<?xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%t] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// A zero-length shared array aligned to 16 that the module has is taken, external
// or not (any element type: they all start the dynamic shared memory).

// CHECK:       gpu.module @taken [#nvvm.target<chip = "sm_90">] {
// CHECK-NEXT:    llvm.mlir.global external @extern_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x f16>
// CHECK-NEXT:    llvm.func @k(
// CHECK:           llvm.mlir.addressof @extern_smem : !llvm.ptr<3>

// PTX:       .extern .shared .align 1024 .b8 extern_smem[];
module attributes {gpu.container_module} {
  gpu.module @taken [#nvvm.target<chip = "sm_90">] {
    llvm.mlir.global external @extern_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x f16>
    gpu.func @k(%out: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %x = memref.load %d[%c0] : memref<?xi8, #gpu.address_space<workgroup>>
      memref.store %x, %out[%c0] : memref<?xi8>
      gpu.return
    }
  }
}

// -----

// A user's zero-length shared arrays (here a memref.global, internal and private)
// are dynamic shared memory too, and the same address as gpu.dynamic_shared_memory's:
// in PTX one declaration, named after the first, which all uses name.

// CHECK:       gpu.module @users [#nvvm.target<chip = "sm_90">] {
// CHECK-NEXT:    llvm.mlir.global private @tiles() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x f16>
// CHECK-NEXT:    llvm.mlir.global internal @acc() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<0 x f32>
// CHECK-NEXT:    llvm.func @k(
// CHECK:           llvm.mlir.addressof @tiles : !llvm.ptr<3>

// PTX:       .extern .shared .align 1024 .b8 tiles[];
// PTX-NOT:   acc
// PTX:       ld.shared.b8 {{.*}}[tiles];
// PTX:       st.shared.b32 {{.*}}[tiles+4],
module attributes {gpu.container_module} {
  gpu.module @users [#nvvm.target<chip = "sm_90">] {
    memref.global "private" @tiles : memref<0xf16, 3> {alignment = 16 : i64}
    llvm.mlir.global internal @acc() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<0 x f32>
    gpu.func @k(%out: memref<?xi8>, %f: f32) kernel {
      %c0 = arith.constant 0 : index
      %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %x = memref.load %d[%c0] : memref<?xi8, #gpu.address_space<workgroup>>
      memref.store %x, %out[%c0] : memref<?xi8>
      %a = llvm.mlir.addressof @acc : !llvm.ptr<3>
      %p = llvm.getelementptr %a[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
      llvm.store %f, %p : f32, !llvm.ptr<3>
      gpu.return
    }
  }
}
