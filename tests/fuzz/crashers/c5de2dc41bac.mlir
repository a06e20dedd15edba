// PIPELINE: gpu-lower-to-nvvm-pipeline{cubin-format=isa}
// FOUND: signal 6
gpu.module@s{gpu.func@s(%out:memref<8xindex>)kernel attributes{l=array<i3>,e=array<i1>}{%6=gpu.cluster_id z%c6=arith.constant 6:index memref.store%6,%out[%6]:memref<8xindex>gpu.return}}
