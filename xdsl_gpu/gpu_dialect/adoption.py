"""Ops that xDSL's own passes build with xDSL's classes, given the classes that the
Context registers for their names.

In MLIR an op is its name: ``gpu.alloc`` built by any pass is the one ``gpu.alloc``.
In xDSL an op is a Python class, and a pass builds the class it imports: in a run
with xdsl-gpu's dialects, xDSL's ``memref-to-gpu`` still makes xDSL's ``gpu.alloc``,
which our ``gpu-to-llvm`` (matching our class) would not lower. Between passes, such
ops are rebuilt as the registered class, with the same operands, results, properties,
attributes, regions and successors; the verifier then checks them as usual.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation


def adopt_foreign_ops(root: Operation, ctx: Context) -> int:
    """Rebuild every op under ``root`` whose class is not the one ``ctx`` registers
    for its name; returns how many were rebuilt."""
    foreign = [
        op
        for op in root.walk()
        if op is not root and (cls := ctx.get_optional_op(op.name)) is not None
        if type(op) is not cls
    ]
    for op in foreign:
        _rebuild(op, ctx)
    return len(foreign)


def _rebuild(op: Operation, ctx: Context) -> None:
    cls = ctx.get_optional_op(op.name)
    assert cls is not None
    regions = [op.detach_region(region) for region in tuple(op.regions)]
    new = cls.create(
        operands=op.operands,
        result_types=[result.type for result in op.results],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        successors=op.successors,
        regions=regions,
    )
    new.location = op.location
    for old_result, new_result in zip(op.results, new.results, strict=True):
        new_result.name_hint = old_result.name_hint
        old_result.replace_all_uses_with(new_result)
    block = op.parent_block()
    assert block is not None
    block.insert_op_before(new, op)
    op.detach()
    op.erase()
