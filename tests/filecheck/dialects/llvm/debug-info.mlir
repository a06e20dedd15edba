// RUN: xdsl-opt --xdsl-gpu %s -mlir-print-debuginfo | filecheck %s
// RUN: xdsl-opt --xdsl-gpu %s -mlir-print-debuginfo | xdsl-opt --xdsl-gpu -mlir-print-debuginfo | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s -mlir-print-debuginfo | filecheck %s %}
// RUN: %if mlir-opt %{ xdsl-opt --xdsl-gpu %s -mlir-print-debuginfo | mlir-opt -mlir-print-debuginfo | filecheck %s %}
// RUN: xdsl-opt --xdsl-gpu %s -mlir-print-debuginfo -mlir-print-local-scope | filecheck %s --check-prefix=LOCAL
// RUN: %if mlir-opt %{ mlir-opt %s -mlir-print-debuginfo -mlir-print-local-scope | filecheck %s --check-prefix=LOCAL %}
// The llvm dialect's debug-info attributes, as the metadata of fused locations:
// parsed, printed as mlir-opt-22 prints them (location aliases defined after the
// module, `#di_*` aliases for the metadata, distinct ids numbered in print order,
// class-typed parameters without their name in place), read back by both tools.

#file = #llvm.di_file<"kernel.cu" in "/src">
#cu = #llvm.di_compile_unit<id = distinct[7]<>, sourceLanguage = DW_LANG_C_plus_plus, file = #file, producer = "clang", isOptimized = false, emissionKind = Full, nameTableKind = None>
#int = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>
#ptr = #llvm.di_derived_type<tag = DW_TAG_pointer_type, baseType = #int, sizeInBits = 64>
#fn_type = #llvm.di_subroutine_type<callingConvention = DW_CC_normal, types = #int, #ptr>
#sp = #llvm.di_subprogram<id = distinct[3]<>, compileUnit = #cu, scope = #file, name = "k", linkageName = "_Z1kPi", file = #file, line = 4, scopeLine = 5, subprogramFlags = "Definition|Optimized", type = #fn_type>
#block = #llvm.di_lexical_block<scope = #sp, file = #file, line = 6, column = 7>
#loc = loc("kernel.cu":6:9)

// CHECK:      llvm.func @k() {
// CHECK-NEXT:   llvm.return loc([[RET:#loc[0-9]*]])
// CHECK-NEXT: } loc([[FN:#loc[0-9]*]])
// CHECK-DAG:  [[L:#loc[0-9]*]] = loc("kernel.cu":6:9)
// CHECK-DAG:  #di_file = #llvm.di_file<"kernel.cu" in "/src">
// CHECK-DAG:  #di_compile_unit = #llvm.di_compile_unit<id = distinct[{{[0-9]}}]<>, sourceLanguage = DW_LANG_C_plus_plus, file = #di_file, producer = "clang", isOptimized = false, emissionKind = Full, nameTableKind = None>
// CHECK-DAG:  #di_basic_type = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>
// CHECK-DAG:  #di_derived_type = #llvm.di_derived_type<tag = DW_TAG_pointer_type, baseType = #di_basic_type, sizeInBits = 64>
// CHECK-DAG:  #di_subroutine_type = #llvm.di_subroutine_type<callingConvention = DW_CC_normal, types = #di_basic_type, #di_derived_type>
// CHECK-DAG:  #di_subprogram = #llvm.di_subprogram<id = distinct[{{[0-9]}}]<>, compileUnit = #di_compile_unit, scope = #di_file, name = "k", linkageName = "_Z1kPi", file = #di_file, line = 4, scopeLine = 5, subprogramFlags = "Definition|Optimized", type = #di_subroutine_type>
// CHECK-DAG:  #di_lexical_block = #llvm.di_lexical_block<scope = #di_subprogram, file = #di_file, line = 6, column = 7>
// CHECK-DAG:  [[RET]] = loc(fused<#di_lexical_block>[[[L]]])
// CHECK-DAG:  [[FN]] = loc(fused<#di_subprogram>[[[L]]])

// LOCAL:      llvm.return loc(fused<#llvm.di_lexical_block<scope = #llvm.di_subprogram<id = distinct[0]<>, compileUnit = <id = distinct[1]<>, sourceLanguage = DW_LANG_C_plus_plus, file = <"kernel.cu" in "/src">, producer = "clang", isOptimized = false, emissionKind = Full, nameTableKind = None>, scope = #llvm.di_file<"kernel.cu" in "/src">, name = "k", linkageName = "_Z1kPi", file = <"kernel.cu" in "/src">, line = 4, scopeLine = 5, subprogramFlags = "Definition|Optimized", type = <callingConvention = DW_CC_normal, types = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>, #llvm.di_derived_type<tag = DW_TAG_pointer_type, baseType = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>, sizeInBits = 64>>>, file = <"kernel.cu" in "/src">, line = 6, column = 7>>["kernel.cu":6:9])
llvm.func @k() {
  llvm.return loc(fused<#block>[#loc])
} loc(fused<#sp>[#loc])
