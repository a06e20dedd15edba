// RUN: xdsl-opt %s -p 'convert-vector-to-scf{lower-scalable=true}' --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf=lower-scalable=true --split-input-file | filecheck %s %}
// RUN: xdsl-opt %s -p 'convert-vector-to-scf{lower-scalable=true lower-tensors=true}' --split-input-file | filecheck %s --check-prefix=TENSOR
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf="lower-scalable=true lower-tensors=true" --split-input-file | filecheck %s --check-prefix=TENSOR %}
// RUN: xdsl-opt %s -p convert-vector-to-scf --split-input-file | filecheck %s --check-prefix=OFF
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf --split-input-file | filecheck %s --check-prefix=OFF %}
// Scalable vectors in convert-vector-to-scf, as mlir-opt-22 (the same lines check
// both): with lower-scalable, a write of a [1, 0] transpose into vector<[4]x4xf32>
// is a loop over its 4 * vscale rows (a mask's first size bounds it, the rest
// masks each row); a 1-D scalable column loops over 4 * vscale lanes (with or
// without the option); other scalable leading dims are left as they are.

// CHECK-LABEL: func.func @transpose_write(
// CHECK-SAME:    %[[V:[^:]*]]: vector<4x[4]xf32>, %[[M:[^:]*]]: memref<?x?xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[R0:.*]] = vector.extract %[[V]][0] : vector<[4]xf32> from vector<4x[4]xf32>
// CHECK-DAG:     %[[R1:.*]] = vector.extract %[[V]][1] : vector<[4]xf32> from vector<4x[4]xf32>
// CHECK-DAG:     %[[R2:.*]] = vector.extract %[[V]][2] : vector<[4]xf32> from vector<4x[4]xf32>
// CHECK-DAG:     %[[R3:.*]] = vector.extract %[[V]][3] : vector<[4]xf32> from vector<4x[4]xf32>
// CHECK-DAG:     %[[VS:.*]] = vector.vscale
// CHECK-DAG:     %[[N:.*]] = arith.muli %[[VS]], %[[C4]] : index
// CHECK:         scf.for %[[K:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:      %[[ROW:.*]] = affine.apply {{.*}}(%[[K]])[%[[I]]]
// CHECK-NEXT:      %[[E0:.*]] = vector.extract %[[R0]][%[[K]]] : f32 from vector<[4]xf32>
// CHECK-NEXT:      %[[E1:.*]] = vector.extract %[[R1]][%[[K]]] : f32 from vector<[4]xf32>
// CHECK-NEXT:      %[[E2:.*]] = vector.extract %[[R2]][%[[K]]] : f32 from vector<[4]xf32>
// CHECK-NEXT:      %[[E3:.*]] = vector.extract %[[R3]][%[[K]]] : f32 from vector<[4]xf32>
// CHECK-NEXT:      %[[S:.*]] = vector.from_elements %[[E0]], %[[E1]], %[[E2]], %[[E3]] : vector<4xf32>
// CHECK-NEXT:      vector.transfer_write %[[S]], %[[M]][%[[ROW]], %[[J]]] {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     vector.transpose
// OFF-LABEL: func.func @transpose_write(
// OFF:         vector.transpose
// OFF:         vector.transfer_write %{{.*}} {in_bounds = [true, true]} : vector<[4]x4xf32>, memref<?x?xf32>
func.func @transpose_write(%v: vector<4x[4]xf32>, %m: memref<?x?xf32>, %i: index, %j: index) {
  %t = vector.transpose %v, [1, 0] : vector<4x[4]xf32> to vector<[4]x4xf32>
  vector.transfer_write %t, %m[%i, %j] {in_bounds = [true, true]} : vector<[4]x4xf32>, memref<?x?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @create_mask(
// CHECK-SAME:    %{{[^:]*}}: vector<4x[4]xf32>, %[[M:[^:]*]]: memref<?x?xf32>, %{{[^:]*}}: index, %[[J:[^:]*]]: index, %[[A:[^:]*]]: index, %[[B:[^:]*]]: index)
// CHECK:         %[[MASK:.*]] = vector.create_mask %[[B]] : vector<4xi1>
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %[[A]] step %{{.*}} {
// CHECK:           %[[S:.*]] = vector.from_elements
// CHECK-NEXT:      vector.transfer_write %[[S]], %[[M]][%{{.*}}, %[[J]]], %[[MASK]] : vector<4xf32>, memref<?x?xf32>
func.func @create_mask(%v: vector<4x[4]xf32>, %m: memref<?x?xf32>, %i: index, %j: index, %a: index, %b: index) {
  %t = vector.transpose %v, [1, 0] : vector<4x[4]xf32> to vector<[4]x4xf32>
  %mask = vector.create_mask %a, %b : vector<[4]x4xi1>
  vector.transfer_write %t, %m[%i, %j], %mask {in_bounds = [true, false]} : vector<[4]x4xf32>, memref<?x?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @constant_mask(
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[VS:.*]] = vector.vscale
// CHECK-DAG:     %[[N:.*]] = arith.muli %[[VS]], %[[C4]] : index
// CHECK:         %[[MASK:.*]] = vector.create_mask %[[C3]] : vector<4xi1>
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK:           vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}], %[[MASK]] : vector<4xf32>, memref<?x?xf32>
func.func @constant_mask(%v: vector<4x[4]xf32>, %m: memref<?x?xf32>, %i: index, %j: index) {
  %t = vector.transpose %v, [1, 0] : vector<4x[4]xf32> to vector<[4]x4xf32>
  %mask = vector.constant_mask [4, 3] : vector<[4]x4xi1>
  vector.transfer_write %t, %m[%i, %j], %mask {in_bounds = [true, false]} : vector<[4]x4xf32>, memref<?x?xf32>
  return
}

// -----

// Into a tensor only with lower-tensors: the loop carries it.
// CHECK-LABEL: func.func @tensor(
// CHECK:         vector.transfer_write %{{.*}} {in_bounds = [true, true]} : vector<[4]x4xf32>, tensor<?x?xf32>
// TENSOR-LABEL: func.func @tensor(
// TENSOR-SAME:    %{{[^:]*}}: vector<4x[4]xf32>, %[[T:[^:]*]]: tensor<?x?xf32>
// TENSOR:         %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[T]]) -> (tensor<?x?xf32>) {
// TENSOR:           %[[S:.*]] = vector.from_elements
// TENSOR-NEXT:      %[[W:.*]] = vector.transfer_write %[[S]], %[[ACC]][%{{.*}}, %{{.*}}] {in_bounds = [true]} : vector<4xf32>, tensor<?x?xf32>
// TENSOR-NEXT:      scf.yield %[[W]] : tensor<?x?xf32>
// TENSOR-NEXT:    }
// TENSOR-NEXT:    return %[[R]] : tensor<?x?xf32>
func.func @tensor(%v: vector<4x[4]xf32>, %m: tensor<?x?xf32>, %i: index, %j: index) -> tensor<?x?xf32> {
  %t = vector.transpose %v, [1, 0] : vector<4x[4]xf32> to vector<[4]x4xf32>
  %r = vector.transfer_write %t, %m[%i, %j] {in_bounds = [true, true]} : vector<[4]x4xf32>, tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// A leading dim out of bounds, or a vector that is not a transpose: left.
// CHECK-LABEL: func.func @left(
// CHECK:         vector.transfer_write %{{.*}} {in_bounds = [false, true]} : vector<[4]x4xf32>, memref<?x?xf32>
// CHECK:         %{{.*}} = vector.transfer_read %{{.*}} : memref<?x?xf32>, vector<[2]x4xf32>
// CHECK:         vector.transfer_write %{{.*}} : vector<[2]x4xf32>, memref<?x?xf32>
func.func @left(%v: vector<4x[4]xf32>, %m: memref<?x?xf32>, %i: index) {
  %t = vector.transpose %v, [1, 0] : vector<4x[4]xf32> to vector<[4]x4xf32>
  vector.transfer_write %t, %m[%i, %i] {in_bounds = [false, true]} : vector<[4]x4xf32>, memref<?x?xf32>
  %pad = arith.constant 0.0 : f32
  %r = vector.transfer_read %m[%i, %i], %pad : memref<?x?xf32>, vector<[2]x4xf32>
  vector.transfer_write %r, %m[%i, %i] : vector<[2]x4xf32>, memref<?x?xf32>
  return
}

// -----

// A scalable column: 4 * vscale lanes, each a scalar load where in bounds. Its
// write becomes a vector<[4]x1xf32> transpose written as it is (a scalable
// leading dim).
// CHECK-LABEL: func.func @column(
// CHECK-SAME:    %[[M:[^:]*]]: memref<?x?xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index)
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[VS:.*]] = vector.vscale
// CHECK-DAG:     %[[N:.*]] = arith.muli %[[VS]], %[[C4]] : index
// CHECK:         %[[R:.*]] = scf.for %[[L:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<[4]xf32>) {
// CHECK:           %[[OK:.*]] = arith.cmpi sgt
// CHECK-NEXT:      %{{.*}} = scf.if %[[OK]] -> (vector<[4]xf32>) {
// CHECK-NEXT:        %[[E:.*]] = memref.load %[[M]][%{{.*}}, %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:        %{{.*}} = vector.insert %[[E]], %[[ACC]] [%[[L]]] : f32 into vector<[4]xf32>
// CHECK:         %[[B:.*]] = vector.broadcast %[[R]] : vector<[4]xf32> to vector<1x[4]xf32>
// CHECK-NEXT:    %[[T:.*]] = vector.transpose %[[B]], [1, 0] : vector<1x[4]xf32> to vector<[4]x1xf32>
// CHECK-NEXT:    vector.transfer_write %[[T]], %[[M]][%[[I]], %[[J]]] {in_bounds = [false, true]} : vector<[4]x1xf32>, memref<?x?xf32>
// OFF-LABEL: func.func @column(
// OFF:         vector.vscale
// OFF:         scf.for
func.func @column(%m: memref<?x?xf32>, %i: index, %j: index) -> vector<[4]xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %j], %pad {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<?x?xf32>, vector<[4]xf32>
  vector.transfer_write %v, %m[%i, %j] {permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<[4]xf32>, memref<?x?xf32>
  return %v : vector<[4]xf32>
}
