"""Generate ``docs/reference/index.md``: every op, attribute and type of the dialects
this package defines, with the module that defines it and its one-line summary.

``python -m xdsl_gpu.gpu_dialect.reference_index > docs/reference/index.md``; a test checks
that the committed file is what this prints, so the index cannot drift.
"""

from __future__ import annotations

import inspect

from xdsl.ir import Dialect, TypeAttribute


def _summary(definition: type) -> str:
    doc = inspect.getdoc(definition) or ""
    first = doc.strip().split("\n\n", 1)[0].replace("\n", " ").strip()
    return first.replace("|", "\\|")


def _dialects() -> list[Dialect]:
    from xdsl_gpu.gpu_dialect.gpu import GPU
    from xdsl_gpu.gpu_dialect.nvvm import NVVM
    from xdsl_gpu.gpu_dialect.rocdl import ROCDL

    dialects = [GPU, NVVM, ROCDL]
    try:
        from xdsl_gpu.gpu_dialect.xgpu import XGPU
    except ImportError:
        return dialects
    return [*dialects, XGPU]


def render() -> str:
    lines = [
        "# Reference index",
        "",
        "Every op, attribute and type that xdsl-gpu defines, generated from the code",
        "(`python -m xdsl_gpu.gpu_dialect.reference_index`). The pages beside this one give the",
        "syntax and examples of each family.",
        "",
    ]
    for dialect in _dialects():
        lines += [
            f"## `{dialect.name}`",
            "",
            "| name | kind | defined in | summary |",
            "|---|---|---|---|",
        ]
        rows: list[tuple[str, str, str, str]] = []
        for op in dialect.operations:
            rows.append((op.name, "op", op.__module__, _summary(op)))
        for attr in dialect.attributes:
            kind = "type" if issubclass(attr, TypeAttribute) else "attribute"
            sigil = "!" if kind == "type" else "#"
            rows.append((f"{sigil}{attr.name}", kind, attr.__module__, _summary(attr)))
        for name, kind, module, summary in sorted(rows):
            lines.append(f"| `{name}` | {kind} | `{module}` | {summary} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(render(), end="")
