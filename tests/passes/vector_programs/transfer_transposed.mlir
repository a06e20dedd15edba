// Transfers with a transposed permutation map, read and written partly out of
// bounds (run by test_vector_runner.py).
memref.global "private" constant @data : memref<3x4xi32> = dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant -1 : i32
  %g = memref.get_global @data : memref<3x4xi32>
  %m = memref.alloc() : memref<3x4xi32>
  memref.copy %g, %m : memref<3x4xi32> to memref<3x4xi32>
  %t = vector.transfer_read %m[%c1, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<3x4xi32>, vector<4x3xi32>
  vector.print %t : vector<4x3xi32>
  %z = arith.constant dense<[[0, 1], [2, 3], [4, 5]]> : vector<3x2xi32>
  vector.transfer_write %z, %m[%c1, %c1] {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<3x2xi32>, memref<3x4xi32>
  %all = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true, true]} : memref<3x4xi32>, vector<3x4xi32>
  vector.print %all : vector<3x4xi32>
  return
}
