"""``convert-nvgpu-to-nvvm`` against ``mlir-opt-22``, on the sm_90 ops (mbarrier, TMA,
warpgroup).

* Every case of ``tests/filecheck/passes/convert-nvgpu-to-nvvm-hopper.mlir`` is lowered
  by our pass and by ``mlir-opt-22 --convert-nvgpu-to-nvvm``; both results, printed
  again by ``mlir-opt-22`` (which renumbers the values), must be the same text.
* The GPU programs ``tests/filecheck/integration/hopper-*.mlir`` go through
  ``gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90a cubin-features=+ptx80
  cubin-format=isa}`` both ways; the PTX must have the same instructions in the same
  order.

Skipped without ``mlir-opt-22``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from xdsl.context import Context

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu import register_dialects
from xdsl_gpu.passes.convert_nvgpu_to_nvvm import ConvertNVGPUToNVVMPass
from xdsl_gpu.passes.gpu_lower_to_nvvm_pipeline import GpuLowerToNVVMPipelinePass

MLIR_OPT = shutil.which("mlir-opt-22")
pytestmark = pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 missing")

TESTS = Path(__file__).parents[1]
CASES = TESTS / "filecheck/passes/convert-nvgpu-to-nvvm-hopper.mlir"
PROGRAMS = sorted((TESTS / "filecheck/integration").glob("hopper-*.mlir"))

PIPELINE_OPTIONS = "cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=isa"
"""mlir-opt-22's options; the test builds our pipeline with the same values."""


def _context() -> Context:
    ctx = make_context()
    register_dialects(ctx)
    return ctx


def _cases() -> list[str]:
    return [c for c in CASES.read_text().split("// -----") if "func.func" in c]


def _case_id(case: str) -> str:
    found = re.search(r"func\.func @(\w+)", case)
    assert found is not None
    return found.group(1)


def _mlir_opt(text: str, *args: str) -> str:
    assert MLIR_OPT is not None
    done = subprocess.run(
        [MLIR_OPT, *args], input=text, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("case", _cases(), ids=_case_id)
def test_lowering_is_mlir_opts(case: str) -> None:
    ctx = _context()
    module = parse(case, ctx)
    ConvertNVGPUToNVVMPass().apply(ctx, module)
    ours = _mlir_opt(print_module(module))
    theirs = _mlir_opt(_mlir_opt(case, "--convert-nvgpu-to-nvvm"))
    assert ours == theirs


def _ptx(lowered: str) -> str:
    found = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', lowered)
    assert found is not None, "no PTX in the gpu.binary"
    return re.sub(
        r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), found.group(1)
    )


def instructions(ptx: str) -> tuple[list[str], list[str]]:
    """The PTX's lines in order (comments and blank lines dropped), and its
    declarations of shared buffers sorted (their order may differ)."""
    kept: list[str] = []
    shared: list[str] = []
    for line in ptx.splitlines():
        line = line.split("//", 1)[0].strip()
        if not line:
            continue
        (shared if line.startswith(".shared") else kept).append(line)
    return kept, sorted(shared)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_ptx_is_mlir_opts(program: Path) -> None:
    source = program.read_text()
    theirs = _ptx(_mlir_opt(source, f"--gpu-lower-to-nvvm-pipeline={PIPELINE_OPTIONS}"))
    ctx = _context()
    module = parse(source, ctx)
    GpuLowerToNVVMPipelinePass(
        cubin_chip="sm_90a", cubin_features="+ptx80", cubin_format="isa"
    ).apply(ctx, module)
    ours = _ptx(print_module(module))
    assert instructions(ours) == instructions(theirs)
