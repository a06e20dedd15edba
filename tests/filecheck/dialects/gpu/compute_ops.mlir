// RUN: XDSL_ROUNDTRIP
// RUN: xdsl-opt %s --split-input-file | filecheck %s
// RUN: xdsl-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// In-kernel compute ops in upstream's syntax. Every chunk is also checked against
// mlir-opt-22 by tests/test_mlir_conformance.py. mlir-opt accepts these ops in a
// func.func as well as in a gpu.func.

// Index ops name their result like mlir-opt does (%thread_id_x); a name from the
// input wins.

// CHECK-LABEL: func.func @index_ops
// GENERIC-LABEL: "func.func"
func.func @index_ops() {
  // CHECK-NEXT: %thread_id_x = gpu.thread_id x
  // GENERIC: %thread_id_x = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
  %0 = gpu.thread_id x
  // CHECK-NEXT: %block_id_y = gpu.block_id y upper_bound 64
  // GENERIC: "gpu.block_id"() <{dimension = #gpu<dim y>, upper_bound = 64 : index}> : () -> index
  %1 = gpu.block_id y upper_bound 64
  // CHECK-NEXT: %block_dim_z = gpu.block_dim z
  %2 = gpu.block_dim z
  // CHECK-NEXT: %grid_dim_x = gpu.grid_dim x
  %3 = gpu.grid_dim x
  // CHECK-NEXT: %global_id_x = gpu.global_id x upper_bound 65536
  %4 = gpu.global_id x upper_bound 65536
  // CHECK-NEXT: %cluster_id_y = gpu.cluster_id y
  %5 = gpu.cluster_id y
  // CHECK-NEXT: %cluster_dim_z = gpu.cluster_dim z
  %6 = gpu.cluster_dim z
  // CHECK-NEXT: %cluster_block_id_x = gpu.cluster_block_id x
  %7 = gpu.cluster_block_id x
  // CHECK-NEXT: %cluster_dim_blocks_y = gpu.cluster_dim_blocks y upper_bound 8
  %8 = gpu.cluster_dim_blocks y upper_bound 8
  // CHECK-NEXT: %thread_id_x_1 = gpu.thread_id x {foo}
  %9 = gpu.thread_id x {foo}
  // CHECK-NEXT: %tid = gpu.thread_id y
  %tid = gpu.thread_id y
  func.return
}

// -----

// CHECK-LABEL: func.func @subgroup_queries
func.func @subgroup_queries() {
  // CHECK-NEXT: %0 = gpu.lane_id
  %0 = gpu.lane_id
  // CHECK-NEXT: %1 = gpu.lane_id upper_bound 32
  %1 = gpu.lane_id upper_bound 32
  // CHECK-NEXT: %2 = gpu.subgroup_id : index
  %2 = gpu.subgroup_id : index
  // CHECK-NEXT: %3 = gpu.subgroup_id upper_bound 16 : index
  %3 = gpu.subgroup_id upper_bound 16 : index
  // CHECK-NEXT: %4 = gpu.num_subgroups : index
  %4 = gpu.num_subgroups : index
  // CHECK-NEXT: %5 = gpu.num_subgroups upper_bound 4 : index
  %5 = gpu.num_subgroups upper_bound 4 : index
  // CHECK-NEXT: %6 = gpu.subgroup_size : index
  %6 = gpu.subgroup_size : index
  // CHECK-NEXT: %7 = gpu.subgroup_size upper_bound 64 : index
  %7 = gpu.subgroup_size upper_bound 64 : index
  func.return
}

// -----

// mlir-opt prints a newline in the format string as \0A, and so do we.

// CHECK-LABEL: func.func @printf
func.func @printf(%i: i32, %f: f32, %x: index, %u: ui8, %d: f64) {
  // CHECK-NEXT: gpu.printf "Hello\0A"
  gpu.printf "Hello\n"
  // CHECK-NEXT: gpu.printf "%d %f %lld %u %f\0A", %i, %f, %x, %u, %d : i32, f32, index, ui8, f64
  gpu.printf "%d %f %lld %u %f\n", %i, %f, %x, %u, %d : i32, f32, index, ui8, f64
  // CHECK-NEXT: gpu.printf "%d" {foo}, %i : i32
  gpu.printf "%d" {foo}, %i : i32
  func.return
}

// -----

// CHECK-LABEL: func.func @shuffle
func.func @shuffle(%f: f32, %i: i32, %v: vector<4xf16>, %l: i64) {
  // CHECK-NEXT: %shuffleResult, %valid = gpu.shuffle xor %f, %i, %i : f32
  %0, %1 = gpu.shuffle xor %f, %i, %i : f32
  // CHECK-NEXT: %shuffleResult_1, %valid_1 = gpu.shuffle up %i, %i, %i : i32
  %2, %3 = gpu.shuffle up %i, %i, %i : i32
  // CHECK-NEXT: %shuffleResult_2, %valid_2 = gpu.shuffle down %l, %i, %i : i64
  %4, %5 = gpu.shuffle down %l, %i, %i : i64
  // CHECK-NEXT: %shuffleResult_3, %valid_3 = gpu.shuffle idx %v, %i, %i : vector<4xf16>
  %6, %7 = gpu.shuffle idx %v, %i, %i : vector<4xf16>
  func.return
}

// -----

// CHECK-LABEL: func.func @rotate
func.func @rotate(%f: f32, %v: vector<2xi32>) {
  // CHECK-NEXT: %rotateResult, %valid = gpu.rotate %f, 1, 32 : f32
  %0, %1 = gpu.rotate %f, 1, 32 : f32
  // CHECK-NEXT: %rotateResult_1, %valid_1 = gpu.rotate %v, 0, 1 : vector<2xi32>
  %2, %3 = gpu.rotate %v, 0, 1 : vector<2xi32>
  // CHECK-NEXT: %rotateResult_2, %valid_2 = gpu.rotate %f, 15, 16 : f32
  %4, %5 = gpu.rotate %f, 15, 16 : f32
  func.return
}

// -----

// The broadcast value can be of any type.

// CHECK-LABEL: func.func @subgroup_broadcast
func.func @subgroup_broadcast(%f: f32, %lane: i32, %m: memref<4xf32>) {
  // CHECK-NEXT: %0 = gpu.subgroup_broadcast %f, first_active_lane : f32
  %0 = gpu.subgroup_broadcast %f, first_active_lane : f32
  // CHECK-NEXT: %1 = gpu.subgroup_broadcast %f, specific_lane %lane : f32
  %1 = gpu.subgroup_broadcast %f, specific_lane %lane : f32
  // CHECK-NEXT: %2 = gpu.subgroup_broadcast %m, specific_lane %lane : memref<4xf32>
  %2 = gpu.subgroup_broadcast %m, specific_lane %lane : memref<4xf32>
  func.return
}

// -----

// CHECK-LABEL: func.func @barrier
func.func @barrier() {
  // CHECK-NEXT: gpu.barrier
  gpu.barrier
  // CHECK-NEXT: gpu.barrier {foo}
  gpu.barrier {foo}
  func.return
}

// -----

// The op form has an empty region; the region form computes the reduction.

// CHECK-LABEL: func.func @all_reduce
func.func @all_reduce(%f: f32, %i: i32) {
  // CHECK-NEXT: %0 = gpu.all_reduce add %f {
  // CHECK-NEXT: } : (f32) -> f32
  %0 = gpu.all_reduce add %f {} : (f32) -> (f32)
  // CHECK-NEXT: %1 = gpu.all_reduce maximumf %f uniform {
  // CHECK-NEXT: } : (f32) -> f32
  %1 = gpu.all_reduce maximumf %f uniform {} : (f32) -> f32
  // CHECK-NEXT: %2 = gpu.all_reduce xor %i {
  // CHECK-NEXT: } {foo} : (i32) -> i32
  %2 = gpu.all_reduce xor %i {} {foo} : (i32) -> i32
  // CHECK-NEXT: %3 = gpu.all_reduce %f {
  // CHECK-NEXT: ^bb0(%lhs: f32, %rhs: f32):
  // CHECK-NEXT:   %sum = arith.addf %lhs, %rhs : f32
  // CHECK-NEXT:   gpu.yield %sum : f32
  // CHECK-NEXT: } : (f32) -> f32
  %3 = gpu.all_reduce %f {
  ^bb0(%lhs: f32, %rhs: f32):
    %sum = arith.addf %lhs, %rhs : f32
    "gpu.yield"(%sum) : (f32) -> ()
  } : (f32) -> (f32)
  // CHECK-NEXT: %4 = gpu.all_reduce %i uniform {
  // CHECK:      } : (i32) -> i32
  %4 = gpu.all_reduce %i uniform {
  ^bb0(%lhs: i32, %rhs: i32):
    %c = arith.cmpi slt, %lhs, %rhs : i32
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    gpu.yield %lhs : i32
  ^bb2:
    gpu.yield %rhs : i32
  } : (i32) -> i32
  func.return
}

// -----

// Every reduction kind, on a type it accepts.

// CHECK-LABEL: func.func @all_reduce_kinds
func.func @all_reduce_kinds(%f: f16, %i: i64) {
  // CHECK-NEXT: gpu.all_reduce add %f
  %0 = gpu.all_reduce add %f {} : (f16) -> f16
  // CHECK: gpu.all_reduce mul %i
  %1 = gpu.all_reduce mul %i {} : (i64) -> i64
  // CHECK: gpu.all_reduce minui %i
  %2 = gpu.all_reduce minui %i {} : (i64) -> i64
  // CHECK: gpu.all_reduce minsi %i
  %3 = gpu.all_reduce minsi %i {} : (i64) -> i64
  // CHECK: gpu.all_reduce minnumf %f
  %4 = gpu.all_reduce minnumf %f {} : (f16) -> f16
  // CHECK: gpu.all_reduce maxui %i
  %5 = gpu.all_reduce maxui %i {} : (i64) -> i64
  // CHECK: gpu.all_reduce maxsi %i
  %6 = gpu.all_reduce maxsi %i {} : (i64) -> i64
  // CHECK: gpu.all_reduce maxnumf %f
  %7 = gpu.all_reduce maxnumf %f {} : (f16) -> f16
  // CHECK: gpu.all_reduce and %i
  %8 = gpu.all_reduce and %i {} : (i64) -> i64
  // CHECK: gpu.all_reduce or %i
  %9 = gpu.all_reduce or %i {} : (i64) -> i64
  // CHECK: gpu.all_reduce xor %i
  %10 = gpu.all_reduce xor %i {} : (i64) -> i64
  // CHECK: gpu.all_reduce minimumf %f
  %11 = gpu.all_reduce minimumf %f {} : (f16) -> f16
  // CHECK: gpu.all_reduce maximumf %f
  %12 = gpu.all_reduce maximumf %f {} : (f16) -> f16
  func.return
}

// -----

// A cluster stride of 1 is the default and is not printed.

// CHECK-LABEL: func.func @subgroup_reduce
func.func @subgroup_reduce(%f: f32, %i: i32, %v: vector<4xf16>) {
  // CHECK-NEXT: %0 = gpu.subgroup_reduce add %f : (f32) -> f32
  %0 = gpu.subgroup_reduce add %f : (f32) -> (f32)
  // CHECK-NEXT: %1 = gpu.subgroup_reduce minsi %i uniform : (i32) -> i32
  %1 = gpu.subgroup_reduce minsi %i uniform : (i32) -> i32
  // CHECK-NEXT: %2 = gpu.subgroup_reduce maxnumf %v cluster(size = 4) : (vector<4xf16>) -> vector<4xf16>
  %2 = gpu.subgroup_reduce maxnumf %v cluster(size = 4) : (vector<4xf16>) -> vector<4xf16>
  // CHECK-NEXT: %3 = gpu.subgroup_reduce mul %f uniform cluster(size = 8, stride = 2) : (f32) -> f32
  %3 = gpu.subgroup_reduce mul %f uniform cluster(size = 8, stride = 2) : (f32) -> f32
  // CHECK-NEXT: %4 = gpu.subgroup_reduce xor %i cluster(size = 4) : (i32) -> i32
  %4 = gpu.subgroup_reduce xor %i cluster(size = 4, stride = 1) : (i32) -> i32
  // CHECK-NEXT: %5 = gpu.subgroup_reduce minimumf %v {foo} : (vector<4xf16>) -> vector<4xf16>
  %5 = gpu.subgroup_reduce minimumf %v {foo} : (vector<4xf16>) -> vector<4xf16>
  func.return
}

// -----

// gpu.yield with no values prints bare.

// CHECK-LABEL: func.func @warp_execute_on_lane_0
func.func @warp_execute_on_lane_0(%laneid: index, %v: vector<4xi32>, %s: f32) {
  // CHECK-NEXT: gpu.warp_execute_on_lane_0(%laneid)[32] {
  // CHECK-NEXT:   gpu.barrier
  // CHECK-NEXT: }
  gpu.warp_execute_on_lane_0(%laneid)[32] {
    gpu.barrier
  }
  // CHECK-NEXT: %0 = gpu.warp_execute_on_lane_0(%laneid)[32] args(%v : vector<4xi32>) -> (vector<1xf32>) {
  // CHECK-NEXT: ^bb0(%arg0: vector<128xi32>):
  // CHECK-NEXT:   %cst = arith.constant dense<1.000000e+00> : vector<32xf32>
  // CHECK-NEXT:   gpu.yield %cst : vector<32xf32>
  // CHECK-NEXT: }
  %0 = gpu.warp_execute_on_lane_0(%laneid)[32] args(%v : vector<4xi32>) -> (vector<1xf32>) {
  ^bb0(%arg0: vector<128xi32>):
    %cst = arith.constant dense<1.0> : vector<32xf32>
    gpu.yield %cst : vector<32xf32>
  }
  // A value equal on all lanes (same type on both sides) is a broadcast.
  // CHECK-NEXT: %1, %2 = gpu.warp_execute_on_lane_0(%laneid)[64] args(%v, %s : vector<4xi32>, f32) -> (vector<2x4xf32>, f32) {
  // CHECK-NEXT: ^bb0(%a: vector<256xi32>, %b: f32):
  // CHECK-NEXT:   %w = arith.constant dense<0.000000e+00> : vector<16x32xf32>
  // CHECK-NEXT:   gpu.yield %w, %b : vector<16x32xf32>, f32
  // CHECK-NEXT: } {foo}
  %1:2 = gpu.warp_execute_on_lane_0(%laneid)[64] args(%v, %s : vector<4xi32>, f32) -> (vector<2x4xf32>, f32) {
  ^bb0(%a: vector<256xi32>, %b: f32):
    %w = arith.constant dense<0.0> : vector<16x32xf32>
    gpu.yield %w, %b : vector<16x32xf32>, f32
  } {foo}
  // CHECK-NEXT: %3 = gpu.warp_execute_on_lane_0(%laneid)[32] -> (f32) {
  // CHECK-NEXT:   gpu.yield %s : f32
  // CHECK-NEXT: }
  %3 = gpu.warp_execute_on_lane_0(%laneid)[32] -> f32 {
    gpu.yield %s : f32
  }
  func.return
}

// -----

// CHECK-LABEL: func.func @dynamic_shared_memory
func.func @dynamic_shared_memory() {
  // CHECK-NEXT: %0 = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
  %0 = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
  func.return
}

// -----

// Inside a kernel.

// CHECK-LABEL: gpu.module @kernels
gpu.module @kernels {
  // CHECK-NEXT: gpu.func @reduce(%in: memref<?xf32>) kernel {
  gpu.func @reduce(%in: memref<?xf32>) kernel {
    // CHECK-NEXT: %tid = gpu.thread_id x
    %tid = gpu.thread_id x
    // CHECK-NEXT: %v = memref.load %in[%tid] : memref<?xf32>
    %v = memref.load %in[%tid] : memref<?xf32>
    // CHECK-NEXT: %sum = gpu.all_reduce add %v uniform {
    // CHECK-NEXT: } : (f32) -> f32
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> f32
    // CHECK-NEXT: %shm = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %shm = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    // CHECK-NEXT: gpu.barrier
    gpu.barrier
    // CHECK-NEXT: gpu.printf "sum %f\0A", %sum : f32
    gpu.printf "sum %f\n", %sum : f32
    // CHECK-NEXT: gpu.return
    gpu.return
  }
}
