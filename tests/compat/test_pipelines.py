"""MLIR's pass-pipeline syntax in stock xdsl-opt (``compat.upstream_pass_pipelines``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from xdsl_gpu.compat import mlir_pipeline_to_xdsl

HELLO = Path(__file__).parents[2] / "examples" / "hello" / "hello.mlir"


@pytest.mark.parametrize(
    ("upstream", "xdsl"),
    [
        (
            "gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=isa}",
            'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features="+ptx80" cubin-format=isa}',
        ),
        (
            "builtin.module(gpu.module(convert-gpu-to-nvvm),gpu-to-llvm)",
            "convert-gpu-to-nvvm,gpu-to-llvm",
        ),
        (
            "builtin.module(func.func(canonicalize), any(cse))",
            "canonicalize,cse",
        ),
        (
            "nvvm-attach-target{features=+ptx80,+sm_90a l=/lib/a.bc,b.bc}",
            'nvvm-attach-target{features="+ptx80","+sm_90a" l="/lib/a.bc","b.bc"}',
        ),
        ('x{ptxas-cmd-options="-v -O3"}', 'x{ptxas-cmd-options="-v -O3"}'),
        ('x{a="q(r)" b=1.5,2 c=true d=-3}', 'x{a="q(r)" b=1.5,2 c=true d=-3}'),
        ("mlir-opt[builtin.module(cse)]", "mlir-opt[builtin.module(cse)]"),
        ("canonicalize,cse", "canonicalize,cse"),
    ],
)
def test_mlir_pipelines_become_xdsl_pipelines(upstream: str, xdsl: str) -> None:
    assert mlir_pipeline_to_xdsl(upstream) == xdsl


def _opt(pipeline: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["xdsl-opt", str(HELLO), "-p", pipeline],
        capture_output=True, text=True, check=False,
    )  # fmt: skip


def test_upstream_options_reach_the_pass() -> None:
    done = _opt(
        "builtin.module(gpu-kernel-outlining,"
        "nvvm-attach-target{chip=sm_90a features=+ptx80,+sm_90a O=3})"
    )
    assert done.returncode == 0, done.stderr
    assert 'features = "+ptx80,+sm_90a"' in done.stdout
    assert 'chip = "sm_90a"' in done.stdout


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        (
            "gpu-lower-to-nvvm-pipelin",
            "unknown pass 'gpu-lower-to-nvvm-pipelin'; did you mean "
            "'gpu-lower-to-nvvm-pipeline'?",
        ),
        (
            "gpu-lower-to-nvvm-pipeline{opt-level=abc}",
            "option 'opt-level' of pass 'gpu-lower-to-nvvm-pipeline' takes an "
            "integer, not 'abc'",
        ),
        (
            "gpu-lower-to-nvvm-pipeline{kernel-bare-ptr-calling-convention=yes}",
            "option 'kernel-bare-ptr-calling-convention' of pass "
            "'gpu-lower-to-nvvm-pipeline' takes true, false or an integer, not 'yes'",
        ),
        (
            "gpu-lower-to-nvvm-pipeline{cubin-chp=sm_90}",
            "pass 'gpu-lower-to-nvvm-pipeline' has no option 'cubin-chp'; did you "
            "mean 'cubin-chip'?",
        ),
        (
            "nvvm-attach-target{bogus-option=1}",
            "pass 'nvvm-attach-target' has no option",
        ),
    ],
)
def test_bad_pipelines_are_one_line_diagnostics(pipeline: str, message: str) -> None:
    done = _opt(pipeline)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"xdsl-opt: error: {message}")
    assert done.stderr.count("\n") == 1


def _opt_args(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["xdsl-opt", str(HELLO), *args], capture_output=True, text=True, check=False
    )


def test_mlir_opt_pass_pipeline_flag_verbatim() -> None:
    """Seed 001's command, with mlir-opt's name changed to xdsl-opt."""
    done = _opt_args(
        "--pass-pipeline=builtin.module( gpu-kernel-outlining, "
        "nvvm-attach-target{chip=sm_90 O=3}, gpu.module(convert-gpu-to-nvvm), "
        "gpu-to-llvm, gpu-module-to-binary )"
    )
    assert done.returncode == 0, done.stderr
    assert "gpu.binary @main_kernel" in done.stdout


def test_one_flag_per_pass_as_mlir_opt() -> None:
    done = _opt_args(
        "-gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90a cubin-features=+ptx80 "
        "opt-level=3 cubin-format=isa"
    )
    assert done.returncode == 0, done.stderr
    assert "gpu.binary @main_kernel" in done.stdout
    assert ".target sm_90a" in done.stdout
    flags = _opt_args("--gpu-kernel-outlining", "--mlir-print-ir-after-all")
    assert flags.returncode == 0, flags.stderr
    assert "gpu.module @main_kernel" in flags.stdout


def test_mlir_timing() -> None:
    done = _opt_args(
        "-p", "gpu-kernel-outlining", "--gpu-async-region", "--mlir-timing"
    )
    assert done.returncode == 0, done.stderr
    assert "Pass gpu-kernel-outlining took" in done.stdout
    assert "Pass gpu-async-region took" in done.stdout
