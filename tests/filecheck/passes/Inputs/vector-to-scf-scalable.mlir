// A transfer with a scalable leading dim, which
// convert-vector-to-scf{lower-scalable=true} does not lower in xdsl-gpu
// (convert-vector-to-scf-options.mlir).
func.func @scalable(%m: memref<?x?xf32>, %i: index) -> vector<[2]x4xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %i], %pad : memref<?x?xf32>, vector<[2]x4xf32>
  return %v : vector<[2]x4xf32>
}
