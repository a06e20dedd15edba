"""Command-line error reporting: a diagnostic and exit status 1, never a traceback.

Stock ``xdsl-opt`` re-raises parse and verification errors unless it is run with
``--parsing-diagnostics``/``--verify-diagnostics`` (which print and exit 0, for
tests). For a user that means a Python traceback for a typo. When the running program
is one of the command-line tools, the plugin installs :func:`excepthook`, which prints
the diagnostic (it already carries the location) and exits with status 1. Library
users keep ordinary exceptions.
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from collections.abc import Collection
from types import TracebackType
from typing import Any

from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
)

TOOLS = frozenset({"xdsl-opt", "xdsl-gpu-opt", "xdsl-gpu-run", "xdsl-gpu-nvrtc"})
USER_ERRORS: tuple[type[BaseException], ...] = (
    DiagnosticException,
    ParseError,
    ArgSpecParseError,
)


class UserError(DiagnosticException):
    """An error caused by the user's input or environment, with the fix in the text."""


RUN_NOTES: list[str] = []
"""What a tool wants said after any user error of this run (how the run was set up
where that may explain the error)."""


def excepthook(
    kind: type[BaseException],
    error: BaseException,
    trace: TracebackType | None,
    *,
    fallback=sys.__excepthook__,
) -> None:
    if not issubclass(kind, USER_ERRORS) or os.environ.get("XDSL_GPU_TRACEBACK"):
        fallback(kind, error, trace)
        return
    tool = os.path.basename(sys.argv[0]) if sys.argv else "xdsl-opt"
    print(user_error_text(tool, error, inputs=sys.argv[1:]), file=sys.stderr)
    for note in RUN_NOTES:
        print(f"{tool}: note: {note}", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    # Exit status 1 for every user error, as the docs promise.
    os._exit(1)


def user_error_text(
    tool: str, error: BaseException, inputs: Collection[str] | None = None
) -> str:
    """What a command-line tool prints for a user error: ``<tool>: error: `` and
    :func:`located_message`; where the error has no location, xDSL's notes (its dump
    of the IR, with the op marked) follow, since they are then the only pointer."""
    message = located_message(error, None if inputs is None else frozenset(inputs))
    if message == str(error).rstrip():
        for note in getattr(error, "__notes__", ()):
            message += f"\n{note}"
    return f"{tool}: error: {message}"


_XDSL_CONSTRAINT = re.compile(
    r"(operand|result) '(\w+)' at position (\d+) does not verify:\s*(.*)", re.S
)


def _as_mlir_says(op: Any, message: str) -> str:
    """A verifier message in MLIR's frame: ``'gpu.memcpy' op operand #1 must be ...``
    for xDSL's ``operand 'src' at position 1 does not verify: must be ...``, and
    ``'<op>' op`` in front of the messages of xDSL's generic checks."""
    name = getattr(op, "name", None)
    if not isinstance(name, str):
        return message
    if (match := _XDSL_CONSTRAINT.fullmatch(message.strip())) is not None:
        kind, field_name, position, why = match.groups()
        why = " ".join(why.split())
        if why.startswith("must be"):
            return f"'{name}' op {kind} #{position} {why}"
        return f"'{name}' op {kind} #{position} ('{field_name}'): {why}"
    if message.startswith(("'", '"')):  # already names the op, as upstream does
        return message
    return f"'{name}' op {message}"


def _parse_error_message(error: ParseError) -> str:
    """A parse error as MLIR prints one: ``file:line:col: message``, the source line
    and a caret with ``~`` under the rest of the offending token (xDSL prints the
    location alone on the first line and the message under the caret)."""
    span = error.span
    where = span.get_location()
    text = f"{where.file}:{where.line}:{where.col}: {error.msg}"
    source = span.input
    start = source.get_start_of_line(span.start)
    end = source.get_end_of_line(span.start)
    line = source.content[start:end]
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    line = line.rstrip("\r")
    if not line.strip():  # the end of the input: nothing to point at
        return text
    before = line[: span.start - start]
    marked = max(1, min(span.end, end) - span.start)
    caret = " " * _display_width(before) + "^" + "~" * (marked - 1)
    return f"{text}\n{line.expandtabs(TAB_STOP)}\n{caret}"


def source_location(location: object) -> str | None:
    """``file:line:col`` of a ``FileLineColLoc`` (which the parser gives every op,
    see ``registration.record_source_locations``), ``None`` for other locations."""
    from xdsl.dialects.builtin import FileLineColLoc

    if not isinstance(location, FileLineColLoc):
        return None
    return f"{location.filename.data}:{location.line.data}:{location.column.data}"


def located_message(error: BaseException, inputs: Collection[str] | None = None) -> str:
    """The error's text, with the source location of the op it is about in front when
    the error names one (``failing_op``: verification errors, and the passes'
    conversion errors) and that op came from a file: ``file:line:col: <message>``,
    then the source line with a caret under the op, as MLIR prints diagnostics.
    Without one, the text as it is.

    The source line is quoted only when it can be trusted to be the one meant:

    * the location's file name is not standard input (``-``, ``stdin``, ``<stdin>``;
      its text is gone by now) and names an existing regular file;
    * when ``inputs`` is given (:func:`excepthook` passes the tool's command-line
      arguments), the name is one of them: a ``loc("other.mlir":3:1)`` written in
      the source may name an unrelated file that happens to exist in the current
      folder, and a location of the file being processed always carries the name
      the tool was given;
    * that file has the line, and the column is within it (or just past its end).

    Otherwise the location alone is printed; reading the file never raises.

    Columns count characters (Unicode code points), which is what the parser
    records (``registration.record_source_locations``: xDSL's spans index the
    decoded text). The quoted line has its tabs expanded to stops of 8 columns and
    the caret is placed by display width (a tab to the next stop, a wide East Asian
    character as 2, a combining mark as 0), so it stays under the op whatever
    precedes it on the line.
    """
    if isinstance(error, ParseError):
        return _parse_error_message(error)
    op = getattr(error, "failing_op", None)
    span = getattr(error, "parse_span", None)
    if op is None and span is not None:  # raised while an op was being parsed
        return _parse_error_message(ParseError(span, str(error).rstrip()))
    where = source_location(getattr(op, "location", None))
    if where is None:
        return str(error).rstrip()
    plain = getattr(error, "plain_message", None)
    message = str(error).rstrip() if plain is None else _as_mlir_says(op, plain)
    text = f"{where}: {message}"
    location = op.location  # type: ignore[union-attr]
    file, line, col = location.filename.data, location.line.data, location.column.data
    quoted = _source_line(file, line, inputs)
    if quoted is None or not 1 <= col <= len(quoted) + 1:
        return text
    caret = _display_width(quoted[: col - 1])
    return f"{text}\n{quoted.expandtabs(TAB_STOP)}\n{' ' * caret}^"


TAB_STOP = 8
"""Tab stops of the quoted source line (LLVM's ``SourceMgr`` uses 8 too)."""

STDIN_NAMES = frozenset({"-", "stdin", "<stdin>"})


def _source_line(file: str, line: int, inputs: Collection[str] | None) -> str | None:
    """Line ``line`` of ``file`` (without its end of line), or ``None`` when
    :func:`located_message` should not quote it."""
    if file in STDIN_NAMES or line < 1 or (inputs is not None and file not in inputs):
        return None
    try:
        if not os.path.isfile(file):
            return None
        with open(file, encoding="utf-8", errors="replace", newline="") as source:
            for number, content in enumerate(source, start=1):
                if number == line:
                    return content.rstrip("\r\n")
    except (OSError, ValueError):  # gone, unreadable, or a name with a NUL in it
        return None
    return None


def _display_width(text: str) -> int:
    """Terminal columns that ``text`` takes at the start of a line."""
    width = 0
    for char in text:
        if char == "\t":
            width += TAB_STOP - width % TAB_STOP
        elif unicodedata.combining(char):
            continue
        elif unicodedata.east_asian_width(char) in ("W", "F"):
            width += 2
        else:
            width += 1
    return width


def at_op(error: BaseException, op: object) -> BaseException:
    """``error``, noted as being about ``op`` (for :func:`located_message`)."""
    if not hasattr(error, "failing_op"):
        error.failing_op = op  # type: ignore[attr-defined]
    return error


def install_for_command_line_tools() -> None:
    """Install :func:`excepthook` when the running program is one of our tools."""
    if sys.argv and os.path.basename(sys.argv[0]) in TOOLS:
        sys.excepthook = excepthook
