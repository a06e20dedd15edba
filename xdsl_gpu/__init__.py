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

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.context import Context

__all__ = ["register_dialects"]


def register_dialects(ctx: Context) -> None:
    """Make xdsl-gpu's dialects (``gpu``, ``nvvm``, ``rocdl``, ``xgpu``, ``index`` and
    the extended ``llvm``, ``arith``, ``math``, ``memref``) available in ``ctx``, in
    place of xDSL's own, and attach the NVVM target's serialization and offloading
    models (``xdsl_gpu.targets.register_target_interfaces``). Call it before anything
    parses or builds IR with ``ctx``."""
    from xdsl_gpu.gpu_dialect.registration import register_dialects as register
    from xdsl_gpu.targets import register_target_interfaces

    register(ctx)
    register_target_interfaces()
