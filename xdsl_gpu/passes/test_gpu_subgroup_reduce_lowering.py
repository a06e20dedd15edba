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

Options, as MLIR 22: ``expand-to-shuffles`` (default false: nothing changes here) and
``target`` (accepted; it changes nothing for the reductions lowered here).

A 32-bit vector (``vector<2xf16>``) is shuffled as the ``i32`` element of a
``vector<1xi32>`` (``vector.bitcast``/``extract``, then ``broadcast``/``bitcast`` back).

Not here: MLIR 22's break-down of wider vector reductions into pieces of at most 32
bits (``vector<4xf16>`` as two ``vector<2xf16>``) and its padding of narrower ones:
such a ``gpu.subgroup_reduce`` stays.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import AnyFloat, IntegerType, ModuleOp, VectorType, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from xdsl_gpu.gpu_dialect.gpu import compute_ops as gpu
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
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


def _expand(op: gpu.SubgroupReduceOp, constants: list[arith.ConstantOp]) -> bool:
    """Expand one scalar reduction to shuffles; whether it was."""
    t = op.value.type
    width = _bit_width(t)
    if width is None or width > SHUFFLE_BITWIDTH:
        return False
    if isinstance(t, VectorType) and width != SHUFFLE_BITWIDTH:
        return False  # MLIR 22 pads these to 32 bits first: not here
    size = op.cluster_size.value.data if op.cluster_size is not None else SUBGROUP_SIZE
    stride = op.cluster_stride.value.data
    at = _Inserter(op, constants)
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

    value = op.value
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
        if not self.expand_to_shuffles:
            return
        for function in [o for o in preorder(op) if isinstance(o, kernel_ops.FuncOp)]:
            constants: list[arith.ConstantOp] = []
            for reduce in [
                o for o in preorder(function) if isinstance(o, gpu.SubgroupReduceOp)
            ]:
                _expand(reduce, constants)
            hoist_constants(function, constants)
