// RUN: not python3 -m xdsl_gpu.targets.llvm_ir %s --split-input-file 2>&1 | filecheck %s
// What has no LLVM IR form is a one-line diagnostic naming it, never a traceback.

// CHECK: error: in @f: 'llvm.mlir.constant': type 'index' has no LLVM IR form: lower the module to the llvm dialect first (convert-*-to-llvm, then reconcile-unrealized-casts)
llvm.func @f() {
  %0 = llvm.mlir.constant(1 : index) : index
  llvm.return
}

// -----

// CHECK: error: 'func.func' at module level has no LLVM IR translation
func.func @f() {
  func.return
}

// -----

// CHECK: error: in @f: 'arith.addi' has no LLVM IR translation: lower it to the llvm dialect first
llvm.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  llvm.return %0 : i32
}

// -----

// CHECK: error: in @f: 'llvm.mlir.addressof': symbol @nowhere is not defined in the module
llvm.func @f() -> !llvm.ptr {
  %0 = llvm.mlir.addressof @nowhere : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// -----

// LLVM's own verifier has the last word.
// CHECK: error: LLVM rejected the translated module: assume with operand bundles must have i1 true condition
llvm.func @f(%c: i1, %p: !llvm.ptr) {
  llvm.intr.assume %c ["align"(%p : !llvm.ptr)] : i1
  llvm.return
}

// -----

// CHECK: error: in @g: 'llvm.add' in a global's initializer region has no constant form here
llvm.mlir.global internal @g() {addr_space = 0 : i32} : i32 {
  %0 = llvm.mlir.constant(1 : i32) : i32
  %1 = llvm.add %0, %0 : i32
  llvm.return %1 : i32
}
