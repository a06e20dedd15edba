// RUN: xdsl-opt %s -p 'test-nvgpu-mmasync-f32-to-tf32-patterns{precision=tf32}' --split-input-file | filecheck %s
// RUN: xdsl-opt %s -p 'test-nvgpu-mmasync-f32-to-tf32-patterns{precision=tf32x3}' --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s -test-nvgpu-mmasync-f32-to-tf32-patterns=precision=tf32 --split-input-file | filecheck %s %}
// RUN: %if mlir-opt %{ mlir-opt %s -test-nvgpu-mmasync-f32-to-tf32-patterns=precision=tf32x3 --split-input-file | filecheck %s %}

// f32 operands: tf32Enabled is set (with either precision, as MLIR 22).
// CHECK-LABEL: func.func @f32
// CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16{{.*}}, 8{{.*}}, 8{{.*}}], tf32Enabled}
func.func @f32(%a: vector<4x1xf32>, %b: vector<2x1xf32>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8]} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

// Other element types stay as they are.
// CHECK-LABEL: func.func @f16
// CHECK-NOT: tf32Enabled
// CHECK: return
func.func @f16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf16>) -> vector<2x2xf16> {
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
  return %d : vector<2x2xf16>
}
