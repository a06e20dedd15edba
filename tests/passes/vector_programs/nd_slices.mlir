// n-D strided slices (extract, insert of the same rank and of a lower rank),
// interleave/deinterleave of 2-D vectors and a dynamic position in the last dim
// of a 2-D vector, on the host (run by test_vector_runner.py).
func.func @main() {
  %c2 = arith.constant 2 : index
  %x = arith.constant 99.0 : f32
  %v = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : vector<3x4xf32>
  %s = vector.extract_strided_slice %v {offsets = [1, 1], sizes = [2, 2], strides = [1, 1]} : vector<3x4xf32> to vector<2x2xf32>
  vector.print %s : vector<2x2xf32>
  %ins = vector.insert_strided_slice %s, %v {offsets = [0, 2], strides = [1, 1]} : vector<2x2xf32> into vector<3x4xf32>
  vector.print %ins : vector<3x4xf32>
  %row = arith.constant dense<[-1.0, -2.0]> : vector<2xf32>
  %ins1 = vector.insert_strided_slice %row, %v {offsets = [2, 1], strides = [1]} : vector<2xf32> into vector<3x4xf32>
  vector.print %ins1 : vector<3x4xf32>
  %a = vector.extract_strided_slice %v {offsets = [0, 0], sizes = [2, 2], strides = [1, 1]} : vector<3x4xf32> to vector<2x2xf32>
  %il = vector.interleave %a, %s : vector<2x2xf32> -> vector<2x4xf32>
  vector.print %il : vector<2x4xf32>
  %even, %odd = vector.deinterleave %v : vector<3x4xf32> -> vector<3x2xf32>
  vector.print %even : vector<3x2xf32>
  vector.print %odd : vector<3x2xf32>
  %e = vector.extract %v[1, %c2] : f32 from vector<3x4xf32>
  vector.print %e : f32
  %w = vector.insert %x, %v[2, %c2] : f32 into vector<3x4xf32>
  vector.print %w : vector<3x4xf32>
  return
}
