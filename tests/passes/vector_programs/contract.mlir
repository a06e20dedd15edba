// vector.contract beyond the matmul form (run by test_vector_runner.py with each
// vector-contract-lowering strategy): matvec, vecmat, a dot of 1-D vectors, a batched
// matmul, transposed operands and result, two reduction dims, integers, a reduction
// dim of size 1 (the parallelarith form). Values are small integers, exact in f32.
func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
  %x = arith.constant dense<[1.0, -1.0, 2.0]> : vector<3xf32>
  %acc2 = arith.constant dense<[10.0, 20.0]> : vector<2xf32>
  %mv = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %a, %x, %acc2 : vector<2x3xf32>, vector<3xf32> into vector<2xf32>
  vector.print %mv : vector<2xf32>
  %y = arith.constant dense<[2.0, 3.0]> : vector<2xf32>
  %acc3 = arith.constant dense<[1.0, 1.0, 1.0]> : vector<3xf32>
  %vm = vector.contract {indexing_maps = [affine_map<(n, k) -> (k)>, affine_map<(n, k) -> (k, n)>, affine_map<(n, k) -> (n)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %y, %a, %acc3 : vector<2xf32>, vector<2x3xf32> into vector<3xf32>
  vector.print %vm : vector<3xf32>
  %s0 = arith.constant 0.5 : f32
  %dot = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %x, %acc3, %s0 : vector<3xf32>, vector<3xf32> into f32
  vector.print %dot : f32
  %ba = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[0.0, 1.0], [-1.0, 2.0]]]> : vector<2x2x2xf32>
  %bb = arith.constant dense<[[[1.0, 0.0, 2.0], [0.0, 1.0, 1.0]], [[2.0, 2.0, 0.0], [1.0, -1.0, 3.0]]]> : vector<2x2x3xf32>
  %bc = arith.constant dense<0.0> : vector<2x2x3xf32>
  %bmm = vector.contract {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (b, k, j)>, affine_map<(b, i, j, k) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ba, %bb, %bc : vector<2x2x2xf32>, vector<2x2x3xf32> into vector<2x2x3xf32>
  vector.print %bmm : vector<2x2x3xf32>
  // (k, m) x (n, k) -> (n, m)
  %lt = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : vector<3x2xf32>
  %rt = arith.constant dense<[[1.0, 0.0, -1.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]]> : vector<4x3xf32>
  %ct = arith.constant dense<1.0> : vector<4x2xf32>
  %tt = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n, m)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lt, %rt, %ct : vector<3x2xf32>, vector<4x3xf32> into vector<4x2xf32>
  vector.print %tt : vector<4x2xf32>
  // two reduction dims, the right operand transposed: r[i] = sum_{k1,k2} l[i,k1,k2] * q[k2,k1]
  %l3 = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]]> : vector<2x2x3xf32>
  %q = arith.constant dense<[[1.0, 2.0], [0.0, 1.0], [-1.0, 1.0]]> : vector<3x2xf32>
  %two = vector.contract {indexing_maps = [affine_map<(i, k1, k2) -> (i, k1, k2)>, affine_map<(i, k1, k2) -> (k2, k1)>, affine_map<(i, k1, k2) -> (i)>], iterator_types = ["parallel", "reduction", "reduction"], kind = #vector.kind<add>} %l3, %q, %acc2 : vector<2x2x3xf32>, vector<3x2xf32> into vector<2xf32>
  vector.print %two : vector<2xf32>
  // integers, matmul
  %ia = arith.constant dense<[[1, 2], [3, 4], [5, 6]]> : vector<3x2xi32>
  %ib = arith.constant dense<[[1, -1, 2, 0], [3, 1, 0, 2]]> : vector<2x4xi32>
  %ic = arith.constant dense<100> : vector<3x4xi32>
  %im = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ia, %ib, %ic : vector<3x2xi32>, vector<2x4xi32> into vector<3x4xi32>
  vector.print %im : vector<3x4xi32>
  // a reduction dim of size 1: an outer product plus the accumulator
  %p1 = arith.constant dense<[[2.0], [3.0]]> : vector<2x1xf32>
  %p2 = arith.constant dense<[[1.0, 2.0, 4.0]]> : vector<1x3xf32>
  %pc = arith.constant dense<[[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]> : vector<2x3xf32>
  %pa = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %p1, %p2, %pc : vector<2x1xf32>, vector<1x3xf32> into vector<2x3xf32>
  vector.print %pa : vector<2x3xf32>
  return
}
