// RUN: xdsl-opt --xdsl-gpu %s --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s

// The checks of func.constant and func.call_indirect, worded as mlir-opt-22 words them.

func.func @undefined() {
  %f = func.constant @nope : () -> ()
  return
}
// CHECK: 'func.constant' op reference to undefined function 'nope'

// -----

func.func private @g(f32) -> i32
func.func @mismatch() {
  %f = func.constant @g : () -> ()
  return
}
// CHECK: 'func.constant' op reference to function with mismatched type

// -----

func.func private @g(f32) -> i32
func.func @operand_count(%a: f32) {
  %f = func.constant @g : (f32) -> i32
  %r = func.call_indirect %f(%a, %a) : (f32) -> i32
  return
}
// CHECK: number of operands and types do not match: got 2 operands and 1 types

// -----

func.func private @g(f32) -> i32
func.func @result_type(%a: f32) {
  %f = func.constant @g : (f32) -> i32
  %r = "func.call_indirect"(%f, %a) : ((f32) -> i32, f32) -> f32
  return
}
// CHECK: 'func.call_indirect' op failed to verify that callee result types match result types

// -----

func.func private @g(f32) -> i32
func.func @input_type(%i: i32) {
  %f = func.constant @g : (f32) -> i32
  %r = "func.call_indirect"(%f, %i) : ((f32) -> i32, i32) -> i32
  return
}
// CHECK: 'func.call_indirect' op failed to verify that callee input types match argument types
