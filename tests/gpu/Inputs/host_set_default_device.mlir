// gpu.set_default_device, then allocate, copy and launch on it (y = x * x).
// tests/gpu/test_host_runtime_ops.py runs it.
module {
  func.func @on_device(%dev: i32, %x: memref<256xf32>, %y: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.set_default_device %dev
    %d = gpu.alloc () : memref<256xf32>
    gpu.memcpy %d, %x : memref<256xf32>, memref<256xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %v = memref.load %d[%tx] : memref<256xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %d[%tx] : memref<256xf32>
      gpu.terminator
    }
    gpu.memcpy %y, %d : memref<256xf32>, memref<256xf32>
    gpu.dealloc %d : memref<256xf32>
    return
  }
}
