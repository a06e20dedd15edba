// 3-D transfers (2x3x4 on a 2x3x5 memref) through the loop form, rows out of bounds
// in the last two dims, and an in-bounds 2-D write (run by test_vector_runner.py).
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = memref.alloc() : memref<2x3x5xf32>
  %seven = arith.constant 7.0 : f32
  %init = vector.broadcast %seven : f32 to vector<2x3x5xf32>
  vector.transfer_write %init, %m[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x3x5xf32>, memref<2x3x5xf32>
  %rows = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf32>
  vector.transfer_write %rows, %m[%c1, %c1, %c2] {in_bounds = [true, true]} : vector<2x2xf32>, memref<2x3x5xf32>
  %pad = arith.constant -1.0 : f32
  %v = vector.transfer_read %m[%c0, %c1, %c2], %pad : memref<2x3x5xf32>, vector<2x3x4xf32>
  vector.print %v : vector<2x3x4xf32>
  %d = arith.addf %v, %v : vector<2x3x4xf32>
  vector.transfer_write %d, %m[%c0, %c1, %c2] : vector<2x3x4xf32>, memref<2x3x5xf32>
  %w = vector.transfer_read %m[%c0, %c0, %c0], %pad {in_bounds = [true, true, true]} : memref<2x3x5xf32>, vector<2x3x5xf32>
  vector.print %w : vector<2x3x5xf32>
  return
}
