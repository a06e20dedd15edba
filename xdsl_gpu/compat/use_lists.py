"""Replacing an op by new ops without xDSL's per-use bookkeeping.

``PatternRewriter.replace`` moves each use of an old result to its new value through
``OpOperands.__setitem__`` (unlink from one list, link into the other, rebuild the
user's operand tuple), calls every listener hook, and erases the old results by
replacing them with fresh ``ErasedSSAValue`` objects. A conversion that rewrites
every op of a large kernel (``convert-arith-to-llvm``: 4000 ops) spent a third of
its time there. :func:`replace_without_listeners` does the same work on xDSL's use
lists directly, leaving the IR exactly as ``PatternRewriter.replace`` leaves it
(same operands, same order of every use list, same name hints), and is used only
where the rewriter has nothing listening. Not a patch: xDSL is unchanged; it reads
and writes the private fields of ``Use`` and ``Operation`` (xDSL 0.74), which
``tests/compat/test_use_lists.py`` checks against xDSL's own ``replace``.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import _current_builder  # pyright: ignore[reportPrivateUsage]
from xdsl.ir import Operation, SSAValue, SSAValues
from xdsl.pattern_rewriter import PatternRewriter

__all__ = ["replace_without_listeners", "silent"]


def silent(rewriter: PatternRewriter) -> bool:
    """Whether nothing observes ``rewriter``'s changes (no listener, no name hint
    given to inserted ops), so that :func:`replace_without_listeners` may stand in
    for its ``replace``."""
    return (
        not rewriter.operation_insertion_handler
        and not rewriter.operation_removal_handler
        and not rewriter.operation_modification_handler
        and not rewriter.operation_replacement_handler
        and rewriter.name_hint is None
        and _current_builder.builder is None  # pyright: ignore[reportPrivateUsage]
    )


def replace_without_listeners(
    op: Operation,
    new_ops: Sequence[Operation],
    new_results: Sequence[SSAValue],
    rewriter: PatternRewriter,
) -> None:
    """``rewriter.replace(op, new_ops, new_results)`` for a :func:`silent` rewriter
    and an ``op`` in a block: the same IR afterwards."""
    block = op.parent
    if block is None or len(op.results) != len(new_results):
        rewriter.replace(op, new_ops, new_results)  # its error
        return
    rewriter.has_done_action = True
    for new in new_ops:
        block.insert_op_before(new, op)
    for old, new in zip(op.results, new_results, strict=True):
        if new is not old:
            _move_uses(old, new)
            if new.name_hint is None:
                new.name_hint = old.name_hint
        if not new.name_hint:
            new.name_hint = old.name_hint
    if len(new_results) == 1 and (hint := new_results[0].name_hint) is not None:
        for new_op in new_ops:
            for result in new_op.results:
                if not result.name_hint:
                    result.name_hint = hint
    block.detach_op(op)
    op.drop_all_references()
    for result in op.results:
        if result.first_use is not None:  # a new op uses it: as xDSL's erase says
            raise ValueError(
                "Attempting to delete SSA value that still has uses of result "
                f"of operation:\n{op}"
            )


def _move_uses(old: SSAValue, new: SSAValue) -> None:
    """Every use of ``old`` now of ``new``, each put at the front of ``new``'s use
    list in ``old``'s order (as ``SSAValue.replace_all_uses_with`` leaves them)."""
    use = old.first_use
    old.first_use = None
    while use is not None:
        following = use._next_use  # pyright: ignore[reportPrivateUsage]
        user = use._operation  # pyright: ignore[reportPrivateUsage]
        index = use._index  # pyright: ignore[reportPrivateUsage]
        operands = user._operands  # pyright: ignore[reportPrivateUsage]
        user._operands = SSAValues((*operands[:index], new, *operands[index + 1 :]))  # pyright: ignore[reportPrivateUsage]
        head = new.first_use
        use._prev_use = None  # pyright: ignore[reportPrivateUsage]
        use._next_use = head  # pyright: ignore[reportPrivateUsage]
        if head is not None:
            head._prev_use = use  # pyright: ignore[reportPrivateUsage]
        new.first_use = use
        use = following
