"""``convert-nvgpu-to-nvvm`` against ``mlir-opt-22``, on the sm_80 ops.

* Every case of ``tests/filecheck/passes/convert-nvgpu-to-nvvm.mlir`` is lowered by our
  pass and by ``mlir-opt-22 --convert-nvgpu-to-nvvm``; both results, printed again by
  ``mlir-opt-22`` (which renumbers the values), must be the same text: the same ops,
  in the same order, with the same operands and attributes.
* The GPU programs ``tests/filecheck/integration/nvgpu-mma-sync-*.mlir`` go through
  ``gpu-lower-to-nvvm-pipeline{cubin-chip=sm_80 cubin-format=isa}`` both ways; the PTX
  must have the same instructions in the same order (declarations of the shared
  buffers may come in another order).

Skipped without ``mlir-opt-22``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.mlir_differential import (
    MLIR_OPT,
    case_id,
    mlir_opt,
    ptx_instructions,
    ptx_of,
    split_cases,
)
from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.passes.convert_nvgpu_to_nvvm import ConvertNVGPUToNVVMPass
from xdsl_gpu.passes.gpu_lower_to_nvvm_pipeline import GpuLowerToNVVMPipelinePass

pytestmark = pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 missing")

TESTS = Path(__file__).parents[1]
CASES = TESTS / "filecheck/passes/convert-nvgpu-to-nvvm.mlir"
PROGRAMS = sorted((TESTS / "filecheck/integration").glob("nvgpu-mma-sync-*.mlir"))

PIPELINE_OPTIONS = "cubin-chip=sm_80 cubin-features=+ptx80 cubin-format=isa"
"""mlir-opt-22's options; the test builds our pipeline with the same values."""


@pytest.mark.parametrize("case", split_cases(CASES), ids=case_id)
def test_lowering_is_mlir_opts(case: str) -> None:
    ctx = make_context()
    module = parse(case, ctx)
    ConvertNVGPUToNVVMPass().apply(ctx, module)
    ours = mlir_opt(print_module(module))
    theirs = mlir_opt(mlir_opt(case, "--convert-nvgpu-to-nvvm"))
    assert ours == theirs


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_ptx_is_mlir_opts(program: Path) -> None:
    source = program.read_text()
    ctx = make_context()
    module = parse(source, ctx)
    GpuLowerToNVVMPipelinePass(
        cubin_chip="sm_80", cubin_features="+ptx80", cubin_format="isa"
    ).apply(ctx, module)
    ours = ptx_instructions(ptx_of(print_module(module)))
    theirs = ptx_instructions(
        ptx_of(mlir_opt(source, f"--gpu-lower-to-nvvm-pipeline={PIPELINE_OPTIONS}"))
    )
    assert ours == theirs
    assert any(i.startswith("mma.sync.aligned") for i in ours[0])
