"""``compat.parsing_speed``: statements built from the form of an earlier one give
the IR, locations and errors that xDSL's parser gives; the regular expression reads
the tokens that xDSL's lexer reads."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from tests.support.xdsl_tools import make_context
from xdsl_gpu import compat
from xdsl_gpu.compat.locations import CHUNK_LINE_OFFSET
from xdsl_gpu.diagnostics import PARSED_AT
from xdsl_gpu.gpu_dialect.registration import install_hooks

install_hooks()
compat.diagnose_internal_errors()
compat.statement_forms()
compat.regex_tokens()

ROOT = Path(__file__).parents[2]


def _xdsl_block_body() -> Any:
    return mock.patch.object(
        Parser, "_parse_block_body", compat.original(Parser._parse_block_body)
    )


def _dump(module: Any) -> str:
    """Everything parsing decides about the IR: both printed forms with locations,
    each op's class and fields, the place diagnostics fall back on, the name and
    the uses (in use-list order) of every value."""
    out = []
    for generic in (True, False):
        text = io.StringIO()
        Printer(
            stream=text, print_generic_format=generic, print_debuginfo=True
        ).print_op(module)
        out.append(text.getvalue())
    ops = list(module.walk())
    index = {id(op): i for i, op in enumerate(ops)}
    skipped = {"_next_op", "_prev_op", "parent", "_operand_uses", "results"}
    skipped |= {"_operands", "regions", "_successors", "_successor_uses", PARSED_AT}
    for i, op in enumerate(ops):
        fields = sorted((k, v) for k, v in op.__dict__.items() if k not in skipped)
        span, offset = op.__dict__.get(PARSED_AT, (None, None))
        place = None if span is None else (span.start, span.end, span.line_offset)
        out.append(f"{i} {type(op).__qualname__} {fields!r} {place} {offset}")
        out.append(f"  operands {[index.get(id(o.owner), -1) for o in op.operands]}")
        values = list(op.results) + [
            a for r in op.regions for b in r.blocks for a in b.args
        ]
        for value in values:
            uses = [(index[id(u.operation)], u.index) for u in value.uses]
            out.append(f"  {value.name_hint} {value.type} {uses}")
    return "\n".join(out)


def _parse(text: str, *, forms: bool, offset: int = 0) -> str:
    """The dump of ``text`` parsed with or without statement forms, or its error."""
    token = CHUNK_LINE_OFFSET.set(offset)
    try:
        if forms:
            return _dump(Parser(make_context(), text, "in.mlir").parse_module())
        with _xdsl_block_body():
            return _dump(Parser(make_context(), text, "in.mlir").parse_module())
    except ParseError as error:
        return f"{type(error).__name__} at {error.span.start}: {error}"
    except Exception as error:  # e.g. an op's constraints, checked as it is built
        return f"{type(error).__name__}: {error}"
    finally:
        CHUNK_LINE_OFFSET.reset(token)


KERNEL = """\
func.func @f(%m: memref<8xf32>, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %m[%i] : memref<8xf32>
  %b = arith.addf %a, %a : f32
  %c = arith.mulf %b, %a : f32
  %d = arith.mulf %c, %b : f32
  %e = arith.mulf %d, %c : f32   // a comment
  %f = arith.mulf %e, %d fastmath<fast> : f32
  %g = arith.mulf %f, %e fastmath<fast> : f32
  "test.op"(%g) : (f32) -> ()
  %h = "arith.addf"(%g, %f) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %k = "arith.addf"(%h, %g) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %k) -> (f32) {
    %p = arith.mulf %acc, %k : f32
    %q = arith.mulf %p, %acc : f32
    scf.yield %q : f32
  }
  %t = arith.mulf %s, %k : f32
  %u = arith.mulf %t, %s : f32
  %i2 = arith.index_cast %i : index to i32
  %i3 = arith.index_cast %n : index to i32
  %x = arith.cmpi slt, %i2, %i3 : i32
  %y = arith.cmpi slt, %i3, %i2 : i32
  %v = arith.select %x, %t, %u : f32
  %w = arith.select %y, %u, %t : f32
  memref.store %v, %m[%i] : memref<8xf32>
  memref.store %w, %m[%n] : memref<8xf32>
  %p:2 = "test.op"() : () -> (f32, f32)
  %r:2 = "test.op"() : () -> (f32, f32)
  %z = arith.addf %p#1, %r#1 : f32
  %z2 = arith.addf %r#0, %p#0 : f32
  %l = arith.mulf %z, %z2 : f32
  loc("elsewhere.mlir":3:4)
  %l2 = arith.mulf %z2, %z : f32
  %l3 = arith.mulf %l2, %l : f32 %l4 = arith.mulf %l3, %l2 : f32
  %l5 = arith.mulf %l4, %l3 : f32
  func.return
}
func.func @g(%v: vector<4xf32>) -> vector<4xf32> {
  %a = arith.addf %v, %v : vector<4xf32>
  %b = arith.mulf %a, %v : vector<4xf32>
  %c = arith.mulf %b, %a : vector<4xf32>
  return %c : vector<4xf32>
}
"""


@pytest.mark.parametrize("offset", [0, 40])
def test_forms_give_xdsls_ir(offset: int) -> None:
    assert _parse(KERNEL, forms=True, offset=offset) == _parse(
        KERNEL, forms=False, offset=offset
    )


def test_forms_spare_the_parser() -> None:
    """Of 2000 statements of three forms, the parser reads one per form and value
    type (and the first, whose two operands are one value)."""
    lines = ["func.func @f(%x0: f32) {"]
    for i in range(2000):
        op = ("arith.addf", "arith.mulf", "arith.subf")[i % 3]
        lines.append(f"  %x{i + 1} = {op} %x{i}, %x{i // 2} : f32")
    text = "\n".join([*lines, "  func.return", "}"]) + "\n"
    parsed: list[str] = []
    parse_operation = Parser.parse_operation

    def counting(self: Parser) -> Any:
        op = parse_operation(self)
        parsed.append(op.name)
        return op

    with mock.patch.object(Parser, "parse_operation", counting):
        fast = _parse(text, forms=True)
    assert len(parsed) < 10
    assert fast == _parse(text, forms=False)


ERRORS = [
    # a value of a region is not visible after it (a forward reference, never
    # defined), though a statement of the same form came before
    "func.func @f(%a: f32, %n: index) {\n  %b = arith.addf %a, %a : f32\n"
    "  %c = arith.addf %b, %a : f32\n  %c2 = arith.addf %c, %b : f32\n"
    "  scf.for %i = %n to %n step %n {\n    %d = arith.addf %c, %b : f32\n"
    "    scf.yield\n  }\n  %e = arith.addf %c, %b : f32\n"
    "  %f = arith.addf %d, %c : f32\n  %g = arith.addf %f, %e : f32\n"
    "  func.return\n}\n",
    # a name defined twice
    "func.func @f(%a: f32) {\n  %b = arith.addf %a, %a : f32\n"
    "  %c = arith.addf %b, %a : f32\n  %c = arith.addf %b, %a : f32\n"
    "  func.return\n}\n",
    # a value of another type than the form's
    "func.func @f(%a: f32, %i: i32) {\n  %b = arith.addf %a, %a : f32\n"
    "  %c = arith.addf %b, %a : f32\n  %d = arith.addf %c, %i : f32\n"
    "  func.return\n}\n",
    # a forward reference defined later with another type
    "func.func @f(%a: f32, %i: i32) {\n  %b = arith.addf %a, %a : f32\n"
    "  %c = arith.addf %b, %a : f32\n  %d = arith.addf %c, %e : f32\n"
    "  %e = arith.addi %i, %i : i32\n  func.return\n}\n",
    # a result bound on an op without results, after forms were recorded
    "func.func @f(%a: f32, %m: memref<2xf32>, %i: index) {\n"
    "  memref.store %a, %m[%i] : memref<2xf32>\n"
    "  memref.store %a, %m[%i] : memref<2xf32>\n"
    "  %x = memref.store %a, %m[%i] : memref<2xf32>\n  func.return\n}\n",
    # a tuple index out of range
    'func.func @f() {\n  %p:2 = "test.op"() : () -> (f32, f32)\n'
    "  %a = arith.addf %p#0, %p#1 : f32\n  %b = arith.addf %a, %p#2 : f32\n"
    "  func.return\n}\n",
]


@pytest.mark.parametrize("text", ERRORS)
def test_forms_give_xdsls_errors(text: str) -> None:
    with_forms = _parse(text, forms=True)
    assert with_forms.startswith("ParseError")
    assert with_forms == _parse(text, forms=False)


def test_a_location_on_the_next_line_is_the_ops() -> None:
    text = (
        "func.func @f(%a: f32) {\n  %b = arith.addf %a, %a : f32\n"
        "  %c = arith.addf %b, %a : f32\n  %d = arith.addf %c, %b : f32\n"
        '  loc("x.mlir":7:8)\n  func.return\n}\n'
    )
    dump = _parse(text, forms=True)
    assert 'loc("x.mlir":7:8)' in dump
    assert dump == _parse(text, forms=False)


NAMES = """\
func.func @f(%a: f32, %b: f32) {
  %v_1 = arith.addf %a, %b : f32
  %x12 = arith.addf %v_1, %a : f32
  %_1 = arith.addf %x12, %v_1 : f32
  %a_1_2 = arith.addf %_1, %x12 : f32
  %a__3 = arith.addf %a_1_2, %_1 : f32
  %0 = arith.addf %a__3, %a_1_2 : f32
  %12 = arith.addf %0, %a__3 : f32
  %$a.b_3 = arith.addf %12, %0 : f32
  %-_0 = arith.addf %$a.b_3, %12 : f32
  %p_2:2 = "test.op"(%-_0) : (f32) -> (f32, f32)
  %q, %r:2, %s_4 = "test.op"(%p_2#0) : (f32) -> (f32, f32, f32, f32)
  %t_5, %u:2, %w_6 = "test.op"(%q) : (f32) -> (f32, f32, f32, f32)
  %x = arith.addf %w_6, %t_5 : f32
  func.return
}
"""


def test_forms_name_values_as_xdsl() -> None:
    """Results named as the parser names them (``_N`` suffixes dropped, no name
    for a number), a result group or several."""
    dump = _parse(NAMES, forms=True)
    assert " a_1 f32" in dump
    assert " $a.b f32" in dump
    assert " None f32" in dump
    assert dump == _parse(NAMES, forms=False)


def _fields(module: Any) -> list[Any]:
    """The fields of every op, result and operand use, in the order they were set,
    and the classes of the op's tuples."""
    out: list[Any] = []
    for op in module.walk():
        fields = vars(op)
        out.append((list(fields), type(op.results), type(fields["_operands"])))
        out.extend(list(vars(r)) for r in op.results)
        out.extend(list(vars(u)) for u in fields["_operand_uses"])
        out.append(
            (list(vars(op.location)), [type(v) for v in vars(op.location).values()])
        )
        span = fields.get(PARSED_AT, (None,))[0]
        out.append(None if span is None else list(vars(span)))
    return out


def test_forms_set_the_fields_xdsl_sets() -> None:
    """An op built from its form has the fields that ``Operation.__init__`` and
    ``Block.add_op`` give it, set in the same order (so do its results, uses,
    location and diagnostic place)."""
    ctx = make_context()
    fast = Parser(ctx, KERNEL, "in.mlir").parse_module()
    with _xdsl_block_body():
        stock = Parser(ctx, KERNEL, "in.mlir").parse_module()
    assert _fields(fast) == _fields(stock)


@pytest.mark.parametrize("change", ["init", "add_op", "name_hint"])
def test_construction_is_checked_against_xdsls(change: str) -> None:
    """The patch refuses to apply if xDSL made an op, added it to a block or named
    a value otherwise than :func:`parsing_speed._construct` and the fast path
    do."""
    from xdsl.ir import Block, Operation, SSAValue

    from xdsl_gpu.compat import parsing_speed
    from xdsl_gpu.compat._base import XdslChangedError

    parsing_speed._check_construction()  # as xDSL 0.74 does
    init = Operation.__init__
    add_op = Block.add_op

    def init_more(self: Any, **kwargs: Any) -> None:
        init(self, **kwargs)
        self.extra = 1

    def add_first(self: Any, op: Any) -> None:
        if self.first_op is None:
            add_op(self, op)
        else:
            self.insert_op_before(op, self.first_op)

    def keep_hint(self: Any, name: str | None) -> None:
        self._name = name

    patches = {
        "init": mock.patch.object(Operation, "__init__", init_more),
        "add_op": mock.patch.object(Block, "add_op", add_first),
        "name_hint": mock.patch.object(
            SSAValue, "name_hint", property(lambda v: v._name, keep_hint)
        ),
    }
    with patches[change], pytest.raises(XdslChangedError):
        parsing_speed._check_construction()


def _tokens(text: str, lex: Any) -> list[Any]:
    """Each token's kind and span and the lexer's place after it, up to the end or
    the error."""
    lexer = MLIRLexer(Input(text, "in.mlir"))
    found: list[Any] = []
    while True:
        try:
            token = lex(lexer)
        except ParseError as error:
            return [*found, ("error", str(error), lexer.pos)]
        found.append((token.kind, type(token.span), token.span.start, token.span.end))
        found.append(lexer.pos)
        if token.kind is MLIRTokenKind.EOF:
            return found


TOKEN_CASES = [
    "0x 0xg 0x1F.5 0X1 1.5e 1.5e+3 12.5E-3x 1e5 1. .5 1..2 ... .. -> -1 - >",
    "#-} {-# #-a #map #1 {- -# { } %1abc %-x %$a % ^bb1 ^ ! a !llvm.ptr",
    '@ @"x" @f @_a.b "s" "a\\n" a$.b _ $ ?|*+/ x//c\ny // end\n',
    "\t\r\x0b\x0cx \u00a0x \u00e9 a\u00e9 \u0663 x\u2028y",
]


@pytest.mark.parametrize("text", TOKEN_CASES)
def test_regex_tokens_are_xdsls(text: str) -> None:
    text = text.encode().decode("unicode_escape")
    stock = compat.original(MLIRLexer.lex)
    assert _tokens(text, MLIRLexer.lex) == _tokens(text, stock)


def test_regex_tokens_of_every_test_input() -> None:
    stock = compat.original(MLIRLexer.lex)
    paths = sorted((ROOT / "tests").rglob("*.mlir"))
    assert len(paths) > 100
    for path in paths:
        text = path.read_text()
        assert _tokens(text, MLIRLexer.lex) == _tokens(text, stock), path


def test_lexers_that_extend_xdsls_keep_their_tokens() -> None:
    """The assembly-format lexer reads ``attr-dict`` as one identifier."""
    from xdsl.irdl.declarative_assembly_format_parser import FormatLexer

    token = FormatLexer(Input("attr-dict `:`", "format")).lex()
    assert (token.kind, token.span.end) == (MLIRTokenKind.BARE_IDENT, 9)
