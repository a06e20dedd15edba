// transfer_read with broadcast dims in the permutation map (run by
// test_vector_runner.py): a row broadcast to every row, a row broadcast and
// transposed, a single element broadcast, and a 3-D read whose middle dim is a
// broadcast (its rows partly out of bounds).
memref.global "private" constant @data : memref<3x4xf32> = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %pad = arith.constant -1.0 : f32
  %m = memref.get_global @data : memref<3x4xf32>
  %a = vector.transfer_read %m[%c1, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<3x4xf32>, vector<2x4xf32>
  vector.print %a : vector<2x4xf32>
  %b = vector.transfer_read %m[%c2, %c1], %pad {permutation_map = affine_map<(d0, d1) -> (d1, 0)>} : memref<3x4xf32>, vector<4x2xf32>
  vector.print %b : vector<4x2xf32>
  %c = vector.transfer_read %m[%c2, %c2], %pad {permutation_map = affine_map<(d0, d1) -> (0)>, in_bounds = [true]} : memref<3x4xf32>, vector<3xf32>
  vector.print %c : vector<3xf32>
  %d = vector.transfer_read %m[%c1, %c2], %pad {permutation_map = affine_map<(d0, d1) -> (d0, 0, d1)>} : memref<3x4xf32>, vector<3x2x3xf32>
  vector.print %d : vector<3x2x3xf32>
  return
}
