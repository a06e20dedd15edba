// RUN: xdsl-opt %s -p convert-vector-to-llvm --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-llvm --split-input-file | filecheck %s %}

// vector.mask in convert-vector-to-llvm, as MLIR 22 lowers it (the same CHECK lines
// hold for mlir-opt-22's output): masked reductions become llvm.intr.vp.reduce.*
// over the vector's length, from the accumulator or the kind's neutral value;
// maximumf/minimumf select a filler into the masked-off lanes; an all-true mask is
// dropped. tests/passes/vector_programs/mask.mlir runs them against mlir-runner-22.

// CHECK-LABEL: func.func @masked_reductions(
// CHECK-SAME: %[[M:[^:]*]]: vector<8xi1>, %[[V:[^:]*]]: vector<8xf32>, %[[ACC:[^:]*]]: f32, %[[VI:[^:]*]]: vector<8xi32>, %[[AI:[^:]*]]: i32)
func.func @masked_reductions(%m: vector<8xi1>, %v: vector<8xf32>, %acc: f32, %vi: vector<8xi32>, %ai: i32) -> (f32, f32, f32, i32, i32, f32) {
  // CHECK:      %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
  // CHECK-NEXT: %[[N0:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NEXT: %[[R0:.*]] = "llvm.intr.vp.reduce.fadd"(%[[Z]], %[[V]], %[[M]], %[[N0]]) : (f32, vector<8xf32>, vector<8xi1>, i32) -> f32
  %0 = vector.mask %m { vector.reduction <add>, %v : vector<8xf32> into f32 } : vector<8xi1> -> f32
  // CHECK-NEXT: %[[N1:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NEXT: %[[R1:.*]] = "llvm.intr.vp.reduce.fmul"(%[[ACC]], %[[V]], %[[M]], %[[N1]]) : (f32, vector<8xf32>, vector<8xi1>, i32) -> f32
  %1 = vector.mask %m { vector.reduction <mul>, %v, %acc : vector<8xf32> into f32 } : vector<8xi1> -> f32
  // CHECK-NEXT: %[[NAN:.*]] = llvm.mlir.constant({{0x7[fF][cC]00000}} : f32) : f32
  // CHECK-NEXT: %[[N2:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NEXT: %[[R2:.*]] = "llvm.intr.vp.reduce.fmax"(%[[NAN]], %[[V]], %[[M]], %[[N2]]) : (f32, vector<8xf32>, vector<8xi1>, i32) -> f32
  %2 = vector.mask %m { vector.reduction <maxnumf>, %v : vector<8xf32> into f32 } : vector<8xi1> -> f32
  // CHECK-NEXT: %[[MIN:.*]] = llvm.mlir.constant(-2147483648 : i32) : i32
  // CHECK-NEXT: %[[N3:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NEXT: %[[R3:.*]] = "llvm.intr.vp.reduce.smax"(%[[MIN]], %[[VI]], %[[M]], %[[N3]]) : (i32, vector<8xi32>, vector<8xi1>, i32) -> i32
  %3 = vector.mask %m { vector.reduction <maxsi>, %vi : vector<8xi32> into i32 } : vector<8xi1> -> i32
  // CHECK-NEXT: %[[N4:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NEXT: %[[R4:.*]] = "llvm.intr.vp.reduce.umin"(%[[AI]], %[[VI]], %[[M]], %[[N4]]) : (i32, vector<8xi32>, vector<8xi1>, i32) -> i32
  %4 = vector.mask %m { vector.reduction <minui>, %vi, %ai : vector<8xi32> into i32 } : vector<8xi1> -> i32
  // CHECK-NEXT: %[[BIG:.*]] = llvm.mlir.constant(dense<3.40282347{{[eE]}}+38> : vector<8xf32>) : vector<8xf32>
  // CHECK-NEXT: %[[SEL:.*]] = llvm.select %[[M]], %[[V]], %[[BIG]] : vector<8xi1>, vector<8xf32>
  // CHECK-NEXT: %[[RED:.*]] = llvm.intr.vector.reduce.fminimum(%[[SEL]]) : (vector<8xf32>) -> f32
  // CHECK-NEXT: %[[R5:.*]] = llvm.intr.minimum(%[[RED]], %[[ACC]]) : (f32, f32) -> f32
  %5 = vector.mask %m { vector.reduction <minimumf>, %v, %acc : vector<8xf32> into f32 } : vector<8xi1> -> f32
  // CHECK-NEXT: return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]]
  return %0, %1, %2, %3, %4, %5 : f32, f32, f32, i32, i32, f32
}

// -----

// CHECK-LABEL: func.func @all_true_and_empty(
// CHECK-SAME: %[[V:[^:]*]]: vector<16xf32>, %[[M:[^:]*]]: vector<16xi1>)
func.func @all_true_and_empty(%v: vector<16xf32>, %m: vector<16xi1>) -> (f32, vector<16xf32>) {
  %all = vector.constant_mask [16] : vector<16xi1>
  // CHECK:      %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
  // CHECK-NEXT: %[[R:.*]] = "llvm.intr.vector.reduce.fadd"(%[[Z]], %[[V]]) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<16xf32>) -> f32
  %0 = vector.mask %all { vector.reduction <add>, %v : vector<16xf32> into f32 } : vector<16xi1> -> f32
  %1 = vector.mask %m { vector.yield %v : vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  // CHECK-NEXT: return %[[R]], %[[V]]
  return %0, %1 : f32, vector<16xf32>
}

// -----

// A masked contraction: masked dot products, one per result element, each with its
// row of the mask.
// CHECK-LABEL: func.func @masked_contract(
func.func @masked_contract(%a: vector<2x3xf32>, %b: vector<3x2xf32>, %c: vector<2x2xf32>, %m: vector<2x2x3xi1>) -> vector<2x2xf32> {
  // CHECK-COUNT-4: "llvm.intr.vp.reduce.fadd"({{.*}}) : (f32, vector<3xf32>, vector<3xi1>, i32) -> f32
  // CHECK-NOT: vector.
  %0 = vector.mask %m { vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x2xf32> into vector<2x2xf32> } : vector<2x2x3xi1> -> vector<2x2xf32>
  return %0 : vector<2x2xf32>
}

// -----

// A masked outer product: per row, the fused multiply-add, then the accumulator's
// row where the mask row is clear.
// CHECK-LABEL: func.func @masked_outerproduct(
func.func @masked_outerproduct(%m: vector<2x8xi1>, %a: vector<2xf32>, %b: vector<8xf32>, %c: vector<2x8xf32>) -> vector<2x8xf32> {
  // CHECK-COUNT-2: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
  // CHECK-NOT: vector.
  %0 = vector.mask %m { vector.outerproduct %a, %b, %c : vector<2xf32>, vector<8xf32> } : vector<2x8xi1> -> vector<2x8xf32>
  return %0 : vector<2x8xf32>
}
