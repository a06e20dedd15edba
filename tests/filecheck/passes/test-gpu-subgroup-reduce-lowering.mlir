// RUN: xdsl-opt %s --split-input-file --allow-unregistered-dialect -p 'test-gpu-subgroup-reduce-lowering{expand-to-shuffles}' | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --split-input-file --allow-unregistered-dialect --test-gpu-subgroup-reduce-lowering=expand-to-shuffles | filecheck %s %}
// RUN: xdsl-opt %s --split-input-file --allow-unregistered-dialect -p test-gpu-subgroup-reduce-lowering | filecheck %s --check-prefixes=NONE,BREAK
// RUN: %if mlir-opt %{ mlir-opt %s --split-input-file --allow-unregistered-dialect --test-gpu-subgroup-reduce-lowering | filecheck %s --check-prefixes=NONE,BREAK %}

// NONE-COUNT-4: gpu.subgroup_reduce

// Expanded: no subgroup_reduce is left.
// CHECK-NOT: gpu.subgroup_reduce

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

// -----

// Without expand-to-shuffles too: a vector wider than 32 bits is reduced in pieces
// of at most 32 bits (a lone element as a scalar), a vector<1xT> as its element.
// BREAK-LABEL: gpu.func @pieces(
// BREAK-SAME: %[[V:.*]]: vector<3xf16>, %[[ONE:.*]]: vector<1xf32>)
// BREAK: %[[Z:.*]] = arith.constant dense<0.0{{.*}}> : vector<3xf16>
// BREAK: %[[P:.*]] = vector.extract_strided_slice %[[V]] {offsets = [0], sizes = [2], strides = [1]} : vector<3xf16> to vector<2xf16>
// BREAK: %[[R:.*]] = gpu.subgroup_reduce maxnumf %[[P]] uniform : (vector<2xf16>) -> vector<2xf16>
// BREAK: %[[I:.*]] = vector.insert_strided_slice %[[R]], %[[Z]] {offsets = [0], strides = [1]} : vector<2xf16> into vector<3xf16>
// BREAK: %[[E:.*]] = vector.extract %[[V]][2] : f16 from vector<3xf16>
// BREAK: %[[RE:.*]] = gpu.subgroup_reduce maxnumf %[[E]] uniform : (f16) -> f16
// BREAK: vector.insert %[[RE]], %[[I]] [2] : f16 into vector<3xf16>
// BREAK: %[[S:.*]] = vector.extract %[[ONE]][0] : f32 from vector<1xf32>
// BREAK: %[[RS:.*]] = gpu.subgroup_reduce add %[[S]] : (f32) -> f32
// BREAK: vector.broadcast %[[RS]] : f32 to vector<1xf32>
gpu.module @m {
  gpu.func @pieces(%v: vector<3xf16>, %one: vector<1xf32>) kernel {
    %a = gpu.subgroup_reduce maxnumf %v uniform : (vector<3xf16>) -> vector<3xf16>
    %b = gpu.subgroup_reduce add %one : (vector<1xf32>) -> vector<1xf32>
    "test.use"(%a, %b) : (vector<3xf16>, vector<1xf32>) -> ()
    gpu.return
  }
}
