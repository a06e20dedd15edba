"""``transform.nvgpu.rewrite_matmul_as_mma_sync``: a ``linalg.matmul`` on memrefs
whose shape is exactly one ``mma.sync`` becomes that ``nvgpu.mma.sync``.

Upstream: ``RewriteMatmulAsMmaSyncOp`` in ``NVGPUTransformOps.cpp`` (MLIR 22). The
lane id is ``gpu.thread_id x`` (one warp is assumed, as upstream). Each lane loads
the elements of A, B and C that the PTX fragment layout gives it (``memref.load`` at
``affine.apply`` indices of the lane id), packs them with ``vector.broadcast`` and
``vector.insert`` into the operand vectors ``nvgpu.mma.sync`` takes, and stores the
result's elements back with ``vector.extract`` and ``memref.store``. Supported, as
upstream: m16n8k16 with f16 A, B and C; m16n8k4 with f32 (run as tf32).

The index maps are written in the form MLIR's affine simplification leaves them in
(``(lane mod 4) * 2`` is ``lane * 2 - (lane floordiv 4) * 8``), so the IR is
mlir-opt-22's op for op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import product

from xdsl.dialects import affine, memref
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    Float16Type,
    Float32Type,
    MemRefType,
    VectorType,
)
from xdsl.dialects.linalg.ops import MatmulOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.gpu_dialect.gpu.compute_ops import ThreadIdOp
from xdsl_gpu.gpu_dialect.nvgpu.mma_ops import MmaSyncOp

Indexing = tuple[AffineExpr, AffineExpr]
"""(row, column) of one element a lane holds, a function of the lane id (s0)."""

_LANE = AffineExpr.symbol(0)
_GROUP = _LANE // 4  # groupID = laneid >> 2
_IN_GROUP = _LANE % 4  # threadID_in_group = laneid % 4


def _in_group_times_2(offset: int) -> AffineExpr:
    """``threadID_in_group * 2 + offset``, as MLIR simplifies it."""
    return _LANE * 2 - _GROUP * 8 + offset if offset else _LANE * 2 - _GROUP * 8


def _f16_lhs() -> list[Indexing]:
    """A of m16n8k16 (PTX ISA, "Matrix Fragments for mma.m16n8k16"): a0..a7."""
    return [
        (_GROUP + 8 * (i // 2 % 2), _in_group_times_2(i % 2 + 8 * (i // 4)))
        for i in range(8)
    ]


def _f16_rhs() -> list[Indexing]:
    """B of m16n8k16: b0..b3, column groupID."""
    return [(_in_group_times_2(i % 2 + 8 * (i // 2)), _GROUP) for i in range(4)]


def _acc() -> list[Indexing]:
    """C/D of m16n8k16 and m16n8k4 alike: c0..c3."""
    return [(_GROUP + 8 * (i // 2), _in_group_times_2(i % 2)) for i in range(4)]


def _tf32_lhs() -> list[Indexing]:
    """A of m16n8k4 tf32: a0, a1."""
    return [(_GROUP, _IN_GROUP), (_GROUP + 8, _IN_GROUP)]


def _tf32_rhs() -> list[Indexing]:
    """B of m16n8k4 tf32: b0."""
    return [(_IN_GROUP, _GROUP)]


@dataclass(frozen=True)
class MmaSyncShape:
    """One ``mma.sync`` a matmul maps onto: the lanes' element positions and the
    operand vector shapes of ``nvgpu.mma.sync``."""

    mnk: tuple[int, int, int]
    element: type[AnyFloat]
    indexings: tuple[
        Callable[[], list[Indexing]],
        Callable[[], list[Indexing]],
        Callable[[], list[Indexing]],
    ]
    vector_shapes: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    tf32: bool


SHAPES = (
    MmaSyncShape(
        (16, 8, 4),
        Float32Type,
        (_tf32_lhs, _tf32_rhs, _acc),
        ((2, 1), (1, 1), (2, 2)),
        True,
    ),
    MmaSyncShape(
        (16, 8, 16),
        Float16Type,
        (_f16_lhs, _f16_rhs, _acc),
        ((4, 2), (2, 2), (2, 2)),
        False,
    ),
)
"""What upstream supports (f16 accumulation only; no f32-accumulated f16)."""


def default_matmul_maps() -> Attribute:
    return MatmulOp.get_irdl_definition().properties["indexing_maps"].default_value  # pyright: ignore[reportReturnType]


def has_user_defined_maps(op: MatmulOp) -> bool:
    """Upstream's ``hasUserDefinedMaps``: maps other than the plain matmul's."""
    return op.indexing_maps != default_matmul_maps()


def mma_sync_shape(op: MatmulOp) -> MmaSyncShape | None:
    """The ``mma.sync`` ``op`` is one of, or None (other shapes, element types, or
    operands that are not 2-D memrefs)."""
    operands = [*op.inputs, *op.outputs]
    types = [o.type for o in operands]
    if len(types) != 3 or not all(
        isinstance(t, MemRefType) and len(t.get_shape()) == 2 for t in types
    ):
        return None
    lhs, rhs, _ = (t for t in types if isinstance(t, MemRefType))
    m, k = lhs.get_shape()
    n = rhs.get_shape()[1]
    for shape in SHAPES:
        if shape.mnk == (m, n, k) and all(
            isinstance(t, MemRefType) and isinstance(t.element_type, shape.element)
            for t in types
        ):
            return shape
    return None


@dataclass
class _Builder:
    rewriter: Rewriter
    at: InsertPoint
    lane: SSAValue

    def insert(self, op: Operation) -> Operation:
        self.rewriter.insert_op(op, self.at)
        return op

    def index(self, expr: AffineExpr) -> SSAValue:
        """``affine.apply`` of ``expr`` to the lane id (one per use, as upstream)."""
        apply = affine.ApplyOp([self.lane], AffineMapAttr(AffineMap(0, 1, (expr,))))
        return self.insert(apply).results[0]

    def loads(self, source: SSAValue, indexings: list[Indexing]) -> list[SSAValue]:
        values: list[SSAValue] = []
        for row, col in indexings:
            indices = [self.index(row), self.index(col)]
            values.append(self.insert(memref.LoadOp.get(source, indices)).results[0])
        return values

    def operand(
        self, source: SSAValue, indexings: list[Indexing], shape: Sequence[int]
    ) -> SSAValue:
        """The vector of ``shape`` of this lane's elements of ``source``."""
        loads = self.loads(source, indexings)
        assert isinstance(source.type, MemRefType)
        t = VectorType(source.type.element_type, shape)
        packed = self.insert(vector.BroadcastOp(loads[0], t)).results[0]
        for value, position in zip(loads, product(*(range(d) for d in shape))):
            packed = self.insert(
                vector.InsertOp(value, packed, list(position))
            ).results[0]
        return packed

    def store(
        self,
        result: SSAValue,
        target: SSAValue,
        indexings: list[Indexing],
        shape: Sequence[int],
    ) -> None:
        assert isinstance(target.type, MemRefType)
        element = target.type.element_type
        values = [
            self.insert(vector.ExtractOp(result, list(position), element)).results[0]
            for position in product(*(range(d) for d in shape))
        ]
        for value, (row, col) in zip(values, indexings, strict=True):
            indices = [self.index(row), self.index(col)]
            self.insert(memref.StoreOp.get(value, target, indices))


def rewrite_matmul_as_mma_sync(op: MatmulOp, shape: MmaSyncShape) -> None:
    """Replace ``op`` by the lane-distributed ``nvgpu.mma.sync`` of ``shape``."""
    rewriter = Rewriter()
    at = InsertPoint.before(op)
    lane = ThreadIdOp("x")
    rewriter.insert_op(lane, at)
    b = _Builder(rewriter, at, lane.results[0])
    lhs, rhs, acc = (*op.inputs, *op.outputs)
    lhs_at, rhs_at, acc_at = (f() for f in shape.indexings)
    lhs_shape, rhs_shape, acc_shape = shape.vector_shapes
    a = b.operand(lhs, lhs_at, lhs_shape)
    bb = b.operand(rhs, rhs_at, rhs_shape)
    c = b.operand(acc, acc_at, acc_shape)
    mma = b.insert(MmaSyncOp(a, bb, c, list(shape.mnk), tf32_enabled=shape.tf32))
    b.store(mma.results[0], acc, acc_at, acc_shape)
    rewriter.erase_op(op)


__all__ = [
    "SHAPES",
    "MmaSyncShape",
    "has_user_defined_maps",
    "mma_sync_shape",
    "rewrite_matmul_as_mma_sync",
]
