// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void --print-host-llvm | filecheck %s --check-prefix=COMPILE
// RUN: xdsl-opt %s -p 'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=fatbin}' | xdsl-gpu-run - -e main --entry-point-result=void | filecheck %s
// REQUIRES: gpu

// A cluster launch (sm_90): 8 CTAs in clusters of 2x2 (gpu.launch clusters(...) ->
// mgpuLaunchClusterKernel -> cuLaunchKernelEx with the cluster-dimension attribute),
// each with 64 KiB of dynamic shared memory (more than the 48 KiB a kernel gets
// without opting in with CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES). Thread 0
// of CTA (x, y) writes row 4 y + x: its cluster's id (x, y), its rank in the cluster
// (x, y), the cluster's shape in CTAs, and the CTA's number read back from the last
// word of its dynamic shared memory.

// COMPILE: call void @mgpuLaunchClusterKernel(ptr %{{.*}}, i64 2, i64 2, i64 1, i64 4, i64 2, i64 1, i64 32, i64 1, i64 1, i32 65536,

module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %smem = arith.constant 65536 : i32
    %d_out = gpu.alloc () : memref<8x7xf32>
    gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c2, %ncy = %c2, %ncz = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem {
      %k0 = arith.constant 0 : index
      %k4 = arith.constant 4 : index
      %first = arith.cmpi eq, %tx, %k0 : index
      scf.if %first {
        %row4 = arith.muli %by, %k4 : index
        %block = arith.addi %row4, %bx : index
        %cid_x = gpu.cluster_id x
        %cid_y = gpu.cluster_id y
        %rank_x = gpu.cluster_block_id x
        %rank_y = gpu.cluster_block_id y
        %dim_x = gpu.cluster_dim_blocks x
        %dim_y = gpu.cluster_dim_blocks y
        // The last word of the 64 KiB of dynamic shared memory: the launch works
        // only if the kernel was opted in to more than 48 KiB.
        %shared = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
        %words = memref.view %shared[%k0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16384xf32, #gpu.address_space<workgroup>>
        %blocki = arith.index_cast %block : index to i32
        %blockf = arith.sitofp %blocki : i32 to f32
        %k16383 = arith.constant 16383 : index
        memref.store %blockf, %words[%k16383] : memref<16384xf32, #gpu.address_space<workgroup>>
        %back = memref.load %words[%k16383] : memref<16384xf32, #gpu.address_space<workgroup>>
        %col0 = arith.constant 0 : index
        %col1 = arith.constant 1 : index
        %col2 = arith.constant 2 : index
        %col3 = arith.constant 3 : index
        %col4 = arith.constant 4 : index
        %col5 = arith.constant 5 : index
        %col6 = arith.constant 6 : index
        %f0 = func.call @as_f32(%cid_x) : (index) -> f32
        memref.store %f0, %d_out[%block, %col0] : memref<8x7xf32>
        %f1 = func.call @as_f32(%cid_y) : (index) -> f32
        memref.store %f1, %d_out[%block, %col1] : memref<8x7xf32>
        %f2 = func.call @as_f32(%rank_x) : (index) -> f32
        memref.store %f2, %d_out[%block, %col2] : memref<8x7xf32>
        %f3 = func.call @as_f32(%rank_y) : (index) -> f32
        memref.store %f3, %d_out[%block, %col3] : memref<8x7xf32>
        %f4 = func.call @as_f32(%dim_x) : (index) -> f32
        memref.store %f4, %d_out[%block, %col4] : memref<8x7xf32>
        %f5 = func.call @as_f32(%dim_y) : (index) -> f32
        memref.store %f5, %d_out[%block, %col5] : memref<8x7xf32>
        memref.store %back, %d_out[%block, %col6] : memref<8x7xf32>
      }
      gpu.terminator
    }
    %out = memref.alloc() : memref<8x7xf32>
    gpu.memcpy %out, %d_out : memref<8x7xf32>, memref<8x7xf32>
    %p = memref.cast %out : memref<8x7xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
  func.func @as_f32(%v: index) -> f32 {
    %i = arith.index_cast %v : index to i32
    %f = arith.sitofp %i : i32 to f32
    return %f : f32
  }
  func.func private @printMemrefF32(memref<*xf32>)
}

// CHECK: Unranked Memref base@ = {{0x[0-9a-f]+}} rank = 2 offset = 0 sizes = [8, 7] strides = [7, 1] data =
// CHECK-NEXT: {{\[\[}}0,   0,   0,   0,   2,   2,   0],
// CHECK-NEXT:  [0,   0,   1,   0,   2,   2,   1],
// CHECK-NEXT:  [1,   0,   0,   0,   2,   2,   2],
// CHECK-NEXT:  [1,   0,   1,   0,   2,   2,   3],
// CHECK-NEXT:  [0,   0,   0,   1,   2,   2,   4],
// CHECK-NEXT:  [0,   0,   1,   1,   2,   2,   5],
// CHECK-NEXT:  [1,   0,   0,   1,   2,   2,   6],
// CHECK-NEXT:  [1,   0,   1,   1,   2,   2,   7]]
