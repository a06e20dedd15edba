// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// Each case also carries upstream's `expected-error`: invalid-mlir-opt.mlir runs this
// file through mlir-opt 22 --verify-diagnostics, so the messages are upstream's (ours
// may add the values at fault after them). Parse errors, worded differently from
// upstream, are in invalid-xdsl.mlir.

// CHECK: 'llvm.fence' op can be given only acquire, release, acq_rel, and seq_cst orderings
llvm.func @f() {
  // expected-error@+1 {{can be given only acquire, release, acq_rel, and seq_cst orderings}}
  llvm.fence monotonic
  llvm.return
}

// -----

// CHECK: 'llvm.atomicrmw' op expected LLVM IR floating point type: 'fadd' operates on floats, got i32
llvm.func @f(%p: !llvm.ptr, %i: i32) {
  // expected-error@+1 {{expected LLVM IR floating point type}}
  %0 = llvm.atomicrmw fadd %p, %i monotonic : !llvm.ptr, i32
  llvm.return
}

// -----

// CHECK: 'llvm.atomicrmw' op expected LLVM IR integer type: 'add' operates on integers, got f32
llvm.func @f(%p: !llvm.ptr, %f: f32) {
  // expected-error@+1 {{expected LLVM IR integer type}}
  %0 = llvm.atomicrmw add %p, %f monotonic : !llvm.ptr, f32
  llvm.return
}

// -----

// CHECK: 'llvm.atomicrmw' op expected at least 'monotonic' ordering
llvm.func @f(%p: !llvm.ptr, %i: i32) {
  // expected-error@+1 {{expected at least 'monotonic' ordering}}
  %0 = llvm.atomicrmw add %p, %i unordered : !llvm.ptr, i32
  llvm.return
}

// -----

// CHECK: 'llvm.cmpxchg' op failure ordering cannot be 'release' or 'acq_rel'
llvm.func @f(%p: !llvm.ptr, %i: i32) {
  // expected-error@+1 {{failure ordering cannot be 'release' or 'acq_rel'}}
  %0 = llvm.cmpxchg %p, %i, %i acq_rel release : !llvm.ptr, i32
  llvm.return
}

// -----

// CHECK: 'llvm.cmpxchg' op ordering must be at least 'monotonic'
llvm.func @f(%p: !llvm.ptr, %i: i32) {
  // expected-error@+1 {{ordering must be at least 'monotonic'}}
  %0 = llvm.cmpxchg %p, %i, %i unordered monotonic : !llvm.ptr, i32
  llvm.return
}

// -----

// CHECK: 'llvm.cmpxchg' op failed to verify that result #0 has an LLVM struct type consisting of the type of operand #2 and a bool
llvm.func @f(%p: !llvm.ptr, %i: i64) {
  // expected-error@+1 {{failed to verify that result #0 has an LLVM struct type consisting of the type of operand #2 and a bool}}
  %0 = "llvm.cmpxchg"(%p, %i, %i) <{failure_ordering = 2 : i64, success_ordering = 6 : i64}> : (!llvm.ptr, i64, i64) -> !llvm.struct<(i32, i1)>
  llvm.return
}

// -----

// CHECK: 'llvm.load' op unsupported ordering 'release'
llvm.func @f(%p: !llvm.ptr) {
  // expected-error@+1 {{unsupported ordering 'release'}}
  %0 = llvm.load %p atomic release {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.return
}

// -----

// CHECK: 'llvm.store' op unsupported ordering 'acquire'
llvm.func @f(%p: !llvm.ptr, %i: i32) {
  // expected-error@+1 {{unsupported ordering 'acquire'}}
  llvm.store %i, %p atomic acquire {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}

// -----

// CHECK: 'llvm.getelementptr' op index 1 indexing a struct is out of bounds
llvm.func @f(%p: !llvm.ptr) {
  // expected-error@+1 {{index 1 indexing a struct is out of bounds}}
  %0 = llvm.getelementptr %p[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f32)>
  llvm.return
}

// -----

// CHECK: 'llvm.switch' op expects number of case values to match number of case destinations: 2 vs 1
llvm.func @f(%x: i32) {
  // expected-error@+1 {{expects number of case values to match number of case destinations}}
  "llvm.switch"(%x) [^bb1, ^bb1] <{case_operand_segments = array<i32: 0>, case_values = dense<[1, 2]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  llvm.return
}

// -----

// CHECK: 'llvm.switch' op expects number of branch weights to match number of successors: 1 vs 2
llvm.func @f(%x: i32) {
  // expected-error@+1 {{expects number of branch weights to match number of successors: 1 vs 2}}
  "llvm.switch"(%x) [^bb1, ^bb1] <{branch_weights = array<i32: 1>, case_operand_segments = array<i32: 0>, case_values = dense<1> : vector<1xi32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  llvm.return
}

// -----

// CHECK: 'llvm.mlir.global_ctors' op ctors, priorities, and data must have the same number of elements: 1, 0, 1
// expected-error@+1 {{ctors, priorities, and data must have the same number of elements}}
llvm.mlir.global_ctors ctors = [@c], priorities = [], data = [#llvm.zero]
llvm.func @c() {
  llvm.return
}

// -----

// CHECK: 'llvm.mlir.global' op expected zero value for 'common' linkage
// expected-error@+1 {{expected zero value for 'common' linkage}}
llvm.mlir.global common @g(1 : i32) {addr_space = 0 : i32} : i32

// -----

// CHECK: 'llvm.getelementptr' op result #0 must be LLVM pointer type or LLVM dialect-compatible vector of LLVM pointer type, but got 'vector<4xi32>'
llvm.func @f(%p: !llvm.ptr, %v: vector<4xi32>) {
  // expected-error@+1 {{result #0 must be LLVM pointer type or LLVM dialect-compatible vector of LLVM pointer type, but got 'vector<4xi32>'}}
  %r = "llvm.getelementptr"(%p, %v) <{elem_type = f32, rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr, vector<4xi32>) -> vector<4xi32>
  llvm.return
}

// -----

// CHECK: 'llvm.intr.masked.gather' op operand #0 must be LLVM dialect-compatible vector of LLVM pointer type, but got 'vector<4xi32>'
llvm.func @f(%p: vector<4xi32>, %m: vector<4xi1>, %v: vector<4xf32>) {
  // expected-error@+1 {{operand #0 must be LLVM dialect-compatible vector of LLVM pointer type, but got 'vector<4xi32>'}}
  %a = llvm.intr.masked.gather %p, %m, %v {alignment = 4 : i32} : (vector<4xi32>, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
  llvm.return
}
