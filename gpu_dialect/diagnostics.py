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
import sys
from types import TracebackType

from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
)

TOOLS = frozenset({"xdsl-opt", "xdsl-gpu-run", "xdsl-gpu-nvrtc"})
USER_ERRORS: tuple[type[BaseException], ...] = (
    DiagnosticException,
    ParseError,
    ArgSpecParseError,
)


class UserError(DiagnosticException):
    """An error caused by the user's input or environment, with the fix in the text."""


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
    message = located_message(error)
    if message == str(error).rstrip():  # no location: xDSL's notes (its IR dump) help
        for note in getattr(error, "__notes__", ()):
            message += f"\n{note}"
    tool = os.path.basename(sys.argv[0]) if sys.argv else "xdsl-opt"
    print(f"{tool}: error: {message}", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    # Exit status 1 for every user error, as the docs promise.
    os._exit(1)


def source_location(location: object) -> str | None:
    """``file:line:col`` of a ``FileLineColLoc`` (which the parser gives every op,
    see ``registration.record_source_locations``), ``None`` for other locations."""
    from xdsl.dialects.builtin import FileLineColLoc

    if not isinstance(location, FileLineColLoc):
        return None
    return f"{location.filename.data}:{location.line.data}:{location.column.data}"


def located_message(error: BaseException) -> str:
    """The error's text, with the source location of the op it is about in front when
    the error names one (``failing_op``: verification errors, and the passes'
    conversion errors) and that op came from a file: ``file:line:col: <message>``,
    then the source line with a caret under the op, as MLIR prints diagnostics.
    Without one, the text as it is."""
    op = getattr(error, "failing_op", None)
    where = source_location(getattr(op, "location", None))
    if where is None:
        return str(error).rstrip()
    message = getattr(error, "plain_message", None) or str(error).rstrip()
    text = f"{where}: {message}"
    location = op.location  # type: ignore[union-attr]
    file, line, col = location.filename.data, location.line.data, location.column.data
    if file in ("stdin", "-", "<stdin>"):
        return text
    try:
        with open(file, encoding="utf-8", errors="replace") as source:
            for number, content in enumerate(source, start=1):
                if number == line:
                    text += f"\n{content.rstrip()}\n{' ' * (col - 1)}^"
                    break
    except OSError:
        pass  # a file that is gone: the location alone
    return text


def at_op(error: BaseException, op: object) -> BaseException:
    """``error``, noted as being about ``op`` (for :func:`located_message`)."""
    if not hasattr(error, "failing_op"):
        error.failing_op = op  # type: ignore[attr-defined]
    return error


def install_for_command_line_tools() -> None:
    """Install :func:`excepthook` when the running program is one of our tools."""
    if sys.argv and os.path.basename(sys.argv[0]) in TOOLS:
        sys.excepthook = excepthook
