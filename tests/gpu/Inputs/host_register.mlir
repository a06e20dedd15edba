// gpu.host_register / gpu.host_unregister of the caller's memory, which a kernel
// reads and writes directly (h = h * s + 1). tests/gpu/test_host_runtime_ops.py runs it.
// (memref.cast is written in generic form: xDSL 0.74's memref.cast has no custom syntax.)
module {
  func.func @registered(%h: memref<64x32xf32>, %s: f32) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %one = arith.constant 1.0 : f32
    %u = "memref.cast"(%h) : (memref<64x32xf32>) -> memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %v = memref.load %h[%bx, %tx] : memref<64x32xf32>
      %m = arith.mulf %v, %s : f32
      %r = arith.addf %m, %one : f32
      memref.store %r, %h[%bx, %tx] : memref<64x32xf32>
      gpu.terminator
    }
    gpu.host_unregister %u : memref<*xf32>
    return
  }
}
