"""Dead-code elimination after a greedy walk: xDSL's ``region_dce``, with the same
result in one pass over the region.

xDSL's ``region_dce`` recomputes liveness over every op of the region until nothing
changes (at least twice), asking each op not yet live again whether it would be
trivially dead (its traits and memory effects). Liveness is the least fixed point
of "an op is live if it would not be trivially dead or one of its users is live",
so it is also what is reached backwards from the ops that would not be trivially
dead, through the definitions of their operands: each op is asked once and each
operand followed once; and the answer is asked once per class of op whose only
memory-effect traits are ``NoMemoryEffect``'s (``Pure`` ops: their answer depends
on their class's traits alone). That was half of ``canonicalize`` and of
``expand-strided-metadata`` on a 4000-op kernel.

The ops considered are xDSL's: those of the blocks reachable from the region's
entry block and, recursively, of the regions of those ops. A user outside them
keeps nothing alive, as in xDSL's. Erasure is xDSL's own (``LiveSet.delete_dead``),
so the same ops and blocks go in the same order, with the same listener calls.
"""

from __future__ import annotations

from xdsl.ir import Operation, OpResult, Region
from xdsl.ir.post_order import PostOrderIterator
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.traits import MemoryEffect, NoMemoryEffect
from xdsl.transforms.dead_code_elimination import LiveSet, would_be_trivially_dead

_NO_EFFECTS = NoMemoryEffect.get_effects.__func__  # pyright: ignore[reportFunctionMemberAccess]


def _effects_fixed_by_class(kind: type[Operation]) -> bool:
    """Whether ``would_be_trivially_dead`` answers alike for every op of ``kind``:
    it has memory-effect traits and each is ``NoMemoryEffect``'s (no effects,
    whatever the op)."""
    traits = kind.get_traits_of_type(MemoryEffect)
    return bool(traits) and all(
        getattr(type(t).get_effects, "__func__", None) is _NO_EFFECTS for t in traits
    )


def region_dce(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """Erase the ops of ``region`` that nothing live needs, as xDSL's
    ``region_dce``; whether anything was erased."""
    by_class: dict[type[Operation], bool | None] = {}  # None: ask each op

    def dead_if_unused(op: Operation) -> bool:
        kind = type(op)
        if kind not in by_class:
            fixed = _effects_fixed_by_class(kind)
            by_class[kind] = would_be_trivially_dead(op) if fixed else None
        answer = by_class[kind]
        return would_be_trivially_dead(op) if answer is None else answer

    considered: set[Operation] = set()
    live: set[Operation] = set()
    pending: list[Operation] = []
    regions = [region]
    while regions:
        first = regions.pop().first_block
        if first is None:
            continue
        for block in PostOrderIterator(first):
            for op in block.ops:
                considered.add(op)
                if op.regions:
                    regions.extend(op.regions)
                if not dead_if_unused(op):
                    live.add(op)
                    pending.append(op)
    while pending:
        for operand in pending.pop().operands:
            if isinstance(operand, OpResult):
                definition = operand.op
                if definition not in live and definition in considered:
                    live.add(definition)
                    pending.append(definition)
    live_set = LiveSet(changed=False, _live_ops=live)
    live_set.delete_dead(region, listener)
    return live_set.changed
