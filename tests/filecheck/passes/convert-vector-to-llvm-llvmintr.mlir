// RUN: xdsl-opt %s -p 'convert-vector-to-llvm{vector-contract-lowering=llvmintr vector-transpose-lowering=llvmintr}' | filecheck %s
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-llvm="vector-contract-lowering=llvmintr vector-transpose-lowering=llvmintr" | filecheck %s %}
// RUN: xdsl-opt %s -p 'convert-vector-to-llvm{vector-transpose-lowering=shuffle1d}' | filecheck %s --check-prefix=SHUFFLE
// RUN: %if mlir-opt %{ mlir-opt %s --convert-vector-to-llvm="vector-transpose-lowering=shuffle1d" | filecheck %s --check-prefix=SHUFFLE %}
// The llvmintr and shuffle1d strategies: a matmul contraction by LLVM's matrix
// multiply on the operands flattened row-major, then the accumulator added; a 2-D
// transpose by the matrix transpose intrinsic or one shuffle of the flattened vector.
// The same lines check mlir-opt-22's output (the flattening itself differs: ours
// goes through vector.shape_cast's lowering). Running them needs LLVM's
// lower-matrix-intrinsics pass: mlir-runner-22 cannot either.

// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:    %{{[^:]*}}: vector<2x3xf32>, %{{[^:]*}}: vector<3x4xf32>, %[[C:[^:]*]]: vector<2x4xf32>)
// CHECK:         %{{.*}} = llvm.intr.matrix.multiply %{{.*}}, %{{.*}} {lhs_columns = 3 : i32, lhs_rows = 2 : i32, rhs_columns = 4 : i32} : (vector<6xf32>, vector<12xf32>) -> vector<8xf32>
// CHECK:         %{{.*}} = arith.addf %[[C]], %{{.*}} : vector<2x4xf32>
func.func @matmul(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// CHECK-LABEL: func.func @transpose(
// CHECK:         %{{.*}} = llvm.intr.matrix.transpose %{{.*}} {columns = 2 : i32, rows = 4 : i32} : vector<8xf32> into vector<8xf32>
// SHUFFLE-LABEL: func.func @transpose(
// SHUFFLE:         %{{.*}} = llvm.shufflevector %[[X:[^,]*]], %[[X]] [0, 4, 1, 5, 2, 6, 3, 7] : vector<8xf32>
func.func @transpose(%a: vector<2x4xf32>) -> vector<4x2xf32> {
  %0 = vector.transpose %a, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
  return %0 : vector<4x2xf32>
}
