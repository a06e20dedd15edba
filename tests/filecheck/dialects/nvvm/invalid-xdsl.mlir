// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s
// Invalid IR that xdsl-gpu reports differently from mlir-opt 22: checks upstream does
// not make (marked "beyond MLIR"; upstream fails later, in translation, or never) and
// messages worded by xDSL's parser. The rest is in invalid.mlir.

// Beyond MLIR: upstream accepts any result type; the intrinsic returns i32.
// CHECK: 'nvvm.read.ptx.sreg.tid.x' op result must be i32 (the type of llvm.nvvm.read.ptx.sreg.tid.x), got i64
llvm.func @f() {
  %0 = nvvm.read.ptx.sreg.tid.x : i64
  llvm.return
}

// -----

// CHECK: 'nvvm.read.ptx.sreg.clock64' op result must be i64 (the type of llvm.nvvm.read.ptx.sreg.clock64), got i32
llvm.func @f() {
  %0 = nvvm.read.ptx.sreg.clock64 : i32
  llvm.return
}

// -----

// Beyond MLIR: the range must have the result's type.
// CHECK: 'nvvm.read.ptx.sreg.ntid.x' op range type i64 must match the result type i32
llvm.func @f() {
  %0 = nvvm.read.ptx.sreg.ntid.x range <i64, 1, 1025> : i32
  llvm.return
}

// -----

// Lane masks have no range.
// CHECK: Expected ':'
llvm.func @f() {
  %0 = nvvm.read.ptx.sreg.lanemask.eq range <i32, 0, 5> : i32
  llvm.return
}

// -----

// CHECK: Expected `cta`, `cluster`, `gpu`, or `sys`.
llvm.func @f() {
  nvvm.memory.barrier <device>
  llvm.return
}

// -----

// CHECK: Expected one of f32, i32, but got f64
llvm.func @f(%m: i32, %v: f64) {
  %0 = nvvm.shfl.sync bfly %m, %v, %m, %m : f64 -> f64
  llvm.return
}

// -----

// CHECK: attribute i32 expected from variable 'T', but got f32
llvm.func @f(%m: i32) {
  %0 = nvvm.redux.sync max %m, %m : i32 -> f32
  llvm.return
}

// -----

// CHECK: string literal expected
gpu.module @m [#nvvm.target<chip = 90>] {}

// -----

// CHECK: failed to parse nvvm.target parameter 'flags' which is to be a `DictionaryAttr`
gpu.module @m [#nvvm.target<flags = [1]>] {}

// -----

// CHECK: failed to parse nvvm.target parameter 'link' which is to be a `ArrayAttr`
gpu.module @m [#nvvm.target<link = {a}>] {}

// -----

// Beyond MLIR: MLIR 22 reads a chip that is not sm_<N> as an undefined number.
// CHECK: invalid NVVM target chip "gfx900", expected sm_<version>[a|f]
gpu.module @m [#nvvm.target<chip = "gfx900">] {}
