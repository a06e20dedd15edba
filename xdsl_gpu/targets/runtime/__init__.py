"""The CUDA runtime (mgpu* ABI) and the JIT runner for generated host code.

The Python API (``load``, ``GpuProgram``) is imported lazily: importing the package
must not pull in xDSL's parser or the passes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xdsl_gpu.targets.runtime.api import (
        GpuProgram,
        GpuProgramError,
        load,
        managed_array,
    )

__all__ = ["GpuProgram", "GpuProgramError", "load", "managed_array"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from xdsl_gpu.targets.runtime import api

        return getattr(api, name)
    raise AttributeError(f"module 'xdsl_gpu.targets.runtime' has no attribute {name!r}")
