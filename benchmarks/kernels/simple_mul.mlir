// simple_mul of seed 000 (IREE's custom dispatch sample) as gpu-dialect IR:
// c[i] = a[i] * b[i] for i < n, one element per thread, on 2^28 floats. The shape is
// static because upstream's bare-pointer kernel convention refuses dynamic ones.
// kernels.cu beside this file has the same kernel in CUDA for nvcc.
module attributes {gpu.container_module} {
  gpu.module @simple_mul_kernels {
    gpu.func @simple_mul(%a: memref<268435456xf32>, %b: memref<268435456xf32>, %c: memref<268435456xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %x = memref.load %a[%i] : memref<268435456xf32>
        %y = memref.load %b[%i] : memref<268435456xf32>
        %p = arith.mulf %x, %y : f32
        memref.store %p, %c[%i] : memref<268435456xf32>
      }
      gpu.return
    }
  }
}
