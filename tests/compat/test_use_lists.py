"""``compat.use_lists.replace_without_listeners`` leaves the IR exactly as xDSL's
``PatternRewriter.replace`` does (operands, the order of every use list, name
hints), and the private fields of xDSL it relies on are still there."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue, Use
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriterListener
from xdsl.printer import Printer

from tests.support.xdsl_tools import parse
from xdsl_gpu.compat.use_lists import (
    replace_without_listeners,
    retype_in_place,
    silent,
)
from xdsl_gpu.diagnostics import PARSED_AT

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


RETYPED = """
func.func @f(%a: f32, %b: f32) -> (f32, f32) {
  %x = arith.mulf %a, %a fastmath<fast> {tag = 1 : i32} : f32
  %y = arith.addf %x, %b : f32
  %z = arith.subf %b, %x : f32
  %w = arith.mulf %x, %x : f32
  %v = arith.addf %a, %b : f32
  func.return %y, %w : f32, f32
}
"""


def _retype_first_mulf(in_place: bool) -> ModuleOp:
    module = parse(RETYPED)
    mul = _by("arith.mulf", module)
    mul.results[0].name_hint = "product"
    properties = {"fastmathFlags": llvm.FastMathAttr("fast")}
    rewriter = PatternRewriter(mul)
    if in_place:
        assert retype_in_place(mul, llvm.FMulOp, properties, rewriter)
        assert type(mul) is llvm.FMulOp
    else:
        new = llvm.FMulOp.create(
            operands=list(mul.operands),
            result_types=[mul.results[0].type],
            properties=dict(properties),
        )
        new.location = mul.location
        rewriter.replace(mul, [new], new.results)
    assert rewriter.has_done_action
    return module


def test_retyped_in_place_as_replaced() -> None:
    """The op itself becomes the llvm op: operands (one used twice), properties,
    no attributes, name hints, and every use list in the replacement's order."""
    ours = _retype_first_mulf(in_place=True)
    theirs = _retype_first_mulf(in_place=False)
    ours.verify()
    assert _text(ours) == _text(theirs)
    assert _uses(ours) == _uses(theirs)
    retyped = _by("llvm.fmul", ours)
    made = _by("llvm.fmul", theirs)
    links = {"parent", "_next_op", "_prev_op"}  # set by the block, as it goes
    assert set(vars(retyped)) - links == set(vars(made)) - links


def test_what_the_parser_recorded_goes() -> None:
    """A new op has no record of where the parser found the op it replaces."""
    module = parse(RETYPED)
    mul = _by("arith.mulf", module)
    setattr(mul, PARSED_AT, (1, 2))  # as the command-line tools' parser records
    retype_in_place(mul, llvm.FMulOp, {}, PatternRewriter(mul))
    assert PARSED_AT not in vars(mul)


def test_not_retyped_across_layouts_or_with_regions() -> None:
    module = parse(TEXT)
    func = _by("func.func", module)
    assert not retype_in_place(func, llvm.FMulOp, {}, PatternRewriter(func))
    assert type(func).__name__ == "FuncOp"
