// vector.print of 1-D and 2-D vectors, of strings, of scalars (run by test_vector_runner.py).
func.func @main() {
  %f = arith.constant 1.5 : f32
  %i = arith.constant 7 : i32
  %v = vector.broadcast %f : f32 to vector<3xf32>
  %w0 = vector.broadcast %i : i32 to vector<2x3xi32>
  %c9 = arith.constant 9 : i32
  %w = vector.insert %c9, %w0 [1, 2] : i32 into vector<2x3xi32>
  vector.print %v : vector<3xf32>
  vector.print str "hello\n"
  vector.print %w : vector<2x3xi32>
  vector.print str "bye\n"
  return
}
