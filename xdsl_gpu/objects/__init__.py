"""Layer 0: reading GPU object files (PTX, cubin, fatbin) as bytes.

No IR here: this package imports only the standard library and
:mod:`xdsl_gpu.diagnostics`, so every layer (passes that check objects, the NVRTC
front end, the runtime's object selection) can use it.
"""
