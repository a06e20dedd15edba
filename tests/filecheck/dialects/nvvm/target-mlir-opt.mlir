// REQUIRES: mlir-opt
// The generic form of target.mlir against upstream MLIR 22: property names and
// attribute syntax match in both directions. (The custom form is compared by
// tests/test_mlir_conformance.py.)

// RUN: xdsl-opt %S/target.mlir --print-op-generic | mlir-opt | filecheck %S/target.mlir
// RUN: mlir-opt %S/target.mlir --mlir-print-op-generic | xdsl-opt | filecheck %S/target.mlir
