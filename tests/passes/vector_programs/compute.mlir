// contract (matmul), outerproduct, multi_reduction, transpose on host vectors (run by
// test_vector_runner.py; upstream needs lower-vector-multi-reduction for the inner one).
func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
  %b = arith.constant dense<[[1.0, 0.5], [2.0, -1.0], [0.0, 3.0]]> : vector<3x2xf32>
  %c = arith.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : vector<2x2xf32>
  %d = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x2xf32> into vector<2x2xf32>
  vector.print %d : vector<2x2xf32>
  %x = arith.constant dense<[1, 2, 3]> : vector<3xi32>
  %y = arith.constant dense<[10, 20]> : vector<2xi32>
  %o = vector.outerproduct %x, %y : vector<3xi32>, vector<2xi32>
  vector.print %o : vector<3x2xi32>
  %acc2 = arith.constant dense<[100.0, 200.0]> : vector<2xf32>
  %r = vector.multi_reduction <add>, %c, %acc2 [1] : vector<2x2xf32> to vector<2xf32>
  vector.print %r : vector<2xf32>
  %acc3 = arith.constant dense<[0, 0]> : vector<2xi32>
  %r2 = vector.multi_reduction <maxsi>, %o, %acc3 [0] : vector<3x2xi32> to vector<2xi32>
  vector.print %r2 : vector<2xi32>
  %z = arith.constant 1.0 : f32
  %r3 = vector.multi_reduction <add>, %a, %z [0, 1] : vector<2x3xf32> to f32
  vector.print %r3 : f32
  %t = vector.transpose %a, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
  vector.print %t : vector<3x2xf32>
  return
}
