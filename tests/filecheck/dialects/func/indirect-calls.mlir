// RUN: xdsl-opt --xdsl-gpu %s | filecheck %s
// RUN: xdsl-opt --xdsl-gpu %s --print-op-generic | xdsl-opt --xdsl-gpu | filecheck %s
// RUN: xdsl-opt %s -p convert-func-to-llvm | filecheck %s --check-prefix=LLVM

// func.constant and func.call_indirect, in MLIR 22's syntax, and their lowering to
// llvm.mlir.addressof and an indirect llvm.call (checked against mlir-opt-22).

func.func private @ext(f32, i32) -> (i32, f32)

// CHECK-LABEL: func.func @calls(
// LLVM-LABEL: llvm.func @calls(
// LLVM-SAME:     %[[A:.*]]: f32, %[[B:.*]]: i32)
func.func @calls(%a: f32, %b: i32) -> i32 {
  // CHECK: %[[F:.*]] = func.constant @ext : (f32, i32) -> (i32, f32)
  // CHECK: func.call_indirect %[[F]](%{{.*}}, %{{.*}}) : (f32, i32) -> (i32, f32)
  // LLVM: %[[P:.*]] = llvm.mlir.addressof @ext : !llvm.ptr
  // LLVM: %[[R:.*]] = llvm.call %[[P]](%[[A]], %[[B]]) : !llvm.ptr, (f32, i32) -> !llvm.struct<(i32, f32)>
  // LLVM: %[[R0:.*]] = llvm.extractvalue %[[R]][0] : !llvm.struct<(i32, f32)>
  // LLVM: llvm.extractvalue %[[R]][1] : !llvm.struct<(i32, f32)>
  %f = func.constant @ext : (f32, i32) -> (i32, f32)
  %r:2 = func.call_indirect %f(%a, %b) : (f32, i32) -> (i32, f32)
  // CHECK: %[[S:.*]] = func.constant @none : () -> ()
  // CHECK: func.call_indirect %[[S]]() {tag} : () -> ()
  // LLVM: %[[Q:.*]] = llvm.mlir.addressof @none : !llvm.ptr
  // LLVM: llvm.call %[[Q]]() {tag} : !llvm.ptr, () -> ()
  %s = func.constant @none : () -> ()
  func.call_indirect %s() {tag} : () -> ()
  // LLVM: llvm.return %[[R0]] : i32
  return %r#0 : i32
}

func.func @none() {
  return
}
