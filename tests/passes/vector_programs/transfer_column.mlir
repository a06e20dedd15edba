// 1-D transfers along a dim that is not the innermost one (a column), read and
// written partly out of bounds, masked and in bounds; a 2-D write that leaves a
// source dim out; rows of one element broadcast (`(d0, d1) -> (d0, 0)`) (run by test_vector_runner.py).
memref.global "private" constant @data : memref<3x4xi32> = dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %pad = arith.constant -1 : i32
  %g = memref.get_global @data : memref<3x4xi32>
  %m = memref.alloc() : memref<3x4xi32>
  memref.copy %g, %m : memref<3x4xi32> to memref<3x4xi32>
  %col = vector.transfer_read %m[%c1, %c2], %pad {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<3x4xi32>, vector<4xi32>
  vector.print %col : vector<4xi32>
  %mask = arith.constant dense<[true, false, true]> : vector<3xi1>
  %masked = vector.transfer_read %m[%c0, %c1], %pad, %mask {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<3x4xi32>, vector<3xi32>
  vector.print %masked : vector<3xi32>
  %inb = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<3x4xi32>, vector<3xi32>
  vector.print %inb : vector<3xi32>
  %v = arith.constant dense<[70, 80, 90]> : vector<3xi32>
  vector.transfer_write %v, %m[%c1, %c3] {permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<3xi32>, memref<3x4xi32>
  %w = arith.constant dense<[[100, 101], [102, 103]]> : vector<2x2xi32>
  %cube = memref.alloc() : memref<2x2x2xi32>
  %zeros = arith.constant dense<0> : vector<2x2x2xi32>
  vector.transfer_write %zeros, %cube[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x2x2xi32>, memref<2x2x2xi32>
  vector.transfer_write %w, %cube[%c0, %c1, %c0] {permutation_map = affine_map<(d0, d1, d2) -> (d0, d2)>} : vector<2x2xi32>, memref<2x2x2xi32>
  %rows = vector.transfer_read %m[%c1, %c2], %pad {permutation_map = affine_map<(d0, d1) -> (d0, 0)>} : memref<3x4xi32>, vector<3x2xi32>
  vector.print %rows : vector<3x2xi32>
  %all = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true, true]} : memref<3x4xi32>, vector<3x4xi32>
  vector.print %all : vector<3x4xi32>
  %flat = vector.transfer_read %cube[%c0, %c0, %c0], %pad {in_bounds = [true, true, true]} : memref<2x2x2xi32>, vector<2x2x2xi32>
  vector.print %flat : vector<2x2x2xi32>
  return
}
