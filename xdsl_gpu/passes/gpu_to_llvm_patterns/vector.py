"""The ``vector`` ops of host code in ``gpu-to-llvm``, as MLIR 22's pass lowers them.

Upstream's pass first rewrites 1-D ``transfer_read``/``transfer_write`` that need no
bounds mask into (masked) loads and stores (its greedy
``populateVectorTransferLoweringPatterns`` step, without the mask materialization of
convert-vector-to-llvm: a transfer with an out-of-bounds dim stays as it is), then
converts with the vector dialect's ConvertToLLVM patterns, ``print`` included. Kept
out of ``gpu_to_llvm.py`` so that a program without vector ops does not import the
vector lowering (``passes/dialect_presence.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.passes.convert_vector_to_llvm import LowerPrint, vector_to_llvm_patterns
from xdsl_gpu.passes.finalize_memref_to_llvm import MemRefLoweringOptions
from xdsl_gpu.passes.vector_transforms.transfer_to_load_store import (
    TransferReadToLoad,
    TransferWriteToStore,
)


def _in_bounds(op: vector.TransferReadOp | vector.TransferWriteOp) -> bool:
    return all(b.value.data for b in op.in_bounds.data)


class _InBoundsTransferRead(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferReadOp, rewriter: PatternRewriter):
        if _in_bounds(op):
            TransferReadToLoad().match_and_rewrite(op, rewriter)


class _InBoundsTransferWrite(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferWriteOp, rewriter: PatternRewriter):
        if _in_bounds(op):
            TransferWriteToStore().match_and_rewrite(op, rewriter)


def lower_transfers(roots: Sequence[Operation]) -> None:
    """1-D in-bounds transfers in ``roots`` to ``vector`` loads and stores."""
    walker = PatternRewriteWalker(
        GreedyRewritePatternApplier([_InBoundsTransferRead(), _InBoundsTransferWrite()])
    )
    for root in roots:
        for region in root.regions:
            walker.rewrite_region(region)


def host_vector_patterns(
    memref: MemRefLoweringOptions, module: ModuleOp
) -> list[RewritePattern]:
    """The vector → LLVM patterns of the host conversion (``print`` declares its
    runtime functions in ``module``)."""
    return [*vector_to_llvm_patterns(memref), LowerPrint(module)]


__all__ = ["host_vector_patterns", "lower_transfers"]
