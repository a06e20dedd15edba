// RUN: xdsl-opt %s -p convert-vector-to-llvm --split-input-file | filecheck %s
// RUN: xdsl-opt %s -p 'convert-vector-to-llvm{reassociate-fp-reductions=true}' --split-input-file | filecheck %s --check-prefix=REASSOC

// 1-D vector ops as upstream's convert-vector-to-llvm lowers them
// (tests/passes/test_vector_differential.py runs them against mlir-opt-22's lowering).

// CHECK-LABEL: func.func @elements
func.func @elements(%v: vector<4xf32>, %f: f32, %i: index) -> (vector<4xf32>, f32, vector<4xf32>) {
  // CHECK:      %[[P:.*]] = llvm.mlir.poison : vector<4xf32>
  // CHECK-NEXT: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[I:.*]] = llvm.insertelement %f, %[[P]][%[[Z]] : i32] : vector<4xf32>
  // CHECK-NEXT: %[[B:.*]] = llvm.shufflevector %[[I]], %[[P]] [0, 0, 0, 0] : vector<4xf32>
  %b = vector.broadcast %f : f32 to vector<4xf32>
  // CHECK:      %[[IX:.*]] = builtin.unrealized_conversion_cast %i : index to i64
  // CHECK-NEXT: %[[E:.*]] = llvm.extractelement %v[%[[IX]] : i64] : vector<4xf32>
  %e = vector.extract %v[%i] : f32 from vector<4xf32>
  // CHECK:      llvm.intr.fmuladd(%v, %[[B]], %v) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  %m = vector.fma %v, %b, %v : vector<4xf32>
  return %b, %e, %m : vector<4xf32>, f32, vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @reductions
func.func @reductions(%v: vector<4xf32>, %vi: vector<4xi32>, %x: i32) -> (f32, i32) {
  // CHECK:      %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
  // CHECK-NEXT: "llvm.intr.vector.reduce.fadd"(%[[Z]], %v) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<4xf32>) -> f32
  // REASSOC:    "llvm.intr.vector.reduce.fadd"(%{{.*}}, %v) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<4xf32>) -> f32
  %r = vector.reduction <add>, %v : vector<4xf32> into f32
  // CHECK:      %[[S:.*]] = "llvm.intr.vector.reduce.add"(%vi) : (vector<4xi32>) -> i32
  // CHECK-NEXT: llvm.add %x, %[[S]] : i32
  %s = vector.reduction <add>, %vi, %x : vector<4xi32> into i32
  return %r, %s : f32, i32
}

// -----

// CHECK:      llvm.func @printNewline()
// CHECK-NEXT: llvm.func @printF32(f32)
// CHECK-LABEL: func.func @print
func.func @print(%f: f32) {
  // CHECK:      llvm.call @printF32(%f) : (f32) -> ()
  // CHECK-NEXT: llvm.call @printNewline() : () -> ()
  vector.print %f : f32
  return
}
