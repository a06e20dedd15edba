"""``compat.use_lists.replace_without_listeners`` leaves the IR exactly as xDSL's
``PatternRewriter.replace`` does (operands, the order of every use list, name
hints), and the private fields of xDSL it relies on are still there."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue, Use
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriterListener
from xdsl.printer import Printer

from tests.support.xdsl_tools import parse
from xdsl_gpu.compat.use_lists import replace_without_listeners, silent

TEXT = """
func.func @f(%a: i32, %b: i32) -> (i32, i32) {
  %x = arith.addi %a, %b : i32
  %y = arith.muli %x, %x : i32
  %z = arith.subi %b, %x : i32
  %w = arith.andi %x, %a : i32
  %v = arith.ori %a, %b : i32
  func.return %y, %z : i32, i32
}
"""

Replace = Callable[[Operation, list[Operation], list[SSAValue], PatternRewriter], None]


def _xdsl(
    op: Operation,
    new_ops: list[Operation],
    results: list[SSAValue],
    rewriter: PatternRewriter,
) -> None:
    rewriter.replace(op, new_ops, results)


def _text(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    return out.getvalue()


def _uses(module: ModuleOp) -> list[list[tuple[str, int]]]:
    """Every value's use list, in order."""
    found: list[list[tuple[str, int]]] = []
    for op in module.walk():
        for value in (
            *op.results,
            *(a for r in op.regions for b in r.blocks for a in b.args),
        ):
            found.append([(u.operation.name, u.index) for u in value.uses])
    return found


def _by(name: str, module: ModuleOp) -> Operation:
    return next(op for op in module.walk() if op.name == name)


def _replace_add(
    replace: Replace, *, with_existing: bool, hint: str | None
) -> ModuleOp:
    module = parse(TEXT)
    add = _by("arith.addi", module)
    add.results[0].name_hint = hint
    rewriter = PatternRewriter(add)
    if with_existing:  # by a value that has uses of its own
        replace(add, [], [_by("arith.ori", module).results[0]], rewriter)
    else:
        a, b = add.operands
        new = [arith.XOrIOp(a, b), arith.SubiOp(a, b)]
        new[1].results[0].name_hint = None
        replace(add, list(new), [new[1].results[0]], rewriter)
    assert rewriter.has_done_action
    return module


@pytest.mark.parametrize("with_existing", [False, True])
@pytest.mark.parametrize("hint", [None, "sum"])
def test_the_same_ir_as_xdsls_replace(with_existing: bool, hint: str | None) -> None:
    ours = _replace_add(
        replace_without_listeners, with_existing=with_existing, hint=hint
    )
    theirs = _replace_add(_xdsl, with_existing=with_existing, hint=hint)
    ours.verify()
    assert _text(ours) == _text(theirs)
    assert _uses(ours) == _uses(theirs)


def test_silent_only_without_listeners_or_name_hint() -> None:
    module = parse(TEXT)
    add = _by("arith.addi", module)
    assert silent(PatternRewriter(add))
    named = PatternRewriter(add)
    named.name_hint = "x"
    assert not silent(named)
    listened = PatternRewriter(add)
    listened.extend_from_listener(
        PatternRewriterListener(operation_removal_handler=[lambda op: None])
    )
    assert not silent(listened)


def test_gap_xdsls_use_list_fields() -> None:
    """The private fields the helper reads and writes (xDSL 0.74): a use knows its
    operation, index and neighbours; an op keeps its operands in ``_operands``."""
    module = parse(TEXT)
    add = _by("arith.addi", module)
    first = add.results[0].first_use
    assert isinstance(first, Use)
    assert {"_operation", "_index", "_prev_use", "_next_use"} <= set(vars(first))
    assert first._operation.operands[first._index] is add.results[0]  # pyright: ignore[reportPrivateUsage]
    assert tuple(add._operands) == tuple(add.operands)  # pyright: ignore[reportPrivateUsage]
