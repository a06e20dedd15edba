"""The patterns of ``convert-nvgpu-to-nvvm``, one module per family of ``nvgpu`` ops.

Each module of :data:`PATTERN_MODULES` defines ``patterns(lowering)`` (its rewrite
patterns) and ``TYPE_CONVERSIONS`` (how its ``nvgpu`` types become LLVM types);
adding a family is one import and one entry here.
"""

from __future__ import annotations

from types import ModuleType

from xdsl_gpu.passes.nvgpu_to_nvvm_patterns import ampere, mbarrier, tma, warpgroup

PATTERN_MODULES: tuple[ModuleType, ...] = (ampere, mbarrier, tma, warpgroup)
"""The pattern families, in the order their patterns are tried."""
