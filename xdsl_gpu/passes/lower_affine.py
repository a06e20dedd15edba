"""``lower-affine``: ``affine`` ops to ``arith``, ``scf`` and ``memref``, as in MLIR 22.

Upstream: ``mlir/lib/Conversion/AffineToStandard/AffineToStandard.cpp`` and
``mlir/lib/Dialect/Affine/Utils/Utils.cpp`` (``AffineApplyExpander``).

This replaces xDSL's own ``lower-affine`` (``xdsl/transforms/lower_affine.py``), which
ignores the symbols of load/store maps and the operands of loop bounds, lowers ``mod``
to a plain ``remsi`` (wrong for negative values), emits ``floordivsi``/``ceildivsi``
(which ``convert-arith-to-llvm`` then has to expand) and has no ``affine.if``,
``affine.min`` or ``affine.parallel``. ``xdsl_gpu/passes/registration.py`` makes stock
``xdsl-opt -p lower-affine`` run this one.

What each op becomes:

* expressions (``affine.apply``, map operands of the ops below): ``+`` → ``addi``,
  ``*`` → ``muli overflow<nsw>``, ``mod`` → ``remsi`` made non-negative (``select``),
  ``floordiv``/``ceildiv`` → upstream's ``divsi`` sequences; the divisor may be a
  symbol (semi-affine maps such as ``()[s0, s1, s2] -> (s0 * s2 + s1)``, see
  ``xdsl_gpu/gpu_dialect/affine_compat.py``); constants → ``arith.constant``;
* ``affine.min`` → ``arith.minsi`` over the map results;
* ``affine.for`` → ``scf.for`` (bounds: ``maxsi``/``minsi`` over the map results,
  step: a constant), ``iter_args`` kept;
* ``affine.if`` → ``scf.if`` on the ``andi`` of the constraints (``cmpi sge``/``eq``
  against 0; ``true`` with no constraint);
* ``affine.parallel`` (without reductions) → ``scf.parallel``;
* ``affine.load``/``affine.store`` → ``memref.load``/``memref.store``;
* ``affine.yield`` → ``scf.yield`` (``scf.reduce`` in a parallel loop).

A constant ``mod``/``floordiv``/``ceildiv`` divisor that is not positive, an
``affine.parallel`` with reductions and ``affine.vector_load``/``vector_store`` stop the
pass with a diagnostic naming the op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.ir.affine.affine_set import AffineConstraintKind
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xdsl_gpu.passes.ir_walk import preorder
from xdsl_gpu.passes.llvm_type_converter import PatternSet, conversion_error

PASS_NAME = "lower-affine"
NSW = arith.IntegerOverflowAttr((arith.IntegerOverflowFlag.NSW,))


class _NonPositiveDivisor(Exception):
    pass


@dataclass
class AffineExpander:
    """Expands affine expressions to ``arith`` ops (upstream's ``AffineApplyExpander``:
    same ops, same order)."""

    dims: Sequence[SSAValue]
    symbols: Sequence[SSAValue]
    ops: list[Operation] = field(default_factory=list[Operation])

    def constant(self, value: int) -> SSAValue:
        op = arith.ConstantOp(IntegerAttr(value, IndexType()))
        self.ops.append(op)
        return op.result

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def expand(self, expr: AffineExpr) -> SSAValue:
        match expr:
            case AffineConstantExpr():
                return self.constant(expr.value)
            case AffineDimExpr():
                return self.dims[expr.position]
            case AffineSymExpr():
                return self.symbols[expr.position]
            case AffineBinaryOpExpr():
                if expr.kind in (
                    AffineBinaryOpKind.Mod,
                    AffineBinaryOpKind.FloorDiv,
                    AffineBinaryOpKind.CeilDiv,
                ) and isinstance(expr.rhs, AffineConstantExpr):
                    if expr.rhs.value <= 0:
                        raise _NonPositiveDivisor(
                            f"{expr.kind.get_token()} by non-positive value "
                            f"{expr.rhs.value} is not supported"
                        )
                lhs = self.expand(expr.lhs)
                rhs = self.expand(expr.rhs)
                return self._binary(expr.kind, lhs, rhs)
            case _:
                raise AssertionError(f"unknown affine expression {expr}")

    def _binary(self, kind: AffineBinaryOpKind, a: SSAValue, b: SSAValue) -> SSAValue:
        match kind:
            case AffineBinaryOpKind.Add:
                return self.add(arith.AddiOp(a, b))
            case AffineBinaryOpKind.Mul:
                return self.add(arith.MuliOp(a, b, overflow=NSW))
            case AffineBinaryOpKind.Mod:
                # r = a % b; r < 0 ? r + b : r
                rem = self.add(arith.RemSIOp(a, b))
                zero = self.constant(0)
                negative = self.add(arith.CmpiOp(rem, zero, "slt"))
                corrected = self.add(arith.AddiOp(rem, b))
                return self.add(arith.SelectOp(negative, corrected, rem))
            case AffineBinaryOpKind.FloorDiv:
                # q = a < 0 ? -1 - (-1 - a) / b : a / b
                zero = self.constant(0)
                minus_one = self.constant(-1)
                negative = self.add(arith.CmpiOp(a, zero, "slt"))
                decremented = self.add(arith.SubiOp(minus_one, a))
                dividend = self.add(arith.SelectOp(negative, decremented, a))
                quotient = self.add(arith.DivSIOp(dividend, b))
                corrected = self.add(arith.SubiOp(minus_one, quotient))
                return self.add(arith.SelectOp(negative, corrected, quotient))
            case AffineBinaryOpKind.CeilDiv:
                # q = a <= 0 ? -((-a) / b) : ((a - 1) / b) + 1
                zero = self.constant(0)
                one = self.constant(1)
                non_positive = self.add(arith.CmpiOp(a, zero, "sle"))
                negated = self.add(arith.SubiOp(zero, a))
                decremented = self.add(arith.SubiOp(a, one))
                dividend = self.add(arith.SelectOp(non_positive, negated, decremented))
                quotient = self.add(arith.DivSIOp(dividend, b))
                negated_quotient = self.add(arith.SubiOp(zero, quotient))
                incremented = self.add(arith.AddiOp(quotient, one))
                return self.add(
                    arith.SelectOp(non_positive, negated_quotient, incremented)
                )


def expand_map(
    amap: AffineMap, operands: Sequence[SSAValue], expander_ops: list[Operation]
) -> list[SSAValue]:
    """Every result of ``amap`` applied to ``operands`` (dimensions, then symbols)."""
    expander = AffineExpander(
        operands[: amap.num_dims], operands[amap.num_dims :], expander_ops
    )
    return [expander.expand(e) for e in amap.results]


def _reduce(
    values: list[SSAValue],
    cls: type[arith.MinSIOp] | type[arith.MaxSIOp],
    ops: list[Operation],
) -> SSAValue:
    """``min``/``max`` of ``values``, left to right (``buildMinMaxReductionSeq``)."""
    result = values[0]
    for value in values[1:]:
        op = cls(result, value)
        ops.append(op)
        result = op.result
    return result


class AffinePattern(RewritePattern):
    """Turns a non-positive divisor into a diagnostic at the op."""

    lowers: tuple[type[Operation], ...] | None = None
    """The op classes ``lower`` acts on (None: not said)."""

    @property
    def acts_on(self) -> tuple[type[Operation], ...] | None:
        """``lowers`` (the pattern driver tries the pattern on nothing else)."""
        return self.lowers

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        try:
            self.lower(op, rewriter)
        except _NonPositiveDivisor as e:
            raise conversion_error(PASS_NAME, op, f"has a map where {e}") from None

    def lower(self, op: Operation, rewriter: PatternRewriter) -> None:
        raise NotImplementedError


@dataclass
class LowerAffineApply(AffinePattern):
    """``affine.apply`` → ``arith``. As in MLIR's dialect conversion, which tries the
    op's folder first, an apply whose operands were all ``arith.constant`` ops before
    the pass becomes one constant and a map that is a lone dimension or symbol is its
    operand. An operand that only becomes a constant during the pass (another
    apply's result) does not count: upstream replaces values only at the end."""

    constants: dict[SSAValue, int] = field(default_factory=dict[SSAValue, int])

    lowers = (affine.ApplyOp,)

    def lower(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, affine.ApplyOp):
            return
        amap = op.map.data
        expr = amap.results[0]
        if isinstance(expr, AffineDimExpr | AffineSymExpr):
            position = expr.position
            if isinstance(expr, AffineSymExpr):
                position += amap.num_dims
            rewriter.replace(op, [], [op.mapOperands[position]])
            return
        known = [self.constants.get(v) for v in op.mapOperands]
        if all(v is not None for v in known):
            values = [v for v in known if v is not None]
            folded = _constant_fold(
                expr, values[: amap.num_dims], values[amap.num_dims :]
            )
            if folded is not None:
                constant = arith.ConstantOp(IntegerAttr(folded, IndexType()))
                rewriter.replace(op, constant)
                return
        ops: list[Operation] = []
        (value,) = expand_map(op.map.data, op.mapOperands, ops)
        rewriter.replace(op, ops, [value])


def _constant_fold(
    expr: AffineExpr, dims: Sequence[int], symbols: Sequence[int]
) -> int | None:
    """``expr``'s value, or None where a divisor is not positive (no fold: the
    expansion reports it, as upstream's does)."""
    match expr:
        case AffineConstantExpr():
            return expr.value
        case AffineDimExpr():
            return dims[expr.position]
        case AffineSymExpr():
            return symbols[expr.position]
        case AffineBinaryOpExpr():
            lhs = _constant_fold(expr.lhs, dims, symbols)
            rhs = _constant_fold(expr.rhs, dims, symbols)
            if lhs is None or rhs is None:
                return None
            match expr.kind:
                case AffineBinaryOpKind.Add:
                    return lhs + rhs
                case AffineBinaryOpKind.Mul:
                    return lhs * rhs
                case _ if rhs <= 0:
                    return None
                case AffineBinaryOpKind.Mod:
                    return lhs % rhs
                case AffineBinaryOpKind.FloorDiv:
                    return lhs // rhs
                case AffineBinaryOpKind.CeilDiv:
                    return -(-lhs // rhs)
        case _:
            pass
    return None


@dataclass
class LowerAffineMin(AffinePattern):
    """``affine.min`` → ``arith.minsi`` over the map results; one whose operands are
    all constants of the input is the constant minimum (upstream's folder)."""

    constants: dict[SSAValue, int] = field(default_factory=dict[SSAValue, int])

    lowers = (affine.MinOp,)

    def lower(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, affine.MinOp):
            return
        amap = op.map.data
        known = [self.constants.get(v) for v in op.arguments]
        if all(v is not None for v in known):
            values = [v for v in known if v is not None]
            results = [
                _constant_fold(e, values[: amap.num_dims], values[amap.num_dims :])
                for e in amap.results
            ]
            if results and all(r is not None for r in results):
                least = min(r for r in results if r is not None)
                rewriter.replace(op, arith.ConstantOp(IntegerAttr(least, IndexType())))
                return
        ops: list[Operation] = []
        values = expand_map(op.map.data, op.arguments, ops)
        rewriter.replace(op, ops, [_reduce(values, arith.MinSIOp, ops)])


class LowerAffineLoadStore(AffinePattern):
    lowers = (
        affine.LoadOp,
        affine.StoreOp,
        affine.VectorLoadOp,
        affine.VectorStoreOp,
    )

    def lower(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, affine.LoadOp):
            ops: list[Operation] = []
            indices = expand_map(_map_or_identity(op.map, op.indices), op.indices, ops)
            rewriter.replace(op, [*ops, memref.LoadOp.get(op.memref, indices)])
        elif isinstance(op, affine.StoreOp):
            ops = []
            indices = expand_map(_map_or_identity(op.map, op.indices), op.indices, ops)
            rewriter.replace(
                op, [*ops, memref.StoreOp.get(op.value, op.memref, indices)], []
            )
        elif isinstance(op, affine.VectorLoadOp | affine.VectorStoreOp):
            raise conversion_error(
                PASS_NAME,
                op,
                "is not lowered by xdsl-gpu yet (upstream makes it a vector.load/"
                "vector.store); rewrite it as affine.load/affine.store of scalars",
            )


def _map_or_identity(amap: AffineMapAttr | None, indices: Sequence[SSAValue]):
    if amap is None:
        return AffineMap.identity(len(indices))
    return amap.data


class LowerAffineFor(AffinePattern):
    lowers = (affine.ForOp,)

    def lower(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, affine.ForOp):
            return
        ops: list[Operation] = []
        lbs = expand_map(op.lowerBoundMap.data, op.lowerBoundOperands, ops)
        lb = _reduce(lbs, arith.MaxSIOp, ops)
        ubs = expand_map(op.upperBoundMap.data, op.upperBoundOperands, ops)
        ub = _reduce(ubs, arith.MinSIOp, ops)
        step = arith.ConstantOp(IntegerAttr(op.step.value.data, IndexType()))
        ops.append(step)
        body = rewriter.move_region_contents_to_new_regions(op.body)
        loop = scf.ForOp(lb, ub, step.result, op.inits, body)
        rewriter.replace(op, [*ops, loop], loop.results)


class LowerAffineIf(AffinePattern):
    lowers = (affine.IfOp,)

    def lower(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, affine.IfOp):
            return
        condition = op.condition.data
        ops: list[Operation] = []
        expander = AffineExpander(
            op.args[: condition.num_dims], op.args[condition.num_dims :], ops
        )
        cond: SSAValue | None = None
        if condition.constraints:
            zero = expander.constant(0)
            for constraint in condition.constraints:
                value = expander.expand(constraint.lhs - constraint.rhs)
                predicate = {
                    AffineConstraintKind.ge: "sge",
                    AffineConstraintKind.le: "sle",
                    AffineConstraintKind.eq: "eq",
                }[constraint.kind]
                check = expander.add(arith.CmpiOp(value, zero, predicate))
                cond = (
                    check if cond is None else expander.add(arith.AndIOp(cond, check))
                )
        else:
            cond = expander.add(arith.ConstantOp.from_int_and_width(1, 1))
        assert cond is not None
        then_region = rewriter.move_region_contents_to_new_regions(op.then_region)
        else_region = rewriter.move_region_contents_to_new_regions(op.else_region)
        new = scf.IfOp(
            cond,
            [r.type for r in op.res],
            then_region,
            else_region if else_region.blocks else None,
        )
        rewriter.replace(op, [*ops, new], new.results)


class LowerAffineParallel(AffinePattern):
    lowers = (affine.ParallelOp,)

    def lower(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, affine.ParallelOp):
            return
        if op.reductions.data or op.res:
            raise conversion_error(
                PASS_NAME,
                op,
                "with reductions is not lowered by xdsl-gpu yet (upstream makes "
                "scf.parallel with scf.reduce); accumulate in an affine.for instead",
            )
        lb_map, ub_map = op.lowerBoundsMap.data, op.upperBoundsMap.data
        n_lb = lb_map.num_dims + lb_map.num_symbols
        lb_operands = op.map_operands[:n_lb]
        ub_operands = op.map_operands[n_lb:]
        ops: list[Operation] = []
        lb_groups = [int(g) for g in op.lowerBoundsGroups.get_values()]
        ub_groups = [int(g) for g in op.upperBoundsGroups.get_values()]
        lower: list[SSAValue] = []
        upper: list[SSAValue] = []
        lb_start = ub_start = 0
        for lb_count, ub_count in zip(lb_groups, ub_groups, strict=True):
            lb_results = _sub_map(lb_map, lb_start, lb_count)
            ub_results = _sub_map(ub_map, ub_start, ub_count)
            lower.append(
                _reduce(expand_map(lb_results, lb_operands, ops), arith.MaxSIOp, ops)
            )
            upper.append(
                _reduce(expand_map(ub_results, ub_operands, ops), arith.MinSIOp, ops)
            )
            lb_start += lb_count
            ub_start += ub_count
        steps: list[SSAValue] = []
        for step in op.steps.data:
            constant = arith.ConstantOp(IntegerAttr(step.value.data, IndexType()))
            ops.append(constant)
            steps.append(constant.result)
        body = rewriter.move_region_contents_to_new_regions(op.body)
        rewriter.replace(op, [*ops, scf.ParallelOp(lower, upper, steps, body)], [])


def _sub_map(amap: AffineMap, start: int, count: int) -> AffineMap:
    return AffineMap(
        amap.num_dims, amap.num_symbols, amap.results[start : start + count]
    )


class LowerAffineYield(RewritePattern):
    acts_on = (affine.YieldOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, affine.YieldOp):
            return
        if isinstance(op.parent_op(), scf.ParallelOp):
            rewriter.replace(op, scf.ReduceOp(), [])
        else:
            rewriter.replace(op, scf.YieldOp(*op.arguments), [])


@dataclass(frozen=True)
class LowerAffinePass(ModulePass):
    """Lower ``affine`` to ``arith``, ``scf`` and ``memref`` (module docstring)."""

    name = "lower-affine"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        constants: dict[SSAValue, int] = {
            o.result: o.value.value.data
            for o in preorder(op)
            if isinstance(o, arith.ConstantOp) and isinstance(o.value, IntegerAttr)
        }
        patterns: list[RewritePattern] = [
            LowerAffineApply(constants),
            LowerAffineMin(constants),
            LowerAffineLoadStore(),
            LowerAffineFor(),
            LowerAffineIf(),
            LowerAffineParallel(),
            LowerAffineYield(),
        ]
        PatternSet(patterns, erase_dead_casts=False).apply(op)
