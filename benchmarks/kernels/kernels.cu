// The kernels of simple_mul.mlir and matmul.mlir in CUDA, index arithmetic in 64 bits
// as the MLIR lowering does it (index-bitwidth=64), for `nvcc -O3`.

extern "C" __global__ void simple_mul(const float *a, const float *b, float *c, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] * b[i];
}

// The seed's arguments: row = s3 * tid.x + s4 + s0 * bid.x + s1, column likewise with
// s2 and the y ids; acc starts at init and runs over k = s1, s1 + s3, ... < n.
extern "C" __global__ void test_parallel_kernel(long s0, long s1, long s2, long s3, long s4,
                                                const float *a, const float *b, long n,
                                                float init, float *c) {
  long row = s3 * (long)threadIdx.x + s4 + (s0 * (long)blockIdx.x + s1);
  long col = s3 * (long)threadIdx.y + s4 + (s2 * (long)blockIdx.y + s1);
  float acc = init;
  for (long k = s1; k < n; k += s3) acc += a[row * 1024 + k] * b[k * 256 + col];
  c[row * 256 + col] = acc;
}
