// REQUIRES: mlir-opt
// Differential tests of ops.mlir against upstream MLIR 22: mlir-opt accepts what
// xdsl-opt prints (custom and generic), xdsl-opt accepts what mlir-opt prints (custom
// and generic), and all of them match the same CHECK lines.

// RUN: mlir-opt %S/ops.mlir | filecheck %S/ops.mlir
// RUN: xdsl-opt %S/ops.mlir | mlir-opt | filecheck %S/ops.mlir
// RUN: xdsl-opt %S/ops.mlir --print-op-generic | mlir-opt | filecheck %S/ops.mlir
// RUN: mlir-opt %S/ops.mlir | xdsl-opt | filecheck %S/ops.mlir
// RUN: mlir-opt %S/ops.mlir --mlir-print-op-generic | xdsl-opt | filecheck %S/ops.mlir
