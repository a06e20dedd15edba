"""Command-line error reporting: a diagnostic and exit status 1, never a traceback.

Stock ``xdsl-opt`` re-raises parse and verification errors unless it is run with
``--parsing-diagnostics``/``--verify-diagnostics`` (which print and exit 0, for
tests). For a user that means a Python traceback for a typo. When the running program
is one of the command-line tools, the plugin installs :func:`excepthook`, which prints
the diagnostic (it already carries the location) and exits with status 1. Library
users keep ordinary exceptions.
"""

from __future__ import annotations

import io
import os
import re
import sys
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass
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


SHOW_MODULE_ON_DIAGNOSTIC = False
"""Whether a user error also prints xDSL's dump of the whole module with the failing
op marked (``--print-module-on-diagnostic``); MLIR's form, one location and at most
the failing op, otherwise."""


def excepthook(
    kind: type[BaseException],
    error: BaseException,
    trace: TracebackType | None,
    *,
    fallback=sys.__excepthook__,
    end: bool = True,
) -> None:
    """Report ``error``: a user error as a diagnostic, then (``end``) the process
    ends with status 1; anything else through ``fallback``."""
    if not issubclass(kind, USER_ERRORS) or os.environ.get("XDSL_GPU_TRACEBACK"):
        fallback(kind, error, trace)
        return
    tool = os.path.basename(sys.argv[0]) if sys.argv else "xdsl-opt"
    print(user_error_text(tool, error, inputs=sys.argv[1:]), file=sys.stderr)
    for note in RUN_NOTES:
        print(f"{tool}: note: {note}", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    if end:
        # Exit status 1 for every user error, as the docs promise.
        os._exit(1)


def user_error_text(
    tool: str, error: BaseException, inputs: Collection[str] | None = None
) -> str:
    """What a command-line tool prints for a user error, in MLIR's form:
    ``file:line:col: error: <message>``, the source line with a caret, and for an
    error about an op ``file:line:col: note: see current operation: <op>`` (the op
    on one line, in generic form, its regions elided). ``<tool>: error: `` leads
    instead where the error has no location. Short notes of the error (the step of
    a pipeline that failed) follow as notes; xDSL's dump of the whole module only
    with :data:`SHOW_MODULE_ON_DIAGNOSTIC`."""
    found = _locate(error, None if inputs is None else frozenset(inputs))
    lead = found.where or tool
    lines = [f"{lead}: error: {found.message}", *found.source]
    op = getattr(error, "failing_op", None)
    if op is not None and (text := operation_text(op)) is not None:
        lines.append(f"{lead}: note: see current operation: {text}")
    for note in getattr(error, "__notes__", ()):
        if "\n" not in note.strip() or SHOW_MODULE_ON_DIAGNOSTIC:
            lines.append(f"{lead}: note: {note.strip()}")
    return "\n".join(lines)


def operation_text(op: Any) -> str | None:
    """``op`` on one line in generic form, as MLIR's ``see current operation`` note
    shows it, with the contents of its regions left out (``({...})``); ``None`` when
    it cannot be printed."""
    from xdsl.printer import Printer

    shallow = None
    try:
        fields = (*op.properties.values(), *op.attributes.values())
        if op.regions or any(_elided(value) is not value for value in fields):
            shallow = op.clone_without_regions()
            for named in (shallow.properties, shallow.attributes):
                for name, value in named.items():
                    named[name] = _elided(value)
        out = io.StringIO()
        Printer(stream=out, print_generic_format=True).print_op(shallow or op)
    except Exception:  # a half-built op: the location and message still say it
        return None
    finally:
        if shallow is not None:
            shallow.drop_all_references()
    text = " ".join(out.getvalue().split())
    if op.regions:
        text = _EMPTY_REGIONS.sub("({...})", text, count=1)
    return text


_EMPTY_REGIONS = re.compile(r"\(\{ ?\}(?:, \{ ?\})*\)")

ELIDED_ELEMENTS_OVER = 16
"""MLIR's diagnostics print an elements attribute of more elements than this (a
splat aside) as ``dense_resource<__elided__>``: a large constant's note stays short."""


def _elided(attribute: Any) -> Any:
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, DenseResourceAttr

    if not isinstance(attribute, DenseIntOrFPElementsAttr) or attribute.is_splat():
        return attribute
    count = 1
    for size in attribute.get_shape():
        count *= max(size, 0)
    if count <= ELIDED_ELEMENTS_OVER:
        return attribute
    return DenseResourceAttr.from_params("__elided__", attribute.type)


_ISOLATION = "Operation using value defined out of its IsolatedFromAbove parent"

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
    if message.startswith(_ISOLATION):  # xDSL appends the using op's Python repr
        return (
            f"'{name}' op holds an op that uses a value defined outside it; '{name}' "
            "is isolated from above: pass the value in, or define it inside"
        )
    if message.startswith(f"Operation {name} "):  # xDSL's checks of regions
        return f"'{name}' op {message.removeprefix(f'Operation {name} ')}"
    return f"'{name}' op {message}"


@dataclass(frozen=True)
class _Located:
    """A user error taken apart: where (``file:line:col``, or ``None``), what, and
    the quoted source line with its caret line (or nothing)."""

    where: str | None
    message: str
    source: tuple[str, ...] = ()


def _parse_error_parts(error: ParseError) -> _Located:
    """A parse error as MLIR shows one: the location, the message, the source line
    and a caret with ``~`` under the rest of the offending token (xDSL prints the
    location alone on the first line and the message under the caret)."""
    span = error.span
    where = span.get_location()
    located = _Located(f"{where.file}:{where.line}:{where.col}", error.msg)
    source = span.input
    start = source.get_start_of_line(span.start)
    end = source.get_end_of_line(span.start)
    line = source.content[start:end]
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    line = line.rstrip("\r")
    if not line.strip():  # the end of the input: nothing to point at
        return located
    before = line[: span.start - start]
    marked = max(1, min(span.end, end) - span.start)
    caret = " " * _display_width(before) + "^" + "~" * (marked - 1)
    return _Located(located.where, located.message, (line.expandtabs(TAB_STOP), caret))


def source_location(location: object) -> str | None:
    """``file:line:col`` of a ``FileLineColLoc`` (which the parser gives every op,
    see ``registration.record_source_locations``), ``None`` for other locations."""
    found = _file_location(location)
    if found is None:
        return None
    return f"{found.filename.data}:{found.line.data}:{found.column.data}"


def _file_location(location: object) -> Any:
    """The ``FileLineColLoc`` inside ``location``: itself, the location a name or
    call site is at, the first one of a fused location; ``None`` if there is none."""
    from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc

    for _ in range(64):  # locations nest, but not without end
        if isinstance(location, FileLineColLoc):
            return location
        if isinstance(location, NameLoc):
            location = location.location
        elif isinstance(location, CallSiteLoc):
            location = location.callee
        elif isinstance(location, FusedLoc):
            inner = getattr(location.locations, "data", ())
            found = (_file_location(loc) for loc in inner)
            return next((loc for loc in found if loc is not None), None)
        else:
            return None
    return None


PARSED_AT = "_xdsl_gpu_parsed_at"
"""Where the parser found an op that it left at ``loc(unknown)`` (runs with xDSL's
own dialects, which record no locations): the span of the op's first token and the
line offset of its ``--split-input-file`` chunk, kept in the op's ``__dict__`` by
``compat.diagnose_internal_errors`` so that an error about it can still be placed."""


def _op_file_location(op: Any) -> tuple[str, int, int] | None:
    """Where ``op`` is in the source: its own location, or where an op made by a
    pass has none (xDSL's builders give ``UnknownLoc``), that of the nearest
    enclosing op that has one, as the best pointer there is."""
    for _ in range(10_000):
        if op is None:
            return None
        if (found := _file_location(getattr(op, "location", None))) is not None:
            return found.filename.data, found.line.data, found.column.data
        if (parsed := getattr(op, "__dict__", {}).get(PARSED_AT)) is not None:
            span, line_offset = parsed
            where = span.get_location()
            return where.file, where.line + line_offset, where.col
        parent = getattr(op, "parent_op", None)
        op = parent() if callable(parent) else None
    return None


def _locate(error: BaseException, inputs: Collection[str] | None) -> _Located:
    if isinstance(error, ParseError):
        return _parse_error_parts(error)
    op = getattr(error, "failing_op", None)
    span = getattr(error, "parse_span", None)
    if op is None and span is not None:  # raised while an op was being parsed
        return _parse_error_parts(ParseError(span, str(error).rstrip()))
    if op is None:
        return _Located(None, str(error).rstrip())
    plain = getattr(error, "plain_message", None)
    message = (
        _as_mlir_says(op, plain)
        if plain is not None
        else str(error).rstrip().split("\n\n")[0]  # xDSL's dump follows a blank line
    )
    location = _op_file_location(op)
    if location is None:
        return _Located(None, message)
    file, line, col = location
    where = f"{file}:{line}:{col}"
    quoted = _source_line(file, line, inputs)
    if quoted is None or not 1 <= col <= len(quoted) + 1:
        return _Located(where, message)
    caret = " " * _display_width(quoted[: col - 1]) + "^"
    return _Located(where, message, (quoted.expandtabs(TAB_STOP), caret))


def located_message(error: BaseException, inputs: Collection[str] | None = None) -> str:
    """The error's text, with the source location of the op it is about in front when
    the error names one (``failing_op``: verification errors, and the passes'
    conversion errors) and that op, or the nearest op around it, came from a file:
    ``file:line:col: <message>``, then the source line with a caret under the op,
    as MLIR prints diagnostics. Without a location, the message alone.

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
    found = _locate(error, inputs)
    head = found.message if found.where is None else f"{found.where}: {found.message}"
    return "\n".join((head, *found.source))


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


_LOWERED_BY = {
    "affine": "lower-affine",
    "arith": "convert-arith-to-llvm",
    "cf": "convert-cf-to-llvm",
    "func": "convert-func-to-llvm",
    "index": "convert-index-to-llvm",
    "math": "convert-math-to-llvm",
    "memref": "expand-strided-metadata and finalize-memref-to-llvm",
    "nvgpu": "convert-nvgpu-to-nvvm",
    "scf": "convert-scf-to-cf, then convert-cf-to-llvm",
    "vector": "convert-vector-to-llvm",
}


def lowering_hint(op_name: str) -> str:
    """Which pass lowers an op that reached a translation to LLVM IR unlowered:
    the fix for the user, who gave a program that is not lowered far enough."""
    if op_name == "builtin.unrealized_conversion_cast":
        return "run reconcile-unrealized-casts first (after every conversion to llvm)"
    dialect = op_name.split(".", 1)[0]
    if dialect == "gpu":
        return (
            "lower the program first: gpu-lower-to-nvvm-pipeline (kernels to a "
            "gpu.binary, the host to the llvm dialect), then translate it with "
            "-t llvm-offload"
        )
    if (passes := _LOWERED_BY.get(dialect)) is not None:
        return f"lower it to the llvm dialect first ({passes})"
    return "lower it to the llvm dialect first"
