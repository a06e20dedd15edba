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
round.

Only executable blocks are visited (MLIR's dead code analysis): the entry blocks of
the root's regions and of every visited op's regions, except that ``scf.if`` runs
the region its condition selects, ``scf.while`` its body only unless the condition
is known false, and ``cf.cond_br`` on a known condition takes one edge. A value in a
block never reached stays unknown. Calls are followed (:mod:`calls`): a
``func.call`` gets what its callee returns, and a private function that only calls
use runs, with their operands as arguments, when one of them does.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from xdsl.dialects.builtin import DenseArrayBase
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from xdsl_gpu.gpu_dialect.gpu.kernel_ops import LaunchOp
from xdsl_gpu.passes.branch_arguments import successor_operands
from xdsl_gpu.passes.int_range.calls import CALLS, FUNCTIONS, RETURNS, CallGraph
from xdsl_gpu.passes.int_range.op_ranges import infer_launch_arguments, infer_results
from xdsl_gpu.passes.int_range.ranges import (
    ConstantIntRanges,
    smax_of,
    smin_of,
    storage_width,
    to_signed,
)

_FUNCTIONS = frozenset({"func.func", "gpu.func", "llvm.func"})
_MAX_CHANGES = 64
"""A value whose range grew this often goes to the whole range: a cycle that no
terminator closes (a recursive call) must end too."""
_YIELDING = frozenset({"scf.if", "scf.execute_region", "scf.index_switch"})
"""Region ops whose results are what their regions' ``scf.yield``s give."""


class IntRangeAnalysis:
    """Run :meth:`run` on a root op; then :meth:`range_of` answers per value."""

    def __init__(self) -> None:
        self.ranges: dict[SSAValue, ConstantIntRanges] = {}
        self.live: set[Block] = set()
        self._queue: deque[Operation] = deque()
        self._queued: set[Operation] = set()
        self._changes: dict[SSAValue, int] = {}
        self._calls: CallGraph | None = None

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
        self._calls = CallGraph(root)
        for op in root.walk():
            for region in op.regions:
                for block in region.blocks:
                    self._init_block(op, block)
        for region in root.regions:
            if region.first_block is not None:
                self._mark_live(region.first_block)
        while self._queue:
            op = self._queue.popleft()
            self._queued.discard(op)
            if op.parent_block() in self.live:
                self._visit(op)

    def _mark_live(self, block: Block) -> None:
        """Take ``block`` as executable: its ops get visited."""
        if block not in self.live:
            self.live.add(block)
            for op in block.ops:
                self._enqueue(op)

    def _mark_regions_live(self, op: Operation, indices: Iterable[int]) -> None:
        for i in indices:
            if (entry := op.regions[i].first_block) is not None:
                self._mark_live(entry)

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
            if owner.name in _FUNCTIONS:
                if not self._only_called(owner):
                    self._set_max(block.args)
            elif not described:
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
        changes = self._changes[value] = self._changes.get(value, 0) + 1
        if old is not None and (
            changes > _MAX_CHANGES
            or (
                widen
                and any(use.operation.has_trait(IsTerminator) for use in value.uses)
            )
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
        elif op.name in CALLS:
            self._visit_call(op)
        elif op.name in _YIELDING:
            for block in self._live_region_blocks(op):
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
            if op.successors:
                self._visit_branch(op)
        if op.name in FUNCTIONS and self._calls is not None:
            # A return changed: the calls get its values again.
            for call in self._calls.calls_to(op):
                self._enqueue(call)
            if self._only_called(op):
                return  # runs when a call to it does
        if op.regions and op.name not in (*_YIELDING, "scf.while"):
            self._mark_regions_live(op, range(len(op.regions)))

    def _only_called(self, func: Operation) -> bool:
        return self._calls is not None and self._calls.only_called(func)

    def _visit_call(self, call: Operation) -> None:
        """A call passes its operands to a function only calls reach, and gets
        what the callee's returns give (everything for a declaration)."""
        callee = self._calls.callee(call) if self._calls is not None else None
        if callee is None or not callee.regions[0].blocks:
            self._set_max(call.results)
            return
        entry = callee.regions[0].blocks[0]
        if self._only_called(callee):
            self._mark_live(entry)
            for arg, value in zip(entry.args, call.operands):
                self._join_from(arg, value)
        for block in callee.regions[0].blocks:
            last = block.last_op
            if block in self.live and last is not None and last.name in RETURNS:
                for result, value in zip(call.results, last.operands):
                    self._join_from(result, value)

    def _condition(self, value: SSAValue) -> bool | str | None:
        """A condition's value: True/False if known, None if it may be either,
        "unknown" while nothing is known of it yet (then nothing runs yet)."""
        ranges = self.ranges.get(value)
        if ranges is None:
            return "unknown"
        constant = ranges.constant_value()
        return None if constant is None else bool(constant)

    def _live_region_blocks(self, op: Operation) -> list[Block]:
        """The live blocks of ``op``'s regions; for ``scf.if``, the regions its
        condition selects are marked live first (MLIR's dead code analysis)."""
        if op.name == "scf.if":
            condition = self._condition(op.operands[0])
            if condition != "unknown":
                chosen = [0, 1] if condition is None else [0 if condition else 1]
                self._mark_regions_live(op, chosen)
        elif op.name == "scf.index_switch":
            self._mark_regions_live(op, self._switch_regions(op))
        else:
            self._mark_regions_live(op, range(len(op.regions)))
        return [b for r in op.regions for b in r.blocks if b in self.live]

    def _switch_regions(self, op: Operation) -> list[int]:
        """The regions of ``scf.index_switch`` that may run: the case of a known
        value (region 0 is the default), every one otherwise."""
        ranges = self.ranges.get(op.operands[0])
        if ranges is None:
            return []
        value = ranges.constant_value()
        cases = op.properties.get("cases")
        if value is None or not isinstance(cases, DenseArrayBase):
            return list(range(len(op.regions)))
        value = to_signed(value, ranges.width)
        for i, case in enumerate(cases.get_values()):
            if case == value:
                return [i + 1]
        return [0]

    def _visit_branch(self, term: Operation) -> None:
        """Mark the successors a branch may take live; pass them its operands.
        ``cf.cond_br`` on a known condition takes one edge (``llvm.cond_br``,
        as in MLIR 22, both)."""
        passed = successor_operands(term)
        taken = list(range(len(term.successors)))
        if term.name == "cf.cond_br":
            condition = self._condition(term.operands[0])
            if condition == "unknown":
                taken = []
            elif condition is not None:
                taken = [0 if condition else 1]
        for i in taken:
            block = term.successors[i]
            self._mark_live(block)
            if passed is None:
                continue
            # MLIR follows edges between blocks: a block named twice gets both.
            for j, successor in enumerate(term.successors):
                if successor is block:
                    for arg, value in zip(block.args, passed[j]):
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
        self._mark_live(before)
        for arg, init in zip(before.args, op.operands):
            self._join_from(arg, init)
        if (yield_op := after.last_op) is not None and after in self.live:
            for arg, value in zip(before.args, yield_op.operands):
                self._join_from(arg, value)
        if (condition := before.last_op) is not None and before in self.live:
            forwarded = condition.operands[1:]
            for result, value in zip(op.results, forwarded):
                self._join_from(result, value)
            if self._condition(condition.operands[0]) not in ("unknown", False):
                self._mark_live(after)
                for arg, value in zip(after.args, forwarded):
                    self._join_from(arg, value)
