// RUN: xdsl-opt %s --transform-interpreter | filecheck %s

// gpu.eliminate_barriers: a barrier stays only where accesses on its two sides may
// conflict (write/read or write/write of possibly the same memory).

// CHECK-LABEL: gpu.func @reads_then_write
gpu.module @m {
  gpu.func @reads_then_write(%a: memref<64xf32>, %i: index) kernel {
    // CHECK: memref.load
    %x = memref.load %a[%i] : memref<64xf32>
    // Only reads on both sides: erased.
    // CHECK-NOT: gpu.barrier
    gpu.barrier
    // CHECK: memref.load
    %y = memref.load %a[%i] : memref<64xf32>
    %s = arith.addf %x, %y : f32
    // A read before, a write after: kept.
    // CHECK: gpu.barrier
    gpu.barrier
    // CHECK: memref.store
    memref.store %s, %a[%i] : memref<64xf32>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @distinct_buffers
  gpu.func @distinct_buffers(%arg: memref<8xf32>, %i: index, %v: f32) kernel {
    %p = memref.alloca() : memref<8xf32>
    %q = memref.alloca() : memref<8xf32>
    memref.store %v, %p[%i] : memref<8xf32>
    // Two allocations never alias, nor an allocation and an argument: erased.
    // CHECK-NOT: gpu.barrier
    gpu.barrier
    memref.store %v, %q[%i] : memref<8xf32>
    %w = memref.load %arg[%i] : memref<8xf32>
    // CHECK: gpu.return
    gpu.return
  }

  // CHECK-LABEL: gpu.func @loop_carried
  gpu.func @loop_carried(%a: memref<64xf32>, %v: f32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // CHECK: scf.for
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %v, %a[%i] : memref<64xf32>
      // The next iteration's store follows it: kept.
      // CHECK: gpu.barrier
      gpu.barrier
    }
    gpu.return
  }

  // CHECK-LABEL: gpu.func @only_barriers
  gpu.func @only_barriers() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // Nothing to order: the barrier goes, and with it the loop.
    // CHECK-NOT: scf.for
    // CHECK-NOT: gpu.barrier
    scf.for %i = %c0 to %c8 step %c1 {
      gpu.barrier
    }
    // CHECK: gpu.return
    gpu.return
  }

  // CHECK-LABEL: gpu.func @unknown_effects
  gpu.func @unknown_effects(%a: memref<64xf32>, %i: index, %v: f32) kernel {
    memref.store %v, %a[%i] : memref<64xf32>
    // An op of unknown effects after it: kept.
    // CHECK: gpu.barrier
    gpu.barrier
    func.call @opaque() : () -> ()
    gpu.return
  }
  func.func private @opaque()
}

// A function is a boundary: nothing before the first barrier.
// CHECK-LABEL: func.func @at_entry
// CHECK-NOT: gpu.barrier
func.func @at_entry(%a: memref<64xf32>, %i: index) -> f32 {
  gpu.barrier
  %x = memref.load %a[%i] : memref<64xf32>
  return %x : f32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["gpu.func", "func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gpu.eliminate_barriers
    } : !transform.any_op
    transform.yield
  }
}
