"""The mechanics every patch shares: marking a wrapped function, finding xDSL's
original behind it, the error raised when xDSL changed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

XDSL_VERSION = "0.74"
"""The xDSL minor these patches are written against."""


class XdslChangedError(RuntimeError):
    """xDSL no longer looks the way a patch of this module expects."""


@dataclass(frozen=True)
class Patch:
    """One change inside xDSL and why; ``tests/compat/test_patches.py`` holds, per name, the
    check that stock xDSL still has the gap (it runs xDSL's own code, reached through
    :func:`original`)."""

    name: str
    reason: str
    xdsl_version: str = XDSL_VERSION


def is_patched(function: Callable[..., Any], mark: str) -> bool:
    """Whether ``function`` or one of the wrappers under it carries ``mark``."""
    seen: Any = function
    while seen is not None:
        if getattr(seen, mark, False):
            return True
        seen = getattr(seen, "__wrapped__", None)
    return False


def _mark(function: Callable[..., Any], mark: str, like: Callable[..., Any]) -> None:
    setattr(function, mark, True)
    function.__doc__ = like.__doc__
    function.__wrapped__ = like  # type: ignore[attr-defined]


def original(function: Any) -> Any:
    """xDSL's own function behind our wrappers (itself if not wrapped)."""
    while hasattr(function, "__wrapped__"):
        function = function.__wrapped__
    return function
