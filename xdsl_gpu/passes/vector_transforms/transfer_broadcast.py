"""``transfer_read`` with broadcast dims (``0`` results in the permutation map), as
upstream MLIR 22 lowers them before ``convert-vector-to-scf`` (its
``TransferReadPermutationLowering`` with broadcasting and ``TransferOpReduceRank``):

* the broadcast dims are moved first: ``(d0, d1, d2) -> (d1, 0, d2)`` reading
  ``vector<2x3x4xf32>`` reads ``vector<3x2x4xf32>`` with ``(d0, d1, d2) -> (0, d1,
  d2)`` and ``vector.transpose``s it by ``[1, 0, 2]``;
* leading broadcast dims are dropped: ``(d0, d1) -> (0, d1)`` reading
  ``vector<3x4xf32>`` reads ``vector<4xf32>`` with ``(d0, d1) -> (d1)`` and
  ``vector.broadcast``s it (``(d0, d1) -> (0)`` reads a 0-d ``vector<f32>``). A mask
  already has the reduced shape (broadcast dims have no mask dim) and is kept.

Maps whose non-broadcast results are not the source's innermost dims are left, as
are masked reads that would need their mask transposed, as upstream leaves them;
a broadcast dim that is not leading once ordered (``(d0, d1) -> (d0, 0)``) is left
to the row-by-row lowering.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, BoolAttr, VectorType
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import vector


def _is_broadcast(expr: object) -> bool:
    return isinstance(expr, AffineConstantExpr) and expr.value == 0


def minor_permutation_with_broadcast(amap: AffineMap) -> list[int] | None:
    """``perm`` such that result ``perm[i]`` of ``amap`` belongs at position ``i`` of
    the map whose broadcast results come first, then its dims in the source's order;
    ``None`` unless those dims are the source's innermost ones."""
    broadcasts: list[int] = []
    dims: dict[int, int] = {}
    for i, expr in enumerate(amap.results):
        if _is_broadcast(expr):
            broadcasts.append(i)
        elif isinstance(expr, AffineDimExpr) and expr.position not in dims:
            dims[expr.position] = i
        else:
            return None
    innermost = range(amap.num_dims - len(dims), amap.num_dims)
    if not amap.results or sorted(dims) != list(innermost):
        return None
    return [*broadcasts, *(dims[d] for d in sorted(dims))]


def _leading_broadcasts(amap: AffineMap) -> int:
    """How many results at the front are broadcasts, when the rest is a minor
    identity (``0`` otherwise)."""
    k = 0
    while k < len(amap.results) and _is_broadcast(amap.results[k]):
        k += 1
    rest = amap.results[k:]
    if len(rest) > amap.num_dims:
        return 0
    minor = AffineMap.minor_identity(amap.num_dims, len(rest)).results
    return k if tuple(rest) == tuple(minor) else 0


def _fixed(t: object) -> VectorType | None:
    if isinstance(t, VectorType) and not t.get_num_scalable_dims():
        return cast(VectorType, t)
    return None


class TransferReadBroadcastPermutation(RewritePattern):
    """Broadcast dims first, then the dims in the source's order, and a transpose."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferReadOp, rewriter: PatternRewriter):
        v = _fixed(op.result.type)
        amap = op.permutation_map.data
        if v is None or not any(_is_broadcast(e) for e in amap.results):
            return
        perm = minor_permutation_with_broadcast(amap)
        if perm is None or perm == sorted(perm) or op.mask is not None:
            return
        shape = v.get_shape()
        read_t = VectorType(v.element_type, [shape[p] for p in perm])
        in_bounds = ArrayAttr[BoolAttr]([op.in_bounds.data[p] for p in perm])
        new_map = AffineMap(amap.num_dims, 0, tuple(amap.results[p] for p in perm))
        read = vector.TransferReadOp(
            op.source,
            list(op.indices),
            op.padding,
            read_t,
            in_bounds,
            AffineMapAttr(new_map),
        )
        back = [perm.index(j) for j in range(len(perm))]
        rewriter.replace(op, [read, vector.TransposeOp(read.result, back, v)])


class TransferReadDropLeadingBroadcast(RewritePattern):
    """Leading broadcast dims: a read of the remaining dims and a broadcast."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferReadOp, rewriter: PatternRewriter):
        v = _fixed(op.result.type)
        amap = op.permutation_map.data
        if v is None:
            return
        k = _leading_broadcasts(amap)
        if k == 0:
            return
        read_t = VectorType(v.element_type, v.get_shape()[k:])
        new_map = AffineMap(amap.num_dims, 0, amap.results[k:])
        read = vector.TransferReadOp(
            op.source,
            list(op.indices),
            op.padding,
            read_t,
            ArrayAttr[BoolAttr](op.in_bounds.data[k:]),
            AffineMapAttr(new_map),
            op.mask,
        )
        rewriter.replace(op, [read, vector.BroadcastOp(read.result, v)])


__all__ = [
    "TransferReadBroadcastPermutation",
    "TransferReadDropLeadingBroadcast",
    "minor_permutation_with_broadcast",
]
