// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// Beyond MLIR: the messages are those of upstream's ROCDLTargetAttr::verify, which
// mlir-opt 22 never runs (it accepts all of these).

// CHECK: The optimization level must be a number between 0 and 3.
gpu.module @m [#rocdl.target<O = 4>] {}

// -----

// CHECK: The target triple cannot be empty.
gpu.module @m [#rocdl.target<triple = "">] {}

// -----

// CHECK: The target chip cannot be empty.
gpu.module @m [#rocdl.target<chip = "">] {}

// -----

// CHECK: Invalid ABI version, it must be `400`, `500` or '600'.
gpu.module @m [#rocdl.target<abi = "700">] {}

// -----

// CHECK: All the elements in the `link` array must be strings.
gpu.module @m [#rocdl.target<link = [1]>] {}

// -----

// CHECK: duplicate or unknown struct parameter name: verifyTarget
gpu.module @m [#rocdl.target<verifyTarget = false>] {}
