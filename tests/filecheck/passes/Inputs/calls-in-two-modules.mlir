// Calls (cf.assert, gpu.printf) in two kernels: LLVM numbers call sequences per
// target machine, so the PTX of @second must not depend on @first having been
// compiled first in the same process (tests/passes/test_parallel_device_lowering.py).
module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @first(%out: memref<8xf32>, %c: i1) kernel {
      %i = gpu.thread_id x
      cf.assert %c, "device"
      %v = arith.constant 1.0 : f32
      %w = math.exp %v : f32
      memref.store %w, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @second(%out: memref<8xf32>, %c: i1) kernel {
      cf.assert %c, "device2"
      gpu.printf "hi %d\n", %c : i1
      gpu.return
    }
  }
  func.func @main(%m: memref<8xf32>, %c: i1) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    cf.assert %c, "host"
    %x = arith.constant 2.0 : f32
    %y = math.exp %x : f32
    gpu.launch_func @first::@first blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%m : memref<8xf32>, %c : i1)
    gpu.launch_func @second::@second blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%m : memref<8xf32>, %c : i1)
    func.return
  }
}
