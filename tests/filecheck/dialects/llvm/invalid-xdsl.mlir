// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// Errors that xdsl-gpu words differently from upstream (parse errors), or reports
// where upstream does not.

// CHECK: expected an atomic ordering, one of not_atomic, unordered, monotonic, acquire, release, acq_rel, seq_cst
llvm.func @f() {
  llvm.fence consume
  llvm.return
}

// -----

// CHECK: expected an atomicrmw operation, one of xchg, add, sub, _and, nand, _or, _xor, max, min, umax, umin, fadd, fsub, fmax, fmin, uinc_wrap, udec_wrap, usub_cond, usub_sat, fmaximum, fminimum
llvm.func @f(%p: !llvm.ptr, %i: i32) {
  %0 = llvm.atomicrmw frobnicate %p, %i monotonic : !llvm.ptr, i32
  llvm.return
}

// -----

// CHECK: 'llvm.intr.assume' op has 1 operand bundle sizes but 0 bundle tags
llvm.func @f(%c: i1, %p: !llvm.ptr) {
  "llvm.intr.assume"(%c, %p) <{op_bundle_sizes = array<i32: 1>}> : (i1, !llvm.ptr) -> ()
  llvm.return
}

// -----

// Upstream: 'llvm.func' op entry block argument types must match the function
// signature (its parser builds the block from the signature, so only the generic form
// can get this wrong).
// CHECK: 'llvm.func' op the entry block's argument types must match the function type
"llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i32)>, linkage = #llvm.linkage<external>, sym_name = "f", visibility_ = 0 : i64}> ({
^bb0(%a: i64):
  "llvm.return"() : () -> ()
}) : () -> ()

// -----

// CHECK: 'llvm.fence' op can be given only acquire, release, acq_rel, and seq_cst orderings
"llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void ()>, linkage = #llvm.linkage<external>, sym_name = "f", visibility_ = 0 : i64}> ({
  "llvm.fence"() <{ordering = 0 : i64}> : () -> ()
  "llvm.return"() : () -> ()
}) : () -> ()
