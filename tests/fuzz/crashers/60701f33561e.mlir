// PIPELINE: gpu-lower-to-nvvm-pipeline{cubin-format=isa}
// FOUND: InternalParseError: error at dialects/builtin.py:pack
func.func @f(%v: vector<2xf32>, %w: vector<2xf32>) {
  %0 = vector.shuffle %v, %w [-9223372036854775809, 1] : vector<2xf32>, vector<2xf32>
  return
}
