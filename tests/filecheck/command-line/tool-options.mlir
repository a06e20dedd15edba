// mlir-opt's own options as upstream's RUN lines write them, with xdsl-opt in place
// of mlir-opt.
// (Locations are recorded in runs with xdsl-gpu's dialects: --xdsl-gpu, as
// tools/upstream/lit.py runs upstream's tests.)
// RUN: xdsl-opt %s -split-input-file | filecheck %s
// RUN: xdsl-opt %s --split-input-file -mlir-disable-threading | filecheck %s
// RUN: xdsl-opt --xdsl-gpu -split-input-file -mlir-print-debuginfo -canonicalize="test-convergence" %s | filecheck %s --check-prefix=LOC
// RUN: xdsl-opt --xdsl-gpu -split-input-file -mlir-print-debuginfo -mlir-print-local-scope %s | filecheck %s --check-prefix=LOCAL
// RUN: xdsl-opt -allow-unregistered-dialect %s -split-input-file -mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: xdsl-opt %s -split-input-file --mlir-print-op-generic --mlir-print-local-scope | filecheck %s --check-prefix=GENERIC
// RUN: xdsl-opt %s -split-input-file -o %t && filecheck %s < %t
// RUN: xdsl-opt %s -split-input-file -o - | filecheck %s
// RUN: cat %s | xdsl-opt - -split-input-file | filecheck %s
// RUN: not xdsl-opt %s -split-input-file -mlir-print-ir-before-all 2>&1 | filecheck %s --check-prefix=REFUSED
// RUN: not xdsl-opt %s -split-input-fil 2>&1 | filecheck %s --check-prefix=UNKNOWN

// CHECK:       func.func @first
// CHECK:       // -----
// CHECK:       func.func @second
// LOC:         return %{{.*}} : i32 loc([[R:#loc[0-9]*]])
// LOC:         [[R]] = loc("{{.*}}tool-options.mlir":[[# @LINE + 18]]:3)
// LOCAL:       return %{{.*}} : i32 loc("{{.*}}tool-options.mlir":[[# @LINE + 17]]:3)
// GENERIC:     "func.func"() <{sym_name = "first"
// GENERIC:     // -----
// GENERIC:     "func.func"() <{sym_name = "second"
// REFUSED:     error: mlir-opt's option '-mlir-print-ir-before-all' is not supported by xdsl-opt
// UNKNOWN:     error: unknown command line argument '-split-input-fil'; did you mean '--split-input-file'?

func.func @first() {
  return
}

// -----

func.func @second() -> i32 {
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}
