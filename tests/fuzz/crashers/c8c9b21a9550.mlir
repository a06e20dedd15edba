// PIPELINE: gpu-async-region
// FOUND: InternalPassError: ValueError at xdsl/rewriter.py:replace_op
func.func@s(%s:!gpu.sparse.spmat_handle,%d:!gpu.sparse.dntensor_handle){%a,%b="gpu.spmm_buffer_size"(%s,%d,%d)<{f,resultSegmentSizes=array<i2:1,0>}>:(!gpu.sparse.spmat_handle,!gpu.sparse.dntensor_handle,!gpu.sparse.dntensor_handle)->(index,index)}
