// RUN: xdsl-opt %s -p 'convert-vector-to-scf{full-unroll=true}' --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf=full-unroll=true --split-input-file | filecheck %s %}
// RUN: xdsl-opt %s -p 'convert-vector-to-scf{full-unroll=true target-rank=2}' --split-input-file | filecheck %s --check-prefix=RANK2
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf="full-unroll=true target-rank=2" --split-input-file | filecheck %s --check-prefix=RANK2 %}
// RUN: xdsl-opt %s -p convert-vector-to-scf --split-input-file | filecheck %s --check-prefix=LOOP
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-scf --split-input-file | filecheck %s --check-prefix=LOOP %}
// Transfers unrolled row by row (or, by default, looped over a stack buffer) and vector.print looped, checked by the same lines on
// our output and mlir-opt-22's (tests/passes/test_vector_runner.py runs programs).

// CHECK-LABEL: func.func @read_2d(
// CHECK-SAME:    %[[M:[^:]*]]: memref<?x?xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[PAD:[^:]*]]: f32)
// CHECK:         %[[INIT:.*]] = vector.broadcast %[[PAD]] : f32 to vector<2x4xf32>
// CHECK:         %[[D0:.*]] = memref.dim %[[M]], %{{.*}} : memref<?x?xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.cmpi sgt, %[[D0]], %[[I]] : index
// CHECK-NEXT:    %[[V0:.*]] = scf.if %[[C0]] -> (vector<2x4xf32>) {
// CHECK-NEXT:      %[[R0:.*]] = vector.transfer_read %[[M]][%[[I]], %[[J]]], %[[PAD]] : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:      %[[W0:.*]] = vector.insert %[[R0]], %[[INIT]] [0] : vector<4xf32> into vector<2x4xf32>
// CHECK-NEXT:      scf.yield %[[W0]] : vector<2x4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[INIT]] : vector<2x4xf32>
// CHECK-NEXT:    }
// CHECK:         %[[D1:.*]] = memref.dim %[[M]], %{{.*}} : memref<?x?xf32>
// CHECK-NEXT:    %[[I1:.*]] = affine.apply {{.*}}[%[[I]]]
// CHECK-NEXT:    %[[C1:.*]] = arith.cmpi sgt, %[[D1]], %[[I1]] : index
// CHECK-NEXT:    %[[V1:.*]] = scf.if %[[C1]] -> (vector<2x4xf32>) {
// CHECK-NEXT:      %[[I1B:.*]] = affine.apply {{.*}}[%[[I]]]
// CHECK-NEXT:      %[[R1:.*]] = vector.transfer_read %[[M]][%[[I1B]], %[[J]]], %[[PAD]] : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:      %[[W1:.*]] = vector.insert %[[R1]], %[[V0]] [1] : vector<4xf32> into vector<2x4xf32>
// CHECK-NEXT:      scf.yield %[[W1]] : vector<2x4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[V0]] : vector<2x4xf32>
// CHECK-NEXT:    }
// CHECK:         return %[[V1]] : vector<2x4xf32>
// RANK2-LABEL: func.func @read_2d(
// RANK2-NEXT:    vector.transfer_read %{{.*}} : memref<?x?xf32>, vector<2x4xf32>
// LOOP-LABEL: func.func @read_2d(
// LOOP-SAME:    %[[M:[^:]*]]: memref<?x?xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[PAD:[^:]*]]: f32)
// LOOP:         %[[BUF:.*]] = memref.alloca() : memref<vector<2x4xf32>>
// LOOP:         %[[ROWS:.*]] = vector.type_cast %[[BUF]] : memref<vector<2x4xf32>> to memref<2xvector<4xf32>>
// LOOP:         scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// LOOP:           %[[D:.*]] = memref.dim %[[M]], %{{.*}} : memref<?x?xf32>
// LOOP-NEXT:      %[[X:.*]] = affine.apply {{.*}}(%[[IV]])[%[[I]]]
// LOOP-NEXT:      %[[C:.*]] = arith.cmpi sgt, %[[D]], %[[X]] : index
// LOOP-NEXT:      scf.if %[[C]] {
// LOOP-NEXT:        %[[X2:.*]] = affine.apply {{.*}}(%[[IV]])[%[[I]]]
// LOOP-NEXT:        %[[R:.*]] = vector.transfer_read %[[M]][%[[X2]], %[[J]]], %[[PAD]] : memref<?x?xf32>, vector<4xf32>
// LOOP-NEXT:        memref.store %[[R]], %[[ROWS]][%[[IV]]] : memref<2xvector<4xf32>>
// LOOP-NEXT:      } else {
// LOOP-NEXT:        %[[P:.*]] = vector.broadcast %[[PAD]] : f32 to vector<4xf32>
// LOOP-NEXT:        memref.store %[[P]], %[[ROWS]][%[[IV]]] : memref<2xvector<4xf32>>
// LOOP-NEXT:      }
// LOOP-NEXT:    }
// LOOP-NEXT:    %[[V:.*]] = memref.load %[[BUF]][] : memref<vector<2x4xf32>>
// LOOP-NEXT:    return %[[V]] : vector<2x4xf32>
func.func @read_2d(%m: memref<?x?xf32>, %i: index, %j: index, %pad: f32) -> vector<2x4xf32> {
  %v = vector.transfer_read %m[%i, %j], %pad : memref<?x?xf32>, vector<2x4xf32>
  return %v : vector<2x4xf32>
}

// -----

// Rows in bounds need no check; the inner transfers keep the other dims' in_bounds.
// CHECK-LABEL: func.func @write_in_bounds(
// CHECK-SAME:    %[[V:[^:]*]]: vector<2x4xf32>, %[[M:[^:]*]]: memref<?x?xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index)
// CHECK-NEXT:    %[[R0:.*]] = vector.extract %[[V]][0] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:    vector.transfer_write %[[R0]], %[[M]][%[[I]], %[[J]]] {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
// CHECK-NEXT:    %[[I1:.*]] = affine.apply {{.*}}[%[[I]]]
// CHECK-NEXT:    %[[R1:.*]] = vector.extract %[[V]][1] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:    vector.transfer_write %[[R1]], %[[M]][%[[I1]], %[[J]]] {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
// CHECK-NEXT:    return
// LOOP-LABEL: func.func @write_in_bounds(
// LOOP-SAME:    %[[V:[^:]*]]: vector<2x4xf32>, %[[M:[^:]*]]: memref<?x?xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index)
// LOOP:         %[[BUF:.*]] = memref.alloca() : memref<vector<2x4xf32>>
// LOOP:         memref.store %[[V]], %[[BUF]][] : memref<vector<2x4xf32>>
// LOOP-NEXT:    %[[ROWS:.*]] = vector.type_cast %[[BUF]] : memref<vector<2x4xf32>> to memref<2xvector<4xf32>>
// LOOP:         scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// LOOP-NEXT:      %[[X:.*]] = affine.apply {{.*}}(%[[IV]])[%[[I]]]
// LOOP-NEXT:      %[[R:.*]] = memref.load %[[ROWS]][%[[IV]]] : memref<2xvector<4xf32>>
// LOOP-NEXT:      vector.transfer_write %[[R]], %[[M]][%[[X]], %[[J]]] {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
// LOOP-NEXT:    }
func.func @write_in_bounds(%v: vector<2x4xf32>, %m: memref<?x?xf32>, %i: index, %j: index) {
  vector.transfer_write %v, %m[%i, %j] {in_bounds = [true, true]} : vector<2x4xf32>, memref<?x?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @print_2d(
// CHECK:         %[[FLAT:.*]] = vector.shape_cast %{{.*}} : vector<2x2xi32> to vector<4xi32>
// CHECK:         vector.print punctuation <open>
// CHECK-NEXT:    scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      vector.print punctuation <open>
// CHECK-NEXT:      scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[ROW:.*]] = arith.muli %[[R]], %{{.*}} : index
// CHECK-NEXT:        %[[K:.*]] = arith.addi %[[C]], %[[ROW]] : index
// CHECK-NEXT:        %[[E:.*]] = vector.extract %[[FLAT]][%[[K]]] : i32 from vector<4xi32>
// CHECK-NEXT:        vector.print %[[E]] : i32 punctuation <no_punctuation>
// CHECK:             arith.cmpi ult, %[[C]], %{{.*}} : index
// CHECK-NEXT:        scf.if
// CHECK-NEXT:          vector.print punctuation <comma>
// CHECK:           vector.print punctuation <close>
// CHECK:         vector.print punctuation <close>
// CHECK-NEXT:    vector.print{{$}}
func.func @print_2d(%w: vector<2x2xi32>) {
  vector.print %w : vector<2x2xi32>
  return
}

// -----

// A transposed map: a minor-identity read of vector<2x4xf32> (in_bounds swapped
// with the dims), unrolled, then vector.transpose.
// CHECK-LABEL: func.func @read_transposed(
// CHECK:         vector.broadcast %{{.*}} : f32 to vector<2x4xf32>
// CHECK:         vector.transfer_read %{{.*}} {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
// CHECK:         vector.transfer_read %{{.*}} {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
// CHECK:         %[[T:.*]] = vector.transpose %{{.*}}, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
// CHECK-NEXT:    return %[[T]] : vector<4x2xf32>
func.func @read_transposed(%m: memref<?x?xf32>, %i: index, %pad: f32) -> vector<4x2xf32> {
  %t = vector.transfer_read %m[%i, %i], %pad {in_bounds = [true, false], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x?xf32>, vector<4x2xf32>
  return %t : vector<4x2xf32>
}
