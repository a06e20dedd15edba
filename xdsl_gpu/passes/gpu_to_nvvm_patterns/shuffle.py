"""Lane exchange: ``gpu.shuffle``, ``gpu.rotate`` and ``gpu.subgroup_broadcast`` →
``nvvm.shfl.sync``.

``gpu.shuffle %v, %offset, %width`` is upstream's lowering: thread mask
``-1 >> (32 - width)``, clamp ``width - 1`` (``32 - width`` for ``up``), and, when the
``valid`` result is used, the struct form ``{return_value_and_is_valid}`` whose second
field is ``valid``.

``shfl.sync`` moves 32 bits. Upstream lowers ``i32``/``f32`` directly and splits
``i64``/``f64`` into two 32-bit shuffles (in its pre-pass), and fails for anything else.
Here every value of at most 64 bits moves, the same way: narrower integers and floats
are widened to ``i32`` (bitcast, zext; trunc back), 64-bit values are split into two
halves (``valid`` is the and of both), and a 1-D vector is bitcast to one integer when
it fits in 32 or 64 bits, else shuffled element by element.

Beyond MLIR 22 (which cannot lower them):

* ``gpu.rotate %v, offset, width``: ``shfl.sync idx`` from lane
  ``laneid + offset`` in segments of ``width`` lanes (clamp
  ``((32 - width) << 8) | 31``), so lane ``k`` reads lane
  ``((k + offset) & (width - 1)) + (k & ~(width - 1))``; ``valid`` is
  ``laneid < width``.
* ``gpu.subgroup_broadcast``: ``shfl.sync idx`` from ``%lane`` (``specific_lane``), or
  from the lowest set bit of the active mask (``first_active_lane``).

Both use the active mask (``llvm.nvvm.activemask``) as the thread mask: the lanes
that reach the op together take part, whatever the surrounding control flow.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    UnrealizedConversionCastOp,
    VectorType,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xdsl_gpu.gpu_dialect import llvm, nvvm
from xdsl_gpu.gpu_dialect.gpu import compute_ops as gpu
from xdsl_gpu.passes.gpu_to_nvvm_patterns.common import (
    WARP_SIZE,
    NVVMLowering,
    i32_constant,
    int_constant,
    legalize_error,
)
from xdsl_gpu.passes.llvm_type_converter import convert_operands, replace_op

ShuffleEmitter = Callable[[Builder, SSAValue], tuple[SSAValue, SSAValue | None]]
"""Emits one 32-bit ``shfl.sync`` of an ``i32``/``f32`` value: (value, valid)."""

_MODES = {
    gpu.ShuffleMode.XOR: "bfly",
    gpu.ShuffleMode.UP: "up",
    gpu.ShuffleMode.DOWN: "down",
    gpu.ShuffleMode.IDX: "idx",
}


class UnshuffleableType(Exception):
    """A value that no sequence of 32-bit shuffles can move."""


def bit_width(t: Attribute) -> int | None:
    """Bits of an integer, a float or a 1-D vector of them."""
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, AnyFloat):
        return t.bitwidth
    if isinstance(t, VectorType) and len(t.get_shape()) == 1:
        element = bit_width(t.element_type)
        return None if element is None else element * t.element_count()
    return None


def _and(builder: Builder, a: SSAValue | None, b: SSAValue | None) -> SSAValue | None:
    if a is None:
        return b
    if b is None:
        return a
    return builder.insert(llvm.AndOp(a, b)).results[0]


def shuffle_value(
    builder: Builder, value: SSAValue, emit: ShuffleEmitter
) -> tuple[SSAValue, SSAValue | None]:
    """Move ``value`` (an LLVM integer, float or 1-D vector of at most 64 bits per
    piece) with 32-bit shuffles; returns the moved value and its validity."""
    t = value.type
    if t == i32 or t == f32:
        return emit(builder, value)
    if isinstance(t, VectorType):
        bits = bit_width(t)
        if bits is not None and bits <= 64 and bits in (8, 16, 32, 64):
            as_int = builder.insert(llvm.BitcastOp(value, IntegerType(bits))).results[0]
            moved, valid = shuffle_value(builder, as_int, emit)
            return builder.insert(llvm.BitcastOp(moved, t)).results[0], valid
        return _shuffle_elements(builder, value, t, emit)
    if isinstance(t, AnyFloat):
        bits = t.bitwidth
        if bits > 64:
            raise UnshuffleableType(t)
        as_int = builder.insert(llvm.BitcastOp(value, IntegerType(bits))).results[0]
        moved, valid = shuffle_value(builder, as_int, emit)
        return builder.insert(llvm.BitcastOp(moved, t)).results[0], valid
    if isinstance(t, IntegerType):
        width = t.width.data
        if width < 32:
            wide = builder.insert(llvm.ZExtOp(value, i32)).results[0]
            moved, valid = emit(builder, wide)
            return builder.insert(llvm.TruncOp(moved, t)).results[0], valid
        if width == 64:
            return _shuffle_halves(builder, value, emit)
    raise UnshuffleableType(t)


def _shuffle_halves(
    builder: Builder, value: SSAValue, emit: ShuffleEmitter
) -> tuple[SSAValue, SSAValue | None]:
    """An ``i64`` as two ``i32`` shuffles (upstream's ShuffleRewriter, in llvm)."""
    thirty_two = int_constant(builder, 32, i64)
    low = builder.insert(llvm.TruncOp(value, i32)).results[0]
    shifted = builder.insert(llvm.LShrOp(value, thirty_two)).results[0]
    high = builder.insert(llvm.TruncOp(shifted, i32)).results[0]
    low_moved, low_valid = emit(builder, low)
    high_moved, high_valid = emit(builder, high)
    low_wide = builder.insert(llvm.ZExtOp(low_moved, i64)).results[0]
    high_wide = builder.insert(llvm.ZExtOp(high_moved, i64)).results[0]
    high_up = builder.insert(llvm.ShlOp(high_wide, thirty_two)).results[0]
    joined = builder.insert(llvm.OrOp(high_up, low_wide)).results[0]
    return joined, _and(builder, low_valid, high_valid)


def _shuffle_elements(
    builder: Builder, value: SSAValue, t: VectorType, emit: ShuffleEmitter
) -> tuple[SSAValue, SSAValue | None]:
    result = builder.insert(llvm.PoisonOp(t)).results[0]
    valid: SSAValue | None = None
    for i in range(t.element_count()):
        position = int_constant(builder, i, i64)
        element = builder.insert(llvm.ExtractElementOp(value, position)).results[0]
        moved, ok = shuffle_value(builder, element, emit)
        valid = _and(builder, valid, ok)
        result = builder.insert(llvm.InsertElementOp(result, moved, position)).results[
            0
        ]
    return result, valid


def shfl(
    builder: Builder,
    kind: str,
    mask: SSAValue,
    value: SSAValue,
    offset: SSAValue,
    clamp: SSAValue,
    with_valid: bool,
) -> tuple[SSAValue, SSAValue | None]:
    """One ``nvvm.shfl.sync`` (struct form when ``with_valid``)."""
    op = builder.insert(nvvm.ShflSyncOp(kind, mask, value, offset, clamp, with_valid))
    if not with_valid:
        return op.results[0], None
    moved = builder.insert(_extract(op.results[0], 0, value.type)).results[0]
    valid = builder.insert(_extract(op.results[0], 1, i1)).results[0]
    return moved, valid


def _extract(struct: SSAValue, index: int, t: Attribute) -> llvm.ExtractValueOp:
    return llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [index]), struct, t)


def active_mask(builder: Builder) -> SSAValue:
    """``llvm.nvvm.activemask``: the lanes executing together right now."""
    op = builder.insert(llvm.CallIntrinsicOp("llvm.nvvm.activemask", [], [i32]))
    return op.results[0]


def _unshuffleable(op: Operation, t: Attribute) -> Exception:
    return legalize_error(
        op,
        f"a value of type {t} cannot be moved between lanes (shfl.sync moves 32-bit "
        "pieces of integers, floats and 1-D vectors of them, at most 64 bits per "
        "element)",
    )


@dataclass
class ShuffleLowering(RewritePattern):
    lowering: NVVMLowering

    acts_on = (gpu.ShuffleOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.ShuffleOp):
            return
        operands = convert_operands(self.lowering.converter, op, rewriter)
        if operands is None:
            raise _unshuffleable(op, op.value.type)
        value, offset, width = operands
        builder = Builder(InsertPoint.before(op))
        mode = op.mode.data
        one = i32_constant(builder, 1)
        minus_one = i32_constant(builder, -1)
        thirty_two = i32_constant(builder, WARP_SIZE)
        inactive = builder.insert(llvm.SubOp(thirty_two, width)).results[0]
        mask = builder.insert(llvm.LShrOp(minus_one, inactive)).results[0]
        if mode == gpu.ShuffleMode.UP:
            clamp = inactive
        else:
            clamp = builder.insert(llvm.SubOp(width, one)).results[0]

        # As upstream: the struct form only when `valid` is used.
        with_valid = bool(op.valid.uses)

        def emit(b: Builder, v: SSAValue) -> tuple[SSAValue, SSAValue | None]:
            return shfl(b, _MODES[mode], mask, v, offset, clamp, with_valid)

        try:
            moved, valid = shuffle_value(builder, value, emit)
        except UnshuffleableType as e:
            raise _unshuffleable(op, e.args[0]) from None
        if valid is not None:
            replace_op(op, [], [moved, valid], rewriter)
            return
        casts: list[Operation] = []
        if moved.type != op.shuffleResult.type:
            casts.append(
                UnrealizedConversionCastOp.create(
                    operands=[moved], result_types=[op.shuffleResult.type]
                )
            )
            moved = casts[0].results[0]
        rewriter.replace(op, casts, [moved, None])


@dataclass
class RotateLowering(RewritePattern):
    lowering: NVVMLowering

    acts_on = (gpu.RotateOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.RotateOp):
            return
        operands = convert_operands(self.lowering.converter, op, rewriter)
        if operands is None:
            raise _unshuffleable(op, op.value.type)
        (value,) = operands
        offset = op.offset.value.data
        width = op.width.value.data
        if width > WARP_SIZE:
            raise legalize_error(
                op, f"width {width} is larger than the warp ({WARP_SIZE} lanes)"
            )
        builder = Builder(InsertPoint.before(op))
        lane = builder.insert(nvvm.LaneIdOp((0, WARP_SIZE))).results[0]
        source = builder.insert(
            llvm.AddOp(lane, i32_constant(builder, offset))
        ).results[0]
        clamp = i32_constant(builder, ((WARP_SIZE - width) << 8) | (WARP_SIZE - 1))
        mask = active_mask(builder)

        def emit(b: Builder, v: SSAValue) -> tuple[SSAValue, SSAValue | None]:
            return shfl(b, "idx", mask, v, source, clamp, False)

        try:
            moved, _ = shuffle_value(builder, value, emit)
        except UnshuffleableType as e:
            raise _unshuffleable(op, e.args[0]) from None
        valid = builder.insert(
            llvm.ICmpOp(
                lane,
                i32_constant(builder, width),
                IntegerAttr(llvm.ICmpPredicateFlag("ult").to_int(), i64),
            )
        ).results[0]
        replace_op(op, [], [moved, valid], rewriter)


@dataclass
class SubgroupBroadcastLowering(RewritePattern):
    lowering: NVVMLowering

    acts_on = (gpu.SubgroupBroadcastOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.SubgroupBroadcastOp):
            return
        operands = convert_operands(self.lowering.converter, op, rewriter)
        if operands is None:
            raise _unshuffleable(op, op.src.type)
        value = operands[0]
        builder = Builder(InsertPoint.before(op))
        mask = active_mask(builder)
        if op.broadcast_type.data == gpu.BroadcastType.SPECIFIC_LANE:
            source = operands[1]
        else:
            source = builder.insert(llvm.CountTrailingZerosOp(mask)).results[0]
        clamp = i32_constant(builder, WARP_SIZE - 1)

        def emit(b: Builder, v: SSAValue) -> tuple[SSAValue, SSAValue | None]:
            return shfl(b, "idx", mask, v, source, clamp, False)

        try:
            moved, _ = shuffle_value(builder, value, emit)
        except UnshuffleableType as e:
            raise _unshuffleable(op, e.args[0]) from None
        replace_op(op, [], [moved], rewriter)


def shuffle_patterns(lowering: NVVMLowering) -> list[RewritePattern]:
    return [
        ShuffleLowering(lowering),
        RotateLowering(lowering),
        SubgroupBroadcastLowering(lowering),
    ]
