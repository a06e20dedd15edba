// RUN: xdsl-opt --xdsl-gpu %s | filecheck %s
// RUN: xdsl-opt --xdsl-gpu %s --print-op-generic | xdsl-opt --xdsl-gpu | filecheck %s
// RUN: xdsl-opt --xdsl-gpu %s --split-input-file --verify-diagnostics --parsing-diagnostics -p 'convert-gpu-to-nvvm{allowed-dialects=test}' | filecheck %s --check-prefix=LOWER

// The ops of MLIR's test dialect that upstream's GPU tests use: test.increment and
// test.finish have upstream's syntax and checks; any other test.* op is read in
// generic form without --allow-unregistered-dialect, as upstream's dialect reads it.

// CHECK-LABEL: func.func @ops(
// CHECK-SAME:     %[[A:.*]]: index, %[[V:.*]]: vector<4xi32>, %[[M:.*]]: memref<4xf32, 3>)
func.func @ops(%a: index, %v: vector<4xi32>, %m: memref<4xf32, 3>) -> index {
  // CHECK: %[[I:.*]] = test.increment %[[A]] : index
  %i = test.increment %a : index
  // CHECK: test.increment {tag} %[[V]] : vector<4xi32>
  %w = "test.increment"(%v) {tag} : (vector<4xi32>) -> vector<4xi32>
  // CHECK: "test.use.shared.memory"(%[[M]]) : (memref<4xf32, 3>) -> ()
  "test.use.shared.memory"(%m) : (memref<4xf32, 3>) -> ()
  // CHECK: %{{.*}} = "test.not.defined.here"(%[[I]]) {n = 1 : i64} : (index) -> i32
  %x = "test.not.defined.here"(%i) {n = 1} : (index) -> i32
  // CHECK: "test.op"() : () -> ()
  "test.op"() : () -> ()
  func.return %i : index
}

// CHECK-LABEL: func.func @finish(
// CHECK: gpu.all_reduce
// CHECK: "test.finish"() : () -> ()
func.func @finish(%f : f32) {
  %r = gpu.all_reduce %f {
  ^bb(%lhs : f32, %rhs : f32):
    %s = arith.addf %lhs, %rhs : f32
    gpu.yield %s : f32
  } : (f32) -> (f32)
  "test.region"() ({
    "test.finish"() : () -> ()
  }) : () -> ()
  return
}

// A dialect named in allowed-dialects that has no LLVM lowering: MLIR's message, at
// the gpu.module.
// LOWER: dialect does not implement ConvertToLLVMPatternInterface: test
gpu.module @kernels {
  func.func @inc(%a : index) -> index {
    %1 = test.increment %a : index
    func.return %1 : index
  }
}
