// RUN: xdsl-opt --xdsl-gpu %s --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s

// The checks of upstream's test.increment and test.finish, worded as mlir-opt-22
// words them.

func.func @increment_float(%f : f32) {
  %1 = test.increment %f : f32
  return
}
// CHECK: 'test.increment' op operand #0 must be integer or index or vector of integer or index values, but got 'f32'

// -----

func.func @increment_other_type(%a : index) {
  %1 = "test.increment"(%a) : (index) -> i32
  return
}
// CHECK: 'test.increment' op failed to verify that all of {value, result} have same type

// -----

func.func @finish_not_last() {
  "test.finish"() : () -> ()
  return
}
// CHECK: 'test.finish' op must be the last operation in the parent block

// -----

// The terminator of gpu.all_reduce's region must be gpu.yield.
func.func @reduce_finish(%f : f32) {
  %r = gpu.all_reduce %f {
  ^bb(%lhs : f32, %rhs : f32):
    "test.finish"() : () -> ()
  } : (f32) -> (f32)
  return
}
// CHECK: expected gpu.yield op in region
