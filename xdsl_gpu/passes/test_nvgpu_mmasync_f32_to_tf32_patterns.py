"""``test-nvgpu-mmasync-f32-to-tf32-patterns``: MLIR's test pass that lets
``nvgpu.mma.sync`` on ``f32`` run in TF32.

Upstream: ``mlir/test/lib/Dialect/NVGPU/TestNVGPUTransforms.cpp`` and
``mlir/lib/Dialect/NVGPU/Transforms/MmaSyncTF32Transform.cpp`` (MLIR 22). Every
``nvgpu.mma.sync`` whose ``matrixA`` has ``f32`` elements and that has no
``tf32Enabled`` gets it (``convert-nvgpu-to-nvvm`` then emits the ``tf32`` mma
instruction). Other element types are left alone.

Option ``precision`` (default ``tf32``): MLIR 22 sets ``tf32Enabled`` whatever its
value, ``tf32x3`` included (its test expects an error that MLIR 22 no longer emits),
and so does this pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnitAttr, VectorType, f32
from xdsl.passes import ModulePass

from xdsl_gpu.gpu_dialect.nvgpu.mma_ops import MmaSyncOp
from xdsl_gpu.passes.ir_walk import preorder


@dataclass(frozen=True)
class TestNVGPUMmaSyncF32ToTF32PatternsPass(ModulePass):
    """Set ``tf32Enabled`` on the f32 ``nvgpu.mma.sync`` ops (see the module
    docstring).

    Options:
      precision: ``tf32`` or ``tf32x3`` (both set ``tf32Enabled``, as MLIR 22).
    """

    name = "test-nvgpu-mmasync-f32-to-tf32-patterns"

    precision: str = "tf32"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for mma in [o for o in preorder(op) if isinstance(o, MmaSyncOp)]:
            a = mma.matrix_a.type
            if (
                isinstance(a, VectorType)
                and a.get_element_type() == f32
                and mma.tf32_enabled is None
            ):
                mma.tf32_enabled = UnitAttr()
