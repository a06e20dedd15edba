// RUN: xdsl-opt %s -p canonicalize --split-input-file | filecheck %s

// gpu.launch canonicalization (upstream FoldLaunchArguments): a block or thread id
// along a dimension of constant size 1 is 0. tests/gpu_dialect/test_kernel_ops.py
// checks that mlir-opt-22 --canonicalize prints the same.

// CHECK-LABEL: func.func @fold_ids
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %n, %sz = %c1) {
// CHECK-NEXT:      memref.store %bx, %m[%bx] : memref<?xindex>
// CHECK-NEXT:      memref.store %c0, %m[%c0] : memref<?xindex>
// CHECK-NEXT:      memref.store %c0, %m[%c0] : memref<?xindex>
// CHECK-NEXT:      memref.store %c0, %m[%c0] : memref<?xindex>
// CHECK-NEXT:      memref.store %ty, %m[%ty] : memref<?xindex>
// CHECK-NEXT:      memref.store %c0, %m[%c0] : memref<?xindex>
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    }
func.func @fold_ids(%n: index, %m: memref<?xindex>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %n, %sz = %c1) {
    memref.store %bx, %m[%bx] : memref<?xindex>
    memref.store %by, %m[%by] : memref<?xindex>
    memref.store %bz, %m[%bz] : memref<?xindex>
    memref.store %tx, %m[%tx] : memref<?xindex>
    memref.store %ty, %m[%ty] : memref<?xindex>
    memref.store %tz, %m[%tz] : memref<?xindex>
    gpu.terminator
  }
  return
}

// -----

// Unused ids and sizes that are not the constant 1 stay; cluster ids are not folded.

// CHECK-LABEL: func.func @nothing_to_fold
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    gpu.launch clusters(%cx, %cy, %cz) in (%scx = %c1, %scy = %c1, %scz = %c1) blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c2, %sz = %c2) {
// CHECK-NEXT:      memref.store %bx, %m[%cx] : memref<?xindex>
// CHECK-NEXT:      memref.store %tz, %m[%tx] : memref<?xindex>
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    }
func.func @nothing_to_fold(%m: memref<?xindex>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%scx = %c1, %scy = %c1, %scz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c2, %sz = %c2) {
    memref.store %bx, %m[%cx] : memref<?xindex>
    memref.store %tz, %m[%tx] : memref<?xindex>
    gpu.terminator
  }
  return
}
