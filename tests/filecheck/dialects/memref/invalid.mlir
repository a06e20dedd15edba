// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --split-input-file --verify-diagnostics %}

// The verifier rules of the memref ops that xdsl_gpu/gpu_dialect/memref.py defines or
// replaces. CHECK lines are upstream's words (ours may stop short of upstream's full
// type); the second RUN line has mlir-opt-22 report each `expected-error` where it
// says. A generic_atomic_rmw of a type that is not a memref of signless integers or
// floats is a parse error in xdsl-opt (upstream's verifier reports it), hence
// --parsing-diagnostics.

// expected-error@+1 {{type should be static shaped memref, but got 'memref<?xf32>'}}
"memref.global"() <{sym_name = "dyn", sym_visibility = "private", type = memref<?xf32>}> : () -> ()
// CHECK: type should be static shaped memref, but got 'memref<?xf32>'

// -----

// expected-error@+1 {{initial value shape expected to be 2 but was 3}}
"memref.global"() <{sym_name = "g", type = memref<2xf32>, initial_value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>}> : () -> ()
// CHECK: initial value shape expected to be 2 but was 3

// -----

// expected-error@+1 {{initial value element expected to be of type 'f32', but was of type 'f64'}}
"memref.global"() <{sym_name = "g", type = memref<2xf32>, initial_value = dense<[1.0, 2.0]> : tensor<2xf64>}> : () -> ()
// CHECK: initial value element expected to be of type 'f32', but was of type 'f64'

// -----

// expected-error@+1 {{attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
memref.global @a : memref<2xf32> = dense<1.0> {alignment = 3 : i64}
// CHECK: attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0

// -----

func.func @cast_element_type(%m: memref<4xf32>) {
  // expected-error@+1 {{operand type 'memref<4xf32>' and result type 'memref<*xi32>' are cast incompatible}}
  %u = memref.cast %m : memref<4xf32> to memref<*xi32>
  func.return
}
// CHECK: operand type 'memref<4xf32>' and result type 'memref<*xi32>' are cast incompatible

// -----

func.func @cast_static_size(%m: memref<4xf32>) {
  // expected-error@+1 {{operand type 'memref<4xf32>' and result type 'memref<5xf32>' are cast incompatible}}
  %u = memref.cast %m : memref<4xf32> to memref<5xf32>
  func.return
}
// CHECK: operand type 'memref<4xf32>' and result type 'memref<5xf32>' are cast incompatible

// -----

func.func @cast_rank(%m: memref<4xf32>) {
  // expected-error@+1 {{are cast incompatible}}
  %u = memref.cast %m : memref<4xf32> to memref<4x1xf32>
  func.return
}
// CHECK: operand type 'memref<4xf32>' and result type 'memref<4x1xf32>' are cast incompatible

// -----

func.func @cast_static_offset(%m: memref<4xf32, strided<[1], offset: 2>>) {
  // expected-error@+1 {{are cast incompatible}}
  %u = memref.cast %m : memref<4xf32, strided<[1], offset: 2>> to memref<4xf32, strided<[1], offset: 3>>
  func.return
}
// CHECK: are cast incompatible

// -----

func.func @cast_unranked_to_unranked(%m: memref<*xf32>) {
  // expected-error@+1 {{operand type 'memref<*xf32>' and result type 'memref<*xf32>' are cast incompatible}}
  %u = memref.cast %m : memref<*xf32> to memref<*xf32>
  func.return
}
// CHECK: operand type 'memref<*xf32>' and result type 'memref<*xf32>' are cast incompatible

// -----

func.func @memory_space_cast_shape(%m: memref<4xf32>) {
  // expected-error@+1 {{are cast incompatible}}
  %u = memref.memory_space_cast %m : memref<4xf32> to memref<5xf32, 1>
  func.return
}
// CHECK: operand type 'memref<4xf32>' and result type 'memref<5xf32, 1>' are cast incompatible

// -----

func.func @memory_space_cast_ranked_to_unranked(%m: memref<4xf32>) {
  // expected-error@+1 {{are cast incompatible}}
  %u = memref.memory_space_cast %m : memref<4xf32> to memref<*xf32, 1>
  func.return
}
// CHECK: are cast incompatible

// -----

func.func @copy_element_type(%m: memref<4xf32>, %n: memref<4xi32>) {
  // expected-error@+1 {{requires the same element type for all operands}}
  memref.copy %m, %n : memref<4xf32> to memref<4xi32>
  func.return
}
// CHECK: requires the same element type for all operands

// -----

func.func @copy_shape(%m: memref<4xf32>, %n: memref<5xf32>) {
  // expected-error@+1 {{requires the same shape for all operands}}
  memref.copy %m, %n : memref<4xf32> to memref<5xf32>
  func.return
}
// CHECK: requires the same shape for all operands

// -----

func.func @atomic_rmw_float_kind_on_integer(%m: memref<4xi32>, %v: i32, %i: index) {
  // expected-error@+1 {{with kind 'addf' expects a floating-point type}}
  %x = memref.atomic_rmw addf %v, %m[%i] : (i32, memref<4xi32>) -> i32
  func.return
}
// CHECK: with kind 'addf' expects a floating-point type

// -----

func.func @atomic_rmw_integer_kind_on_float(%m: memref<4xf32>, %v: f32, %i: index) {
  // expected-error@+1 {{with kind 'xori' expects an integer type}}
  %x = memref.atomic_rmw xori %v, %m[%i] : (f32, memref<4xf32>) -> f32
  func.return
}
// CHECK: with kind 'xori' expects an integer type

// -----

func.func @atomic_rmw_subscripts(%m: memref<4x4xf32>, %v: f32, %i: index) {
  // expected-error@+1 {{expects the number of subscripts to be equal to memref rank}}
  %x = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4x4xf32>) -> f32
  func.return
}
// CHECK: expects the number of subscripts to be equal to memref rank

// -----

func.func @generic_atomic_rmw_two_arguments(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{expected single number of entry block arguments}}
  %x = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
  ^bb0(%c : f32, %d : f32):
    memref.atomic_yield %c : f32
  }
  func.return
}
// CHECK: expected single number of entry block arguments

// -----

func.func @generic_atomic_rmw_argument_type(%m: memref<4xf32>, %i: index, %z: f32) {
  // expected-error@+1 {{expected block argument of the same type result type}}
  %x = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
  ^bb0(%c : i32):
    memref.atomic_yield %z : f32
  }
  func.return
}
// CHECK: expected block argument of the same type result type

// -----

func.func @atomic_yield_type(%m: memref<4xf32>, %i: index, %v: i32) {
  %x = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
  ^bb0(%c : f32):
    // expected-error@+1 {{types mismatch between yield op: 'i32' and its parent: 'f32'}}
    memref.atomic_yield %v : i32
  }
  func.return
}
// CHECK: types mismatch between yield op: 'i32' and its parent: 'f32'

// -----

// Upstream reports it at the op with side effects, xdsl-gpu at generic_atomic_rmw.
func.func @generic_atomic_rmw_side_effect(%m: memref<4xf32>, %i: index) {
  %x = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
  ^bb0(%c : f32):
    // expected-error@+1 {{body of 'memref.generic_atomic_rmw' should contain only operations with no side effects}}
    memref.store %c, %m[%i] : memref<4xf32>
    memref.atomic_yield %c : f32
  }
  func.return
}
// CHECK: body of 'memref.generic_atomic_rmw' should contain only operations with no side effects

// -----

func.func @transpose_not_permutation(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected a permutation map}}
  %t = memref.transpose %m (i, j) -> (i, i) : memref<4x4xf32> to memref<4x4xf32>
  func.return
}
// CHECK: expected a permutation map

// -----

func.func @transpose_rank(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected a permutation map of same rank as the input}}
  %t = memref.transpose %m (i) -> (i) : memref<4x4xf32> to memref<4x4xf32>
  func.return
}
// CHECK: expected a permutation map of same rank as the input

// -----

func.func @transpose_result_type(%m: memref<4x8xf32>) {
  // expected-error@+1 {{result type 'memref<8x4xf32>' is not equivalent to the canonical transposed input type}}
  %t = memref.transpose %m (i, j) -> (j, i) : memref<4x8xf32> to memref<8x4xf32>
  func.return
}
// CHECK: result type 'memref<8x4xf32>' is not equivalent to the canonical transposed input type

// -----

func.func @prefetch_indices(%m: memref<4x8xf32>, %i: index) {
  // expected-error@+1 {{too few indices}}
  memref.prefetch %m[%i], read, locality<3>, data : memref<4x8xf32>
  func.return
}
// CHECK: too few indices

// -----

func.func @prefetch_locality(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{attribute 'localityHint' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3}}
  memref.prefetch %m[%i], read, locality<5>, data : memref<4xf32>
  func.return
}
// CHECK: attribute 'localityHint' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3

// -----

func.func @alloca_scope_return_count(%v: f32) {
  // expected-error@+1 {{region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = memref.alloca_scope -> (f32) {
    // expected-note@+1 {{region branch point}}
    memref.alloca_scope.return
  }
  func.return
}
// CHECK: region branch point has 0 operands, but region successor needs 1 inputs

// -----

func.func @generic_atomic_rmw_unranked(%u: memref<*xf32>, %i: index) {
  // expected-error@+1 {{operand #0 must be memref of signless integer or floating-point values, but got 'memref<*xf32>'}}
  %x = memref.generic_atomic_rmw %u[%i] : memref<*xf32> {
  ^bb0(%c : f32):
    memref.atomic_yield %c : f32
  }
  func.return
}
// CHECK: operand #0 must be memref of signless integer or floating-point values, but got 'memref<*xf32>'

// -----

func.func @generic_atomic_rmw_tensor(%u: tensor<4xf32>, %i: index) {
  // expected-error@+1 {{operand #0 must be memref of signless integer or floating-point values, but got 'tensor<4xf32>'}}
  %x = memref.generic_atomic_rmw %u[%i] : tensor<4xf32> {
  ^bb0(%c : f32):
    memref.atomic_yield %c : f32
  }
  func.return
}
// CHECK: operand #0 must be memref of signless integer or floating-point values, but got 'tensor<4xf32>'

// -----

func.func @generic_atomic_rmw_index(%u: memref<4xindex>, %i: index) {
  // expected-error@+1 {{operand #0 must be memref of signless integer or floating-point values, but got 'memref<4xindex>'}}
  %x = memref.generic_atomic_rmw %u[%i] : memref<4xindex> {
  ^bb0(%c : index):
    memref.atomic_yield %c : index
  }
  func.return
}
// CHECK: operand #0 must be memref of signless integer or floating-point values, but got 'memref<4xindex>'

// -----

func.func @generic_atomic_rmw_signed(%u: memref<4xsi32>, %i: index) {
  // expected-error@+1 {{operand #0 must be memref of signless integer or floating-point values, but got 'memref<4xsi32>'}}
  %x = memref.generic_atomic_rmw %u[%i] : memref<4xsi32> {
  ^bb0(%c : si32):
    memref.atomic_yield %c : si32
  }
  func.return
}
// CHECK: operand #0 must be memref of signless integer or floating-point values, but got 'memref<4xsi32>'

// -----

func.func @transpose_identity_layout(%m: memref<4xf32>) {
  // expected-error@+1 {{result type 'memref<4xf32>' is not equivalent to the canonical transposed input type 'memref<4xf32, strided<[1]>>'}}
  %t = memref.transpose %m (d0) -> (d0) : memref<4xf32> to memref<4xf32>
  func.return
}
// CHECK: result type 'memref<4xf32>' is not equivalent to the canonical transposed input type 'memref<4xf32, strided<[1]>>'

// -----

func.func @transpose_strided_identity(%m: memref<4xf32, strided<[1]>>) {
  // expected-error@+1 {{result type 'memref<4xf32>' is not equivalent to the canonical transposed input type 'memref<4xf32, strided<[1]>>'}}
  %t = memref.transpose %m (d0) -> (d0) : memref<4xf32, strided<[1]>> to memref<4xf32>
  func.return
}
// CHECK: result type 'memref<4xf32>' is not equivalent to the canonical transposed input type 'memref<4xf32, strided<[1]>>'

// -----

// Upstream never finds a layout with a dynamic stride canonical.
func.func @transpose_dynamic_strides(%m: memref<?x?xf32>) {
  // expected-error@+1 {{result type 'memref<?x?xf32>' is not equivalent to the canonical transposed input type}}
  %t = memref.transpose %m (d0, d1) -> (d0, d1) : memref<?x?xf32> to memref<?x?xf32>
  func.return
}
// CHECK: result type 'memref<?x?xf32>' is not equivalent to the canonical transposed input type

// -----

func.func @transpose_not_strided(%m: memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>) {
  // expected-error@+1 {{operand #0 must be strided memref of any type values, but got 'memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>'}}
  %t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>> to memref<8x4xf32>
  func.return
}
// CHECK: operand #0 must be strided memref of any type values, but got 'memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>'

// -----

// Only 0 is the default memory space: 1 : i64 and 1 : i32 differ.
func.func @cast_memory_space_1_i32(%m: memref<4xf32, 1>) {
  // expected-error@+1 {{are cast incompatible}}
  %c = memref.cast %m : memref<4xf32, 1> to memref<?xf32, 1 : i32>
  func.return
}
// CHECK: operand type 'memref<4xf32, 1>' and result type 'memref<?xf32, 1 : i32>' are cast incompatible

// -----

func.func @collapse_group_count(%m: memref<4x8xf32>) {
  // expected-error@+1 {{invalid number of reassociation groups: found 2, expected 1}}
  %t = memref.collapse_shape %m [[0], [1]] : memref<4x8xf32> into memref<32xf32>
  func.return
}
// CHECK: invalid number of reassociation groups: found 2, expected 1

// -----

func.func @collapse_not_contiguous(%m: memref<4x8x2xf32>) {
  // expected-error@+1 {{reassociation indices must be contiguous}}
  %t = memref.collapse_shape %m [[0, 2], [1]] : memref<4x8x2xf32> into memref<8x8xf32>
  func.return
}
// CHECK: reassociation indices must be contiguous

// -----

func.func @collapse_not_in_order(%m: memref<4x8xf32>) {
  // expected-error@+1 {{reassociation indices must be contiguous}}
  %t = memref.collapse_shape %m [[1, 0]] : memref<4x8xf32> into memref<32xf32>
  func.return
}
// CHECK: reassociation indices must be contiguous

// -----

func.func @collapse_index_out_of_bounds(%m: memref<4x8xf32>) {
  // expected-error@+1 {{reassociation index 2 is out of bounds}}
  %t = memref.collapse_shape %m [[0, 1], [2]] : memref<4x8xf32> into memref<32x1xf32>
  func.return
}
// CHECK: reassociation index 2 is out of bounds

// -----

func.func @collapse_missing_dims(%m: memref<4x8xf32>) {
  // expected-error@+1 {{expanded rank (2) inconsistent with number of reassociation indices (1)}}
  %t = memref.collapse_shape %m [[0]] : memref<4x8xf32> into memref<4xf32>
  func.return
}
// CHECK: expanded rank (2) inconsistent with number of reassociation indices (1)

// -----

func.func @collapse_size(%m: memref<4x8xf32>) {
  // expected-error@+1 {{collapsed dim size (33) must equal reassociation group size (32)}}
  %t = memref.collapse_shape %m [[0, 1]] : memref<4x8xf32> into memref<33xf32>
  func.return
}
// CHECK: collapsed dim size (33) must equal reassociation group size (32)

// -----

func.func @collapse_dynamic(%m: memref<4x?xf32>) {
  // expected-error@+1 {{collapsed dim (0) must be dynamic if and only if reassociation group is dynamic}}
  %t = memref.collapse_shape %m [[0, 1]] : memref<4x?xf32> into memref<32xf32>
  func.return
}
// CHECK: collapsed dim (0) must be dynamic if and only if reassociation group is dynamic

// -----

func.func @collapse_rank_0(%m: memref<1x2xf32>) {
  // expected-error@+1 {{rank 0 memrefs can only be extended/collapsed with/from ones}}
  %t = memref.collapse_shape %m [] : memref<1x2xf32> into memref<f32>
  func.return
}
// CHECK: rank 0 memrefs can only be extended/collapsed with/from ones

// -----

func.func @collapse_rank(%m: memref<f32>) {
  // expected-error@+1 {{has source rank 0 and result rank 1. This is not a collapse (0 < 1).}}
  %t = memref.collapse_shape %m [[0]] : memref<f32> into memref<1xf32>
  func.return
}
// CHECK: has source rank 0 and result rank 1. This is not a collapse (0 < 1).

// -----

func.func @collapse_memory_space(%m: memref<4x8xf32>) {
  // expected-error@+1 {{expected collapsed type to be 'memref<32xf32>' but found 'memref<32xf32, 1}}
  %t = memref.collapse_shape %m [[0, 1]] : memref<4x8xf32> into memref<32xf32, 1>
  func.return
}
// CHECK: expected collapsed type to be 'memref<32xf32>' but found 'memref<32xf32, 1>'

// -----

func.func @expand_group_count(%m: memref<32xf32>) {
  // expected-error@+1 {{invalid number of reassociation groups: found 2, expected 1}}
  %t = memref.expand_shape %m [[0], [1]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
  func.return
}
// CHECK: invalid number of reassociation groups: found 2, expected 1

// -----

func.func @expand_not_contiguous(%m: memref<32xf32>) {
  // expected-error@+1 {{reassociation indices must be contiguous}}
  %t = memref.expand_shape %m [[1, 0]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
  func.return
}
// CHECK: reassociation indices must be contiguous

// -----

func.func @expand_index_out_of_bounds(%m: memref<32xf32>) {
  // expected-error@+1 {{reassociation index 2 is out of bounds}}
  %t = memref.expand_shape %m [[0, 1, 2]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
  func.return
}
// CHECK: reassociation index 2 is out of bounds

// -----

func.func @expand_size(%m: memref<32xf32>) {
  // expected-error@+1 {{collapsed dim size (32) must equal reassociation group size (36)}}
  %t = memref.expand_shape %m [[0, 1]] output_shape [4, 9] : memref<32xf32> into memref<4x9xf32>
  func.return
}
// CHECK: collapsed dim size (32) must equal reassociation group size (36)

// -----

func.func @expand_rank_0(%m: memref<f32>) {
  // expected-error@+1 {{rank 0 memrefs can only be extended/collapsed with/from ones}}
  %t = memref.expand_shape %m [] output_shape [1, 2] : memref<f32> into memref<1x2xf32>
  func.return
}
// CHECK: rank 0 memrefs can only be extended/collapsed with/from ones

// -----

func.func @expand_rank(%m: memref<1xf32>) {
  // expected-error@+1 {{has source rank 1 and result rank 0. This is not an expansion (1 > 0).}}
  %t = memref.expand_shape %m [] output_shape [] : memref<1xf32> into memref<f32>
  func.return
}
// CHECK: has source rank 1 and result rank 0. This is not an expansion (1 > 0).

// -----

func.func @expand_element_type(%m: memref<32xf32>) {
  // expected-error@+1 {{expected expanded type to be 'memref<4x8xf32>' but found 'memref<4x8xi32>'}}
  %t = memref.expand_shape %m [[0, 1]] output_shape [4, 8] : memref<32xf32> into memref<4x8xi32>
  func.return
}
// CHECK: expected expanded type to be 'memref<4x8xf32>' but found 'memref<4x8xi32>'

// -----

func.func @expand_output_shape(%m: memref<32xf32>) {
  // expected-error@+1 {{invalid output shape provided at pos 1}}
  %t = memref.expand_shape %m [[0, 1]] output_shape [4, 9] : memref<32xf32> into memref<4x8xf32>
  func.return
}
// CHECK: invalid output shape provided at pos 1

// -----

func.func @expand_output_shape_count(%m: memref<32xf32>) {
  // expected-error@+1 {{expected number of static shape bounds to be equal to the output rank (2) but found 1 inputs instead}}
  %t = memref.expand_shape %m [[0, 1]] output_shape [4] : memref<32xf32> into memref<4x8xf32>
  func.return
}
// CHECK: expected number of static shape bounds to be equal to the output rank (2) but found 1 inputs instead

// -----

func.func @expand_dynamic_output_shape(%m: memref<?xf32>) {
  // expected-error@+1 {{mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has 1 dynamic dims while output_shape has 0 values}}
  %t = "memref.expand_shape"(%m) <{reassociation = [[0, 1]], static_output_shape = array<i64: -9223372036854775808, 4>}> : (memref<?xf32>) -> memref<?x4xf32>
  func.return
}
// CHECK: mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has 1 dynamic dims while output_shape has 0 values
