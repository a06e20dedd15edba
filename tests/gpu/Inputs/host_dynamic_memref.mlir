// A memref<?xf32> allocated, copied, computed on (y = x * s) and set (z = fill),
// sync and async. tests/gpu/test_host_runtime_ops.py runs it.
module {
  func.func @dynamic(%x: memref<?xf32>, %y: memref<?xf32>, %z: memref<?xf32>, %s: f32, %fill: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c255 = arith.constant 255 : index
    %c256 = arith.constant 256 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %n255 = arith.addi %n, %c255 : index
    %blocks = arith.divui %n255, %c256 : index
    %d = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %d, %x : memref<?xf32>, memref<?xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %d[%i] : memref<?xf32>
        %w = arith.mulf %v, %s : f32
        memref.store %w, %d[%i] : memref<?xf32>
      }
      gpu.terminator
    }
    gpu.memcpy %y, %d : memref<?xf32>, memref<?xf32>
    %t0 = gpu.wait async
    %e, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t2 = gpu.memset async [%t1] %e, %fill : memref<?xf32>, f32
    %t3 = gpu.memcpy async [%t2] %z, %e : memref<?xf32>, memref<?xf32>
    %t4 = gpu.dealloc async [%t3] %e : memref<?xf32>
    gpu.wait [%t4]
    gpu.dealloc %d : memref<?xf32>
    return
  }
}
