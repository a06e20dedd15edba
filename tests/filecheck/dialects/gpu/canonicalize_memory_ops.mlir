// RUN: xdsl-opt %s -p canonicalize --split-input-file | filecheck %s

// The canonicalization patterns of gpu.alloc, gpu.memcpy and gpu.wait; the output
// is what `mlir-opt-22 --canonicalize` gives.

// CHECK-LABEL: func.func @waits
// CHECK-NEXT:    gpu.wait [%a]
// CHECK-NEXT:    func.return
func.func @waits(%a: !gpu.async.token) {
  // Waits for nothing: dropped from the dependencies of other waits.
  %e = gpu.wait async
  // One dependency: the token is that dependency.
  %f = gpu.wait async [%a, %e]
  gpu.wait [%f, %e]
  // Neither dependencies nor token.
  gpu.wait
  // A token nobody uses.
  %g = gpu.wait async [%a, %a]
  func.return
}

// -----

// CHECK-LABEL: func.func @merge
// CHECK-NEXT:    %t = gpu.wait async [%a, %b]
// CHECK-NEXT:    gpu.wait [%t]
func.func @merge(%a: !gpu.async.token, %b: !gpu.async.token) {
  %t = gpu.wait async [%a, %b]
  gpu.wait [%t]
  func.return
}

// -----

// CHECK-LABEL: func.func @unused_allocs
// CHECK-NEXT:    func.return
func.func @unused_allocs(%t: !gpu.async.token, %n: index) {
  %m = gpu.alloc (%n) : memref<?xf32>
  %m2, %t2 = gpu.alloc async [%t] () : memref<4xf32>
  func.return
}

// -----

// CHECK-LABEL: func.func @dim_of_alloc
// CHECK-NEXT:    %m = gpu.alloc (%n, %k) : memref<?x4x?xf32>
// CHECK-NEXT:    gpu.dealloc %m : memref<?x4x?xf32>
// CHECK-NEXT:    func.return %n, %k : index, index
func.func @dim_of_alloc(%n: index, %k: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %m = gpu.alloc (%n, %k) : memref<?x4x?xf32>
  %d0 = memref.dim %m, %c0 : memref<?x4x?xf32>
  %d2 = memref.dim %m, %c2 : memref<?x4x?xf32>
  gpu.dealloc %m : memref<?x4x?xf32>
  func.return %d0, %d2 : index, index
}

// -----

// A copy into memory that is only freed afterwards goes.

// CHECK-LABEL: func.func @trivial_copies
// CHECK-NEXT:    %m, %t1 = gpu.alloc async [%t] () : memref<4xf32>
// CHECK-NEXT:    %t3 = gpu.dealloc async [%t1] %m : memref<4xf32>
// CHECK-NEXT:    func.return %t3 : !gpu.async.token
func.func @trivial_copies(%h: memref<4xf32>, %t: !gpu.async.token) -> !gpu.async.token {
  %m, %t1 = gpu.alloc async [%t] () : memref<4xf32>
  %t2 = gpu.memcpy async [%t1] %m, %h : memref<4xf32>, memref<4xf32>
  %t3 = gpu.dealloc async [%t2] %m : memref<4xf32>
  %m2 = memref.alloc () : memref<4xf32>
  gpu.memcpy %m2, %h : memref<4xf32>, memref<4xf32>
  memref.dealloc %m2 : memref<4xf32>
  func.return %t3 : !gpu.async.token
}

// -----

// CHECK-LABEL: func.func @copies_that_stay
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %m = gpu.alloc () : memref<4xf32>
// CHECK-NEXT:    gpu.memcpy %m, %h : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    %v = memref.load %m[%c0] : memref<4xf32>
// CHECK-NEXT:    %m2 = gpu.alloc () : memref<4xf32>
// CHECK-NEXT:    %t2 = gpu.memcpy async [%a, %b] %m2, %h : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    gpu.dealloc %m2 : memref<4xf32>
// CHECK-NEXT:    %m3 = gpu.alloc () : memref<4xf32>
// CHECK-NEXT:    gpu.memcpy %m3, %h : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    func.return %v, %t2, %m3 : f32, !gpu.async.token, memref<4xf32>
func.func @copies_that_stay(%h: memref<4xf32>, %a: !gpu.async.token, %b: !gpu.async.token) -> (f32, !gpu.async.token, memref<4xf32>) {
  %c0 = arith.constant 0 : index
  // The copy is read.
  %m = gpu.alloc () : memref<4xf32>
  gpu.memcpy %m, %h : memref<4xf32>, memref<4xf32>
  %v = memref.load %m[%c0] : memref<4xf32>
  // Two dependencies.
  %m2 = gpu.alloc () : memref<4xf32>
  %t2 = gpu.memcpy async [%a, %b] %m2, %h : memref<4xf32>, memref<4xf32>
  gpu.dealloc %m2 : memref<4xf32>
  // The destination escapes.
  %m3 = gpu.alloc () : memref<4xf32>
  gpu.memcpy %m3, %h : memref<4xf32>, memref<4xf32>
  func.return %v, %t2, %m3 : f32, !gpu.async.token, memref<4xf32>
}

// -----

// gpu.memcpy and gpu.memset read through a memref.cast of a ranked memref (upstream's
// memref::foldMemRefCast folder); a cast of an unranked memref stays.
// CHECK-LABEL: func.func @casts_folded
// CHECK-SAME:    (%[[A:.*]]: memref<10xf32>, %[[B:.*]]: memref<10xf32>, %[[U:.*]]: memref<*xf32>, %[[F:.*]]: f32)
// CHECK-NEXT:    gpu.memcpy %[[A]], %[[B]] : memref<10xf32>, memref<10xf32>
// CHECK-NEXT:    %{{.*}} = gpu.memset async %[[A]], %[[F]] : memref<10xf32>, f32
// CHECK-NEXT:    %[[C:.*]] = memref.cast %[[U]] : memref<*xf32> to memref<?xf32>
// CHECK-NEXT:    gpu.memset %[[C]], %[[F]] : memref<?xf32>, f32
// CHECK-NEXT:    func.return
func.func @casts_folded(%a: memref<10xf32>, %b: memref<10xf32>, %u: memref<*xf32>, %f: f32) -> !gpu.async.token {
  %0 = memref.cast %a : memref<10xf32> to memref<?xf32>
  %1 = memref.cast %b : memref<10xf32> to memref<?xf32>
  gpu.memcpy %0, %1 : memref<?xf32>, memref<?xf32>
  %t = gpu.memset async %0, %f : memref<?xf32>, f32
  %2 = memref.cast %u : memref<*xf32> to memref<?xf32>
  gpu.memset %2, %f : memref<?xf32>, f32
  func.return %t : !gpu.async.token
}
