"""The ``in_bounds`` fold of ``vector.transfer_read``/``transfer_write``, as MLIR 22's
``foldTransferInBoundsAttribute`` (run by canonicalize and, since upstream's greedy
driver folds every op it visits, by each greedy pass such as convert-vector-to-scf).

A dim not yet marked in bounds becomes so when the vector reads along a static dim
of the source from a constant index and ``index + vector size <= dim size``. When
every non-broadcast dim is then in bounds, the broadcast dims are marked too. 0-D
transfers are left alone, as upstream's.

Why it matters: a transfer known to be in bounds needs no mask, and gpu-to-llvm
(which, as upstream's, materializes no masks) lowers only those.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, BoolAttr, IntegerAttr, ShapedType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import ConstantLike

from xdsl_gpu.gpu_dialect.vector import memory_ops


def _constant(value: SSAValue) -> int | None:
    attr = ConstantLike.get_constant_value(value)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def inferred_in_bounds(
    op: memory_ops.TransferReadOp | memory_ops.TransferWriteOp,
) -> list[bool] | None:
    """The op's ``in_bounds`` with every dim that is provably in bounds marked, or
    ``None`` when nothing more can be marked."""
    flags = [bool(b.value.data) for b in op.in_bounds.data]
    if not flags:
        return None
    source = op.source.type
    if isinstance(op, memory_ops.TransferWriteOp):
        vector = op.vector.type
    else:
        vector = op.result.type
    assert isinstance(source, ShapedType)
    assert isinstance(vector, ShapedType)
    shape, sizes = source.get_shape(), vector.get_shape()
    results = op.permutation_map.data.results
    new, non_broadcast, changed = list(flags), list[int](), False
    for i, expr in enumerate(results):
        if not isinstance(expr, AffineDimExpr):
            continue
        non_broadcast.append(i)
        if new[i]:
            continue
        dim = expr.position
        index = _constant(op.indices[dim])
        if shape[dim] >= 0 and index is not None and index + sizes[i] <= shape[dim]:
            new[i] = changed = True
    if all(new[i] for i in non_broadcast):
        for i, expr in enumerate(results):
            if isinstance(expr, AffineConstantExpr) and not new[i]:
                new[i] = changed = True
    return new if changed else None


class FoldTransferInBounds(RewritePattern):
    """Upstream's fold as a pattern: canonicalize's (the ops' trait) and the greedy
    passes' that fold as they go."""

    acts_on = (memory_ops.TransferReadOp, memory_ops.TransferWriteOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, memory_ops.TransferReadOp | memory_ops.TransferWriteOp):
            return
        new = inferred_in_bounds(op)
        if new is not None:
            op.in_bounds = ArrayAttr([BoolAttr.from_bool(b) for b in new])
            rewriter.notify_op_modified(op)


__all__ = ["FoldTransferInBounds", "inferred_in_bounds"]
