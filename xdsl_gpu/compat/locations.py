"""Source locations: ``file:line:col`` for every op xDSL parses, split-input chunks
included."""

from __future__ import annotations

import bisect
import contextvars
import inspect
import re
from dataclasses import dataclass
from typing import Any, cast

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched

CHUNK_LINE_OFFSET: contextvars.ContextVar[int] = contextvars.ContextVar(
    "xdsl_gpu_chunk_line_offset", default=0
)
"""Lines before the text being parsed: ``xdsl-opt --split-input-file`` parses each
chunk on its own, and its locations must still be lines of the file."""


@dataclass
class _LineIndex:
    """Where the lines of one parser input start, to turn offsets into line and
    column in O(log n) (xDSL's ``Span.get_location`` counts the newlines before the
    offset each time, which made parsing quadratic), and one ``StringAttr`` for the
    file name that every location of the input shares."""

    source: object
    newlines: list[int]
    file: StringAttr

    @staticmethod
    def of(source: Any) -> _LineIndex:
        newline = re.escape(source.newline)
        offsets = [m.start() for m in re.finditer(newline, source.content)]
        return _LineIndex(source, offsets, StringAttr(source.name))

    def line_col(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_left(self.newlines, offset)  # newlines before offset
        start = self.newlines[line - 1] + 1 if line else 0
        return line + 1, offset - start + 1


def bound_result_count(parser: Any) -> int | None:
    """How many results the op being parsed has names for (``%t = gpu.wait async``:
    1), as MLIR's ``OpAsmParser::getNumResults``; None outside
    :func:`record_source_locations`'s parser."""
    stack = getattr(parser, "__dict__", {}).get("_xdsl_gpu_ops")
    return stack[-1][2] if stack else None


def record_source_locations() -> None:
    """Make the parser give each op it parses without a ``loc(...)`` its place in the
    source as a ``FileLineColLoc``, as MLIR's parser does: the line and column of the
    op's name (after its results). xDSL leaves every op at ``loc(unknown)``."""
    from xdsl.dialects.builtin import FileLineColLoc, IntAttr, UnknownLoc
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError

    parse_operation_ = Parser.__dict__.get("parse_operation")
    parse_results = Parser.__dict__.get("_parse_op_result_list")
    parse_location = getattr(Parser, "parse_optional_location", None)
    if not callable(parse_operation_) or not callable(parse_results):
        raise XdslChangedError(
            "xdsl.parser.Parser.parse_operation or _parse_op_result_list is gone"
        )
    if not callable(parse_location):
        raise XdslChangedError("xdsl.parser.Parser.parse_optional_location is gone")
    if is_patched(parse_operation_, "xdsl_gpu_locations"):
        return

    def pending(parser: Parser) -> list[list[Any]]:
        """Per op being parsed (nested ops stack up): [name span, explicit unknown,
        number of results bound (``%a, %b:2 = ...``)]."""
        return parser.__dict__.setdefault("_xdsl_gpu_ops", [])

    def _parse_op_result_list(self: Parser) -> Any:
        results = parse_results(self)
        stack = pending(self)
        if stack:
            token = getattr(self, "_current_token", None)
            if not hasattr(token, "span"):
                raise XdslChangedError("xDSL's parser tokens no longer carry a span")
            stack[-1][0] = token.span  # type: ignore[union-attr]
            stack[-1][2] = sum(size for _, size in cast(list[Any], results))
        return results

    def parse_optional_location(self: Parser) -> Any:
        location = parse_location(self)
        stack = pending(self)
        if isinstance(location, UnknownLoc) and stack:
            stack[-1][1] = True  # an explicit loc(unknown) stays unknown
        return location

    def parse_operation(self: Parser) -> Operation:
        stack = pending(self)
        stack.append([None, False, 0])
        try:
            op = cast(Operation, parse_operation_(self))
        except ParseError as error:
            # MLIR's words when results are named on an op that has none.
            if error.msg.startswith("Operation has 0 results, but was given"):
                raise ParseError(
                    error.span, "cannot name an operation with no results"
                ) from None
            raise
        finally:
            span, explicit_unknown, _ = stack.pop()
        if span is None or explicit_unknown or not isinstance(op.location, UnknownLoc):
            return op
        index: _LineIndex | None = self.__dict__.get("_xdsl_gpu_lines")
        if index is None or index.source is not span.input:
            index = _LineIndex.of(span.input)
            self.__dict__["_xdsl_gpu_lines"] = index
        line, col = index.line_col(span.start)
        op.location = FileLineColLoc(
            index.file, IntAttr(line + CHUNK_LINE_OFFSET.get()), IntAttr(col)
        )
        return op

    _mark(parse_operation, "xdsl_gpu_locations", parse_operation_)
    _mark(_parse_op_result_list, "xdsl_gpu_locations", parse_results)
    _mark(parse_optional_location, "xdsl_gpu_locations", parse_location)
    Parser.parse_operation = parse_operation  # type: ignore[method-assign]
    Parser._parse_op_result_list = _parse_op_result_list  # type: ignore[method-assign]
    Parser.parse_optional_location = parse_optional_location  # type: ignore[method-assign]
    offset_split_input_chunks()


def offset_split_input_chunks() -> None:
    """Set :data:`CHUNK_LINE_OFFSET` while ``xdsl-opt`` parses each chunk of a split
    input (it passes the chunk's first line to ``parse_chunk``)."""
    from xdsl.xdsl_opt_main import xDSLOptMain

    parse_chunk = getattr(xDSLOptMain, "parse_chunk", None)
    if not callable(parse_chunk):
        raise XdslChangedError("xdsl.xdsl_opt_main.xDSLOptMain.parse_chunk is gone")
    if is_patched(parse_chunk, "xdsl_gpu_locations"):
        return
    if list(inspect.signature(parse_chunk).parameters)[:4] != [
        "self", "chunk", "file_extension", "start_offset",
    ]:  # fmt: skip
        raise XdslChangedError(
            "xDSLOptMain.parse_chunk no longer takes (chunk, file_extension, "
            "start_offset)"
        )

    def parse_chunk_at(
        self: Any, chunk: Any, file_extension: str, start_offset: int = 0
    ):
        token = CHUNK_LINE_OFFSET.set(start_offset)
        try:
            return parse_chunk(self, chunk, file_extension, start_offset)
        finally:
            CHUNK_LINE_OFFSET.reset(token)

    _mark(parse_chunk_at, "xdsl_gpu_locations", parse_chunk)
    xDSLOptMain.parse_chunk = parse_chunk_at  # type: ignore[method-assign]
