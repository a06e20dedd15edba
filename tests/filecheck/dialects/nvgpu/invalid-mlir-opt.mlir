// REQUIRES: mlir-opt
// The messages checked in invalid.mlir are upstream's: mlir-opt 22 reports each of
// them where the `expected-error` comments say.

// RUN: mlir-opt %S/invalid.mlir --split-input-file --verify-diagnostics
