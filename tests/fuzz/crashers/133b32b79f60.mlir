// PIPELINE: gpu-lower-to-nvvm-pipeline{cubin-format=isa}
// FOUND: InternalVerifyError: InternalVerifyError at utils/diagnostic.py:raise_exception
memref.store%2,%out[%2]:memref<8xindex>gpu.module@i{gpu.func@i(%out:memref<8xindex>)kernel attributes{w=array<i2:1>}{%2=gpu.block_id x%c=arith.constant 2:index
return}}
'memref.store' op could not be verified (ValueError: Erased SSA value is used by the operation); please report it with this input
