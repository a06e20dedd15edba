// Strided slices, interleave/deinterleave and a 2-D fma on host vectors (run by
// test_vector_runner.py).
func.func @main() {
  %v = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : vector<8xf32>
  %w = arith.constant dense<[-1.0, -2.0]> : vector<2xf32>
  %a = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %b = arith.constant dense<[10, 20, 30, 40]> : vector<4xi32>
  %e = vector.extract_strided_slice %v {offsets = [2], sizes = [3], strides = [1]} : vector<8xf32> to vector<3xf32>
  vector.print %e : vector<3xf32>
  %i = vector.insert_strided_slice %w, %v {offsets = [5], strides = [1]} : vector<2xf32> into vector<8xf32>
  vector.print %i : vector<8xf32>
  %il = vector.interleave %a, %b : vector<4xi32> -> vector<8xi32>
  vector.print %il : vector<8xi32>
  %d0, %d1 = vector.deinterleave %il : vector<8xi32> -> vector<4xi32>
  vector.print %d0 : vector<4xi32>
  vector.print %d1 : vector<4xi32>
  %x = arith.constant 1.5 : f32
  %m = vector.broadcast %x : f32 to vector<2x3xf32>
  %c9 = arith.constant 9.0 : f32
  %n = vector.insert %c9, %m [1, 2] : f32 into vector<2x3xf32>
  %f = vector.fma %n, %n, %m : vector<2x3xf32>
  vector.print %f : vector<2x3xf32>
  return
}
