// REQUIRES: mlir-opt
// Differential tests of target.mlir against upstream MLIR 22 (see
// ../nvvm/ops-mlir-opt.mlir).

// RUN: mlir-opt %S/target.mlir | filecheck %S/target.mlir
// RUN: xdsl-opt %S/target.mlir | mlir-opt | filecheck %S/target.mlir
// RUN: xdsl-opt %S/target.mlir --print-op-generic | mlir-opt | filecheck %S/target.mlir
// RUN: mlir-opt %S/target.mlir | xdsl-opt | filecheck %S/target.mlir
// RUN: mlir-opt %S/target.mlir --mlir-print-op-generic | xdsl-opt | filecheck %S/target.mlir
