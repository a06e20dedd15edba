// PIPELINE: gpu-lower-to-nvvm-pipeline{cubin-format=isa}
// FOUND: InternalVerifyError: InternalVerifyError at utils/diagnostic.py:raise_exception
    memref.store %r, %out[%c0] : memref<1xf32>
gpu.module @all_reduce {
  gpu.func @sum(%v: f32, %out: memref<1xf32>) kernel {
    %r = gpu.all_reduce add %v uniform {} : (f32) -> f32
    %c0 = arith.constant 0 : index
    gpu.return
  }
}
