"""``test-gpu-subgroup-reduce-lowering``: MLIR's test pass for ``gpu.subgroup_reduce``.

Upstream: ``mlir/test/lib/Dialect/GPU/TestGpuRewrite.cpp`` with
``mlir/lib/Dialect/GPU/Transforms/SubgroupReduceLowering.cpp`` (MLIR 22), applied
greedily. With ``expand-to-shuffles``, a scalar ``gpu.subgroup_reduce`` of at most 32
bits (``uniform`` or not) becomes a butterfly over a 32-lane subgroup: for
``offset = stride, 2·stride, ... < stride·size`` (no cluster: 1 to 16), a ``xor``
``gpu.shuffle`` of width 32 and the ``arith`` op of the kind. A value narrower than 32
bits is shuffled as an ``i32``: bitcast to an integer (floats), ``extui``, and back
with ``trunci`` (and a bitcast). As with ``test-gpu-rewrite``, the constants the
rewrite creates are unique and placed at the start of the function.

Options, as MLIR 22: ``expand-to-shuffles`` (default false: only the break-down below) and
``target`` (accepted; it changes nothing for the reductions lowered here).

Always (before the expansion, as MLIR 22's patterns of higher benefit): a 1-D vector
wider than 32 bits is reduced in pieces of at most 32 bits
(``vector.extract_strided_slice`` → reduction → ``vector.insert_strided_slice`` into
zeros; a lone element through ``vector.extract``/``insert``), and a ``vector<1xT>`` as
its element (``vector.extract``, ``vector.broadcast``). A vector of at most 32 bits is
shuffled as the ``i32`` element of a ``vector<1xi32>`` (``vector.bitcast``/``extract``,
then ``broadcast``/``bitcast`` back), padded with zeros to 32 bits first
(``insert_strided_slice``) and cut back at the end.

Not here: the greedy driver visits the constants in an order that this pass does not
reproduce everywhere; where a function mixes kinds of reductions the hoisted
constants may come in another order than ``mlir-opt-22``'s (the same values).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from xdsl_gpu.gpu_dialect.gpu import compute_ops as gpu
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.gpu_dialect.vector.shape_ops import (
    ExtractStridedSliceOp,
    InsertStridedSliceOp,
)
from xdsl_gpu.passes.gpu_to_nvvm_patterns.reductions import kind_combiner
from xdsl_gpu.passes.ir_walk import preorder
from xdsl_gpu.passes.options import UpstreamOptions
from xdsl_gpu.passes.test_gpu_rewrite import SUBGROUP_SIZE, hoist_constants

SHUFFLE_BITWIDTH = 32


def _bit_width(t: Attribute) -> int | None:
    if isinstance(t, VectorType):
        element = _bit_width(t.get_element_type())
        return None if element is None else element * t.element_count()
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, AnyFloat):
        return t.bitwidth
    return None


class _Inserter:
    """Inserts before one op; keeps the constants it creates."""

    def __init__(self, before: Operation, constants: list[arith.ConstantOp]):
        self.before = before
        self.constants = constants

    def insert(self, op: Operation) -> Operation:
        block = self.before.parent_block()
        assert block is not None
        block.insert_op_before(op, self.before)
        if isinstance(op, arith.ConstantOp):
            self.constants.append(op)
        return op

    def value(self, op: Operation) -> SSAValue:
        return self.insert(op).results[0]

    def const(self, value: int) -> SSAValue:
        return self.value(arith.ConstantOp.from_int_and_width(value, i32))


def _i64_array(*values: int) -> ArrayAttr[IntegerAttr]:
    return ArrayAttr([IntegerAttr(v, 64) for v in values])


def _extract_slice(at: _Inserter, v: SSAValue, start: int, size: int) -> SSAValue:
    t = v.type
    assert isinstance(t, VectorType)
    return at.value(
        ExtractStridedSliceOp.create(
            operands=[v],
            result_types=[VectorType(t.get_element_type(), [size])],
            properties={
                "offsets": _i64_array(start),
                "sizes": _i64_array(size),
                "strides": _i64_array(1),
            },
        )
    )


def _insert_slice(at: _Inserter, v: SSAValue, dest: SSAValue, start: int) -> SSAValue:
    return at.value(
        InsertStridedSliceOp.create(
            operands=[v, dest],
            result_types=[dest.type],
            properties={"offsets": _i64_array(start), "strides": _i64_array(1)},
        )
    )


def _zeros(at: _Inserter, t: VectorType) -> SSAValue:
    element = t.get_element_type()
    zero = 0.0 if isinstance(element, AnyFloat) else 0
    return at.value(
        arith.ConstantOp(
            DenseIntOrFPElementsAttr.from_list(t, [zero] * t.element_count())  # pyright: ignore[reportCallIssue, reportArgumentType]
        )
    )


def _reduce_like(at: _Inserter, op: gpu.SubgroupReduceOp, v: SSAValue) -> SSAValue:
    new = gpu.SubgroupReduceOp(
        v,
        op.op,
        uniform=op.uniform is not None,
        cluster_size=op.cluster_size.value.data if op.cluster_size else None,
        cluster_stride=op.cluster_stride.value.data,
    )
    return at.value(new)


def _break_down(op: gpu.SubgroupReduceOp, constants: list[arith.ConstantOp]) -> bool:
    """MLIR 22's break-down: a vector wider than 32 bits as reductions of pieces of
    at most 32 bits (a lone element as a scalar) put back together; a
    ``vector<1xT>`` as a reduction of its element."""
    t = op.value.type
    if not isinstance(t, VectorType) or len(t.get_shape()) != 1:
        return False
    at = _Inserter(op, constants)
    n = t.get_shape()[0]
    element = t.get_element_type()
    if n == 1:
        scalar = at.value(vector.ExtractOp(op.value, [0], element))
        reduced = _reduce_like(at, op, scalar)
        result = at.value(vector.BroadcastOp(reduced, t))
    else:
        bits = _bit_width(element)
        if bits is None or bits * n <= SHUFFLE_BITWIDTH:
            return False
        per_shuffle = SHUFFLE_BITWIDTH // bits
        if per_shuffle == 0:
            return False
        result = _zeros(at, t)
        for start in range(0, n, per_shuffle):
            size = min(per_shuffle, n - start)
            if size == 1:
                scalar = at.value(vector.ExtractOp(op.value, [start], element))
                reduced = _reduce_like(at, op, scalar)
                result = at.value(vector.InsertOp(reduced, result, [start]))
            else:
                piece = _extract_slice(at, op.value, start, size)
                reduced = _reduce_like(at, op, piece)
                result = _insert_slice(at, reduced, result, start)
    op.result.replace_all_uses_with(result)
    Rewriter.erase_op(op)
    return True


def _expand(op: gpu.SubgroupReduceOp, constants: list[arith.ConstantOp]) -> bool:
    """Expand one scalar reduction to shuffles; whether it was."""
    t = op.value.type
    width = _bit_width(t)
    if width is None or width > SHUFFLE_BITWIDTH:
        return False
    if isinstance(t, VectorType) and len(t.get_shape()) != 1:
        return False
    size = op.cluster_size.value.data if op.cluster_size is not None else SUBGROUP_SIZE
    stride = op.cluster_stride.value.data
    at = _Inserter(op, constants)
    value = op.value
    original = t
    if isinstance(t, VectorType) and width < SHUFFLE_BITWIDTH:
        # Padded with zeros to 32 bits, the extra elements dropped at the end.
        element = t.get_element_type()
        element_bits = _bit_width(element)
        assert element_bits is not None
        t = VectorType(element, [SHUFFLE_BITWIDTH // element_bits])
        value = _insert_slice(at, value, _zeros(at, t), 0)
        width = SHUFFLE_BITWIDTH
    combine = kind_combiner(op.op.data, t)
    narrow = IntegerType(width)

    one_i32 = VectorType(i32, [1])

    def pack(value: SSAValue) -> SSAValue:
        if isinstance(t, VectorType):  # 32 bits: as vector<1xi32>, element 0
            cast = at.value(vector.BitcastOp(value, one_i32))
            return at.value(vector.ExtractOp(cast, [0], i32))
        if width == SHUFFLE_BITWIDTH:
            return value
        if not isinstance(t, IntegerType):
            value = at.value(arith.BitcastOp(value, narrow))
        return at.value(arith.ExtUIOp(value, i32))

    def unpack(value: SSAValue) -> SSAValue:
        if isinstance(t, VectorType):
            splat = at.value(vector.BroadcastOp(value, one_i32))
            return at.value(vector.BitcastOp(splat, t))
        if width == SHUFFLE_BITWIDTH:
            return value
        value = at.value(arith.TruncIOp(value, narrow))
        if not isinstance(t, IntegerType):
            value = at.value(arith.BitcastOp(value, t))
        return value

    offset = stride
    while offset < stride * size:
        packed = pack(value)
        # MLIR 22 makes the width constant first for scalars, the offset first for
        # vectors (it matters for the order of the hoisted constants).
        if isinstance(t, VectorType):
            shift = at.const(offset)
            lanes = at.const(SUBGROUP_SIZE)
        else:
            lanes = at.const(SUBGROUP_SIZE)
            shift = at.const(offset)
        shuffle = gpu.ShuffleOp(packed, shift, lanes, gpu.ShuffleMode.XOR)
        at.insert(shuffle)
        value = combine(at, value, unpack(shuffle.results[0]))  # pyright: ignore[reportArgumentType]
        offset <<= 1
    if original != t:
        assert isinstance(original, VectorType)
        value = _extract_slice(at, value, 0, original.get_shape()[0])
    op.result.replace_all_uses_with(value)
    Rewriter.erase_op(op)
    return True


@dataclass(frozen=True)
class TestGpuSubgroupReduceLoweringPass(UpstreamOptions, ModulePass):
    """Lower ``gpu.subgroup_reduce`` (see the module docstring).

    Options:
      expand-to-shuffles: expand scalar reductions to ``gpu.shuffle`` butterflies.
      target: the backend (accepted; no effect here).
    """

    name = "test-gpu-subgroup-reduce-lowering"

    expand_to_shuffles: bool = False
    target: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in [o for o in preorder(op) if isinstance(o, kernel_ops.FuncOp)]:
            constants: list[arith.ConstantOp] = []
            for reduce in self._reductions(function):
                _break_down(reduce, constants)
            if self.expand_to_shuffles:
                for reduce in self._reductions(function):
                    _expand(reduce, constants)
            hoist_constants(function, constants)

    @staticmethod
    def _reductions(function: Operation) -> list[gpu.SubgroupReduceOp]:
        return [o for o in preorder(function) if isinstance(o, gpu.SubgroupReduceOp)]
