"""The documentation is checked against the code, so that it cannot drift:

* every op, attribute and type of the ``gpu``, ``nvvm`` and ``xgpu`` dialects, and every
  pass and target of this package, is documented under ``docs/``;
* every ``mlir`` code block in ``docs/reference`` parses and verifies (blocks that show
  invalid IR or a fragment say so with ``<!-- not-checked: why -->`` right before them).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.xdsl_tools import parse
from xdsl_gpu.passes import get_all_passes
from xdsl_gpu.targets import get_all_targets

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _all_docs() -> str:
    return "\n".join(p.read_text() for p in DOCS.rglob("*.md"))


def _dialects():
    from xdsl_gpu.gpu_dialect.gpu import GPU
    from xdsl_gpu.gpu_dialect.nvvm import NVVM

    dialects = [GPU, NVVM]
    try:
        from xdsl_gpu.gpu_dialect.xgpu import XGPU
    except ImportError:
        return dialects
    return [*dialects, XGPU]


def _names() -> list[str]:
    names: list[str] = []
    for dialect in _dialects():
        names += [op.name for op in dialect.operations]
        names += [attr.name for attr in dialect.attributes]
    return sorted(set(names))


@pytest.mark.parametrize("name", _names())
def test_every_op_and_attribute_is_documented(name: str) -> None:
    # The generated index lists every definition; the family pages must name it too.
    family_pages = "\n".join(
        p.read_text() for p in (DOCS / "reference").glob("*.md") if p.name != "index.md"
    )
    short = name.split(".", 1)[1]
    assert (
        name in family_pages or f"<{short} " in family_pages or short in family_pages
    ), f"{name} is not documented in docs/reference/"


def test_generated_index_is_up_to_date() -> None:
    from xdsl_gpu.gpu_dialect.reference_index import render

    committed = (DOCS / "reference" / "index.md").read_text()
    assert committed == render(), (
        "docs/reference/index.md is stale: python -m xdsl_gpu.gpu_dialect.reference_index "
        "> docs/reference/index.md"
    )


@pytest.mark.parametrize("name", sorted(get_all_passes()))
def test_every_pass_is_documented(name: str) -> None:
    assert f"`{name}`" in _all_docs(), f"pass {name} is not documented under docs/"


@pytest.mark.parametrize("name", sorted(get_all_targets()))
def test_every_target_is_documented(name: str) -> None:
    assert f"-t {name}" in _all_docs(), f"target {name} is not documented under docs/"


def _reference_blocks() -> list[tuple[str, str]]:
    blocks: list[tuple[str, str]] = []
    for path in sorted((DOCS / "reference").glob("*.md")):
        text = path.read_text()
        for i, match in enumerate(
            re.finditer(r"(<!-- not-checked[^>]*-->\s*)?```mlir\n(.*?)```", text, re.S)
        ):
            if match.group(1):
                continue
            blocks.append((f"{path.name}#{i}", match.group(2)))
    return blocks


BLOCKS = _reference_blocks()


@pytest.mark.parametrize(("where", "source"), BLOCKS, ids=[b[0] for b in BLOCKS])
def test_reference_examples_parse(where: str, source: str) -> None:
    parse(source)
