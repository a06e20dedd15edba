// RUN: xdsl-opt %s -convert-gpu-to-nvvm -mlir-print-debuginfo | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s -convert-gpu-to-nvvm -mlir-print-debuginfo | filecheck %s %}
// convert-gpu-to-nvvm keeps the ops' locations, as mlir-opt-22 does: llvm.func and
// llvm.return those of gpu.func and gpu.return, the ops of a gpu.printf's lowering
// the printf's; its format global and the vprintf declaration (module-level ops)
// the first file:line:col in the printf's, without the function's debug-info
// metadata (none: loc(unknown)).

#file = #llvm.di_file<"k.cu" in "/src">
#cu = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C, file = #file, isOptimized = true, emissionKind = Full>
#sp = #llvm.di_subprogram<compileUnit = #cu, scope = #file, name = "k", file = #file, subprogramFlags = Definition>
#a = loc("k.cu":3:5)
#b = loc("k.cu":4:5)

// CHECK-DAG:   llvm.mlir.global internal constant @[[G0:[A-Za-z0-9_]+]]("one\0A\00") {addr_space = 0 : i32} loc([[A:#loc[0-9]*]])
// CHECK-DAG:   llvm.mlir.global internal constant @[[G1:[A-Za-z0-9_]+]]("two\0A\00") {addr_space = 0 : i32} loc([[B:#loc[0-9]*]])
// CHECK-DAG:   llvm.mlir.global internal constant @{{[A-Za-z0-9_]+}}("three\0A\00") {addr_space = 0 : i32} loc([[U:#loc[0-9]*]])
// CHECK-DAG:   llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32 loc([[A]])
// CHECK:       llvm.func @k() {
// CHECK-NEXT:    llvm.mlir.addressof @[[G0]] : !llvm.ptr loc([[P0:#loc[0-9]*]])
// CHECK:         llvm.call @vprintf({{.*}} loc([[P0]])
// CHECK:         llvm.mlir.addressof @[[G1]] : !llvm.ptr loc([[P1:#loc[0-9]*]])
// CHECK:         llvm.call @vprintf({{.*}} loc([[P1]])
// CHECK:         llvm.return loc([[R:#loc[0-9]*]])
// CHECK-NEXT:  } loc([[F:#loc[0-9]*]])
// CHECK-DAG:   [[A]] = loc("k.cu":3:5)
// CHECK-DAG:   [[B]] = loc("k.cu":4:5)
// CHECK-DAG:   [[U]] = loc(unknown)
// CHECK-DAG:   [[P0]] = loc(fused<#di_subprogram>[[[A]]])
// CHECK-DAG:   [[P1]] = loc(callsite([[B]] at [[A]]))
// CHECK-DAG:   [[R]] = loc("k.cu":5:3)
// CHECK-DAG:   [[F]] = loc("k.cu":2:1)
gpu.module @m {
  gpu.func @k() {
    gpu.printf "one\n" loc(fused<#sp>[#a])
    gpu.printf "two\n" loc(callsite(#b at #a))
    gpu.printf "three\n" loc("name"(unknown))
    gpu.return loc("k.cu":5:3)
  } loc("k.cu":2:1)
}
