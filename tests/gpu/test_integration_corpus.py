"""The integration corpus (``tests/filecheck/integration``), run on the GPU from pytest
so that ``benchmarks/run_gpu.sh`` covers it: each program's own RUN line (upstream's
pipeline flags in ``xdsl-opt``, then ``xdsl-gpu-run``) and its CHECK lines.

The programs are written in the style of upstream's ``mlir/test/Integration/GPU/CUDA``
tests (all-reduce of each kind, shuffle, two modules, several all-reduces, printf,
concurrent kernels, subgroup reductions) and print with the built-in runner
utilities, so nothing of MLIR is needed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).parents[1] / "filecheck" / "integration"

PROGRAMS = sorted(
    p.name
    for p in CORPUS.glob("*.mlir")
    if "REQUIRES: gpu" in p.read_text() and "XFAIL" not in p.read_text()
)

_RUN = re.compile(
    r"^// RUN: (.*\| xdsl-gpu-run - (?!.*--print-host-llvm).*?) \| filecheck"
)


def test_the_corpus_is_found() -> None:
    """Runs everywhere: the GPU tests below have their programs, each with one RUN
    line that runs it and one that only compiles it."""
    assert len(PROGRAMS) >= 10, PROGRAMS
    for name in PROGRAMS:
        text = (CORPUS / name).read_text()
        assert any(_RUN.match(line) for line in text.splitlines()), name
        assert "--check-prefix=COMPILE" in text, name
        assert name in (CORPUS / "compile.test").read_text(), name


def _command(name: str) -> str:
    path = CORPUS / name
    for line in path.read_text().splitlines():
        if match := _RUN.match(line):
            return match.group(1).replace("%s", str(path))
    raise AssertionError(f"{name} has no RUN line that runs it")


@pytest.mark.gpu
@pytest.mark.parametrize("name", PROGRAMS)
def test_program_prints_its_check_lines(name: str) -> None:
    filecheck = shutil.which("filecheck")
    if filecheck is None:  # pragma: no cover - a test dependency
        pytest.skip("filecheck is not installed")
    # The tools of this Python's environment first.
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", _command(name)],
        capture_output=True,
        timeout=300,
        env=env,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    checked = subprocess.run(
        [filecheck, str(CORPUS / name)],
        input=done.stdout,
        capture_output=True,
        timeout=60,
    )
    assert checked.returncode == 0, (
        checked.stderr.decode(errors="replace")
        + "\n--- output ---\n"
        + done.stdout.decode(errors="replace")
    )
