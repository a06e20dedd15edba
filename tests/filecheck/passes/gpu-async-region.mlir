// RUN: xdsl-opt %s -p gpu-async-region --split-input-file | filecheck %s

// One token chain: `gpu.wait async` starts it, each gpu op depends on the previous
// token, pure host ops (arith, memref.dim) do not break it, and a `gpu.wait` joins
// it before a call, a host load and the return.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @ext()
  func.func @chain(%h: memref<16xf32>, %c1: index) {
    %d = gpu.alloc () : memref<16xf32>
    gpu.memcpy %d, %h : memref<16xf32>, memref<16xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32>)
    %x = arith.addi %c1, %c1 : index
    func.call @ext() : () -> ()
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32>)
    %v = memref.load %h[%c1] : memref<16xf32>
    gpu.memset %d, %v : memref<16xf32>, f32
    gpu.dealloc %d : memref<16xf32>
    return
  }
}

// CHECK-LABEL: func.func @chain(
// CHECK-SAME:      %[[H:.*]]: memref<16xf32>, %[[C1:.*]]: index) {
// CHECK-NEXT:    %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[D:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] () : memref<16xf32>
// CHECK-NEXT:    %[[T2:.*]] = gpu.memcpy async [%[[T1]]] %[[D]], %[[H]] : memref<16xf32>, memref<16xf32>
// CHECK-NEXT:    %[[T3:.*]] = gpu.launch_func async [%[[T2]]] @kernels::@k blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]) args(%[[D]] : memref<16xf32>)
// CHECK-NEXT:    %{{.*}} = arith.addi
// CHECK-NEXT:    gpu.wait [%[[T3]]]
// CHECK-NEXT:    func.call @ext() : () -> ()
// CHECK-NEXT:    %[[T4:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T5:.*]] = gpu.launch_func async [%[[T4]]] @kernels::@k
// CHECK-NEXT:    gpu.wait [%[[T5]]]
// CHECK-NEXT:    %[[V:.*]] = memref.load
// CHECK-NEXT:    %[[T6:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T7:.*]] = gpu.memset async [%[[T6]]] %[[D]], %[[V]] : memref<16xf32>, f32
// CHECK-NEXT:    %[[T8:.*]] = gpu.dealloc async [%[[T7]]] %[[D]] : memref<16xf32>
// CHECK-NEXT:    gpu.wait [%[[T8]]]
// CHECK-NEXT:    func.return

// -----

// Existing waits and async ops join the chain; each block (nested regions
// included) gets its own chain, synchronized before its terminator.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @blocks(%n: index, %b: i1, %h: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %d = gpu.alloc (%n) : memref<?xf32>
    %t = gpu.wait async
    %t2 = gpu.memcpy async [%t] %d, %h : memref<?xf32>, memref<?xf32>
    gpu.wait
    scf.if %b {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<?xf32>)
    }
    cf.br ^next
  ^next:
    gpu.dealloc %d : memref<?xf32>
    return
  }
}

// CHECK-LABEL: func.func @blocks(
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[D:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%{{.*}}) : memref<?xf32>
// CHECK-NEXT:    %[[T2:.*]] = gpu.wait async [%[[T1]]]
// CHECK-NEXT:    %[[T3:.*]] = gpu.memcpy async [%[[T2]]] %[[D]], %{{.*}}
// CHECK-NEXT:    gpu.wait [%[[T3]]]
// CHECK-NEXT:    scf.if %{{.*}} {
// CHECK-NEXT:      %[[T4:.*]] = gpu.wait async
// CHECK-NEXT:      %[[T5:.*]] = gpu.launch_func async [%[[T4]]] @kernels::@k
// CHECK-NEXT:      gpu.wait [%[[T5]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    cf.br ^[[NEXT:.*]]
// CHECK-NEXT:  ^[[NEXT]]:
// CHECK-NEXT:    %[[T6:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T7:.*]] = gpu.dealloc async [%[[T6]]] %[[D]] : memref<?xf32>
// CHECK-NEXT:    gpu.wait [%[[T7]]]
// CHECK-NEXT:    func.return

// -----

// Unlike mlir-opt 22, a host-shared allocation stays synchronous (gpu-to-llvm
// cannot lower an async one) and does not break the chain.

func.func @host_shared(%n: index) {
  %d = gpu.alloc (%n) : memref<?xf32>
  %s = gpu.alloc host_shared (%n) : memref<?xf32>
  gpu.dealloc %d : memref<?xf32>
  return
}

// CHECK-LABEL: func.func @host_shared(
// CHECK-NEXT:    %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[D:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%{{.*}}) : memref<?xf32>
// CHECK-NEXT:    %{{.*}} = gpu.alloc host_shared (%{{.*}}) : memref<?xf32>
// CHECK-NEXT:    %[[T2:.*]] = gpu.dealloc async [%[[T1]]] %[[D]] : memref<?xf32>
// CHECK-NEXT:    gpu.wait [%[[T2]]]

// -----

// Device functions inside a gpu.module and functions without gpu ops are untouched.

gpu.module @device {
  func.func @in_device(%m: memref<4xf32>) {
    gpu.dealloc %m : memref<4xf32>
    return
  }
}
func.func @host_only(%x: index) -> index {
  %y = arith.addi %x, %x : index
  return %y : index
}

// CHECK-LABEL: func.func @in_device(
// CHECK-NEXT:    gpu.dealloc %{{.*}} : memref<4xf32>
// CHECK-LABEL: func.func @host_only(
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    func.return
