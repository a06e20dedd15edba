// RUN: xdsl-opt %s | filecheck %s
// RUN: XDSL_ROUNDTRIP
// Compared with mlir-opt 22 by tests/test_mlir_conformance.py and target-mlir-opt.mlir.

// CHECK:      gpu.module @bare [#rocdl.target] {
gpu.module @bare [#rocdl.target] {}
// CHECK:      gpu.module @empty [#rocdl.target] {
gpu.module @empty [#rocdl.target<>] {}
// CHECK:      gpu.module @defaults [#rocdl.target] {
gpu.module @defaults [#rocdl.target<abi = "600", features = "", chip = "gfx900", triple = "amdgcn-amd-amdhsa", O = 2>] {}
// Keys in any order; printed in upstream's order.
// CHECK:      gpu.module @all [#rocdl.target<O = 3, triple = "amdgcn-amd-amdpal", chip = "gfx90a", features = "+sramecc,-xnack", abi = "500", flags = {fast, no_wave64, unsafe_sqrt}, link = ["/ocml.bc", "/ockl.bc"]>] {
gpu.module @all [#rocdl.target<link = ["/ocml.bc", "/ockl.bc"], flags = {fast, no_wave64, unsafe_sqrt}, abi = "500", features = "+sramecc,-xnack", chip = "gfx90a", triple = "amdgcn-amd-amdpal", O = 3>] {}
// CHECK:      gpu.module @both [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx942", abi = "400">] {
gpu.module @both [#nvvm.target<chip = "sm_90">, #rocdl.target<abi = "400", chip = "gfx942">] {}
