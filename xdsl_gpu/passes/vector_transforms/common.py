"""Small builders the vector transforms share."""

from __future__ import annotations

from typing import cast

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter

from xdsl_gpu.gpu_dialect import vector


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


class OpSequence:
    """Ops appended in order, for ``rewriter.replace``; each helper returns the
    value its op makes."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def zeros(self, t: Attribute) -> SSAValue:
        """A zero of the scalar type ``t``, or a splat of zeros of the vector ``t``."""
        element = t.element_type if isinstance(t, VectorType) else t  # pyright: ignore[reportUnknownMemberType]
        value: Attribute = (
            FloatAttr(0.0, cast(AnyFloat, element))
            if isinstance(element, AnyFloat)
            else IntegerAttr(0, cast(IntegerType, element))
        )
        scalar = self.add(arith.ConstantOp(value, element))
        if not isinstance(t, VectorType):
            return scalar
        return self.add(vector.BroadcastOp(scalar, t))

    def extract(self, v: SSAValue, *position: int) -> SSAValue:
        t = v.type
        assert isinstance(t, VectorType)
        rest = t.get_shape()[len(position) :]
        result: Attribute = VectorType(t.element_type, rest) if rest else t.element_type
        return self.add(vector.ExtractOp(v, list(position), result))

    def insert(self, value: SSAValue, dest: SSAValue, *position: int) -> SSAValue:
        return self.add(vector.InsertOp(value, dest, list(position), dest.type))


__all__ = ["OpSequence", "index_constant", "is_minor_identity", "offset_index"]
