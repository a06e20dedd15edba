"""``gpu-eliminate-barriers``: erase the ``gpu.barrier`` ops that order no conflicting
memory accesses, in each ``func.func`` as upstream's pass (anywhere in the payload as
``transform.apply_patterns.gpu.eliminate_barriers``).

Upstream: ``mlir/lib/Dialect/GPU/Transforms/EliminateBarriers.cpp`` (MLIR 22). A
barrier goes when no access before it (back to the previous barrier) conflicts with
an access after it (up to the next barrier): a write and a read, or two writes, of
memory that may be the same. "Before" and "after" are followed out of the barrier's
block: through ``scf.if``-like ops to their parent, around a loop (``scf.for``,
``scf.while``: the accesses of the loop body's other end belong to the previous or
next iteration), up to a parallel region boundary (a function, ``gpu.launch``, an op with
``__parallel_region_boundary_for_test``). Any other region op on the way and any op
whose effects are unknown keep the barrier.

Two memrefs are distinct when they come (through view ops) from two different
``memref.alloc``/``alloca``, or one from an allocation and the other from a
function's argument. Barriers are visited in order and each decision sees the
barriers erased before it, as upstream's greedy driver does.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriteWalker
from xdsl.traits import (
    IsolatedFromAbove,
    IsTerminator,
    MemoryEffectKind,
    get_effects,
)
from xdsl.transforms.dead_code_elimination import RemoveUnusedOperations

from xdsl_gpu.gpu_dialect.gpu import compute_ops, kernel_ops

BOUNDARY_ATTR = "__parallel_region_boundary_for_test"

_LOOPS = (scf.ForOp, scf.WhileOp)
"""Ops whose regions run again: effects wrap around their body."""

_SINGLE_EXECUTION = (scf.IfOp, scf.ExecuteRegionOp, scf.IndexSwitchOp)
"""Ops whose regions run at most once per execution of the op."""

_VIEWS = (
    memref.SubviewOp,
    memref.CastOp,
    memref.ReinterpretCastOp,
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
    memref.MemorySpaceCastOp,
)


@dataclass(frozen=True)
class _Access:
    """A read or write of ``memory`` (``None``: unknown memory)."""

    write: bool
    memory: SSAValue | None


class _Unknown(Exception):
    """Effects that cannot be bounded: the barrier stays."""


def _is_boundary(op: Operation) -> bool:
    return (
        BOUNDARY_ATTR in op.attributes
        or isinstance(op, kernel_ops.LaunchOp)
        or op.has_trait(IsolatedFromAbove)
    )


def _op_accesses(op: Operation) -> Iterator[_Access]:
    """The accesses of ``op`` and of the ops nested in it."""
    if isinstance(op, compute_ops.BarrierOp):
        return
    if isinstance(op, memref.LoadOp):
        yield _Access(False, op.memref)
        return
    if isinstance(op, memref.StoreOp):
        yield _Access(True, op.memref)
        return
    if op.regions:
        if not isinstance(op, _LOOPS + _SINGLE_EXECUTION):
            raise _Unknown
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    yield from _op_accesses(inner)
        return
    if op.has_trait(IsTerminator):
        return  # returns and yields pass values on, they touch no memory
    effects = get_effects(op)
    if effects is None:
        raise _Unknown
    for effect in effects:
        if effect.kind in (MemoryEffectKind.READ, MemoryEffectKind.WRITE):
            value = effect.value if isinstance(effect.value, SSAValue) else None
            yield _Access(effect.kind == MemoryEffectKind.WRITE, value)
        elif effect.kind == MemoryEffectKind.FREE:
            value = effect.value if isinstance(effect.value, SSAValue) else None
            yield _Access(True, value)


def _walk(ops: Iterator[Operation], out: list[_Access]) -> bool:
    """Collect the accesses of ``ops`` until a barrier; True if one stopped it."""
    for op in ops:
        if isinstance(op, compute_ops.BarrierOp):
            return True
        out.extend(_op_accesses(op))
    return False


def _before(op: Operation) -> Iterator[Operation]:
    current = op.prev_op
    while current is not None:
        yield current
        current = current.prev_op


def _after(op: Operation) -> Iterator[Operation]:
    current = op.next_op
    while current is not None:
        yield current
        current = current.next_op


def _block_from_end(block: Block) -> Iterator[Operation]:
    current = block.last_op
    while current is not None:
        yield current
        current = current.prev_op


def _accesses(barrier: Operation, forward: bool) -> list[_Access]:
    """The accesses on one side of ``barrier`` up to the nearest barrier."""
    out: list[_Access] = []
    op: Operation = barrier
    while True:
        if _walk(_after(op) if forward else _before(op), out):
            return out
        parent = op.parent_op()
        if parent is None or _is_boundary(parent):
            return out
        if isinstance(parent, _LOOPS):
            # The other end of the body runs in the next (previous) iteration.
            block = op.parent_block()
            assert block is not None
            ops = iter(block.ops) if forward else _block_from_end(block)
            if _walk(ops, out):
                return out
        elif not isinstance(parent, _SINGLE_EXECUTION):
            raise _Unknown
        op = parent


def _base(value: SSAValue) -> SSAValue:
    owner = value.owner
    while isinstance(owner, _VIEWS):
        value = owner.operands[0]
        owner = value.owner
    return value


def _allocated(value: SSAValue) -> bool:
    return isinstance(value.owner, memref.AllocOp | memref.AllocaOp)


def _function_argument(value: SSAValue) -> bool:
    if not isinstance(value, BlockArgument):
        return False
    parent = value.block.parent_op()
    return isinstance(parent, func.FuncOp | kernel_ops.FuncOp)


def _may_alias(a: SSAValue | None, b: SSAValue | None) -> bool:
    if a is None or b is None:
        return True
    a, b = _base(a), _base(b)
    if a is b:
        return True
    if _allocated(a) and _allocated(b):
        return False
    if (_allocated(a) and _function_argument(b)) or (
        _allocated(b) and _function_argument(a)
    ):
        return False
    return True


def _conflict(before: list[_Access], after: list[_Access]) -> bool:
    return any(
        (x.write or y.write) and _may_alias(x.memory, y.memory)
        for x in before
        for y in after
    )


def removable(barrier: Operation) -> bool:
    """Whether ``barrier`` orders no conflicting accesses."""
    try:
        return not _conflict(_accesses(barrier, False), _accesses(barrier, True))
    except _Unknown:
        return False


def eliminate_barriers(root: Operation) -> bool:
    """Erase the removable barriers under ``root``; True if one went."""
    changed = False
    for op in list(root.walk()):
        if isinstance(op, compute_ops.BarrierOp) and removable(op):
            op.detach()
            op.erase()
            changed = True
    return changed


@dataclass(frozen=True)
class GpuEliminateBarriersPass(ModulePass):
    """Erase unnecessary ``gpu.barrier`` ops (see the module docstring)."""

    name = "gpu-eliminate-barriers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Upstream's pass runs on each func.func (a gpu.func is left alone).
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            if eliminate_barriers(function):
                erase_dead_ops(function)


def erase_dead_ops(root: Operation) -> None:
    """What upstream's greedy driver erases after the barriers: ops without uses
    and effects (a loop whose only op was a barrier, its bounds)."""
    walker = PatternRewriteWalker(
        RemoveUnusedOperations(), apply_recursively=True, walk_reverse=True
    )
    for region in root.regions:
        walker.rewrite_region(region)
