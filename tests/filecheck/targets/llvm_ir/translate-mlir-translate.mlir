// REQUIRES: mlir-opt
// mlir-translate 22 accepts the inputs of translate.mlir and nvptx.mlir as xdsl-opt
// prints them (custom and generic form); test_llvm_ir.py runs both translations.

// RUN: xdsl-opt %S/translate.mlir | mlir-translate --mlir-to-llvmir > /dev/null
// RUN: xdsl-opt %S/translate.mlir --print-op-generic | mlir-translate --mlir-to-llvmir > /dev/null
// RUN: xdsl-opt %S/nvptx.mlir | mlir-translate --mlir-to-llvmir > /dev/null
