"""The block arguments a branch passes, and dropping the ones nothing uses.

MLIR's branch ops say, through ``BranchOpInterface``, which of their operands go to
which successor's arguments; xDSL has no such interface, so :func:`successor_operands`
knows it for ``cf.br``, ``cf.cond_br``, ``llvm.br`` and ``llvm.cond_br``.

:func:`erase_dead_block_arguments` is the part of the region simplification that
MLIR's greedy pattern driver runs after its patterns which passes such as
``-int-range-optimizations`` show: an argument of a non-entry block that has no use
is removed, with what each predecessor passed for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import Rewriter

BRANCHES = frozenset({"cf.br", "cf.cond_br", "llvm.br", "llvm.cond_br"})
_SEGMENTS = "operandSegmentSizes"


def successor_operands(term: Operation) -> list[Sequence[SSAValue]] | None:
    """What a branch passes to each of its successors; None for an op not known
    to be such a branch."""
    if term.name not in BRANCHES:
        return None
    if len(term.successors) == 1:
        return [list(term.operands)]
    sizes = term.properties.get(_SEGMENTS)
    if not isinstance(sizes, DenseArrayBase) or len(term.successors) != 2:
        return None
    _, then_count, else_count = (int(v) for v in sizes.get_values())
    operands = list(term.operands)
    return [operands[1 : 1 + then_count], operands[1 + then_count :][:else_count]]


def _rebuild(term: Operation, passed: list[list[SSAValue]]) -> None:
    """Replace ``term`` by the same branch passing ``passed`` to its successors."""
    properties = dict(term.properties)
    if len(term.successors) == 1:
        operands = passed[0]
    else:
        operands = [term.operands[0], *passed[0], *passed[1]]
        properties[_SEGMENTS] = DenseArrayBase.from_list(
            i32, [1, len(passed[0]), len(passed[1])]
        )
    new = type(term).create(
        operands=operands,
        properties=properties,
        attributes=dict(term.attributes),
        successors=list(term.successors),
    )
    Rewriter.replace_op(term, new)


def _erase_dead_arguments(block: Block) -> None:
    dead = [i for i, arg in enumerate(block.args) if arg.first_use is None]
    if not dead:
        return
    terms = {id(p.last_op): p.last_op for p in block.predecessors() if p.last_op}
    for term in terms.values():
        passed = successor_operands(term)
        if passed is None or list(term.successors).count(block) != 1:
            return
    for term in terms.values():
        passed = successor_operands(term)
        assert passed is not None
        index = list(term.successors).index(block)
        lists = [list(p) for p in passed]
        lists[index] = [v for i, v in enumerate(lists[index]) if i not in dead]
        _rebuild(term, lists)
    for i in reversed(dead):
        block.erase_arg(block.args[i])


def erase_dead_block_arguments(root: Operation) -> None:
    """Drop the unused arguments of every non-entry block under ``root`` whose
    predecessors are all known branches (see the module docstring)."""
    for op in list(root.walk()):
        for region in op.regions:
            for block in list(region.blocks)[1:]:
                _erase_dead_arguments(block)
