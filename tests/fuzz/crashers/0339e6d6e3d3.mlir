// PIPELINE: convert-gpu-to-nvvm
// FOUND: InternalPassError: IndexError at ir/core.py:__getitem__
gpu.module@m{"gpu.func"()<{function_type=()->()}>({}){e=""}:()->()}
