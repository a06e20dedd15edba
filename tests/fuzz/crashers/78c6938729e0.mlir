// PIPELINE: 
// FOUND: InternalPassError: IndexError at ir/core.py:__getitem__ (printing)


func.func @expand_dynamic_output_shape(%m: memref<?xf32>) {
  // expected-error@+1 {{mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has 1 dynamic dims while output_shape has 0 values}}
  %t = "memref.expand_shape"(%m) <{reassociation = [[0, 1]], static_output_shape = array<i64: -9223372036854775808, 4>}> : (memref<?xf32>) -> memref<?x4xf32>
  func.return
}
// CHECK: ? in dynamic dims in output_shape and static_output_shape: static_output_shape has 1 dynamic dims while output_shape has 0 values
