// RUN: xdsl-opt --xdsl-gpu %s --verify-diagnostics --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --split-input-file --verify-diagnostics %}

// The verifier rules of the arith ops that xdsl_gpu/gpu_dialect/arith.py replaces. CHECK
// lines are upstream's words; the second RUN line has mlir-opt-22 report each
// `expected-error` where it says. (The custom syntax has one type for both
// operands, so different operand types need the generic form.)

func.func @cmpi_operand_types(%a: i32, %b: i64) {
  // expected-error@+1 {{'arith.cmpi' op requires all operands to have the same type}}
  %x = "arith.cmpi"(%a, %b) <{predicate = 0 : i64}> : (i32, i64) -> i1
  func.return
}
// CHECK: 'arith.cmpi' op requires all operands to have the same type

// -----

func.func @cmpi_vector_shapes(%a: vector<4xi32>, %b: vector<3xi32>) {
  // expected-error@+1 {{'arith.cmpi' op requires all operands to have the same type}}
  %x = "arith.cmpi"(%a, %b) <{predicate = 0 : i64}> : (vector<4xi32>, vector<3xi32>) -> vector<4xi1>
  func.return
}
// CHECK: 'arith.cmpi' op requires all operands to have the same type

// -----

func.func @cmpf_operand_types(%a: f32, %b: f64) {
  // expected-error@+1 {{'arith.cmpf' op requires all operands to have the same type}}
  %x = "arith.cmpf"(%a, %b) <{predicate = 1 : i64}> : (f32, f64) -> i1
  func.return
}
// CHECK: 'arith.cmpf' op requires all operands to have the same type

// -----

func.func @cmpf_vector_shapes(%a: vector<4xf32>, %b: vector<3xf32>) {
  // expected-error@+1 {{'arith.cmpf' op requires all operands to have the same type}}
  %x = "arith.cmpf"(%a, %b) <{predicate = 1 : i64}> : (vector<4xf32>, vector<3xf32>) -> vector<4xi1>
  func.return
}
// CHECK: 'arith.cmpf' op requires all operands to have the same type
