// RUN: XDSL_ROUNDTRIP
// RUN: xdsl-opt %s --split-input-file | filecheck %s

// Every memref op in upstream's custom syntax, as xdsl-gpu prints it back. Every
// chunk is also checked against mlir-opt-22 (tests/test_mlir_conformance.py). The
// ops marked (*) have no custom syntax in xDSL 0.74, or no definition at all
// (xdsl_gpu/gpu_dialect/memref.py).

// (*) memref.global: visibility and initial value are optional.
// CHECK: memref.global "private" constant @c : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> {alignment = 64 : i64}
memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]> {alignment = 64 : i64}
// CHECK-NEXT: memref.global @x : memref<4xi32> = uninitialized
memref.global @x : memref<4xi32> = uninitialized
// CHECK-NEXT: memref.global "public" @y : memref<f32> = dense<2.500000e+00>
memref.global "public" @y : memref<f32> = dense<2.5>
// CHECK-NEXT: memref.global "private" @ext : memref<3xf32>
memref.global "private" @ext : memref<3xf32>
// CHECK-NEXT: memref.global "nested" constant @i : memref<2x2xi32> = dense<{{\[\[}}1, 2], [3, 4]]>
memref.global "nested" constant @i : memref<2x2xi32> = dense<[[1, 2], [3, 4]]>
// CHECK-NEXT: memref.global @s : memref<3xi32, 1> = dense<7> {foo}
memref.global @s : memref<3xi32, 1> = dense<7> {foo}

// CHECK-LABEL: func.func @get_global
func.func @get_global() {
  // CHECK-NEXT: %g = memref.get_global @c : memref<2xf32>
  %g = memref.get_global @c : memref<2xf32>
  func.return
}

// -----

// CHECK-LABEL: func.func @alloc
func.func @alloc(%n: index) {
  // CHECK-NEXT: %a = memref.alloc() : memref<4xf32>
  %a = memref.alloc() : memref<4xf32>
  // CHECK-NEXT: %a2 = memref.alloc(%n)[%n] {alignment = 64 : i64} : memref<?xf32, strided<[1], offset: ?>>
  %a2 = memref.alloc(%n)[%n] {alignment = 64 : i64} : memref<?xf32, strided<[1], offset: ?>>
  // CHECK-NEXT: %a3 = memref.alloca(%n) : memref<?xf32>
  %a3 = memref.alloca(%n) : memref<?xf32>
  // CHECK-NEXT: %a4 = memref.alloca() {alignment = 16 : i64} : memref<4xf32>
  %a4 = memref.alloca() {alignment = 16 : i64} : memref<4xf32>
  // CHECK-NEXT: memref.dealloc %a : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  func.return
}

// -----

// (*) alloca_scope: the terminator is implicit when the scope returns nothing.

// CHECK-LABEL: func.func @alloca_scope
func.func @alloca_scope(%v: f32) -> f32 {
  // CHECK-NEXT: %r = memref.alloca_scope -> (f32) {
  // CHECK-NEXT:   %q = memref.alloca() : memref<f32>
  // CHECK-NEXT:   memref.alloca_scope.return %v : f32
  // CHECK-NEXT: }
  %r = memref.alloca_scope -> (f32) {
    %q = memref.alloca() : memref<f32>
    memref.alloca_scope.return %v : f32
  }
  // CHECK-NEXT: memref.alloca_scope {
  // CHECK-NEXT:   %q2 = memref.alloca() : memref<f32>
  // CHECK-NEXT: }
  memref.alloca_scope {
    %q2 = memref.alloca() : memref<f32>
    memref.alloca_scope.return
  }
  // CHECK-NEXT: memref.alloca_scope {
  // CHECK-NEXT: }
  memref.alloca_scope {
  }
  func.return %r : f32
}

// -----

// CHECK-LABEL: func.func @load_store
func.func @load_store(%m: memref<10x4xf32>, %i: index, %v: f32) {
  // CHECK-NEXT: %l = memref.load %m[%i, %i] : memref<10x4xf32>
  %l = memref.load %m[%i, %i] : memref<10x4xf32>
  // CHECK-NEXT: %l2 = memref.load %m[%i, %i] {nontemporal = true} : memref<10x4xf32>
  %l2 = memref.load %m[%i, %i] {nontemporal = true} : memref<10x4xf32>
  // CHECK-NEXT: memref.store %v, %m[%i, %i] : memref<10x4xf32>
  memref.store %v, %m[%i, %i] : memref<10x4xf32>
  // CHECK-NEXT: memref.store %v, %m[%i, %i] {nontemporal = true} : memref<10x4xf32>
  memref.store %v, %m[%i, %i] {nontemporal = true} : memref<10x4xf32>
  func.return
}

// -----

// (*) cast, rank of an unranked memref, copy, memory_space_cast.

// CHECK-LABEL: func.func @casts
func.func @casts(%h: memref<64x32xf32>, %d: memref<?x?xf32>, %s: memref<4xf32, strided<[1], offset: ?>>) {
  // CHECK-NEXT: %u = memref.cast %h : memref<64x32xf32> to memref<*xf32>
  %u = memref.cast %h : memref<64x32xf32> to memref<*xf32>
  // CHECK-NEXT: %back = memref.cast %u : memref<*xf32> to memref<64x32xf32>
  %back = memref.cast %u : memref<*xf32> to memref<64x32xf32>
  // CHECK-NEXT: %dyn = memref.cast %h : memref<64x32xf32> to memref<?x?xf32>
  %dyn = memref.cast %h : memref<64x32xf32> to memref<?x?xf32>
  // CHECK-NEXT: %st = memref.cast %d : memref<?x?xf32> to memref<4x?xf32>
  %st = memref.cast %d : memref<?x?xf32> to memref<4x?xf32>
  // CHECK-NEXT: %off = memref.cast %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, strided<[1], offset: 3>>
  %off = memref.cast %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, strided<[1], offset: 3>>
  // CHECK-NEXT: %r = memref.rank %u : memref<*xf32>
  %r = memref.rank %u : memref<*xf32>
  // CHECK-NEXT: %r2 = memref.rank %h : memref<64x32xf32>
  %r2 = memref.rank %h : memref<64x32xf32>
  // CHECK-NEXT: %dim = memref.dim %d, %r : memref<?x?xf32>
  %dim = memref.dim %d, %r : memref<?x?xf32>
  // CHECK-NEXT: %udim = memref.dim %u, %r : memref<*xf32>
  %udim = memref.dim %u, %r : memref<*xf32>
  // CHECK-NEXT: memref.copy %h, %back : memref<64x32xf32> to memref<64x32xf32>
  memref.copy %h, %back : memref<64x32xf32> to memref<64x32xf32>
  // CHECK-NEXT: memref.copy %u, %dyn : memref<*xf32> to memref<?x?xf32>
  memref.copy %u, %dyn : memref<*xf32> to memref<?x?xf32>
  // CHECK-NEXT: %ms = memref.memory_space_cast %h : memref<64x32xf32> to memref<64x32xf32, 1>
  %ms = memref.memory_space_cast %h : memref<64x32xf32> to memref<64x32xf32, 1>
  // CHECK-NEXT: %ums = memref.memory_space_cast %u : memref<*xf32> to memref<*xf32, 3>
  %ums = memref.memory_space_cast %u : memref<*xf32> to memref<*xf32, 3>
  // CHECK-NEXT: %p = memref.extract_aligned_pointer_as_index %h : memref<64x32xf32> -> index
  %p = memref.extract_aligned_pointer_as_index %h : memref<64x32xf32> -> index
  // CHECK-NEXT: %up = memref.extract_aligned_pointer_as_index %u : memref<*xf32> -> index
  %up = memref.extract_aligned_pointer_as_index %u : memref<*xf32> -> index
  // CHECK-NEXT: %aa = memref.assume_alignment %h, 16 : memref<64x32xf32>
  %aa = memref.assume_alignment %h, 16 : memref<64x32xf32>
  func.return
}

// -----

// CHECK-LABEL: func.func @views
func.func @views(%h: memref<64x32xf32>, %d: memref<?x?xf32>, %b: memref<2048xi8>, %i: index, %m: memref<?xf32>) {
  // CHECK-NEXT: %rc = memref.reinterpret_cast %d to offset: [0], sizes: [%i, 4], strides: [4, 1] : memref<?x?xf32> to memref<?x4xf32>
  %rc = memref.reinterpret_cast %d to offset: [0], sizes: [%i, 4], strides: [4, 1] : memref<?x?xf32> to memref<?x4xf32>
  // CHECK-NEXT: %sv = memref.subview %h[0, %i] [4, 4] [1, 1] : memref<64x32xf32> to memref<4x4xf32, strided<[32, 1], offset: ?>>
  %sv = memref.subview %h[0, %i] [4, 4] [1, 1] : memref<64x32xf32> to memref<4x4xf32, strided<[32, 1], offset: ?>>
  // CHECK-NEXT: %vw = memref.view %b[%i][] : memref<2048xi8> to memref<4x4xf32>
  %vw = memref.view %b[%i][] : memref<2048xi8> to memref<4x4xf32>
  // CHECK-NEXT: %vd = memref.view %b[%i][%i] : memref<2048xi8> to memref<?x4xf32>
  %vd = memref.view %b[%i][%i] : memref<2048xi8> to memref<?x4xf32>
  // CHECK-NEXT: %e = memref.expand_shape %m [[0, 1]] output_shape [%i, 4] : memref<?xf32> into memref<?x4xf32>
  %e = memref.expand_shape %m [[0, 1]] output_shape [%i, 4] : memref<?xf32> into memref<?x4xf32>
  // CHECK-NEXT: %co = memref.collapse_shape %h [[0, 1]] : memref<64x32xf32> into memref<2048xf32>
  %co = memref.collapse_shape %h [[0, 1]] : memref<64x32xf32> into memref<2048xf32>
  // CHECK-NEXT: %t = memref.transpose %h (d0, d1) -> (d1, d0) : memref<64x32xf32> to memref<32x64xf32, strided<[1, 32]>>
  %t = memref.transpose %h (d0, d1) -> (d1, d0) : memref<64x32xf32> to memref<32x64xf32, strided<[1, 32]>>
  // CHECK-NEXT: %base, %off, %sz, %sz_1, %st, %st_1 = memref.extract_strided_metadata %h : memref<64x32xf32> -> memref<f32>, index, index, index, index, index
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %h : memref<64x32xf32> -> memref<f32>, index, index, index, index, index
  func.return
}

// -----

// (*) atomic_rmw, generic_atomic_rmw and atomic_yield, prefetch.

// CHECK-LABEL: func.func @atomics
func.func @atomics(%m: memref<10xf32>, %mi: memref<10xi32>, %i: index, %v: f32, %iv: i32) {
  // CHECK-NEXT: %a = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<10xf32>) -> f32
  %a = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<10xf32>) -> f32
  // CHECK-NEXT: %b = memref.atomic_rmw maxs %iv, %mi[%i] : (i32, memref<10xi32>) -> i32
  %b = memref.atomic_rmw maxs %iv, %mi[%i] : (i32, memref<10xi32>) -> i32
  // CHECK-NEXT: %c = memref.atomic_rmw assign %v, %m[%i] {foo} : (f32, memref<10xf32>) -> f32
  %c = memref.atomic_rmw assign %v, %m[%i] {foo} : (f32, memref<10xf32>) -> f32
  // CHECK-NEXT: %d = memref.atomic_rmw xori %iv, %mi[%i] : (i32, memref<10xi32>) -> i32
  %d = memref.atomic_rmw xori %iv, %mi[%i] : (i32, memref<10xi32>) -> i32
  // CHECK-NEXT: %x = memref.generic_atomic_rmw %m[%i] : memref<10xf32> {
  // CHECK-NEXT: ^bb0(%current: f32):
  // CHECK-NEXT:   %s = arith.addf %current, %v : f32
  // CHECK-NEXT:   memref.atomic_yield %s : f32
  // CHECK-NEXT: }
  %x = memref.generic_atomic_rmw %m[%i] : memref<10xf32> {
  ^bb0(%current : f32):
    %s = arith.addf %current, %v : f32
    memref.atomic_yield %s : f32
  }
  // CHECK-NEXT: %y = memref.generic_atomic_rmw %mi[%i] : memref<10xi32> {
  // CHECK-NEXT: ^bb0(%old: i32):
  // CHECK-NEXT:   memref.atomic_yield %iv : i32
  // CHECK-NEXT: } {foo}
  %y = memref.generic_atomic_rmw %mi[%i] : memref<10xi32> {
  ^bb0(%old : i32):
    memref.atomic_yield %iv : i32
  } {foo}
  // CHECK-NEXT: memref.prefetch %m[%i], read, locality<3>, data : memref<10xf32>
  memref.prefetch %m[%i], read, locality<3>, data : memref<10xf32>
  // CHECK-NEXT: memref.prefetch %m[%i], write, locality<0>, instr : memref<10xf32>
  memref.prefetch %m[%i], write, locality<0>, instr : memref<10xf32>
  func.return
}

// -----

// Memory space 0 is the default space (upstream drops it from the type), so these
// casts are cast compatible; transpose compares the canonical strided layouts
// (strided<[1, 8]> is affine_map<(d0, d1) -> (d0 + d1 * 8)>, the identity
// permutation of memref<4x8xf32> is memref<4x8xf32, strided<[8, 1]>> or
// memref<4x8xf32>); collapse_shape and expand_shape take an empty group for a
// unit dimension and no group for rank 0.

// CHECK-LABEL: func.func @default_space_and_layouts
func.func @default_space_and_layouts(%m: memref<4xf32>, %u: memref<*xf32>, %h: memref<4x8xf32>, %z: memref<f32>) {
  // CHECK-NEXT: %c0 = memref.cast %m : memref<4xf32> to memref<4xf32, 0>
  %c0 = memref.cast %m : memref<4xf32> to memref<4xf32, 0>
  // CHECK-NEXT: %c1 = memref.cast %m : memref<4xf32> to memref<*xf32, 0 : i32>
  %c1 = memref.cast %m : memref<4xf32> to memref<*xf32, 0 : i32>
  // CHECK-NEXT: %c2 = memref.cast %u : memref<*xf32> to memref<4xf32, 0>
  %c2 = memref.cast %u : memref<*xf32> to memref<4xf32, 0>
  // CHECK-NEXT: %s0 = memref.memory_space_cast %m : memref<4xf32> to memref<4xf32, 0>
  %s0 = memref.memory_space_cast %m : memref<4xf32> to memref<4xf32, 0>
  // CHECK-NEXT: %s1 = memref.memory_space_cast %m : memref<4xf32> to memref<4xf32, 1>
  %s1 = memref.memory_space_cast %m : memref<4xf32> to memref<4xf32, 1>
  // CHECK-NEXT: %s2 = memref.memory_space_cast %s1 : memref<4xf32, 1> to memref<4xf32, 0 : i16>
  %s2 = memref.memory_space_cast %s1 : memref<4xf32, 1> to memref<4xf32, 0 : i16>
  // CHECK-NEXT: %s3 = memref.memory_space_cast %u : memref<*xf32> to memref<*xf32, 0>
  %s3 = memref.memory_space_cast %u : memref<*xf32> to memref<*xf32, 0>
  // CHECK-NEXT: %t0 = memref.transpose %m (d0) -> (d0) : memref<4xf32> to memref<4xf32, strided<[1]>>
  %t0 = memref.transpose %m (d0) -> (d0) : memref<4xf32> to memref<4xf32, strided<[1]>>
  // CHECK-NEXT: %t1 = memref.transpose %h (d0, d1) -> (d0, d1) : memref<4x8xf32> to memref<4x8xf32>
  %t1 = memref.transpose %h (d0, d1) -> (d0, d1) : memref<4x8xf32> to memref<4x8xf32>
  // CHECK-NEXT: %t2 = memref.transpose %h (d0, d1) -> (d0, d1) : memref<4x8xf32> to memref<4x8xf32, strided<[8, 1]>>
  %t2 = memref.transpose %h (d0, d1) -> (d0, d1) : memref<4x8xf32> to memref<4x8xf32, strided<[8, 1]>>
  // CHECK-NEXT: %t3 = memref.transpose %h (d0, d1) -> (d1, d0) : memref<4x8xf32> to memref<8x4xf32, strided<[1, 8]>, 0>
  %t3 = memref.transpose %h (d0, d1) -> (d1, d0) : memref<4x8xf32> to memref<8x4xf32, strided<[1, 8]>, 0>
  // CHECK-NEXT: %t4 = memref.transpose %z () -> () : memref<f32> to memref<f32>
  %t4 = memref.transpose %z () -> () : memref<f32> to memref<f32>
  // CHECK-NEXT: %co = memref.collapse_shape %h [[0, 1], []] : memref<4x8xf32> into memref<32x1xf32>
  %co = memref.collapse_shape %h [[0, 1], []] : memref<4x8xf32> into memref<32x1xf32>
  // CHECK-NEXT: %ex0 = memref.expand_shape %z [] output_shape [1, 1] : memref<f32> into memref<1x1xf32>
  %ex0 = memref.expand_shape %z [] output_shape [1, 1] : memref<f32> into memref<1x1xf32>
  // CHECK-NEXT: %co0 = memref.collapse_shape %ex0 [] : memref<1x1xf32> into memref<f32>
  %co0 = memref.collapse_shape %ex0 [] : memref<1x1xf32> into memref<f32>
  func.return
}
