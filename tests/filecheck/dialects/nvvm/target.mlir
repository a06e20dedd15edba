// RUN: xdsl-opt %s | filecheck %s
// RUN: XDSL_ROUNDTRIP
// Compared with mlir-opt 22 by tests/test_mlir_conformance.py and target-mlir-opt.mlir.

// Keys in any order; defaults are elided; the rest prints in upstream's order.

// CHECK:      gpu.module @bare [#nvvm.target] {
gpu.module @bare [#nvvm.target] {}
// CHECK:      gpu.module @empty [#nvvm.target] {
gpu.module @empty [#nvvm.target<>] {}
// CHECK:      gpu.module @defaults [#nvvm.target] {
gpu.module @defaults [#nvvm.target<verifyTarget = true, features = "", chip = "sm_50", triple = "nvptx64-nvidia-cuda", O = 2>] {}
// CHECK:      gpu.module @chip [#nvvm.target<O = 3, chip = "sm_90">] {
gpu.module @chip [#nvvm.target<chip = "sm_90", O = 3>] {}
// CHECK:      gpu.module @all [#nvvm.target<O = 0, triple = "nvptx-nvidia-cuda", chip = "sm_90a", features = "+ptx80", flags = {fast, ftz, "ptxas-cmd-options" = ["-v", "-lineinfo"]}, link = ["/a.bc", "/b.bc"], verifyTarget = false>] {
gpu.module @all [#nvvm.target<verifyTarget = false, link = ["/a.bc", "/b.bc"], flags = {fast, ftz, "ptxas-cmd-options" = ["-v", "-lineinfo"]}, features = "+ptx80", chip = "sm_90a", triple = "nvptx-nvidia-cuda", O = 0>] {}
// An empty dictionary or array is not the same as none.
// CHECK:      gpu.module @empty_flags [#nvvm.target<flags = {}, link = []>] {
gpu.module @empty_flags [#nvvm.target<link = [], flags = {}>] {}
// verifyTarget also reads 0 and 1.
// CHECK:      gpu.module @bool_int [#nvvm.target<verifyTarget = false>] {
gpu.module @bool_int [#nvvm.target<verifyTarget = 0>] {}
// CHECK:      gpu.module @two [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90", features = "+ptx80">] {
gpu.module @two [#nvvm.target<chip = "sm_80">, #nvvm.target<features = "+ptx80", chip = "sm_90">] {}

// verifyTarget: ops are checked against the chip.

// CHECK:      gpu.module @sm90 [#nvvm.target<chip = "sm_90">] {
// CHECK:        nvvm.read.ptx.sreg.clusterid.x : i32
// CHECK:        nvvm.redux.sync add
gpu.module @sm90 [#nvvm.target<chip = "sm_90">] {
  llvm.func @k(%v: i32) {
    %0 = nvvm.read.ptx.sreg.clusterid.x : i32
    %1 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %2 = nvvm.redux.sync add %v, %v : i32 -> i32
    nvvm.cluster.wait
    llvm.return
  }
}
// The `a` and `f` suffixes keep the SM number.
// CHECK:      gpu.module @sm100f [#nvvm.target<chip = "sm_100f">] {
gpu.module @sm100f [#nvvm.target<chip = "sm_100f">] {
  llvm.func @k() {
    %0 = nvvm.read.ptx.sreg.cluster.ctaid.x : i32
    llvm.return
  }
}
// Without verifyTarget nothing is checked.
// CHECK:      gpu.module @unchecked [#nvvm.target<chip = "sm_70", verifyTarget = false>] {
gpu.module @unchecked [#nvvm.target<chip = "sm_70", verifyTarget = false>] {
  llvm.func @k() {
    %0 = nvvm.read.ptx.sreg.clusterid.x : i32
    llvm.return
  }
}
// Upstream requires sm_90 for clusterid.x but not for clusterid.y.
// CHECK:      gpu.module @sm70 [#nvvm.target<chip = "sm_70">] {
gpu.module @sm70 [#nvvm.target<chip = "sm_70">] {
  llvm.func @k(%m: i32, %v: f32) {
    %0 = nvvm.read.ptx.sreg.clusterid.y : i32
    %1 = nvvm.read.ptx.sreg.cluster.nctaid.z : i32
    %2 = nvvm.shfl.sync bfly %m, %v, %m, %m : f32 -> f32
    nvvm.cluster.arrive
    llvm.return
  }
}

// Escapes in strings print as upstream's (`\22` for a quote).
// CHECK:      gpu.module @escape [#nvvm.target<features = "a\22b">] {
gpu.module @escape [#nvvm.target<features = "a\"b">] {}
