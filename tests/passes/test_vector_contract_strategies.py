"""``vector.contract`` under each ``vector-contract-lowering`` strategy, against
mlir-opt-22 with the same strategy, run by mlir-runner-22 (and by our JIT): the
shapes of ``vector_programs/contract.mlir`` and the masked contraction of
``mask.mlir``, and the contractions that only the
``outerproduct`` strategy lowers (mixed precision, ``<mul>``, ``<maxnumf>``).
Skips without mlir-opt-22/mlir-runner-22."""

from __future__ import annotations

import re
import sys

import pytest

from tests.passes.test_vector_runner import (
    _JIT_CHILD,  # pyright: ignore[reportPrivateUsage]
    MLIR_OPT,
    PIPELINE,
    PROGRAMS,
    UPSTREAM_PIPELINE,
    _run,  # pyright: ignore[reportPrivateUsage]
    _runner,  # pyright: ignore[reportPrivateUsage]
    requires_runner,
)
from tests.support.xdsl_tools import print_module
from xdsl_gpu.passes import get_all_passes
from xdsl_gpu.passes.convert_vector_to_llvm import ConvertVectorToLLVMPass
from xdsl_gpu.passes.registration import REPLACED_PASSES
from xdsl_gpu.targets.runtime.api import parse_program, program_context

STRATEGIES = ("dot", "outerproduct", "parallelarith")

OUTERPRODUCT_ONLY = """
func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf16>
  %b = arith.constant dense<[[1.0, 0.5], [2.0, -1.0], [0.0, 3.0]]> : vector<3x2xf16>
  %c = arith.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : vector<2x2xf32>
  %mixed = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf16>, vector<3x2xf16> into vector<2x2xf32>
  vector.print %mixed : vector<2x2xf32>
  %ia = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi8>
  %ib = arith.constant dense<[[100, -1], [2, 3]]> : vector<2x2xi8>
  %ic = arith.constant dense<1000> : vector<2x2xi32>
  %imixed = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ia, %ib, %ic : vector<2x2xi8>, vector<2x2xi8> into vector<2x2xi32>
  vector.print %imixed : vector<2x2xi32>
  %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
  %y = arith.constant dense<[[1.0, 0.5], [2.0, -1.0], [0.5, 3.0]]> : vector<3x2xf32>
  %one = arith.constant dense<1.0> : vector<2x2xf32>
  %mul = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<mul>} %x, %y, %one : vector<2x3xf32>, vector<3x2xf32> into vector<2x2xf32>
  vector.print %mul : vector<2x2xf32>
  %v = arith.constant dense<[1.0, -2.0, 3.0]> : vector<3xf32>
  %acc = arith.constant dense<[0.0, 0.0]> : vector<2xf32>
  %max = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<maxnumf>} %x, %v, %acc : vector<2x3xf32>, vector<3xf32> into vector<2xf32>
  vector.print %max : vector<2xf32>
  return
}
"""


def _ours(source: str, strategy: str, transpose: str = "eltwise") -> str:
    module = parse_program(source)
    ctx = program_context()
    passes = {**get_all_passes(), **REPLACED_PASSES}
    for name in PIPELINE:
        if name == "convert-vector-to-llvm":
            ConvertVectorToLLVMPass(
                vector_contract_lowering=strategy,
                vector_transpose_lowering=transpose,
            ).apply(ctx, module)
        else:
            passes[name]()().apply(ctx, module)
    module.verify()
    return print_module(module)


def _upstream(source: str, strategy: str, transpose: str = "eltwise") -> str:
    assert MLIR_OPT is not None
    pipeline = UPSTREAM_PIPELINE.replace(
        "convert-vector-to-llvm",
        f"convert-vector-to-llvm{{vector-contract-lowering={strategy} "
        f"vector-transpose-lowering={transpose}}}",
    )
    lowered = _run([MLIR_OPT, f"--pass-pipeline=builtin.module({pipeline})"], source)
    return _runner(lowered)


@requires_runner
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("program", ["contract.mlir", "mask.mlir"])
def test_contract_shapes_match_mlir_runner(program: str, strategy: str) -> None:
    """Also ``mask.mlir``: its masked contraction, by masked outer products with
    ``outerproduct``, by masked dot products otherwise."""
    source = (PROGRAMS / program).read_text()
    expected = _upstream(source, strategy)
    lowered = _ours(source, strategy)
    assert re.search(r"(?<![\w.])vector\.", lowered) is None
    assert _runner(lowered) == expected
    assert _run([sys.executable, "-c", _JIT_CHILD], lowered) == expected


@requires_runner
def test_shuffle1d_transposes_match_mlir_runner() -> None:
    """``vector-transpose-lowering=shuffle1d``: a 2-D transpose is one shuffle of the
    flattened vector (``compute.mlir`` transposes). The ``llvmintr`` strategies are
    checked by text only (``convert-vector-to-llvm-llvmintr.mlir``): LLVM's matrix
    intrinsics need its lower-matrix-intrinsics pass, which mlir-runner-22 does not
    run (it stops in instruction selection on upstream's own lowering)."""
    source = (PROGRAMS / "compute.mlir").read_text()
    expected = _upstream(source, "dot", "shuffle1d")
    lowered = _ours(source, "dot", "shuffle1d")
    assert "llvm.shufflevector" in lowered
    assert _runner(lowered) == expected
    assert _run([sys.executable, "-c", _JIT_CHILD], lowered) == expected


@requires_runner
def test_outerproduct_lowers_mixed_precision_and_other_kinds() -> None:
    expected = _upstream(OUTERPRODUCT_ONLY, "outerproduct")
    lowered = _ours(OUTERPRODUCT_ONLY, "outerproduct")
    assert re.search(r"(?<![\w.])vector\.", lowered) is None
    assert _runner(lowered) == expected


@pytest.mark.parametrize("strategy", ["dot", "parallelarith"])
def test_other_strategies_leave_mixed_precision_and_mul_as_upstream(
    strategy: str,
) -> None:
    """Upstream's dot and progressive lowerings take ``<add>`` with one element
    type only; the contraction stays (mlir-opt-22 leaves it too)."""
    module = parse_program(OUTERPRODUCT_ONLY)
    ConvertVectorToLLVMPass(vector_contract_lowering=strategy).apply(
        program_context(), module
    )
    assert print_module(module).count("vector.contract") == 4
