// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --split-input-file --verify-diagnostics %}

// The verifier of vector.mask (xdsl_gpu/gpu_dialect/vector/masking_ops.py) in
// upstream's words: the second RUN line has mlir-opt-22 report each `expected-error`
// where it says.
func.func @f0(%m: memref<?xf32>, %i: index, %mask: vector<8xi1>) {
  %c0 = arith.constant 0.0 : f32
  // expected-error@+1 {{expects a 'vector<16xi1>' mask for the maskable operation}}
  %0 = vector.mask %mask { vector.transfer_read %m[%i], %c0 : memref<?xf32>, vector<16xf32> } : vector<8xi1> -> vector<16xf32>
  return
}
// CHECK: expects a 'vector<16xi1>' mask for the maskable operation

// -----

func.func @f1(%mask: vector<16xi1>, %v: vector<16xf32>, %pt: f32) {
  // expected-error@+1 {{doesn't expect a passthru argument for this maskable operation}}
  %0 = vector.mask %mask, %pt { vector.reduction <add>, %v : vector<16xf32> into f32 } : vector<16xi1> -> f32
  return
}
// CHECK: doesn't expect a passthru argument for this maskable operation

// -----

func.func @f2(%mask: vector<16xi1>, %v: vector<16xf32>) {
  // expected-error@+1 {{expects a MaskableOpInterface within the mask region}}
  %0 = vector.mask %mask { %a = arith.addf %v, %v : vector<16xf32>
    vector.yield %a : vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  return
}
// CHECK: expects a MaskableOpInterface within the mask region

// -----

func.func @f3(%m: memref<?xf32>, %i: index, %mask: vector<16xi1>) {
  // expected-error@+1 {{expects a MaskableOpInterface within the mask region}}
  %0 = vector.mask %mask { vector.load %m[%i] : memref<?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  return
}
// CHECK: expects a MaskableOpInterface within the mask region

// -----

func.func @f4(%mask: vector<16xi1>, %v: vector<16xf32>) {
  // expected-error@+1 {{expects only one operation to mask}}
  %0 = vector.mask %mask { %a = vector.reduction <add>, %v : vector<16xf32> into f32
    %b = vector.reduction <add>, %v : vector<16xf32> into f32
    vector.yield %a : f32 } : vector<16xi1> -> f32
  return
}
// CHECK: expects only one operation to mask

// -----

func.func @f5(%mask: vector<16xi1>) {
  // expected-error@+1 {{expects number of results to match mask region yielded values}}
  %0 = vector.mask %mask { vector.yield } : vector<16xi1> -> f32
  return
}
// CHECK: expects number of results to match mask region yielded values

// -----

func.func @f6(%mask: vector<16xi1>, %v: vector<16xf32>, %s: f32) {
  // expected-error@+1 {{expects all the results from the MaskableOpInterface to match all the values returned by the terminator}}
  %0 = vector.mask %mask { %a = vector.reduction <add>, %v : vector<16xf32> into f32
    vector.yield %s : f32 } : vector<16xi1> -> f32
  return
}
// CHECK: expects all the results from the MaskableOpInterface to match all the values returned by the terminator

// -----

func.func @f7(%mask: vector<16xi1>, %v: vector<16xf32>) {
  // expected-error@+1 {{expects a terminator within the mask region}}
  %0 = "vector.mask"(%mask) ({
    %a = vector.reduction <add>, %v : vector<16xf32> into f32
  }) : (vector<16xi1>) -> f32
  return
}
// CHECK: expects a terminator within the mask region

// -----

func.func @f8(%mask: vector<16xi1>, %v: vector<16xf32>) {
  // expected-error@+1 {{expects result type to match maskable operation result type}}
  %0 = "vector.mask"(%mask) ({
    %a = vector.reduction <add>, %v : vector<16xf32> into f32
    vector.yield %a : f32
  }) : (vector<16xi1>) -> i32
  return
}
// CHECK: expects result type to match maskable operation result type

// -----

func.func @f9(%m: memref<?xf32>, %i: index, %mask: vector<16xi1>, %pt: vector<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  // expected-error@+1 {{expects passthru type to match result type}}
  %0 = "vector.mask"(%mask, %pt) ({
    %a = vector.transfer_read %m[%i], %c0 : memref<?xf32>, vector<16xf32>
    vector.yield %a : vector<16xf32>
  }) : (vector<16xi1>, vector<8xf32>) -> vector<16xf32>
  return
}
// CHECK: expects passthru type to match result type

// -----

func.func @f10(%mask: vector<16xi1>) {
  // expected-error@+1 {{region should have no arguments}}
  "vector.mask"(%mask) ({
  ^bb0(%x: f32):
    vector.yield
  }) : (vector<16xi1>) -> ()
  return
}
// CHECK: region should have no arguments

// -----

func.func @f11(%mask: i1, %v: vector<16xf32>) {
  // expected-error@+1 {{operand #0 must be vector of 1-bit signless integer values, but got 'i1'}}
  %0 = vector.mask %mask { vector.yield %v : vector<16xf32> } : i1 -> vector<16xf32>
  return
}
// CHECK: operand #0 must be vector of 1-bit signless integer values, but got 'i1'

// -----

func.func @f12(%a: vector<4xf32>, %b: vector<8xf32>, %c: vector<4x8xf32>, %mask: vector<4xi1>) {
  // expected-error@+1 {{expects a 'vector<4x8xi1>' mask for the maskable operation}}
  %0 = vector.mask %mask { vector.outerproduct %a, %b, %c : vector<4xf32>, vector<8xf32> } : vector<4xi1> -> vector<4x8xf32>
  return
}
// CHECK: expects a 'vector<4x8xi1>' mask for the maskable operation

// -----

func.func @f13(%a: vector<4x3xf32>, %b: vector<3x5xf32>, %c: vector<4x5xf32>, %mask: vector<4x5xi1>) {
  // expected-error@+1 {{expects a 'vector<4x5x3xi1>' mask for the maskable operation}}
  %0 = vector.mask %mask { vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4x3xf32>, vector<3x5xf32> into vector<4x5xf32> } : vector<4x5xi1> -> vector<4x5xf32>
  return
}
// CHECK: expects a 'vector<4x5x3xi1>' mask for the maskable operation
