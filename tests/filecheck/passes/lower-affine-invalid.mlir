// RUN: xdsl-opt --xdsl-gpu %s -p lower-affine --split-input-file --verify-diagnostics | filecheck %s
// RUN: not xdsl-opt --xdsl-gpu %s -p lower-affine 2>&1 | filecheck %s --check-prefix=EXIT

// EXIT-NOT:  Traceback
// EXIT:      {{.*}}.mlir:{{[0-9]+:[0-9]+}}: error: lower-affine: 'affine.apply' op in @negative_divisor has a map where mod by non-positive value -4 is not supported
// EXIT-NOT:  Traceback

func.func @negative_divisor(%a: index) -> index {
  %0 = affine.apply affine_map<(d0) -> (d0 mod -4)>(%a)
  func.return %0 : index
}
// CHECK: lower-affine: 'affine.apply' op in @negative_divisor has a map where mod by non-positive value -4 is not supported

// -----

func.func @vector_load(%m: memref<8xf32>, %i: index) -> vector<4xf32> {
  %v = "affine.vector_load"(%m, %i) <{map = affine_map<(d0) -> (d0)>}> : (memref<8xf32>, index) -> vector<4xf32>
  func.return %v : vector<4xf32>
}
// CHECK: lower-affine: 'affine.vector_load' op in @vector_load is not lowered by xdsl-gpu yet (upstream makes it a vector.load/vector.store); rewrite it as affine.load/affine.store of scalars

// -----

func.func @reduction(%m: memref<8xf32>) {
  "affine.parallel"() <{lowerBoundsMap = affine_map<() -> (0)>, lowerBoundsGroups = dense<1> : vector<1xi32>, upperBoundsMap = affine_map<() -> (8)>, upperBoundsGroups = dense<1> : vector<1xi32>, steps = [1 : i64], reductions = ["addf"]}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  func.return
}
// CHECK: lower-affine: 'affine.parallel' op in @reduction with reductions is not lowered by xdsl-gpu yet (upstream makes scf.parallel with scf.reduce); accumulate in an affine.for instead
