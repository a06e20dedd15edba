// RUN: xdsl-opt %s -p gpu-launch-sink-index-computations --split-input-file | filecheck %s
// RUN: xdsl-opt %s -p gpu-launch-sink-index-computations,gpu-kernel-outlining --split-input-file | filecheck %s --check-prefix=OUTLINED

// Constants, memref.dim, arith.cmpi and arith.select are copied to the start of the
// body, defs first, when every input is available inside; the originals stay.
// arith.addi is not on upstream's list, a select of a function argument that the
// body does not use would need a new kernel argument, and memref.load has effects.

func.func @sink(%m: memref<?xf32>, %n: memref<?x?xf32>, %b: i1) {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %d = memref.dim %m, %c0 : memref<?xf32>
  %cmp = arith.cmpi ult, %d, %c2 : index
  %sel = arith.select %cmp, %d, %c2 : index
  %add = arith.addi %c2, %c1 : index
  %e = memref.dim %n, %c1 : memref<?x?xf32>
  %partial = arith.select %b, %e, %c2 : index
  %v = memref.load %m[%c0] : memref<?xf32>
  gpu.launch blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1) threads(%6, %7, %8) in (%9 = %c2, %10 = %c1, %11 = %c1) {
    %x = arith.addi %sel, %add : index
    %y = arith.addi %partial, %x : index
    memref.store %v, %m[%y] : memref<?xf32>
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @sink(
// CHECK-SAME:      %[[M:.*]]: memref<?xf32>, %{{.*}}: memref<?x?xf32>, %{{.*}}: i1) {
// CHECK:         %[[ADD:.*]] = arith.addi
// CHECK:         %[[PARTIAL:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[V:.*]] = memref.load
// CHECK-NEXT:    gpu.launch
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[D:.*]] = memref.dim %[[M]], %[[C0]] : memref<?xf32>
// CHECK-NEXT:      %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[CMP:.*]] = arith.cmpi ult, %[[D]], %[[C2]] : index
// CHECK-NEXT:      %[[SEL:.*]] = arith.select %[[CMP]], %[[D]], %[[C2]] : index
// CHECK-NEXT:      %[[X:.*]] = arith.addi %[[SEL]], %[[ADD]] : index
// CHECK-NEXT:      %[[Y:.*]] = arith.addi %[[PARTIAL]], %[[X]] : index
// CHECK-NEXT:      memref.store %[[V]], %[[M]][%[[Y]]] : memref<?xf32>
// CHECK-NEXT:      gpu.terminator

// OUTLINED-LABEL: func.func @sink(
// OUTLINED:         gpu.launch_func @sink_kernel::@sink_kernel blocks in ({{.*}}) threads in ({{.*}}) args(%{{.*}} : memref<?xf32>, %{{.*}} : index, %{{.*}} : index, %{{.*}} : f32)
// OUTLINED:       gpu.func @sink_kernel(%{{.*}}: memref<?xf32>, %{{.*}}: index, %{{.*}}: index, %{{.*}}: f32) kernel

// -----

// A memref.dim of a memref the body does not use stays outside; a value used only
// in a nested region is copied to the start of the launch body.

func.func @nested(%m: memref<?xf32>, %out: memref<1xindex>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %d = memref.dim %m, %c0 : memref<?xf32>
  gpu.launch blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1) threads(%6, %7, %8) in (%9 = %c1, %10 = %c1, %11 = %c1) {
    scf.for %i = %c0 to %c1 step %c1 {
      memref.store %d, %out[%i] : memref<1xindex>
    }
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @nested(
// CHECK:         %[[D:.*]] = memref.dim
// CHECK-NEXT:    gpu.launch
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %[[I:.*]] = %[[C0]] to %[[C1]] step %[[C1]] {
// CHECK-NEXT:        memref.store %[[D]], %{{.*}}[%[[I]]] : memref<1xindex>

// -----

// Nothing to copy: the launch is left as it is.

func.func @nothing(%m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1) threads(%6, %7, %8) in (%9 = %c1, %10 = %c1, %11 = %c1) {
    %f = memref.load %m[%6] : memref<?xf32>
    memref.store %f, %m[%0] : memref<?xf32>
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @nothing(
// CHECK-NEXT:    %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:    gpu.launch
// CHECK-NEXT:      %{{.*}} = memref.load
