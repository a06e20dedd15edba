"""The fused attention forward of ``benchmarks/attention_kernel.py``, small shapes.

Without a GPU: the program compiles through ``gpu-lower-to-nvvm-pipeline`` for
sm_90a into the two wgmma forms (descriptor A for ``S = Q K^T``, register A for
``O += P V``), with or without a producer warpgroup and the overlapped schedule, and
``ptxas`` (where installed) assembles the PTX without spilling, serializing the wgmma
or adding fences of its own.
On the GPU (marker ``gpu``): the whole program (host side included) is loaded by the
runtime and called; O (poisoned with NaN first) is compared with a NumPy reference.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from attention_kernel import (  # pyright: ignore[reportMissingImports]
    AttentionConfig,
    attention_mlir,
)

OPTIONS = 'cubin-chip=sm_90a cubin-features="+ptx80"'  # xDSL's option syntax
ISA = "cubin-format=isa opt-level=3 kernel-bare-ptr-calling-convention=1"
CONFIGS = [
    AttentionConfig(1, 2, 256, 64),
    AttentionConfig(1, 2, 256, 64, causal=True),
    AttentionConfig(1, 2, 256, 128),
    AttentionConfig(1, 2, 256, 128, causal=True),
    # Smaller K/V tiles: several masked tiles per block, more tiles than stages.
    AttentionConfig(1, 2, 512, 64, causal=True, block_n=64, stages=3),
    AttentionConfig(2, 1, 384, 128, block_n=64, stages=2),
    # A producer warpgroup on full/empty barriers (rounds of the stages wrap).
    AttentionConfig(1, 2, 512, 128, producer=True),
    AttentionConfig(1, 2, 512, 64, causal=True, block_n=64, stages=3, producer=True),
    # S_j issued beside P_(j-1) V: one tile (no loop), several, causal.
    AttentionConfig(1, 2, 128, 128, producer=True, overlap=True),
    AttentionConfig(2, 1, 512, 128, producer=True, overlap=True),
    AttentionConfig(
        1, 2, 512, 64, causal=True, block_n=64, stages=3, producer=True, overlap=True
    ),
]
IDS = [c.name for c in CONFIGS]
MAX_ABS_ERROR = 2e-2
"""f16 in and out, f32 statistics, ``ex2.approx``: off by rounding; a wrong layout,
mask or rescaling is off by ~0.1 to 1."""
PTXAS = shutil.which("ptxas")


def _ptx(config: AttentionConfig) -> str:
    from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp
    from xdsl_gpu.targets.runtime.api import (
        parse_program,
        pipeline_pass,
        program_context,
    )

    module = parse_program(attention_mlir(config), config.name)
    pipeline_pass(f"{OPTIONS} {ISA}").apply(program_context(), module)
    (binary,) = [op for op in module.walk() if isinstance(op, BinaryOp)]
    (obj,) = binary.objects.data
    return obj.object.data.decode()  # pyright: ignore[reportAttributeAccessIssue]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_compiles_to_both_wgmma_forms(config: AttentionConfig, tmp_path: Path) -> None:
    ptx = _ptx(config)
    d, n = config.head_dim, config.block_n
    wgmma = re.findall(r"wgmma\.mma_async\.sync\.aligned\.(\S+) \{[^}]*\}, (\S)", ptx)
    loops = 2 if config.causal else 1  # the causal kernel has a masked copy
    # S: d / 16 descriptor-A instructions (A's operand a 64-bit register, %rd),
    # O: n / 16 register-A ones (A a vector of four registers, "{").
    s_form = [f for f, a in wgmma if f == f"m64n{n}k16.f32.f16.f16"]
    o_form = [(f, a) for f, a in wgmma if f == f"m64n{d}k16.f32.f16.f16"]
    if config.overlap:  # copies of S and P V as LLVM unrolls (or drops) the loop
        assert wgmma
        assert len(wgmma) % ((d + n) // 16) == 0
    else:
        assert len(wgmma) == loops * (d + n) // 16
    if n != d and not config.overlap:
        assert len(s_form) == loops * d // 16
        assert len(o_form) == loops * n // 16
        assert {a for _, a in o_form} == {"{"}
    register_a = sum(a == "{" for _, a in wgmma)
    assert register_a * (d + n) == len(wgmma) * n
    # V is N-major: the register-A instructions have trans-b 1.
    assert len(re.findall(r"\}, %rd\d+, p, 1, 1, 1;", ptx)) == register_a
    assert "cvt.rn.f16x2.f32" in ptx
    assert "ex2.approx" in ptx
    # The producer gives its registers to the consumers.
    moves = re.findall(r"setmaxnreg\.(inc|dec)\.sync\.aligned\.u32\s+(\d+);", ptx)
    assert sorted(moves) == ([("dec", "40"), ("inc", "232")] if config.producer else [])
    # Maxima per tile (per copy of the softmax), sums once at the end.
    assert ptx.count("shfl.sync.bfly.b32") % 4 == 0
    if PTXAS is None:
        pytest.skip("no ptxas to assemble with")
    source = tmp_path / "attention.ptx"
    source.write_text(ptx)
    done = subprocess.run(
        [PTXAS, "-arch=sm_90a", "-v", str(source), "-o", str(tmp_path / "a.cubin")],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    log = done.stdout + done.stderr
    assert "0 bytes spill stores, 0 bytes spill loads" in log, log
    assert "wgmma.mma_async instructions are serialized" not in log, log
    # Every register write is fenced before the wgmma that reads it.
    assert "warpgroup.arrive is injected" not in log, log


def test_bad_configurations_are_refused() -> None:
    with pytest.raises(ValueError, match="head_dim"):
        AttentionConfig(1, 1, 256, 96)
    with pytest.raises(ValueError, match="multiple of 128"):
        AttentionConfig(1, 1, 200, 64)
    with pytest.raises(ValueError, match="block_n"):
        AttentionConfig(1, 1, 256, 64, block_n=40)
    with pytest.raises(ValueError, match="registers"):
        AttentionConfig(1, 1, 256, 128, block_n=256)
    with pytest.raises(ValueError, match="shared memory"):
        AttentionConfig(1, 1, 1024, 128, block_n=128, stages=4)


def reference(q: np.ndarray, k: np.ndarray, v: np.ndarray, causal: bool) -> np.ndarray:
    """Attention in f64 over ``[batch, heads, seq, d]``."""
    q, k, v = (t.astype(np.float64) for t in (q, k, v))
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if causal:
        seq = s.shape[-1]
        s = np.where(np.triu(np.ones((seq, seq), dtype=bool), 1), -np.inf, s)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    return (p / p.sum(axis=-1, keepdims=True)) @ v


@pytest.mark.gpu
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_attention_on_the_gpu(config: AttentionConfig) -> None:
    from xdsl_gpu.targets.runtime import load

    rng = np.random.default_rng(5)
    rows = (config.rows, config.head_dim)  # the program's memrefs: rows of d
    q, k, v = (rng.standard_normal(rows).astype(np.float16) for _ in range(3))
    o = np.full(rows, np.nan, dtype=np.float16)
    # Staged in managed memory: TMA reads device-visible memory, not pageable host.
    with load(
        attention_mlir(config), pipeline_options=OPTIONS, stage_arrays=True
    ) as program:
        program.call("attention", q, k, v, o)
    shape = (config.batch, config.heads, config.seq, config.head_dim)
    q, k, v, o = (t.reshape(shape) for t in (q, k, v, o))
    unwritten = np.argwhere(np.isnan(o))
    assert not len(unwritten), f"{len(unwritten)} never written, first {unwritten[0]}"
    expected = reference(q, k, v, config.causal)
    error = np.abs(o.astype(np.float64) - expected)
    worst = np.unravel_index(int(error.argmax()), error.shape)
    assert error.max() <= MAX_ABS_ERROR, (
        f"max abs error {error.max():.3e} at [batch, head, row, column] "
        f"{[int(i) for i in worst]}: got {o[worst]}, expected {expected[worst]:.4f}; "
        f"{int((error > MAX_ABS_ERROR).sum())} elements off"
    )
