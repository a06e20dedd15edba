// PIPELINE: convert-gpu-to-nvvm
// FOUND: form: no location (VerifyException)
gpu.module@s{gpu.func@s(%out:memref<8xindex>)kernel attributes{l=array<i3>,e=array<i1>}{%6=gpu.cluster_id z%c6=arith.constant 6:index memref.store%6,%out[%6]:memref<8xindex>gpu.return}}
gpu.module@s{gpu.func@s(%out:memref<8xindex>)kernel attributes{l=array<i3>,e=array<i1>}{%6=gpu.cluster_id z%c6=arith.constant 6:index memref.store%6,%out[%6]:memref<8xindex>gpu.return}}
