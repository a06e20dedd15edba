"""The Hopper tensor-core GEMM (TMA, mbarriers, wgmma), xdsl-gpu vs MLIR 22 vs cuBLAS.

The program (``nvgpu_gemm_kernel.py``: f16 A and B, f32 C, 128x128 tiles per
warpgroup, one or two warpgroups per CTA, K in slices of 64 through a multi-stage TMA + mbarrier pipeline, ``nvgpu.warpgroup.mma``)
is compiled with ``gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90a
cubin-features=+ptx80 cubin-format=isa opt-level=3
kernel-bare-ptr-calling-convention=1}`` by xdsl-gpu in this process and by
``mlir-opt-22``; both PTX texts are assembled by the same assembler (nvJitLink,
``-O3``). The kernel is launched here with what the program's host side would pass:
the two TMA descriptors encoded by the runtime's ``mgpuTensorMapEncodeTiledMemref``
(the same arguments as the generated host code) and C, with the program's dynamic
shared memory (opted in above 48 KiB). ``cublasGemmEx`` (f16 inputs, f32 output and
compute) is the reference for what the GPU can do.

The same product is also computed by the K-major kernel of ``wgmma_gemm_kernel.py``
(``--dtype f16``: B given transposed, N x K; 128x256 tiles, one wgmma instruction per
op, several wgmma groups in flight, an epilogue through shared memory with coalesced
16-byte stores), on a transposed copy of the same B, beside cuBLAS on that layout
(``cublasGemmEx`` "TN"). The cuBLAS reference is the faster of its two layouts.

For M = N = K = 4096 and 8192 and each pipeline configuration (stages, wgmma
wait_group): every result (C poisoned with NaN first) is compared with an f32
product of the same f16 inputs (torch on the GPU, TF32 off; NumPy without torch):
max abs error at most ``MAX_ABS_ERROR``. Then the variants are timed with CUDA
events, taking turns, best of the rounds, two ways: *sustained* (5 launches per
timing at 8192^3, back to back: the H200 runs at its 700 W power limit, SM clock
1150-1450 MHz) and *burst* (one launch after 0.3 s of idle, four at 4096^3: the
1980 MHz boost clock that short benchmark runs see). NVML's SM clock and power,
sampled after each round, are printed with each. Targets: xdsl-gpu's time at most 1.02x
MLIR 22's for every configuration, and the best configuration at 8192^3 at least
cuBLAS's throughput (its faster layout) under sustained load, issue 26's target;
burst timing is reported beside it (exit status 1 if a target is missed). Peak: the H200's dense
f16 tensor rate, ~989 TFLOP/s.

The GPU machine has no ``mlir-opt-22``: write its PTX where it is installed, send the
folder along, and name it there::

    python3 benchmarks/bench_nvgpu_gemm.py --prepare .bench   # here (needs mlir-opt-22)
    python3 benchmarks/bench_nvgpu_gemm.py                    # there (reads .bench)
"""

from __future__ import annotations

import argparse
import ctypes
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as a script

from bench_kernels import ROOT, Gpu, assemble  # the driver calls and the assembler
from bench_wmma_matmul import (  # pyright: ignore[reportPrivateUsage]
    Cublas,
    _load_cublas,
    _ptx_of_binary,
    time_ms,
)
from nvgpu_gemm_kernel import GemmConfig, gemm_mlir
from wgmma_gemm_kernel import WgmmaGemmConfig, wgmma_gemm_mlir

sys.path.insert(0, str(ROOT))

CHIP = "sm_90a"  # wgmma needs the arch-specific target
OPTIONS = (
    f"cubin-chip={CHIP} cubin-features=+ptx80 cubin-format=isa opt-level=3 "
    "kernel-bare-ptr-calling-convention=1"
)
OURS_OPTIONS = OPTIONS.replace("+ptx80", '"+ptx80"')  # xDSL's option syntax
KERNEL_NAME = "gemm_kernel"
SIZES = (4096, 8192)
# (stages, wgmma wait_group, group_m, warpgroups): with one warpgroup (128x128 tiles)
# 3 stages fit two CTAs per SM, 4 stages one; two warpgroups make 128x256 tiles.
PIPELINES = (
    (3, 1, 1, 1), (4, 1, 1, 1), (3, 0, 1, 1), (3, 1, 16, 1), (4, 1, 16, 1),
    (4, 1, 1, 2), (4, 1, 16, 2),
)  # fmt: skip
# The K-major kernel (wgmma_gemm_kernel.py, f16): (stages, wgmma wait, group_m,
# warpgroups, tile_n, producer warpgroup).
KMAJOR_PIPELINES = (
    (4, 3, 1, 2, 256, False), (4, 1, 1, 2, 256, False), (4, 3, 8, 2, 256, False),
    (4, 3, 1, 2, 256, True), (4, 3, 8, 2, 256, True),
)  # fmt: skip
# Clusters of two CTAs along M sharing B's slices (TMA multicast): (stages, wgmma
# wait, group_m (in rows of clusters), warpgroups, tile_n).
CLUSTER_PIPELINES = ((4, 3, 1, 2, 256), (4, 3, 4, 2, 256))
MAX_ABS_ERROR = 0.05  # vs an f32 product; a wrong tile or layout is off by ~10
PEAK_TFLOPS = 989.0  # H200 SXM dense f16/bf16 tensor cores
ROUNDS = 15
METHODS = {"sustained": (0, 0.0), "burst": (1, 0.3)}
"""Timing methods: (launches per timing at 8192^3 and 4x that at 4096^3, 0 = the
sustained default; seconds the GPU idles before each timing)."""
TARGET_VS_MLIR = 1.02
TARGET_VS_CUBLAS = 1.00  # issue 26: at least cuBLAS, sustained
CUBLAS_TN = "cuBLAS TN (B transposed)"

# mgpuTensorMapEncodeTiledMemref's enum arguments, as the program's host code passes
# them (CUtensorMapDataType FLOAT16, no interleave, 128B swizzle, L2 256B, no OOB NaN).
F16, INTERLEAVE_NONE, SWIZZLE_128B, L2_256B, OOB_ZERO = 6, 0, 3, 3, 0
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8


def configs() -> list[GemmConfig | WgmmaGemmConfig]:
    return (
        [GemmConfig(n, n, n, *pipeline) for n in SIZES for pipeline in PIPELINES]
        + [
            WgmmaGemmConfig(n, n, n, *pipeline[:5], dtype="f16", producer=pipeline[5])
            for n in SIZES
            for pipeline in KMAJOR_PIPELINES
        ]
        + [
            WgmmaGemmConfig(n, n, n, *pipeline, dtype="f16", cluster_m=2)
            for n in SIZES
            for pipeline in CLUSTER_PIPELINES
        ]
    )


def mlir_of(config: GemmConfig | WgmmaGemmConfig) -> str:
    if isinstance(config, WgmmaGemmConfig):
        return wgmma_gemm_mlir(config)
    return gemm_mlir(config)


def label_of(config: GemmConfig | WgmmaGemmConfig) -> str:
    if isinstance(config, WgmmaGemmConfig):
        return (
            f"K-major s{config.stages} w{config.wgmma_wait} g{config.group_m} "
            f"128x{config.tile_n}"
            + (" producer" if config.producer else "")
            + (f" cluster {config.cluster_m}x1" if config.cluster_m > 1 else "")
        )
    return f"s{config.stages} w{config.wait_group} g{config.group_m}" + (
        " 128x256" if config.warpgroups == 2 else ""
    )


# -- compilation ---------------------------------------------------------------------


def compile_ours(mlir: str, name: str) -> str:
    """The PTX our pipeline makes of ``mlir`` (a GEMM generator's program)."""
    from xdsl_gpu.targets.runtime.api import (
        parse_program,
        pipeline_pass,
        program_context,
    )

    module = parse_program(mlir, name)
    pipeline_pass(OURS_OPTIONS).apply(program_context(), module)
    return _ptx_of_binary(module)


def compile_upstream(mlir: str) -> str:
    """The PTX mlir-opt-22's pipeline makes of ``mlir``."""
    done = subprocess.run(
        ["mlir-opt-22", "-", f"--gpu-lower-to-nvvm-pipeline={OPTIONS}"],
        input=mlir, capture_output=True, text=True, check=True,
    )  # fmt: skip
    from xdsl_gpu.targets.runtime.api import parse_program

    return _ptx_of_binary(parse_program(done.stdout, "mlir-opt-22 output"))


def ours_ptx(config: GemmConfig | WgmmaGemmConfig) -> str:
    return compile_ours(mlir_of(config), config.name)


def upstream_ptx(config: GemmConfig | WgmmaGemmConfig) -> str:
    return compile_upstream(mlir_of(config))


def upstream_file(folder: Path, config: GemmConfig | WgmmaGemmConfig) -> Path:
    kind = "wgmma_gemm" if isinstance(config, WgmmaGemmConfig) else "nvgpu_gemm"
    return folder / f"{kind}.{config.name}.mlir-opt-22.{CHIP}.ptx"


# -- launching -----------------------------------------------------------------------


def tensor_map(
    data: int, rows: int, cols: int, box: tuple[int, int], data_type: int = F16
) -> int:
    """A device copy of the TMA descriptor of a row-major ``rows x cols`` matrix of
    ``data_type`` (CUDA's tensor map enum; f16 unless said), made as the generated
    host code makes it (a ranked memref descriptor handed to
    ``mgpuTensorMapEncodeTiledMemref``)."""
    from xdsl_gpu.targets.runtime.tensor_map import TensorMapEncoder

    errors: list[str] = []

    def fail(code: int, what: bytes) -> None:
        errors.append(f"{what.decode()}: CUDA error {code}")

    encoder = TensorMapEncoder(fail, lambda: False)
    descriptor = (ctypes.c_int64 * 7)(data, data, 0, rows, cols, cols, 1)
    box_dims = (ctypes.c_int64 * 2)(*box)
    address = encoder.encode_tiled_memref(
        2, ctypes.addressof(descriptor), data_type, INTERLEAVE_NONE, SWIZZLE_128B,
        L2_256B, OOB_ZERO, ctypes.addressof(box_dims),
    )  # fmt: skip
    if address is None:
        raise RuntimeError("; ".join(errors) or "tensor map not encoded")
    return address


class LaunchShape(Protocol):
    """What a generator's configuration says about its kernel's launch."""

    @property
    def grid(self) -> tuple[int, int, int]: ...
    @property
    def block(self) -> tuple[int, int, int]: ...
    @property
    def shared_bytes(self) -> int: ...


def kernel_runner(
    gpu: Gpu,
    cubin: bytes,
    config: LaunchShape,
    args: Sequence[int],
    kernel_name: str = KERNEL_NAME,
) -> Callable[[], None]:
    """Launches ``kernel_name`` with device pointer arguments ``args`` (here A's
    map, B's map, C; the FP8 GEMM and attention benchmarks launch theirs through
    it too) as the program's host side would: its dynamic shared memory opted in,
    in clusters where the configuration has ``cluster_m`` > 1."""
    cu = gpu.cu
    function = gpu.function(cubin, kernel_name)
    attribute = cu.CUfunction_attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    gpu._ok(  # pyright: ignore[reportPrivateUsage]
        (cu.cuFuncSetAttribute(function, attribute, config.shared_bytes)[0], None)
    )
    values = [ctypes.c_void_p(a) for a in args]
    pointers = (ctypes.c_void_p * len(values))(*[ctypes.addressof(v) for v in values])
    cluster_m = getattr(config, "cluster_m", 1)
    if cluster_m > 1:
        return _cluster_launch(gpu, function, config, cluster_m, values, pointers)

    def launch() -> None:
        assert values  # keeps alive the argument values that ``pointers`` points at
        result = cu.cuLaunchKernel(
            function, *config.grid, *config.block, config.shared_bytes, 0,
            ctypes.addressof(pointers), 0,
        )  # fmt: skip
        gpu._ok((result[0], None))  # pyright: ignore[reportPrivateUsage]

    return launch


def _cluster_launch(
    gpu: Gpu,
    function: object,
    config: LaunchShape,
    cluster_m: int,
    values: list[ctypes.c_void_p],
    pointers: ctypes.Array[ctypes.c_void_p],
) -> Callable[[], None]:
    """A launch in clusters of ``cluster_m`` CTAs along y (``cuLaunchKernelEx``
    with a cluster dimension), as the program's ``gpu.launch clusters(...)`` is
    launched by the runtime (``mgpuLaunchClusterKernel``)."""
    cu = gpu.cu
    attribute = cu.CUlaunchAttribute()
    attribute.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    attribute.value.clusterDim.x = 1
    attribute.value.clusterDim.y = cluster_m
    attribute.value.clusterDim.z = 1
    launch_config = cu.CUlaunchConfig()
    launch_config.gridDimX, launch_config.gridDimY, launch_config.gridDimZ = config.grid
    launch_config.blockDimX, launch_config.blockDimY, launch_config.blockDimZ = (
        config.block
    )
    launch_config.sharedMemBytes = config.shared_bytes
    launch_config.hStream = 0
    launch_config.attrs = [attribute]
    launch_config.numAttrs = 1

    def launch() -> None:
        assert values  # keeps alive the argument values that ``pointers`` points at
        result = cu.cuLaunchKernelEx(
            launch_config, function, ctypes.addressof(pointers), 0
        )
        gpu._ok((result[0], None))  # pyright: ignore[reportPrivateUsage]

    return launch


class SizedCublas(Cublas):
    """``cublasGemmEx`` for row-major ``C = A * B`` of any square size."""

    def __init__(self, lib: ctypes.CDLL, n: int):
        super().__init__(lib)
        self.n = n

    def gemm(self, a: int, b: int, c: int) -> None:
        # Row-major C = A B is column-major C^T = B^T A^T: B first.
        self._gemm_ex(self.OP_N, b, a, c)

    def gemm_tn(self, a: int, b_t: int, c: int) -> None:
        """Row-major ``C = A * B`` from B transposed (``b_t``, N x K row-major)."""
        # Column-major C^T = B A^T; b_t's storage is B^T column-major: op T.
        self._gemm_ex(self.OP_T, b_t, a, c)

    def _gemm_ex(self, op_first: int, first: int, second: int, c: int) -> None:
        n = self.n
        self._check(
            self.lib.cublasGemmEx(
                self.handle, op_first, self.OP_N, n, n, n,
                ctypes.byref(self.alpha),
                first, self.CUDA_R_16F, n,
                second, self.CUDA_R_16F, n,
                ctypes.byref(self.beta),
                c, self.CUDA_R_32F, n,
                self.COMPUTE_32F, self.GEMM_DEFAULT,
            ),
            "cublasGemmEx",
        )  # fmt: skip


def reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The f32 product of the f16 inputs: torch on the GPU (no TF32), else NumPy."""
    try:
        import torch  # pyright: ignore[reportMissingImports]

        if torch.cuda.is_available():
            torch.backends.cuda.matmul.allow_tf32 = False
            ta = torch.from_numpy(a).cuda().float()
            tb = torch.from_numpy(b).cuda().float()
            out = (ta @ tb).cpu().numpy()
            del ta, tb
            torch.cuda.empty_cache()
            return out
    except ImportError:
        pass
    return a.astype(np.float32) @ b.astype(np.float32)


class Clocks:
    """The GPU's SM clock (MHz) and power draw (W) through NVML, when it loads."""

    NVML_CLOCK_SM = 1

    def __init__(self) -> None:
        self.lib: ctypes.CDLL | None = None
        self.handle = ctypes.c_void_p()
        try:
            lib = ctypes.CDLL("libnvidia-ml.so.1")
            if (
                lib.nvmlInit_v2() == 0
                and lib.nvmlDeviceGetHandleByIndex_v2(0, ctypes.byref(self.handle)) == 0
            ):
                self.lib = lib
        except OSError:
            pass

    def sample(self) -> tuple[int, float] | None:
        if self.lib is None:
            return None
        mhz, milliwatts = ctypes.c_uint(), ctypes.c_uint()
        if self.lib.nvmlDeviceGetClockInfo(
            self.handle, self.NVML_CLOCK_SM, ctypes.byref(mhz)
        ) or self.lib.nvmlDeviceGetPowerUsage(self.handle, ctypes.byref(milliwatts)):
            return None
        return mhz.value, milliwatts.value / 1000


def _time_round(
    gpu: Gpu,
    runners: dict[str, Callable[[], None]],
    launches: int,
    turn: int,
    pause: float = 0.0,
) -> dict[str, float]:
    """One timing of each variant, starting at a different one each round (so that
    none always runs right after the same neighbour or at the same heat); with
    ``pause``, the GPU idles that many seconds before each timing (a burst)."""
    labels = list(runners)
    order = labels[turn % len(labels) :] + labels[: turn % len(labels)]
    times: dict[str, float] = {}
    for label in order:
        if pause:
            time.sleep(pause)
        times[label] = time_ms(gpu, runners[label], launches)
    return times


def bench_size(
    gpu: Gpu,
    n: int,
    cubins: dict[str, dict[str, bytes]],
    lib: ctypes.CDLL | None,
    clocks: Clocks,
) -> tuple[dict[str, dict[str, list[float]]], list[str]]:
    """Milliseconds per timing method, variant and round at ``n``^3, and the
    failures seen. *sustained*: the variants take turns back to back (the GPU at
    its power limit at 8192^3); *burst*: each timing of one launch follows a pause
    of the GPU (boost clocks, as short benchmark runs see them)."""
    rng = np.random.default_rng(n)
    a = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    expected = reference(a, b)
    poison = np.full((n, n), np.nan, dtype=np.float32)
    b_t = np.ascontiguousarray(b.T)  # for the K-major kernel and cuBLAS "TN"
    da, db, dbt = gpu.upload(a), gpu.upload(b), gpu.upload(b_t)
    dc = gpu.upload(poison)
    maps: list[int] = []
    failures: list[str] = []
    try:
        map_a = tensor_map(da, n, n, (128, 64))
        map_b = tensor_map(db, n, n, (64, 64))
        maps = [map_a, map_b]
        runners: dict[str, Callable[[], None]] = {}
        for config in (c for c in configs() if c.m == n and c.name in cubins):
            arguments = (map_a, map_b, dc)
            if isinstance(config, WgmmaGemmConfig):
                box_n = config.tile_n // config.cluster_m  # a CTA's share of B
                map_bt = tensor_map(dbt, n, n, (box_n, 64))
                maps.append(map_bt)
                arguments = (map_a, map_bt, dc)
            for compiler, cubin in cubins[config.name].items():
                label = f"{compiler} {label_of(config)}"
                runners[label] = kernel_runner(gpu, cubin, config, arguments)
        if lib is not None:
            cublas = SizedCublas(lib, n)
            runners["cuBLAS"] = lambda: cublas.gemm(da, db, dc)
            runners[CUBLAS_TN] = lambda: cublas.gemm_tn(da, dbt, dc)
        got = np.empty((n, n), dtype=np.float32)
        for label, run in runners.items():  # correctness first, from a poisoned C
            gpu.copy_in(dc, poison)
            run()
            gpu.download(dc, got)
            error = float(np.nanmax(np.abs(got - expected)))
            if np.isnan(got).any():
                error = float("nan")
            ok = error <= MAX_ABS_ERROR
            print(
                f"# {n}^3 {label}: max abs error {error:.2e} ({'ok' if ok else 'WRONG'})"
            )
            if not ok:
                failures.append(f"{n}^3 {label}: max abs error {error}")
        launches = 20 if n <= 4096 else 5
        for label, run in runners.items():  # warm-up
            time_ms(gpu, run, 1)
        times: dict[str, dict[str, list[float]]] = {
            method: {label: [] for label in runners} for method in METHODS
        }
        for method, (count, pause) in METHODS.items():
            seen: list[tuple[int, float]] = []
            for turn in range(ROUNDS):
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
        gpu.free(da, db, dbt, dc, *maps)
    return times, failures


def compile_both(
    config: Any,
    ours: Callable[[Any], str],
    upstream: Callable[[Any], str],
    upstream_file: Callable[[Path, Any], Path],
    upstream_dir: Path,
    dump: Path | None,
    kind: str,
) -> dict[str, bytes] | None:
    """The cubins of ``config``'s program from our PTX and mlir-opt-22's (run here
    where installed, else read from ``upstream_dir``, written by ``--prepare``),
    saying how the two PTX texts and cubins compare; both PTX texts are written to
    ``dump`` if given. None, said why, when there is no MLIR 22 PTX."""
    if shutil.which("mlir-opt-22"):
        theirs = upstream(config)
    elif upstream_file(upstream_dir, config).exists():
        theirs = upstream_file(upstream_dir, config).read_text()
    else:
        print(f"no MLIR 22 PTX for {config.name}: run --prepare where mlir-opt-22 is")
        return None
    mine = ours(config)
    same = _compare_ptx(mine, theirs)
    if dump:
        dump.mkdir(parents=True, exist_ok=True)
        (dump / f"{kind}.{config.name}.xdsl-gpu.ptx").write_text(mine)
        upstream_file(dump, config).write_text(theirs)
    cubins = {"xdsl-gpu": assemble(mine, CHIP), "MLIR 22": assemble(theirs, CHIP)}
    binary = "the same cubin" if len(set(cubins.values())) == 1 else "different cubins"
    print(f"# {config.name}: xdsl-gpu's PTX is {same} MLIR 22's ({binary})")
    return cubins


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
        "--only", metavar="REGEX",
        help="only the configurations whose name (e.g. 8192x8192x8192.s4.w3.g8."
        "wg2.n256.ws.f16) matches; cuBLAS always runs",
    )  # fmt: skip
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=list(SIZES), choices=SIZES,
        help="M = N = K of each run (default: 4096 8192)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    chosen = [
        c
        for c in configs()
        if c.m in args.sizes and (not args.only or re.search(args.only, c.name))
    ]
    if not chosen:
        print(f"no configuration matches {args.only!r}")
        return 1

    if args.prepare:
        args.prepare.mkdir(parents=True, exist_ok=True)
        for config in configs():
            path = upstream_file(args.prepare, config)
            path.write_text(upstream_ptx(config))
            print(f"wrote {path}")
        return 0

    gpu = Gpu()
    cubins: dict[str, dict[str, bytes]] = {}
    for config in chosen:
        both = compile_both(
            config, ours_ptx, upstream_ptx, upstream_file, args.upstream_ptx,
            args.dump, "nvgpu_gemm",
        )  # fmt: skip
        if both is None:
            return 1
        cubins[config.name] = both

    lib = _load_cublas()
    if lib is None:
        print("# libcublas not found: no cuBLAS column")
    failures: list[str] = []
    clocks = Clocks()
    for n in args.sizes:
        by_method, wrong = bench_size(gpu, n, cubins, lib, clocks)
        failures += wrong
        for method, times in by_method.items():
            failures += report(gpu, n, method, times)
    print()
    for failure in failures:
        print(f"target missed: {failure}")
    print("all targets met" if not failures else f"{len(failures)} target(s) missed")
    return 1 if failures else 0


def report(gpu: Gpu, n: int, method: str, times: dict[str, list[float]]) -> list[str]:
    """Print one method's table at ``n``^3; the targets it misses. The absolute
    figure (600 TFLOP/s) is reported, the relative targets decide."""
    failures: list[str] = []
    best = {label: min(ms) for label, ms in times.items()}
    flops = 2 * n**3
    references = [best[label] for label in ("cuBLAS", CUBLAS_TN) if label in best]
    cublas_ms = min(references) if references else None
    print(
        f"\n# {n}x{n}x{n} f16 -> f32 on {gpu.device.name}, {method} timing, best "
        f"of {ROUNDS} rounds, CUDA events"
    )
    print(
        "| variant | ms | TFLOP/s | % cuBLAS (faster layout) | % peak | xdsl-gpu / MLIR 22 "
        "(median of rounds) |"
    )
    print("|---|---|---|---|---|---|")
    for label, ms in best.items():
        tflops = flops / ms / 1e9
        versus = f"{100 * cublas_ms / ms:.1f}" if cublas_ms else "n/a"
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
    tflops = flops / ours_best / 1e9
    line = f"\nbest xdsl-gpu configuration ({method}): {tflops:.1f} TFLOP/s"
    if cublas_ms:
        share = cublas_ms / ours_best
        line += f", {100 * share:.1f}% of cuBLAS"
        if n == max(SIZES) and method == "sustained" and share < TARGET_VS_CUBLAS:
            failures.append(
                f"{n}^3 ({method}): best xdsl-gpu {100 * share:.1f}% of cuBLAS "
                f"(target {100 * TARGET_VS_CUBLAS:.0f}%)"
            )
    print(line + f" ({'at least' if tflops >= 600 else 'below'} 600 TFLOP/s)")
    return failures


def _compare_ptx(ours: str, upstream: str) -> str:
    from tests.support.mlir_differential import compare_ptx

    return compare_ptx(ours, upstream)


if __name__ == "__main__":
    raise SystemExit(main())
