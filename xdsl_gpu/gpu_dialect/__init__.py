"""xDSL definitions of MLIR's ``gpu`` and ``nvvm`` dialects (and ``#rocdl.target``).

Downstream compilers::

    from xdsl.context import Context
    from xdsl_gpu.gpu_dialect import register_dialects

    ctx = Context()
    register_dialects(ctx)
"""

from xdsl_gpu.gpu_dialect.registration import register_dialects

__all__ = ["register_dialects"]
