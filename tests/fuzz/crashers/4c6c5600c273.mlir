// PIPELINE: canonicalize
// FOUND: InternalParseError: AssertionError at linalg/abstract_ops.py:body_arg_types
func.func @f(%a: memref<2x3xindex>, %b: memref<3x2xindex>, %c: memref<2x2xi32>) {
  linalg.matmul ins(%a, %b : memref<2x3xindex>, memref<3x2xindex>) outs(%c : memref<2x2xi32>)
  return
}
