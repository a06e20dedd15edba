"""Differential test against upstream MLIR 22 (``mlir-opt-22``).

Every chunk of every valid filecheck input under ``tests/filecheck/dialects`` (files
not named ``invalid*``, chunks without an ``expected-error``) is checked in both
directions:

* what xdsl-gpu prints, mlir-opt-22 accepts, and prints exactly as it prints the
  original;
* what mlir-opt-22 prints, xdsl-gpu parses, and printing that back through
  mlir-opt-22 gives the same text again;
* the same two directions in the generic form (``--print-op-generic`` /
  ``--mlir-print-op-generic``), which shows that property and attribute names agree.

``test_every_op_and_attribute_is_compared`` checks that every op, attribute and type
of the ``gpu``, ``nvvm`` and ``rocdl`` dialects occurs in a compared chunk.

A chunk that upstream cannot parse (an xdsl-gpu extension) says why in a line
``// NO-MLIR-OPT: <reason>``. On CI mlir-opt-22 must be present (``.ci/run``
installs it); elsewhere the test is skipped without it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.xdsl_tools import parse, print_module

ROOT = Path(__file__).parent / "filecheck" / "dialects"
MLIR_OPT = shutil.which("mlir-opt-22")

if MLIR_OPT is None and os.environ.get("CI"):
    raise RuntimeError("CI needs mlir-opt-22 (Debian package mlir-22-tools)")


def _chunks() -> list[tuple[str, str]]:
    cases: list[tuple[str, str]] = []
    for path in sorted(ROOT.rglob("*.mlir")):
        if path.name.startswith("invalid"):
            continue
        text = path.read_text()
        if "RUN:" in text and "not xdsl-opt" in text:
            continue
        for i, chunk in enumerate(text.split("// -----")):
            body = "\n".join(
                line
                for line in chunk.splitlines()
                if not line.lstrip().startswith("//")
            )
            if not body.strip() or "NO-MLIR-OPT:" in chunk:
                continue
            if re.search(r"expected-error.*\{\{", chunk):  # a rejected case
                continue
            cases.append((f"{path.relative_to(ROOT)}#{i}", body))
    return cases


def _mlir_opt(text: str, *args: str) -> str:
    assert MLIR_OPT is not None
    done = subprocess.run(
        [MLIR_OPT, *args],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if done.returncode != 0:
        raise AssertionError(f"mlir-opt-22 rejected:\n{text}\n{done.stderr}")
    return done.stdout


CASES = _chunks()


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
@pytest.mark.parametrize(("name", "source"), CASES, ids=[c[0] for c in CASES])
def test_upstream_accepts_what_we_print(name: str, source: str) -> None:
    ours = print_module(parse(source))
    assert _mlir_opt(ours) == _mlir_opt(source)


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
@pytest.mark.parametrize(("name", "source"), CASES, ids=[c[0] for c in CASES])
def test_we_parse_what_upstream_prints(name: str, source: str) -> None:
    upstream = _mlir_opt(source)
    reparsed = print_module(parse(upstream))
    assert _mlir_opt(reparsed) == upstream


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
@pytest.mark.parametrize(("name", "source"), CASES, ids=[c[0] for c in CASES])
def test_generic_forms_agree(name: str, source: str) -> None:
    expected = _mlir_opt(source)
    ours = print_module(parse(source), generic=True)
    assert _mlir_opt(ours) == expected
    upstream = _mlir_opt(source, "--mlir-print-op-generic")
    assert _mlir_opt(print_module(parse(upstream))) == expected


def test_corpus_is_not_empty() -> None:
    assert len(CASES) >= 10, "the differential corpus lost its inputs"


def _occurs(name: str, text: str, *, attribute: bool) -> bool:
    if not attribute:
        return re.search(rf"(?<![\w.]){re.escape(name)}(?![\w.])", text) is not None
    dialect, rest = name.split(".", 1)
    return any(
        re.search(pattern, text)
        for pattern in (
            rf"[#!]{re.escape(name)}(?![\w.])",
            rf"[#!]{re.escape(dialect)}<{re.escape(rest)}(?![\w.])",
        )
    )


def test_every_op_and_attribute_is_compared() -> None:
    from xdsl_gpu.gpu_dialect.gpu import GPU
    from xdsl_gpu.gpu_dialect.nvvm import NVVM
    from xdsl_gpu.gpu_dialect.rocdl import ROCDL

    corpus = "\n".join(source for _, source in CASES)
    missing = [
        op.name
        for dialect in (GPU, NVVM, ROCDL)
        for op in dialect.operations
        if not _occurs(op.name, corpus, attribute=False)
    ] + [
        attr.name
        for dialect in (GPU, NVVM, ROCDL)
        for attr in dialect.attributes
        if not _occurs(attr.name, corpus, attribute=True)
    ]
    assert not missing, f"not in any chunk compared with mlir-opt-22: {missing}"
