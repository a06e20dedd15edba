"""The Hopper FP8 GEMM (e4m3, TMA, mbarriers, wgmma), xdsl-gpu vs MLIR 22 vs
``torch._scaled_mm``.

The program (``wgmma_gemm_kernel.py``: e4m3 A (M x K) and B (N x K), both K-major, f32
sums, per-tensor scales, bf16 C; 128 x 256 or 128 x 128 tiles, K in 128-byte slices
through a multi-stage TMA + mbarrier pipeline, one ``nvgpu.warpgroup.mma`` per
m64nNk32 wgmma) is compiled with ``gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90a
cubin-features=+ptx80 cubin-format=isa opt-level=3
kernel-bare-ptr-calling-convention=1}`` by xdsl-gpu in this process and by
``mlir-opt-22``; both PTX texts are assembled by nvJitLink (``-O3``). The kernel is
launched here with what the program's host side would pass: the two TMA descriptors
(UINT8, 128-byte swizzle) encoded by the runtime's ``mgpuTensorMapEncodeTiledMemref``,
the scales and C, with the program's dynamic shared memory. The anchor is
``torch._scaled_mm(a, b.t(), scale_a, scale_b, out_dtype=torch.bfloat16)`` (cuBLASLt)
on the same bytes, when torch is there (without it the anchor's rows are left out),
called directly and replayed from a CUDA graph: a single timed launch on an idle GPU
(burst) would otherwise count torch's host-side dispatch; the faster of the two is
the anchor.

For M = N = K = 4096 and 8192 and each configuration: every result (C poisoned with
bf16 NaN first) has no NaN, and on 256 sampled rows its largest error against an f32
product of the decoded e4m3 inputs, times the scales, is at most ``MAX_ERROR`` of the
largest |C| (torch's own error is printed beside it). Then the variants are timed as
in ``bench_nvgpu_gemm.py``: CUDA events, taking turns, best of the rounds, *sustained*
(back to back: the power limit's clocks) and *burst* (one launch after 0.3 s of
idle: boost clocks), with NVML's SM clock and power. Targets: xdsl-gpu's time at most
1.02x MLIR 22's for every configuration, and the best configuration at 8192^3 at
least 90% of ``torch._scaled_mm`` (issue 26); exit status 1 if a result is wrong or
a target is missed. Peak: the H200's dense FP8 tensor rate, ~1979 TFLOP/s.

The GPU machine has no ``mlir-opt-22``: write its PTX where it is installed, send the
folder along, and name it there::

    python3 benchmarks/bench_fp8_gemm.py --prepare .bench   # here (needs mlir-opt-22)
    python3 benchmarks/bench_fp8_gemm.py                    # there (reads .bench)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as a script

from bench_kernels import ROOT, Gpu  # the driver calls and the assembler
from bench_nvgpu_gemm import (  # pyright: ignore[reportPrivateUsage]
    CHIP,
    METHODS,
    Clocks,
    _time_round,
    compile_both,
    compile_ours,
    compile_upstream,
    kernel_runner,
)
from bench_nvgpu_gemm import tensor_map as nvgpu_tensor_map
from bench_wmma_matmul import time_ms  # pyright: ignore[reportPrivateUsage]
from fp8_numbers import bf16_bits_to_f32, e4m3_decode, e4m3_encode
from wgmma_gemm_kernel import TILE_M, WgmmaGemmConfig, wgmma_gemm_mlir

sys.path.insert(0, str(ROOT))

SIZES = (4096, 8192)
# (stages, wgmma wait, group_m, warpgroups, tile_n, producer): 128x256 tiles
# with a warpgroup per 64 rows (one CTA per SM), 128x128 tiles with two (two CTAs per
# SM) or one; the last with a producer warpgroup issuing the TMA copies.
PIPELINES: tuple[tuple[int, int, int, int, int, bool], ...] = (
    (4, 1, 1, 2, 256, False), (4, 3, 1, 2, 256, False), (4, 1, 8, 2, 256, False),
    (3, 1, 1, 2, 128, False), (4, 1, 1, 1, 128, False), (4, 3, 1, 2, 256, True),
)  # fmt: skip
SCALES = (0.5, 0.25)
SAMPLED_ROWS = 256
MAX_ERROR = 2e-2
"""Bound on max |C - reference| / max |reference| over the sampled rows: bf16 rounds
to 2^-9 of a value and the tensor cores' FP8 sums are not exact f32 (torch's error is
printed for comparison); a wrong tile or layout is off by ~1."""
PEAK_TFLOPS = 1979.0  # H200 SXM dense FP8 tensor cores
ROUNDS = 15
TARGET_VS_MLIR = 1.02
TARGET_VS_ANCHOR = 0.90
ANCHOR = "torch._scaled_mm"
ANCHOR_GRAPH = f"{ANCHOR} (CUDA graph)"
TILE_K = 128  # e4m3 elements per K slice (128 bytes)

UINT8 = 0  # CUtensorMapDataType of the program's tensor maps (the rest as f16's)


def configs(sizes: Sequence[int] = SIZES) -> list[WgmmaGemmConfig]:
    return [
        WgmmaGemmConfig(n, n, n, *pipeline[:5], producer=pipeline[5])
        for n in sizes
        for pipeline in PIPELINES
    ]


def label_of(config: WgmmaGemmConfig) -> str:
    return (
        f"128x{config.tile_n} wg{config.warpgroups} s{config.stages} "
        f"w{config.wgmma_wait} g{config.group_m}"
    ) + (" producer" if config.producer else "")


# -- compilation ---------------------------------------------------------------------


def ours_ptx(config: WgmmaGemmConfig) -> str:
    return compile_ours(wgmma_gemm_mlir(config), config.name)


def upstream_ptx(config: WgmmaGemmConfig) -> str:
    return compile_upstream(wgmma_gemm_mlir(config))


def upstream_file(folder: Path, config: WgmmaGemmConfig) -> Path:
    return folder / f"fp8_gemm.{config.name}.mlir-opt-22.{CHIP}.ptx"


# -- launching -----------------------------------------------------------------------


def tensor_map(data: int, rows: int, cols: int, box: tuple[int, int]) -> int:
    """A device copy of the TMA descriptor of a row-major ``rows x cols`` byte
    matrix, made as the generated host code makes it."""
    return nvgpu_tensor_map(data, rows, cols, box, UINT8)


class ScaledMm:
    """``torch._scaled_mm`` on copies of the same e4m3 bytes (B^T: column-major, as
    it wants its second operand), bf16 out; ``None`` from :meth:`make` without
    torch, a GPU for it, or ``_scaled_mm``."""

    def __init__(self, torch: Any, a: np.ndarray, b: np.ndarray) -> None:
        self.torch = torch
        fp8 = torch.float8_e4m3fn
        self.a = torch.from_numpy(a).cuda().view(fp8)
        self.b_t = torch.from_numpy(b).cuda().view(fp8).t()
        self.scale_a = torch.tensor(SCALES[0], dtype=torch.float32, device="cuda")
        self.scale_b = torch.tensor(SCALES[1], dtype=torch.float32, device="cuda")
        self.out = self.run()
        torch.cuda.synchronize()

    @classmethod
    def make(cls, a: np.ndarray, b: np.ndarray) -> ScaledMm | None:
        try:
            import torch  # pyright: ignore[reportMissingImports]
        except ImportError:
            return None
        if not torch.cuda.is_available() or not hasattr(torch, "_scaled_mm"):
            return None
        return cls(torch, a, b)

    def run(self) -> Any:
        return self.torch._scaled_mm(  # pyright: ignore[reportPrivateUsage]
            self.a, self.b_t, scale_a=self.scale_a, scale_b=self.scale_b,
            out_dtype=self.torch.bfloat16,
        )  # fmt: skip

    def launch(self) -> None:
        self.out = self.run()

    def graph_launch(self) -> Callable[[], None] | None:
        """A replay of the call captured in a CUDA graph: one launch from the host,
        without torch's dispatch, which a single timed launch on an idle GPU (the
        burst method) would otherwise count. ``None`` where capture fails."""
        torch = self.torch
        try:
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                self.run()  # warm-up outside the graph, as capture wants
            torch.cuda.current_stream().wait_stream(side)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                self.out = self.run()
            torch.cuda.synchronize()
        except RuntimeError as e:
            print(f"# {ANCHOR} in a CUDA graph: not captured ({e})")
            return None
        return graph.replay

    def result(self) -> np.ndarray:
        """C as bf16 bit patterns."""
        return self.out.view(self.torch.int16).cpu().numpy().view(np.uint16)


def _error(got_bits: np.ndarray, rows: np.ndarray, expected: np.ndarray) -> float:
    """max |C - expected| / max |expected| on the sampled rows; NaN if C has a NaN."""
    if ((got_bits & 0x7FFF) > 0x7F80).any():
        return float("nan")
    got = bf16_bits_to_f32(got_bits[rows])
    return float(np.abs(got - expected).max() / np.abs(expected).max())


def bench_size(
    gpu: Gpu,
    n: int,
    cubins: dict[str, dict[str, bytes]],
    clocks: Clocks,
    rounds: int,
) -> tuple[dict[str, dict[str, list[float]]], list[str]]:
    """Milliseconds per timing method, variant and round at ``n``^3, and the
    failures seen."""
    rng = np.random.default_rng(n)
    a = e4m3_encode(rng.uniform(-1, 1, (n, n)).astype(np.float32))
    b = e4m3_encode(rng.uniform(-1, 1, (n, n)).astype(np.float32))
    rows = np.sort(rng.choice(n, SAMPLED_ROWS, replace=False))
    expected = (e4m3_decode(a[rows]) @ e4m3_decode(b).T) * np.float32(
        SCALES[0] * SCALES[1]
    )
    poison = np.full((n, n), 0x7FC0, dtype=np.uint16)  # bf16 NaN
    scales = np.array(SCALES, dtype=np.float32)
    da, db, ds, dc = (
        gpu.upload(a),
        gpu.upload(b),
        gpu.upload(scales),
        gpu.upload(poison),
    )
    maps: list[int] = []
    failures: list[str] = []
    try:
        runners: dict[str, Callable[[], None]] = {}
        for config in (c for c in configs((n,)) if c.m == n):
            map_a = tensor_map(da, n, n, (TILE_M, TILE_K))
            map_b = tensor_map(db, n, n, (config.tile_n, TILE_K))
            maps += [map_a, map_b]
            for compiler, cubin in cubins[config.name].items():
                runners[f"{compiler} {label_of(config)}"] = kernel_runner(
                    gpu, cubin, config, (map_a, map_b, ds, dc)
                )
        got = np.empty((n, n), dtype=np.uint16)
        for label, run in runners.items():  # correctness first, from a poisoned C
            gpu.copy_in(dc, poison)
            run()
            gpu.download(dc, got)
            error = _error(got, rows, expected)
            ok = error <= MAX_ERROR
            print(f"# {n}^3 {label}: max error {error:.2e} of max |C| ({'ok' if ok else 'WRONG'})")  # fmt: skip
            if not ok:
                failures.append(f"{n}^3 {label}: max error {error} of max |C|")
        anchor = ScaledMm.make(a, b)
        if anchor is None:
            print(f"# no torch with CUDA and _scaled_mm: no {ANCHOR} rows")
        else:
            error = _error(anchor.result(), rows, expected)
            print(f"# {n}^3 {ANCHOR}: max error {error:.2e} of max |C| (for comparison)")  # fmt: skip
            runners[ANCHOR] = anchor.launch
            if (replay := anchor.graph_launch()) is not None:
                runners[ANCHOR_GRAPH] = replay
        launches = 40 if n <= 4096 else 10
        for run in runners.values():  # warm-up
            time_ms(gpu, run, 1)
        times: dict[str, dict[str, list[float]]] = {
            method: {label: [] for label in runners} for method in METHODS
        }
        for method, (count, pause) in METHODS.items():
            seen: list[tuple[int, float]] = []
            for turn in range(rounds):
                burst = count * (4 if n <= 4096 else 1)
                round_times = _time_round(gpu, runners, burst or launches, turn, pause)
                for label, ms in round_times.items():
                    times[method][label].append(ms)
                if (sample := clocks.sample()) is not None:
                    seen.append(sample)
            if seen:
                print(
                    f"# {n}^3 {method}: SM clock {min(c for c, _ in seen)}-"
                    f"{max(c for c, _ in seen)} MHz, power "
                    f"{min(w for _, w in seen):.0f}-{max(w for _, w in seen):.0f} W "
                    "(sampled after each round)"
                )
    finally:
        gpu.free(da, db, ds, dc, *maps)
    return times, failures


def report(
    gpu: Gpu, n: int, method: str, times: dict[str, list[float]], rounds: int
) -> list[str]:
    """Print one method's table at ``n``^3; the targets it misses."""
    failures: list[str] = []
    best = {label: min(ms) for label, ms in times.items()}
    flops = 2 * n**3
    anchors = [best[label] for label in (ANCHOR, ANCHOR_GRAPH) if label in best]
    anchor_ms = min(anchors) if anchors else None
    print(
        f"\n# {n}x{n}x{n} e4m3 -> bf16 on {gpu.device.name}, {method} timing, best "
        f"of {rounds} rounds, CUDA events"
    )
    print(
        f"| variant | ms | TFLOP/s | % {ANCHOR} (faster row) | % peak | xdsl-gpu / MLIR 22 "
        "(median of rounds) |"
    )
    print("|---|---|---|---|---|---|")
    for label, ms in best.items():
        tflops = flops / ms / 1e9
        versus = f"{100 * anchor_ms / ms:.1f}" if anchor_ms else "n/a"
        ratio = ""
        if label.startswith("xdsl-gpu"):
            theirs = times[label.replace("xdsl-gpu", "MLIR 22")]
            pairs = [a / b for a, b in zip(times[label], theirs, strict=True)]
            ratio = f"{float(np.median(pairs)):.3f}"
            if float(ratio) > TARGET_VS_MLIR:
                failures.append(f"{n}^3 {label} ({method}): {ratio}x MLIR 22's time")
        print(
            f"| {label} | {ms:.3f} | {tflops:.1f} | {versus} | "
            f"{100 * tflops / PEAK_TFLOPS:.1f} | {ratio} |"
        )
    ours_best = min(ms for label, ms in best.items() if label.startswith("xdsl"))
    line = f"\nbest xdsl-gpu configuration ({method}): {flops / ours_best / 1e9:.1f} TFLOP/s"  # fmt: skip
    if anchor_ms:
        share = anchor_ms / ours_best
        line += f", {100 * share:.1f}% of {ANCHOR}"
        if n == max(SIZES) and share < TARGET_VS_ANCHOR:
            failures.append(
                f"{n}^3 ({method}): best xdsl-gpu {100 * share:.1f}% of {ANCHOR} "
                f"(target {100 * TARGET_VS_ANCHOR:.0f}%)"
            )
    print(line)
    return failures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--prepare", type=Path, metavar="DIR",
        help="write mlir-opt-22's PTX to DIR and stop",
    )  # fmt: skip
    parser.add_argument(
        "--upstream-ptx", type=Path, metavar="DIR", default=ROOT / ".bench",
        help="mlir-opt-22's PTX written by --prepare (default: .bench)",
    )  # fmt: skip
    parser.add_argument(
        "--dump", type=Path, metavar="DIR", help="also write both PTX texts to DIR"
    )
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=list(SIZES),
        help="M = N = K of each run (default: 4096 8192)",
    )  # fmt: skip
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args(argv)

    if args.prepare:
        args.prepare.mkdir(parents=True, exist_ok=True)
        for config in configs(args.sizes):
            path = upstream_file(args.prepare, config)
            path.write_text(upstream_ptx(config))
            print(f"wrote {path}")
        return 0

    gpu = Gpu()
    cubins: dict[str, dict[str, bytes]] = {}
    for config in configs(args.sizes):
        both = compile_both(
            config, ours_ptx, upstream_ptx, upstream_file, args.upstream_ptx,
            args.dump, "fp8_gemm",
        )  # fmt: skip
        if both is None:
            return 1
        cubins[config.name] = both

    failures: list[str] = []
    clocks = Clocks()
    for n in args.sizes:
        by_method, wrong = bench_size(gpu, n, cubins, clocks, args.rounds)
        failures += wrong
        for method, times in by_method.items():
            failures += report(gpu, n, method, times, args.rounds)
    print()
    for failure in failures:
        print(f"target missed: {failure}")
    print("all targets met" if not failures else f"{len(failures)} target(s) missed")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
