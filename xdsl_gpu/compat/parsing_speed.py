"""Parsing speed (issue 25): each form of a one-line statement parsed once per input
(:func:`statement_forms`), the commonest tokens read with one regular expression
(:func:`regex_tokens`).

A GPU kernel repeats a few statement forms thousands of times (``%x5 = arith.mulf
%x4, %x2 : f32``): xDSL's lexer, recursive-descent parser and assembly-format
interpreter spent ~80 µs on each, the same work every time. Here the statements of a
block are read a line at a time: a line's *form* is its text with the SSA names it
uses taken out, and the first statement of each form goes through xDSL's parser as
before; if what that parse built can be made again from the form and the values
named (see :class:`_Form`), the next statements of that form are built from their
parts without the parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from xdsl.ir import Block, Operation, OpResult, SSAValue, SSAValues, Use

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched

_SUFFIX = r"(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*+)"
"""The lexer's suffix-id (``MLIRLexer._suffix_id``)."""

_RESULT = rf"%{_SUFFIX}(?::[0-9]+)?"

_STATEMENT = re.compile(
    rf"(?:(?:%({_SUFFIX})|({_RESULT}(?:[ \t]*,[ \t]*{_RESULT})*))[ \t]*=[ \t]*)?"
    r'([a-zA-Z_][a-zA-Z0-9_$.]*+|"[a-zA-Z_][a-zA-Z0-9_$.]*+")'
    r'([^\n"]*+)(?=\n|\Z)'
    # what follows it: its kind is part of the form, since a parser may look at
    # the next token (an optional part of an assembly format, a location)
    r"(?:\s+|//[^\n]*)*+"  # the lexer's whitespace and comments
    rf"((%){_SUFFIX}[ \t]*(\S?)|([a-zA-Z_][a-zA-Z0-9_$.]*+)|(\S?))",
    re.ASCII,
)
"""A statement on one line without a string: its result (1, if one without a
count) or results (2), its name (3, bare or quoted) and the rest of the line (4);
then what follows it (5: ``%`` (6) and the character after the name (7), an
identifier (8), or the next character (9))."""

_RESULTS = re.compile(rf"%({_SUFFIX})(?::([0-9]+))?")
_USES = re.compile(rf"%({_SUFFIX})")

_UNSAFE = ("loc(", "distinct", "//")
"""Lines that never take the fast path: a location written in the line, an
attribute with an identity, a comment."""


@dataclass(slots=True)
class _Form:
    """What parsing one statement of a form built, to build the next ones: an op of
    ``op_type`` whose operands are the values the line names, in their order (of
    ``operand_types``, the types the first statement's values had), with these
    result types, properties and attributes, no region and no successor, at the
    line and column of its name, and (``parsed_at``, the name of the op's field that
    holds it, if the parser records it) the place a diagnostic about it falls back
    on; ``post_init``: whether the op's ``__post_init__`` is its own (called as
    ``Operation.__init__`` calls it), not IRDL's, which has nothing left to do for
    an op of the form."""

    op_type: type[Operation]
    operand_types: list[Any]
    result_types: tuple[Any, ...]
    properties: dict[str, Any]
    attributes: dict[str, Any]
    parsed_at: str | None
    post_init: bool


class _Statement:
    """One line read as a statement: ``match`` of :data:`_STATEMENT`, the SSA names
    it uses (without ``%``), its results (name, count), where the next token
    starts, and its form's key."""

    __slots__ = ("key", "match", "next_start", "results", "uses")

    def __init__(self, match: re.Match[str]) -> None:
        self.match = match
        # (the names' text and what lies between: the form is the latter, since
        # each name follows a "%")
        parts = _USES.split(match.group(4))
        self.uses = parts[1::2]
        single, listed = match.group(1, 2)
        if single is not None:
            self.results = [(single, 1)]
            sizes: tuple[int, ...] = (1,)
        elif listed is None:
            self.results = []
            sizes = ()
        else:
            self.results = [
                (found.group(1), int(found.group(2)) if found.group(2) else 1)
                for found in _RESULTS.finditer(listed)
            ]
            sizes = tuple(size for _, size in self.results)
        self.next_start = match.start(5)
        self.key = (match.group(3), sizes, tuple(parts[0::2]), match.group(6, 7, 8, 9))

    @staticmethod
    def read(text: str, pos: int) -> _Statement | None:
        match = _STATEMENT.match(text, pos)
        if match is None:
            return None
        rest = match.group(4)
        if "loc(" in rest or "distinct" in rest or "//" in rest:  # (_UNSAFE)
            return None
        return _Statement(match)


class _Forms:
    """The forms seen in one parser's input (per dialect scope), and what building
    an op of one needs."""

    def __init__(self, source: Any) -> None:
        from xdsl_gpu.compat.locations import _LineIndex

        self.input = source
        self.text: str = self.input.content
        self.lines = _LineIndex.of(self.input)
        self.tables: dict[tuple[str, ...], dict[Any, list[_Form]]] = {}
        self.ints: dict[int, Any] = {}


def _construct(
    op_type: type[Operation],
    values: list[SSAValue],
    result_types: tuple[Any, ...],
    properties: dict[str, Any],
    attributes: dict[str, Any],
    location: Any,
    post_init: bool,
) -> Operation:
    """``Operation.__init__``'s op of ``op_type`` with these operands, result types,
    properties, attributes and location, no successor and no region: the same
    fields, set in the same order, and the same use lists (each new use first in
    its value's list), without its setters' general cases (replacing earlier
    operands and successors, copying ``Sequence`` arguments), which cost more
    than the rest of a statement built from its form. :func:`_check_construction`
    compares the two."""
    op = op_type.__new__(op_type)
    uses: list[Use] = []
    index = 0
    for value in values:
        first = value.first_use
        # (what Use(op, index) and then value.add_use make)
        use = Use(op, index, None, first)
        if first is not None:
            first._prev_use = use  # pyright: ignore[reportPrivateUsage]
        value.first_use = use
        uses.append(use)
        index += 1
    fields = vars(op)
    fields["_operands"] = SSAValues(values)
    fields["_operand_uses"] = tuple(uses)
    if len(result_types) == 1:
        fields["results"] = SSAValues((OpResult(result_types[0], op, 0),))
    else:
        fields["results"] = SSAValues(
            [OpResult(type_, op, i) for i, type_ in enumerate(result_types)]
        )
    fields["properties"] = dict(properties)
    fields["attributes"] = dict(attributes)
    fields["location"] = location
    fields["_successors"] = ()
    fields["_successor_uses"] = ()
    fields["regions"] = ()
    if post_init:
        op.__post_init__()
    return op


def _append(block: Block, op: Operation) -> None:
    """``block.add_op(op)`` for an op just made (no parent, no region): what
    ``Block.insert_op_after`` does after the op last in the block, without its
    checks that hold here."""
    last = block._last_op  # pyright: ignore[reportPrivateUsage]
    if last is None or type(block) is not Block:
        block.add_op(op)
        return
    op.parent = block
    op._prev_op = last  # pyright: ignore[reportPrivateUsage]
    op._next_op = None  # pyright: ignore[reportPrivateUsage]
    last._next_op = op  # pyright: ignore[reportPrivateUsage]
    block._last_op = op  # pyright: ignore[reportPrivateUsage]


def _check_construction() -> None:
    """Raise ``XdslChangedError`` unless :func:`_construct`, :func:`_append` and a
    result's hint set as :func:`statement_forms` sets it leave an op, its block,
    its values' use lists and its result exactly as ``Operation.__init__``,
    ``Block.add_op`` and the ``name_hint`` setter of xDSL 0.74 do."""
    from xdsl.dialects.builtin import UnknownLoc, f32, i32

    class _Probe(Operation):
        name = "xdsl_gpu.probe"

    def made(ours: bool) -> list[Any]:
        block = Block(arg_types=(f32, i32))
        a, b = block.args
        first = _Probe(operands=(a,), result_types=(i32,))
        block.add_op(first)
        operands = [a, b, first.results[0], a]
        types = (f32, i32)
        properties: dict[str, Any] = {"p": f32}
        attributes: dict[str, Any] = {"q": i32}
        if ours:
            op = _construct(
                _Probe, operands, types, properties, attributes, UnknownLoc(), True
            )
            _append(block, op)
            op.results[0]._name = "v"  # pyright: ignore[reportPrivateUsage]
        else:
            op = _Probe.__new__(_Probe)
            Operation.__init__(
                op,
                operands=operands,
                result_types=types,
                properties=properties,
                attributes=attributes,
                location=UnknownLoc(),
            )
            block.add_op(op)
            op.results[0].name_hint = "v_1"
        known = {id(x): n for n, x in enumerate([block, first, op, a, b])}

        def shape(x: Any) -> Any:
            if isinstance(x, tuple | list):
                return [shape(y) for y in x]  # pyright: ignore[reportUnknownVariableType]
            if isinstance(x, dict):  # in order: the fields are set in xDSL's
                return [(k, shape(v)) for k, v in x.items()]  # pyright: ignore[reportUnknownVariableType]
            if isinstance(x, Use):
                return ("use", list(x.__dict__), known.get(id(x.operation)), x.index)
            if isinstance(x, OpResult):
                return ("result", shape(x.__dict__))
            if x is None or isinstance(x, int | str):
                return x
            return known.get(id(x), type(x))

        def use_list(value: SSAValue) -> list[Any]:
            found: list[Any] = []
            previous = None
            for use in value.uses:
                here = use._prev_use is previous  # pyright: ignore[reportPrivateUsage]
                found.append((known.get(id(use.operation)), use.index, here))
                previous = use
            return found

        return [
            type(op.__dict__["_operands"]),
            type(op.__dict__["results"]),
            shape(op.__dict__),
            shape(block.__dict__),
            [use_list(v) for v in operands],
            op.properties,
            op.attributes,
        ]

    names = ["v_1", "x12", "_1", "a_1_2", "a__3", "0", "12", "$a.b_3", "-_0"]
    hints = [
        SSAValue.extract_valid_name(n) if SSAValue.is_valid_name(n) else None
        for n in names
    ]
    if [_hint(n) for n in names] != hints:
        raise XdslChangedError("SSAValue.extract_valid_name is not what it was")
    try:
        same = made(ours=True) == made(ours=False)
    except Exception as error:
        raise XdslChangedError(f"xDSL builds ops otherwise: {error}") from error
    if not same:
        raise XdslChangedError(
            "Operation.__init__, Block.add_op or SSAValue.name_hint is not what it was"
        )


def statement_forms() -> None:
    """Read the statements of a block through :class:`_Form`: the first statement of
    each form (per input and dialect scope) is parsed by xDSL's parser; if the op it
    built is one that the form alone determines (checked: no region or successor,
    operands exactly the values the line names, in order, all distinct; nothing
    else of the op or the parser changed but the results it defined; the recorded
    source location), the next statements of that form whose values have the same
    types are built directly from the form. Anything else (a value not yet defined,
    a name already defined, another type) goes through xDSL's parser, so its
    errors are xDSL's. What a parse builds is assumed to depend only on the text
    with the SSA names taken out, the types of the values named, the kind of the
    next token and the dialect scope, which holds for the declarative formats and
    for every custom parser that builds an op from what it reads."""
    import dataclasses

    from xdsl.dialects.builtin import FileLineColLoc, IntAttr
    from xdsl.irdl import IRDLOperation
    from xdsl.parser import Parser
    from xdsl.utils.lexer import Span
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    from xdsl_gpu.compat.locations import CHUNK_LINE_OFFSET

    current = Parser.__dict__.get("_parse_block_body")
    if not callable(current):
        raise XdslChangedError("xdsl.parser.Parser._parse_block_body is gone")
    if is_patched(current, "xdsl_gpu_statement_forms"):
        return
    if [name for name, _ in FileLineColLoc.get_irdl_definition().parameters] != [
        "filename", "line", "column",
    ]:  # fmt: skip
        raise XdslChangedError("FileLineColLoc's parameters changed")
    if [f.name for f in dataclasses.fields(Span)] != [
        "start", "end", "input", "line_offset",
    ] or hasattr(Span, "__post_init__"):  # fmt: skip
        raise XdslChangedError("xdsl.utils.lexer.Span's fields changed")
    if not callable(getattr(Parser, "parse_optional_operation", None)):
        raise XdslChangedError("xdsl.parser.Parser.parse_optional_operation is gone")
    register = Parser.__dict__.get("_register_ssa_definition")
    if not callable(register) or "SSAValue.is_valid_name(name)" not in _source(
        register
    ):
        raise XdslChangedError(
            "xdsl.parser.Parser._register_ssa_definition is not what it was"
        )
    _check_construction()
    starts = (
        MLIRTokenKind.PERCENT_IDENT,
        MLIRTokenKind.BARE_IDENT,
        MLIRTokenKind.STRING_LIT,
    )
    irdl_post_init = IRDLOperation.__post_init__
    chunk_offset = CHUNK_LINE_OFFSET.get
    new = object.__new__

    def forms_of(parser: Any) -> _Forms | None:
        forms = parser.__dict__.get("_xdsl_gpu_forms")
        source = parser.lexer.input
        if forms is None or forms.input is not source:
            if not isinstance(source.content, str):
                return None
            forms = _Forms(source)
            parser.__dict__["_xdsl_gpu_forms"] = forms
        return forms

    def int_attr(value: int) -> Any:
        """``IntAttr(value)``: its one field, without checking again that an int
        is an int (~1.5 µs)."""
        found = new(IntAttr)
        vars(found)["data"] = value
        return found

    if vars(int_attr(7)) != vars(IntAttr(7)):
        raise XdslChangedError("IntAttr's fields changed")

    def location(forms: _Forms, offset: int, chunk: int) -> Any:
        """The op's ``FileLineColLoc``, as ``record_source_locations`` makes it."""
        line, col = forms.lines.line_col(offset)
        line += chunk
        ints = forms.ints
        line_attr = ints.get(line)
        if line_attr is None:
            line_attr = ints[line] = int_attr(line)
        col_attr = ints.get(col)
        if col_attr is None:
            col_attr = ints[col] = int_attr(col)
        # The fields set as FileLineColLoc(...) sets them, without checking again
        # that a StringAttr and two IntAttrs are what it takes (~2 µs).
        found = new(FileLineColLoc)
        fields = vars(found)
        fields["filename"] = forms.lines.file
        fields["line"] = line_attr
        fields["column"] = col_attr
        return found

    def build(
        forms: _Forms, form: _Form, values: list[Any], match: re.Match[str]
    ) -> Operation:
        chunk = chunk_offset()
        start = match.start(3)
        op = _construct(
            form.op_type,
            values,
            form.result_types,
            form.properties,
            form.attributes,
            location(forms, start, chunk),
            form.post_init,
        )
        if form.parsed_at is not None:
            # What diagnose_internal_errors records: a point at the op's name
            # after results, else the span of its first token; the chunk's line
            # offset. (The fields as Span(...) sets them.)
            span = new(Span)
            fields = vars(span)
            fields["start"] = start
            named = match.start(1) >= 0 or match.start(2) >= 0
            fields["end"] = start if named else match.end(3)
            fields["input"] = forms.input
            fields["line_offset"] = 0
            setattr(op, form.parsed_at, (span, chunk))
        return op

    def state(parser: Any) -> tuple[tuple[str, int, int], ...]:
        """The parser's tables (which of them, their sizes), but for the values
        defined: a parse that declares a resource, a block or an alias, or leaves a
        forward reference, is not one to repeat without the parser."""
        return tuple(
            (name, id(table), len(table))
            for name, table in parser.__dict__.items()
            if name != "ssa_values" and isinstance(table, dict | set | list)
        )

    def recorded(
        parser: Any,
        forms: _Forms,
        op: Operation,
        statement: _Statement,
        values: list[Any],
        before: tuple[tuple[str, int, int], ...],
    ) -> _Form | None:
        """The form of ``op``, just parsed by xDSL from ``statement``, if building it
        again from the form gives the same op."""
        if parser._current_token.span.start != statement.next_start:
            return None  # it ended elsewhere than at the end of the line
        if not isinstance(op, IRDLOperation) or op.regions or op.successors:
            return None
        if state(parser) != before:
            return None
        if sum(size for _, size in statement.results) != len(op.results):
            return None
        operands = op.operands
        if len(operands) != len(values) or any(
            a is not b for a, b in zip(operands, values)
        ):
            return None
        if len({id(v) for v in values}) != len(values):
            return None  # which use is which operand would be a guess
        hints = [
            SSAValue.extract_valid_name(name) if SSAValue.is_valid_name(name) else None
            for name, size in statement.results
            for _ in range(size)
        ]
        if [r.name_hint for r in op.results] != hints:
            return None  # named by its parser, not only by the statement
        extra = set(op.__dict__) - _OPERATION_FIELDS
        if len(extra) > 1:
            return None
        op_type = type(op)
        if op_type.__setattr__ is not object.__setattr__ or any(
            _data_descriptor(op_type, name) for name in _OPERATION_FIELDS
        ):
            return None  # _construct writes the fields past it
        form = _Form(
            op_type,
            [v.type for v in values],
            tuple(r.type for r in op.results),
            dict(op.properties),
            dict(op.attributes),
            extra.pop() if extra else None,
            op_type.__post_init__ is not irdl_post_init,
        )
        probe = build(forms, form, values, statement.match)
        try:
            fields = (set(probe.__dict__) | set(op.__dict__)) - _NOT_COMPARED
            same = all(getattr(probe, k, None) == getattr(op, k, None) for k in fields)
        finally:
            probe.drop_all_references()
        return form if same else None

    def fast(
        parser: Any,
        forms: _Forms,
        table: dict[Any, list[_Form]],
        statement: _Statement,
        values: list[Any],
        types: list[Any],
    ) -> Operation | None:
        """The op of ``statement`` built from its form, or None."""
        candidates = table.get(statement.key)
        if candidates is None:
            return None
        ssa_values = parser.ssa_values
        forward = parser.forward_ssa_references
        for name, _ in statement.results:
            if name in ssa_values or name in forward:
                return None  # xDSL's parser reports or resolves it
        for form in candidates:
            # (a list's == asks `is` before ==, as the types' own comparison)
            if types == form.operand_types:
                op = build(forms, form, values, statement.match)
                # What xDSL's _register_ssa_definition does for a name neither
                # defined nor used yet (checked above): no error, no forward use.
                results = tuple(op.results)
                index = 0
                for name, size in statement.results:
                    defined = results[index : index + size]
                    ssa_values[name] = defined
                    hint = _hint(name)
                    if hint is not None:
                        # (what the name_hint setter sets for it)
                        for value in defined:
                            value._name = hint  # pyright: ignore[reportPrivateUsage]
                    index += size
                return op
        return None

    def _parse_block_body(self: Any, block: Any) -> None:
        forms = forms_of(self)
        if forms is None:
            current(self, block)
            return
        table = forms.tables.setdefault(tuple(self._parser_state.dialect_stack), {})
        text = forms.text
        read = _Statement.read
        while True:
            # (a region's parse leaves another dict in self.ssa_values: read it anew)
            ssa_values = self.ssa_values
            token = self._current_token
            statement: _Statement | None = None
            values: list[Any] | None = None
            if token.kind in starts:
                pos = token.span.start
                moved = False
                while (statement := read(text, pos)) is not None:
                    values = []
                    types: list[Any] = []
                    for name in statement.uses:
                        defined = ssa_values.get(name)
                        if not defined:
                            values = None
                            break
                        value = defined[0]
                        values.append(value)
                        types.append(value.type)
                    if values is None:
                        break
                    op = fast(self, forms, table, statement, values, types)
                    if op is None:
                        break
                    _append(block, op)
                    pos = statement.next_start
                    moved = True
                if moved:
                    self._resume_from(pos)
            if statement is None or values is None:
                op = self.parse_optional_operation()
            else:
                before = state(self)
                op = self.parse_optional_operation()
                if op is not None:
                    form = recorded(self, forms, op, statement, values, before)
                    if form is not None:
                        table.setdefault(statement.key, []).append(form)
            if op is None:
                return
            block.add_op(op)

    _mark(_parse_block_body, "xdsl_gpu_statement_forms", current)
    Parser._parse_block_body = _parse_block_body  # type: ignore[method-assign]


_HINT_SUFFIX = re.compile(r"_[0-9]+$")


def _hint(name: str) -> str | None:
    """For a name that :data:`_RESULTS` reads (ASCII), the value's name hint after
    ``value.name_hint = name`` (xDSL takes off a ``_N`` suffix), or None if
    ``SSAValue.is_valid_name`` refuses it (it starts with a digit: the parser then
    gives no hint)."""
    if name[0] in "0123456789":
        return None
    suffix = _HINT_SUFFIX.search(name)
    return name if suffix is None else name[: suffix.start()]


def _data_descriptor(cls: type, name: str) -> bool:
    """Whether ``cls.name`` is a property or another descriptor that setting the
    attribute goes through."""
    for base in cls.__mro__:
        if name in base.__dict__:
            return hasattr(type(base.__dict__[name]), "__set__")
    return False


def _source(function: Any) -> str:
    import inspect

    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


_OPERATION_FIELDS = frozenset(
    {
        "_next_op",
        "_operand_uses",
        "_operands",
        "_prev_op",
        "_successor_uses",
        "_successors",
        "attributes",
        "location",
        "parent",
        "properties",
        "regions",
        "results",
    }
)
"""What ``Operation.__init__`` and a block set on an op (xDSL 0.74)."""

_NOT_COMPARED = frozenset(
    {"_next_op", "_prev_op", "parent", "_operand_uses", "results"}
)
"""Fields of a parsed op and of the one built from its form that differ (new use
and result objects; neither is in a block yet) or are compared apart."""


_TOKEN = re.compile(
    r"(?:\s+|//[^\n]*)*+"  # what the lexer skips (its _whitespace_regex)
    r"(?:([a-zA-Z_][a-zA-Z0-9_$.]*+)"  # 1 bare identifier
    rf"|(%{_SUFFIX})|(\^{_SUFFIX})|(#(?!-\}}){_SUFFIX})|(!{_SUFFIX})"  # 2-5 prefixed
    r"|(@[a-zA-Z_][a-zA-Z0-9_$.]*+)"  # 6 @identifier, bare
    r"|(0x[0-9a-fA-F]++)"  # 7 hexadecimal integer
    r"|([0-9]++)(\.[0-9]*+(?:[eE][+-]?[0-9]++)?)?"  # 8 integer, 9 and a fraction
    r"|(->)"  # 10
    r"|(\{(?!-#)|[:,()}\[\]<>=+/*?|-]|\.\.\.))",  # 11 punctuation
    re.ASCII,
)
"""The commonest tokens, as ``MLIRLexer.lex`` reads them; anything else (a string,
file metadata, a character that is not ASCII, an error) is left to it."""


def regex_tokens() -> None:
    """Read the commonest tokens with one regular expression (:data:`_TOKEN`): the
    same kind and span as ``MLIRLexer.lex``, which tries a character class at a
    time through several method calls (~3 µs a token). Anything the expression
    does not read, ``MLIRLexer.lex`` reads from the same place; so do lexers that
    extend ``MLIRLexer``."""
    from xdsl.utils.lexer import Span, Token
    from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

    current = MLIRLexer.__dict__.get("lex")
    if not callable(current):
        raise XdslChangedError("xdsl.utils.mlir_lexer.MLIRLexer.lex is gone")
    if is_patched(current, "xdsl_gpu_regex_tokens"):
        return
    kinds: dict[int, Any] = {
        1: MLIRTokenKind.BARE_IDENT,
        2: MLIRTokenKind.PERCENT_IDENT,
        3: MLIRTokenKind.CARET_IDENT,
        4: MLIRTokenKind.HASH_IDENT,
        5: MLIRTokenKind.EXCLAMATION_IDENT,
        6: MLIRTokenKind.AT_IDENT,
        7: MLIRTokenKind.INTEGER_LIT,
        8: MLIRTokenKind.INTEGER_LIT,
        9: MLIRTokenKind.FLOAT_LIT,
        10: MLIRTokenKind.ARROW,
    }
    punctuation = {k.value: k for k in MLIRTokenKind if isinstance(k.value, str)}
    match_token = _TOKEN.match

    def lex(self: Any) -> Any:
        source = self.input
        content = source.content
        # (not for a subclass: the assembly-format lexer reads other identifiers)
        if type(content) is str and type(self) is MLIRLexer:
            found = match_token(content, self.pos)
            if found is not None:
                index: int = found.lastindex  # type: ignore[assignment]  # (a group matched)
                start, end = found.span(index)
                if index == 9:  # the fraction of a float
                    start = found.start(8)
                    kind = kinds[9]
                elif index == 11:
                    kind = punctuation[found.group(11)]
                else:
                    kind = kinds[index]
                self.pos = end
                return Token(kind, Span(start, end, source))
        return current(self)

    _mark(lex, "xdsl_gpu_regex_tokens", current)
    MLIRLexer.lex = lex  # type: ignore[method-assign]
