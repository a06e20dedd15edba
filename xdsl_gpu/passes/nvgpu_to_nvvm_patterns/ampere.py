"""The sm_80 ops of ``nvgpu``: ``mma.sync``, ``mma.sp.sync``, ``ldmatrix``, the
``device_async_*`` copies and ``rcp`` (upstream: ``NVGPUToNVVM.cpp``, MLIR 22)."""

from __future__ import annotations

from xdsl.pattern_rewriter import RewritePattern

from xdsl_gpu.passes.nvgpu_to_nvvm_patterns.common import (
    NVGPULowering,
    TypeConversion,
    convert_async_token,
)

TYPE_CONVERSIONS: tuple[TypeConversion, ...] = (convert_async_token,)


def patterns(lowering: NVGPULowering) -> list[RewritePattern]:
    return []
