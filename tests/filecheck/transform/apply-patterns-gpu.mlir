// RUN: xdsl-opt %s --transform-interpreter | filecheck %s

// gpu_rewrite_patterns: global_id becomes thread_id + block_id * block_dim, an
// all_reduce becomes shuffles in a workgroup buffer; canonicalization folds.

// CHECK-LABEL: func.func @ids
// CHECK-DAG:     %[[BID:.*]] = gpu.block_id x
// CHECK-DAG:     %[[BDIM:.*]] = gpu.block_dim x
// CHECK-DAG:     %[[MUL:.*]] = {{arith.muli|index.mul}} %[[BID]], %[[BDIM]]
// CHECK-DAG:     %[[TID:.*]] = gpu.thread_id x
// CHECK:         %[[ADD:.*]] = {{arith.addi|index.add}} %[[TID]], %[[MUL]]
// CHECK:         return %[[ADD]]
// CHECK-NOT:   gpu.global_id
func.func @ids() -> index {
  %g = gpu.global_id x
  return %g : index
}

// CHECK-LABEL: gpu.func @reduce
// CHECK-NOT:     gpu.all_reduce
// CHECK:         gpu.shuffle xor
// CHECK:         gpu.barrier
gpu.module @kernels {
  gpu.func @reduce(%x: f32, %out: memref<f32>) workgroup(%buf: memref<32xf32, #gpu.address_space<workgroup>>) kernel {
    %r = gpu.all_reduce add %x uniform {} : (f32) -> f32
    memref.store %r, %out[] : memref<f32>
    gpu.return
  }
}

// CHECK-LABEL: func.func @folded
// CHECK-NEXT:    %[[C:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    return %[[C]]
func.func @folded() -> i32 {
  %a = arith.constant 2 : i32
  %b = arith.constant 3 : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func", "gpu.module"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gpu.gpu_rewrite_patterns
      transform.apply_patterns.canonicalization
    } {apply_cse} : !transform.any_op
    transform.yield
  }
}
