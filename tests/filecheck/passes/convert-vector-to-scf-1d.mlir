// RUN: xdsl-opt %s -p convert-vector-to-scf --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf --split-input-file | filecheck %s %}
// 1-D transfers along a dim that is not the innermost one become scalar loops, and a
// write that leaves a source dim out gets a unit dim and a transpose first; the same
// lines check our output and mlir-opt-22's (tests/passes/vector_programs/
// transfer_column.mlir runs them).

// CHECK-LABEL: func.func @column_read(
// CHECK-SAME:    %[[M:[^:]*]]: memref<?x?xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[PAD:[^:]*]]: f32, %[[MASK:[^:]*]]: vector<9xi1>)
// CHECK:         %[[INIT:.*]] = vector.broadcast %[[PAD]] : f32 to vector<9xf32>
// CHECK:         %[[R:.*]] = scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<9xf32>) {
// CHECK-NEXT:      %[[ROW:.*]] = affine.apply {{.*}}(%[[L]])[%[[I]]]
// CHECK:           %[[DIM:.*]] = memref.dim %[[M]], %{{.*}} : memref<?x?xf32>
// CHECK-NEXT:      %[[ROW2:.*]] = affine.apply {{.*}}(%[[L]])[%[[I]]]
// CHECK-NEXT:      %[[IN:.*]] = arith.cmpi sgt, %[[DIM]], %[[ROW2]] : index
// CHECK-NEXT:      %[[BIT:.*]] = vector.extract %[[MASK]][%[[L]]] : i1 from vector<9xi1>
// CHECK-NEXT:      %[[OK:.*]] = arith.andi %[[IN]], %[[BIT]] : i1
// CHECK-NEXT:      %[[NEW:.*]] = scf.if %[[OK]] -> (vector<9xf32>) {
// CHECK-NEXT:        %[[E:.*]] = memref.load %[[M]][%[[ROW]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:        %[[INS:.*]] = vector.insert %[[E]], %[[ACC]] [%[[L]]] : f32 into vector<9xf32>
// CHECK-NEXT:        scf.yield %[[INS]] : vector<9xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[ACC]] : vector<9xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[NEW]] : vector<9xf32>
// CHECK-NEXT:    }
func.func @column_read(%m: memref<?x?xf32>, %i: index, %j: index, %pad: f32, %mask: vector<9xi1>) -> vector<9xf32> {
  %0 = vector.transfer_read %m[%i, %j], %pad, %mask {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<?x?xf32>, vector<9xf32>
  return %0 : vector<9xf32>
}

// -----

// CHECK-LABEL: func.func @middle_dim_in_bounds(
// CHECK-SAME:    %[[M:[^:]*]]: memref<?x?x?xf32>, %[[I:[^:]*]]: index, %[[PAD:[^:]*]]: f32)
// CHECK:         scf.for %[[L:.*]] = %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4xf32>) {
// CHECK-NEXT:      %[[ROW:.*]] = affine.apply {{.*}}(%[[L]])[%[[I]]]
// CHECK-NEXT:      %[[E:.*]] = memref.load %[[M]][%[[I]], %[[ROW]], %[[I]]] : memref<?x?x?xf32>
// CHECK-NEXT:      %[[INS:.*]] = vector.insert %[[E]], %[[ACC]] [%[[L]]] : f32 into vector<4xf32>
// CHECK-NEXT:      scf.yield %[[INS]] : vector<4xf32>
// CHECK-NEXT:    }
func.func @middle_dim_in_bounds(%m: memref<?x?x?xf32>, %i: index, %pad: f32) -> vector<4xf32> {
  %0 = vector.transfer_read %m[%i, %i, %i], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2) -> (d1)>} : memref<?x?x?xf32>, vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @column_write(
// CHECK-SAME:    %[[V:[^:]*]]: vector<9xf32>, %[[M:[^:]*]]: memref<?x?xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index)
// CHECK:         %[[BUF:.*]] = memref.alloca() : memref<vector<9x1xf32>>
// CHECK:         %[[B:.*]] = vector.broadcast %[[V]] : vector<9xf32> to vector<1x9xf32>
// CHECK-NEXT:    %[[T:.*]] = vector.transpose %[[B]], [1, 0] : vector<1x9xf32> to vector<9x1xf32>
// CHECK-NEXT:    memref.store %[[T]], %[[BUF]][] : memref<vector<9x1xf32>>
// CHECK-NEXT:    %[[ROWS:.*]] = vector.type_cast %[[BUF]] : memref<vector<9x1xf32>> to memref<9xvector<1xf32>>
// CHECK:         scf.for %[[L:.*]] = %{{.*}} {
// CHECK:           %[[DIM:.*]] = memref.dim %[[M]], %{{.*}} : memref<?x?xf32>
// CHECK-NEXT:      %[[ROW:.*]] = affine.apply {{.*}}(%[[L]])[%[[I]]]
// CHECK-NEXT:      %[[IN:.*]] = arith.cmpi sgt, %[[DIM]], %[[ROW]] : index
// CHECK-NEXT:      scf.if %[[IN]] {
// CHECK-NEXT:        %[[ROW2:.*]] = affine.apply {{.*}}(%[[L]])[%[[I]]]
// CHECK-NEXT:        %[[X:.*]] = memref.load %[[ROWS]][%[[L]]] : memref<9xvector<1xf32>>
// CHECK-NEXT:        vector.transfer_write %[[X]], %[[M]][%[[ROW2]], %[[J]]] {in_bounds = [true]} : vector<1xf32>, memref<?x?xf32>
func.func @column_write(%v: vector<9xf32>, %m: memref<?x?xf32>, %i: index, %j: index) {
  vector.transfer_write %v, %m[%i, %j] {permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<9xf32>, memref<?x?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @write_leaves_a_dim_out(
// CHECK-SAME:    %[[V:[^:]*]]: vector<4x3xf32>
// CHECK:         %[[B:.*]] = vector.broadcast %[[V]] : vector<4x3xf32> to vector<1x4x3xf32>
// CHECK-NEXT:    %{{.*}} = vector.transpose %[[B]], [1, 0, 2] : vector<1x4x3xf32> to vector<4x1x3xf32>
// CHECK:         vector.transfer_write %{{.*}} : vector<3xf32>, memref<?x?x?xf32>
func.func @write_leaves_a_dim_out(%v: vector<4x3xf32>, %m: memref<?x?x?xf32>, %i: index) {
  vector.transfer_write %v, %m[%i, %i, %i] {permutation_map = affine_map<(d0, d1, d2) -> (d0, d2)>} : vector<4x3xf32>, memref<?x?x?xf32>
  return
}
