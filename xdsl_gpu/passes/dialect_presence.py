"""Whether a dialect's ops can be in the IR at all, without looking at the IR.

An op of a dialect is an instance of one of its classes, so while the modules that
define them are not imported, no op of the dialect exists (an unregistered op of
that name is not one the dialect's patterns would match either). Passes and the
pipeline use this to leave out patterns and passes for dialects a program does not
use, and with them the imports that define those dialects: tens of milliseconds of
every run for ``vector`` and ``index`` (issue 16, start-up).
"""

from __future__ import annotations

import sys

__all__ = ["DIALECT_MODULES", "dialect_loaded"]

DIALECT_MODULES: dict[str, tuple[str, ...]] = {
    "index": ("xdsl.dialects.index", "xdsl_gpu.gpu_dialect.index"),
    "math": ("xdsl.dialects.math", "xdsl_gpu.gpu_dialect.math"),
    "nvgpu": ("xdsl_gpu.gpu_dialect.nvgpu",),
    "vector": ("xdsl.dialects.vector", "xdsl_gpu.gpu_dialect.vector"),
}
"""The modules that define each dialect's op classes (xDSL's and ours, which
subclasses it)."""


def dialect_loaded(name: str) -> bool:
    """False only when no op of dialect ``name`` can exist in this process."""
    return any(module in sys.modules for module in DIALECT_MODULES[name])
