// PIPELINE: 
// FOUND: InternalPassError: StopIteration at gpu_dialect/memref.py:<listcomp>
func.func@e(%m:memref<?xf32>){"memref.expand_shape"(%m)<{reassociation=[[]],static_output_shape=array<i64:9223372036854775808,4>}>:(memref<?xf32>)->memref<?x4xf32>}
target 'mlir' failed (StopIteration); this is a fault of the target, please report it with this input
rc=1
