"""Transfers with a permuted map as minor-identity transfers plus ``vector.transpose``,
as upstream's ``TransferReadPermutationLowering``/``TransferWritePermutationLowering``
(run first by ``convert-vector-to-scf``, MLIR 22).

``transfer_read %m[...] {permutation_map = (d0, d1) -> (d1, d0)} : vector<4x2xf32>``
reads ``vector<2x4xf32>`` with the minor identity and transposes it by ``[1, 0]``;
``in_bounds`` follows the dims. A write transposes its vector the other way first.
Maps whose dims are not the source's innermost ones (or with broadcast dims) and
masked transfers are left alone.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, BoolAttr, VectorType
from xdsl.ir import Attribute
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.passes.vector_transforms.common import is_minor_identity


def _permutation(amap: AffineMap) -> list[int] | None:
    """For a permuted minor map, ``perm`` with ``result dim i = identity dim
    perm[i]``; ``None`` for any other map."""
    if is_minor_identity(amap):
        return None
    dims: list[int] = []
    for expr in amap.results:
        if not isinstance(expr, AffineDimExpr):
            return None
        dims.append(expr.position)
    ordered = sorted(dims)
    if ordered != list(range(amap.num_dims - len(dims), amap.num_dims)):
        return None
    return [ordered.index(d) for d in dims]


def _vector(t: Attribute) -> VectorType | None:
    if isinstance(t, VectorType):
        return t  # pyright: ignore[reportUnknownVariableType]
    return None


def _reordered(v: VectorType, order: list[int], lead: int = 0) -> VectorType:
    """``v`` with its dims (and their scalable flags) taken in ``order``, after
    ``lead`` fixed unit dims: scalable dims stay scalable wherever they move."""
    shape = v.get_shape()
    flags = list(v.get_scalable_dims()) or [False] * len(shape)
    return VectorType(
        v.element_type,
        [1] * lead + [shape[i] for i in order],
        ArrayAttr(
            [BoolAttr.from_bool(b) for b in [False] * lead + [flags[i] for i in order]]
        ),
    )


class TransferReadPermutation(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferReadOp, rewriter: PatternRewriter):
        v = _vector(op.result.type)
        amap = op.permutation_map.data
        perm = _permutation(amap)
        if v is None or perm is None or op.mask is not None:
            return
        inverse = [perm.index(j) for j in range(len(perm))]
        read_t = _reordered(v, inverse)
        in_bounds = ArrayAttr[BoolAttr]([op.in_bounds.data[i] for i in inverse])
        identity = AffineMap.minor_identity(amap.num_dims, len(perm))
        read = vector.TransferReadOp(
            op.source,
            list(op.indices),
            op.padding,
            read_t,
            in_bounds,
            AffineMapAttr(identity),
        )
        rewriter.replace(op, [read, vector.TransposeOp(read.result, perm, v)])


class TransferWritePermutation(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferWriteOp, rewriter: PatternRewriter):
        v = _vector(op.vector.type)
        amap = op.permutation_map.data
        perm = _permutation(amap)
        if v is None or perm is None or op.mask is not None or op.result is not None:
            return
        inverse = [perm.index(j) for j in range(len(perm))]
        value_t = _reordered(v, inverse)
        in_bounds = ArrayAttr[BoolAttr]([op.in_bounds.data[i] for i in inverse])
        identity = AffineMap.minor_identity(amap.num_dims, len(perm))
        transposed = vector.TransposeOp(op.vector, inverse, value_t)
        write = vector.TransferWriteOp(
            transposed.result,
            op.source,
            list(op.indices),
            in_bounds,
            None,
            AffineMapAttr(identity),
        )
        rewriter.replace(op, [transposed, write])


class TransferWriteNonPermutation(RewritePattern):
    """A write whose map leaves source dims out and is not a minor identity
    (``(d0, d1, d2) -> (d0, d2)``) writes a vector with a unit dim in front per
    missing source dim (``vector.broadcast`` to ``vector<1x4x3xf32>``), under the
    map extended by them (``(d1, d0, d2)``, in bounds): a permutation, which
    :class:`TransferWritePermutation` then turns into a transpose (upstream's
    ``TransferWriteNonPermutationLowering``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferWriteOp, rewriter: PatternRewriter):
        v = _vector(op.vector.type)
        amap = op.permutation_map.data
        if v is None or op.mask is not None or op.result is not None:
            return
        if is_minor_identity(amap) or len(amap.results) >= amap.num_dims:
            return
        dims = [e.position for e in amap.results if isinstance(e, AffineDimExpr)]
        if len(dims) != len(amap.results) or len(set(dims)) != len(dims):
            return  # not a projected permutation
        missing = [d for d in range(amap.num_dims) if d not in dims]
        extended = AffineMap(
            amap.num_dims, 0, tuple(AffineExpr.dimension(d) for d in missing + dims)
        )
        wide_t = _reordered(v, list(range(v.get_num_dims())), len(missing))
        wide = vector.BroadcastOp(op.vector, wide_t)
        in_bounds = ArrayAttr[BoolAttr](
            [BoolAttr.from_bool(True)] * len(missing) + list(op.in_bounds.data)
        )
        write = vector.TransferWriteOp(
            wide.vector,
            op.source,
            list(op.indices),
            in_bounds,
            None,
            AffineMapAttr(extended),
        )
        rewriter.replace(op, [wide, write])


__all__ = [
    "TransferReadPermutation",
    "TransferWriteNonPermutation",
    "TransferWritePermutation",
]
