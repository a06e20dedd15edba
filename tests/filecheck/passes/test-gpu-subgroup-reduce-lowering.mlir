// RUN: xdsl-opt %s --allow-unregistered-dialect -p 'test-gpu-subgroup-reduce-lowering{expand-to-shuffles}' | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --allow-unregistered-dialect --test-gpu-subgroup-reduce-lowering=expand-to-shuffles | filecheck %s %}
// RUN: xdsl-opt %s --allow-unregistered-dialect -p test-gpu-subgroup-reduce-lowering | filecheck %s --check-prefix=NONE

// NONE-COUNT-4: gpu.subgroup_reduce

// Butterflies of xor shuffles over 32 lanes; a cluster starts at its stride; f16 goes
// through i32; a 32-bit vector as the element of a vector<1xi32>.
// CHECK-LABEL: gpu.func @k(
// CHECK-SAME: %[[X:.*]]: f32, %[[H:.*]]: f16, %[[V:.*]]: vector<2xf16>, %[[W:.*]]: vector<4xf16>)
// CHECK: %[[C2:.*]] = arith.constant 2 : i32
// CHECK: %[[C32:.*]] = arith.constant 32 : i32
// CHECK: %[[S0:.*]], %{{.*}} = gpu.shuffle xor %[[X]], %{{.*}}, %[[C32]] : f32
// CHECK: %[[A0:.*]] = arith.addf %[[X]], %[[S0]] : f32
// CHECK-COUNT-4: gpu.shuffle xor %{{.*}} : f32
// CHECK: gpu.shuffle xor %[[X]], %[[C2]], %{{.*}} : f32
// CHECK: arith.mulf
// CHECK: gpu.shuffle xor %{{.*}} : f32
// CHECK: arith.mulf
// CHECK-NOT: gpu.shuffle xor %{{.*}} : f32
// CHECK: %[[B:.*]] = arith.bitcast %[[H]] : f16 to i16
// CHECK: %[[E:.*]] = arith.extui %[[B]] : i16 to i32
// CHECK: %[[SH:.*]], %{{.*}} = gpu.shuffle xor %[[E]], %{{.*}} : i32
// CHECK: %[[T:.*]] = arith.trunci %[[SH]] : i32 to i16
// CHECK: %[[F:.*]] = arith.bitcast %[[T]] : i16 to f16
// CHECK: arith.minnumf %[[H]], %[[F]] : f16
// CHECK: %[[VB:.*]] = vector.bitcast %[[V]] : vector<2xf16> to vector<1xi32>
// CHECK: %[[VE:.*]] = vector.extract %[[VB]][0] : i32 from vector<1xi32>
// CHECK: %[[VS:.*]], %{{.*}} = gpu.shuffle xor %[[VE]], %{{.*}} : i32
// CHECK: %[[VBR:.*]] = vector.broadcast %[[VS]] : i32 to vector<1xi32>
// CHECK: %[[VF:.*]] = vector.bitcast %[[VBR]] : vector<1xi32> to vector<2xf16>
// CHECK: arith.maximumf %[[V]], %[[VF]] : vector<2xf16>
gpu.module @m {
  gpu.func @k(%x: f32, %h: f16, %v: vector<2xf16>, %w: vector<4xf16>) kernel {
    %a = gpu.subgroup_reduce add %x uniform : (f32) -> f32
    %c = gpu.subgroup_reduce mul %x cluster(size = 4, stride = 2) : (f32) -> f32
    %d = gpu.subgroup_reduce minnumf %h : (f16) -> f16
    %e = gpu.subgroup_reduce maximumf %v : (vector<2xf16>) -> vector<2xf16>
    "test.use"(%a, %c, %d, %e) : (f32, f32, f16, vector<2xf16>) -> ()
    gpu.return
  }
}
