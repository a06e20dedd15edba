// RUN: xdsl-opt %s -p 'convert-vector-to-scf{lower-tensors=true}' --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf=lower-tensors=true --split-input-file | filecheck %s %}
// RUN: xdsl-opt %s -p convert-vector-to-scf --split-input-file | filecheck %s --check-prefix=OFF
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf --split-input-file | filecheck %s --check-prefix=OFF %}
// RUN: not xdsl-opt %S/Inputs/vector-to-scf-tensor-write.mlir -p 'convert-vector-to-scf{lower-tensors=true}' 2>&1 | filecheck %s --check-prefix=TENSOR-WRITE
// RUN: not xdsl-opt %S/Inputs/vector-to-scf-scalable.mlir -p 'convert-vector-to-scf{lower-scalable=true}' 2>&1 | filecheck %s --check-prefix=SCALABLE
// lower-tensors: reads of tensors row by row as reads of memrefs, bounded by
// tensor.dim (the same lines check mlir-opt-22); without it they stay. What
// xdsl-gpu does not lower with these options is an error at the op.

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

// TENSOR-WRITE-NOT: Traceback
// TENSOR-WRITE: xdsl-opt: error: {{.*}}vector-to-scf-tensor-write.mlir:{{[0-9]+:[0-9]+}}: convert-vector-to-scf: 'vector.transfer_write' op in @tensor_write of vector<2x4xf32> into a tensor: lower-tensors lowers reads of tensors only {{.*}} bufferize first (one-shot-bufferize)
// SCALABLE-NOT: Traceback
// SCALABLE: xdsl-opt: error: {{.*}}vector-to-scf-scalable.mlir:{{[0-9]+:[0-9]+}}: convert-vector-to-scf: 'vector.transfer_read' op in @scalable of vector<[2]x4xf32>: lower-scalable {{.*}} is not implemented in xdsl-gpu
