// RUN: xdsl-opt %s -p nvgpu-optimize-shared-memory --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --pass-pipeline='builtin.module(func.func(nvgpu-optimize-shared-memory))' --split-input-file | filecheck %s %}

// 64 f16 per row (128 bytes, one row per line): the column of each access is XORed
// with (row & 7) << 3; the write first, then the reads.
// CHECK-LABEL: func.func @swizzle(
// CHECK-SAME: %[[G:.*]]: memref<64x64xf16>, %[[R:.*]]: index, %[[C:.*]]: index)
// CHECK: %[[SHM:.*]] = memref.alloc() : memref<64x64xf16, 3{{( : i64)?}}>
// CHECK: %[[M:.*]] = arith.constant 7 : index
// CHECK: %[[A:.*]] = arith.andi %[[R]], %[[M]] : index
// CHECK: %[[S:.*]] = arith.constant 3 : index
// CHECK: %[[B:.*]] = arith.shli %[[A]], %[[S]] : index
// CHECK: %[[X:.*]] = arith.xori %[[C]], %[[B]] : index
// CHECK: nvgpu.device_async_copy %[[G]][%[[R]], %[[C]]], %[[SHM]][%[[R]], %[[X]]], 8
// CHECK: arith.constant 7 : index
// CHECK: arith.andi %[[R]]
// CHECK: arith.shli
// CHECK: %[[X2:.*]] = arith.xori %[[C]]
// CHECK: nvgpu.ldmatrix %[[SHM]][%[[R]], %[[X2]]]
// CHECK: %[[X3:.*]] = arith.xori %[[C]]
// CHECK: memref.load %[[SHM]][%[[R]], %[[X3]]]
func.func @swizzle(%g: memref<64x64xf16>, %r: index, %c: index) -> (vector<4x2xf16>, f16) {
  %shm = memref.alloc() : memref<64x64xf16, 3>
  %t = nvgpu.device_async_copy %g[%r, %c], %shm[%r, %c], 8 : memref<64x64xf16> to memref<64x64xf16, 3>
  %m = nvgpu.ldmatrix %shm[%r, %c] {numTiles = 4 : i32, transpose = false} : memref<64x64xf16, 3> -> vector<4x2xf16>
  %v = memref.load %shm[%r, %c] : memref<64x64xf16, 3>
  return %m, %v : vector<4x2xf16>, f16
}

// -----

// Nothing changes when a buffer has an access the pass does not handle (here a
// vector.transfer_read) or is viewed through a subview.
// CHECK-LABEL: func.func @unsupported
// CHECK-NOT: arith.xori
// CHECK: return
func.func @unsupported(%g: memref<64x64xf16>, %r: index, %c: index) -> vector<8xf16> {
  %f = arith.constant 0.0 : f16
  %shm = memref.alloc() : memref<64x64xf16, 3>
  %t = nvgpu.device_async_copy %g[%r, %c], %shm[%r, %c], 8 : memref<64x64xf16> to memref<64x64xf16, 3>
  %v = vector.transfer_read %shm[%r, %c], %f {in_bounds = [true]} : memref<64x64xf16, 3>, vector<8xf16>
  return %v : vector<8xf16>
}
