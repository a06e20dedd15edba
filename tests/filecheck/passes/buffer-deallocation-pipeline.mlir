// RUN: xdsl-opt %s -p buffer-deallocation-pipeline | filecheck %s

// Buffers that stay in their block are freed before its terminator, in allocation
// order; a returned one is the caller's; a returned argument is cloned (the
// function boundary ABI). Same output as mlir-opt-22 -buffer-deallocation-pipeline.

// CHECK-LABEL: func.func @blocks(
// CHECK-SAME:     %[[C:.*]]: i1, %[[N:.*]]: index)
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT:    "test.read_buffer"(%[[A]])
// CHECK-NEXT:    %[[B:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT:    %[[V:.*]] = memref.subview %[[B]]
// CHECK-NEXT:    "test.read_buffer"(%[[V]])
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      %[[D:.*]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT:      "test.read_buffer"(%[[D]])
// CHECK-NEXT:      memref.dealloc %[[D]] : memref<2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[G:.*]] = gpu.alloc () : memref<4xi32>
// CHECK-NEXT:    "test.read_buffer"(%[[G]])
// CHECK-NEXT:    %[[R:.*]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT:    memref.dealloc %[[A]] : memref<2xf32>
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<?xf32>
// CHECK-NEXT:    memref.dealloc %[[G]] : memref<4xi32>
// CHECK-NEXT:    func.return %[[R]] : memref<2xf32>
func.func @blocks(%c: i1, %n: index) -> memref<2xf32> {
  %a = memref.alloc() : memref<2xf32>
  "test.read_buffer"(%a) : (memref<2xf32>) -> ()
  %unused = arith.addi %n, %n : index
  %b = memref.alloc(%n) : memref<?xf32>
  %v = memref.subview %b[0][1][1] : memref<?xf32> to memref<1xf32, strided<[1]>>
  "test.read_buffer"(%v) : (memref<1xf32, strided<[1]>>) -> ()
  scf.if %c {
    %d = memref.alloc() : memref<2xf32>
    "test.read_buffer"(%d) : (memref<2xf32>) -> ()
  }
  %g = gpu.alloc () : memref<4xi32>
  "test.read_buffer"(%g) : (memref<4xi32>) -> ()
  %r = memref.alloc() : memref<2xf32>
  return %r : memref<2xf32>
}

// CHECK-LABEL: func.func @views_and_arguments(
// CHECK-SAME:     %[[ARG:.*]]: memref<2xf32>)
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    %[[V:.*]] = memref.subview %[[A]]
// CHECK-NEXT:    %[[K:.*]] = bufferization.clone %[[ARG]] : memref<2xf32> to memref<2xf32>
// CHECK-NEXT:    func.return %[[V]], %[[K]]
func.func @views_and_arguments(%arg: memref<2xf32>) -> (memref<2xf32, strided<[1]>>, memref<2xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %v = memref.subview %a[0][2][1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  return %v, %arg : memref<2xf32, strided<[1]>>, memref<2xf32>
}

// Inside a kernel: freed before gpu.terminator.
// CHECK-LABEL: func.func @launch(
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[A:.*]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT:      "test.read_buffer"(%[[A]])
// CHECK-NEXT:      memref.dealloc %[[A]] : memref<2xf32>
// CHECK-NEXT:      gpu.terminator
func.func @launch() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %a = memref.alloc() : memref<2xf32>
    "test.read_buffer"(%a) : (memref<2xf32>) -> ()
    gpu.terminator
  }
  return
}
