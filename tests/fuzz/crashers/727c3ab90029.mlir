// PIPELINE: convert-gpu-to-nvvm
// FOUND: InternalPassError: KeyError at irdl/operations.py:__get__
gpu.module@m{"gpu.func"()<{e=(f32)->()}>({}){e=""}:()->()}
