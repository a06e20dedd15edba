// Hand-written CUDA kernels called from example.mlir (seed 000: IREE's custom CUDA
// dispatch sample, kernel unchanged). Build them without nvcc:
//   xdsl-gpu-nvrtc kernels.cu -arch=sm_80,sm_90 --emit=ptx,cubin -o build
// which writes build/kernels_sm_80.{ptx,cubin} and build/kernels_sm_90.{ptx,cubin}.

extern "C" __global__ void simple_mul(const float* __restrict__ binding0,
                                      const float* __restrict__ binding1,
                                      float* __restrict__ binding2, int dim) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  if (tid < dim) binding2[tid] = binding0[tid] * binding1[tid];
}
