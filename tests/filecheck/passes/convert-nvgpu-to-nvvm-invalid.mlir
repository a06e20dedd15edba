// RUN: xdsl-opt %s -p convert-nvgpu-to-nvvm --split-input-file --verify-diagnostics | filecheck %s
// RUN: not xdsl-opt %s -p convert-nvgpu-to-nvvm 2>&1 | filecheck %s --check-prefix=LOCATED

// nvgpu ops that convert-nvgpu-to-nvvm cannot lower stop the pass at the op. Upstream
// reports the first case with the same words but carries on (mlir-opt-22 exits 0 and
// leaves both ops in place, to fail later in the pipeline).

// bf16 has no PTX type in upstream's mma.sync lowering.
// CHECK: convert-nvgpu-to-nvvm: 'nvgpu.mma.sync' op failed to deduce operand PTX types
// LOCATED: {{.*}}convert-nvgpu-to-nvvm-invalid.mlir:[[# @LINE + 2]]:8: error: convert-nvgpu-to-nvvm: 'nvgpu.mma.sync' op failed to deduce operand PTX types
func.func @bf16(%arg0: vector<4x2xbf16>, %arg1: vector<2x2xbf16>, %arg2: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%arg0, %arg1, %arg2) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// Tensor cores multiply f32 only as tf32: the op must say so.
// CHECK: convert-nvgpu-to-nvvm: 'nvgpu.mma.sync' op on f32 operands needs tf32Enabled: tensor cores multiply f32 only as tf32
func.func @f32_without_tf32(%arg0: vector<4x1xf32>, %arg1: vector<2x1xf32>, %arg2: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%arg0, %arg1, %arg2) {mmaShape = [16, 8, 8]} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// CHECK: convert-nvgpu-to-nvvm: 'nvgpu.mma.sp.sync' op failed to deduce operand PTX types
func.func @sparse_bf16(%arg0: vector<2x2xbf16>, %arg1: vector<2x2xbf16>, %arg2: vector<2x2xf32>, %arg3: vector<2xi16>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sp.sync (%arg0, %arg1, %arg2) metadata(%arg3) {mmaShape = [16, 8, 16]} : (vector<2x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}
