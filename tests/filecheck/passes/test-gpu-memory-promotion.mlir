// RUN: xdsl-opt %s -p test-gpu-memory-promotion --split-input-file --verify-diagnostics | filecheck %s

// MLIR's promoteToWorkgroupMemory, as mlir-opt-22 -test-gpu-memory-promotion writes it
// (same ops in the same order; mlir-opt-22 names the values differently).

// The index maps print once, as aliases before the module (as MLIR prints them).
// CHECK-DAG:   #[[$MUL:.*]] = affine_map<()[s0, s1] -> (s0 * s1)>
// CHECK-DAG:   #[[$ADD:.*]] = affine_map<()[s0, s1] -> (s0 + s1)>
// CHECK-LABEL: gpu.func @vector(
// CHECK-SAME:     %[[ARG:[^:]*]]: memref<6xi32> {gpu.test_promote_workgroup}, %[[OTHER:[^:]*]]: memref<6xi32>)
// CHECK-SAME:     workgroup(%[[OLD:[^ ]*]] : memref<2xf32, #gpu.address_space<workgroup>>, %[[WG:[^ ]*]] : memref<6xi32, #gpu.address_space<workgroup>>)
// CHECK-SAME:     private(%{{[^ ]*}} : memref<2xf32, #gpu.address_space<private>>)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    %[[C6:.*]] = arith.constant 6 : index
// CHECK-NEXT:    %[[TX:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[BX:.*]] = gpu.block_dim x
// CHECK-NEXT:    %[[TY:.*]] = gpu.thread_id y
// CHECK-NEXT:    %[[BY:.*]] = gpu.block_dim y
// CHECK-NEXT:    %[[TZ:.*]] = gpu.thread_id z
// CHECK-NEXT:    %[[BZ:.*]] = gpu.block_dim z
// CHECK-NEXT:    %[[Z0:.*]] = affine.apply #[[$MUL]]()[%[[TZ]], %[[C1]]]
// CHECK-NEXT:    %[[Z1:.*]] = affine.apply #[[$ADD]]()[%[[Z0]], %[[C0]]]
// CHECK-NEXT:    %[[Z2:.*]] = affine.apply #[[$MUL]]()[%[[BZ]], %[[C1]]]
// CHECK-NEXT:    scf.for %{{.*}} = %[[Z1]] to %[[C1]] step %[[Z2]] {
// CHECK-NEXT:      %[[Y0:.*]] = affine.apply #[[$MUL]]()[%[[TY]], %[[C1]]]
// CHECK-NEXT:      %[[Y1:.*]] = affine.apply #[[$ADD]]()[%[[Y0]], %[[C0]]]
// CHECK-NEXT:      %[[Y2:.*]] = affine.apply #[[$MUL]]()[%[[BY]], %[[C1]]]
// CHECK-NEXT:      scf.for %{{.*}} = %[[Y1]] to %[[C1]] step %[[Y2]] {
// CHECK-NEXT:        %[[X0:.*]] = affine.apply #[[$MUL]]()[%[[TX]], %[[C1]]]
// CHECK-NEXT:        %[[X1:.*]] = affine.apply #[[$ADD]]()[%[[X0]], %[[C0]]]
// CHECK-NEXT:        %[[X2:.*]] = affine.apply #[[$MUL]]()[%[[BX]], %[[C1]]]
// CHECK-NEXT:        scf.for %[[I:.*]] = %[[X1]] to %[[C6]] step %[[X2]] {
// CHECK-NEXT:          %[[V:.*]] = memref.load %[[ARG]][%[[I]]] : memref<6xi32>
// CHECK-NEXT:          memref.store %[[V]], %[[WG]][%[[I]]] : memref<6xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    "test.use"(%[[WG]], %[[OTHER]])
// CHECK-NEXT:    gpu.barrier
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for %[[J:.*]] =
// CHECK-NEXT:          %[[W:.*]] = memref.load %[[WG]][%[[J]]] : memref<6xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT:          memref.store %[[W]], %[[ARG]][%[[J]]] : memref<6xi32>
// CHECK:         gpu.return
gpu.module @kernels {
  gpu.func @vector(%a: memref<6xi32> {gpu.test_promote_workgroup}, %b: memref<6xi32>)
      workgroup(%w: memref<2xf32, #gpu.address_space<workgroup>>)
      private(%p: memref<2xf32, #gpu.address_space<private>>) kernel {
    "test.use"(%a, %b) : (memref<6xi32>, memref<6xi32>) -> ()
    gpu.return
  }
}

// -----

// Rank 4: the outer loop is not mapped to threads.
// CHECK-LABEL: gpu.func @rank4(
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK:         scf.for %[[I0:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:      affine.apply
// CHECK:           scf.for %[[I1:.*]] =
// CHECK:             scf.for %[[I2:.*]] =
// CHECK:               scf.for %[[I3:.*]] =
// CHECK-NEXT:            memref.load %{{.*}}[%[[I0]], %[[I1]], %[[I2]], %[[I3]]] : memref<2x3x4x5xf16>
gpu.module @kernels {
  gpu.func @rank4(%a: memref<2x3x4x5xf16> {gpu.test_promote_workgroup}) kernel {
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // CHECK: argument #0 marked 'gpu.test_promote_workgroup' is not a statically shaped memref
  gpu.func @dynamic(%a: memref<?xf32> {gpu.test_promote_workgroup}) kernel {
    gpu.return
  }
}
