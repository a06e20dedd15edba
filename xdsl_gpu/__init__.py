"""xdsl-gpu: MLIR's GPU compilation stack in pure Python on xDSL.

Layers, each importing only from the ones before it:

* :mod:`xdsl_gpu.compat`: the few changes inside xDSL that the project needs;
* :mod:`xdsl_gpu.gpu_dialect`: the dialects (``gpu``, ``nvvm``, ``rocdl`` and the
  extended ``llvm``, ``arith``, ``math``, ``memref``, ``index``);
* :mod:`xdsl_gpu.passes`: the rewrite passes, by upstream name;
* :mod:`xdsl_gpu.targets`: LLVM IR, NVVM serialization, offloading, CUDA runtime;
* :mod:`xdsl_gpu.driver`: the command-line tools and the ``xdsl.universe`` plugin.

Downstream compilers register the dialects in their own context::

    from xdsl.context import Context
    from xdsl_gpu import register_dialects

    ctx = Context()
    register_dialects(ctx)
"""

from xdsl_gpu.gpu_dialect.registration import register_dialects

__all__ = ["register_dialects"]
