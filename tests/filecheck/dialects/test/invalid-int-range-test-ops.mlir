// RUN: xdsl-opt --xdsl-gpu %s --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s

// The checks of upstream's test.with_bounds and test.reflect_bounds, worded as
// mlir-opt-22 words them.

func.func @with_bounds_float() {
  %0 = test.with_bounds {umin = 0 : index, umax = 1 : index, smin = 0 : index, smax = 1 : index} : f32
  return
}
// CHECK: 'test.with_bounds' op result #0 must be integer or index or vector of integer or index values, but got 'f32'

// -----

func.func @with_bounds_missing() {
  %0 = test.with_bounds {umin = 0 : index} : index
  return
}
// CHECK: 'test.with_bounds' op requires attribute 'smax'

// -----

func.func @reflect_float(%f: f32) {
  %0 = test.reflect_bounds %f : f32
  return
}
// CHECK: 'test.reflect_bounds' op operand #0 must be integer or index or vector of integer or index values, but got 'f32'

// -----

func.func @reflect_types(%a: i32) {
  %0 = "test.reflect_bounds"(%a) : (i32) -> i64
  return
}
// CHECK: 'test.reflect_bounds' op failed to verify that all of {value, result} have same type
