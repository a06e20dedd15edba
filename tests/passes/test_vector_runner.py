"""Host vector programs (``tests/passes/vector_programs/*.mlir``) run on the CPU,
lowered by our passes and by MLIR 22, and print the same.

* upstream: ``mlir-opt-22`` with the pipeline below (plus the two passes upstream
  needs besides), run by ``mlir-runner-22``;
* ours: our passes in-process, translated by our LLVM IR emission
  (``xdsl_gpu/targets/llvm_ir``) and run by :class:`xdsl_gpu.targets.cpu_jit.CpuJit`
  in a child process (``vector.print`` writes to the C stdout);
* ours through upstream's runner: our lowered MLIR run by ``mlir-runner-22``.

The three outputs must be equal. The tests skip without mlir-runner-22.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.xdsl_tools import print_module
from xdsl_gpu.passes import get_all_passes
from xdsl_gpu.passes.registration import REPLACED_PASSES
from xdsl_gpu.targets.runtime.api import parse_program, program_context

PROGRAMS = Path(__file__).parent / "vector_programs"
PIPELINE = (
    "lower-vector-mask",
    "convert-vector-to-scf",
    "lower-affine",
    "convert-scf-to-cf",
    "convert-vector-to-llvm",
    "finalize-memref-to-llvm",
    "convert-arith-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    "reconcile-unrealized-casts",
)
UPSTREAM_PIPELINE = ",".join(
    [
        # Upstream's convert-vector-to-llvm leaves inner multi_reductions and ub.poison
        # to these two passes; ours lowers both itself.
        # and its lower-vector-mask runs on functions.
        "func.func(lower-vector-mask,lower-vector-multi-reduction)",
        *PIPELINE[1:5],
        "convert-ub-to-llvm",
        *PIPELINE[5:],
    ]
)
MLIR_OPT = shutil.which("mlir-opt-22")
MLIR_RUNNER = shutil.which("mlir-runner-22")
requires_runner = pytest.mark.skipif(
    None in (MLIR_OPT, MLIR_RUNNER), reason="mlir-opt-22/mlir-runner-22 missing"
)

_JIT_CHILD = """
import sys
from xdsl_gpu.targets.cpu_jit import CpuJit, runner_utils_libraries
CpuJit(sys.stdin.read(), shared_libs=runner_utils_libraries()).call("main")
"""


def ours(source: str) -> str:
    module = parse_program(source)
    ctx = program_context()
    passes = {**get_all_passes(), **REPLACED_PASSES}
    for name in PIPELINE:
        passes[name]()().apply(ctx, module)
    module.verify()
    return print_module(module)


def _run(args: list[str], stdin: str) -> str:
    done = subprocess.run(
        args, input=stdin, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _runner(lowered: str) -> str:
    from xdsl_gpu.targets.cpu_jit import runner_utils_libraries

    assert MLIR_RUNNER is not None
    libs = [f"-shared-libs={lib}" for lib in runner_utils_libraries()]
    return _run([MLIR_RUNNER, "-e=main", "-entry-point-result=void", *libs], lowered)


def programs() -> list[str]:
    return sorted(p.name for p in PROGRAMS.glob("*.mlir"))


def test_programs_are_found() -> None:
    assert {"transfer_2d.mlir", "masked.mlir", "print.mlir", "compute.mlir"} <= set(
        programs()
    )


@pytest.mark.parametrize("name", programs())
def test_no_vector_op_is_left(name: str) -> None:
    lowered = ours((PROGRAMS / name).read_text())
    assert re.search(r"(?<![\w.])vector\.", lowered) is None


@requires_runner
@pytest.mark.parametrize("name", programs())
def test_output_matches_mlir_runner(name: str) -> None:
    source = (PROGRAMS / name).read_text()
    assert MLIR_OPT is not None
    upstream_lowered = _run(
        [MLIR_OPT, f"--pass-pipeline=builtin.module({UPSTREAM_PIPELINE})"], source
    )
    expected = _runner(upstream_lowered)
    assert expected.strip(), "the program prints nothing"
    lowered = ours(source)
    jit = _run([sys.executable, "-c", _JIT_CHILD], lowered)
    assert jit == expected
    assert _runner(lowered) == expected


@requires_runner
def test_contract_outerproduct_strategy_gives_the_same_results() -> None:
    """``vector-contract-lowering=outerproduct`` against the default (``dot``): the
    matmul's values are exact in f32, so the prints are equal."""
    from xdsl_gpu.passes.convert_vector_to_llvm import ConvertVectorToLLVMPass

    source = (PROGRAMS / "compute.mlir").read_text()
    module = parse_program(source)
    ctx = program_context()
    passes = {**get_all_passes(), **REPLACED_PASSES}
    for name in PIPELINE:
        if name == "convert-vector-to-llvm":
            ConvertVectorToLLVMPass(vector_contract_lowering="outerproduct").apply(
                ctx, module
            )
        else:
            passes[name]()().apply(ctx, module)
    assert _runner(print_module(module)) == _runner(ours(source))


@requires_runner
@pytest.mark.parametrize("name", ["transfer_2d.mlir", "transfer_3d.mlir"])
def test_full_unroll_gives_the_same_output(name: str) -> None:
    """``convert-vector-to-scf{full-unroll=true}`` against the loop form (default)."""
    from xdsl_gpu.passes.convert_vector_to_scf import ConvertVectorToSCFPass

    source = (PROGRAMS / name).read_text()
    module = parse_program(source)
    ctx = program_context()
    passes = {**get_all_passes(), **REPLACED_PASSES}
    for pass_name in PIPELINE:
        if pass_name == "convert-vector-to-scf":
            ConvertVectorToSCFPass(full_unroll=True).apply(ctx, module)
        else:
            passes[pass_name]()().apply(ctx, module)
    assert _runner(print_module(module)) == _runner(ours(source))
