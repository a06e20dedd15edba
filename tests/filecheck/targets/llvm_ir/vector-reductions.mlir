// RUN: python3 -m xdsl_gpu.targets.llvm_ir %s | filecheck %s
// RUN: %if mlir-opt %{ mlir-translate --mlir-to-llvmir %s | filecheck %s %}

// The llvm.intr.vector.reduce.* ops that convert-vector-to-llvm emits, translated to
// the intrinsics mlir-translate-22 calls (the vector type mangles the name).

// CHECK-LABEL: define float @reductions(<4 x i32> %{{.*}}, <4 x float> %{{.*}})
llvm.func @reductions(%v: vector<4xi32>, %f: vector<4xf32>) -> f32 {
  // CHECK: call i32 @llvm.vector.reduce.add.v4i32(<4 x i32>
  %0 = "llvm.intr.vector.reduce.add"(%v) : (vector<4xi32>) -> i32
  // CHECK: call i32 @llvm.vector.reduce.mul.v4i32(<4 x i32>
  %1 = "llvm.intr.vector.reduce.mul"(%v) : (vector<4xi32>) -> i32
  // CHECK: call i32 @llvm.vector.reduce.and.v4i32(<4 x i32>
  %2 = "llvm.intr.vector.reduce.and"(%v) : (vector<4xi32>) -> i32
  // CHECK: call i32 @llvm.vector.reduce.umin.v4i32(<4 x i32>
  %3 = "llvm.intr.vector.reduce.umin"(%v) : (vector<4xi32>) -> i32
  // CHECK: call float @llvm.vector.reduce.fmax.v4f32(<4 x float>
  %4 = "llvm.intr.vector.reduce.fmax"(%f) : (vector<4xf32>) -> f32
  // CHECK: call float @llvm.vector.reduce.fminimum.v4f32(<4 x float>
  %5 = "llvm.intr.vector.reduce.fminimum"(%f) : (vector<4xf32>) -> f32
  llvm.return %5 : f32
}
