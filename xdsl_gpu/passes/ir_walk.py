"""The ops in an op, as a list: what ``Operation.walk()`` yields, built faster.

xDSL's walk is a generator per region, block and op, so each op travels up
through three generators per level of nesting on its way out. Passes that want
every op up front (to rewrite them one after the other, or to check each) only
need the list: :func:`preorder` follows the same linked lists in the same order
into one, 4x faster than ``list(op.walk())`` (8265 ops: 0.7 ms instead of 2.9 ms;
a small part of a compile all the same).
"""

from __future__ import annotations

from xdsl.ir import Operation, Region

__all__ = ["postorder", "preorder", "region_postorder"]


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


def postorder(root: Operation) -> list[Operation]:
    """``root`` and every op nested in it, in ``list(root.walk(region_first=True))``'s
    order (each op after the ops of its regions)."""
    ops: list[Operation] = []
    _collect_post(root, ops)
    return ops


def _collect_post(op: Operation, ops: list[Operation]) -> None:
    for region in op.regions:
        for block in region.blocks:
            inner = block.first_op
            while inner is not None:
                if inner.regions:
                    _collect_post(inner, ops)
                else:
                    ops.append(inner)
                inner = inner.next_op
    ops.append(op)


def region_postorder(region: Region) -> list[Operation]:
    """Every op in ``region``, in ``list(region.walk(region_first=True))``'s order."""
    ops: list[Operation] = []
    for block in region.blocks:
        inner = block.first_op
        while inner is not None:
            if inner.regions:
                _collect_post(inner, ops)
            else:
                ops.append(inner)
            inner = inner.next_op
    return ops
