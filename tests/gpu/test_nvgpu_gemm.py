"""The nvgpu tensor-core GEMM of ``benchmarks/nvgpu_gemm_kernel.py`` (TMA, mbarrier
pipeline, ``nvgpu.warpgroup.mma``), small sizes.

Without a GPU: the program compiles through ``gpu-lower-to-nvvm-pipeline`` for
sm_90a, and its PTX is mlir-opt-22's (where installed). On the GPU (marker ``gpu``):
the whole program (host side included: ``nvgpu.tma.create.descriptor``, a launch
with more than 48 KiB of dynamic shared memory) is loaded by the runtime and called
on NumPy arrays of small integers, so that every f32 sum is exact and C must equal
NumPy's product exactly.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from nvgpu_gemm_kernel import GemmConfig, gemm_mlir  # pyright: ignore[reportMissingImports]

from tests.support.mlir_differential import DYNAMIC_SHMEM, split_dynamic_shmem

OPTIONS = 'cubin-chip=sm_90a cubin-features="+ptx80"'  # xDSL's option syntax
ISA = "cubin-format=isa opt-level=3 kernel-bare-ptr-calling-convention=1"
CONFIGS = [
    GemmConfig(128, 128, 128, stages=2, wait_group=1),
    GemmConfig(256, 384, 512, stages=3, wait_group=1),  # parity flips, 6 CTAs
    GemmConfig(256, 384, 256, stages=2, wait_group=1, group_m=2),  # grouped raster
    GemmConfig(256, 128, 512, stages=4, wait_group=0),
    GemmConfig(128, 256, 256, stages=4, wait_group=1, warpgroups=2),  # 128x256
    GemmConfig(256, 512, 512, stages=3, wait_group=1, group_m=2, warpgroups=2),
]
IDS = [c.name for c in CONFIGS]


def _ptx(module: object) -> str:
    from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp

    (binary,) = [op for op in module.walk() if isinstance(op, BinaryOp)]  # type: ignore[attr-defined]
    (obj,) = binary.objects.data
    return obj.object.data.decode()  # pyright: ignore[reportAttributeAccessIssue]


def _ours(config: GemmConfig) -> str:
    from xdsl_gpu.targets.runtime.api import (
        parse_program,
        pipeline_pass,
        program_context,
    )

    module = parse_program(gemm_mlir(config), config.name)
    pipeline_pass(f"{OPTIONS} {ISA}").apply(program_context(), module)
    return _ptx(module)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_compiles_as_mlir_opt_22(config: GemmConfig) -> None:
    ours = _ours(config)
    assert ours.count("wgmma.mma_async") >= 8
    assert "cp.async.bulk.tensor.2d" in ours
    if shutil.which("mlir-opt-22") is None:
        pytest.skip("no mlir-opt-22 to compare with")
    from xdsl_gpu.targets.runtime.api import parse_program

    done = subprocess.run(
        ["mlir-opt-22", "-", "--gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90a cubin-features=+ptx80 " + ISA],
        input=gemm_mlir(config), capture_output=True, text=True, check=True,
    )  # fmt: skip
    theirs = _ptx(parse_program(done.stdout, "mlir-opt-22 output"))
    ours_rest, ours_decl = split_dynamic_shmem(ours)
    theirs_rest, theirs_decl = split_dynamic_shmem(theirs)
    assert ours_decl == [f".extern .shared .align 1024 .b8 {DYNAMIC_SHMEM}[];"]
    assert f".shared .align 16 .b8 {DYNAMIC_SHMEM};" in theirs_decl
    assert ours_rest == theirs_rest


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="multiples of 128x128x64"):
        GemmConfig(100, 128, 128)
    with pytest.raises(ValueError, match="stages"):
        GemmConfig(128, 128, 128, stages=3)  # two K slices only
    with pytest.raises(ValueError, match="group_m"):
        GemmConfig(384, 128, 128, stages=2, group_m=2)


@pytest.mark.gpu
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_gemm_on_the_gpu(config: GemmConfig) -> None:
    from xdsl_gpu.targets.runtime import load

    rng = np.random.default_rng(7)
    a = rng.integers(-3, 4, (config.m, config.k)).astype(np.float16)
    b = rng.integers(-3, 4, (config.k, config.n)).astype(np.float16)
    c = np.full((config.m, config.n), np.nan, dtype=np.float32)
    # Staged in managed memory: TMA reads device-visible memory, not pageable host.
    with load(
        gemm_mlir(config), pipeline_options=OPTIONS, stage_arrays=True
    ) as program:
        program.call("gemm", a, b, c)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
