"""The pieces of ``gpu-to-llvm`` (``xdsl_gpu/passes/gpu_to_llvm.py``).

* :mod:`.runtime`: the ``mgpu*`` functions the host code calls, declared once per
  module with upstream's signatures;
* :mod:`.streams`: the token model (which token is a stream, which an event), the
  choice of a stream for each op, and where a stream is provably dead;
* :mod:`.patterns`: one pattern per gpu op.
"""
