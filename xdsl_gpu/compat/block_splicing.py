"""Moving every op of a block to the end of another in one splice.

xDSL moves ops one at a time (``Block.detach_op`` then ``Block.add_op``, also in
``Rewriter.inline_block``), each checking that the op is not an ancestor of its new
block, which walks up from that block: kernel outlining moved a 4000-op launch
body into its ``gpu.func`` that way. :func:`move_ops_to_end` relinks the two op
lists once and sets each op's parent: the blocks end up as the op-by-op moves
leave them. Not a patch: xDSL is unchanged; it writes the private ``_first_op``,
``_last_op``, ``_prev_op`` and ``_next_op`` of xDSL 0.74, which
``tests/compat/test_block_splicing.py`` checks.
"""

from __future__ import annotations

from xdsl.ir import Block

__all__ = ["move_ops_to_end"]


def move_ops_to_end(source: Block, dest: Block) -> None:
    """``for op in list(source.ops): source.detach_op(op); dest.add_op(op)``."""
    first, last = source.first_op, source.last_op
    if first is None or last is None:
        return
    if source is dest or _holds(source, dest):  # as xDSL does it (or its error)
        for op in list(source.ops):
            source.detach_op(op)
            dest.add_op(op)
        return
    op = first
    while op is not None:
        op.parent = dest
        op = op.next_op
    tail = dest.last_op
    if tail is None:
        dest._first_op = first  # pyright: ignore[reportPrivateUsage]
    else:
        tail._next_op = first  # pyright: ignore[reportPrivateUsage]
        first._prev_op = tail  # pyright: ignore[reportPrivateUsage]
    dest._last_op = last  # pyright: ignore[reportPrivateUsage]
    source._first_op = None  # pyright: ignore[reportPrivateUsage]
    source._last_op = None  # pyright: ignore[reportPrivateUsage]


def _holds(source: Block, dest: Block) -> bool:
    """Whether an op of ``source`` contains ``dest``."""
    above = dest.parent_op()
    while above is not None:
        if above.parent is source:
            return True
        above = above.parent_op()
    return False
