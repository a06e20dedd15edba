"""``convert-arith-to-llvm``: the ``arith`` dialect to the ``llvm`` dialect.

Upstream: ``mlir/lib/Conversion/ArithToLLVM/ArithToLLVM.cpp`` (MLIR 22), including the
``ceildivsi``/``ceildivui``/``floordivsi`` expansions it runs first.

=====================================  ===============================================
arith                                  llvm
=====================================  ===============================================
constant                               ``llvm.mlir.constant`` (``index`` → ``iN``)
addi subi muli shli (``overflow``)     add sub mul shl (``overflow<nsw, nuw>`` kept)
divsi divui remsi remui andi ori xori  sdiv udiv srem urem and or xor
shrsi shrui                            ashr lshr
maxsi minsi maxui minui                ``llvm.intr.smax/smin/umax/umin``
addf subf mulf divf remf negf          fadd fsub fmul fdiv frem fneg (fastmath kept)
maximumf minimumf maxnumf minnumf      ``llvm.intr.maximum/minimum/maxnum/minnum``
cmpi cmpf (every predicate)            icmp fcmp (fastmath kept on fcmp)
select                                 select
extsi extui trunci                     sext zext trunc
sitofp uitofp fptosi fptoui            sitofp uitofp fptosi fptoui
extf truncf bitcast                    fpext fptrunc bitcast
index_cast index_castui                sext/zext or trunc to/from ``iN`` (none if equal)
addui_extended                         ``llvm.intr.uadd.with.overflow`` + extractvalue
mului_extended mulsi_extended          zext/sext to 2N bits, mul, trunc, lshr, trunc
ceildivsi ceildivui floordivsi         the sdiv/udiv sequences of upstream's expansion
=====================================  ===============================================

Vectors: 1-D vectors map to LLVM vectors; n-D vectors become arrays of 1-D vectors and
each elementwise op is applied per 1-D vector, as upstream does.

Option ``index-bitwidth`` (default 0: 64 bits). Values of unconverted types cross into
the new ops through ``builtin.unrealized_conversion_cast``; run
``reconcile-unrealized-casts`` once everything is lowered.

``arith.truncf`` with a rounding mode becomes
``llvm.intr.experimental.constrained.fptrunc`` with that rounding (as upstream).

Diagnostics: arith ops on types with no LLVM form (tensors, vectors with a scalable
outer dimension) stop the pass with a message that names the op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from xdsl.context import Context
from xdsl.dialects import arith as xarith
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xdsl_gpu.gpu_dialect import arith, llvm
from xdsl_gpu.passes.llvm_type_converter import (
    LLVMTypeConverter,
    apply_patterns,
    conversion_error,
    extract,
    replace_by_one,
    replace_op,
    splat_or_scalar,
    to_llvm,
    unroll_nd_vector,
)
from xdsl_gpu.passes.memref_descriptor import overflow_flags, overflow_op
from xdsl_gpu.passes.options import UpstreamOptions

PASS_NAME = "convert-arith-to-llvm"


@lru_cache(maxsize=64)
def llvm_fastmath(flags: FastMathFlagsAttr | None) -> llvm.FastMathAttr:
    """``#arith.fastmath<...>`` as ``#llvm.fastmath<...>`` (same flags; one
    attribute per set of flags, as attributes are values)."""
    return llvm.FastMathAttr(None if flags is None else tuple(flags.data))


# Each entry builds the llvm op(s) for one arith op from converted operands and the
# converted (1-D or scalar) result type.
_Builder = Callable[[Operation, list[SSAValue], Attribute], Sequence[Operation]]


def _with_overflow(cls: type[llvm.ArithmeticBinOpOverflow]) -> _Builder:
    return lambda op, ops, _: [
        overflow_op(
            cls, ops[0], ops[1], _overflow_bits(op.properties.get("overflowFlags"))
        )
    ]


@lru_cache(maxsize=64)
def _overflow_bits(flags: Attribute | None) -> int:
    """llvm's overflow bits for arith's flags (0 without)."""
    if not isinstance(flags, xarith.IntegerOverflowAttr):
        return 0
    return llvm.OverflowAttr(
        tuple(llvm.OverflowFlag(f.value) for f in flags.data)
    ).to_int()


def _binary(cls: type[Operation]) -> _Builder:
    return lambda op, ops, _: [cls(ops[0], ops[1])]  # pyright: ignore[reportCallIssue]


IN_PLACE: dict[type[Operation], tuple[type[Operation], str]] = {}
"""The arith ops whose llvm op has the same operands and result, each with that
op's class and the name of its one property (fastmath or overflow flags):
:class:`ElementwiseLowering` turns a scalar one into its llvm op in place."""


def _float_binary(cls: type[Operation]) -> _Builder:
    # Made from its parts, as xDSL's builder would make it (lhs's type, the
    # flags): the builder cost twice as much as the op on a large kernel.
    return lambda op, ops, _: [
        cls.create(
            operands=ops[:2],
            result_types=[ops[0].type],
            properties={
                "fastmathFlags": llvm_fastmath(op.properties.get("fastmath"))  # pyright: ignore[reportArgumentType]
            },
        )
    ]


def _cast(cls: type[Operation]) -> _Builder:
    return lambda op, ops, t: [cls(ops[0], t)]  # pyright: ignore[reportCallIssue]


@lru_cache(maxsize=64)
def _predicate(value: int) -> IntegerAttr[IntegerType]:
    """llvm's ``predicate`` property (one attribute per predicate)."""
    return IntegerAttr(value, i64)


def _cmpi(op: Operation, ops: list[SSAValue], t: Attribute) -> list[Operation]:
    assert isinstance(op, xarith.CmpiOp)
    return [llvm.ICmpOp(ops[0], ops[1], _predicate(op.predicate.value.data))]


def _cmpf(op: Operation, ops: list[SSAValue], t: Attribute) -> list[Operation]:
    assert isinstance(op, xarith.CmpfOp)
    predicate = _predicate(op.predicate.value.data)
    return [llvm.FCmpOp(ops[0], ops[1], predicate, None, llvm_fastmath(op.fastmath))]


def _negf(op: Operation, ops: list[SSAValue], t: Attribute) -> list[Operation]:
    assert isinstance(op, xarith.NegfOp)
    return [llvm.FNegOp(ops[0], llvm_fastmath(op.fastmath))]


def _select(op: Operation, ops: list[SSAValue], t: Attribute) -> list[Operation]:
    return [llvm.SelectOp(ops[0], ops[1], ops[2])]


def _extf(op: Operation, ops: list[SSAValue], t: Attribute) -> list[Operation]:
    # Upstream copies the op's fastmath flags onto llvm.fpext as a discardable
    # ``fastmath = #arith.fastmath<...>`` attribute, which mlir-translate then refuses
    # to parse (the arith dialect is not loaded there). The flags mean nothing to
    # fpext, so they are dropped: the output translates.
    return [llvm.FPExtOp(ops[0], t)]


_LLVM_ROUNDING = {
    arith.RoundingMode.TO_NEAREST_EVEN: "tonearest",
    arith.RoundingMode.DOWNWARD: "downward",
    arith.RoundingMode.UPWARD: "upward",
    arith.RoundingMode.TOWARD_ZERO: "towardzero",
    arith.RoundingMode.TO_NEAREST_AWAY: "tonearestaway",
}


def _constrained_truncf(
    op: Operation, ops: list[SSAValue], t: Attribute
) -> list[Operation]:
    """``arith.truncf`` with a rounding mode: the constrained intrinsic with that
    rounding and ``ignore`` exceptions, as upstream (whose discardable ``fastmath``
    attribute is dropped, see ``_extf``)."""
    assert isinstance(op, arith.TruncFOp)
    assert op.rounding_mode is not None
    return [llvm.ConstrainedFPTruncOp(ops[0], t, _LLVM_ROUNDING[op.rounding_mode])]


ELEMENTWISE: dict[type[Operation], _Builder] = {
    xarith.AddiOp: _with_overflow(llvm.AddOp),
    xarith.SubiOp: _with_overflow(llvm.SubOp),
    xarith.MuliOp: _with_overflow(llvm.MulOp),
    xarith.ShLIOp: _with_overflow(llvm.ShlOp),
    xarith.DivSIOp: _binary(llvm.SDivOp),
    xarith.DivUIOp: _binary(llvm.UDivOp),
    xarith.RemSIOp: _binary(llvm.SRemOp),
    xarith.RemUIOp: _binary(llvm.URemOp),
    xarith.AndIOp: _binary(llvm.AndOp),
    xarith.OrIOp: _binary(llvm.OrOp),
    xarith.XOrIOp: _binary(llvm.XOrOp),
    xarith.ShRSIOp: _binary(llvm.AShrOp),
    xarith.ShRUIOp: _binary(llvm.LShrOp),
    xarith.MaxSIOp: _binary(llvm.SMaxOp),
    xarith.MinSIOp: _binary(llvm.SMinOp),
    xarith.MaxUIOp: _binary(llvm.UMaxOp),
    xarith.MinUIOp: _binary(llvm.UMinOp),
    xarith.AddfOp: _float_binary(llvm.FAddOp),
    xarith.SubfOp: _float_binary(llvm.FSubOp),
    xarith.MulfOp: _float_binary(llvm.FMulOp),
    xarith.DivfOp: _float_binary(llvm.FDivOp),
    arith.RemFOp: _float_binary(llvm.FRemOp),
    xarith.MaximumfOp: _float_binary(llvm.MaximumOp),
    xarith.MinimumfOp: _float_binary(llvm.MinimumOp),
    xarith.MaxnumfOp: _float_binary(llvm.MaxNumOp),
    xarith.MinnumfOp: _float_binary(llvm.MinNumOp),
    xarith.NegfOp: _negf,
    xarith.CmpiOp: _cmpi,
    xarith.CmpfOp: _cmpf,
    xarith.SelectOp: _select,
    xarith.ExtSIOp: _cast(llvm.SExtOp),
    xarith.ExtUIOp: _cast(llvm.ZExtOp),
    xarith.TruncIOp: _cast(llvm.TruncOp),
    xarith.SIToFPOp: _cast(llvm.SIToFPOp),
    xarith.UIToFPOp: _cast(llvm.UIToFPOp),
    xarith.FPToSIOp: _cast(llvm.FPToSIOp),
    xarith.FPToUIOp: _cast(llvm.FPToUIOp),
    arith.ExtFOp: _extf,
    arith.TruncFOp: _cast(llvm.FPTruncOp),
    xarith.BitcastOp: _cast(llvm.BitcastOp),
}


IN_PLACE.update(
    {
        xarith.AddiOp: (llvm.AddOp, "overflowFlags"),
        xarith.SubiOp: (llvm.SubOp, "overflowFlags"),
        xarith.MuliOp: (llvm.MulOp, "overflowFlags"),
        xarith.ShLIOp: (llvm.ShlOp, "overflowFlags"),
        xarith.AddfOp: (llvm.FAddOp, "fastmathFlags"),
        xarith.SubfOp: (llvm.FSubOp, "fastmathFlags"),
        xarith.MulfOp: (llvm.FMulOp, "fastmathFlags"),
        xarith.DivfOp: (llvm.FDivOp, "fastmathFlags"),
        arith.RemFOp: (llvm.FRemOp, "fastmathFlags"),
    }
)


def _comparison_type(t: Attribute) -> Attribute:
    """The result type of llvm's ``icmp``/``fcmp`` builders for operands of type
    ``t``."""
    return VectorType(i1, t.shape) if isinstance(t, VectorType) else i1


_SELECT_FASTMATH = (
    llvm.SelectOp.get_irdl_definition().properties["fastmathFlags"].default_value
)


def _cmpi_in_place(op: Operation) -> tuple[type[Operation], dict[str, Attribute]]:
    assert isinstance(op, xarith.CmpiOp)
    return llvm.ICmpOp, {"predicate": _predicate(op.predicate.value.data)}


def _cmpf_in_place(op: Operation) -> tuple[type[Operation], dict[str, Attribute]]:
    assert isinstance(op, xarith.CmpfOp)
    return llvm.FCmpOp, {
        "predicate": _predicate(op.predicate.value.data),
        "fastmathFlags": llvm_fastmath(op.fastmath),
    }


def _select_in_place(op: Operation) -> tuple[type[Operation], dict[str, Attribute]]:
    return llvm.SelectOp, {"fastmathFlags": _SELECT_FASTMATH}  # pyright: ignore[reportReturnType]


IN_PLACE_OTHER: dict[
    type[Operation],
    tuple[
        Callable[[Attribute], Attribute],
        Callable[[Operation], tuple[type[Operation], dict[str, Attribute]]],
    ],
] = {
    kind: entry
    for kinds, entry in (
        ((xarith.CmpiOp, arith.CmpiOp), (_comparison_type, _cmpi_in_place)),
        ((xarith.CmpfOp, arith.CmpfOp), (_comparison_type, _cmpf_in_place)),
        ((xarith.SelectOp, arith.SelectOp), (lambda t: t, _select_in_place)),
    )
    for kind in kinds
}
"""The comparisons and ``select``: :class:`ElementwiseLowering` turns a scalar or
1-D one into its llvm op in place, when all its types convert to themselves and its
result type is the one the llvm op's builder gives (from the type of its
second-to-last operand: ``lhs``). Each with that builder's result type and the
class and properties (explicit, then defaults, in the builder's order)."""


def _builder(op: Operation) -> _Builder | None:
    """The builder for ``op``'s class or the xDSL class it refines (the casts and
    ``select`` of ``xdsl_gpu.gpu_dialect.arith`` subclass xDSL's to accept vectors)."""
    for cls in type(op).__mro__:
        if (build := ELEMENTWISE.get(cls)) is not None:
            return build
    return None


@dataclass
class ArithPattern(RewritePattern):
    """Base: the converter, and the operand/result conversion every pattern does."""

    converter: LLVMTypeConverter

    def converted(
        self, op: Operation, rewriter: PatternRewriter
    ) -> tuple[list[SSAValue], list[Attribute]]:
        convert = self.converter.convert_type
        result_types = [convert(r.type) for r in op.results]
        operands = op.operands
        operand_types = [convert(o.type) for o in operands]
        if None in result_types or None in operand_types:
            types = ", ".join(
                sorted({str(v.type) for v in (*op.operands, *op.results)})
            )
            raise conversion_error(
                PASS_NAME,
                op,
                f"has a type with no LLVM equivalent ({types}); only scalars and "
                "vectors of static shape can be lowered (bufferize tensors first)",
            )
        # A value whose type converts to itself is used as it is (to_llvm would
        # find the same); the others through to_llvm's casts.
        values = [
            o if t is o.type else to_llvm(o, t, rewriter)  # pyright: ignore[reportArgumentType]
            for o, t in zip(operands, operand_types, strict=True)
        ]
        return values, result_types  # pyright: ignore[reportReturnType]


class ElementwiseLowering(ArithPattern):
    """One llvm op per arith op (on scalars and vectors; n-D vectors unrolled)."""

    acts_on = tuple(ELEMENTWISE)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if self._in_place(op, rewriter):
            return
        build = _builder(op)
        if build is None:
            return
        if isinstance(op, arith.TruncFOp) and op.rounding_mode is not None:
            build = _constrained_truncf
        operands, (result_type,) = self.converted(op, rewriter)
        if isinstance(result_type, llvm.LLVMArrayType):
            new_ops, value = unroll_nd_vector(
                operands, result_type, lambda leaves, t: build(op, leaves, t)
            )
        else:
            new_ops = list(build(op, operands, result_type))
            value = new_ops[-1].results[0]
        replace_op(op, new_ops, [value], rewriter)

    def _in_place(self, op: Operation, rewriter: PatternRewriter) -> bool:
        """A float or overflow binary op on a type that converts to itself, whose
        llvm op takes the same operands and result: made that op in place
        (``replace_by_one``), as the builder and ``replace_op`` would leave it."""
        entry = IN_PLACE.get(type(op))
        if entry is None:
            return self._other_in_place(op, rewriter)
        cls, name = entry
        lhs, rhs = op.operands
        (result,) = op.results
        t = result.type
        # (inline: this runs for most ops of a kernel)
        if not (lhs.type is t or lhs.type == t) or not (rhs.type is t or rhs.type == t):
            return False
        if not ((kept := self.converter.convert_type(t)) is t or kept == t):
            return False
        if name == "fastmathFlags":
            value: Attribute = llvm_fastmath(op.properties.get("fastmath"))  # pyright: ignore[reportArgumentType]
        else:
            value = overflow_flags(_overflow_bits(op.properties.get("overflowFlags")))
        return replace_by_one(op, cls, {name: value}, rewriter)

    def _other_in_place(self, op: Operation, rewriter: PatternRewriter) -> bool:
        """A comparison or ``select`` made its llvm op in place (``IN_PLACE_OTHER``),
        as the builder and ``replace_op`` would leave it: the builder path cost
        four times as much per op."""
        entry = IN_PLACE_OTHER.get(type(op))
        if entry is None:
            return False
        result_type, made = entry
        operands = op.operands
        (result,) = op.results
        if not (self._kept(result.type) and all(self._kept(o.type) for o in operands)):
            return False
        if not _equal(result.type, result_type(operands[-2].type)):
            return False
        cls, properties = made(op)
        return replace_by_one(op, cls, properties, rewriter)

    def _kept(self, t: Attribute) -> bool:
        """Whether ``t`` converts to itself (``to_llvm`` then gives a value of it as
        it is)."""
        return _equal(self.converter.convert_type(t), t)


def _equal(a: Attribute | None, b: Attribute) -> bool:
    # (a parsed program has many equal instances of a type; ``is`` first)
    return a is b or a == b


class ConstantLowering(ArithPattern):
    """``arith.constant`` → ``llvm.mlir.constant`` with the converted type."""

    acts_on = (xarith.ConstantOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, xarith.ConstantOp):
            return
        # The value attribute keeps its type (``3 : index``, an n-D ``dense<...>``);
        # only the result type is converted, as upstream prints it.
        _, (result_type,) = self.converted(op, rewriter)
        new = llvm.ConstantOp(op.value, result_type)
        replace_op(op, [new], [new.result], rewriter)


class IndexCastLowering(ArithPattern):
    """``index_cast`` (sign) / ``index_castui`` (zero): extend, truncate, or nothing."""

    acts_on = (xarith.IndexCastOp, arith.IndexCastUIOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, xarith.IndexCastOp | arith.IndexCastUIOp):
            return
        (value,), (result_type,) = self.converted(op, rewriter)
        in_width = _width(value.type)
        out_width = _width(result_type)
        if in_width == out_width:
            replace_op(op, [], [value], rewriter)
            return
        if in_width > out_width:
            cls: type[Operation] = llvm.TruncOp
        elif isinstance(op, xarith.IndexCastOp):
            cls = llvm.SExtOp
        else:
            cls = llvm.ZExtOp
        build = _cast(cls)
        if isinstance(result_type, llvm.LLVMArrayType):
            new_ops, result = unroll_nd_vector(
                [value], result_type, lambda leaves, t: build(op, leaves, t)
            )
        else:
            new_ops = list(build(op, [value], result_type))
            result = new_ops[-1].results[0]
        replace_op(op, new_ops, [result], rewriter)


def _width(t: Attribute) -> int:
    """The element width of an integer, 1-D vector or n-D vector (array) type."""
    while isinstance(t, llvm.LLVMArrayType):
        t = t.type
    if isinstance(t, VectorType):
        t = t.element_type
    assert isinstance(t, IntegerType)
    return t.width.data


class ExtendedArithLowering(ArithPattern):
    """``addui_extended``, ``mului_extended``, ``mulsi_extended`` (scalars and 1-D)."""

    acts_on = (
        xarith.AddUIExtendedOp,
        xarith.MulUIExtendedOp,
        xarith.MulSIExtendedOp,
    )

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, xarith.AddUIExtendedOp):
            (lhs, rhs), _ = self.converted(op, rewriter)
            add = llvm.UAddWithOverflowOp(lhs, rhs)
            new_ops: list[Operation] = [
                add,
                s := extract(add.results[0], 0),
                o := extract(add.results[0], 1),
            ]
            replace_op(op, new_ops, [s.results[0], o.results[0]], rewriter)
        elif isinstance(op, xarith.MulUIExtendedOp | xarith.MulSIExtendedOp):
            (lhs, rhs), (t, _) = self.converted(op, rewriter)
            width = _width(t)
            wide = _with_width(t, 2 * width)
            ext = llvm.ZExtOp if isinstance(op, xarith.MulUIExtendedOp) else llvm.SExtOp
            new_ops = [
                a := ext(lhs, wide),
                b := ext(rhs, wide),
                mul := llvm.MulOp(a.results[0], b.results[0]),
                low := llvm.TruncOp(mul.results[0], t),
                shift := splat_or_scalar(width, wide),
                hi_wide := llvm.LShrOp(mul.results[0], shift.results[0]),
                high := llvm.TruncOp(hi_wide.results[0], t),
            ]
            replace_op(op, new_ops, [low.results[0], high.results[0]], rewriter)


def _with_width(t: Attribute, width: int) -> Attribute:
    if isinstance(t, VectorType):
        return VectorType(IntegerType(width), t.get_shape())
    return IntegerType(width)


class DivisionExpansion(ArithPattern):
    """``ceildivsi``, ``ceildivui``, ``floordivsi`` as upstream's
    ``populateCeilFloorDivExpandOpsPatterns`` expands them, then lowered."""

    acts_on = (xarith.CeilDivSIOp, xarith.CeilDivUIOp, xarith.FloorDivSIOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(
            op, xarith.CeilDivSIOp | xarith.CeilDivUIOp | xarith.FloorDivSIOp
        ):
            return
        (a, b), (t,) = self.converted(op, rewriter)
        if isinstance(t, llvm.LLVMArrayType):
            new_ops, value = unroll_nd_vector(
                [a, b],
                t,
                lambda leaves, leaf: _expand_division(op, leaves[0], leaves[1], leaf),
            )
        else:
            new_ops = _expand_division(op, a, b, t)
            value = new_ops[-1].results[0]
        replace_op(op, new_ops, [value], rewriter)


def _expand_division(
    op: Operation, a: SSAValue, b: SSAValue, t: Attribute
) -> list[Operation]:
    def icmp(pred: str, x: SSAValue, y: SSAValue) -> llvm.ICmpOp:
        return llvm.ICmpOp(
            x, y, IntegerAttr(llvm.ICmpPredicateFlag(pred).to_int(), i64)
        )

    if isinstance(op, xarith.CeilDivUIOp):
        # x == 0 ? 0 : (x - 1) / y + 1
        return [
            zero := splat_or_scalar(0, t),
            is_zero := icmp("eq", a, zero.result),
            one := splat_or_scalar(1, t),
            minus_one := llvm.SubOp(a, one.result),
            quotient := llvm.UDivOp(minus_one.res, b),
            plus_one := llvm.AddOp(quotient.res, one.result),
            llvm.SelectOp(is_zero.res, zero.result, plus_one.res),
        ]
    if isinstance(op, xarith.CeilDivSIOp):
        # q = a / b; (a != q * b && sign(a) == sign(b)) ? q + 1 : q
        return [
            zero := splat_or_scalar(0, t),
            one := splat_or_scalar(1, t),
            quotient := llvm.SDivOp(a, b),
            product := llvm.MulOp(quotient.res, b),
            inexact := icmp("ne", a, product.res),
            a_neg := icmp("slt", a, zero.result),
            b_neg := icmp("slt", b, zero.result),
            same_sign := icmp("eq", a_neg.res, b_neg.res),
            cond := llvm.AndOp(inexact.res, same_sign.res),
            plus_one := llvm.AddOp(quotient.res, one.result),
            llvm.SelectOp(cond.res, plus_one.res, quotient.res),
        ]
    # floordivsi: q = a / b; (a != q * b && sign(a) != sign(b)) ? q - 1 : q
    return [
        quotient := llvm.SDivOp(a, b),
        product := llvm.MulOp(quotient.res, b),
        inexact := icmp("ne", a, product.res),
        zero := splat_or_scalar(0, t),
        a_neg := icmp("slt", a, zero.result),
        b_neg := icmp("slt", b, zero.result),
        other_sign := icmp("ne", a_neg.res, b_neg.res),
        cond := llvm.AndOp(inexact.res, other_sign.res),
        minus_one := splat_or_scalar(-1, t),
        minus := llvm.AddOp(quotient.res, minus_one.result),
        llvm.SelectOp(cond.res, minus.res, quotient.res),
    ]


def arith_to_llvm_patterns(converter: LLVMTypeConverter) -> list[RewritePattern]:
    """The patterns, for passes that lower arith together with other dialects."""
    return [
        ConstantLowering(converter),
        ElementwiseLowering(converter),
        IndexCastLowering(converter),
        ExtendedArithLowering(converter),
        DivisionExpansion(converter),
    ]


@dataclass(frozen=True)
class ConvertArithToLLVMPass(UpstreamOptions, ModulePass):
    """Lower every ``arith`` op to the ``llvm`` dialect (see the module docstring).

    Options:
      index-bitwidth: bit width of ``index`` (0: 64, upstream's default).
    """

    name = "convert-arith-to-llvm"

    index_bitwidth: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        converter = LLVMTypeConverter.for_pass(self.name, self.index_bitwidth)
        apply_patterns(op, arith_to_llvm_patterns(converter))
