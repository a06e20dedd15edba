// gpu.memcpy host->device, device->device and device->host, sync and async, with a
// kernel in between (y_sync = 2x, y_async = x + 1). tests/gpu/test_host_runtime_ops.py runs it.
module {
  func.func @copies(%x: memref<64x32xf32>, %y_sync: memref<64x32xf32>, %y_async: memref<64x32xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %nan = arith.constant 0x7FC00000 : f32
    %one = arith.constant 1.0 : f32
    %a = gpu.alloc () : memref<64x32xf32>
    %b = gpu.alloc () : memref<64x32xf32>
    gpu.memset %a, %nan : memref<64x32xf32>, f32
    gpu.memset %b, %nan : memref<64x32xf32>, f32
    gpu.memcpy %a, %x : memref<64x32xf32>, memref<64x32xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %v = memref.load %a[%bx, %tx] : memref<64x32xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%bx, %tx] : memref<64x32xf32>
      gpu.terminator
    }
    gpu.memcpy %b, %a : memref<64x32xf32>, memref<64x32xf32>
    gpu.memcpy %y_sync, %b : memref<64x32xf32>, memref<64x32xf32>
    %t0 = gpu.wait async
    %c, %t1 = gpu.alloc async [%t0] () : memref<64x32xf32>
    %t2 = gpu.memcpy async [%t1] %c, %x : memref<64x32xf32>, memref<64x32xf32>
    %d, %t3 = gpu.alloc async [%t2] () : memref<64x32xf32>
    %t4 = gpu.memset async [%t3] %d, %nan : memref<64x32xf32>, f32
    %t5 = gpu.memcpy async [%t4] %d, %c : memref<64x32xf32>, memref<64x32xf32>
    %t6 = gpu.launch async [%t5] blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %v = memref.load %d[%bx, %tx] : memref<64x32xf32>
      %w = arith.addf %v, %one : f32
      memref.store %w, %d[%bx, %tx] : memref<64x32xf32>
      gpu.terminator
    }
    %t7 = gpu.memcpy async [%t6] %y_async, %d : memref<64x32xf32>, memref<64x32xf32>
    %t8 = gpu.dealloc async [%t7] %c : memref<64x32xf32>
    %t9 = gpu.dealloc async [%t8] %d : memref<64x32xf32>
    gpu.wait [%t9]
    gpu.dealloc %b : memref<64x32xf32>
    gpu.dealloc %a : memref<64x32xf32>
    return
  }
}
