// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --split-input-file --verify-diagnostics %}

// The verifier rules of the vector ops (xdsl_gpu/gpu_dialect/vector/), in upstream's
// words: the second RUN line has mlir-opt-22 report each `expected-error` where it
// says; tests/gpu_dialect/test_vector.py checks the same messages in-process.
func.func @f(%v: vector<4xf32>) {
  // expected-error@+1 {{dimension mismatch (4 vs. 3)}}
  %0 = vector.broadcast %v : vector<4xf32> to vector<3xf32>
  return
}
// CHECK: dimension mismatch (4 vs. 3)

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{source rank higher than destination rank}}
  %0 = vector.broadcast %v : vector<2x4xf32> to vector<4xf32>
  return
}
// CHECK: source rank higher than destination rank

// -----

func.func @f(%v: vector<4xf32>) {
  // expected-error@+1 {{failed to verify that source operand and result have same element type}}
  %0 = vector.broadcast %v : vector<4xf32> to vector<4xi32>
  return
}
// CHECK: failed to verify that source operand and result have same element type

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{has different number of elements at source (8) and result (7)}}
  %0 = vector.shape_cast %v : vector<2x4xf32> to vector<7xf32>
  return
}
// CHECK: has different number of elements at source (8) and result (7)

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{has different source and result element types}}
  %0 = vector.shape_cast %v : vector<2x4xf32> to vector<8xi32>
  return
}
// CHECK: has different source and result element types

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{transposition length mismatch: 3}}
  %0 = vector.transpose %v, [1, 0, 2] : vector<2x4xf32> to vector<4x2xf32>
  return
}
// CHECK: transposition length mismatch: 3

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{duplicate position index: 0}}
  %0 = vector.transpose %v, [0, 0] : vector<2x4xf32> to vector<2x4xf32>
  return
}
// CHECK: duplicate position index: 0

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{dimension size mismatch at: 1}}
  %0 = vector.transpose %v, [1, 0] : vector<2x4xf32> to vector<2x4xf32>
  return
}
// CHECK: dimension size mismatch at: 1

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{expected position attribute of rank no greater than vector rank}}
  %0 = vector.extract %v[0, 0, 0] : f32 from vector<2x4xf32>
  return
}
// CHECK: expected position attribute of rank no greater than vector rank

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{expected position attribute #2 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)}}
  %0 = vector.extract %v[0, 5] : f32 from vector<2x4xf32>
  return
}
// CHECK: expected position attribute #2 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{inferred type(s) 'vector<4xf32>' are incompatible with return type(s) of operation 'vector<3xf32>'}}
  %0 = vector.extract %v[0] : vector<3xf32> from vector<2x4xf32>
  return
}
// CHECK: inferred type(s) 'vector<4xf32>' are incompatible with return type(s) of operation 'vector<3xf32>'

// -----

func.func @f(%v: vector<2x4xf32>, %f: f32) {
  // expected-error@+1 {{expected position attribute #2 to be a non-negative integer smaller than the corresponding dest vector dimension}}
  %0 = vector.insert %f, %v[0, 7] : f32 into vector<2x4xf32>
  return
}
// CHECK: expected position attribute #2 to be a non-negative integer smaller than the corresponding dest vector dimension

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{expected sum(offsets, sizes) dimension 1 to be confined to [1, 5)}}
  %0 = vector.extract_strided_slice %v {offsets = [0, 3], sizes = [1, 2], strides = [1, 1]} : vector<2x4xf32> to vector<1x2xf32>
  return
}
// CHECK: expected sum(offsets, sizes) dimension 1 to be confined to [1, 5)

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{expected offsets, sizes and strides attributes of same size}}
  %0 = vector.extract_strided_slice %v {offsets = [0, 1, 2], sizes = [1, 2], strides = [1, 1]} : vector<2x4xf32> to vector<1x2xf32>
  return
}
// CHECK: expected offsets, sizes and strides attributes of same size

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{expected strides to be confined to [1, 2)}}
  %0 = vector.extract_strided_slice %v {offsets = [0, 1], sizes = [1, 2], strides = [1, 2]} : vector<2x4xf32> to vector<1x2xf32>
  return
}
// CHECK: expected strides to be confined to [1, 2)

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{expected result type to be 'vector<1x2xf32>'}}
  %0 = vector.extract_strided_slice %v {offsets = [0, 1], sizes = [1, 2], strides = [1, 1]} : vector<2x4xf32> to vector<1x3xf32>
  return
}
// CHECK: expected result type to be 'vector<1x2xf32>'

// -----

func.func @f(%v: vector<2x4xf32>, %s: vector<4xf32>) {
  // expected-error@+1 {{expected sum(offsets, source vector shape) dimension 1 to be confined to [1, 5)}}
  %0 = vector.insert_strided_slice %s, %v {offsets = [1, 1], strides = [1]} : vector<4xf32> into vector<2x4xf32>
  return
}
// CHECK: expected sum(offsets, source vector shape) dimension 1 to be confined to [1, 5)

// -----

func.func @f(%v: vector<2x4xf32>, %s: vector<4xf32>) {
  // expected-error@+1 {{expected offsets of same size as destination vector rank}}
  %0 = vector.insert_strided_slice %s, %v {offsets = [1], strides = [1]} : vector<4xf32> into vector<2x4xf32>
  return
}
// CHECK: expected offsets of same size as destination vector rank

// -----

func.func @f(%v: vector<2x4xf32>, %s: vector<4xf32>) {
  // expected-error@+1 {{expected strides to be confined to [1, 2)}}
  %0 = vector.insert_strided_slice %s, %v {offsets = [1, 0], strides = [2]} : vector<4xf32> into vector<2x4xf32>
  return
}
// CHECK: expected strides to be confined to [1, 2)

// -----

func.func @f(%v: vector<4xf32>) {
  // expected-error@+1 {{mask index #2 out of range}}
  %0 = vector.shuffle %v, %v [0, 8] : vector<4xf32>, vector<4xf32>
  return
}
// CHECK: mask index #2 out of range

// -----

func.func @f(%v: vector<4xf32>, %w: vector<2x4xf32>) {
  // expected-error@+1 {{rank mismatch}}
  %0 = vector.shuffle %v, %w [0, 1] : vector<4xf32>, vector<2x4xf32>
  return
}
// CHECK: rank mismatch

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{unsupported reduction rank: 2}}
  %0 = vector.reduction <add>, %v : vector<2x4xf32> into f32
  return
}
// CHECK: unsupported reduction rank: 2

// -----

func.func @f(%v: vector<4xf32>) {
  // expected-error@+1 {{failed to verify that source operand and result have same element type}}
  %0 = vector.reduction <add>, %v : vector<4xf32> into f64
  return
}
// CHECK: failed to verify that source operand and result have same element type

// -----

func.func @f(%v: vector<4xf32>) {
  // expected-error@+1 {{unsupported reduction type ''f32'' for kind 'xor'}}
  %0 = vector.reduction <xor>, %v : vector<4xf32> into f32
  return
}
// CHECK: unsupported reduction type ''f32'' for kind 'xor'

// -----

func.func @f(%v: vector<4xi32>) {
  // expected-error@+1 {{unsupported reduction type ''i32'' for kind 'maxnumf'}}
  %0 = vector.reduction <maxnumf>, %v : vector<4xi32> into i32
  return
}
// CHECK: unsupported reduction type ''i32'' for kind 'maxnumf'

// -----

func.func @f(%v: vector<2x4xf32>, %a: vector<2xf32>) {
  // expected-error@+1 {{destination type 'vector<2xf32>' is incompatible with source type 'vector<2x4xf32>'}}
  %0 = vector.multi_reduction <add>, %v, %a [0] : vector<2x4xf32> to vector<2xf32>
  return
}
// CHECK: destination type 'vector<2xf32>' is incompatible with source type 'vector<2x4xf32>'

// -----

func.func @f(%v: vector<2x4xf32>, %a: vector<4xf32>) {
  // expected-error@+1 {{destination type 'vector<4xf32>' is incompatible with source type 'vector<2x4xf32>'}}
  %0 = vector.multi_reduction <add>, %v, %a [2] : vector<2x4xf32> to vector<4xf32>
  return
}
// CHECK: destination type 'vector<4xf32>' is incompatible with source type 'vector<2x4xf32>'

// -----

func.func @f(%v: vector<4xf32>, %w: vector<3xi32>) {
  // expected-error@+1 {{failed to verify that rhs operand and result have same element type}}
  %0 = vector.outerproduct %v, %w : vector<4xf32>, vector<3xi32>
  return
}
// CHECK: failed to verify that rhs operand and result have same element type

// -----

func.func @f(%v: vector<4xf32>) {
  // expected-error@+1 {{source/result bitwidth of the minor 1-D vectors must be equal}}
  %0 = vector.bitcast %v : vector<4xf32> to vector<3xi32>
  return
}
// CHECK: source/result bitwidth of the minor 1-D vectors must be equal

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{dimension size mismatch at: 0}}
  %0 = vector.bitcast %v : vector<2x4xf32> to vector<4x2xf32>
  return
}
// CHECK: dimension size mismatch at: 0

// -----

func.func @f(%v: vector<2x4xf32>) {
  // expected-error@+1 {{failed to verify that all of {source, result} have same rank}}
  %0 = vector.bitcast %v : vector<2x4xf32> to vector<8xf32>
  return
}
// CHECK: failed to verify that all of {source, result} have same rank

// -----

func.func @f(%m: memref<2x4xf32, strided<[8, 1]>>) {
  // expected-error@+1 {{expects operand to be a memref with identity layout}}
  %0 = vector.type_cast %m : memref<2x4xf32, strided<[8, 1]>> to memref<vector<2x4xf32>>
  return
}
// CHECK: expects operand to be a memref with identity layout

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{must specify an operand for each result vector dimension}}
  %0 = vector.create_mask %i : vector<2x4xi1>
  return
}
// CHECK: must specify an operand for each result vector dimension

// -----

func.func @f() {
  // expected-error@+1 {{must specify array attr of size equal vector result rank}}
  %0 = vector.constant_mask [1] : vector<2x4xi1>
  return
}
// CHECK: must specify array attr of size equal vector result rank

// -----

func.func @f() {
  // expected-error@+1 {{array attr of size out of bounds of vector result dimension size}}
  %0 = vector.constant_mask [3, 2] : vector<2x4xi1>
  return
}
// CHECK: array attr of size out of bounds of vector result dimension size

// -----

func.func @f() {
  // expected-error@+1 {{expected all mask dim sizes to be zeros, as a result of conjunction with zero mask dim}}
  %0 = vector.constant_mask [0, 2] : vector<2x4xi1>
  return
}
// CHECK: expected all mask dim sizes to be zeros, as a result of conjunction with zero mask dim

// -----

func.func @f() {
  // expected-error@+1 {{only supports 'none set' or 'all set' scalable dimensions}}
  %0 = vector.constant_mask [2] : vector<[4]xi1>
  return
}
// CHECK: only supports 'none set' or 'all set' scalable dimensions

// -----

func.func @f(%m: memref<?xf32>, %i: index) {
  // expected-error@+1 {{base and result element types should match}}
  %0 = vector.load %m[%i] : memref<?xf32>, vector<4xi32>
  return
}
// CHECK: base and result element types should match

// -----

func.func @f(%m: memref<?x?xf32>, %i: index) {
  // expected-error@+1 {{requires 2 indices}}
  %0 = vector.load %m[%i] : memref<?x?xf32>, vector<4xf32>
  return
}
// CHECK: requires 2 indices

// -----

func.func @f(%m: memref<?xf32>, %i: index, %v: vector<4xi32>) {
  // expected-error@+1 {{base and valueToStore element type should match}}
  vector.store %v, %m[%i] : memref<?xf32>, vector<4xi32>
  return
}
// CHECK: base and valueToStore element type should match

// -----

func.func @f(%m: memref<?xf32>, %i: index, %mask: vector<4xi1>, %p: vector<4xi32>) {
  // expected-error@+1 {{base and result element type should match}}
  %0 = vector.maskedload %m[%i], %mask, %p : memref<?xf32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
  return
}
// CHECK: base and result element type should match

// -----

func.func @f(%m: memref<?xf32>, %i: index, %mask: vector<3xi1>, %p: vector<4xf32>) {
  // expected-error@+1 {{expected result shape to match mask shape}}
  %0 = vector.maskedload %m[%i], %mask, %p : memref<?xf32>, vector<3xi1>, vector<4xf32> into vector<4xf32>
  return
}
// CHECK: expected result shape to match mask shape

// -----

func.func @f(%m: memref<?xf32>, %i: index, %mask: vector<3xi1>, %p: vector<4xf32>) {
  // expected-error@+1 {{expected valueToStore shape to match mask shape}}
  vector.maskedstore %m[%i], %mask, %p : memref<?xf32>, vector<3xi1>, vector<4xf32>
  return
}
// CHECK: expected valueToStore shape to match mask shape

// -----

func.func @f(%m: memref<?xf32>, %i: index, %ix: vector<3xi32>, %mask: vector<4xi1>, %p: vector<4xf32>) {
  // expected-error@+1 {{expected result dim to match indices dim}}
  %0 = vector.gather %m[%i] [%ix], %mask, %p : memref<?xf32>, vector<3xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return
}
// CHECK: expected result dim to match indices dim

// -----

func.func @f(%m: memref<?xf32>, %i: index, %ix: vector<4xi32>, %mask: vector<4xi1>, %p: vector<4xf32>) {
  // expected-error@+1 {{requires 1 indices}}
  %0 = vector.gather %m[%i, %i] [%ix], %mask, %p : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return
}
// CHECK: requires 1 indices

// -----

func.func @f(%m: memref<?xf32>, %i: index, %ix: vector<4xi32>, %mask: vector<3xi1>, %p: vector<4xf32>) {
  // expected-error@+1 {{expected valueToStore dim to match mask dim}}
  vector.scatter %m[%i] [%ix], %mask, %p : memref<?xf32>, vector<4xi32>, vector<3xi1>, vector<4xf32>
  return
}
// CHECK: expected valueToStore dim to match mask dim

// -----

func.func @f(%m: memref<?xf32>, %i: index, %mask: vector<3xi1>, %p: vector<4xf32>) {
  // expected-error@+1 {{expected result dim to match mask dim}}
  %0 = vector.expandload %m[%i], %mask, %p : memref<?xf32>, vector<3xi1>, vector<4xf32> into vector<4xf32>
  return
}
// CHECK: expected result dim to match mask dim

// -----

func.func @f(%m: memref<?xf32>, %i: index, %mask: vector<3xi1>, %p: vector<4xf32>) {
  // expected-error@+1 {{expected valueToStore dim to match mask dim}}
  vector.compressstore %m[%i], %mask, %p : memref<?xf32>, vector<3xi1>, vector<4xf32>
  return
}
// CHECK: expected valueToStore dim to match mask dim

// -----

func.func @f(%m: memref<?x?xf32>, %i: index, %f: f32) {
  // expected-error@+1 {{requires 2 indices}}
  %0 = vector.transfer_read %m[%i], %f : memref<?x?xf32>, vector<4xf32>
  return
}
// CHECK: requires 2 indices

// -----

func.func @f(%m: memref<?x?xf32>, %i: index, %f: f32) {
  // expected-error@+1 {{requires a projected permutation_map (at most one dim or the zero constant can appear in each result)}}
  %0 = vector.transfer_read %m[%i, %i], %f {permutation_map = affine_map<(d0, d1) -> (d0 + d1)>} : memref<?x?xf32>, vector<4xf32>
  return
}
// CHECK: requires a projected permutation_map (at most one dim or the zero constant can appear in each result)

// -----

func.func @f(%m: memref<?x?xf32>, %i: index, %f: f32) {
  // expected-error@+1 {{requires a permutation_map that is a permutation (found one dim used more than once)}}
  %0 = vector.transfer_read %m[%i, %i], %f {permutation_map = affine_map<(d0, d1) -> (d0, d0)>} : memref<?x?xf32>, vector<4x4xf32>
  return
}
// CHECK: requires a permutation_map that is a permutation (found one dim used more than once)

// -----

func.func @f(%m: memref<?x?xf32>, %i: index, %f: f32) {
  // expected-error@+1 {{expects the in_bounds attr of same rank as permutation_map results: affine_map<(d0, d1) -> (d1)> vs inBounds of size: 2}}
  %0 = vector.transfer_read %m[%i, %i], %f {in_bounds = [true, false]} : memref<?x?xf32>, vector<4xf32>
  return
}
// CHECK: expects the in_bounds attr of same rank as permutation_map results: affine_map<(d0, d1) -> (d1)> vs inBounds of size: 2

// -----

func.func @f(%m: memref<?x?xf32>, %i: index, %f: f32) {
  // expected-error@+1 {{requires a permutation_map with result dims of the same rank as the vector type}}
  %0 = vector.transfer_read %m[%i, %i], %f {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<?x?xf32>, vector<4x4xf32>
  return
}
// CHECK: requires a permutation_map with result dims of the same rank as the vector type

// -----

func.func @f(%m: memref<?x?xf32>, %i: index, %v: vector<4xf32>) {
  // expected-error@+1 {{should not have broadcast dimensions}}
  vector.transfer_write %v, %m[%i, %i] {permutation_map = affine_map<(d0, d1) -> (0)>} : vector<4xf32>, memref<?x?xf32>
  return
}
// CHECK: should not have broadcast dimensions

// -----

func.func @f(%v: vector<4xf32>) {
  // expected-error@+1 {{failed to verify that type of 'result' is double the width of the inputs}}
  %0 = vector.interleave %v, %v : vector<4xf32> -> vector<4xf32>
  return
}
// CHECK: failed to verify that type of 'result' is double the width of the inputs

// -----

func.func @f(%v: vector<4xf32>) {
  // expected-error@+1 {{failed to verify that the trailing dimension of the results is half the width of source trailing dimension}}
  %0, %1 = vector.deinterleave %v : vector<4xf32> -> vector<4xf32>
  return
}
// CHECK: failed to verify that the trailing dimension of the results is half the width of source trailing dimension

// -----

func.func @f(%v: vector<3xf32>) {
  // expected-error@+1 {{failed to verify that the trailing dimension of the source vector has an even number of elements}}
  %0, %1 = vector.deinterleave %v : vector<3xf32> -> vector<1xf32>
  return
}
// CHECK: failed to verify that the trailing dimension of the source vector has an even number of elements

// -----

func.func @f() {
  // expected-error@+1 {{result #0 must be vector of index values of ranks 1, but got 'vector<2x4xindex>'}}
  %0 = vector.step : vector<2x4xindex>
  return
}
// CHECK: result #0 must be vector of index values of ranks 1, but got 'vector<2x4xindex>'

// -----

func.func @f(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) {
  // expected-error@+1 {{expected indexing map 0 to have 2 number of inputs}}
  %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel"]} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  return
}
// CHECK: expected indexing map 0 to have 2 number of inputs

// -----

func.func @f(%a: vector<2x3xf32>, %b: vector<4x4xf32>, %c: vector<2x4xf32>) {
  // expected-error@+1 {{invalid contracting dimension map}}
  %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x3xf32>, vector<4x4xf32> into vector<2x4xf32>
  return
}
// CHECK: invalid contracting dimension map

// -----

func.func @f(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x5xf32>) {
  // expected-error@+1 {{invalid accumulator/result vector shape, expected: 'vector<2x4xf32>'}}
  %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x5xf32>
  return
}
// CHECK: invalid accumulator/result vector shape, expected: 'vector<2x4xf32>'

// -----

func.func @f(%v: vector<4xf32>) {
  vector.print %v : vector<4xf32> punctuation <comma>
  // expected-error@+1 {{failed to verify that `source` or `punctuation` are not set when printing strings}}
  vector.print str "x" punctuation <no_punctuation>
  return
}
// CHECK: failed to verify that `source` or `punctuation` are not set when printing strings

// -----

func.func @f(%m: memref<?xf32>, %i: index) {
  // expected-error@+1 {{attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %0 = vector.load %m[%i] {alignment = 12} : memref<?xf32>, vector<4xf32>
  return
}
// CHECK: attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0
