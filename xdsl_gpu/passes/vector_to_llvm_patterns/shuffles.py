"""1-D vector ops that are a ``shufflevector`` in LLVM, as upstream MLIR 22's
convert-vector-to-llvm produces them:

* ``extract_strided_slice`` (stride 1): ``shufflevector %v, %v [offset ...]``;
* ``insert_strided_slice`` (stride 1): the source widened to the destination's
  length by one shuffle, then a shuffle that takes the slice from it and the rest
  from the destination;
* ``interleave``: ``shufflevector %a, %b [0, n, 1, n + 1, ...]``;
* ``deinterleave``: two shuffles of the source with poison, even and odd lanes.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import DenseArrayBase, VectorType, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import llvm, vector


def _fixed_1d(t: Attribute) -> VectorType | None:
    if (
        isinstance(t, VectorType)
        and t.get_num_dims() == 1
        and not t.get_num_scalable_dims()
    ):
        return cast(VectorType, t)
    return None


def _shuffle(
    a: SSAValue, b: SSAValue, mask: list[int], result: Attribute
) -> llvm.ShuffleVectorOp:
    return llvm.ShuffleVectorOp(a, b, DenseArrayBase.from_list(i32, mask), result)


def _ints(attr: Attribute) -> list[int]:
    """The integers of an ``ArrayAttr`` of ``IntegerAttr``."""
    return [a.value.data for a in attr.data]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType]


class LowerExtractStridedSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.ExtractStridedSliceOp, rewriter: PatternRewriter
    ):
        source = _fixed_1d(op.source.type)
        if source is None or _ints(op.strides) != [1]:
            return
        (offset,), (size,) = _ints(op.offsets), _ints(op.sizes)
        mask = list(range(offset, offset + size))
        rewriter.replace(op, _shuffle(op.source, op.source, mask, op.result.type))


class LowerInsertStridedSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.InsertStridedSliceOp, rewriter: PatternRewriter
    ):
        source = _fixed_1d(op.valueToStore.type)
        dest = _fixed_1d(op.dest.type)
        if source is None or dest is None or _ints(op.strides) != [1]:
            return
        (offset,) = _ints(op.offsets)
        k, n = source.get_shape()[0], dest.get_shape()[0]
        if k == n:
            rewriter.replace(op, [], [op.valueToStore])
            return
        value = op.valueToStore
        wide = _shuffle(value, value, [*range(k), *[0] * (n - k)], dest)
        mask = [i - offset if offset <= i < offset + k else n + i for i in range(n)]
        rewriter.replace(op, [wide, _shuffle(wide.res, op.dest, mask, dest)])


class LowerInterleave(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.InterleaveOp, rewriter: PatternRewriter):
        source = _fixed_1d(op.lhs.type)
        if source is None:
            return
        n = source.get_shape()[0]
        mask = [x for i in range(n) for x in (i, n + i)]
        rewriter.replace(op, _shuffle(op.lhs, op.rhs, mask, op.result.type))


class LowerDeinterleave(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.DeinterleaveOp, rewriter: PatternRewriter):
        source = _fixed_1d(op.source.type)
        if source is None:
            return
        n = source.get_shape()[0]
        poison = llvm.PoisonOp(source)
        even = _shuffle(op.source, poison.res, list(range(0, n, 2)), op.res1.type)
        odd = _shuffle(op.source, poison.res, list(range(1, n, 2)), op.res2.type)
        rewriter.replace(op, [poison, even, odd], [even.res, odd.res])


def shuffle_patterns() -> list[RewritePattern]:
    return [
        LowerExtractStridedSlice(),
        LowerInsertStridedSlice(),
        LowerInterleave(),
        LowerDeinterleave(),
    ]


__all__ = ["shuffle_patterns"]
