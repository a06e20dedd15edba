"""The fused attention forward (``attention_kernel.py``: TMA, mbarriers, wgmma with
P in registers), xdsl-gpu vs torch SDPA's cuDNN and flash backends.

The program is compiled with ``gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90a
cubin-features=+ptx80 cubin-format=isa opt-level=3
kernel-bare-ptr-calling-convention=1}`` by xdsl-gpu in this process, its PTX assembled
by nvJitLink (``-O3``), and the kernel launched here with what the program's host side
would pass: the tensor maps of Q, K and V (f16, 128-byte swizzle; boxes of 128 or
``block_n`` rows x 64 columns) encoded by the runtime's
``mgpuTensorMapEncodeTiledMemref``, and O. MLIR 22 cannot compile it (no wgmma with A
in registers: ``xgpu.wgmma.mma_async.reg_a``), so there is no MLIR 22 column.

For each shape (``[batch, heads, seq, d]`` f16, normal random inputs) and
configuration: O is poisoned with NaN, the kernel runs once, every element must have
been written, and on ``SAMPLED_HEADS`` (batch, head) pairs the largest absolute error
against an f32 reference (torch's math SDPA on the GPU, else NumPy) must be at most
``MAX_ABS_ERROR``; a wrong result prints where (batch, head, row, column), what was
expected and what came, and which rows and columns (modulo the tile) are wrong. Then
the variants are timed as in ``bench_nvgpu_gemm.py``: CUDA events, taking turns, best
of the rounds, *sustained* (back to back) and *burst* (one launch after 0.3 s of
idle). The anchors are ``torch.nn.functional.scaled_dot_product_attention`` under
``sdpa_kernel(CUDNN_ATTENTION)`` and ``sdpa_kernel(FLASH_ATTENTION)``, called directly
and replayed from a CUDA graph (the faster counts). FLOPs: ``4 b h s^2 d``, halved
for causal. Targets (issue 26): on every shape the best configuration at least 70% of
cuDNN and faster than flash; exit status 1 if a result is wrong or a target is
missed.

    python3 benchmarks/bench_attention.py                      # the four shapes
    python3 benchmarks/bench_attention.py --check-only         # correctness only
    python3 benchmarks/bench_attention.py --shape 1 2 256 64 --causal --check-only
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as a script

from attention_kernel import BLOCK_M, BOX, AttentionConfig, attention_mlir
from bench_kernels import Gpu, assemble  # the driver calls and the assembler
from bench_nvgpu_gemm import (  # pyright: ignore[reportPrivateUsage]
    CHIP,
    METHODS,
    Clocks,
    _time_round,
    compile_ours,
    kernel_runner,
    tensor_map,
)
from bench_wmma_matmul import time_ms  # pyright: ignore[reportPrivateUsage]

KERNEL_NAME = "attention_kernel"
SHAPES: tuple[tuple[int, int, int, int, bool], ...] = (
    (4, 16, 4096, 128, False),
    (4, 16, 4096, 128, True),
    (2, 16, 8192, 128, False),
    (4, 32, 4096, 64, False),
)
"""(batch, heads, seq, d, causal): issue 26's shapes."""
PIPELINES: dict[int, tuple[tuple[int, int, bool, bool], ...]] = {
    128: ((128, 2, False, False), (128, 2, True, False), (128, 2, True, True)),
    64: ((128, 2, False, False), (128, 2, True, False), (128, 2, True, True),
         (128, 3, True, True)),
}  # fmt: skip
"""(block_n, stages, producer warpgroup, overlapped schedule) tried for each head
dimension."""
SAMPLED_HEADS = 4
MAX_ABS_ERROR = 2e-2
"""f16 inputs and output, f32 sums and statistics: O (a weighted mean of V's rows,
|O| of order 1) is off by f16 rounding and ``ex2.approx``; a wrong layout or mask is
off by ~0.1 to 1."""
PEAK_TFLOPS = 989.0  # H200 SXM dense f16 tensor cores
ROUNDS = 10
TARGET_VS_CUDNN = 0.70
CUDNN, FLASH = "torch SDPA cuDNN", "torch SDPA flash"


def configs(shape: tuple[int, int, int, int, bool]) -> list[AttentionConfig]:
    batch, heads, seq, d, causal = shape
    return [
        AttentionConfig(batch, heads, seq, d, causal, *pipeline)
        for pipeline in PIPELINES[d]
    ]


def label_of(config: AttentionConfig) -> str:
    return (
        f"xdsl-gpu n{config.block_n} s{config.stages}"
        + (" producer" if config.producer else "")
        + (" overlap" if config.overlap else "")
    )


def shape_name(shape: tuple[int, int, int, int, bool]) -> str:
    batch, heads, seq, d, causal = shape
    return f"b{batch} h{heads} s{seq} d{d}" + (" causal" if causal else "")


# -- launching -----------------------------------------------------------------------


def _torch() -> Any | None:
    try:
        import torch  # pyright: ignore[reportMissingImports]
    except ImportError:
        return None
    return torch if torch.cuda.is_available() else None


class Sdpa:
    """``scaled_dot_product_attention`` with one backend on copies of Q, K, V."""

    def __init__(
        self, torch: Any, backend: Any, tensors: Sequence[np.ndarray], causal: bool
    ) -> None:
        self.torch, self.backend, self.causal = torch, backend, causal
        self.q, self.k, self.v = (torch.from_numpy(t).cuda() for t in tensors)
        self.out = self.run()
        torch.cuda.synchronize()

    def run(self) -> Any:
        from torch.nn.attention import sdpa_kernel  # pyright: ignore[reportMissingImports]

        with sdpa_kernel(self.backend):
            return self.torch.nn.functional.scaled_dot_product_attention(
                self.q, self.k, self.v, is_causal=self.causal
            )

    def launch(self) -> None:
        self.out = self.run()

    def graph_launch(self) -> Callable[[], None] | None:
        """A replay of the call from a CUDA graph (no host-side dispatch in a burst
        timing); ``None`` where capture fails."""
        torch = self.torch
        try:
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                self.run()
            torch.cuda.current_stream().wait_stream(side)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                self.out = self.run()
            torch.cuda.synchronize()
        except RuntimeError as e:
            print(f"# {self.backend} in a CUDA graph: not captured ({e})")
            return None
        return graph.replay


def anchors(
    torch: Any | None, tensors: Sequence[np.ndarray], causal: bool
) -> dict[str, Callable[[], None]]:
    """The cuDNN and flash backends (direct and replayed), those that run here."""
    if torch is None:
        print("# no torch with CUDA: no SDPA rows")
        return {}
    from torch.nn.attention import SDPBackend  # pyright: ignore[reportMissingImports]

    runners: dict[str, Callable[[], None]] = {}
    for label, backend in ((CUDNN, SDPBackend.CUDNN_ATTENTION), (FLASH, SDPBackend.FLASH_ATTENTION)):  # fmt: skip
        try:
            sdpa = Sdpa(torch, backend, tensors, causal)
        except RuntimeError as e:
            print(f"# {label}: not available ({str(e).splitlines()[0]})")
            continue
        runners[label] = sdpa.launch
        if (replay := sdpa.graph_launch()) is not None:
            runners[f"{label} (CUDA graph)"] = replay
    return runners


# -- checking ------------------------------------------------------------------------


def reference(
    torch: Any | None, q: np.ndarray, k: np.ndarray, v: np.ndarray, causal: bool
) -> np.ndarray:
    """f32 attention of one (batch, head): ``[seq, d]`` each."""
    scale = 1.0 / math.sqrt(q.shape[-1])
    if torch is not None:
        tq, tk, tv = (torch.from_numpy(t).cuda().float() for t in (q, k, v))
        s = (tq @ tk.T) * scale
        if causal:
            s = s.masked_fill(
                torch.ones_like(s, dtype=torch.bool).triu(1), float("-inf")
            )
        return (torch.softmax(s, dim=-1) @ tv).cpu().numpy()
    s = (q.astype(np.float32) @ k.astype(np.float32).T) * np.float32(scale)
    if causal:
        s[np.triu_indices(s.shape[0], 1)] = -np.inf
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    return (p / p.sum(axis=-1, keepdims=True)) @ v.astype(np.float32)


def check(
    label: str,
    got: np.ndarray,
    expected: dict[tuple[int, int], np.ndarray],
    block_n: int,
) -> str | None:
    """``None`` if O is right, else what is wrong and where (printed too)."""
    lines: list[str] = []
    unwritten = np.isnan(got)
    if unwritten.any():
        b, h, row, col = (int(i) for i in np.argwhere(unwritten)[0])
        rows = sorted({int(r) % BLOCK_M for r in np.argwhere(unwritten)[:, 2]})
        lines.append(
            f"{int(unwritten.sum())} elements never written (NaN), the first at "
            f"[batch {b}, head {h}, row {row}, column {col}]; rows mod {BLOCK_M}: "
            f"{_few(rows)}"
        )
    worst = 0.0
    for (b, h), exp in expected.items():
        out = got[b, h].astype(np.float32)
        error = np.abs(out - exp)
        error[np.isnan(error)] = np.inf
        worst = max(worst, float(error.max()))
        wrong = np.argwhere(error > MAX_ABS_ERROR)
        if len(wrong) and len(lines) < 4:
            row, col = (int(i) for i in wrong[0])
            lines.append(
                f"(batch {b}, head {h}): {len(wrong)} of {error.size} elements off "
                f"by more than {MAX_ABS_ERROR}, the first at row {row}, column {col} "
                f"(got {out[row, col]:.4f}, expected {exp[row, col]:.4f}); wrong rows "
                f"mod {BLOCK_M}: {_few(sorted({int(r) % BLOCK_M for r in wrong[:, 0]}))}; "
                f"wrong columns mod {BOX}: {_few(sorted({int(c) % BOX for c in wrong[:, 1]}))}; "
                f"wrong rows' query blocks: {_few(sorted({int(r) // BLOCK_M for r in wrong[:, 0]}))} "
                f"(K/V tiles of {block_n} keys)"
            )
    ok = not lines
    print(f"# {label}: max abs error {worst:.2e} on {len(expected)} heads ({'ok' if ok else 'WRONG'})")  # fmt: skip
    for line in lines:
        print(f"#   {line}")
    return None if ok else f"{label}: " + "; ".join(lines)


def _few(values: list[int], limit: int = 16) -> str:
    shown = ", ".join(str(v) for v in values[:limit])
    return shown + (f", ... ({len(values)} in all)" if len(values) > limit else "")


# -- one shape -----------------------------------------------------------------------


def bench_shape(
    gpu: Gpu,
    shape: tuple[int, int, int, int, bool],
    cubins: dict[str, bytes],
    clocks: Clocks,
    rounds: int,
    check_only: bool,
) -> tuple[dict[str, dict[str, list[float]]], list[str]]:
    """Milliseconds per timing method, variant and round, and the failures seen."""
    batch, heads, seq, d, causal = shape
    name = shape_name(shape)
    rng = np.random.default_rng(seq + d)
    tensors = [
        rng.standard_normal((batch, heads, seq, d), dtype=np.float32).astype(np.float16)
        for _ in range(3)
    ]
    torch = _torch()
    pairs = sorted(
        {
            (int(rng.integers(batch)), int(rng.integers(heads)))
            for _ in range(SAMPLED_HEADS)
        }
    )
    q, k, v = tensors
    expected = {
        (b, h): reference(torch, q[b, h], k[b, h], v[b, h], causal) for b, h in pairs
    }
    poison = np.full(tensors[0].shape, np.nan, dtype=np.float16)
    rows = batch * heads * seq
    dq, dk, dv, do = (gpu.upload(t) for t in (*tensors, poison))
    maps: list[int] = []
    failures: list[str] = []
    times: dict[str, dict[str, list[float]]] = {m: {} for m in METHODS}
    try:
        runners: dict[str, Callable[[], None]] = {}
        for config in configs(shape):
            map_q = tensor_map(dq, rows, d, (BLOCK_M, BOX))
            map_k = tensor_map(dk, rows, d, (config.block_n, BOX))
            map_v = tensor_map(dv, rows, d, (config.block_n, BOX))
            maps += [map_q, map_k, map_v]
            runners[label_of(config)] = kernel_runner(
                gpu, cubins[config.name], config, (map_q, map_k, map_v, do),
                KERNEL_NAME,
            )  # fmt: skip
        got = np.empty_like(poison)
        for config in configs(shape):  # correctness first, from a poisoned O
            label = label_of(config)
            gpu.copy_in(do, poison)
            runners[label]()
            gpu.download(do, got)
            failure = check(f"{name} {label}", got, expected, config.block_n)
            if failure is not None:
                failures.append(failure)
                del runners[label]
        if check_only or not runners:
            return times, failures
        runners.update(anchors(torch, tensors, causal))
        for run in runners.values():  # warm-up
            time_ms(gpu, run, 1)
        times = {method: {label: [] for label in runners} for method in METHODS}
        for method, (count, pause) in METHODS.items():
            seen: list[tuple[int, float]] = []
            for turn in range(rounds):
                round_times = _time_round(gpu, runners, count or 10, turn, pause)
                for label, ms in round_times.items():
                    times[method][label].append(ms)
                if (sample := clocks.sample()) is not None:
                    seen.append(sample)
            if seen:
                print(
                    f"# {name} {method}: SM clock {min(c for c, _ in seen)}-"
                    f"{max(c for c, _ in seen)} MHz, power "
                    f"{min(w for _, w in seen):.0f}-{max(w for _, w in seen):.0f} W"
                )
    finally:
        gpu.free(dq, dk, dv, do, *maps)
    return times, failures


def report(
    gpu: Gpu,
    shape: tuple[int, int, int, int, bool],
    method: str,
    times: dict[str, list[float]],
    rounds: int,
) -> list[str]:
    """Print one method's table for a shape; the targets it misses."""
    batch, heads, seq, d, causal = shape
    flops = AttentionConfig(batch, heads, seq, d, causal).flops
    best = {label: min(ms) for label, ms in times.items()}

    def anchor(name: str) -> float | None:
        found = [ms for label, ms in best.items() if label.startswith(name)]
        return min(found) if found else None

    cudnn, flash = anchor(CUDNN), anchor(FLASH)
    print(
        f"\n# attention {shape_name(shape)} on {gpu.device.name}, {method} timing, "
        f"best of {rounds} rounds, CUDA events"
    )
    print("| variant | ms | TFLOP/s | % cuDNN | vs flash | % peak |")
    print("|---|---|---|---|---|---|")
    for label, ms in best.items():
        tflops = flops / ms / 1e9
        versus = f"{100 * cudnn / ms:.1f}" if cudnn else "n/a"
        faster = f"{flash / ms:.2f}x" if flash else "n/a"
        print(
            f"| {label} | {ms:.3f} | {tflops:.1f} | {versus} | {faster} | "
            f"{100 * tflops / PEAK_TFLOPS:.1f} |"
        )
    ours = [ms for label, ms in best.items() if label.startswith("xdsl-gpu")]
    failures: list[str] = []
    if not ours:
        return failures
    mine = min(ours)
    line = f"\nbest xdsl-gpu ({method}): {flops / mine / 1e9:.1f} TFLOP/s"
    if cudnn:
        line += f", {100 * cudnn / mine:.1f}% of cuDNN"
        if cudnn / mine < TARGET_VS_CUDNN:
            failures.append(
                f"{shape_name(shape)} ({method}): {100 * cudnn / mine:.1f}% of cuDNN "
                f"(target {100 * TARGET_VS_CUDNN:.0f}%)"
            )
    if flash:
        line += f", {flash / mine:.2f}x flash"
        if mine >= flash:
            failures.append(f"{shape_name(shape)} ({method}): not faster than flash")
    print(line)
    return failures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--shape", type=int, nargs=4, metavar=("BATCH", "HEADS", "SEQ", "D"),
        help="one shape instead of the four of issue 26",
    )  # fmt: skip
    parser.add_argument("--causal", action="store_true", help="with --shape")
    parser.add_argument(
        "--check-only", action="store_true", help="check the results, do not time"
    )
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--dump", type=Path, metavar="DIR", help="write the PTX there")
    args = parser.parse_args(argv)
    shapes = [(*args.shape, args.causal)] if args.shape else list(SHAPES)

    gpu = Gpu()
    cubins: dict[str, bytes] = {}
    for shape in shapes:
        for config in configs(shape):
            ptx = compile_ours(attention_mlir(config), config.name)
            if args.dump:
                args.dump.mkdir(parents=True, exist_ok=True)
                (args.dump / f"attention.{config.name}.ptx").write_text(ptx)
            cubins[config.name] = assemble(ptx, CHIP)
            print(f"# {config.name}: compiled ({config.shared_bytes} bytes of shared memory)")  # fmt: skip

    failures: list[str] = []
    clocks = Clocks()
    for shape in shapes:
        by_method, wrong = bench_shape(
            gpu, shape, cubins, clocks, args.rounds, args.check_only
        )
        failures += wrong
        for method, times in by_method.items():
            if times:
                failures += report(gpu, shape, method, times, args.rounds)
    print()
    for failure in failures:
        print(f"failed: {failure}")
    print("all targets met" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
