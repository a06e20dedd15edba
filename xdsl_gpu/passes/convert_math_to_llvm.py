"""``convert-math-to-llvm``: the ``math`` ops that have an LLVM intrinsic, to it.

Upstream: ``mlir/lib/Conversion/MathToLLVM/MathToLLVM.cpp`` (MLIR 22).

======================================  ==============================================
math                                    llvm
======================================  ==============================================
absf ceil floor sqrt exp exp2 log       ``llvm.intr.<same>`` (``fabs`` for absf,
log2 log10 sin cos tan tanh sinh cosh   ``pow`` for powf), fastmath flags kept
asin acos atan atan2 powf copysign fma
round roundeven trunc
fpowi                                   ``llvm.intr.powi``
ctlz cttz                               ``llvm.intr.ctlz/cttz`` (``is_zero_poison =
                                        false``)
ctpop, absi                             ``llvm.intr.ctpop``, ``llvm.intr.abs``
                                        (``is_int_min_poison = false``)
rsqrt                                   ``1.0 / llvm.intr.sqrt(x)``
expm1                                   ``llvm.intr.exp(x) - 1.0``
log1p (``approximate-log1p=true``)      ``llvm.intr.log(1.0 + x)``
isnan, isfinite                         ``llvm.intr.is.fpclass`` (bits 3 and 504)
sincos                                  ``llvm.intr.sincos`` + two ``extractvalue``
======================================  ==============================================

Like upstream, ops without an intrinsic (``erf``, ``erfc``, ``cbrt``, ``acosh``,
``asinh``, ``atanh``, ``ipowi``, ``isinf``, ``isnormal``, ``clampf`` and ``log1p`` with
``approximate-log1p=false``) are left for other lowerings (libm or libdevice calls,
polynomial expansions). n-D vectors are handled one 1-D vector at a time (for
``sincos`` too, where upstream produces an invalid ``llvm.intr.sincos`` on an array).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import math as xmath
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect import math as gmath
from xdsl_gpu.passes.convert_arith_to_llvm import llvm_fastmath
from xdsl_gpu.passes.llvm_type_converter import (
    LLVMTypeConverter,
    apply_patterns,
    array_positions,
    conversion_error,
    convert_operands,
    extract,
    insert,
    replace_op,
    splat_or_scalar,
    unroll_nd_vector,
)
from xdsl_gpu.passes.options import UpstreamOptions

PASS_NAME = "convert-math-to-llvm"

_Builder = Callable[[Operation, list[SSAValue], Attribute], Sequence[Operation]]


def _fm(op: Operation) -> llvm.FastMathAttr:
    flags = op.properties.get("fastmath")
    return llvm_fastmath(flags if isinstance(flags, FastMathFlagsAttr) else None)


def _float(cls: type[Operation]) -> _Builder:
    """A float intrinsic with the op's operands and fastmath flags."""
    return lambda op, ops, _: [cls(*ops, _fm(op))]  # pyright: ignore[reportCallIssue]


def _rsqrt(op: Operation, ops: list[SSAValue], t: Attribute) -> list[Operation]:
    return [
        one := splat_or_scalar(1.0, t),
        sqrt := llvm.FSqrtOp(ops[0], _fm(op)),
        llvm.FDivOp(one.result, sqrt.res, _fm(op)),
    ]


def _expm1(op: Operation, ops: list[SSAValue], t: Attribute) -> list[Operation]:
    return [
        one := splat_or_scalar(1.0, t),
        exp := llvm.FExpOp(ops[0], _fm(op)),
        llvm.FSubOp(exp.res, one.result, _fm(op)),
    ]


def _log1p(op: Operation, ops: list[SSAValue], t: Attribute) -> list[Operation]:
    return [
        one := splat_or_scalar(1.0, t),
        plus := llvm.FAddOp(one.result, ops[0], _fm(op)),
        llvm.FLogOp(plus.res, _fm(op)),
    ]


INTRINSICS: dict[type[Operation], _Builder] = {
    xmath.AbsFOp: _float(llvm.FAbsOp),
    xmath.CeilOp: _float(llvm.FCeilOp),
    xmath.FloorOp: _float(llvm.FFloorOp),
    xmath.SqrtOp: _float(llvm.FSqrtOp),
    xmath.ExpOp: _float(llvm.FExpOp),
    xmath.Exp2Op: _float(llvm.FExp2Op),
    xmath.LogOp: _float(llvm.FLogOp),
    xmath.Log2Op: _float(llvm.FLog2Op),
    xmath.Log10Op: _float(llvm.FLog10Op),
    xmath.SinOp: _float(llvm.FSinOp),
    xmath.CosOp: _float(llvm.FCosOp),
    xmath.TanOp: _float(llvm.FTanOp),
    xmath.TanhOp: _float(llvm.FTanhOp),
    xmath.SinhOp: _float(llvm.FSinhOp),
    xmath.CoshOp: _float(llvm.FCoshOp),
    xmath.AsinOp: _float(llvm.FAsinOp),
    xmath.AcosOp: _float(llvm.FAcosOp),
    xmath.AtanOp: _float(llvm.FAtanOp),
    xmath.Atan2Op: _float(llvm.FAtan2Op),
    xmath.PowFOp: _float(llvm.FPowOp),
    xmath.CopySignOp: _float(llvm.FCopySignOp),
    xmath.FmaOp: _float(llvm.FMAOp),
    xmath.RoundOp: _float(llvm.FRoundOp),
    xmath.RoundEvenOp: _float(llvm.FRoundEvenOp),
    xmath.TruncOp: _float(llvm.FTruncOp),
    xmath.FPowIOp: _float(llvm.PowIOp),
    xmath.CountLeadingZerosOp: lambda op, ops, _: [llvm.CountLeadingZerosOp(ops[0])],
    xmath.CountTrailingZerosOp: lambda op, ops, _: [llvm.CountTrailingZerosOp(ops[0])],
    xmath.CtPopOp: lambda op, ops, _: [llvm.CtPopOp(ops[0])],
    xmath.AbsIOp: lambda op, ops, _: [llvm.AbsOp(ops[0])],
    xmath.RsqrtOp: _rsqrt,
    xmath.ExpM1Op: _expm1,
    gmath.IsNaNOp: lambda op, ops, _: [llvm.IsFPClassOp(ops[0], 3)],
    gmath.IsFiniteOp: lambda op, ops, _: [llvm.IsFPClassOp(ops[0], 504)],
}
"""math op → the llvm op(s) it becomes, given converted operands and the converted
(scalar or 1-D vector) result type."""


@dataclass
class MathToLLVMPattern(RewritePattern):
    converter: LLVMTypeConverter
    approximate_log1p: bool = True

    acts_on = (*INTRINSICS, xmath.Log1pOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        build = INTRINSICS.get(type(op))
        if build is None and self.approximate_log1p and isinstance(op, xmath.Log1pOp):
            build = _log1p
        if build is None:
            return
        result_types = self.converter.convert_types(r.type for r in op.results)
        operands = convert_operands(self.converter, op, rewriter)
        if result_types is None or operands is None:
            raise conversion_error(
                PASS_NAME,
                op,
                f"on {op.operands[0].type} cannot be lowered: only scalars and vectors "
                "of static shape have an LLVM form (bufferize tensors first)",
            )
        (result_type,) = result_types
        if isinstance(result_type, llvm.LLVMArrayType):
            new_ops, value = unroll_nd_vector(
                operands, result_type, lambda leaves, t: build(op, leaves, t)
            )
        else:
            new_ops = list(build(op, operands, result_type))
            value = new_ops[-1].results[0]
        replace_op(op, new_ops, [value], rewriter)


@dataclass
class SinCosLowering(RewritePattern):
    """``math.sincos`` → ``llvm.intr.sincos`` (a struct of the two results), then one
    ``extractvalue`` per result; n-D vectors one 1-D vector at a time."""

    converter: LLVMTypeConverter

    acts_on = (gmath.SinCosOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gmath.SinCosOp):
            return
        result_type = self.converter.convert_type(op.operand.type)
        operands = convert_operands(self.converter, op, rewriter)
        if result_type is None or operands is None:
            raise conversion_error(
                PASS_NAME,
                op,
                f"on {op.operand.type} cannot be lowered: only scalars and vectors "
                "of static shape have an LLVM form (bufferize tensors first)",
            )
        fm = _fm(op)
        if not isinstance(result_type, llvm.LLVMArrayType):
            new = llvm.FSinCosOp(operands[0], fm)
            sin, cos = extract(new.res, 0), extract(new.res, 1)
            replace_op(op, [new, sin, cos], [sin.results[0], cos.results[0]], rewriter)
            return
        positions, _ = array_positions(result_type)
        new_ops: list[Operation] = [s := llvm.PoisonOp(result_type)]
        new_ops.append(c := llvm.PoisonOp(result_type))
        sin_acc, cos_acc = s.results[0], c.results[0]
        for position in positions:
            new_ops.append(leaf := extract(operands[0], *position))
            new_ops.append(sc := llvm.FSinCosOp(leaf.results[0], fm))
            new_ops.append(sin := extract(sc.res, 0))
            new_ops.append(cos := extract(sc.res, 1))
            new_ops.append(i := insert(sin_acc, sin.results[0], *position))
            sin_acc = i.results[0]
            new_ops.append(i := insert(cos_acc, cos.results[0], *position))
            cos_acc = i.results[0]
        replace_op(op, new_ops, [sin_acc, cos_acc], rewriter)


def math_to_llvm_patterns(
    converter: LLVMTypeConverter, approximate_log1p: bool = True
) -> list[RewritePattern]:
    return [MathToLLVMPattern(converter, approximate_log1p), SinCosLowering(converter)]


@dataclass(frozen=True)
class ConvertMathToLLVMPass(UpstreamOptions, ModulePass):
    """Lower ``math`` ops with an LLVM intrinsic (see the module docstring).

    Options:
      approximate-log1p: lower ``math.log1p(x)`` as ``log(1 + x)`` (default true, as
        upstream); false leaves it for another lowering.
    """

    name = "convert-math-to-llvm"

    approximate_log1p: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(
            op, math_to_llvm_patterns(LLVMTypeConverter(), self.approximate_log1p)
        )
