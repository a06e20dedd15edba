// PIPELINE: gpu-async-region
// FOUND: timeout (a dense splat of 2^31 elements)
func.func @reduction(%m: memref<8xf32>) {
  "affine.parallel"() <{lowerBoundsMap = affine_map<() -> (0)>, lowerBoundsGroups = dense<1> : vector<1xi32>, upperBoundsMap = affine_map<() -> (8)>, upperBoundsGroups = dense<1> : vector<2147483647xi32>, steps = [1 : i64], reductions = ["addf"]}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  func.return
}
// CHECK: lower-affine: 'affine.parallel' op in @reduction with reductions is not lowered by xdsl-gpu yet (upstream makes scf.parallel with scf.reduce); accumulate in an affine.for instead
