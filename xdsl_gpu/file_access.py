"""Paths whose existence decides what a run makes, reported as they are looked at.

A search that tries several places (the object files of ``#xgpu.object_file``, in
the folders of a search path) depends on the places where it found nothing as much
as on the file it read: a file that appears later in an earlier folder changes the
result. A cache of whole runs (``xdsl_gpu.driver.run_cache``) listens here to check
those paths again before it replays a run. Reporting costs nothing when nobody
listens.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["listening", "report_probe"]

_listeners: list[Callable[[str], None]] = []


def report_probe(path: str) -> None:
    """``path`` was looked at (found or not) by a search whose result it decides."""
    for listener in _listeners:
        listener(path)


@contextmanager
def listening(listener: Callable[[str], None]) -> Iterator[None]:
    """Call ``listener`` with each path reported while the block runs."""
    _listeners.append(listener)
    try:
        yield
    finally:
        _listeners.remove(listener)
