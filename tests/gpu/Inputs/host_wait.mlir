// gpu.wait in all its forms: `gpu.wait`, `gpu.wait async`, `gpu.wait [%t]`,
// `gpu.wait async [%a, %b]` joining two streams, and a gpu.launch_func with two
// dependencies (sum = 2x + (y + 1), diff = 2x - (y + 1)). tests/gpu/test_host_runtime_ops.py runs it.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale_add(%v: memref<4096xf32>, %s: f32, %t: f32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %v[%i] : memref<4096xf32>
      %m = arith.mulf %x, %s : f32
      %r = arith.addf %m, %t : f32
      memref.store %r, %v[%i] : memref<4096xf32>
      gpu.return
    }
    gpu.func @combine(%a: memref<4096xf32>, %b: memref<4096xf32>, %out: memref<4096xf32>, %s: f32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %a[%i] : memref<4096xf32>
      %y = memref.load %b[%i] : memref<4096xf32>
      %m = arith.mulf %y, %s : f32
      %r = arith.addf %x, %m : f32
      memref.store %r, %out[%i] : memref<4096xf32>
      gpu.return
    }
  }
  func.func @waits(%x: memref<4096xf32>, %y: memref<4096xf32>, %sum: memref<4096xf32>, %diff: memref<4096xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %minus_one = arith.constant -1.0 : f32
    %nan = arith.constant 0x7FC00000 : f32
    gpu.wait
    %s = gpu.alloc () : memref<4096xf32>
    %d = gpu.alloc () : memref<4096xf32>
    gpu.memset %s, %nan : memref<4096xf32>, f32
    gpu.memset %d, %nan : memref<4096xf32>, f32
    %a0 = gpu.wait async
    %a, %a1 = gpu.alloc async [%a0] () : memref<4096xf32>
    %a2 = gpu.memcpy async [%a1] %a, %x : memref<4096xf32>, memref<4096xf32>
    %a3 = gpu.launch_func async [%a2] @kernels::@scale_add blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<4096xf32>, %two : f32, %zero : f32)
    %b0 = gpu.wait async
    %b, %b1 = gpu.alloc async [%b0] () : memref<4096xf32>
    %b2 = gpu.memcpy async [%b1] %b, %y : memref<4096xf32>, memref<4096xf32>
    %b3 = gpu.launch_func async [%b2] @kernels::@scale_add blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1) args(%b : memref<4096xf32>, %one : f32, %one : f32)
    %l = gpu.launch_func async [%a3, %b3] @kernels::@combine blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<4096xf32>, %b : memref<4096xf32>, %s : memref<4096xf32>, %one : f32)
    %j = gpu.wait async [%a3, %b3]
    %j1 = gpu.launch_func async [%j] @kernels::@combine blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<4096xf32>, %b : memref<4096xf32>, %d : memref<4096xf32>, %minus_one : f32)
    gpu.wait [%l]
    %j2 = gpu.memcpy async [%j1] %diff, %d : memref<4096xf32>, memref<4096xf32>
    gpu.wait [%j2]
    gpu.memcpy %sum, %s : memref<4096xf32>, memref<4096xf32>
    gpu.dealloc %a : memref<4096xf32>
    gpu.dealloc %b : memref<4096xf32>
    gpu.dealloc %s : memref<4096xf32>
    gpu.dealloc %d : memref<4096xf32>
    return
  }
}
