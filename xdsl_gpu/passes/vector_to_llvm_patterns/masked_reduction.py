"""A masked 1-D ``vector.reduction`` (``vector.mask %m { vector.reduction ... }``) as
MLIR 22's convert-vector-to-llvm lowers it: an ``llvm.intr.vp.reduce.*`` over the
set lanes with an explicit vector length (the vector's), started from the
accumulator or the kind's neutral value::

    %evl = llvm.mlir.constant(16 : i32) : i32
    %r = "llvm.intr.vp.reduce.fadd"(%acc, %v, %m, %evl)
        : (f32, vector<16xf32>, vector<16xi1>, i32) -> f32

The neutral values are upstream's: ``0``/``1`` for add/mul, NaN for ``maxnumf``/
``minnumf`` (``0x7FC00000``, ``0xFFC00000``), the extreme integers for the integer
min/max. ``maximumf``/``minimumf`` have no vp intrinsic: the masked-off lanes are
replaced (``llvm.select``) by upstream's fillers, the smallest negative denormal for
``maximumf`` and the largest finite float for ``minimumf``, then
``llvm.intr.vector.reduce.fmaximum``/``fminimum`` and ``llvm.intr.maximum``/
``minimum`` with the accumulator. Those fillers are upstream's: a ``maximumf`` of
masked lanes that are all below ``-1.4e-45`` gives ``-1.4e-45``, in MLIR 22 as here.
"""

from __future__ import annotations

import struct
from typing import cast

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import llvm as ours_llvm
from xdsl_gpu.gpu_dialect import llvm_vector, vector
from xdsl_gpu.gpu_dialect.llvm_vp import VP_REDUCE_OPS

_INT_VP = {
    "add": "add",
    "mul": "mul",
    "and": "and",
    "or": "or",
    "xor": "xor",
    "maxsi": "smax",
    "minsi": "smin",
    "maxui": "umax",
    "minui": "umin",
}
_FLOAT_VP = {"add": "fadd", "mul": "fmul", "maxnumf": "fmax", "minnumf": "fmin"}


def _f32_bits(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def _int_neutral(kind: str, width: int) -> int:
    top = 1 << (width - 1)
    return {
        "add": 0,
        "mul": 1,
        "and": -1,
        "or": 0,
        "xor": 0,
        "maxsi": -top,
        "minsi": top - 1,
        "maxui": 0,
        "minui": -1,
    }[kind]


def _float_neutral(kind: str, t: AnyFloat) -> float:
    if kind == "add":
        return 0.0
    if kind == "mul":
        return 1.0
    nan = float("nan")
    # upstream's NaNs: positive quiet for maxnumf, negative quiet for minnumf
    return nan if kind == "maxnumf" else -nan


class LowerMaskedReduction(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.MaskOp, rewriter: PatternRewriter):
        red = op.masked_op
        if not isinstance(red, vector.ReductionOp):
            return
        t = red.vector.type
        if not isinstance(t, VectorType) or t.get_num_dims() != 1:
            return
        t = cast(VectorType, t)
        if t.get_num_scalable_dims():
            return  # upstream multiplies by vscale; not done here
        kind = red.kind.data.value
        element = red.dest.type
        ops: list[Operation] = []
        if kind in ("maximumf", "minimumf"):
            self._select_then_reduce(op, red, t, kind, ops)
            rewriter.replace(op, ops)
            return
        if isinstance(element, IntegerType):
            if kind not in _INT_VP:
                return
            vp = _INT_VP[kind]
            neutral: Attribute = IntegerAttr(
                _int_neutral(kind, element.width.data), element
            )
        elif isinstance(element, AnyFloat) and kind in _FLOAT_VP:
            vp = _FLOAT_VP[kind]
            neutral = FloatAttr(_float_neutral(kind, element), element)
        else:
            return
        start: SSAValue
        if red.acc is not None:
            start = red.acc
        else:
            ops.append(c := llvm.ConstantOp(neutral, element))
            start = c.result
        ops.append(evl := llvm.ConstantOp(IntegerAttr(t.get_shape()[0], i32), i32))
        ops.append(VP_REDUCE_OPS[vp](start, red.vector, op.mask, evl))
        rewriter.replace(op, ops)

    @staticmethod
    def _select_then_reduce(
        op: vector.MaskOp,
        red: vector.ReductionOp,
        t: VectorType,
        kind: str,
        ops: list[Operation],
    ) -> None:
        element = cast(AnyFloat, t.element_type)
        filler = -_f32_bits(1) if kind == "maximumf" else _largest_finite(element)
        dense = DenseIntOrFPElementsAttr.from_list(t, [filler])  # pyright: ignore
        ops.append(fill := llvm.ConstantOp(dense, t))
        ops.append(sel := ours_llvm.SelectOp(op.mask, red.vector, fill.result))
        reduce_cls = (
            llvm_vector.VectorReduceFMaximumOp
            if kind == "maximumf"
            else llvm_vector.VectorReduceFMinimumOp
        )
        ops.append(reduced := reduce_cls(sel.results[0]))
        if red.acc is not None:
            combine = ours_llvm.MaximumOp if kind == "maximumf" else ours_llvm.MinimumOp
            ops.append(combine(reduced.results[0], red.acc))


def _largest_finite(t: AnyFloat) -> float:
    width = t.bitwidth
    if width == 64:
        return 1.7976931348623157e308
    if width == 16:
        return 65504.0
    return _f32_bits(0x7F7FFFFF)


__all__ = ["LowerMaskedReduction"]
