// A write into a tensor, which convert-vector-to-scf{lower-tensors=true} does not
// lower in xdsl-gpu (convert-vector-to-scf-options.mlir).
func.func @tensor_write(%t: tensor<?x?xf32>, %i: index, %v: vector<2x4xf32>) -> tensor<?x?xf32> {
  %r = vector.transfer_write %v, %t[%i, %i] : vector<2x4xf32>, tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
