// RUN: xdsl-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | grep -v "^ *|" | filecheck %s --check-prefixes=CHECK,XDSL
// RUN: %if mlir-opt %{ not mlir-opt %s --split-input-file -o /dev/null 2>&1 | filecheck %s --check-prefixes=CHECK,MLIR %}

// Every verifier rule of the in-kernel compute ops. CHECK lines are upstream's words
// and must match both xdsl-opt and mlir-opt-22; XDSL and MLIR lines are where the two
// differ (parse errors, xDSL's own structural checks). `grep -v` drops the copy of
// each message that xdsl-opt prints inside the annotated IR, so that every message
// is checked once.
// (dynamic_shared_memory outside a symbol table cannot be written as a file that
// xdsl-opt reads: tests/gpu_dialect/test_compute_ops.py checks it.)

// ===--- index ops ---=== //

func.func @bad_dimension() {
  // XDSL: Expected `x`, `y`, or `z`.
  // MLIR: expected ::mlir::gpu::Dimension to be one of: x, y, z
  %0 = gpu.thread_id w
  func.return
}

// -----

func.func @index_result_not_index() {
  // CHECK: must be index, but got 'i32'
  %0 = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> i32
  func.return
}

// -----

func.func @lane_id_result_not_index() {
  // CHECK: must be index, but got 'i64'
  %0 = "gpu.lane_id"() : () -> i64
  func.return
}

// -----

func.func @subgroup_size_not_index() {
  // XDSL: must be index, but got 'i32'
  // MLIR: invalid kind of type specified: expected builtin.index, but found 'i32'
  %0 = gpu.subgroup_size : i32
  func.return
}

// ===--- printf ---=== //

// -----

func.func @printf_vector(%v: vector<2xf32>) {
  // CHECK: must be variadic of integer or index or floating-point, but got 'vector<2xf32>'
  gpu.printf "%f", %v : vector<2xf32>
  func.return
}

// ===--- shuffle ---=== //

// -----

func.func @shuffle_index(%v: index, %i: i32) {
  // CHECK: must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'index'
  %0, %1 = gpu.shuffle xor %v, %i, %i : index
  func.return
}

// -----

func.func @shuffle_2d_vector(%v: vector<2x2xf32>, %i: i32) {
  // CHECK: must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'vector<2x2xf32>'
  %0, %1 = gpu.shuffle xor %v, %i, %i : vector<2x2xf32>
  func.return
}

// -----

func.func @shuffle_result_type(%v: f32, %i: i32) {
  // CHECK: failed to verify that all of {value, shuffleResult} have same type
  %0, %1 = "gpu.shuffle"(%v, %i, %i) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (i32, i1)
  func.return
}

// -----

func.func @shuffle_offset_i64(%v: f32, %i: i64) {
  // CHECK: must be 32-bit signless integer, but got 'i64'
  %0, %1 = "gpu.shuffle"(%v, %i, %i) <{mode = #gpu<shuffle_mode up>}> : (f32, i64, i64) -> (f32, i1)
  func.return
}

// -----

func.func @shuffle_valid_i32(%v: f32, %i: i32) {
  // CHECK: must be 1-bit signless integer, but got 'i32'
  %0, %1 = "gpu.shuffle"(%v, %i, %i) <{mode = #gpu<shuffle_mode down>}> : (f32, i32, i32) -> (f32, i32)
  func.return
}

// -----

func.func @shuffle_bad_mode(%v: f32, %i: i32) {
  // XDSL: Expected `xor`, `up`, `down`, or `idx`.
  // MLIR: expected ::mlir::gpu::ShuffleMode to be one of: xor, up, down, idx
  %0, %1 = gpu.shuffle left %v, %i, %i : f32
  func.return
}

// ===--- rotate ---=== //

// -----

func.func @rotate_offset_too_big(%v: f32) {
  // CHECK: 'gpu.rotate' op offset must be in the range [0, 32)
  %0, %1 = gpu.rotate %v, 32, 32 : f32
  func.return
}

// -----

func.func @rotate_negative_offset(%v: f32) {
  // CHECK: 'gpu.rotate' op attribute 'offset' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0
  %0, %1 = gpu.rotate %v, -1, 16 : f32
  func.return
}

// -----

func.func @rotate_width_not_power_of_2(%v: f32) {
  // CHECK: 'gpu.rotate' op attribute 'width' failed to satisfy constraint: 32-bit signless integer attribute whose value is a power of two > 0
  %0, %1 = gpu.rotate %v, 1, 12 : f32
  func.return
}

// -----

func.func @rotate_zero_width(%v: f32) {
  // CHECK: 'gpu.rotate' op attribute 'width' failed to satisfy constraint: 32-bit signless integer attribute whose value is a power of two > 0
  %0, %1 = gpu.rotate %v, 0, 0 : f32
  func.return
}

// -----

func.func @rotate_index(%v: index) {
  // CHECK: must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'index'
  %0, %1 = gpu.rotate %v, 1, 16 : index
  func.return
}

// -----

func.func @rotate_result_type(%v: f32) {
  // CHECK: failed to verify that all of {value, rotateResult} have same type
  %0, %1 = "gpu.rotate"(%v) <{offset = 1 : i32, width = 32 : i32}> : (f32) -> (i32, i1)
  func.return
}

// ===--- subgroup_broadcast ---=== //

// -----

func.func @broadcast_specific_lane_without_lane(%v: f32) {
  // CHECK: 'gpu.subgroup_broadcast' op lane must be specified for `specific_lane` broadcast
  %0 = gpu.subgroup_broadcast %v, specific_lane : f32
  func.return
}

// -----

func.func @broadcast_first_active_lane_with_lane(%v: f32, %lane: i32) {
  // CHECK: 'gpu.subgroup_broadcast' op lane can only be specified for `specific_lane` broadcast
  %0 = gpu.subgroup_broadcast %v, first_active_lane %lane : f32
  func.return
}

// -----

func.func @broadcast_result_type(%v: f32) {
  // CHECK: failed to verify that all of {result, src} have same type
  %0 = "gpu.subgroup_broadcast"(%v) <{broadcast_type = #gpu<broadcast first_active_lane>}> : (f32) -> i32
  func.return
}

// -----

func.func @broadcast_lane_i64(%v: f32, %lane: i64) {
  // CHECK: must be 32-bit signless integer, but got 'i64'
  %0 = "gpu.subgroup_broadcast"(%v, %lane) <{broadcast_type = #gpu<broadcast specific_lane>}> : (f32, i64) -> f32
  func.return
}

// ===--- all_reduce ---=== //

// -----

func.func @all_reduce_no_op_no_body(%v: f32) {
  // CHECK: expected either an op attribute or a non-empty body
  %0 = "gpu.all_reduce"(%v) ({}) : (f32) -> f32
  func.return
}

// -----

func.func @all_reduce_op_and_body(%v: f32) {
  // CHECK: expected either an op attribute or a non-empty body
  %0 = gpu.all_reduce add %v {
  ^bb0(%lhs: f32, %rhs: f32):
    gpu.yield %lhs : f32
  } : (f32) -> f32
  func.return
}

// -----

func.func @all_reduce_invalid_kind(%v: f32) {
  // CHECK: invalid op kind
  %0 = gpu.all_reduce addf %v {} : (f32) -> f32
  func.return
}

// -----

func.func @all_reduce_int_kind_on_float(%v: f32) {
  // CHECK: `and` reduction operation is not compatible with type 'f32'
  %0 = gpu.all_reduce and %v {} : (f32) -> f32
  func.return
}

// -----

func.func @all_reduce_float_kind_on_int(%v: i32) {
  // CHECK: `maxnumf` reduction operation is not compatible with type 'i32'
  %0 = gpu.all_reduce maxnumf %v {} : (i32) -> i32
  func.return
}

// -----

func.func @all_reduce_vector(%v: vector<4xf32>) {
  // CHECK: must be Integer or Float, but got 'vector<4xf32>'
  %0 = gpu.all_reduce add %v {} : (vector<4xf32>) -> vector<4xf32>
  func.return
}

// -----

func.func @all_reduce_result_type(%v: f32) {
  // CHECK: requires the same type for all operands and results
  %0 = gpu.all_reduce add %v {} : (f32) -> f16
  func.return
}

// -----

func.func @all_reduce_one_region_argument(%v: f32) {
  // CHECK: expected two region arguments
  %0 = gpu.all_reduce %v {
  ^bb0(%lhs: f32):
    gpu.yield %lhs : f32
  } : (f32) -> f32
  func.return
}

// -----

func.func @all_reduce_region_argument_type(%v: f32) {
  // CHECK: incorrect region argument type
  %0 = gpu.all_reduce %v {
  ^bb0(%lhs: f32, %rhs: i32):
    gpu.yield %lhs : f32
  } : (f32) -> f32
  func.return
}

// -----

func.func @all_reduce_two_yielded_values(%v: f32) {
  // CHECK: expected one gpu.yield operand
  %0 = gpu.all_reduce %v {
  ^bb0(%lhs: f32, %rhs: f32):
    gpu.yield %lhs, %rhs : f32, f32
  } : (f32) -> f32
  func.return
}

// -----

func.func @all_reduce_yield_type(%v: f32) {
  // CHECK: incorrect gpu.yield type
  %0 = gpu.all_reduce %v {
  ^bb0(%lhs: f32, %rhs: f32):
    %one = arith.constant 1 : i32
    gpu.yield %one : i32
  } : (f32) -> f32
  func.return
}

// -----

func.func @all_reduce_no_yield(%v: f32) {
  // CHECK: expected gpu.yield op in region
  %0 = gpu.all_reduce %v {
  ^bb0(%lhs: f32, %rhs: f32):
    llvm.unreachable
  } : (f32) -> f32
  func.return
}

// ===--- subgroup_reduce ---=== //

// -----

func.func @subgroup_reduce_int_kind_on_float(%v: f32) {
  // CHECK: `xor` reduction operation is not compatible with type 'f32'
  %0 = gpu.subgroup_reduce xor %v : (f32) -> f32
  func.return
}

// -----

func.func @subgroup_reduce_float_kind_on_int_vector(%v: vector<4xi32>) {
  // CHECK: `minimumf` reduction operation is not compatible with type 'vector<4xi32>'
  %0 = gpu.subgroup_reduce minimumf %v : (vector<4xi32>) -> vector<4xi32>
  func.return
}

// -----

func.func @subgroup_reduce_scalable_vector(%v: vector<[4]xf32>) {
  // CHECK: must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'vector<[4]xf32>'
  %0 = gpu.subgroup_reduce add %v : (vector<[4]xf32>) -> vector<[4]xf32>
  func.return
}

// -----

func.func @subgroup_reduce_2d_vector(%v: vector<2x2xf32>) {
  // CHECK: must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'vector<2x2xf32>'
  %0 = gpu.subgroup_reduce add %v : (vector<2x2xf32>) -> vector<2x2xf32>
  func.return
}

// -----

func.func @subgroup_reduce_result_type(%v: f32) {
  // CHECK: requires the same type for all operands and results
  %0 = gpu.subgroup_reduce add %v : (f32) -> f16
  func.return
}

// -----

func.func @subgroup_reduce_cluster_size_3(%v: f32) {
  // CHECK: 'gpu.subgroup_reduce' op cluster size 3 is not a power of two
  %0 = gpu.subgroup_reduce add %v cluster(size = 3) : (f32) -> f32
  func.return
}

// -----

func.func @subgroup_reduce_cluster_size_0(%v: f32) {
  // CHECK: 'gpu.subgroup_reduce' op cluster size 0 is not a power of two
  %0 = gpu.subgroup_reduce add %v cluster(size = 0) : (f32) -> f32
  func.return
}

// -----

// Upstream reads the size as an unsigned 32-bit number.
func.func @subgroup_reduce_negative_cluster_size(%v: f32) {
  // CHECK: 'gpu.subgroup_reduce' op cluster size 4294967292 is not a power of two
  %0 = gpu.subgroup_reduce add %v cluster(size = -4) : (f32) -> f32
  func.return
}

// -----

func.func @subgroup_reduce_cluster_stride_3(%v: f32) {
  // CHECK: 'gpu.subgroup_reduce' op cluster stride 3 is not a power of two
  %0 = gpu.subgroup_reduce add %v cluster(size = 4, stride = 3) : (f32) -> f32
  func.return
}

// -----

func.func @subgroup_reduce_stride_without_size(%v: f32) {
  // CHECK: 'gpu.subgroup_reduce' op cluster stride can only be specified if cluster size is specified
  %0 = "gpu.subgroup_reduce"(%v) <{op = #gpu<all_reduce_op add>, cluster_stride = 2 : i32}> : (f32) -> f32
  func.return
}

// -----

func.func @subgroup_reduce_without_kind(%v: f32) {
  // XDSL: property 'op' expected in operation 'gpu.subgroup_reduce'
  // MLIR: 'gpu.subgroup_reduce' op requires attribute 'op'
  %0 = gpu.subgroup_reduce %v : (f32) -> f32
  func.return
}

// ===--- dynamic_shared_memory ---=== //

// -----

func.func @dynamic_shared_memory_no_address_space() {
  // CHECK: 'gpu.dynamic_shared_memory' op address space must be address_space<workgroup>
  %0 = gpu.dynamic_shared_memory : memref<?xi8>
  func.return
}

// -----

func.func @dynamic_shared_memory_private() {
  // CHECK: 'gpu.dynamic_shared_memory' op address space must be address_space<workgroup>
  %0 = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<private>>
  func.return
}

// -----

func.func @dynamic_shared_memory_static_shape() {
  // CHECK: 'gpu.dynamic_shared_memory' op result memref type must be memref<?xi8, #gpu.address_space<workgroup>>
  %0 = gpu.dynamic_shared_memory : memref<16xi8, #gpu.address_space<workgroup>>
  func.return
}

// -----

func.func @dynamic_shared_memory_f32() {
  // CHECK: must be 1D memref of 8-bit signless integer values, but got 'memref<?xf32, #gpu.address_space<workgroup>>'
  %0 = gpu.dynamic_shared_memory : memref<?xf32, #gpu.address_space<workgroup>>
  func.return
}

// -----

func.func @dynamic_shared_memory_2d() {
  // CHECK: must be 1D memref of 8-bit signless integer values, but got 'memref<?x?xi8, #gpu.address_space<workgroup>>'
  %0 = gpu.dynamic_shared_memory : memref<?x?xi8, #gpu.address_space<workgroup>>
  func.return
}

// ===--- warp_execute_on_lane_0 ---=== //

// -----

func.func @warp_laneid_not_index(%laneid: i32) {
  // CHECK: must be index, but got 'i32'
  "gpu.warp_execute_on_lane_0"(%laneid) <{warp_size = 32 : i64}> ({
    "gpu.yield"() : () -> ()
  }) : (i32) -> ()
  func.return
}

// -----

func.func @warp_block_arguments(%laneid: index, %v: vector<1xf32>) {
  // CHECK: 'gpu.warp_execute_on_lane_0' op expected same number op arguments and block arguments.
  gpu.warp_execute_on_lane_0(%laneid)[32] args(%v : vector<1xf32>) {
    gpu.barrier
  }
  func.return
}

// -----

func.func @warp_yield_count(%laneid: index, %f: f32) {
  // CHECK: 'gpu.warp_execute_on_lane_0' op expected same number of yield operands and return values.
  %0 = gpu.warp_execute_on_lane_0(%laneid)[32] -> (f32) {
    gpu.yield %f, %f : f32, f32
  }
  func.return
}

// -----

func.func @warp_distributed_scalar(%laneid: index, %f: f32) {
  // CHECK: 'gpu.warp_execute_on_lane_0' op expected vector type for distributed operands.
  gpu.warp_execute_on_lane_0(%laneid)[32] args(%f : f32) {
  ^bb0(%arg: f64):
    gpu.barrier
  }
  func.return
}

// -----

func.func @warp_distributed_rank(%laneid: index, %v: vector<1xf32>) {
  // CHECK: 'gpu.warp_execute_on_lane_0' op expected distributed vectors to have same rank and element type.
  gpu.warp_execute_on_lane_0(%laneid)[32] args(%v : vector<1xf32>) {
  ^bb0(%arg: vector<4x8xf32>):
    gpu.barrier
  }
  func.return
}

// -----

func.func @warp_distributed_element_type(%laneid: index, %v: vector<64xf32>) {
  // CHECK: 'gpu.warp_execute_on_lane_0' op expected distributed vectors to have same rank and element type.
  %0 = gpu.warp_execute_on_lane_0(%laneid)[32] -> (vector<2xf16>) {
    gpu.yield %v : vector<64xf32>
  }
  func.return
}

// -----

func.func @warp_distributed_not_a_multiple(%laneid: index, %v: vector<30xf32>) {
  // CHECK: 'gpu.warp_execute_on_lane_0' op expected expanded vector dimension #0 (30) to be a multipler of the distributed vector dimension (4)
  %0 = gpu.warp_execute_on_lane_0(%laneid)[32] -> (vector<4xf32>) {
    gpu.yield %v : vector<30xf32>
  }
  func.return
}

// -----

func.func @warp_distributed_over_wrong_size(%laneid: index, %v: vector<64xf32>) {
  // CHECK: 'gpu.warp_execute_on_lane_0' op incompatible distribution dimensions from 'vector<64xf32>' to 'vector<1xf32>' with warp size = 32
  %0 = gpu.warp_execute_on_lane_0(%laneid)[32] -> (vector<1xf32>) {
    gpu.yield %v : vector<64xf32>
  }
  func.return
}

// -----

func.func @warp_two_blocks(%laneid: index) {
  // XDSL: 'gpu.warp_execute_on_lane_0' does not contain single-block regions
  // MLIR: 'gpu.warp_execute_on_lane_0' op expects region #0 to have 0 or 1 blocks
  gpu.warp_execute_on_lane_0(%laneid)[32] {
    cf.br ^bb1
  ^bb1:
    gpu.yield
  }
  func.return
}

// -----

func.func @rotate_result_of_other_type(%v: i32) {
  %r, %ok = "gpu.rotate"(%v) <{offset = 1 : i32, width = 16 : i32}> : (i32) -> (f32, i1)
  func.return
}

// CHECK: 'gpu.rotate' op failed to verify that all of {value, rotateResult} have same type

// -----

gpu.module @dynamic_shared_i16 {
  gpu.func @k() kernel {
    %0 = gpu.dynamic_shared_memory : memref<?xi16, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// CHECK: must be 1D memref of 8-bit signless integer values, but got 'memref<?xi16, #gpu.address_space<workgroup>>'
