"""n-D strided slices and (de)interleaves as row-by-row 1-D ops, as upstream MLIR 22's
convert-vector-to-llvm lowers them (its strided-slice decomposition and interleave
unrolling): each row of the result is a ``vector.extract`` of the source row, the
op of one rank less, and a ``vector.insert`` into the result, which starts from a
zero constant as upstream's. The rows then lower as 1-D ``shufflevector``s and the
extracts/inserts as ``extractvalue``/``insertvalue``.

Only unit strides (the only ones the 1-D lowering takes) and fixed-size vectors.
"""

from __future__ import annotations

from itertools import product
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import vector


def _ints(attr: Attribute) -> list[int]:
    return [a.value.data for a in attr.data]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType]


def _fixed_nd(t: Attribute) -> VectorType | None:
    if (
        isinstance(t, VectorType)
        and t.get_num_dims() >= 2
        and not t.get_num_scalable_dims()
    ):
        return cast(VectorType, t)
    return None


def _row_type(t: VectorType, levels: int = 1) -> VectorType:
    return VectorType(t.element_type, t.get_shape()[levels:])


def _zeros(t: VectorType) -> arith.ConstantOp:
    zero = 0.0 if isinstance(t.element_type, AnyFloat) else 0
    values = DenseIntOrFPElementsAttr.from_list(t, [zero] * t.element_count())  # pyright: ignore[reportCallIssue, reportArgumentType, reportUnknownVariableType]
    return arith.ConstantOp(values)  # pyright: ignore[reportUnknownArgumentType]


class UnrollExtractStridedSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.ExtractStridedSliceOp, rewriter: PatternRewriter
    ):
        source = _fixed_nd(op.source.type)
        result = op.result.type
        if source is None or not isinstance(result, VectorType):
            return
        offsets, sizes, strides = (
            _ints(op.offsets),
            _ints(op.sizes),
            _ints(op.strides),
        )
        if any(s != 1 for s in strides):
            return
        rewriter.insert(acc := _zeros(result))
        current: SSAValue = acc.result
        row_t = _row_type(result)
        for i in range(sizes[0]):
            ops: list[Operation] = [
                row := vector.ExtractOp(op.source, [offsets[0] + i], _row_type(source))
            ]
            part: SSAValue = row.result
            if len(offsets) > 1 and row.result.type != row_t:
                ops.append(
                    inner := vector.ExtractStridedSliceOp(
                        row.result, offsets[1:], sizes[1:], strides[1:], row_t
                    )
                )
                part = inner.result
            ops.append(step := vector.InsertOp(part, current, [i], result))
            for new in ops:
                rewriter.insert(new)
            current = step.result
        rewriter.replace(op, [], [current])


class UnrollInsertStridedSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.InsertStridedSliceOp, rewriter: PatternRewriter
    ):
        dest = _fixed_nd(op.dest.type)
        source = op.valueToStore.type
        if dest is None or not isinstance(source, VectorType):
            return
        if source.get_num_scalable_dims():
            return
        offsets, strides = _ints(op.offsets), _ints(op.strides)
        if any(s != 1 for s in strides):
            return
        dest_row_t = _row_type(dest)
        split = source.get_num_dims() == dest.get_num_dims()
        inner_strides = strides[1:] if split else strides
        if not split:
            # A slice of lower rank goes into one row of the destination.
            rows = [(op.valueToStore, offsets[0])]
            ops: list[Operation] = []
        else:
            ops = [
                vector.ExtractOp(op.valueToStore, [i], _row_type(source))
                for i in range(source.get_shape()[0])
            ]
            rows = [(o.results[0], offsets[0] + i) for i, o in enumerate(ops)]
            for new in ops:
                rewriter.insert(new)
        current: SSAValue = op.dest
        for value, position in rows:
            step_ops: list[Operation] = []
            part = value
            if value.type != dest_row_t:
                step_ops.append(d := vector.ExtractOp(op.dest, [position], dest_row_t))
                step_ops.append(
                    inner := vector.InsertStridedSliceOp(
                        value, d.result, offsets[1:], inner_strides
                    )
                )
                part = inner.results[0]
            step_ops.append(step := vector.InsertOp(part, current, [position], dest))
            for new in step_ops:
                rewriter.insert(new)
            current = step.result
        rewriter.replace(op, [], [current])


def _leading_positions(t: VectorType) -> list[tuple[int, ...]]:
    return list(product(*(range(n) for n in t.get_shape()[:-1])))


class UnrollInterleave(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.InterleaveOp, rewriter: PatternRewriter):
        source = _fixed_nd(op.lhs.type)
        result = op.result.type
        if source is None or not isinstance(result, VectorType):
            return
        levels = source.get_num_dims() - 1
        rewriter.insert(acc := _zeros(result))
        current: SSAValue = acc.result
        for position in _leading_positions(source):
            row_t = _row_type(source, levels)
            lhs = vector.ExtractOp(op.lhs, list(position), row_t)
            rhs = vector.ExtractOp(op.rhs, list(position), row_t)
            both = vector.InterleaveOp(lhs.result, rhs.result)
            step = vector.InsertOp(both.result, current, list(position), result)
            for new in (lhs, rhs, both, step):
                rewriter.insert(new)
            current = step.result
        rewriter.replace(op, [], [current])


class UnrollDeinterleave(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.DeinterleaveOp, rewriter: PatternRewriter):
        source = _fixed_nd(op.source.type)
        half = op.res1.type
        if source is None or not isinstance(half, VectorType):
            return
        levels = source.get_num_dims() - 1
        rewriter.insert(even_acc := _zeros(half))
        rewriter.insert(odd_acc := _zeros(half))
        even: SSAValue = even_acc.result
        odd: SSAValue = odd_acc.result
        for position in _leading_positions(source):
            row = vector.ExtractOp(op.source, list(position), _row_type(source, levels))
            parts = vector.DeinterleaveOp(row.result)
            e = vector.InsertOp(parts.res1, even, list(position), half)
            o = vector.InsertOp(parts.res2, odd, list(position), half)
            for new in (row, parts, e, o):
                rewriter.insert(new)
            even, odd = e.result, o.result
        rewriter.replace(op, [], [even, odd])


def nd_unroll_patterns() -> list[RewritePattern]:
    return [
        UnrollExtractStridedSlice(),
        UnrollInsertStridedSlice(),
        UnrollInterleave(),
        UnrollDeinterleave(),
    ]


__all__ = ["nd_unroll_patterns"]
