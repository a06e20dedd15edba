"""Import cycles in xdsl-gpu (issue 11): the ones that were broken stay broken; and,
as a script, a report of every upward import and every cycle
(``tests/test_layering.py`` is the test of the layers themselves).

Order: ``diagnostics``/``compat``/``objects`` < ``gpu_dialect`` < ``passes`` <
``targets`` < ``driver`` (the package's ``__init__``, the public API, counts as the
driver). Every ``import``/``from ... import`` counts, including those inside
functions; those under ``if TYPE_CHECKING:`` never run and make no cycle.

Run as a script to print every upward import and every import cycle::

    python3 tests/test_import_cycles.py
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "xdsl_gpu"

LAYERS = {
    "diagnostics": 0,
    "compat": 0,
    "objects": 0,
    "gpu_dialect": 1,
    "passes": 2,
    "targets": 3,
    "driver": 4,
}
LAYER_NAMES = (
    "diagnostics/compat/objects",
    "gpu_dialect",
    "passes",
    "targets",
    "driver",
)
TOP = 4
"""``xdsl_gpu/__init__.py`` (the public API) is at the driver's level."""

BROKEN_CYCLES = (
    ("xdsl_gpu.targets.offloading.select_object", "xdsl_gpu.targets.offloading.select_best"),
    ("xdsl_gpu.passes.xgpu_check_kernel_abi", "xdsl_gpu.passes.xgpu_embed_object_files"),
)  # fmt: skip


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) < 2:
        return TOP
    return LAYERS.get(parts[1], TOP)


def _resolve(name: str) -> str | None:
    """The xdsl-gpu module ``name`` stands for (the longest known prefix)."""
    known = modules()
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
        parts.pop()
    return None


def imports(module: str) -> list[Edge]:
    path = modules()[module]
    tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    # Imports only for type checkers never run: no cycle at run time.
    type_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for stmt in node.body
        for inner in ast.walk(stmt)
    }
    edges: list[Edge] = []
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                drop = node.level - (1 if is_package else 0)
                anchor = anchor[: len(anchor) - drop] if drop else anchor
                base = ".".join([*anchor, base] if base else anchor)
            # `from pkg import sub` imports the submodule when there is one.
            names = [f"{base}.{alias.name}" for alias in node.names] or [base]
            names = [n if _resolve(n) == n else base for n in names]
        for name in names:
            if not name.startswith("xdsl_gpu"):
                continue
            target = _resolve(name)
            if target is not None and target != module:
                edges.append(Edge(module, target, node.lineno))
    return edges


def upward_imports() -> list[Edge]:
    return [
        edge
        for module in modules()
        for edge in imports(module)
        if layer(edge.target) > layer(module)
    ]


def cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    graph = {m: sorted({e.target for e in imports(m)}) for m in modules()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for succ in graph[node]:
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in graph:
        if node not in index:
            visit(node)
    return found


def _describe(edge: Edge) -> str:
    path = modules()[edge.source].relative_to(ROOT)
    return (
        f"{path}:{edge.line}: {edge.source} ({LAYER_NAMES[layer(edge.source)]}) "
        f"imports {edge.target} ({LAYER_NAMES[layer(edge.target)]})"
    )


# ---------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------


def test_the_layers_are_known() -> None:
    assert "xdsl_gpu.objects.object_info" in modules()
    assert layer("xdsl_gpu.objects.object_info") == 0
    assert layer("xdsl_gpu.gpu_dialect.gpu.interfaces") == 1
    assert layer("xdsl_gpu.passes.gpu_module_to_binary") == 2
    assert layer("xdsl_gpu.targets.nvvm.serializer") == 3
    assert layer("xdsl_gpu") == TOP


def test_objects_is_layer_zero() -> None:
    """``xdsl_gpu.objects`` needs neither xDSL nor any other layer."""
    for module in (m for m in modules() if m.startswith("xdsl_gpu.objects")):
        tree = ast.parse(modules()[module].read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert not name.startswith("xdsl."), module
                assert name != "xdsl", module
                if name.startswith("xdsl_gpu"):
                    assert name.startswith(
                        ("xdsl_gpu.diagnostics", "xdsl_gpu.objects")
                    ), (module, name)


def test_broken_cycles_stay_broken() -> None:
    components = cycles()
    for a, b in BROKEN_CYCLES:
        for component in components:
            assert not (a in component and b in component), component


def test_the_graph_has_function_level_imports() -> None:
    """``lower_offloading`` used to import ``select_best`` inside a function; the
    graph sees such imports (``driver/universe`` imports ``targets`` at the top,
    ``runtime.api`` imports ``passes`` inside functions)."""
    targets = {e.target for e in imports("xdsl_gpu.targets.runtime.api")}
    assert "xdsl_gpu.passes.gpu_module_to_binary" in targets


if __name__ == "__main__":
    upward = upward_imports()
    for edge in upward:
        print("upward:", _describe(edge))
    found = cycles()
    for component in found:
        print("cycle:", " <-> ".join(component))
    print(f"{len(upward)} upward imports, {len(found)} import cycles")
    sys.exit(1 if upward else 0)
