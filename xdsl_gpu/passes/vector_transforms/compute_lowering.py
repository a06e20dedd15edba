"""``contract``, ``outerproduct``, ``multi_reduction`` and ``transpose`` in terms of 1-D
vector ops, as upstream's vector transforms lower them before convert-vector-to-llvm
(MLIR 22):

* ``outerproduct %a, %b, %acc : vector<M>, vector<N>``: per row ``i``, ``vector.fma``
  of ``broadcast(a[i])``, ``b`` and ``acc[i]`` (floats; integers: ``muli`` +
  ``addi``); the AXPY form (scalar ``b``) is one ``fma``;
* ``multi_reduction``: an inner reduction per row is a ``vector.reduction`` with the
  row's accumulator; an outer one combines the rows elementwise into the
  accumulator; all dims: ``shape_cast`` to 1-D and one ``vector.reduction``;
* ``contract``: :mod:`.contract_lowering`;
* ``transpose``: element by element (upstream's ``eltwise``, the default).

Results are assembled from a broadcast zero by ``vector.insert``. An outer product of
another kind than ``<add>`` multiplies, then combines with the accumulator. Ops inside
a ``vector.mask`` are left to the masked lowerings (a masked ``multi_reduction``
stays, as upstream leaves it); scalable vectors are left too.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.gpu_dialect.llvm_matrix import MatrixTransposeOp
from xdsl_gpu.gpu_dialect.vector.attributes import CombiningKindFlag
from xdsl_gpu.passes.vector_transforms.common import OpSequence
from xdsl_gpu.passes.vector_transforms.contract_lowering import reduction_op

_FLOAT_COMBINE: dict[str, type[Operation]] = {
    "add": arith.AddfOp,
    "mul": arith.MulfOp,
    "maxnumf": arith.MaxnumfOp,
    "minnumf": arith.MinnumfOp,
    "maximumf": arith.MaximumfOp,
    "minimumf": arith.MinimumfOp,
}
_INT_COMBINE: dict[str, type[Operation]] = {
    "add": arith.AddiOp,
    "mul": arith.MuliOp,
    "maxsi": arith.MaxSIOp,
    "minsi": arith.MinSIOp,
    "maxui": arith.MaxUIOp,
    "minui": arith.MinUIOp,
    "and": arith.AndIOp,
    "or": arith.OrIOp,
    "xor": arith.XOrIOp,
}


def _kind(op: Operation) -> str:
    return op.properties["kind"].data.value  # pyright: ignore[reportAttributeAccessIssue]


def _combine(kind: str, element: Attribute) -> type[Operation] | None:
    table = _FLOAT_COMBINE if isinstance(element, AnyFloat) else _INT_COMBINE
    return table.get(kind)


def _fixed(t: Attribute) -> VectorType | None:
    if isinstance(t, VectorType) and not t.get_num_scalable_dims():
        return cast(VectorType, t)
    return None


class LowerOuterProduct(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.OuterProductOp, rewriter: PatternRewriter):
        result = _fixed(op.result.type)
        if result is None or isinstance(op.parent_op(), vector.MaskOp):
            return
        kind = _kind(op)
        element = result.element_type
        if kind != "add" and _combine(kind, element) is None:
            return
        b = OpSequence()
        if not isinstance(op.rhs.type, VectorType):  # AXPY: lhs * rhs + acc
            splat = b.add(vector.BroadcastOp(op.rhs, result))
            acc = op.acc if op.acc is not None else b.zeros(result)
            _multiply_add(b, op.lhs, splat, acc, element, kind)
            rewriter.replace(op, b.ops)
            return
        row_t = VectorType(element, result.get_shape()[1:])
        current = op.acc if op.acc is not None else b.zeros(result)
        acc_source = current
        for i in range(result.get_shape()[0]):
            a_i = b.extract(op.lhs, i)
            splat = b.add(vector.BroadcastOp(a_i, row_t))
            acc_i = b.extract(acc_source, i) if op.acc is not None else b.zeros(row_t)
            row = _multiply_add(b, splat, op.rhs, acc_i, element, kind)
            current = b.insert(row, current, i)
        rewriter.replace(op, b.ops, [current])


def _multiply_add(
    b: OpSequence,
    x: SSAValue,
    y: SSAValue,
    acc: SSAValue,
    element: Attribute,
    kind: str = "add",
) -> SSAValue:
    """``acc <kind> x * y``: ``vector.fma`` for a float ``<add>``."""
    if isinstance(element, AnyFloat):
        if kind == "add":
            return b.add(vector.FMAOp(x, y, acc))
        product_ = b.add(arith.MulfOp(x, y))
    else:
        product_ = b.add(arith.MuliOp(x, y))
    combine = _combine(kind, element)
    assert combine is not None
    return b.add(combine.create(operands=[product_, acc], result_types=[acc.type]))


class LowerMultiReduction(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.MultiDimReductionOp, rewriter: PatternRewriter
    ):
        source = _fixed(op.source.type)
        if source is None or isinstance(op.parent_op(), vector.MaskOp):
            return
        dims = sorted(op.reduction_dims.get_values())
        shape = source.get_shape()
        element = source.element_type
        kind = _kind(op)
        b = OpSequence()
        if not dims:
            rewriter.replace(op, [], [op.source])
            return
        if len(dims) == len(shape):  # everything: one 1-D reduction
            flat: SSAValue = op.source
            if len(shape) > 1:
                total = 1
                for d in shape:
                    total *= d
                flat = b.add(
                    vector.ShapeCastOp(op.source, VectorType(element, [total]))
                )
            b.add(reduction_op(flat, CombiningKindFlag(kind), op.acc))
            rewriter.replace(op, b.ops)
            return
        if len(shape) != 2:
            return  # n-D partial reductions: not lowered here
        combine = _combine(kind, element)
        if dims == [1]:  # inner: one reduction per row
            current = op.acc
            for i in range(shape[0]):
                row = b.extract(op.source, i)
                acc_i = b.extract(op.acc, i)
                reduced = b.add(reduction_op(row, CombiningKindFlag(kind), acc_i))
                current = b.insert(reduced, current, i)
            rewriter.replace(op, b.ops, [current])
            return
        if combine is None:
            return
        current = op.acc  # outer: rows combined elementwise into the accumulator
        for i in range(shape[0]):
            row = b.extract(op.source, i)
            current = b.add(
                combine.create(operands=[current, row], result_types=[current.type])
            )
        rewriter.replace(op, b.ops, [current])


@dataclass
class LowerTranspose(RewritePattern):
    """``vector-transpose-lowering``: element by element (``eltwise``, and every
    transpose that is not 2-D), or a 2-D transpose of the vector flattened
    row-major, by one ``vector.shuffle`` (``shuffle1d``) or
    ``llvm.intr.matrix.transpose`` (``llvmintr``), as upstream."""

    strategy: str = "eltwise"

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransposeOp, rewriter: PatternRewriter):
        result = _fixed(op.result.type)
        if result is None:
            return
        permutation = list(op.permutation.get_values())
        if self.strategy != "eltwise" and permutation == [1, 0]:
            rewriter.replace(op, self._flat(op.vector, result))
            return
        b = OpSequence()
        current = b.zeros(result)
        for index in product(*(range(d) for d in result.get_shape())):
            source_index = [0] * len(index)
            for dim, p in enumerate(permutation):
                source_index[p] = index[dim]
            element = b.extract(op.vector, *source_index)
            current = b.insert(element, current, *index)
        rewriter.replace(op, b.ops, [current])

    def _flat(self, source: SSAValue, result: VectorType) -> list[Operation]:
        rows, columns = cast(VectorType, source.type).get_shape()
        flat_t = VectorType(result.element_type, [rows * columns])
        flat = vector.ShapeCastOp(source, flat_t)
        moved: Operation
        if self.strategy == "llvmintr":
            # A row-major rows x columns matrix is a column-major columns x rows one.
            moved = MatrixTransposeOp(flat.result, columns, rows)
        else:
            mask = [c * columns + r for r in range(columns) for c in range(rows)]
            moved = vector.ShuffleOp(
                flat.result,
                flat.result,
                DenseArrayBase.from_list(i64, mask),
                result_type=flat_t,
            )
        return [flat, moved, vector.ShapeCastOp(moved.results[0], result)]


__all__ = [
    "LowerMultiReduction",
    "LowerOuterProduct",
    "LowerTranspose",
]
