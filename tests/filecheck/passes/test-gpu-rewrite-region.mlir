// RUN: xdsl-opt %s -p test-gpu-rewrite | filecheck %s

// A reduction region is cloned at each combination: a branch into the clone, its
// gpu.yield a branch to a block that takes the value. MLIR 22's greedy driver then
// merges that block with the else block (both only branch on), which this pass does
// not: the blocks are laid out differently, the computation is the same.
// CHECK-LABEL: gpu.func @region(
// CHECK-SAME: %[[X:.*]]: i32, %{{.*}}: memref<i32>) workgroup(%{{.*}} : memref<32xi32, #gpu.address_space<workgroup>>) kernel
// CHECK: ^bb1:
// CHECK: %[[S:.*]], %[[V:.*]] = gpu.shuffle xor %[[X]], %{{.*}}, %{{.*}} : i32
// CHECK: cf.cond_br %[[V]], ^bb2, ^bb5
// CHECK: ^bb2:
// CHECK-NEXT: cf.br ^bb3
// CHECK: ^bb3:
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[X]], %[[S]] : i32
// CHECK-NEXT: cf.br ^bb4(%[[M]] : i32)
// CHECK: ^bb4(%[[A:.*]]: i32):
// CHECK-NEXT: cf.br ^bb6(%[[A]] : i32)
// CHECK: ^bb5:
// CHECK-NEXT: cf.br ^bb6(%[[X]] : i32)
// CHECK-NOT: gpu.all_reduce
// CHECK-NOT: gpu.yield
gpu.module @kernels {
  gpu.func @region(%x: i32, %out: memref<i32>) kernel {
    %r = gpu.all_reduce %x uniform {
    ^bb0(%a: i32, %b: i32):
      %m = arith.muli %a, %b : i32
      gpu.yield %m : i32
    } : (i32) -> (i32)
    memref.store %r, %out[] : memref<i32>
    gpu.return
  }
}
