// RUN: xdsl-opt --xdsl-gpu %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --split-input-file --verify-diagnostics %}
// Malformed debug-info attributes and locations: upstream's messages (the second RUN
// line checks them against mlir-opt-22).

// CHECK: struct is missing required parameter: sourceLanguage
// expected-error@+1 {{struct is missing required parameter: sourceLanguage}}
module attributes {llvm.cu = #llvm.di_compile_unit<id = distinct[0]<>>} {}

// -----

// CHECK: duplicate or unknown struct parameter name: size
// expected-error@+1 {{duplicate or unknown struct parameter name: size}}
module attributes {llvm.t = #llvm.di_basic_type<name = "int", size = 32>} {}

// -----

// CHECK: invalid debug info debug info encoding name: DW_signed
// expected-error@+2 {{invalid debug info debug info encoding name: DW_signed}}
// expected-error@+1 {{failed to parse LLVM_DIBasicTypeAttr parameter 'encoding'}}
module attributes {llvm.t = #llvm.di_basic_type<name = "int", encoding = DW_signed>} {}

// -----

// CHECK: operation location alias was never defined
module {
  // expected-error@+1 {{operation location alias was never defined}}
  llvm.func @f() loc(#missing)
}
