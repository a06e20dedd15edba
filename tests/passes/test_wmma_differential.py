"""The WMMA lowering of ``convert-gpu-to-nvvm`` against ``mlir-opt-22``, whole outputs.

Each chunk of ``tests/filecheck/passes/convert-gpu-to-nvvm-wmma.mlir`` is lowered by
us and by ``mlir-opt-22 --convert-gpu-to-nvvm``; ours, printed through mlir-opt-22 so
that both have one printer, must equal upstream's but for SSA and block names. The
elementwise ops MLIR 22 cannot lower (it crashes) must lower here, to IR that
mlir-translate-22 accepts.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

XDSL_OPT = shutil.which("xdsl-opt") or "xdsl-opt"
MLIR_OPT = shutil.which("mlir-opt-22")
MLIR_TRANSLATE = shutil.which("mlir-translate-22")
requires_mlir = pytest.mark.skipif(
    None in (MLIR_OPT, MLIR_TRANSLATE), reason="mlir-opt-22/mlir-translate-22 missing"
)

SOURCE = Path(__file__).parent.parent / "filecheck/passes/convert-gpu-to-nvvm-wmma.mlir"
CHUNKS = [c for c in SOURCE.read_text().split("// -----") if "gpu.module" in c]


def _tool(*args: str, text: str) -> str:
    done = subprocess.run(args, input=text, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _ours(text: str, *, reconcile: bool = False) -> str:
    """Through ``xdsl-opt``, as users run it."""
    passes = "convert-gpu-to-nvvm" + (
        ",reconcile-unrealized-casts" if reconcile else ""
    )
    return _tool(XDSL_OPT, "-p", passes, text=text)


def _normalized(text: str) -> str:
    assert MLIR_OPT is not None
    printed = _tool(MLIR_OPT, text=text)
    return re.sub(r"([%^])[\w.$-]+", r"\1v", printed)


@requires_mlir
@pytest.mark.parametrize("chunk", CHUNKS, ids=[f"chunk{i}" for i in range(len(CHUNKS))])
def test_same_ir_as_mlir_opt(chunk: str) -> None:
    assert MLIR_OPT is not None
    upstream = _tool(MLIR_OPT, "--convert-gpu-to-nvvm", text=chunk)
    assert _normalized(_ours(chunk)) == _normalized(upstream)


BEYOND = """
gpu.module @m {
  func.func @f(%a: !gpu.mma_matrix<16x16xf16, "COp">, %b: !gpu.mma_matrix<16x16xf16, "COp">, %i: !gpu.mma_matrix<16x16xi32, "COp">) -> (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) {
    %0 = gpu.subgroup_mma_elementwise subf %a, %b : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %1 = gpu.subgroup_mma_elementwise negatef %0 : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %2 = gpu.subgroup_mma_elementwise extf %1 : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    %3 = gpu.subgroup_mma_elementwise addi %i, %i : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
    %4 = gpu.subgroup_mma_elementwise negates %3 : (!gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
    %5 = gpu.subgroup_mma_elementwise divs %4, %i : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
    return %2, %5 : !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">
  }
}
"""


@requires_mlir
def test_beyond_mlir_22() -> None:
    assert MLIR_OPT is not None
    assert MLIR_TRANSLATE is not None
    crashed = subprocess.run(
        [MLIR_OPT, "--convert-gpu-to-nvvm"],
        input=BEYOND,
        capture_output=True,
        text=True,
    )
    assert crashed.returncode != 0  # when MLIR lowers these, compare with it instead
    lowered = _ours(BEYOND, reconcile=True)
    for op in ("llvm.fsub", "llvm.fneg", "llvm.fpext", "llvm.add", "llvm.sdiv"):
        assert op in lowered
    # mlir-translate only takes a builtin.module of llvm ops: unwrap the gpu.module.
    body = lowered.split("gpu.module @m {", 1)[1].rsplit("}", 2)[0]
    _tool(MLIR_TRANSLATE, "--mlir-to-llvmir", text=body)
