"""Compile speed: xdsl-gpu's ``xdsl-opt`` against ``mlir-opt-22``, side by side.

Each program is compiled to PTX with ``gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90
cubin-features=+ptx80 cubin-format=isa}`` by both tools, as whole processes (start-up
included, as a user runs them), the two taking turns; the figure is the median of the
runs. Programs:

* seed 002 (``examples/async_matmul/matmul.mlir``);
* N renamed copies of seed 002 in one module (N = 1, 8, 64 by default: 3N gpu.modules);
* one large kernel (a gpu.launch with a long body of arithmetic).

It prints a table of times and ratios, the growth from 8 to 64 copies of each tool
(a tool that grows linearly scales by 8), and, with ``--profile``, where our time goes
(cProfile of one in-process compile of the largest program, top functions by
cumulative time). Targets (issue 16): seed 002 within 4x of mlir-opt-22; 64 copies
within 4x and our growth within 1.1x of mlir-opt-22's.

Usage::

    python3 benchmarks/bench_compile.py [--copies 1,8,64] [--runs 5] [--profile]
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "examples" / "async_matmul" / "matmul.mlir"
PIPELINE = "gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=isa}"


def copies(n: int) -> str:
    """Seed 002 ``n`` times in one module, every symbol renamed per copy."""
    text = SEED.read_text()
    body = text[text.index("module attributes {gpu.container_module} {") :]
    inner = body[
        body.index("{", body.index("gpu.container_module")) + 1 : body.rindex("}")
    ]
    symbols = sorted(
        set(re.findall(r"@([A-Za-z_][\w$]*)", inner)), key=len, reverse=True
    )
    parts = []
    for i in range(n):
        part = inner
        for name in symbols:
            part = re.sub(rf"@{re.escape(name)}\b", f"@{name}_c{i}", part)
        parts.append(part)
    header = text[: text.index("module attributes")]
    return (
        header + "module attributes {gpu.container_module} {" + "".join(parts) + "}\n"
    )


def large_kernel(statements: int) -> str:
    lines = [
        "module attributes {gpu.container_module} {",
        "  func.func @big(%m: memref<1024xf32>) {",
        "    %c1 = arith.constant 1 : index",
        "    %c256 = arith.constant 256 : index",
        "    gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)",
        "               threads(%t0, %t1, %t2) in (%s0 = %c256, %s1 = %c1, %s2 = %c1) {",
        "      %x0 = memref.load %m[%t0] : memref<1024xf32>",
    ]
    for i in range(statements):
        op = ("arith.addf", "arith.mulf", "arith.subf")[i % 3]
        lines.append(f"      %x{i + 1} = {op} %x{i}, %x{i // 2} : f32")
    lines += [
        f"      memref.store %x{statements}, %m[%t0] : memref<1024xf32>",
        "      gpu.terminator",
        "    }",
        "    return",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _time(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{command[0]} failed:\n{done.stderr[-2000:]}")
    return elapsed


def measure(path: Path, runs: int) -> tuple[float, float]:
    ours_cmd = ["xdsl-opt", str(path), "-p", PIPELINE]
    options = PIPELINE[PIPELINE.index("{") + 1 : -1]
    theirs_cmd = ["mlir-opt-22", str(path), f"--gpu-lower-to-nvvm-pipeline={options}"]
    ours, theirs = [], []
    for _ in range(runs):
        ours.append(_time(ours_cmd))
        theirs.append(_time(theirs_cmd))
    return statistics.median(ours), statistics.median(theirs)


def profile(path: Path, top: int = 25) -> None:
    import cProfile
    import pstats

    code = (
        "import sys; from xdsl.tools.xdsl_opt import main; "
        f"sys.argv = ['xdsl-opt', {str(path)!r}, '-p', {PIPELINE!r}, '-o', '/dev/null']; "
        "main()"
    )
    profiler = cProfile.Profile()
    profiler.runctx(code, {}, {})
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", default="1,8,64")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--large", type=int, default=4000, help="statements")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    if shutil.which("mlir-opt-22") is None:
        print("mlir-opt-22 is needed (apt-get install mlir-22-tools)")
        return 1
    counts = [int(c) for c in args.copies.split(",") if c]
    rows: list[tuple[str, float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        programs = [("seed 002", SEED)]
        for n in counts:
            path = Path(folder) / f"copies_{n}.mlir"
            path.write_text(copies(n))
            programs.append((f"{n} copies ({3 * n} gpu.modules)", path))
        big = Path(folder) / "large.mlir"
        big.write_text(large_kernel(args.large))
        programs.append((f"one kernel of {args.large} ops", big))
        print(f"# compile to PTX, whole process, median of {args.runs}")
        print("| program | xdsl-opt s | mlir-opt-22 s | ratio |")
        print("|---|---|---|---|")
        for label, path in programs:
            ours, theirs = measure(path, args.runs)
            rows.append((label, ours, theirs))
            print(f"| {label} | {ours:.3f} | {theirs:.3f} | {ours / theirs:.1f}x |")
            sys.stdout.flush()
        by_label = {label: (o, t) for label, o, t in rows}
        seed_ratio = by_label["seed 002"][0] / by_label["seed 002"][1]
        met = seed_ratio <= 4.0
        print(f"\nseed 002: {seed_ratio:.1f}x mlir-opt-22 (target <= 4.0x)")
        if 8 in counts and 64 in counts:
            o8, t8 = by_label["8 copies (24 gpu.modules)"]
            o64, t64 = by_label["64 copies (192 gpu.modules)"]
            growth = (o64 / o8) / (t64 / t8)
            print(
                f"8 -> 64 copies: xdsl-opt x{o64 / o8:.2f}, mlir-opt-22 x{t64 / t8:.2f}; "
                f"relative growth {growth:.2f} (target <= 1.1); 64 copies "
                f"{o64 / t64:.1f}x (target <= 4.0x)"
            )
            met = met and growth <= 1.1 and o64 / t64 <= 4.0
        print(f"targets: {'met' if met else 'NOT met'}")
        if args.profile:
            profile(programs[-2][1] if len(programs) > 2 else SEED)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
