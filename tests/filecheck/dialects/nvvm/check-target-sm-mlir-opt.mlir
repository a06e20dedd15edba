// REQUIRES: mlir-opt
// The `expected-error`s of check-target-sm.mlir are MLIR 22's: mlir-opt 22 reports
// each of them where they say, and accepts the chunks without one.

// RUN: mlir-opt %S/check-target-sm.mlir --split-input-file --verify-diagnostics
