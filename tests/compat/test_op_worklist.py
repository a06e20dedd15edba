"""``compat.op_worklist.OpWorklist`` hands out the ops in xDSL's ``Worklist``'s
order, and xDSL's still hashes each op it keeps (the gap)."""

from __future__ import annotations

import random

from xdsl.dialects import test
from xdsl.ir import Operation
from xdsl.utils.worklist import Worklist

from xdsl_gpu.compat.op_worklist import OpWorklist


def _ops(count: int) -> list[Operation]:
    return [test.TestOp.create() for _ in range(count)]


def test_the_same_order_as_xdsls() -> None:
    """Random pushes (again of ops already in), removals and pops: the same ops
    come out of both, in the same order."""
    ops = _ops(30)
    chooser = random.Random(25)
    ours, theirs = OpWorklist(), Worklist[Operation]()
    out_ours: list[Operation] = []
    out_theirs: list[Operation] = []
    for _ in range(600):
        action = chooser.random()
        op = chooser.choice(ops)
        if action < 0.5:
            ours.push(op)
            theirs.push(op)
        elif action < 0.7:
            ours.remove(op)
            theirs.remove(op)
        else:
            assert bool(ours) == bool(theirs)
            if theirs:
                out_ours.append(ours.pop())
                out_theirs.append(theirs.pop())
    while theirs:
        out_ours.append(ours.pop())
        out_theirs.append(theirs.pop())
    assert not ours
    assert out_ours == out_theirs
    assert len(out_theirs) > 100


def test_gap_xdsls_worklist_hashes_its_ops() -> None:
    """xDSL's Worklist finds its items through their hash (a Python call for an
    IRDL op), on ``_stack`` with ``_MISSING`` holes, which OpWorklist reuses."""
    calls = 0

    class Counted(test.TestOp):
        def __hash__(self) -> int:
            nonlocal calls
            calls += 1
            return id(self)

    worklist = Worklist[Operation]()
    op = Counted.create()
    worklist.push(op)
    worklist.remove(op)
    assert calls >= 2
    assert hasattr(worklist, "_stack")
    assert not worklist
