"""The package's layers only point down: compat/diagnostics/objects → gpu_dialect →
passes → targets → driver. A module may import from its own layer and the layers
below, never from one above it (function-level imports included)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "xdsl_gpu"

LAYERS: dict[str, int] = {
    "compat": 0,
    "diagnostics": 0,
    "file_access": 0,
    "forked_jobs": 0,
    "objects": 0,
    "gpu_dialect": 1,
    "passes": 2,
    "targets": 3,
    "driver": 4,
}
"""The first component under ``xdsl_gpu`` → its layer. ``xdsl_gpu/__init__.py``, the
public entry, stands above them all."""

TOP = max(LAYERS.values()) + 1


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "xdsl_gpu":
        return None
    if len(parts) == 1:
        return TOP
    return LAYERS[parts[1]]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, module: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = (
                    package.rsplit(".", node.level - 1)[0]
                    if node.level > 1
                    else package
                )
                base = f"{anchor}.{base}" if base else anchor
            found.append((node.lineno, base))
            if base == "xdsl_gpu":  # from xdsl_gpu import compat
                found += [(node.lineno, f"xdsl_gpu.{a.name}") for a in node.names]
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_folder_has_a_layer() -> None:
    for path in MODULES:
        module = module_name(path)
        assert layer_of(module) is not None, module


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_imports_point_down(path: Path) -> None:
    module = module_name(path)
    mine = layer_of(module)
    assert mine is not None
    upward = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: imports {name}"
        for line, name in imported_modules(path, module)
        if name.startswith("xdsl_gpu.")
        and (theirs := layer_of(name)) is not None
        and theirs > mine
    ]
    assert not upward, "\n".join(upward)


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    source = "def f():\n    from xdsl_gpu.passes import get_all_passes\n"
    path = tmp_path / "x.py"
    path.write_text(source)
    names = [name for _, name in imported_modules(path, "xdsl_gpu.gpu_dialect.x")]
    assert names == ["xdsl_gpu.passes"]
    assert layer_of(names[0]) > layer_of("xdsl_gpu.gpu_dialect.x")  # type: ignore[operator]
