// REQUIRES: mlir-opt
// The generic form of ops.mlir against upstream MLIR 22: property names and
// attribute syntax match in both directions. (The custom form is compared by
// tests/test_mlir_conformance.py.)

// RUN: xdsl-opt %S/ops.mlir --print-op-generic | mlir-opt | filecheck %S/ops.mlir
// RUN: mlir-opt %S/ops.mlir --mlir-print-op-generic | xdsl-opt | filecheck %S/ops.mlir
