"""Patching an xDSL module when something first imports it, not before.

Some patches change xDSL modules that a GPU compile never imports (``xdsl-run``'s
interpreter, the ``-t llvm`` backend's tables, the ``linalg`` dialect): importing
them only to patch them cost every ``xdsl-opt`` run ~15 ms. :func:`when_imported`
runs the patch as soon as the module is imported instead (at once if it already is),
before the importer gets it, so nothing ever sees the module unpatched.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

__all__ = ["when_imported"]

_waiting: dict[str, list[Callable[[], None]]] = {}
"""Per module name not imported yet, what to run once it is."""


def when_imported(module: str, patch: Callable[[], None]) -> None:
    """Run ``patch`` once ``module`` is imported: now if it is, else right after
    the module's code has run (before its importer gets it)."""
    if module in sys.modules:
        patch()
        return
    _waiting.setdefault(module, []).append(patch)
    if not any(isinstance(f, _PatchOnImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _PatchOnImport())


class _PatchOnImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: for a module that a patch waits for, it asks the
    other finders and wraps the loader that they give, so that the patches run
    once the module's code has."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in _waiting:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        spec.loader = _PatchingLoader(loader)
        return spec


class _PatchingLoader(importlib.abc.Loader):
    """The found loader, then the patches waiting for the module."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        for patch in _waiting.pop(module.__name__, []):
            patch()

    def __getattr__(self, name: str) -> Any:  # get_source, get_filename, ...
        return getattr(self._loader, name)
