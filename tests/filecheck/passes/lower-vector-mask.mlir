// RUN: xdsl-opt %s -p lower-vector-mask --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --lower-vector-mask --split-input-file | filecheck %s %}

// lower-vector-mask (xdsl_gpu/passes/lower_vector_mask.py) as MLIR 22's: the same
// CHECK lines hold for mlir-opt-22's output. Masked transfers and gathers take the
// mask as their own; a read with a passthru, masked reductions, outer products,
// contractions and multi-reductions stay; empty and all-true masks go.

// CHECK-LABEL: func.func @transfers(
// CHECK-SAME: %[[M:[^:]*]]: memref<?xf32>, %[[I:[^:]*]]: index, %[[MASK:[^:]*]]: vector<16xi1>, %[[PT:[^:]*]]: vector<16xf32>, %[[V:[^:]*]]: vector<16xf32>, %[[OWN:[^:]*]]: vector<16xi1>)
func.func @transfers(%m: memref<?xf32>, %i: index, %mask: vector<16xi1>, %pt: vector<16xf32>, %v: vector<16xf32>, %own: vector<16xi1>) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>) {
  %pad = arith.constant 0.0 : f32
  // CHECK: %[[PAD:.*]] = arith.constant 0.000000e+00 : f32
  // CHECK: %[[R0:.*]] = vector.transfer_read %[[M]][%[[I]]], %[[PAD]], %[[MASK]] : memref<?xf32>, vector<16xf32>
  %0 = vector.mask %mask { vector.transfer_read %m[%i], %pad : memref<?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  // CHECK-NEXT: %[[R1:.*]] = vector.mask %[[MASK]], %[[PT]] { vector.transfer_read %[[M]][%[[I]]], %[[PAD]] : memref<?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  %1 = vector.mask %mask, %pt { vector.transfer_read %m[%i], %pad : memref<?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  // The read's own mask gives way to the vector.mask's, as upstream.
  // CHECK-NEXT: %[[R2:.*]] = vector.transfer_read %[[M]][%[[I]]], %[[PAD]], %[[MASK]] : memref<?xf32>, vector<16xf32>
  %2 = vector.mask %mask { vector.transfer_read %m[%i], %pad, %own : memref<?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  // CHECK-NEXT: vector.transfer_write %[[V]], %[[M]][%[[I]]], %[[MASK]] {in_bounds = [true]} : vector<16xf32>, memref<?xf32>
  vector.mask %mask { vector.transfer_write %v, %m[%i] {in_bounds = [true]} : vector<16xf32>, memref<?xf32> } : vector<16xi1>
  // CHECK-NEXT: return %[[R0]], %[[R1]], %[[R2]]
  return %0, %1, %2 : vector<16xf32>, vector<16xf32>, vector<16xf32>
}

// -----

// The gather's lanes masked off are zero.
// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %[[M:[^:]*]]: memref<?xf32>, %[[IDX:[^:]*]]: vector<16xi32>, %[[MASK:[^:]*]]: vector<16xi1>, %[[OWN:[^:]*]]: vector<16xi1>, %[[PT:[^:]*]]: vector<16xf32>)
func.func @gather(%m: memref<?xf32>, %idx: vector<16xi32>, %mask: vector<16xi1>, %own: vector<16xi1>, %pt: vector<16xf32>) -> vector<16xf32> {
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
  %c0 = arith.constant 0 : index
  // CHECK: %[[G:.*]] = vector.gather %[[M]][%[[C0]]] [%[[IDX]]], %[[MASK]], %[[Z]] : memref<?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
  %0 = vector.mask %mask { vector.gather %m[%c0][%idx], %own, %pt : memref<?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  // CHECK-NEXT: return %[[G]]
  return %0 : vector<16xf32>
}

// -----

// CHECK-LABEL: func.func @kept(
func.func @kept(%mask: vector<4xi1>, %a: vector<4xf32>, %b: vector<8xf32>, %c: vector<4x8xf32>, %mk: vector<4x8xi1>, %x: vector<4x3xf32>, %acc: vector<4xf32>, %m3: vector<4x3xi1>) -> (f32, vector<4x8xf32>, vector<4xf32>) {
  // CHECK: vector.mask %{{.*}} { vector.reduction <add>, %{{.*}} : vector<4xf32> into f32 } : vector<4xi1> -> f32
  %0 = vector.mask %mask { vector.reduction <add>, %a : vector<4xf32> into f32 } : vector<4xi1> -> f32
  // CHECK-NEXT: vector.mask %{{.*}} { vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<4xf32>, vector<8xf32> } : vector<4x8xi1> -> vector<4x8xf32>
  %1 = vector.mask %mk { vector.outerproduct %a, %b, %c : vector<4xf32>, vector<8xf32> } : vector<4x8xi1> -> vector<4x8xf32>
  // CHECK-NEXT: vector.mask %{{.*}} { vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<4x3xf32> to vector<4xf32> } : vector<4x3xi1> -> vector<4xf32>
  %2 = vector.mask %m3 { vector.multi_reduction <add>, %x, %acc [1] : vector<4x3xf32> to vector<4xf32> } : vector<4x3xi1> -> vector<4xf32>
  return %0, %1, %2 : f32, vector<4x8xf32>, vector<4xf32>
}

// -----

// Empty masks give their yielded values; all-true masks are dropped.
// CHECK-LABEL: func.func @folded(
// CHECK-SAME: %[[M:[^:]*]]: memref<?xf32>, %[[I:[^:]*]]: index, %[[V:[^:]*]]: vector<16xf32>, %[[MASK:[^:]*]]: vector<16xi1>)
func.func @folded(%m: memref<?xf32>, %i: index, %v: vector<16xf32>, %mask: vector<16xi1>) -> (vector<16xf32>, f32, f32, vector<16xf32>) {
  %pad = arith.constant 0.0 : f32
  %all = vector.constant_mask [16] : vector<16xi1>
  %true = arith.constant dense<true> : vector<16xi1>
  // CHECK-NOT: vector.mask
  // CHECK: %[[R:.*]] = vector.transfer_read %[[M]][%[[I]]], %{{.*}} : memref<?xf32>, vector<16xf32>
  %0 = vector.mask %all { vector.transfer_read %m[%i], %pad : memref<?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  // CHECK-NEXT: %[[S:.*]] = vector.reduction <add>, %[[V]] : vector<16xf32> into f32
  %1 = vector.mask %all { vector.reduction <add>, %v : vector<16xf32> into f32 } : vector<16xi1> -> f32
  // CHECK-NEXT: %[[T:.*]] = vector.reduction <mul>, %[[V]] : vector<16xf32> into f32
  %2 = vector.mask %true { vector.reduction <mul>, %v : vector<16xf32> into f32 } : vector<16xi1> -> f32
  vector.mask %mask { vector.yield } : vector<16xi1>
  %3 = vector.mask %mask { vector.yield %v : vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  // CHECK-NEXT: return %[[R]], %[[S]], %[[T]], %[[V]]
  return %0, %1, %2, %3 : vector<16xf32>, f32, f32, vector<16xf32>
}
