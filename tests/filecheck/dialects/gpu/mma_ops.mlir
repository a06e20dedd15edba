// RUN: XDSL_ROUNDTRIP
// RUN: xdsl-opt %s --split-input-file | filecheck %s
// RUN: xdsl-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// Subgroup MMA ops in upstream's syntax. Every chunk is also checked against
// mlir-opt-22 by tests/test_mlir_conformance.py.

// CHECK-LABEL: func.func @load_store
// GENERIC-LABEL: "func.func"
func.func @load_store(%src: memref<32x32xf16, 3>, %i: index, %j: index) {
  // CHECK-NEXT: %a = gpu.subgroup_mma_load_matrix %src[%i, %j] {leadDimension = 32 : index} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
  // GENERIC: "gpu.subgroup_mma_load_matrix"(%src, %i, %j) <{leadDimension = 32 : index}> : (memref<32x32xf16, 3>, index, index) -> !gpu.mma_matrix<16x16xf16, "AOp">
  %a = gpu.subgroup_mma_load_matrix %src[%i, %j] {leadDimension = 32 : index} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
  // CHECK-NEXT: %b = gpu.subgroup_mma_load_matrix %src[%i, %j] {leadDimension = 32 : index, transpose} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
  // GENERIC: <{leadDimension = 32 : index, transpose}>
  %b = gpu.subgroup_mma_load_matrix %src[%i, %j] {leadDimension = 32 : index, transpose} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "BOp">
  // CHECK-NEXT: %c = gpu.subgroup_mma_load_matrix %src[%i, %j] {foo, leadDimension = 32 : index} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "COp">
  %c = gpu.subgroup_mma_load_matrix %src[%i, %j] {leadDimension = 32 : index, foo} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_store_matrix %c, %src[%i, %j] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16, 3>
  gpu.subgroup_mma_store_matrix %c, %src[%i, %j] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16, 3>
  // CHECK-NEXT: gpu.subgroup_mma_store_matrix %c, %src[%i, %j] {leadDimension = 32 : index, transpose} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16, 3>
  gpu.subgroup_mma_store_matrix %c, %src[%i, %j] {leadDimension = 32 : index, transpose} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16, 3>
  func.return
}

// -----

// Memrefs whose innermost dimension has unit stride: strided and affine-map layouts,
// a symbolic offset or outer stride, vector elements, rank 0, shared memory.

// CHECK-LABEL: func.func @unit_stride_layouts
func.func @unit_stride_layouts(
    %s: memref<16x32xf32, strided<[64, 1], offset: ?>>,
    %m: memref<32x32xf16, affine_map<(d0, d1) -> (d0 * 64 + d1)>>,
    %y: memref<32x32xf16, affine_map<(d0, d1)[s0, s1] -> (d0 * s0 + d1 + s1)>>,
    %v: memref<32x8xvector<4xf16>>, %r: memref<i32>,
    %w: memref<32x32xf16, #gpu.address_space<workgroup>>, %i: index) {
  // CHECK-NEXT: gpu.subgroup_mma_load_matrix %s[%i, %i] {leadDimension = 64 : index} : memref<16x32xf32, strided<[64, 1], offset: ?>> -> !gpu.mma_matrix<16x8xf32, "COp">
  %0 = gpu.subgroup_mma_load_matrix %s[%i, %i] {leadDimension = 64 : index} : memref<16x32xf32, strided<[64, 1], offset: ?>> -> !gpu.mma_matrix<16x8xf32, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_load_matrix %m[%i, %i]
  %1 = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 64 : index} : memref<32x32xf16, affine_map<(d0, d1) -> (d0 * 64 + d1)>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  // CHECK-NEXT: gpu.subgroup_mma_load_matrix %y[%i, %i]
  %2 = gpu.subgroup_mma_load_matrix %y[%i, %i] {leadDimension = 64 : index} : memref<32x32xf16, affine_map<(d0, d1)[s0, s1] -> (d0 * s0 + d1 + s1)>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  // CHECK-NEXT: gpu.subgroup_mma_load_matrix %v[%i, %i] {leadDimension = 8 : index} : memref<32x8xvector<4xf16>> -> !gpu.mma_matrix<16x16xf16, "BOp">
  %3 = gpu.subgroup_mma_load_matrix %v[%i, %i] {leadDimension = 8 : index} : memref<32x8xvector<4xf16>> -> !gpu.mma_matrix<16x16xf16, "BOp">
  // CHECK-NEXT: gpu.subgroup_mma_load_matrix %r[] {leadDimension = 1 : index} : memref<i32> -> !gpu.mma_matrix<16x16xi32, "COp">
  %4 = gpu.subgroup_mma_load_matrix %r[] {leadDimension = 1 : index} : memref<i32> -> !gpu.mma_matrix<16x16xi32, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_load_matrix %w[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  %5 = gpu.subgroup_mma_load_matrix %w[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  func.return
}

// -----

// C += A * B; the shapes are (M x K) * (K x N) -> (M x N).

// CHECK-LABEL: func.func @compute
func.func @compute(%a: !gpu.mma_matrix<16x8xf16, "AOp">, %b: !gpu.mma_matrix<8x32xf16, "BOp">,
                   %c: !gpu.mma_matrix<16x32xf32, "COp">,
                   %ia: !gpu.mma_matrix<16x16xsi8, "AOp">, %ib: !gpu.mma_matrix<16x16xui8, "BOp">,
                   %ic: !gpu.mma_matrix<16x16xi32, "COp">) {
  // CHECK-NEXT: %0 = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<8x32xf16, "BOp"> -> !gpu.mma_matrix<16x32xf32, "COp">
  // GENERIC: "gpu.subgroup_mma_compute"(%a, %b, %c) : (!gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<8x32xf16, "BOp">, !gpu.mma_matrix<16x32xf32, "COp">) -> !gpu.mma_matrix<16x32xf32, "COp">
  %0 = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<8x32xf16, "BOp"> -> !gpu.mma_matrix<16x32xf32, "COp">
  // CHECK-NEXT: %1 = gpu.subgroup_mma_compute %a, %b, %0 {a_transpose, b_transpose} : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<8x32xf16, "BOp"> -> !gpu.mma_matrix<16x32xf32, "COp">
  // GENERIC: <{a_transpose, b_transpose}>
  %1 = gpu.subgroup_mma_compute %a, %b, %0 {a_transpose, b_transpose} : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<8x32xf16, "BOp"> -> !gpu.mma_matrix<16x32xf32, "COp">
  // CHECK-NEXT: %2 = gpu.subgroup_mma_compute %ia, %ib, %ic {b_transpose} : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xui8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
  %2 = gpu.subgroup_mma_compute %ia, %ib, %ic {b_transpose} : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xui8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
  func.return
}

// -----

// CHECK-LABEL: func.func @constant_matrix
func.func @constant_matrix(%h: f16, %f: f32, %i: i32, %s: si8) {
  // CHECK-NEXT: %0 = gpu.subgroup_mma_constant_matrix %h : !gpu.mma_matrix<16x16xf16, "COp">
  // GENERIC: "gpu.subgroup_mma_constant_matrix"(%h) : (f16) -> !gpu.mma_matrix<16x16xf16, "COp">
  %0 = gpu.subgroup_mma_constant_matrix %h : !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK-NEXT: %1 = gpu.subgroup_mma_constant_matrix %f : !gpu.mma_matrix<16x16xf32, "COp">
  %1 = gpu.subgroup_mma_constant_matrix %f : !gpu.mma_matrix<16x16xf32, "COp">
  // CHECK-NEXT: %2 = gpu.subgroup_mma_constant_matrix %i : !gpu.mma_matrix<16x16xi32, "COp">
  %2 = gpu.subgroup_mma_constant_matrix %i : !gpu.mma_matrix<16x16xi32, "COp">
  // CHECK-NEXT: %3 = gpu.subgroup_mma_constant_matrix %s {foo} : !gpu.mma_matrix<16x16xsi8, "AOp">
  %3 = gpu.subgroup_mma_constant_matrix %s {foo} : !gpu.mma_matrix<16x16xsi8, "AOp">
  func.return
}

// -----

// Every elementwise kind. mlir-opt 22 does not require the arguments to have one
// type (see mma_ops.py).

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: !gpu.mma_matrix<16x16xf16, "COp">, %b: !gpu.mma_matrix<16x16xf16, "COp">,
                       %i: !gpu.mma_matrix<16x16xi32, "COp">, %f: !gpu.mma_matrix<16x16xf32, "COp">) {
  // CHECK-NEXT: %0 = gpu.subgroup_mma_elementwise addf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  // GENERIC: "gpu.subgroup_mma_elementwise"(%a, %b) <{opType = #gpu<mma_element_wise addf>}> : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  %0 = gpu.subgroup_mma_elementwise addf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_elementwise mulf %a, %b
  %1 = gpu.subgroup_mma_elementwise mulf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_elementwise subf %a, %b
  %2 = gpu.subgroup_mma_elementwise subf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_elementwise maxf %a, %b
  %3 = gpu.subgroup_mma_elementwise maxf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_elementwise minf %a, %b
  %4 = gpu.subgroup_mma_elementwise minf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_elementwise divf %a, %b
  %5 = gpu.subgroup_mma_elementwise divf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_elementwise addi %i, %i
  %6 = gpu.subgroup_mma_elementwise addi %i, %i : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_elementwise muli %i, %i
  %7 = gpu.subgroup_mma_elementwise muli %i, %i : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_elementwise subi %i, %i
  %8 = gpu.subgroup_mma_elementwise subi %i, %i : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_elementwise divs %i, %i
  %9 = gpu.subgroup_mma_elementwise divs %i, %i : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_elementwise divu %i, %i
  %10 = gpu.subgroup_mma_elementwise divu %i, %i : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
  // CHECK-NEXT: %11 = gpu.subgroup_mma_elementwise negatef %a : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  %11 = gpu.subgroup_mma_elementwise negatef %a : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_elementwise negates %i
  %12 = gpu.subgroup_mma_elementwise negates %i : (!gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
  // CHECK-NEXT: %13 = gpu.subgroup_mma_elementwise extf %a : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
  %13 = gpu.subgroup_mma_elementwise extf %a : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
  // CHECK-NEXT: %14 = gpu.subgroup_mma_elementwise addf %a, %f {foo} : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
  %14 = gpu.subgroup_mma_elementwise addf %a, %f {foo} : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
  func.return
}

// -----

// CHECK-LABEL: func.func @thread_local
func.func @thread_local(%m: !gpu.mma_matrix<16x16xf32, "AOp">, %i: index, %j: index) {
  // CHECK-NEXT: %0 = gpu.subgroup_mma_extract_thread_local %m[%i] : !gpu.mma_matrix<16x16xf32, "AOp"> -> f32
  // GENERIC: "gpu.subgroup_mma_extract_thread_local"(%m, %i) : (!gpu.mma_matrix<16x16xf32, "AOp">, index) -> f32
  %0 = gpu.subgroup_mma_extract_thread_local %m[%i] : !gpu.mma_matrix<16x16xf32, "AOp"> -> f32
  // CHECK-NEXT: %1 = gpu.subgroup_mma_extract_thread_local %m[%i, %j] : !gpu.mma_matrix<16x16xf32, "AOp"> -> f32
  %1 = gpu.subgroup_mma_extract_thread_local %m[%i, %j] : !gpu.mma_matrix<16x16xf32, "AOp"> -> f32
  // CHECK-NEXT: %2 = gpu.subgroup_mma_insert_thread_local %0, %m[%i] : f32, !gpu.mma_matrix<16x16xf32, "AOp"> -> !gpu.mma_matrix<16x16xf32, "AOp">
  // GENERIC: "gpu.subgroup_mma_insert_thread_local"(%0, %m, %i) : (f32, !gpu.mma_matrix<16x16xf32, "AOp">, index) -> !gpu.mma_matrix<16x16xf32, "AOp">
  %2 = gpu.subgroup_mma_insert_thread_local %0, %m[%i] : f32, !gpu.mma_matrix<16x16xf32, "AOp"> -> !gpu.mma_matrix<16x16xf32, "AOp">
  // The result type is not tied to the matrix operand's.
  // CHECK-NEXT: %3 = gpu.subgroup_mma_insert_thread_local %1, %m[] {foo} : f32, !gpu.mma_matrix<16x16xf32, "AOp"> -> !gpu.mma_matrix<8x8xf16, "COp">
  %3 = gpu.subgroup_mma_insert_thread_local %1, %m[] {foo} : f32, !gpu.mma_matrix<16x16xf32, "AOp"> -> !gpu.mma_matrix<8x8xf16, "COp">
  func.return
}

// -----

// A WMMA kernel: load A, B and C from shared memory, multiply-accumulate, store.

// CHECK-LABEL: gpu.module @wmma
gpu.module @wmma {
  // CHECK: gpu.func @matmul
  gpu.func @matmul(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) kernel {
    %c0 = arith.constant 0 : index
    // CHECK: gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index}
    %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %C = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    // CHECK: gpu.subgroup_mma_compute %A, %B, %C
    %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    // CHECK: gpu.subgroup_mma_store_matrix %D, %c[%c0, %c0] {leadDimension = 16 : index}
    gpu.subgroup_mma_store_matrix %D, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}
