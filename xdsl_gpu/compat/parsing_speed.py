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

from xdsl.ir import Operation, SSAValue

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched

_SUFFIX = r"(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*+)"
"""The lexer's suffix-id (``MLIRLexer._suffix_id``)."""

_RESULT = rf"%{_SUFFIX}(?::[0-9]+)?"

_STATEMENT = re.compile(
    rf"(?:({_RESULT}(?:[ \t]*,[ \t]*{_RESULT})*)[ \t]*=[ \t]*)?"
    r'([a-zA-Z_][a-zA-Z0-9_$.]*+|"[a-zA-Z_][a-zA-Z0-9_$.]*+")'
    r'([^\n"]*+)(?=\n|\Z)'
)
"""A statement on one line without a string: its results, its name (bare or
quoted) and the rest of the line."""

_RESULTS = re.compile(rf"%({_SUFFIX})(?::([0-9]+))?")
_USES = re.compile(rf"(%{_SUFFIX})")

_NEXT = re.compile(
    r"(?:\s+|//[^\n]*)*+"  # the lexer's whitespace and comments
    rf"(?:(%){_SUFFIX}[ \t]*(\S?)|([a-zA-Z_][a-zA-Z0-9_$.]*+)|(\S?))",
    re.ASCII,
)
"""What follows a statement: its kind is part of the form, since a parser may look
at the next token (an optional part of an assembly format, a location)."""

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
    on."""

    op_type: type[Operation]
    operand_types: tuple[Any, ...]
    result_types: tuple[Any, ...]
    properties: dict[str, Any]
    attributes: dict[str, Any]
    parsed_at: str | None


class _Statement:
    """One line read as a statement: ``match`` of :data:`_STATEMENT`, the SSA names
    it uses (without ``%``), its results (name, count), where the next token
    starts, and its form's key."""

    __slots__ = ("key", "match", "next_start", "results", "uses")

    def __init__(self, match: re.Match[str], after: re.Match[str]) -> None:
        self.match = match
        parts = _USES.split(match.group(3))
        self.uses = [name[1:] for name in parts[1::2]]
        results = match.group(1)
        self.results: list[tuple[str, int]] = (
            []
            if results is None
            else [
                (found.group(1), int(found.group(2)) if found.group(2) else 1)
                for found in _RESULTS.finditer(results)
            ]
        )
        self.next_start = max(after.start(1), after.start(3), after.start(4))
        self.key = (
            match.group(2),
            tuple(size for _, size in self.results),
            tuple(parts[0::2]),
            after.group(1, 2, 3, 4),
        )

    @staticmethod
    def read(text: str, pos: int) -> _Statement | None:
        match = _STATEMENT.match(text, pos)
        if match is None:
            return None
        rest = match.group(3)
        if any(unsafe in rest for unsafe in _UNSAFE):
            return None
        after = _NEXT.match(text, match.end())
        assert after is not None  # (every part of it may be empty)
        return _Statement(match, after)


class _Forms:
    """The forms seen in one parser's input (per dialect scope), and what building
    an op of one needs."""

    def __init__(self, source: Any) -> None:
        from xdsl.dialects.builtin import FileLineColLoc, IntAttr
        from xdsl.utils.lexer import Span

        from xdsl_gpu.compat.locations import CHUNK_LINE_OFFSET, _LineIndex

        self.input = source
        self.text: str = self.input.content
        self.lines = _LineIndex.of(self.input)
        self.tables: dict[tuple[str, ...], dict[Any, list[_Form]]] = {}
        self.ints: dict[int, Any] = {}
        self._file_line_col = FileLineColLoc
        self._new_location = FileLineColLoc.__new__
        self._int = IntAttr
        self._span = Span
        self._chunk_offset = CHUNK_LINE_OFFSET

    def span(self, start: int, end: int) -> Any:
        return self._span(start, end, self.input)

    def location(self, offset: int) -> Any:
        """The op's ``FileLineColLoc``, as ``record_source_locations`` makes it."""
        line, col = self.lines.line_col(offset)
        line += self._chunk_offset.get()
        ints = self.ints
        line_attr = ints.get(line)
        if line_attr is None:
            line_attr = ints[line] = self._int(line)
        col_attr = ints.get(col)
        if col_attr is None:
            col_attr = ints[col] = self._int(col)
        # The fields set as FileLineColLoc(...) sets them, without checking again
        # that a StringAttr and two IntAttrs are what it takes (~2 µs).
        location = self._new_location(self._file_line_col)
        set_field = object.__setattr__
        set_field(location, "filename", self.lines.file)
        set_field(location, "line", line_attr)
        set_field(location, "column", col_attr)
        return location

    def parsed_at(self, match: re.Match[str]) -> tuple[Any, int]:
        """What ``diagnose_internal_errors`` records for the op: a point at its name
        after results, else the span of its first token; the chunk's line offset."""
        start, end = match.span(2)
        if match.group(1) is not None:
            end = start
        return self.span(start, end), self._chunk_offset.get()


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
    from xdsl.dialects.builtin import FileLineColLoc
    from xdsl.irdl import IRDLOperation
    from xdsl.parser import Parser
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    current = Parser.__dict__.get("_parse_block_body")
    if not callable(current):
        raise XdslChangedError("xdsl.parser.Parser._parse_block_body is gone")
    if is_patched(current, "xdsl_gpu_statement_forms"):
        return
    if [name for name, _ in FileLineColLoc.get_irdl_definition().parameters] != [
        "filename", "line", "column",
    ]:  # fmt: skip
        raise XdslChangedError("FileLineColLoc's parameters changed")
    if not callable(getattr(Parser, "parse_optional_operation", None)):
        raise XdslChangedError("xdsl.parser.Parser.parse_optional_operation is gone")
    register = Parser.__dict__.get("_register_ssa_definition")
    if not callable(register) or "SSAValue.is_valid_name(name)" not in _source(
        register
    ):
        raise XdslChangedError(
            "xdsl.parser.Parser._register_ssa_definition is not what it was"
        )
    starts = (
        MLIRTokenKind.PERCENT_IDENT,
        MLIRTokenKind.BARE_IDENT,
        MLIRTokenKind.STRING_LIT,
    )
    operation_init = Operation.__init__
    is_valid_name = SSAValue.is_valid_name

    def forms_of(parser: Any) -> _Forms | None:
        forms = parser.__dict__.get("_xdsl_gpu_forms")
        source = parser.lexer.input
        if forms is None or forms.input is not source:
            if not isinstance(source.content, str):
                return None
            forms = _Forms(source)
            parser.__dict__["_xdsl_gpu_forms"] = forms
        return forms

    def build(
        forms: _Forms, form: _Form, values: list[Any], statement: _Statement
    ) -> Operation:
        op_type = form.op_type
        op = op_type.__new__(op_type)
        operation_init(
            op,
            operands=values,
            result_types=form.result_types,
            properties=form.properties,
            attributes=form.attributes,
            location=forms.location(statement.match.start(2)),
        )
        if form.parsed_at is not None:
            setattr(op, form.parsed_at, forms.parsed_at(statement.match))
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
        form = _Form(
            type(op),
            tuple(v.type for v in values),
            tuple(r.type for r in op.results),
            dict(op.properties),
            dict(op.attributes),
            extra.pop() if extra else None,
        )
        probe = build(forms, form, values, statement)
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
        values: list[Any] | None,
    ) -> Operation | None:
        """The op of ``statement`` built from its form, or None."""
        candidates = table.get(statement.key)
        if candidates is None or values is None:
            return None
        ssa_values = parser.ssa_values
        forward = parser.forward_ssa_references
        for name, _ in statement.results:
            if name in ssa_values or name in forward:
                return None  # xDSL's parser reports or resolves it
        types = [v.type for v in values]
        for form in candidates:
            if all(a is b or a == b for a, b in zip(types, form.operand_types)):
                op = build(forms, form, values, statement)
                # What xDSL's _register_ssa_definition does for a name neither
                # defined nor used yet (checked above): no error, no forward use.
                results = op.results
                index = 0
                for name, size in statement.results:
                    ssa_values[name] = tuple(results[index : index + size])
                    if is_valid_name(name):
                        for value in results[index : index + size]:
                            value.name_hint = name
                    index += size
                return op
        return None

    def _parse_block_body(self: Any, block: Any) -> None:
        forms = forms_of(self)
        if forms is None:
            current(self, block)
            return
        table = forms.tables.setdefault(tuple(self._parser_state.dialect_stack), {})
        while True:
            # (a region's parse leaves another dict in self.ssa_values: read it anew)
            ssa_values = self.ssa_values
            token = self._current_token
            statement: _Statement | None = None
            values: list[Any] | None = None
            if token.kind in starts:
                pos = token.span.start
                moved = False
                while (statement := _Statement.read(forms.text, pos)) is not None:
                    values = []
                    for name in statement.uses:
                        defined = ssa_values.get(name)
                        if not defined:
                            values = None
                            break
                        values.append(defined[0])
                    op = fast(self, forms, table, statement, values)
                    if op is None:
                        break
                    block.add_op(op)
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
