"""The patterns of ``convert-nvgpu-to-nvvm``, one module per family of ``nvgpu`` ops.

Each module of :data:`PATTERN_MODULES` defines ``patterns(lowering)`` (its rewrite
patterns) and ``TYPE_CONVERSIONS`` (how its ``nvgpu`` types become LLVM types);
adding a family is one import and one entry here.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    PATTERN_MODULES: tuple[ModuleType, ...]
    """The pattern families, in the order their patterns are tried."""


def __getattr__(name: str) -> tuple[ModuleType, ...]:
    # PATTERN_MODULES is imported on first use, not with the package: its
    # ``common`` module serves the pass on programs without nvgpu ops, which
    # then import neither the families nor the nvgpu dialect.
    if name != "PATTERN_MODULES":
        raise AttributeError(name)
    from xdsl_gpu.passes.nvgpu_to_nvvm_patterns import ampere, mbarrier, tma, warpgroup

    return (ampere, mbarrier, tma, warpgroup)
