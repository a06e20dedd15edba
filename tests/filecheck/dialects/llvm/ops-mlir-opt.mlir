// REQUIRES: mlir-opt
// Differential tests of ops.mlir against upstream MLIR 22: mlir-opt accepts what
// xdsl-opt prints (custom and generic), xdsl-opt accepts what mlir-opt prints (custom
// and generic), and all of them match the same CHECK lines; mlir-translate accepts
// what xdsl-opt prints.

// RUN: mlir-opt %S/ops.mlir --split-input-file | filecheck %S/ops.mlir
// RUN: xdsl-opt %S/ops.mlir --split-input-file | mlir-opt --split-input-file | filecheck %S/ops.mlir
// RUN: xdsl-opt %S/ops.mlir --split-input-file --print-op-generic | mlir-opt --split-input-file | filecheck %S/ops.mlir
// RUN: mlir-opt %S/ops.mlir --split-input-file | xdsl-opt --split-input-file | filecheck %S/ops.mlir
// RUN: mlir-opt %S/ops.mlir --split-input-file --mlir-print-op-generic | xdsl-opt --split-input-file | filecheck %S/ops.mlir
// RUN: xdsl-opt %S/ops.mlir --split-input-file | mlir-translate --split-input-file --mlir-to-llvmir > /dev/null
// RUN: xdsl-opt %S/ops.mlir --split-input-file --print-op-generic | mlir-translate --split-input-file --mlir-to-llvmir > /dev/null
