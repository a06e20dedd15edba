"""n-D vectors in LLVM: a ``vector<3x4xf32>`` is an ``!llvm.array<3 x vector<4xf32>>``
(the innermost dim stays an LLVM vector), as upstream MLIR 22's type converter makes
it. These patterns lower the ops that move rows and elements of such arrays:

* ``vector.extract``/``vector.insert`` with static positions: ``llvm.extractvalue``/
  ``llvm.insertvalue`` for the array levels, then ``extractelement``/
  ``insertelement`` at the last position when the value is a scalar;
* ``vector.broadcast`` of a scalar or 1-D vector to n-D: the 1-D broadcast
  (``insertelement`` + ``shufflevector``) inserted into every row of a poison array;
* ``vector.shape_cast`` to or from n-D: element by element in row-major order;
* ``vector.fma`` of n-D vectors: ``llvm.intr.fmuladd`` row by row.

Elementwise ``arith``/``math`` ops on n-D vectors are unrolled row by row by their own
lowerings. Values of n-D type that other ops define reach these patterns through
``builtin.unrealized_conversion_cast``, removed by reconcile-unrealized-casts.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import llvm, vector
from xdsl_gpu.passes.llvm_type_converter import (
    LLVMTypeConverter,
    array_positions,
    extract,
    insert,
    replace_op,
    to_llvm,
)


def _static(positions: list[int | SSAValue]) -> list[int] | None:
    if any(not isinstance(p, int) or p < 0 for p in positions):
        return None
    return cast(list[int], positions)


def _n_d(t: Attribute) -> VectorType | None:
    if isinstance(t, VectorType) and t.get_num_dims() >= 2:
        return cast(VectorType, t)
    return None


class _NDPattern(RewritePattern):
    def __init__(self, converter: LLVMTypeConverter):
        self.converter = converter

    def llvm_value(self, value: SSAValue, rewriter: PatternRewriter) -> SSAValue | None:
        target = self.converter.convert_type(value.type)
        if target is None:
            return None
        return to_llvm(value, target, rewriter)


def _element_index(position: int) -> llvm.ConstantOp:
    return llvm.ConstantOp(IntegerAttr(position, i64), i64)


def _rows_then_element(
    positions: list[int | SSAValue], rank: int, ops: list[Operation]
) -> tuple[list[int], SSAValue] | None:
    """Static row positions and the element's index (an ``i64``: a constant, or the
    dynamic ``index`` cast), for a scalar position whose only dynamic entry is the
    last one (upstream lowers that; a dynamic row position it leaves)."""
    if len(positions) != rank:
        return None
    rows = _static(positions[:-1])
    last = positions[-1]
    if rows is None or (isinstance(last, int) and last < 0):
        return None
    if isinstance(last, int):
        ops.append(index := _element_index(last))
        return rows, index.result
    ops.append(
        cast_op := UnrealizedConversionCastOp.create(
            operands=[last], result_types=[i64]
        )
    )
    return rows, cast_op.results[0]


class LowerNDExtract(_NDPattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ExtractOp, rewriter: PatternRewriter):
        source = _n_d(op.vector.type)
        mixed = op.get_mixed_position()
        positions = _static(mixed)
        if source is None or not mixed:
            return
        rank = source.get_num_dims()
        ops: list[Operation] = []
        if positions is not None and len(positions) < rank:
            array = self.llvm_value(op.vector, rewriter)
            if array is None:
                return
            ops.append(extract(array, *positions))  # a sub-vector: array levels only
        else:  # a scalar: the row, then the element
            scalar = _rows_then_element(mixed, rank, ops)
            if scalar is None:
                return
            array = self.llvm_value(op.vector, rewriter)
            if array is None:
                return
            rows, index = scalar
            ops.insert(0, row := extract(array, *rows))
            ops.append(llvm.ExtractElementOp(row.res, index))
        replace_op(op, ops, [ops[-1].results[0]], rewriter)


class LowerNDInsert(_NDPattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.InsertOp, rewriter: PatternRewriter):
        dest = _n_d(op.dest.type)
        mixed = op.get_mixed_position()
        positions = _static(mixed)
        if dest is None or not mixed:
            return
        ops: list[Operation] = []
        scalar = None
        if positions is None or len(positions) == dest.get_num_dims():
            scalar = _rows_then_element(mixed, dest.get_num_dims(), ops)
            if scalar is None:
                return
        array = self.llvm_value(op.dest, rewriter)
        value = self.llvm_value(op.source, rewriter)
        if array is None or value is None:
            return
        if scalar is None:
            assert positions is not None
            ops.append(insert(array, value, *positions))
        else:
            rows, index = scalar
            ops.insert(0, row := extract(array, *rows))
            ops.append(new_row := llvm.InsertElementOp(row.res, value, index))
            ops.append(insert(array, new_row.res, *rows))
        replace_op(op, ops, [ops[-1].results[0]], rewriter)


class LowerNDBroadcast(_NDPattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BroadcastOp, rewriter: PatternRewriter):
        result = _n_d(op.vector.type)
        source_t = op.source.type
        if result is None:
            return
        if isinstance(source_t, VectorType) and source_t.get_num_dims() >= 2:
            return self._leading_dims(op, result, source_t, rewriter)
        array_t = self.converter.convert_type(result)
        source = self.llvm_value(op.source, rewriter)
        if array_t is None or source is None:
            return
        if isinstance(source_t, VectorType) and source_t.get_num_dims() == 0:
            # A 0-D vector is a vector<1xT> in LLVM: broadcast its element.
            rewriter.insert(at := _element_index(0))
            rewriter.insert(element := llvm.ExtractElementOp(source, at.result))
            source, source_t = element.res, source_t.element_type
        positions, row_t = array_positions(array_t)
        assert isinstance(row_t, VectorType)
        if isinstance(source_t, VectorType) and source_t.get_shape() != (
            row_t.get_shape()
        ):
            return  # a stretched innermost dim
        # Upstream's order: the array, then the row (splatted with itself).
        ops: list[Operation] = [acc := llvm.PoisonOp(array_t)]
        if isinstance(source_t, VectorType):
            row = source
        else:
            n = row_t.get_shape()[0]
            ops += [
                poison := llvm.PoisonOp(row_t),
                zero := llvm.ConstantOp(IntegerAttr(0, i32), i32),
                ins := llvm.InsertElementOp(poison.res, source, zero.result),
                splat := llvm.ShuffleVectorOp(
                    ins.res, ins.res, DenseArrayBase.from_list(i32, [0] * n), row_t
                ),
            ]
            row = splat.res
        current: SSAValue = acc.res
        for position in positions:
            ops.append(step := insert(current, row, *position))
            current = step.res
        replace_op(op, ops, [current], rewriter)

    def _leading_dims(
        self,
        op: vector.BroadcastOp,
        result: VectorType,
        source_t: VectorType,
        rewriter: PatternRewriter,
    ) -> None:
        """``vector<3x4xf32>`` to ``vector<2x3x4xf32>``: the source array inserted
        at each position of the new leading dims (upstream's duplication); other
        n-D to n-D broadcasts (stretched unit dims) are left."""
        added = result.get_num_dims() - source_t.get_num_dims()
        if added <= 0 or result.get_shape()[added:] != source_t.get_shape():
            return
        array_t = self.converter.convert_type(result)
        source = self.llvm_value(op.source, rewriter)
        if array_t is None or source is None:
            return
        positions = [()]
        for size in result.get_shape()[:added]:
            positions = [(*p, i) for p in positions for i in range(size)]
        ops: list[Operation] = [acc := llvm.PoisonOp(array_t)]
        current: SSAValue = acc.res
        for position in positions:
            ops.append(step := insert(current, source, *position))
            current = step.res
        replace_op(op, ops, [current], rewriter)


class LowerNDShapeCast(_NDPattern):
    """n-D to 1-D (and 1-D to n-D) ``shape_cast``: element by element, in row-major
    order, through the arrays' rows."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ShapeCastOp, rewriter: PatternRewriter):
        source_t, result_t = op.source.type, op.result.type
        assert isinstance(source_t, VectorType)
        assert isinstance(result_t, VectorType)
        if source_t.get_num_scalable_dims() or result_t.get_num_scalable_dims():
            return
        if source_t.get_num_dims() < 2 and result_t.get_num_dims() < 2:
            return
        source = self.llvm_value(op.source, rewriter)
        target_t = self.converter.convert_type(result_t)
        if source is None or target_t is None:
            return
        source_rows, source_row_t = array_positions(source.type)
        target_rows, target_row_t = array_positions(target_t)
        assert isinstance(source_row_t, VectorType)
        assert isinstance(target_row_t, VectorType)
        source_width = source_row_t.get_shape()[0]
        target_width = target_row_t.get_shape()[0]
        ops: list[Operation] = [acc := llvm.PoisonOp(target_t)]
        result: SSAValue = acc.res
        row_cache: dict[tuple[int, ...], SSAValue] = {}
        for t_row_index, t_row in enumerate(target_rows):
            ops.append(row_acc := llvm.PoisonOp(target_row_t))
            row: SSAValue = row_acc.res
            for lane in range(target_width):
                flat = t_row_index * target_width + lane
                s_row = source_rows[flat // source_width]
                if s_row not in row_cache:
                    if s_row:
                        ops.append(e := extract(source, *s_row))
                        row_cache[s_row] = e.res
                    else:
                        row_cache[s_row] = source
                ops.append(at := _element_index(flat % source_width))
                ops.append(x := llvm.ExtractElementOp(row_cache[s_row], at.result))
                ops.append(to := _element_index(lane))
                ops.append(ins := llvm.InsertElementOp(row, x.res, to.result))
                row = ins.res
            if t_row:
                ops.append(step := insert(result, row, *t_row))
                result = step.res
            else:
                result = row
        replace_op(op, ops, [result], rewriter)


class LowerNDFma(_NDPattern):
    """n-D ``fma``: ``llvm.intr.fmuladd`` row by row."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.FMAOp, rewriter: PatternRewriter):
        t = _n_d(op.lhs.type)
        if t is None:
            return
        operands = [self.llvm_value(v, rewriter) for v in (op.lhs, op.rhs, op.acc)]
        array_t = self.converter.convert_type(t)
        if array_t is None or any(v is None for v in operands):
            return
        positions, _ = array_positions(array_t)
        ops: list[Operation] = [acc := llvm.PoisonOp(array_t)]
        current: SSAValue = acc.res
        for position in positions:
            rows: list[SSAValue] = []
            for value in operands:
                assert value is not None
                ops.append(row := extract(value, *position))
                rows.append(row.res)
            ops.append(fma := llvm.FMulAddOp(rows[0], rows[1], rows[2]))
            ops.append(step := insert(current, fma.results[0], *position))
            current = step.res
        replace_op(op, ops, [current], rewriter)


def nd_vector_patterns(converter: LLVMTypeConverter) -> list[RewritePattern]:
    return [
        LowerNDExtract(converter),
        LowerNDInsert(converter),
        LowerNDBroadcast(converter),
        LowerNDShapeCast(converter),
        LowerNDFma(converter),
    ]


__all__ = ["nd_vector_patterns"]
