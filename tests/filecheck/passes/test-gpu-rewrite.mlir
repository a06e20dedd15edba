// RUN: xdsl-opt %s -p test-gpu-rewrite --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --test-gpu-rewrite --split-input-file | filecheck %s %}

// A kind: each combination is the arith op; a partial warp combines only the valid
// shuffled values. The constants the rewrite creates are unique, at the start of
// the function, the last created first.
// CHECK-LABEL: gpu.func @kind(
// CHECK-SAME: %[[X:.*]]: i32, %[[OUT:.*]]: memref<i32>) workgroup(%[[BUF:.*]] : memref<32xi32, #gpu.address_space<workgroup>>) kernel
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: arith.constant 16 : i32
// CHECK: %[[C31:.*]] = arith.constant 31 : i32
// CHECK-NEXT: gpu.block_dim x
// CHECK: cf.cond_br %{{.*}}, ^bb1, ^bb17
// CHECK: ^bb1:
// CHECK: %[[S:.*]], %[[V:.*]] = gpu.shuffle xor %[[X]], %{{.*}}, %{{.*}} : i32
// CHECK: cf.cond_br %[[V]], ^bb2, ^bb3
// CHECK: ^bb2:
// CHECK: %[[M:.*]] = arith.maxsi %[[X]], %[[S]] : i32
// CHECK: cf.br ^bb4(%[[M]] : i32)
// CHECK: ^bb3:
// CHECK: cf.br ^bb4(%[[X]] : i32)
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: %[[RES:.*]] = memref.load %[[BUF]][%[[C0]]] : memref<32xi32, #gpu.address_space<workgroup>>
// CHECK: memref.store %[[RES]], %[[OUT]][] : memref<i32>
gpu.module @kernels {
  gpu.func @kind(%x: i32, %out: memref<i32>) kernel {
    %r = gpu.all_reduce maxsi %x uniform {} : (i32) -> (i32)
    memref.store %r, %out[] : memref<i32>
    gpu.return
  }
}

// -----

// A function with a non-uniform all_reduce is left as it is (every all_reduce of it).
// CHECK-LABEL: gpu.func @not_uniform
// CHECK-NOT: workgroup(
// CHECK: gpu.all_reduce add %{{.*}} uniform
// CHECK: gpu.all_reduce add %{{.*}} {
gpu.module @kernels {
  gpu.func @not_uniform(%x: f32, %out: memref<f32>) kernel {
    %a = gpu.all_reduce add %x uniform {} : (f32) -> (f32)
    %b = gpu.all_reduce add %a {} : (f32) -> (f32)
    memref.store %b, %out[] : memref<f32>
    gpu.return
  }
}

// -----

// gpu.global_id: thread id + block id * block size, in arith.
// CHECK-LABEL: gpu.func @global_id
// CHECK: %[[B:.*]] = gpu.block_id y
// CHECK: %[[D:.*]] = gpu.block_dim y
// CHECK: %[[O:.*]] = arith.muli %[[B]], %[[D]] : index
// CHECK: %[[T:.*]] = gpu.thread_id y
// CHECK: %[[G:.*]] = arith.addi %[[T]], %[[O]] : index
// CHECK: memref.store %[[G]]
gpu.module @kernels {
  gpu.func @global_id(%out: memref<index>) kernel {
    %g = gpu.global_id y
    memref.store %g, %out[] : memref<index>
    gpu.return
  }
}

// -----

// A 64-bit shuffle: two 32-bit shuffles of the halves, valid where both are; the
// 32 : i64 constant at the start of the function.
// CHECK-LABEL: gpu.func @shuffle64(
// CHECK-SAME: %[[X:.*]]: f64, %[[O:.*]]: i32, %[[W:.*]]: i32
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : i64
// CHECK-NEXT: %[[I:.*]] = arith.bitcast %[[X]] : f64 to i64
// CHECK-NEXT: %[[LO:.*]] = arith.trunci %[[I]] : i64 to i32
// CHECK-NEXT: %[[H64:.*]] = arith.shrui %[[I]], %[[C32]] : i64
// CHECK-NEXT: %[[HI:.*]] = arith.trunci %[[H64]] : i64 to i32
// CHECK-NEXT: %[[S1:.*]], %[[V1:.*]] = gpu.shuffle down %[[LO]], %[[O]], %[[W]] : i32
// CHECK-NEXT: %[[S2:.*]], %[[V2:.*]] = gpu.shuffle down %[[HI]], %[[O]], %[[W]] : i32
// CHECK-NEXT: %[[E1:.*]] = arith.extui %[[S1]] : i32 to i64
// CHECK-NEXT: %[[E2:.*]] = arith.extui %[[S2]] : i32 to i64
// CHECK-NEXT: %[[SH:.*]] = arith.shli %[[E2]], %[[C32]] : i64
// CHECK-NEXT: %[[OR:.*]] = arith.ori %[[SH]], %[[E1]] : i64
// CHECK-NEXT: %[[R:.*]] = arith.bitcast %[[OR]] : i64 to f64
// CHECK-NEXT: %[[V:.*]] = arith.andi %[[V1]], %[[V2]] : i1
// CHECK-NEXT: memref.store %[[R]]
// CHECK-NEXT: memref.store %[[V]]
gpu.module @kernels {
  gpu.func @shuffle64(%x: f64, %o: i32, %w: i32, %out: memref<f64>, %ok: memref<i1>) kernel {
    %s, %v = gpu.shuffle down %x, %o, %w : f64
    memref.store %s, %out[] : memref<f64>
    memref.store %v, %ok[] : memref<i1>
    gpu.return
  }
}
