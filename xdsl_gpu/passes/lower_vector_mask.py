"""``lower-vector-mask``: ``vector.mask`` folded into the ops that take a mask operand,
as upstream MLIR 22's pass of that name (patterns in
:mod:`xdsl_gpu.passes.vector_transforms.mask_op_lowering`)::

    %r = vector.mask %m { vector.transfer_read %a[%i], %pad
        : memref<?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>

becomes ``%r = vector.transfer_read %a[%i], %pad, %m : memref<?xf32>,
vector<16xf32>``. Masked ``transfer_write`` and ``gather`` likewise; empty and
all-true masks are removed. Masked reductions, contractions, outer products and
multi-reductions stay, for convert-vector-to-llvm (as upstream), and so does a
``transfer_read`` with a passthru (upstream leaves it too).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

from xdsl_gpu.passes.vector_transforms.mask_op_lowering import (
    lower_vector_mask_patterns,
)


@dataclass(frozen=True)
class LowerVectorMaskPass(ModulePass):
    """Fold ``vector.mask`` into masked transfers and gathers (module docstring)."""

    name = "lower-vector-mask"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(lower_vector_mask_patterns())
        ).rewrite_module(op)


__all__ = ["LowerVectorMaskPass"]
