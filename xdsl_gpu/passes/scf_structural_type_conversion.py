"""The types that ``scf`` ops carry, converted by a type converter (upstream's
``populateSCFStructuralTypeConversionsAndLegality``, MLIR 22).

An ``scf.for``, ``scf.if`` or ``scf.while`` is converted when a result type changes
under the converter (an ``index`` or ``!nvgpu.device.async.token`` result); the op is
rebuilt with converted operands and result types, its regions moved over and their
block arguments converted (an ``scf.for``'s induction variable and bounds too, as
upstream); ``scf.yield`` and ``scf.condition`` then pass converted values. Where
unconverted code uses a value, it sees an ``unrealized_conversion_cast`` back.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import UnrealizedConversionCastOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xdsl_gpu.passes.llvm_type_converter import (
    LLVMTypeConverter,
    convert_block_signature,
    convert_operands,
    to_llvm,
)


def _converted_results(
    converter: LLVMTypeConverter, op: Operation
) -> list[Attribute] | None:
    """The converted result types of ``op``, or ``None`` if it need not change."""
    old = [r.type for r in op.results]
    new = converter.convert_types(old)
    if new is None or new == old:
        return None
    return new


def _replace(op: Operation, new: Operation, rewriter: PatternRewriter) -> None:
    """Replace ``op`` by ``new`` (already inserted); a result whose type changed is
    seen by the old uses through a cast right after ``new``."""
    for old, value in zip(op.results, new.results, strict=True):
        if old.type == value.type:
            old.replace_all_uses_with(value)
            continue
        cast = UnrealizedConversionCastOp.create(
            operands=[value], result_types=[old.type]
        )
        rewriter.insert(cast, InsertPoint.after(new))
        old.replace_all_uses_with(cast.results[0])
    rewriter.erase(op)


class ForOpTypes(RewritePattern):
    def __init__(self, converter: LLVMTypeConverter):
        self.converter = converter

    acts_on = (scf.ForOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, scf.ForOp):
            return
        if _converted_results(self.converter, op) is None:
            return
        operands = convert_operands(self.converter, op, rewriter)
        if operands is None:
            return
        body = op.detach_region(op.body)
        new = scf.ForOp(operands[0], operands[1], operands[2], operands[3:], body)
        rewriter.insert(new)
        convert_block_signature(self.converter, body.block, rewriter)
        _replace(op, new, rewriter)


class IfOpTypes(RewritePattern):
    def __init__(self, converter: LLVMTypeConverter):
        self.converter = converter

    acts_on = (scf.IfOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, scf.IfOp):
            return
        results = _converted_results(self.converter, op)
        if results is None:
            return
        then_region, else_region = op.true_region, op.false_region
        for region in (then_region, else_region):
            op.detach_region(region)
        new = scf.IfOp(op.cond, results, then_region, else_region)
        rewriter.insert(new)
        _replace(op, new, rewriter)


class WhileOpTypes(RewritePattern):
    def __init__(self, converter: LLVMTypeConverter):
        self.converter = converter

    acts_on = (scf.WhileOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, scf.WhileOp):
            return
        results = _converted_results(self.converter, op)
        if results is None:
            return
        operands = convert_operands(self.converter, op, rewriter)
        if operands is None:
            return
        before, after = op.before_region, op.after_region
        for region in (before, after):
            op.detach_region(region)
        new = scf.WhileOp(operands, results, before, after)
        rewriter.insert(new)
        for region in (before, after):
            convert_block_signature(self.converter, region.block, rewriter)
        _replace(op, new, rewriter)


def _expected_types(op: Operation) -> Sequence[Attribute] | None:
    """The types the parent of a terminator expects it to pass."""
    parent = op.parent_op()
    if isinstance(op, scf.ConditionOp) and isinstance(parent, scf.WhileOp):
        return [r.type for r in parent.results]
    if not isinstance(op, scf.YieldOp):
        return None
    if isinstance(parent, scf.ForOp | scf.IfOp):
        return [r.type for r in parent.results]
    if isinstance(parent, scf.WhileOp):
        return [a.type for a in parent.before_region.block.args]
    return None


class TerminatorTypes(RewritePattern):
    """``scf.yield``/``scf.condition`` in a converted op: pass converted values."""

    def __init__(self, converter: LLVMTypeConverter):
        self.converter = converter

    acts_on = (scf.YieldOp, scf.ConditionOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        expected = _expected_types(op)
        if expected is None:
            return
        values = list(op.args) if isinstance(op, scf.ConditionOp) else list(op.operands)
        if [v.type for v in values] == list(expected):
            return
        converted: list[SSAValue] = []
        for value, t in zip(values, expected, strict=True):
            if value.type != t and self.converter.convert_type(value.type) == t:
                value = to_llvm(value, t, rewriter)
            converted.append(value)
        if isinstance(op, scf.ConditionOp):
            rewriter.replace(op, scf.ConditionOp(op.condition, *converted))
        else:
            rewriter.replace(op, scf.YieldOp(*converted))


def scf_structural_type_patterns(
    converter: LLVMTypeConverter,
) -> list[RewritePattern]:
    """The patterns, for a converter's types."""
    return [
        ForOpTypes(converter),
        IfOpTypes(converter),
        WhileOpTypes(converter),
        TerminatorTypes(converter),
    ]
