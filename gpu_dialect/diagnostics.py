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
    message = str(error).rstrip()
    for note in getattr(error, "__notes__", ()):
        message += f"\n{note}"
    tool = os.path.basename(sys.argv[0]) if sys.argv else "xdsl-opt"
    print(f"{tool}: error: {message}", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    # Exit status 1 for every user error, as the docs promise.
    os._exit(1)


def install_for_command_line_tools() -> None:
    """Install :func:`excepthook` when the running program is one of our tools."""
    if sys.argv and os.path.basename(sys.argv[0]) in TOOLS:
        sys.excepthook = excepthook
