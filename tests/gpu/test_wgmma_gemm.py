"""The K-major wgmma GEMM of ``benchmarks/wgmma_gemm_kernel.py``, small sizes: FP8
(e4m3 or e5m2 A and B, f32 sums, per-tensor scales, bf16 C) and f16 (f32 C).

Without a GPU: the program compiles through ``gpu-lower-to-nvvm-pipeline`` for
sm_90a into ``.e4m3``/``.e5m2``/``.f16`` wgmma instructions, and its PTX is
mlir-opt-22's (where installed). On the GPU (marker ``gpu``): the whole program
(host side included) is loaded by the runtime and called; C (poisoned with NaN
first) is compared with an f64 product of the inputs (FP8: decoded, scaled, bf16).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from fp8_numbers import (  # pyright: ignore[reportMissingImports]
    bf16_bits_to_f32,
    e4m3_decode,
    e4m3_encode,
    e5m2_decode,
    e5m2_encode,
    f32_to_bf16_bits,
)
from wgmma_gemm_kernel import (  # pyright: ignore[reportMissingImports]
    WgmmaGemmConfig,
    wgmma_gemm_mlir,
)

from tests.support.mlir_differential import DYNAMIC_SHMEM, split_dynamic_shmem

OPTIONS = 'cubin-chip=sm_90a cubin-features="+ptx80"'  # xDSL's option syntax
ISA = "cubin-format=isa opt-level=3 kernel-bare-ptr-calling-convention=1"
CONFIGS = [
    WgmmaGemmConfig(128, 256, 256, stages=2),  # one CTA, two warpgroups of 64x256
    WgmmaGemmConfig(256, 512, 512, stages=3, wgmma_wait=2),  # parity flips, 4 CTAs
    WgmmaGemmConfig(384, 256, 512, stages=4, group_m=3),  # grouped raster
    WgmmaGemmConfig(256, 256, 384, stages=2, wgmma_wait=0, warpgroups=1, tile_n=128),
    WgmmaGemmConfig(256, 384, 512, stages=3, warpgroups=2, tile_n=128),
    WgmmaGemmConfig(256, 512, 512, stages=3, wgmma_wait=3, dtype="e5m2"),
    WgmmaGemmConfig(128, 256, 256, stages=2, dtype="f16"),  # K slices of 64 f16
    WgmmaGemmConfig(256, 512, 512, stages=4, wgmma_wait=3, dtype="f16"),
    WgmmaGemmConfig(384, 256, 512, stages=3, group_m=3, dtype="f16"),
    WgmmaGemmConfig(256, 384, 512, stages=3, warpgroups=1, tile_n=128, dtype="f16"),
    # 2-CTA clusters along M sharing B's slices (TMA multicast), one with the grouped
    # raster of clusters.
    WgmmaGemmConfig(256, 512, 1024, stages=3, wgmma_wait=3, dtype="f16", cluster_m=2),
    WgmmaGemmConfig(
        512, 512, 512, stages=2, wgmma_wait=1, group_m=2, cluster_m=2, tile_n=128
    ),
    # A producer warpgroup: full/empty barriers, more slices than stages.
    WgmmaGemmConfig(256, 512, 1024, stages=3, wgmma_wait=3, dtype="f16", producer=True),
    WgmmaGemmConfig(256, 512, 512, stages=2, wgmma_wait=0, producer=True),
    WgmmaGemmConfig(
        384, 256, 512, stages=3, group_m=3, warpgroups=1, tile_n=128, producer=True
    ),
]
IDS = [c.name for c in CONFIGS]
LONG_K = [
    WgmmaGemmConfig(256, 512, 1024, stages=4),
    WgmmaGemmConfig(128, 256, 768, stages=3, wgmma_wait=2, warpgroups=1, tile_n=128),
    WgmmaGemmConfig(256, 512, 1024, stages=4, wgmma_wait=3, dtype="f16"),
]
"""More K slices than LLVM unrolls fully: the loop carries the accumulators, whose
registers the wgmma inline asm reads through the loop's struct (the form of that
read, ``extractvalue %acc, 0, i``, decides LLVM's register numbering)."""
MAX_ERROR = 2.0**-7
"""Bound on ``|C - reference| / max |reference|``: bf16 rounding is 2^-9 of a value,
the tensor cores' FP8 sums are not exact f32; a wrong tile is off by ~1."""


def _ptx(module: object) -> str:
    from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp

    (binary,) = [op for op in module.walk() if isinstance(op, BinaryOp)]  # type: ignore[attr-defined]
    (obj,) = binary.objects.data
    return obj.object.data.decode()  # pyright: ignore[reportAttributeAccessIssue]


def _ours(config: WgmmaGemmConfig) -> str:
    from xdsl_gpu.targets.runtime.api import (
        parse_program,
        pipeline_pass,
        program_context,
    )

    module = parse_program(wgmma_gemm_mlir(config), config.name)
    pipeline_pass(f"{OPTIONS} {ISA}").apply(program_context(), module)
    return _ptx(module)


def _theirs(config: WgmmaGemmConfig) -> str:
    from xdsl_gpu.targets.runtime.api import parse_program

    done = subprocess.run(
        ["mlir-opt-22", "-", "--gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90a cubin-features=+ptx80 " + ISA],
        input=wgmma_gemm_mlir(config), capture_output=True, text=True, check=True,
    )  # fmt: skip
    return _ptx(parse_program(done.stdout, "mlir-opt-22 output"))


def _check_instructions(ours: str, config: WgmmaGemmConfig) -> None:
    wgmma = re.findall(r"wgmma\.mma_async\.sync\.aligned\.(\S+)", ours)
    # One instruction per 64-row block and 32-byte k step of a 128-byte slice (the
    # loop over slices may be unrolled).
    assert wgmma
    assert len(wgmma) % (config.blocks * 4) == 0, wgmma
    k = config.element.step_k
    dtype = config.dtype
    assert set(wgmma) == {f"m64n{config.tile_n}k{k}.f32.{dtype}.{dtype}"}
    assert ours.count("cp.async.bulk.tensor.2d") >= 2 * 2  # prologue and refill
    # FP8 converts the scaled sums to bf16; f16 stores them as they are.
    assert ("cvt.rn.bf16x2.f32" in ours) == config.element.scaled
    # With a producer warpgroup, registers move from it to the consumers.
    moves = re.findall(r"setmaxnreg\.(\w+)\.sync\.aligned\.u32\s+(\d+);", ours)
    assert sorted(moves) == ([("dec", "40"), ("inc", "232")] if config.producer else [])
    # Clusters: B's copies are multicast, each half of B's box by one CTA.
    multicast = re.findall(r"cp\.async\.bulk\.tensor\.2d\S*multicast::cluster", ours)
    assert bool(multicast) == (config.cluster_m > 1)
    # The cluster shape is the launch's (MLIR 22 writes no .reqnctapercluster).
    assert ".reqnctapercluster" not in ours
    # Both operands are K-major: the instruction's transpose immediates are 0.
    if not config.element.scaled:
        assert re.search(r"wgmma\.mma_async[^;]*, p, 1,\s+1, 0,\s+0;", ours)


def _same_but_shared_declaration(ours: str, theirs: str) -> tuple[str, str]:
    ours_rest, ours_decl = split_dynamic_shmem(ours)
    theirs_rest, theirs_decl = split_dynamic_shmem(theirs)
    assert ours_decl == [f".extern .shared .align 1024 .b8 {DYNAMIC_SHMEM}[];"]
    assert f".shared .align 16 .b8 {DYNAMIC_SHMEM};" in theirs_decl
    return ours_rest, theirs_rest


@pytest.mark.parametrize("config", CONFIGS + LONG_K, ids=IDS + [c.name for c in LONG_K])
def test_compiles_as_mlir_opt_22(config: WgmmaGemmConfig) -> None:
    ours = _ours(config)
    _check_instructions(ours, config)
    if shutil.which("mlir-opt-22") is None:
        pytest.skip("no mlir-opt-22 to compare with")
    ours_rest, theirs_rest = _same_but_shared_declaration(ours, _theirs(config))
    assert ours_rest == theirs_rest


def test_host_side_tensor_maps_are_uint8() -> None:
    """The tensor maps are made from ``ui8`` memrefs: CUtensorMapDataType 0
    (UINT8), not the 2-byte type MLIR 22 gives ``f8E4M3FN``."""
    from xdsl_gpu.targets.runtime.api import (
        parse_program,
        pipeline_pass,
        program_context,
    )

    config = CONFIGS[0]
    module = parse_program(wgmma_gemm_mlir(config), config.name)
    pipeline_pass(f"{OPTIONS} {ISA}").apply(program_context(), module)
    text = str(module)
    calls = re.findall(r"llvm\.call @mgpuTensorMapEncodeTiledMemref\(([^)]*)\)", text)
    assert len(calls) == 2
    for call in calls:
        data_type = call.split(",")[2].strip()
        constant = re.search(
            rf"{re.escape(data_type)} = llvm\.mlir\.constant\((\d+) : i32\) : i64",
            text,
        )
        assert constant is not None
        assert constant.group(1) == "0"


def test_bad_configurations_are_refused() -> None:
    with pytest.raises(ValueError, match="multiples of 128x256x128"):
        WgmmaGemmConfig(128, 128, 256)
    with pytest.raises(ValueError, match="registers"):
        WgmmaGemmConfig(128, 256, 256, stages=2, warpgroups=1)
    with pytest.raises(ValueError, match="stages"):
        WgmmaGemmConfig(128, 256, 256, stages=3)  # two K slices only
    with pytest.raises(ValueError, match="shared memory"):
        WgmmaGemmConfig(128, 256, 1024, stages=5)
    with pytest.raises(ValueError, match="wgmma_wait"):
        WgmmaGemmConfig(128, 256, 256, stages=2, wgmma_wait=5)
    with pytest.raises(ValueError, match="dtype is one of e4m3, e5m2, f16"):
        WgmmaGemmConfig(128, 256, 256, stages=2, dtype="bf16")
    with pytest.raises(ValueError, match="multiples of 128x256x64"):  # f16 slices
        WgmmaGemmConfig(128, 256, 96, stages=2, dtype="f16")


def test_e5m2_helpers() -> None:
    codes = np.arange(256, dtype=np.uint8)
    values = e5m2_decode(codes)
    assert np.isinf(values[[0x7C, 0xFC]]).all()
    assert np.isnan(values[0x7D])
    assert values[0x7B] == 57344.0
    assert values[0x3C] == 1.0
    assert values[1] == 2.0**-16
    finite = codes[np.isfinite(values)]
    np.testing.assert_array_equal(e5m2_encode(e5m2_decode(finite)), finite)
    # Ties to the even code; saturation at the largest finite value.
    assert e5m2_encode(np.array([1.125, 1.375, 1e6, -3.0])).tolist() == [
        0x3C, 0x3E, 0x7B, 0xC2,
    ]  # fmt: skip


def test_e4m3_and_bf16_helpers() -> None:
    codes = np.arange(256, dtype=np.uint8)
    values = e4m3_decode(codes)
    assert np.isnan(values[[0x7F, 0xFF]]).all()
    assert values[0x7E] == 448.0
    assert values[0x01] == 2.0**-9
    assert values[0x38] == 1.0
    finite = codes[~np.isnan(values)]
    np.testing.assert_array_equal(e4m3_encode(e4m3_decode(finite)), finite)
    # Halfway between 1 and 1.125 rounds to the even code (1.0).
    assert e4m3_encode(np.array([1.0625, 1000.0, -1000.0])).tolist() == [
        0x38, 0x7E, 0xFE,
    ]  # fmt: skip
    # Ties to even: 1 + 2^-8 to 1, 1 + 3 * 2^-8 to 1 + 2^-6.
    halves = np.array([1.0, 1.00390625, 1.01171875, -2.5], dtype=np.float32)
    back = bf16_bits_to_f32(f32_to_bf16_bits(halves))
    np.testing.assert_array_equal(back, [1.0, 1.0, 1.015625, -2.5])


@pytest.mark.gpu
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_wgmma_gemm_on_the_gpu(config: WgmmaGemmConfig) -> None:
    from xdsl_gpu.targets.runtime import load

    rng = np.random.default_rng(11)
    shape_a, shape_b = (config.m, config.k), (config.n, config.k)
    # Staged in managed memory: TMA reads device-visible memory, not pageable host.
    if not config.element.scaled:
        a = rng.uniform(-1, 1, shape_a).astype(np.float16)
        b = rng.uniform(-1, 1, shape_b).astype(np.float16)
        c = np.full((config.m, config.n), np.nan, dtype=np.float32)
        with load(
            wgmma_gemm_mlir(config), pipeline_options=OPTIONS, stage_arrays=True
        ) as program:
            program.call("gemm", a, b, c)
        assert not np.isnan(c).any(), f"{np.isnan(c).sum()} elements never written"
        expected = a.astype(np.float64) @ b.astype(np.float64).T
        # f32 sums of exact f16 products: off by rounding only.
        np.testing.assert_allclose(c, expected, rtol=0, atol=1e-3)
        return
    encode, decode = {
        "e4m3": (e4m3_encode, e4m3_decode),
        "e5m2": (e5m2_encode, e5m2_decode),
    }[config.dtype]
    a = encode(rng.uniform(-3, 3, shape_a))
    b = encode(rng.uniform(-3, 3, shape_b))
    scales = np.array([0.5, 0.375], dtype=np.float32)
    c = np.full((config.m, config.n), 0x7FC0, dtype=np.uint16)  # bf16 NaN
    with load(
        wgmma_gemm_mlir(config), pipeline_options=OPTIONS, stage_arrays=True
    ) as program:
        program.call("gemm", a, b, scales, c)
    got = bf16_bits_to_f32(c).astype(np.float64)
    exact = decode(a).astype(np.float64) @ decode(b).astype(np.float64).T
    expected = exact * float(scales[0]) * float(scales[1])
    assert not np.isnan(got).any(), f"{np.isnan(got).sum()} elements never written"
    error = np.abs(got - expected).max() / np.abs(expected).max()
    assert error <= MAX_ERROR, f"max error {error:.2e} of max |C|"
    # Most elements are the bf16 of the exact value, or one bf16 step off.
    rounded = bf16_bits_to_f32(f32_to_bf16_bits(expected.astype(np.float32)))
    assert np.mean(got == rounded) > 0.5
