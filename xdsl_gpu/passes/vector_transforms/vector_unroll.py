"""Unrolling n-D vector ops into ops on tiles of a native shape, as upstream's
``populateVectorUnrollPatterns`` (``VectorUnroll.cpp``, MLIR 22) for the ops it
covers here: ``vector.contract``, ``vector.transfer_read``, ``vector.transfer_write``
and elementwise ``arith``/``math`` ops.

Whoever builds the patterns says, per op, the native shape (``native_shape``; None:
leave the op) and for contractions the order of the tile loops
(``traversal_order``, outermost first; default the dims in order). An op whose shape
is its native shape, or is not a multiple of it, stays.

* ``contract``: one contraction per tile of the iteration space on
  ``extract_strided_slice``s of the operands, the accumulator of each output tile
  carried from one reduction tile to the next, the output tiles put together with
  ``insert_strided_slice`` into a zero vector.
* ``transfer_read``: one read per tile at the indices plus the tile's offset
  (``affine.apply (d0) -> (d0 + offset)``), inserted into a zero vector.
* ``transfer_write``: one write per tile of an ``extract_strided_slice`` of the value.
* elementwise: the op on slices of its vector operands, put together likewise.

With the folds MLIR's greedy driver applies on the way (:data:`SLICE_FOLDS`: a
slice of a vector's full shape is the vector; a slice of an ``insert_strided_slice``
chain that one insert covers is taken from the inserted value; a slice of a splat
constant is a smaller splat), the slices between unrolled producers and consumers
disappear.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import product

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    VectorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove

from xdsl_gpu.gpu_dialect import vector

NativeShape = Callable[[Operation], Sequence[int] | None]
TraversalOrder = Callable[[Operation], Sequence[int] | None]


def _fixed(t: object) -> VectorType | None:
    if isinstance(t, VectorType) and t.get_num_dims() and not t.get_num_scalable_dims():
        return t
    return None


def _ints(attr: object) -> list[int]:
    return [a.value.data for a in attr.data]  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType]


def _full_rank_target(
    shape: Sequence[int], native: Sequence[int] | None
) -> list[int] | None:
    """:func:`_target_shape` where it has ``shape``'s rank (what every pattern here
    unrolls to), else None."""
    target = _target_shape(shape, native)
    return target if target is not None and len(target) == len(shape) else None


def _target_shape(
    shape: Sequence[int], native: Sequence[int] | None
) -> list[int] | None:
    """``native`` where ``shape`` is a multiple of it (trailing dims aligned) and
    not ``shape`` itself (upstream's ``getTargetShape``)."""
    if native is None or len(native) > len(shape) or not len(native):
        return None
    lead = len(shape) - len(native)
    if any(n <= 0 or s % n for s, n in zip(shape[lead:], native)):
        return None
    ratio = [*shape[:lead], *(s // n for s, n in zip(shape[lead:], native))]
    if all(r == 1 for r in ratio):
        return None
    return list(native)


def tile_offsets(
    shape: Sequence[int], tile: Sequence[int], order: Sequence[int] | None = None
) -> Iterator[list[int]]:
    """The offsets of the tiles of ``shape``, the dims of ``order`` from the outermost
    loop in (upstream's ``StaticTileOffsetRange``)."""
    order = list(order) if order is not None else list(range(len(shape)))
    counts = [-(-s // t) for s, t in zip(shape, tile)]
    for indices in product(*(range(counts[d]) for d in order)):
        offsets = [0] * len(shape)
        for d, i in zip(order, indices):
            offsets[d] = i * tile[d]
        yield offsets


def _constant(
    rewriter: PatternRewriter,
    at: Operation,
    value: IntegerAttr | DenseIntOrFPElementsAttr,
) -> SSAValue:
    """An ``arith.constant`` of ``value``: an equal one at the start of the
    function's body, made there if there is none, as MLIR's greedy driver hoists and
    uniques the constants that patterns and folds make."""
    scope = at.parent_op()
    while scope is not None and not scope.has_trait(IsolatedFromAbove):
        scope = scope.parent_op()
    entry = scope.regions[0].blocks.first if scope and scope.regions else None
    if entry is None:
        constant = arith.ConstantOp(value)
        rewriter.insert(constant)
        return constant.result
    for op in entry.ops:
        if isinstance(op, arith.ConstantOp) and op.value == value:
            return op.result
    constant = arith.ConstantOp(value)
    rewriter.insert(constant, InsertPoint.at_start(entry))
    return constant.result


def _zeros(rewriter: PatternRewriter, at: Operation, t: VectorType) -> SSAValue:
    zero = 0.0 if isinstance(t.element_type, AnyFloat) else 0
    values = DenseIntOrFPElementsAttr.from_list(t, [zero] * t.element_count())  # pyright: ignore[reportCallIssue, reportArgumentType, reportUnknownVariableType]
    return _constant(rewriter, at, values)  # pyright: ignore[reportUnknownArgumentType]


def _extract(
    rewriter: PatternRewriter,
    source: SSAValue,
    offsets: Sequence[int],
    sizes: Sequence[int],
) -> SSAValue:
    """``extract_strided_slice``, or ``source`` itself for its whole shape."""
    t = _fixed(source.type)
    assert t is not None
    if list(sizes) == list(t.get_shape()):
        return source
    result = VectorType(t.element_type, sizes)
    op = vector.ExtractStridedSliceOp(
        source, list(offsets), list(sizes), [1] * len(sizes), result
    )
    rewriter.insert(op)
    return op.result


def _insert(
    rewriter: PatternRewriter, value: SSAValue, dest: SSAValue, offsets: Sequence[int]
) -> SSAValue:
    if value.type == dest.type:
        return value
    t = _fixed(value.type)
    assert t is not None
    op = vector.InsertStridedSliceOp(value, dest, list(offsets), [1] * t.get_num_dims())
    rewriter.insert(op)
    return op.res


def _sliced_indices(
    rewriter: PatternRewriter,
    transfer: Operation,
    indices: Sequence[SSAValue],
    permutation: AffineMap,
    offsets: Sequence[int],
) -> list[SSAValue]:
    """The transfer's indices moved by the tile's offsets (upstream's
    ``sliceTransferIndices``, with the folds of MLIR's greedy driver: no
    ``affine.apply`` where the offset is 0, a constant where the index is one)."""
    moved = list(indices)
    for k, expr in enumerate(permutation.results):
        if not isinstance(expr, AffineDimExpr) or not offsets[k]:
            continue
        index = indices[expr.position]
        if isinstance(c := index.owner, arith.ConstantOp) and isinstance(
            c.value, IntegerAttr
        ):
            shifted = IntegerAttr(c.value.value.data + offsets[k], IndexType())
            moved[expr.position] = _constant(rewriter, transfer, shifted)
            continue
        shift = AffineMap(1, 0, (AffineExpr.dimension(0) + offsets[k],))
        apply = affine.ApplyOp([indices[expr.position]], AffineMapAttr(shift))
        rewriter.insert(apply)
        moved[expr.position] = apply.result
    return moved


@dataclass
class UnrollOptions:
    native_shape: NativeShape
    traversal_order: TraversalOrder = field(default=lambda op: None)


@dataclass
class UnrollContraction(RewritePattern):
    options: UnrollOptions

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ContractionOp, rewriter: PatternRewriter):
        result_type = _fixed(op.result.type)
        if result_type is None:
            return
        sizes = op.iteration_sizes()
        if sorted(sizes) != list(range(len(op.iterator_types.data))):
            return
        shape = [sizes[d] for d in range(len(sizes))]
        target = _full_rank_target(shape, self.options.native_shape(op))
        if target is None:
            return
        maps = op.maps

        def permuted(m: AffineMap, values: Sequence[int]) -> list[int]:
            return [
                values[e.position] for e in m.results if isinstance(e, AffineDimExpr)
            ]

        order = self.options.traversal_order(op)
        accumulators: dict[tuple[int, ...], SSAValue] = {}
        for offsets in tile_offsets(shape, target, order):
            lhs = _extract(
                rewriter, op.lhs, permuted(maps[0], offsets), permuted(maps[0], target)
            )
            rhs = _extract(
                rewriter, op.rhs, permuted(maps[1], offsets), permuted(maps[1], target)
            )
            acc_at = tuple(permuted(maps[2], offsets))
            acc_shape = permuted(maps[2], target)
            acc = accumulators.get(acc_at)
            if acc is None:
                acc = _extract(rewriter, op.acc, acc_at, acc_shape)
            tile = vector.ContractionOp.create(
                operands=[lhs, rhs, acc],
                result_types=[VectorType(result_type.element_type, acc_shape)],
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
            rewriter.insert(tile)
            accumulators[acc_at] = tile.results[0]
        result = _zeros(rewriter, op, result_type)
        for at, value in accumulators.items():
            result = _insert(rewriter, value, result, at)
        rewriter.replace(op, [], [result])


@dataclass
class UnrollTransferRead(RewritePattern):
    options: UnrollOptions

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferReadOp, rewriter: PatternRewriter):
        t = _fixed(op.result.type)
        if t is None or op.mask is not None:
            return
        shape = list(t.get_shape())
        target = _full_rank_target(shape, self.options.native_shape(op))
        if target is None:
            return
        result = _zeros(rewriter, op, t)
        tile_type = VectorType(t.element_type, target)
        for offsets in tile_offsets(shape, target):
            indices = _sliced_indices(
                rewriter, op, list(op.indices), op.permutation_map.data, offsets
            )
            read = vector.TransferReadOp.create(
                operands=[op.source, *indices, op.padding],
                result_types=[tile_type],
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
            rewriter.insert(read)
            result = _insert(rewriter, read.results[0], result, offsets)
        rewriter.replace(op, [], [result])


@dataclass
class UnrollTransferWrite(RewritePattern):
    options: UnrollOptions

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferWriteOp, rewriter: PatternRewriter):
        t = _fixed(op.vector.type)
        if t is None or op.mask is not None:
            return
        shape = list(t.get_shape())
        target = _full_rank_target(shape, self.options.native_shape(op))
        if target is None:
            return
        destination = op.source
        for offsets in tile_offsets(shape, target):
            value = _extract(rewriter, op.vector, offsets, target)
            indices = _sliced_indices(
                rewriter, op, list(op.indices), op.permutation_map.data, offsets
            )
            write = vector.TransferWriteOp.create(
                operands=[value, destination, *indices],
                result_types=[r.type for r in op.results],
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
            rewriter.insert(write)
            if write.results:  # a tensor: the next tile writes into this one
                destination = write.results[0]
        rewriter.replace(op, [], [destination] if op.results else [])


def is_elementwise(op: Operation) -> bool:
    """Upstream's ``ElementwiseMappable`` ops among those xdsl-gpu knows: ``arith``
    (but ``arith.constant``) and ``math``, one vector result."""
    dialect = op.name.split(".", 1)[0]
    return (
        dialect in ("arith", "math")
        and op.name != "arith.constant"
        and len(op.results) == 1
        and _fixed(op.results[0].type) is not None
    )


@dataclass
class UnrollElementwise(RewritePattern):
    options: UnrollOptions

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if not is_elementwise(op) or op.regions or op.successors:
            return
        t = _fixed(op.results[0].type)
        assert t is not None
        shape = list(t.get_shape())
        if any(
            (ot := _fixed(o.type)) is not None and list(ot.get_shape()) != shape
            for o in op.operands
        ):
            return
        target = _full_rank_target(shape, self.options.native_shape(op))
        if target is None:
            return
        result = _zeros(rewriter, op, t)
        for offsets in tile_offsets(shape, target):
            operands = [
                _extract(rewriter, o, offsets, target)
                if _fixed(o.type) is not None
                else o
                for o in op.operands
            ]
            tile = type(op).create(
                operands=operands,
                result_types=[VectorType(t.element_type, target)],
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
            rewriter.insert(tile)
            result = _insert(rewriter, tile.results[0], result, offsets)
        rewriter.replace(op, [], [result])


# -- the folds MLIR's greedy driver applies to the slices ------------------------------


class FoldFullSlice(RewritePattern):
    """A strided slice of the whole vector is the vector (inserted: the value)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if isinstance(op, vector.ExtractStridedSliceOp):
            if op.source.type == op.result.type:
                rewriter.replace(op, [], [op.source])
        elif isinstance(op, vector.InsertStridedSliceOp):
            if op.valueToStore.type == op.res.type:
                rewriter.replace(op, [], [op.valueToStore])


class FoldSliceOfInsertChain(RewritePattern):
    """``extract_strided_slice`` of a chain of ``insert_strided_slice``s: from the
    value of the insert that covers the slice (inserts disjoint from it skipped), as
    upstream's ``foldExtractStridedOpFromInsertChain``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.ExtractStridedSliceOp, rewriter: PatternRewriter
    ):
        offsets, sizes = _ints(op.offsets), _ints(op.sizes)
        if any(s != 1 for s in _ints(op.strides)):
            return
        insert = op.source.owner
        while isinstance(insert, vector.InsertStridedSliceOp):
            inserted = _fixed(insert.valueToStore.type)
            source = _fixed(op.source.type)
            if inserted is None or source is None:
                return
            if inserted.get_num_dims() != source.get_num_dims():
                return
            starts = _ints(insert.offsets)
            diffs: list[int] = []
            disjoint = False
            for dim, offset in enumerate(offsets):
                start, end = starts[dim], starts[dim] + inserted.get_shape()[dim]
                if start <= offset < end:
                    if offset + sizes[dim] > end:
                        return  # a partial overlap
                    diffs.append(offset - start)
                else:
                    disjoint = True
                    break
            if not disjoint:
                new = vector.ExtractStridedSliceOp(
                    insert.valueToStore,
                    [*diffs, *offsets[len(diffs) :]],
                    sizes,
                    _ints(op.strides),
                    op.result.type,  # pyright: ignore[reportArgumentType]
                )
                if new.source.type == new.result.type:
                    rewriter.replace(op, [], [insert.valueToStore])
                else:
                    rewriter.replace(op, new)
                return
            insert = insert.dest.owner


class FoldSliceOfSplat(RewritePattern):
    """A slice of a splat constant is the smaller splat."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.ExtractStridedSliceOp, rewriter: PatternRewriter
    ):
        constant = op.source.owner
        if not isinstance(constant, arith.ConstantOp):
            return
        value = constant.value
        if not isinstance(value, DenseIntOrFPElementsAttr) or not value.is_splat():
            return
        t = _fixed(op.result.type)
        if t is None:
            return
        first = value.get_values()[0]
        rewriter.replace(
            op,
            arith.ConstantOp(
                DenseIntOrFPElementsAttr.from_list(t, [first] * t.element_count())  # pyright: ignore[reportCallIssue, reportArgumentType, reportUnknownArgumentType]
            ),
        )


SLICE_FOLDS: tuple[RewritePattern, ...] = (
    FoldFullSlice(),
    FoldSliceOfInsertChain(),
    FoldSliceOfSplat(),
)


def vector_unroll_patterns(options: UnrollOptions) -> list[RewritePattern]:
    return [
        UnrollContraction(options),
        UnrollTransferRead(options),
        UnrollTransferWrite(options),
        UnrollElementwise(options),
        *SLICE_FOLDS,
    ]


__all__ = [
    "SLICE_FOLDS",
    "UnrollOptions",
    "is_elementwise",
    "tile_offsets",
    "vector_unroll_patterns",
]
