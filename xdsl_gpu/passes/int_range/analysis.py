"""The integer range analysis: a sparse forward dataflow over SSA values (MLIR's
``IntegerRangeAnalysis`` on its ``SparseForwardDataFlowAnalysis``).

Every integer or index value starts unknown (bottom). Ops are visited from a work
list; each joins what it implies into its results' ranges (:mod:`op_ranges`), and a
value whose range grows sends its users back onto the list. Block arguments get:

* function entry arguments and those of ops without known semantics: everything
  (the whole range of their type);
* ``gpu.launch``'s ids and sizes: from its size operands;
* ``scf.for``: the induction variable from its bounds and step, iteration arguments
  from the initial values and the ``scf.yield``; ``scf.while`` likewise;
* blocks reached by ``cf.br``/``cf.cond_br`` (and ``llvm.``): the join of what each
  branch passes.

As in MLIR, a result that feeds a terminator and changes after it was first set goes
straight to the whole range, so a loop-carried value does not climb one step per
round. Unlike MLIR's, every block is taken as executable (no dead-code analysis), so
a branch that a constant condition rules out still contributes: less precise, never
wrong.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from xdsl_gpu.gpu_dialect.gpu.kernel_ops import LaunchOp
from xdsl_gpu.passes.branch_arguments import successor_operands
from xdsl_gpu.passes.int_range.op_ranges import infer_launch_arguments, infer_results
from xdsl_gpu.passes.int_range.ranges import (
    ConstantIntRanges,
    smax_of,
    smin_of,
    storage_width,
    to_signed,
)

_FUNCTIONS = frozenset({"func.func", "gpu.func", "llvm.func"})
_YIELDING = frozenset({"scf.if", "scf.execute_region", "scf.index_switch"})
"""Region ops whose results are what their regions' ``scf.yield``s give."""


class IntRangeAnalysis:
    """Run :meth:`run` on a root op; then :meth:`range_of` answers per value."""

    def __init__(self) -> None:
        self.ranges: dict[SSAValue, ConstantIntRanges] = {}
        self._queue: deque[Operation] = deque()
        self._queued: set[Operation] = set()

    # Queries ---------------------------------------------------------------------

    def range_of(self, value: SSAValue) -> ConstantIntRanges | None:
        """The inferred range of ``value``; None if nothing is known (not an
        integer, or never reached)."""
        return self.ranges.get(value)

    def constant_of(self, value: SSAValue) -> int | None:
        ranges = self.ranges.get(value)
        return None if ranges is None else ranges.constant_value()

    def copy_range(self, old: SSAValue, new: SSAValue) -> None:
        if (ranges := self.ranges.get(old)) is not None:
            self.ranges[new] = ranges

    # Solving ---------------------------------------------------------------------

    def run(self, root: Operation) -> None:
        for op in root.walk():
            for region in op.regions:
                for block in region.blocks:
                    self._init_block(op, block)
            self._enqueue(op)
        while self._queue:
            op = self._queue.popleft()
            self._queued.discard(op)
            self._visit(op)

    def _enqueue(self, op: Operation) -> None:
        if op not in self._queued:
            self._queued.add(op)
            self._queue.append(op)

    def _init_block(self, owner: Operation, block: Block) -> None:
        """Give the arguments that no op or branch will describe everything."""
        region = block.parent
        if region is not None and block is region.first_block:
            described = owner.name in ("scf.for", "scf.while") or isinstance(
                owner, LaunchOp
            )
            if owner.name in _FUNCTIONS or not described:
                self._set_max(block.args)
            return
        preds = [p.last_op for p in block.predecessors()]
        if any(p is None or successor_operands(p) is None for p in preds):
            self._set_max(block.args)

    def _set_max(self, values: Iterable[SSAValue]) -> None:
        for value in values:
            if (width := storage_width(value.type)) != 0:
                self.join(value, ConstantIntRanges.max_range(width))

    def join(
        self, value: SSAValue, ranges: ConstantIntRanges, widen: bool = False
    ) -> None:
        """Add ``ranges`` to what is known of ``value``; with ``widen``, a value
        that feeds a terminator and changes after it was first set gets the whole
        range (MLIR's guard against loop-variant values)."""
        width = storage_width(value.type)
        if width == 0 or ranges.width != width:
            return
        old = self.ranges.get(value)
        new = ranges if old is None else old.union(ranges)
        if new == old:
            return
        if (
            widen
            and old is not None
            and any(use.operation.has_trait(IsTerminator) for use in value.uses)
        ):
            new = ConstantIntRanges.max_range(width)
            if new == old:
                return
        self.ranges[value] = new
        for use in value.uses:
            self._enqueue(use.operation)
            if use.operation.has_trait(IsTerminator):
                if (parent := use.operation.parent_op()) is not None:
                    self._enqueue(parent)

    def _join_from(self, target: SSAValue, source: SSAValue) -> None:
        if (ranges := self.ranges.get(source)) is not None:
            self.join(target, ranges)

    def _visit(self, op: Operation) -> None:
        if isinstance(op, LaunchOp):
            args = [self.ranges.get(o) for o in op.operands]
            for value, ranges in infer_launch_arguments(op, args).items():
                self.join(value, ranges, widen=True)
        elif op.name == "scf.for":
            self._visit_for(op)
        elif op.name == "scf.while":
            self._visit_while(op)
        elif op.name in _YIELDING:
            for region in op.regions:
                for block in region.blocks:
                    if (last := block.last_op) is not None and last.name == "scf.yield":
                        for result, value in zip(op.results, last.operands):
                            self._join_from(result, value)
        else:
            args = [self.ranges.get(o) for o in op.operands]
            inferred = infer_results(op, args)
            if inferred is None:
                self._set_max(op.results)
            else:
                for value, ranges in inferred.items():
                    self.join(value, ranges, widen=True)
            if op.successors and (passed := successor_operands(op)) is not None:
                for block, values in zip(op.successors, passed):
                    for arg, value in zip(block.args, values):
                        self._join_from(arg, value)

    def _loop_bound(self, value: SSAValue, width: int, upper: bool) -> int:
        """A bound's signed max (``upper``) or min, else the type's extreme."""
        ranges = self.ranges.get(value)
        if ranges is None:
            return smax_of(width) if upper else smin_of(width)
        return ranges.smax if upper else ranges.smin

    def _visit_for(self, op: Operation) -> None:
        lb, ub, step, *inits = op.operands
        body = op.regions[0].blocks[0]
        iv, *iter_args = body.args
        width = storage_width(iv.type)
        if width:
            low = self._loop_bound(lb, width, False)
            high = self._loop_bound(ub, width, True)
            if self._loop_bound(step, width, True) < 0:
                low, high = high, low
            else:
                # Loops stop before their upper bound.
                high = to_signed(high - 1, width)
            if high >= low:
                self.join(iv, ConstantIntRanges.from_signed(low, high, width))
        yielded = body.last_op.operands if body.last_op is not None else ()
        for arg, result, init in zip(iter_args, op.results, inits):
            self._join_from(arg, init)
            self._join_from(result, init)
        for arg, result, value in zip(iter_args, op.results, yielded):
            self._join_from(arg, value)
            self._join_from(result, value)

    def _visit_while(self, op: Operation) -> None:
        before = op.regions[0].blocks[0]
        after = op.regions[1].blocks[0]
        for arg, init in zip(before.args, op.operands):
            self._join_from(arg, init)
        if (yield_op := after.last_op) is not None:
            for arg, value in zip(before.args, yield_op.operands):
                self._join_from(arg, value)
        if (condition := before.last_op) is not None:
            forwarded = condition.operands[1:]
            for arg, result, value in zip(after.args, op.results, forwarded):
                self._join_from(arg, value)
                self._join_from(result, value)
