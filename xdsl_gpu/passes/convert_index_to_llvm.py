"""``convert-index-to-llvm``: the ``index`` dialect to the ``llvm`` dialect.

Upstream: ``mlir/lib/Conversion/IndexToLLVM/IndexToLLVM.cpp`` (MLIR 22).

=====================================  ===============================================
index                                  llvm (on ``iN``, N = ``index-bitwidth``)
=====================================  ===============================================
add sub mul divs divu rems remu        add sub mul sdiv udiv srem urem
and or xor shl shrs shru               and or xor shl ashr lshr
maxs maxu mins minu                    ``llvm.intr.smax/umax/smin/umin``
ceildivs ceildivu floordivs            upstream's branch-free sdiv/udiv sequences
cmp <pred>                             icmp <pred>
constant, bool.constant                ``llvm.mlir.constant``
sizeof                                 ``llvm.mlir.constant(N)``
casts / castu                          sext / zext, trunc, or nothing (same width)
=====================================  ===============================================

Option ``index-bitwidth`` (default 0: 64 bits).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, i1, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xdsl_gpu.gpu_dialect import index, llvm
from xdsl_gpu.passes.llvm_type_converter import (
    LLVMTypeConverter,
    apply_patterns,
    constant,
    convert_operands,
    replace_op,
)
from xdsl_gpu.passes.options import UpstreamOptions

_BINARY: dict[type[Operation], Callable[[SSAValue, SSAValue], Operation]] = {
    index.AddOp: llvm.AddOp,
    index.SubOp: llvm.SubOp,
    index.MulOp: llvm.MulOp,
    index.DivSOp: llvm.SDivOp,
    index.DivUOp: llvm.UDivOp,
    index.RemSOp: llvm.SRemOp,
    index.RemUOp: llvm.URemOp,
    index.MaxSOp: llvm.SMaxOp,
    index.MaxUOp: llvm.UMaxOp,
    index.MinSOp: llvm.SMinOp,
    index.MinUOp: llvm.UMinOp,
    index.ShlOp: llvm.ShlOp,
    index.ShrSOp: llvm.AShrOp,
    index.ShrUOp: llvm.LShrOp,
    index.AndOp: llvm.AndOp,
    index.OrOp: llvm.OrOp,
    index.XOrOp: llvm.XOrOp,
}


def _icmp(pred: str, lhs: SSAValue, rhs: SSAValue) -> llvm.ICmpOp:
    return llvm.ICmpOp(
        lhs, rhs, IntegerAttr(llvm.ICmpPredicateFlag(pred).to_int(), i64)
    )


def _ceildivs(a: SSAValue, b: SSAValue, t: IntegerType) -> list[Operation]:
    # x = b > 0 ? -1 : 1; (a != 0 && (a > 0) == (b > 0)) ? (a + x) / b + 1 : -(-a / b)
    return [
        zero := constant(0, t),
        one := constant(1, t),
        neg_one := constant(-1, t),
        b_pos := _icmp("sgt", b, zero.result),
        x := llvm.SelectOp(b_pos.res, neg_one.result, one.result),
        a_plus_x := llvm.AddOp(a, x.res),
        q := llvm.SDivOp(a_plus_x.res, b),
        pos_res := llvm.AddOp(q.res, one.result),
        neg_a := llvm.SubOp(zero.result, a),
        neg_q := llvm.SDivOp(neg_a.res, b),
        neg_res := llvm.SubOp(zero.result, neg_q.res),
        a_pos := _icmp("sgt", a, zero.result),
        same_sign := _icmp("eq", a_pos.res, b_pos.res),
        a_nonzero := _icmp("ne", a, zero.result),
        cond := llvm.AndOp(same_sign.res, a_nonzero.res),
        llvm.SelectOp(cond.res, pos_res.res, neg_res.res),
    ]


def _ceildivu(a: SSAValue, b: SSAValue, t: IntegerType) -> list[Operation]:
    # a == 0 ? 0 : (a - 1) / b + 1
    return [
        zero := constant(0, t),
        one := constant(1, t),
        minus_one := llvm.SubOp(a, one.result),
        q := llvm.UDivOp(minus_one.res, b),
        plus_one := llvm.AddOp(q.res, one.result),
        is_zero := _icmp("eq", a, zero.result),
        llvm.SelectOp(is_zero.res, zero.result, plus_one.res),
    ]


def _floordivs(a: SSAValue, b: SSAValue, t: IntegerType) -> list[Operation]:
    # x = b < 0 ? 1 : -1; (a != 0 && (a < 0) != (b < 0)) ? -1 - (x - a) / b : a / b
    return [
        zero := constant(0, t),
        pos_one := constant(1, t),
        neg_one := constant(-1, t),
        b_neg := _icmp("slt", b, zero.result),
        x := llvm.SelectOp(b_neg.res, pos_one.result, neg_one.result),
        x_minus_a := llvm.SubOp(x.res, a),
        q := llvm.SDivOp(x_minus_a.res, b),
        neg_res := llvm.SubOp(neg_one.result, q.res),
        pos_res := llvm.SDivOp(a, b),
        a_neg := _icmp("slt", a, zero.result),
        other_sign := _icmp("ne", a_neg.res, b_neg.res),
        a_nonzero := _icmp("ne", a, zero.result),
        cond := llvm.AndOp(other_sign.res, a_nonzero.res),
        llvm.SelectOp(cond.res, neg_res.res, pos_res.res),
    ]


_EXPANDED: dict[
    type[Operation], Callable[[SSAValue, SSAValue, IntegerType], list[Operation]]
] = {
    index.CeilDivSOp: _ceildivs,
    index.CeilDivUOp: _ceildivu,
    index.FloorDivSOp: _floordivs,
}


@dataclass
class IndexToLLVMPattern(RewritePattern):
    converter: LLVMTypeConverter

    acts_on_names = ("index.",)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not op.name.startswith("index."):
            return
        t = self.converter.index_type
        operands = convert_operands(self.converter, op, rewriter)
        assert operands is not None  # index ops have index and integer types only
        new_ops: list[Operation]
        if (build := _BINARY.get(type(op))) is not None:
            new_ops = [build(*operands)]
        elif (expand := _EXPANDED.get(type(op))) is not None:
            new_ops = expand(operands[0], operands[1], t)
        elif isinstance(op, index.CmpOp):
            new_ops = [_icmp(op.pred.data.value, *operands)]
        elif isinstance(op, index.ConstantOp):
            new_ops = [llvm.ConstantOp(IntegerAttr(op.value.value.data, t), t)]
        elif isinstance(op, index.BoolConstantOp):
            new_ops = [llvm.ConstantOp(IntegerAttr(op.value.value.data, i1), i1)]
        elif isinstance(op, index.SizeOfOp):
            new_ops = [constant(self.converter.index_bitwidth, t)]
        elif isinstance(op, index.CastSOp | index.CastUOp):
            new_ops = self._cast(op, operands[0])
        else:
            return
        value = new_ops[-1].results[0] if new_ops else operands[0]
        replace_op(op, new_ops, [value], rewriter)

    def _cast(self, op: index.IndexCastOp, value: SSAValue) -> list[Operation]:
        target = self.converter.convert_type(op.output.type)
        assert isinstance(target, IntegerType)
        assert isinstance(value.type, IntegerType)
        source_width, target_width = value.type.width.data, target.width.data
        if source_width == target_width:
            return []
        if source_width > target_width:
            return [llvm.TruncOp(value, target)]
        extend = llvm.SExtOp if isinstance(op, index.CastSOp) else llvm.ZExtOp
        return [extend(value, target)]


def index_to_llvm_patterns(converter: LLVMTypeConverter) -> list[RewritePattern]:
    return [IndexToLLVMPattern(converter)]


@dataclass(frozen=True)
class ConvertIndexToLLVMPass(UpstreamOptions, ModulePass):
    """Lower every ``index`` op to the ``llvm`` dialect (see the module docstring).

    Options:
      index-bitwidth: bit width of ``index`` (0: 64, upstream's default).
    """

    name = "convert-index-to-llvm"

    index_bitwidth: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        converter = LLVMTypeConverter.for_pass(self.name, self.index_bitwidth)
        apply_patterns(op, index_to_llvm_patterns(converter))
