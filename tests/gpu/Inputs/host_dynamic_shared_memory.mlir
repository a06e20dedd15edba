// Kernels launched with dynamic_shared_memory_size > 0 (gpu.launch and
// gpu.launch_func): each block reverses its 256 elements. tests/gpu/test_host_runtime_ops.py runs it.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reverse(%in: memref<?xf32>, %out: memref<?xf32>, %shift: index) kernel {
      %c255 = arith.constant 255 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %shm = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %buf = memref.view %shm[%shift][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
      %v = memref.load %in[%i] : memref<?xf32>
      memref.store %v, %buf[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %j = arith.subi %c255, %tid : index
      %w = memref.load %buf[%j] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%i] : memref<?xf32>
      gpu.return
    }
  }
  // Each block of 256 threads reverses its 256 elements through dynamic shared
  // memory: the last 1 KiB of %smem bytes, so that all of them must exist.
  func.func @reverse_launch(%x: memref<?xf32>, %y: memref<?xf32>, %smem: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c255 = arith.constant 255 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %blocks = arith.divui %n, %c256 : index
    %bytes = arith.index_cast %smem : i32 to index
    %shift = arith.subi %bytes, %c1024 : index
    %in = gpu.alloc (%n) : memref<?xf32>
    %out = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %in, %x : memref<?xf32>, memref<?xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem {
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %shm = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %buf = memref.view %shm[%shift][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
      %v = memref.load %in[%i] : memref<?xf32>
      memref.store %v, %buf[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %j = arith.subi %c255, %tx : index
      %w = memref.load %buf[%j] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%i] : memref<?xf32>
      gpu.terminator
    }
    gpu.memcpy %y, %out : memref<?xf32>, memref<?xf32>
    gpu.dealloc %in : memref<?xf32>
    gpu.dealloc %out : memref<?xf32>
    return
  }
  func.func @reverse_func(%x: memref<?xf32>, %y: memref<?xf32>, %smem: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %blocks = arith.divui %n, %c256 : index
    %bytes = arith.index_cast %smem : i32 to index
    %shift = arith.subi %bytes, %c1024 : index
    %t0 = gpu.wait async
    %in, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %out, %t2 = gpu.alloc async [%t1] (%n) : memref<?xf32>
    %t3 = gpu.memcpy async [%t2] %in, %x : memref<?xf32>, memref<?xf32>
    %t4 = gpu.launch_func async [%t3] @kernels::@reverse blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1) dynamic_shared_memory_size %smem args(%in : memref<?xf32>, %out : memref<?xf32>, %shift : index)
    %t5 = gpu.memcpy async [%t4] %y, %out : memref<?xf32>, memref<?xf32>
    %t6 = gpu.dealloc async [%t5] %in : memref<?xf32>
    %t7 = gpu.dealloc async [%t6] %out : memref<?xf32>
    gpu.wait [%t7]
    return
  }
}
