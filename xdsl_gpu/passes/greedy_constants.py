"""The constant uniquing that MLIR's greedy pattern driver does before any pattern.

MLIR's ``applyPatternsGreedily`` first walks the ops in post-order and hands every
constant (``ConstantLike``) to its ``OperationFolder``: the first constant of a value
moves to the front of the entry block of its *insertion region* (the closest region
whose parent is isolated from above), later ones of the same op, value and type are
replaced by it. A pass that runs a greedy rewrite before its conversion (as
``convert-gpu-to-nvvm`` does) therefore prints its constants first, once each, and
:func:`unique_constants` reproduces that order here.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.traits import ConstantLike, IsolatedFromAbove

from xdsl_gpu.passes.ir_walk import postorder


def _insertion_region(block: Block) -> Region | None:
    """The region whose entry block receives a constant of ``block``."""
    while (region := block.parent) is not None:
        parent = region.parent
        # llvm.func is isolated from above in MLIR; ours lacks the trait.
        if (
            parent is None
            or parent.has_trait(IsolatedFromAbove)
            or (parent.name == "llvm.func")
        ):
            return region
        if (outer := parent.parent_block()) is None:
            return region
        block = outer
    return None


def _key(op: Operation) -> tuple[object, ...]:
    """What makes two constants the same one: op, value and result type."""

    def items(d: dict[str, Attribute]) -> tuple[tuple[str, Attribute], ...]:
        return tuple(sorted(d.items(), key=lambda kv: kv[0]))

    return (
        op.name,
        items(op.properties),
        items(op.attributes),
        tuple(r.type for r in op.results),
    )


def unique_constants(
    root: Operation, is_constant: Callable[[Operation], bool] | None = None
) -> None:
    """Hoist and deduplicate the constants nested in ``root`` as MLIR's greedy
    driver's first walk does (see the module docstring). ``is_constant`` says which
    ops are constants (default: ``ConstantLike`` ones), a question of the op's class
    (its name and traits) asked of the first op of each class."""
    uniqued: dict[Region, dict[tuple[object, ...], Operation]] = {}
    owned: set[Operation] = set()
    # Whether an op is a constant is a property of its class (its name and
    # traits), asked once per class.
    constant_class: dict[type[Operation], bool] = {}
    for op in postorder(root)[:-1]:  # the ops inside root, each after its own
        kind = type(op)
        constant = constant_class.get(kind)
        if constant is None:
            constant = constant_class[kind] = (
                op.has_trait(ConstantLike) if is_constant is None else is_constant(op)
            )
        if not constant or len(op.results) != 1:
            continue
        block = op.parent_block()
        if block is None:
            continue
        region = _insertion_region(block)
        if region is None or region.first_block is None:
            continue
        try:
            key = _key(op)
            hash(key)
        except TypeError:  # an attribute that cannot be compared: leave it alone
            continue
        scope = uniqued.setdefault(region, {})
        if (existing := scope.get(key)) is not None:
            op.results[0].replace_all_uses_with(existing.results[0])
            op.detach()
            op.erase()
            continue
        entry = region.first_block
        if block is not entry or (entry.first_op is not op and op.prev_op not in owned):
            op.detach()
            if entry.first_op is None:
                entry.add_op(op)
            else:
                entry.insert_op_before(op, entry.first_op)
        scope[key] = op
        owned.add(op)
