"""Small builders the vector transforms share."""

from __future__ import annotations

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter


def index_constant(value: int, rewriter: PatternRewriter) -> SSAValue:
    const = arith.ConstantOp(IntegerAttr(value, IndexType()))
    rewriter.insert(const)
    return const.result


def offset_index(base: SSAValue, offset: int) -> Operation | None:
    """``affine.apply ()[s0] -> (s0 + offset)`` of ``base``, as upstream adds a
    constant to an index; ``None`` for offset 0 (the index itself)."""
    if offset == 0:
        return None
    amap = AffineMap(0, 1, (AffineExpr.symbol(0) + offset,))
    return affine.ApplyOp([base], AffineMapAttr(amap))


def is_minor_identity(amap: AffineMap) -> bool:
    """``(d0, ..., dn) -> (d(n-k+1), ..., dn)``: the vector's dims are the source's
    innermost ones, in order."""
    if len(amap.results) > amap.num_dims:
        return False  # broadcast dims beyond the source's rank
    return amap == AffineMap.minor_identity(amap.num_dims, len(amap.results))


__all__ = ["index_constant", "is_minor_identity", "offset_index"]
