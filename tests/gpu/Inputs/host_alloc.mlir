// gpu.alloc (sync, async with a dependency, host_shared) and gpu.dealloc (sync, async,
// and of a memref the caller passes back). tests/gpu/test_host_runtime_ops.py runs it.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @affine(%src: memref<1024xf32>, %dst: memref<1024xf32>, %a: f32, %b: f32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %src[%i] : memref<1024xf32>
      %m = arith.mulf %v, %a : f32
      %r = arith.addf %m, %b : f32
      memref.store %r, %dst[%i] : memref<1024xf32>
      gpu.return
    }
  }
  // A synchronous allocation (filled from %x), an asynchronous one with a
  // dependency (y = 2x + 1) and a host_shared one that the host reads directly
  // (z = 3x); each freed again, synchronously or asynchronously.
  func.func @allocs(%x: memref<1024xf32>, %y: memref<1024xf32>, %z: memref<1024xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %three = arith.constant 3.0 : f32
    %a = gpu.alloc () : memref<1024xf32>
    gpu.memcpy %a, %x : memref<1024xf32>, memref<1024xf32>
    %t0 = gpu.wait async
    %b, %t1 = gpu.alloc async [%t0] () : memref<1024xf32>
    %t2 = gpu.launch_func async [%t1] @kernels::@affine blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<1024xf32>, %b : memref<1024xf32>, %two : f32, %one : f32)
    %t3 = gpu.memcpy async [%t2] %y, %b : memref<1024xf32>, memref<1024xf32>
    %t4 = gpu.dealloc async [%t3] %b : memref<1024xf32>
    gpu.wait [%t4]
    %s = gpu.alloc host_shared () : memref<1024xf32>
    gpu.launch_func @kernels::@affine blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<1024xf32>, %s : memref<1024xf32>, %three : f32, %zero : f32)
    scf.for %i = %c0 to %c1024 step %c1 {
      %v = memref.load %s[%i] : memref<1024xf32>
      memref.store %v, %z[%i] : memref<1024xf32>
    }
    gpu.dealloc %s : memref<1024xf32>
    gpu.dealloc %a : memref<1024xf32>
    return
  }
  // host_shared memory that outlives the call: the caller frees it with @release.
  func.func @make_shared(%n: index, %start: f32) -> memref<?xf32> {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c127 = arith.constant 127 : index
    %m = gpu.alloc host_shared (%n) : memref<?xf32>
    %n127 = arith.addi %n, %c127 : index
    %blocks = arith.divui %n127, %c128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %i32 = arith.index_cast %i : index to i32
        %f = arith.sitofp %i32 : i32 to f32
        %v = arith.addf %f, %start : f32
        memref.store %v, %m[%i] : memref<?xf32>
      }
      gpu.terminator
    }
    return %m : memref<?xf32>
  }
  func.func @release(%m: memref<?xf32>) {
    gpu.dealloc %m : memref<?xf32>
    return
  }
}
