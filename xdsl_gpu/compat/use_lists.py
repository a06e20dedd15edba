"""Replacing an op by new ops without xDSL's per-use bookkeeping.

``PatternRewriter.replace`` moves each use of an old result to its new value through
``OpOperands.__setitem__`` (unlink from one list, link into the other, rebuild the
user's operand tuple), calls every listener hook, and erases the old results by
replacing them with fresh ``ErasedSSAValue`` objects. A conversion that rewrites
every op of a large kernel (``convert-arith-to-llvm``: 4000 ops) spent a third of
its time there. :func:`replace_without_listeners` does the same work on xDSL's use
lists directly, leaving the IR exactly as ``PatternRewriter.replace`` leaves it
(same operands, same order of every use list, same name hints), and is used only
where the rewriter has nothing listening.

:func:`retype_in_place` goes further for an op replaced by one op of another class
with the same operands and result types (``arith.addf`` by ``llvm.fadd``): the op
object becomes the new op (its class and properties change) instead of a new op
being made, inserted and the old one unlinked and erased; the use lists are
reordered as the replacement would leave them. Not a patch: xDSL is unchanged; these
read and write the private fields of ``Use`` and ``Operation`` (xDSL 0.74), which
``tests/compat/test_use_lists.py`` checks against xDSL's own ``replace``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.builder import _current_builder  # pyright: ignore[reportPrivateUsage]
from xdsl.ir import Attribute, Operation, SSAValue, SSAValues
from xdsl.pattern_rewriter import PatternRewriter

__all__ = ["replace_without_listeners", "retype_in_place", "silent"]


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


_LINKS = frozenset({"parent", "_next_op", "_prev_op"})
"""What a block sets on the ops in it."""

_FIELDS: dict[type[Operation], frozenset[str]] = {}
"""The instance fields of an op of each class as ``create`` makes it."""


def _fields(cls: type[Operation]) -> frozenset[str]:
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = frozenset(vars(cls.create())) | _LINKS
    return found


def retype_in_place(
    op: Operation,
    cls: type[Operation],
    properties: Mapping[str, Attribute],
    rewriter: PatternRewriter,
) -> bool:
    """What ``rewriter.replace(op, [new], new.results)`` leaves, for ``new =
    cls.create(operands=op.operands, result_types=op.result_types,
    properties=properties)`` put where ``op`` is (its location as ``op``'s), done
    by turning ``op`` itself into ``new``. False (and nothing done) where that cannot
    be: a :func:`silent` rewriter only, an op without regions or successors in a
    block, a class of the same layout."""
    if op.parent is None or op.regions or op.successors:
        return False
    fields = _fields(cls)
    try:
        op.__class__ = cls
    except TypeError:  # a different object layout
        return False
    rewriter.has_done_action = True
    # The new op's uses of its operands are added in operand order, each at the
    # front of its value's list; the old op's are removed.
    for value, use in zip(op._operands, op._operand_uses):  # pyright: ignore[reportPrivateUsage]
        value.remove_use(use)
        value.add_use(use)
    # Each result's uses move one by one to the front of the new result's list:
    # the list reversed.
    for result in op.results:
        _reverse_uses(result)
    op.properties = dict(properties)
    op.attributes = {}
    for name in [n for n in vars(op) if n not in fields]:
        delattr(op, name)  # what the parser or a pass recorded on the old op
    return True


def _reverse_uses(value: SSAValue) -> None:
    use = value.first_use
    last = None
    while use is not None:
        following = use._next_use  # pyright: ignore[reportPrivateUsage]
        use._next_use = use._prev_use  # pyright: ignore[reportPrivateUsage]
        use._prev_use = following  # pyright: ignore[reportPrivateUsage]
        last = use
        use = following
    value.first_use = last
