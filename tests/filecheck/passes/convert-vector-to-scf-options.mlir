// RUN: xdsl-opt %s -p 'convert-vector-to-scf{lower-tensors=true}' --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf=lower-tensors=true --split-input-file | filecheck %s %}
// RUN: xdsl-opt %s -p convert-vector-to-scf --split-input-file | filecheck %s --check-prefix=OFF
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf --split-input-file | filecheck %s --check-prefix=OFF %}
// RUN: xdsl-opt %s -p 'convert-vector-to-scf{lower-tensors=true full-unroll=true}' --split-input-file | filecheck %s --check-prefix=UNROLL
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf="lower-tensors=true full-unroll=true" --split-input-file | filecheck %s --check-prefix=UNROLL %}
// lower-tensors: transfers on tensors row by row as on memrefs, bounded by
// tensor.dim, a write threading the tensor through the rows (the same lines check
// mlir-opt-22); without it they stay. lower-scalable:
// convert-vector-to-scf-scalable.mlir.

// CHECK-LABEL: func.func @tensor_read(
// CHECK:         %[[BUF:.*]] = memref.alloca() : memref<vector<2x4xf32>>
// CHECK:         %[[ROWS:.*]] = vector.type_cast %[[BUF]] : memref<vector<2x4xf32>> to memref<2xvector<4xf32>>
// CHECK:         scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[D:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?xf32>
// CHECK:           scf.if %{{.*}} {
// CHECK:             %[[R:.*]] = vector.transfer_read %{{.*}} : tensor<?x?xf32>, vector<4xf32>
// CHECK-NEXT:        memref.store %[[R]], %[[ROWS]][%[[IV]]] : memref<2xvector<4xf32>>
// CHECK:         memref.load %[[BUF]][] : memref<vector<2x4xf32>>
// OFF-LABEL: func.func @tensor_read(
// OFF:         vector.transfer_read %{{.*}} : tensor<?x?xf32>, vector<2x4xf32>
func.func @tensor_read(%t: tensor<?x?xf32>, %i: index) -> vector<2x4xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %t[%i, %i], %pad : tensor<?x?xf32>, vector<2x4xf32>
  return %v : vector<2x4xf32>
}

// -----

// CHECK-LABEL: func.func @tensor_write(
// CHECK-SAME:    %[[T:[^:]*]]: tensor<?x?xf32>, %[[I:[^:]*]]: index, %[[V:[^:]*]]: vector<2x4xf32>)
// CHECK:         %[[ROWS:.*]] = vector.type_cast %{{.*}} : memref<vector<2x4xf32>> to memref<2xvector<4xf32>>
// CHECK:         %[[R:.*]] = scf.for %[[IV:.*]] = %{{.*}} iter_args(%[[CUR:.*]] = %[[T]]) -> (tensor<?x?xf32>) {
// CHECK:           %[[D:.*]] = tensor.dim %[[T]], %{{.*}} : tensor<?x?xf32>
// CHECK:           %[[NEW:.*]] = scf.if %{{.*}} -> (tensor<?x?xf32>) {
// CHECK:             %[[ROW:.*]] = memref.load %[[ROWS]][%[[IV]]] : memref<2xvector<4xf32>>
// CHECK-NEXT:        %[[W:.*]] = vector.transfer_write %[[ROW]], %[[CUR]][%{{.*}}, %[[I]]] : vector<4xf32>, tensor<?x?xf32>
// CHECK-NEXT:        scf.yield %[[W]] : tensor<?x?xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[CUR]] : tensor<?x?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[NEW]] : tensor<?x?xf32>
// CHECK-NEXT:    }
// UNROLL-LABEL: func.func @tensor_write(
// UNROLL-SAME:    %[[T:[^:]*]]: tensor<?x?xf32>, %[[I:[^:]*]]: index, %[[V:[^:]*]]: vector<2x4xf32>)
// UNROLL:         %[[T0:.*]] = scf.if %{{.*}} -> (tensor<?x?xf32>) {
// UNROLL-NEXT:      %[[R0:.*]] = vector.extract %[[V]][0] : vector<4xf32> from vector<2x4xf32>
// UNROLL-NEXT:      %[[W0:.*]] = vector.transfer_write %[[R0]], %[[T]][%[[I]], %[[I]]] : vector<4xf32>, tensor<?x?xf32>
// UNROLL-NEXT:      scf.yield %[[W0]] : tensor<?x?xf32>
// UNROLL-NEXT:    } else {
// UNROLL-NEXT:      scf.yield %[[T]] : tensor<?x?xf32>
// UNROLL-NEXT:    }
// UNROLL:         %[[T1:.*]] = scf.if %{{.*}} -> (tensor<?x?xf32>) {
// UNROLL:           %[[W1:.*]] = vector.transfer_write %{{.*}}, %[[T0]][%{{.*}}, %[[I]]] : vector<4xf32>, tensor<?x?xf32>
// UNROLL-NEXT:      scf.yield %[[W1]] : tensor<?x?xf32>
// UNROLL-NEXT:    } else {
// UNROLL-NEXT:      scf.yield %[[T0]] : tensor<?x?xf32>
// UNROLL-NEXT:    }
// OFF-LABEL: func.func @tensor_write(
// OFF:         vector.transfer_write %{{.*}} : vector<2x4xf32>, tensor<?x?xf32>
func.func @tensor_write(%t: tensor<?x?xf32>, %i: index, %v: vector<2x4xf32>) -> tensor<?x?xf32> {
  %r = vector.transfer_write %v, %t[%i, %i] : vector<2x4xf32>, tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
