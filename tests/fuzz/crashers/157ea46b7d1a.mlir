// PIPELINE: gpu-async-region
// FOUND: AttributeError at dialects/builtin.py:from_list
memref.global "pc" @y : memref<!gpu.async.token> = dense<2.5>
