"""A WMMA matmul, 4096^3 f16 -> f32, compiled by xdsl-gpu and by MLIR 22, and cuBLAS.

The kernel (``kernels/wmma_matmul.mlir``: ``gpu.subgroup_mma_*``, a 64x64 tile per
block of 4 warps, 32x32 per warp) is compiled two ways with
``gpu-lower-to-nvvm-pipeline{cubin-format=isa opt-level=3
kernel-bare-ptr-calling-convention=1}``: by xdsl-gpu in this process and by
``mlir-opt-22``. Both PTX texts are assembled by the same assembler (nvJitLink,
``-O3``). ``cublasGemmEx`` (f16 inputs, f32 output, f32 compute, through ctypes) is
the reference for what the GPU can do; ``torch.matmul`` on the f16 matrices (f16
output), where torch is installed, is a cross-check of that figure.

Every result is checked against NumPy (f32) before anything is timed; the output is
poisoned with NaN first. Times are CUDA events, best of the rounds, the variants
taking turns. Target: xdsl-gpu's kernel within 2% of MLIR 22's (exit status 1 if
not).

The GPU machine has no ``mlir-opt-22``: write its PTX where it is installed, send the
folder along, and name it there::

    python3 benchmarks/bench_wmma_matmul.py --prepare .bench   # here (needs mlir-opt-22)
    python3 benchmarks/bench_wmma_matmul.py                    # there (reads .bench)
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import glob
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as a script

from bench_kernels import (  # its Gpu, assembler and options
    KERNELS,
    OPTIONS,
    ROOT,
    UPSTREAM_FEATURES,
    Gpu,
    Kernel,
    assemble,
)

N = 4096
FLOPS = 2 * N**3
KERNEL = Kernel(
    "wmma_matmul.mlir", "wmma_matmul", (N // 64, N // 64, 1), (128, 1, 1), 0
)
ROUNDS = 10
LAUNCHES_PER_ROUND = 5
TARGET = 1.02


# -- compilation ---------------------------------------------------------------------


def _ptx_of_binary(module: object) -> str:
    from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp

    (binary,) = [op for op in module.walk() if isinstance(op, BinaryOp)]  # type: ignore[attr-defined]
    (obj,) = binary.objects.data
    return obj.object.data.decode()  # pyright: ignore[reportAttributeAccessIssue]


def ours_ptx(chip: str) -> str:
    from xdsl_gpu.targets.runtime.api import (
        parse_program,
        pipeline_pass,
        program_context,
    )

    module = parse_program((KERNELS / KERNEL.source).read_text(), KERNEL.source)
    pipeline_pass(f"cubin-chip={chip} {OPTIONS}").apply(program_context(), module)
    return _ptx_of_binary(module)


def upstream_ptx(chip: str) -> str:
    options = f"cubin-chip={chip} cubin-features={UPSTREAM_FEATURES} {OPTIONS}"
    done = subprocess.run(
        ["mlir-opt-22", str(KERNELS / KERNEL.source), f"--gpu-lower-to-nvvm-pipeline={options}"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    from xdsl_gpu.targets.runtime.api import parse_program

    return _ptx_of_binary(parse_program(done.stdout, "mlir-opt-22 output"))


def upstream_file(folder: Path, chip: str) -> Path:
    return folder / f"{KERNEL.stem}.mlir-opt-22.{chip}.ptx"


def _instructions(ptx: str) -> list[str]:
    """The PTX without comments and the ``.version``/``.target`` header lines."""
    return [
        line.strip()
        for line in ptx.splitlines()
        if line.strip() and not line.strip().startswith(("//", ".version", ".target"))
    ]


def ptx_difference(ours: str, upstream: str) -> str:
    """How xdsl-gpu's PTX compares with MLIR 22's, in words."""
    if ours == upstream:
        return "xdsl-gpu's is identical to MLIR 22's"
    mine, theirs = _instructions(ours), _instructions(upstream)
    if mine == theirs:
        return "xdsl-gpu's equals MLIR 22's but for comments and the header"
    differing = sum(a != b for a, b in zip(mine, theirs, strict=False))
    return (
        f"xdsl-gpu's differs from MLIR 22's: {len(mine)} vs {len(theirs)} lines, "
        f"{differing} of the common ones differ"
    )


# -- cuBLAS ----------------------------------------------------------------------------


def _load_cublas() -> ctypes.CDLL | None:
    """libcublas from the CUDA toolkit, a pip wheel or torch, whichever is found."""
    candidates: list[str] = []
    found = ctypes.util.find_library("cublas")
    if found:
        candidates.append(found)
    roots = [os.environ.get("CUDA_HOME", ""), "/usr/local/cuda", *sys.path]
    for root in filter(None, roots):
        for pattern in (
            "lib64/libcublas.so*",
            "lib/libcublas.so*",
            "nvidia/cu*/lib/libcublas.so*",
            "nvidia/cublas/lib/libcublas.so*",
            "torch/lib/libcublas.so*",
        ):
            candidates += sorted(glob.glob(os.path.join(root, pattern)))
    for candidate in candidates:
        try:
            return ctypes.CDLL(candidate)
        except OSError:
            continue
    return None


class Cublas:
    """``cublasGemmEx`` for row-major ``C = A * B`` (f16 inputs, f32 C and compute)."""

    CUDA_R_16F = 2
    CUDA_R_32F = 0
    COMPUTE_32F = 68
    GEMM_DEFAULT = -1
    OP_N = 0
    OP_T = 1

    def __init__(self, lib: ctypes.CDLL):
        self.lib = lib
        self.handle = ctypes.c_void_p()
        self._check(lib.cublasCreate_v2(ctypes.byref(self.handle)), "cublasCreate")
        self.alpha = ctypes.c_float(1.0)
        self.beta = ctypes.c_float(0.0)
        lib.cublasGemmEx.argtypes = [
            ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
            ctypes.c_int, ctypes.c_int, ctypes.c_int,
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
            ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
            ctypes.c_int, ctypes.c_int,
        ]  # fmt: skip

    @staticmethod
    def _check(status: int, what: str) -> None:
        if status != 0:
            raise RuntimeError(f"{what} failed: cuBLAS status {status}")

    def gemm(self, a: int, b: int, c: int) -> None:
        # Row-major C = A B is column-major C^T = B^T A^T: B first.
        self._check(
            self.lib.cublasGemmEx(
                self.handle, self.OP_N, self.OP_N, N, N, N,
                ctypes.byref(self.alpha),
                b, self.CUDA_R_16F, N,
                a, self.CUDA_R_16F, N,
                ctypes.byref(self.beta),
                c, self.CUDA_R_32F, N,
                self.COMPUTE_32F, self.GEMM_DEFAULT,
            ),
            "cublasGemmEx",
        )  # fmt: skip


# -- running -----------------------------------------------------------------------


def time_ms(gpu: Gpu, run: Callable[[], None], launches: int) -> float:
    """Milliseconds per call of ``run``, by CUDA events on the default stream."""
    cu = gpu.cu
    gpu._ok((cu.cuEventRecord(gpu.start, 0)[0], None))  # pyright: ignore[reportPrivateUsage]
    for _ in range(launches):
        run()
    gpu._ok((cu.cuEventRecord(gpu.stop, 0)[0], None))  # pyright: ignore[reportPrivateUsage]
    gpu._ok((cu.cuEventSynchronize(gpu.stop)[0], None))  # pyright: ignore[reportPrivateUsage]
    elapsed = gpu._ok(cu.cuEventElapsedTime(gpu.start, gpu.stop))  # pyright: ignore[reportPrivateUsage]
    return float(elapsed) / launches  # pyright: ignore[reportArgumentType]


def kernel_runner(gpu: Gpu, cubin: bytes, args: Sequence[int]) -> Callable[[], None]:
    function = gpu.function(cubin, KERNEL.name)
    values = [ctypes.c_void_p(a) for a in args]
    pointers = (ctypes.c_void_p * len(values))(*[ctypes.addressof(v) for v in values])

    def launch() -> None:
        assert values  # keeps alive the argument values that ``pointers`` points at
        result = gpu.cu.cuLaunchKernel(
            function, *KERNEL.grid, *KERNEL.block, 0, 0, ctypes.addressof(pointers), 0
        )
        gpu._ok((result[0], None))  # pyright: ignore[reportPrivateUsage]

    return launch


def torch_runner(a: np.ndarray, b: np.ndarray) -> Callable[[], None] | None:
    try:
        import torch  # pyright: ignore[reportMissingImports]
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    ta = torch.from_numpy(a).cuda()
    tb = torch.from_numpy(b).cuda()
    torch.cuda.synchronize()

    def run() -> None:
        torch.matmul(ta, tb)

    return run


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--prepare", type=Path, metavar="DIR",
        help="write mlir-opt-22's PTX to DIR and stop",
    )  # fmt: skip
    parser.add_argument("--chip", default="sm_90", help="chip for --prepare")
    parser.add_argument(
        "--upstream-ptx", type=Path, metavar="DIR", default=ROOT / ".bench",
        help="mlir-opt-22's PTX written by --prepare (default: .bench)",
    )  # fmt: skip
    parser.add_argument(
        "--dump", type=Path, metavar="DIR", help="also write both PTX texts to DIR"
    )
    args = parser.parse_args(argv)

    if args.prepare:
        args.prepare.mkdir(parents=True, exist_ok=True)
        path = upstream_file(args.prepare, args.chip)
        path.write_text(upstream_ptx(args.chip))
        print(f"wrote {path}")
        return 0

    gpu = Gpu()
    chip = gpu.chip
    if shutil.which("mlir-opt-22"):
        upstream = upstream_ptx(chip)
    elif upstream_file(args.upstream_ptx, chip).exists():
        upstream = upstream_file(args.upstream_ptx, chip).read_text()
    else:
        print(f"no MLIR 22 PTX for {chip}: run --prepare where mlir-opt-22 is")
        return 1
    ours = ours_ptx(chip)
    print(f"# PTX: {ptx_difference(ours, upstream)}")
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
        (args.dump / f"{KERNEL.stem}.xdsl-gpu.{chip}.ptx").write_text(ours)
        (args.dump / f"{KERNEL.stem}.mlir-opt-22.{chip}.ptx").write_text(upstream)
    cubins = {"xdsl-gpu": assemble(ours, chip), "MLIR 22": assemble(upstream, chip)}

    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (N, N)).astype(np.float16)
    b = rng.uniform(-1, 1, (N, N)).astype(np.float16)
    expected = a.astype(np.float32) @ b.astype(np.float32)
    poison = np.full((N, N), np.nan, dtype=np.float32)
    da, db, dc = gpu.upload(a), gpu.upload(b), gpu.upload(poison)

    runners: dict[str, Callable[[], None]] = {
        label: kernel_runner(gpu, cubin, (da, db, dc))
        for label, cubin in cubins.items()
    }
    lib = _load_cublas()
    if lib is not None:
        cublas = Cublas(lib)
        runners["cuBLAS"] = lambda: cublas.gemm(da, db, dc)
    else:
        print("# libcublas not found: no cuBLAS column")

    try:
        for label, run in runners.items():  # correctness first, from a poisoned C
            gpu.copy_in(dc, poison)
            run()
            got = np.empty((N, N), dtype=np.float32)
            gpu.download(dc, got)
            np.testing.assert_allclose(got, expected, rtol=1e-3, atol=1e-2)
            print(f"# {label}: result matches NumPy")
        cross_check = torch_runner(a, b)
        if cross_check is not None:
            runners["torch.matmul (f16 out)"] = cross_check
        best = dict.fromkeys(runners, float("inf"))
        for _ in range(ROUNDS):
            for label, run in runners.items():
                best[label] = min(best[label], time_ms(gpu, run, LAUNCHES_PER_ROUND))
    finally:
        gpu.free(da, db, dc)

    print(
        f"# {N}x{N}x{N} f16 -> f32 on {gpu.device.name} ({chip}), best of {ROUNDS} "
        f"rounds of {LAUNCHES_PER_ROUND} calls, CUDA events"
    )
    reference = best.get("cuBLAS")
    print("| variant | ms | TFLOP/s | / cuBLAS time |")
    print("|---|---|---|---|")
    for label, ms in best.items():
        versus = f"{ms / reference:.2f}" if reference else "n/a"
        print(f"| {label} | {ms:.3f} | {FLOPS / ms / 1e9:.1f} | {versus} |")
    ratio = best["xdsl-gpu"] / best["MLIR 22"]
    met = ratio <= TARGET
    print(
        f"\ntarget (xdsl-gpu within {TARGET - 1:.0%} of MLIR 22): "
        f"{'met' if met else 'NOT met'}, ratio {ratio:.3f}"
    )
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
