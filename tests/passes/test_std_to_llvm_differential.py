"""Differential tests of the std-to-LLVM passes against upstream MLIR 22.

Each case is a ``func.func @kernel`` over scalars (integers of every width, index,
f16/bf16/f32/f64), with loops, branches, calls, math functions, ``index`` and
``affine`` ops. It runs on seeded random inputs two ways:

* **ours**: our passes (``PIPELINE``, in-process) on the kernel; the result is
  JIT-compiled with llvmlite (:class:`xdsl_gpu.targets.cpu_jit.CpuJit`) and ``@kernel`` is
  called once per input set;
* **upstream**: the kernel plus a ``@main`` that calls it on the same inputs and
  prints every result as the bits of an ``i64`` (``printI64``: no rounding in the
  comparison; NaNs made canonical, since their payload is not specified), lowered by
  ``mlir-opt-22`` with the same passes and run by ``mlir-runner-22``.

Every result must match bit for bit. The kernel carries ``passthrough =
["noinline"]`` so that upstream's LLVM cannot fold it into ``@main``'s constants.

The IR our passes emit must also be accepted by ``mlir-translate-22 --mlir-to-llvmir``
(``test_mlir_translate_accepts_our_output``), and the memref calling conventions of
``convert-func-to-llvm`` (descriptor, bare pointer, ``_mlir_ciface_``) are compared with
upstream's lowering JIT-compiled the same way (``test_memref_calling_conventions``).
"""

from __future__ import annotations

import math
import os
import shutil
import struct
import subprocess
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline
from xdsl.transforms import get_all_passes as xdsl_passes

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.passes import get_all_passes
from xdsl_gpu.passes.registration import REPLACED_PASSES

MLIR_OPT = shutil.which("mlir-opt-22")
MLIR_RUNNER = shutil.which("mlir-runner-22")
MLIR_TRANSLATE = shutil.which("mlir-translate-22")

if MLIR_OPT is None and os.environ.get("CI"):
    raise RuntimeError("CI needs mlir-opt-22 (Debian package mlir-22-tools)")

requires_mlir = pytest.mark.skipif(
    None in (MLIR_OPT, MLIR_RUNNER, MLIR_TRANSLATE),
    reason="mlir-opt-22/mlir-runner-22/mlir-translate-22 not installed",
)

PIPELINE = (
    "lower-affine",
    "convert-scf-to-cf",
    "convert-arith-to-llvm",
    "convert-math-to-llvm",
    "convert-index-to-llvm",
    "finalize-memref-to-llvm",
    "convert-func-to-llvm",
    "convert-cf-to-llvm",
    "reconcile-unrealized-casts",
)
"""The passes, in the same order on both sides."""

WITH_INDEX_BITWIDTH = {
    "convert-arith-to-llvm",
    "convert-index-to-llvm",
    "finalize-memref-to-llvm",
    "convert-func-to-llvm",
    "convert-cf-to-llvm",
}

INPUT_SETS = 6
"""Random input sets per case."""


# --------------------------------------------------------------------------------------
# Inputs and results as bits
# --------------------------------------------------------------------------------------

Domain = Callable[[np.random.Generator], float | int | bool]


def ints(
    width: int, nonzero: bool = False, lo: int | None = None, hi: int | None = None
) -> Domain:
    lo = -(1 << (width - 1)) if lo is None else lo
    hi = (1 << (width - 1)) - 1 if hi is None else hi

    def draw(rng: np.random.Generator) -> int:
        while True:
            # Half the draws small (where the edge cases are), half anywhere.
            v = (
                int(rng.integers(-20, 21))
                if rng.random() < 0.5
                else int(rng.integers(lo, hi, endpoint=True))
            )
            v = min(max(v, lo), hi)
            if not (nonzero and v == 0):
                return v

    return draw


def floats(lo: float = -100.0, hi: float = 100.0, special: bool = True) -> Domain:
    def draw(rng: np.random.Generator) -> float:
        if special and rng.random() < 0.15:
            return float(
                rng.choice([0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0])
            )
        return float(rng.uniform(lo, hi))

    return draw


def booleans(rng: np.random.Generator) -> bool:
    return bool(rng.integers(0, 2))


FLOAT_BITS = {
    "f16": (np.float16, np.uint16),
    "bf16": (None, np.uint16),
    "f32": (np.float32, np.uint32),
    "f64": (np.float64, np.uint64),
}
CANONICAL_NAN = {
    "f16": 0x7E00,
    "bf16": 0x7FC0,
    "f32": 0x7FC00000,
    "f64": 0x7FF8000000000000,
}


def literal(value: float | int | bool, t: str) -> str:
    """An MLIR literal of type ``t`` with exactly this value (floats as hex bits)."""
    if t == "i1":
        return "true" if value else "false"
    if t in FLOAT_BITS:
        np_type, bits = FLOAT_BITS[t]
        assert np_type is not None
        raw = int(np.array(value, dtype=np_type).view(bits))
        return f"0x{raw:X}"
    return str(int(value))


def as_bits(value: object, t: str) -> int:
    """A result as the i64 that ``@main`` prints for it."""
    if t in FLOAT_BITS:
        np_type, bits = FLOAT_BITS[t]
        assert np_type is not None
        array = np.array(value, dtype=np_type)
        raw = CANONICAL_NAN[t] if np.isnan(array) else int(array.view(bits))
        # @main zero-extends narrower floats' bits and prints f64 bits as signed.
        return raw - (1 << 64) if t == "f64" and raw >> 63 else raw
    if t == "i1":
        return int(bool(value))
    width = 64 if t == "index" else int(t[1:])
    v = int(value)  # pyright: ignore[reportArgumentType]
    v &= (1 << width) - 1
    return v - (1 << width) if v >> (width - 1) else v


def to_i64(value: str, t: str, n: str) -> list[str]:
    """Ops of ``@main`` that turn ``value`` of type ``t`` into ``%w{n}: i64``."""
    match t:
        case "i1":
            return [f"%w{n} = arith.extui {value} : i1 to i64"]
        case "i64":
            return [f"%w{n} = arith.addi {value}, %zero : i64"]
        case "index":
            return [f"%w{n} = arith.index_cast {value} : index to i64"]
        case _ if t in FLOAT_BITS:
            width = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}[t]
            lines = [
                f"%nan{n} = arith.cmpf uno, {value}, {value} : {t}",
                f"%cn{n} = arith.constant 0x{CANONICAL_NAN[t]:X} : {t}",
                f"%canon{n} = arith.select %nan{n}, %cn{n}, {value} : {t}",
                f"%b{n} = arith.bitcast %canon{n} : {t} to i{width}",
            ]
            if width == 64:
                return [*lines, f"%w{n} = arith.addi %b{n}, %zero : i64"]
            return [*lines, f"%w{n} = arith.extui %b{n} : i{width} to i64"]
        case _:
            return [f"%w{n} = arith.extsi {value} : {t} to i64"]


# --------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    kernel: str
    args: Sequence[tuple[str, Domain]]
    results: Sequence[str]
    index_bitwidth: int = 0
    extra_inputs: Sequence[Sequence[float | int | bool]] = field(default=())
    """Input sets always tried, besides the random ones (edge cases)."""
    jit: bool = True
    """Whether the case can run under llvmlite's JIT (see ``bf16_casts``)."""

    def inputs(self) -> list[list[float | int | bool]]:
        rng = np.random.default_rng(zlib.crc32(self.name.encode()))
        drawn = [[draw(rng) for _, draw in self.args] for _ in range(INPUT_SETS)]
        return [*map(list, self.extra_inputs), *drawn]


def driver(case: Case, input_sets: list[list[float | int | bool]]) -> str:
    """The kernel plus a ``@main`` that calls it on every input set and prints the
    results as i64 bits."""
    arg_types = ", ".join(t for t, _ in case.args)
    result_types = ", ".join(case.results)
    lines = [
        case.kernel,
        "func.func private @printI64(i64)",
        "func.func private @printNewline()",
        "func.func @main() {",
        "  %zero = arith.constant 0 : i64",
    ]
    for k, inputs in enumerate(input_sets):
        names = []
        for j, ((t, _), v) in enumerate(zip(case.args, inputs, strict=True)):
            typed = "" if t == "i1" else f" : {t}"
            lines.append(f"  %in{k}_{j} = arith.constant {literal(v, t)}{typed}")
            names.append(f"%in{k}_{j}")
        outs = [f"%out{k}_{i}" for i in range(len(case.results))]
        call = (
            f"func.call @kernel({', '.join(names)}) : ({arg_types}) -> ({result_types})"
        )
        lines.append(f"  {', '.join(outs)} = {call}" if outs else f"  {call}")
        for i, (out, t) in enumerate(zip(outs, case.results, strict=True)):
            lines += [f"  {line}" for line in to_i64(out, t, f"{k}_{i}")]
            lines.append(f"  func.call @printI64(%w{k}_{i}) : (i64) -> ()")
            lines.append("  func.call @printNewline() : () -> ()")
    lines += ["  func.return", "}"]
    return "\n".join(lines) + "\n"


def _run(args: list[str], stdin: str) -> str:
    done = subprocess.run(
        args, input=stdin, capture_output=True, text=True, timeout=300
    )
    if done.returncode != 0:
        raise AssertionError(
            f"{' '.join(args)} failed:\n{done.stderr}\n--- input ---\n{stdin}"
        )
    return done.stdout


def c_runner_utils() -> str:
    for directory in (Path("/usr/lib/llvm-22/lib"), Path("/usr/lib")):
        for candidate in sorted(directory.glob("libmlir_c_runner_utils.so*")):
            return str(candidate)
    raise AssertionError("libmlir_c_runner_utils (mlir-22-tools) is missing")


def upstream_flags(index_bitwidth: int) -> list[str]:
    return [
        f"--{name}"
        + (
            f"=index-bitwidth={index_bitwidth}"
            if index_bitwidth and name in WITH_INDEX_BITWIDTH
            else ""
        )
        for name in PIPELINE
    ]


def upstream_results(
    case: Case, input_sets: list[list[float | int | bool]]
) -> list[int]:
    assert MLIR_OPT is not None
    assert MLIR_RUNNER is not None
    lowered = _run(
        [MLIR_OPT, *upstream_flags(case.index_bitwidth)], driver(case, input_sets)
    )
    out = _run(
        [
            MLIR_RUNNER,
            "-e=main",
            "-entry-point-result=void",
            f"-shared-libs={c_runner_utils()}",
        ],
        lowered,
    )
    return [int(w) for w in out.split()]


def lower_ours(
    kernel: str, index_bitwidth: int = 0, bare_ptr: bool = False
) -> ModuleOp:
    """The kernel through ``PIPELINE`` with our passes (xDSL's convert-scf-to-cf)."""
    module = parse(kernel)
    available = {**xdsl_passes(), **get_all_passes(), **REPLACED_PASSES}
    specs = []
    for name in PIPELINE:
        options = []
        if index_bitwidth and name in WITH_INDEX_BITWIDTH:
            options.append(f"index-bitwidth={index_bitwidth}")
        if bare_ptr and name == "convert-func-to-llvm":
            options.append("use-bare-ptr-memref-call-conv=true")
        specs.append(name + (f"{{{' '.join(options)}}}" if options else ""))
    PassPipeline.parse_spec(available, ",".join(specs)).apply(make_context(), module)
    return module


def our_results(case: Case, input_sets: list[list[float | int | bool]]) -> list[int]:
    from xdsl_gpu.targets.cpu_jit import CpuJit

    jit = CpuJit(lower_ours(case.kernel, case.index_bitwidth))
    words: list[int] = []
    for inputs in input_sets:
        out = jit.call("kernel", *inputs)
        values = out if isinstance(out, tuple) else (out,)
        words += [as_bits(v, t) for v, t in zip(values, case.results, strict=True)]
    return words


# --------------------------------------------------------------------------------------
# The corpus
# --------------------------------------------------------------------------------------

NOINLINE = 'attributes {passthrough = ["noinline"]}'


def integer_case(t: str) -> Case:
    """Every integer op of arith on ``t`` (shift amounts kept in range)."""
    width = 64 if t == "index" else int(t[1:])
    return Case(
        f"integer_ops_{t}",
        f"""
func.func @kernel(%a: {t}, %b: {t}) -> ({", ".join([t] * 21 + ["i1"] * 10)}) {NOINLINE} {{
  %c1 = arith.constant {width - 1} : {t}
  %sh = arith.andi %b, %c1 : {t}
  %0 = arith.addi %a, %b : {t}
  %1 = arith.subi %a, %b : {t}
  %2 = arith.muli %a, %b : {t}
  %3 = arith.divsi %a, %b : {t}
  %4 = arith.divui %a, %b : {t}
  %5 = arith.remsi %a, %b : {t}
  %6 = arith.remui %a, %b : {t}
  %7 = arith.andi %a, %b : {t}
  %8 = arith.ori %a, %b : {t}
  %9 = arith.xori %a, %b : {t}
  %10 = arith.shli %a, %sh : {t}
  %11 = arith.shrsi %a, %sh : {t}
  %12 = arith.shrui %a, %sh : {t}
  %13 = arith.maxsi %a, %b : {t}
  %14 = arith.minsi %a, %b : {t}
  %15 = arith.maxui %a, %b : {t}
  %16 = arith.minui %a, %b : {t}
  %17 = arith.ceildivsi %a, %b : {t}
  %18 = arith.floordivsi %a, %b : {t}
  %19 = arith.ceildivui %a, %b : {t}
  %p = arith.cmpi slt, %a, %b : {t}
  %20 = arith.select %p, %a, %b : {t}
  %e0 = arith.cmpi eq, %a, %b : {t}
  %e1 = arith.cmpi ne, %a, %b : {t}
  %e2 = arith.cmpi slt, %a, %b : {t}
  %e3 = arith.cmpi sle, %a, %b : {t}
  %e4 = arith.cmpi sgt, %a, %b : {t}
  %e5 = arith.cmpi sge, %a, %b : {t}
  %e6 = arith.cmpi ult, %a, %b : {t}
  %e7 = arith.cmpi ule, %a, %b : {t}
  %e8 = arith.cmpi ugt, %a, %b : {t}
  %e9 = arith.cmpi uge, %a, %b : {t}
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %e0, %e1, %e2, %e3, %e4, %e5, %e6, %e7, %e8, %e9 : {", ".join([t] * 21 + ["i1"] * 10)}
}}
""",
        # No division by zero, no INT_MIN / -1 (both undefined behaviour).
        [(t, ints(width, lo=-(1 << (width - 1)) + 1)), (t, ints(width, nonzero=True))],
        [t] * 21 + ["i1"] * 10,
        extra_inputs=[[7, 2], [-7, 2], [7, -2], [-7, -2], [0, 3], [6, 3], [-6, 3]],
    )


CASES: list[Case] = [integer_case(t) for t in ("i8", "i16", "i32", "i64", "index")]

# i1 on its own: signed division of i1 can only divide by -1 (true), which overflows
# for INT_MIN (true); the unsigned ops, bitwise ops, min/max and compares are all
# defined.
CASES += [
    Case(
        "integer_ops_i1",
        f"""
func.func @kernel(%a: i1, %b: i1) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i8, i8) {NOINLINE} {{
  %0 = arith.addi %a, %b : i1
  %1 = arith.subi %a, %b : i1
  %2 = arith.muli %a, %b : i1
  %3 = arith.andi %a, %b : i1
  %4 = arith.ori %a, %b : i1
  %5 = arith.xori %a, %b : i1
  %6 = arith.maxsi %a, %b : i1
  %7 = arith.minsi %a, %b : i1
  %8 = arith.maxui %a, %b : i1
  %9 = arith.minui %a, %b : i1
  %10 = arith.cmpi slt, %a, %b : i1
  %11 = arith.cmpi ult, %a, %b : i1
  %12 = arith.cmpi sge, %a, %b : i1
  %13 = arith.select %a, %b, %10 : i1
  %t = arith.constant true
  %14 = arith.divui %a, %t : i1
  %15 = arith.remui %a, %t : i1
  %16 = arith.extsi %a : i1 to i8
  %17 = arith.extui %b : i1 to i8
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i8, i8
}}
""",
        [("i1", booleans), ("i1", booleans)],
        ["i1"] * 16 + ["i8", "i8"],
        extra_inputs=[[False, False], [False, True], [True, False], [True, True]],
    )
]

CASES += [
    Case(
        "extended_arithmetic",
        f"""
func.func @kernel(%a: i32, %b: i32, %c: i64, %d: i64) -> (i32, i1, i32, i32, i32, i32, i64, i64, i64, i64) {NOINLINE} {{
  %s, %o = arith.addui_extended %a, %b : i32, i1
  %lu, %hu = arith.mului_extended %a, %b : i32
  %ls, %hs = arith.mulsi_extended %a, %b : i32
  %lu64, %hu64 = arith.mului_extended %c, %d : i64
  %ls64, %hs64 = arith.mulsi_extended %c, %d : i64
  func.return %s, %o, %lu, %hu, %ls, %hs, %lu64, %hu64, %ls64, %hs64 : i32, i1, i32, i32, i32, i32, i64, i64, i64, i64
}}
""",
        [("i32", ints(32)), ("i32", ints(32)), ("i64", ints(64)), ("i64", ints(64))],
        ["i32", "i1", "i32", "i32", "i32", "i32", "i64", "i64", "i64", "i64"],
    ),
    Case(
        "integer_casts",
        f"""
func.func @kernel(%a: i32, %b: i8, %x: index) -> (i64, i64, i8, i16, i64, i64, index, index, i32, i64, i1) {NOINLINE} {{
  %0 = arith.extsi %a : i32 to i64
  %1 = arith.extui %a : i32 to i64
  %2 = arith.trunci %a : i32 to i8
  %3 = arith.extsi %b : i8 to i16
  %4 = arith.extui %b : i8 to i64
  %5 = arith.extsi %b : i8 to i64
  %6 = arith.index_cast %a : i32 to index
  %7 = arith.index_castui %a : i32 to index
  %8 = arith.index_cast %x : index to i32
  %9 = arith.index_castui %x : index to i64
  %10 = arith.trunci %a : i32 to i1
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i64, i64, i8, i16, i64, i64, index, index, i32, i64, i1
}}
""",
        [("i32", ints(32)), ("i8", ints(8)), ("index", ints(64))],
        ["i64", "i64", "i8", "i16", "i64", "i64", "index", "index", "i32", "i64", "i1"],
    ),
    Case(
        "float_casts",
        f"""
func.func @kernel(%f: f32, %d: f64, %h: f16, %i: i32, %j: i64) -> (f64, f32, f16, f32, f16, f64, f32, f64, f32, f64, i32, i64, i16, i32, f32) {NOINLINE} {{
  %0 = arith.extf %f : f32 to f64
  %1 = arith.truncf %d : f64 to f32
  %2 = arith.truncf %f : f32 to f16
  %3 = arith.extf %h : f16 to f32
  %4 = arith.truncf %d : f64 to f16
  %5 = arith.extf %h : f16 to f64
  %6 = arith.sitofp %i : i32 to f32
  %7 = arith.sitofp %j : i64 to f64
  %8 = arith.uitofp %i : i32 to f32
  %9 = arith.uitofp %j : i64 to f64
  %r = math.roundeven %f : f32
  %10 = arith.fptosi %r : f32 to i32
  %a = math.absf %d : f64
  %11 = arith.fptoui %a : f64 to i64
  %s = arith.constant 1.0e2 : f32
  %small = arith.remf %f, %s : f32
  %12 = arith.fptosi %small : f32 to i16
  %13 = arith.bitcast %f : f32 to i32
  %14 = arith.bitcast %i : i32 to f32
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14 : f64, f32, f16, f32, f16, f64, f32, f64, f32, f64, i32, i64, i16, i32, f32
}}
""",
        # fptosi/fptoui of values out of range are poison: keep them in range.
        [
            ("f32", floats(-1.0e6, 1.0e6, special=False)),
            ("f64", floats(-1.0e12, 1.0e12, special=False)),
            ("f16", floats(-1000.0, 1000.0)),
            ("i32", ints(32)),
            ("i64", ints(64)),
        ],
        [
            "f64",
            "f32",
            "f16",
            "f32",
            "f16",
            "f64",
            "f32",
            "f64",
            "f32",
            "f64",
            "i32",
            "i64",
            "i16",
            "i32",
            "f32",
        ],
    ),
    Case(
        "bf16_casts",
        f"""
func.func @kernel(%f: f32, %d: f64) -> (bf16, f32, bf16, f64) {NOINLINE} {{
  %0 = arith.truncf %f : f32 to bf16
  %1 = arith.extf %0 : bf16 to f32
  %2 = arith.truncf %d : f64 to bf16
  %3 = arith.extf %2 : bf16 to f64
  func.return %0, %1, %2, %3 : bf16, f32, bf16, f64
}}
""",
        [("f32", floats()), ("f64", floats())],
        ["bf16", "f32", "bf16", "f64"],
        # llvmlite's MCJIT resolves the soft-float helper __truncsfbf2 from the
        # process, and libgcc 12 has none: the JIT-compiled call segfaults (upstream's
        # LLVM IR as well). Checked by mlir-translate only, until CpuJit provides it.
        jit=False,
    ),
]


def float_case(t: str) -> Case:
    """Every float op and cmpf predicate of arith on ``t``, with fastmath flags."""
    preds = [
        "false",
        "oeq",
        "ogt",
        "oge",
        "olt",
        "ole",
        "one",
        "ord",
        "ueq",
        "ugt",
        "uge",
        "ult",
        "ule",
        "une",
        "uno",
        "true",
    ]
    cmps = "\n".join(
        f"  %p{i} = arith.cmpf {p}, %a, %b : {t}" for i, p in enumerate(preds)
    )
    results = [t] * 11 + ["i1"] * len(preds)
    return Case(
        f"float_ops_{t}",
        f"""
func.func @kernel(%a: {t}, %b: {t}) -> ({", ".join(results)}) {NOINLINE} {{
  %0 = arith.addf %a, %b : {t}
  %1 = arith.subf %a, %b fastmath<nsz> : {t}
  %2 = arith.mulf %a, %b : {t}
  %3 = arith.divf %a, %b : {t}
  %4 = arith.remf %a, %b : {t}
  %5 = arith.negf %a : {t}
  %6 = arith.maximumf %a, %b : {t}
  %7 = arith.minimumf %a, %b : {t}
  %8 = arith.maxnumf %a, %b : {t}
  %9 = arith.minnumf %a, %b : {t}
  %c = arith.cmpf olt, %a, %b : {t}
  %10 = arith.select %c, %a, %b : {t}
{cmps}
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, {", ".join(f"%p{i}" for i in range(len(preds)))} : {", ".join(results)}
}}
""",
        [(t, floats()), (t, floats())],
        results,
        extra_inputs=[
            [0.0, -0.0],
            [-0.0, 0.0],
            [math.nan, 1.0],
            [1.0, math.nan],
            [math.inf, -math.inf],
        ],
    )


CASES += [float_case(t) for t in ("f16", "f32", "f64")]


def math_case(t: str) -> Case:
    unary = [
        "absf",
        "ceil",
        "floor",
        "round",
        "roundeven",
        "trunc",
        "sin",
        "cos",
        "tan",
        "tanh",
        "sinh",
        "cosh",
        "atan",
        "exp",
        "exp2",
        "expm1",
    ]
    positive = ["sqrt", "rsqrt", "log", "log2", "log10", "log1p"]
    unit = ["asin", "acos"]
    body = [f"  %u{i} = math.{op} %x : {t}" for i, op in enumerate(unary)]
    body += [f"  %p{i} = math.{op} %pos : {t}" for i, op in enumerate(positive)]
    body += [f"  %q{i} = math.{op} %unit : {t}" for i, op in enumerate(unit)]
    body += [
        f"  %b0 = math.powf %pos, %y : {t}",
        f"  %b1 = math.atan2 %x, %y : {t}",
        f"  %b2 = math.copysign %x, %y : {t}",
        f"  %b3 = math.fma %x, %y, %pos : {t}",
        f"  %b4 = math.fpowi %x, %n : {t}, i32",
        f"  %i0 = math.isnan %x : {t}",
        f"  %i1 = math.isfinite %x : {t}",
        f"  %s0, %s1 = math.sincos %x : {t}",
    ]
    values = [f"%u{i}" for i in range(len(unary))] + [
        f"%p{i}" for i in range(len(positive))
    ]
    values += (
        [f"%q{i}" for i in range(len(unit))]
        + [f"%b{i}" for i in range(5)]
        + ["%s0", "%s1", "%i0", "%i1"]
    )
    results = [t] * (len(values) - 2) + ["i1", "i1"]
    return Case(
        f"math_{t}",
        f"""
func.func @kernel(%x: {t}, %y: {t}, %pos: {t}, %unit: {t}, %n: i32) -> ({", ".join(results)}) {NOINLINE} {{
{chr(10).join(body)}
  func.return {", ".join(values)} : {", ".join(results)}
}}
""",
        [
            (t, floats(-10.0, 10.0)),
            (t, floats(-10.0, 10.0)),
            (t, floats(0.01, 50.0, special=False)),
            (t, floats(-1.0, 1.0, special=False)),
            ("i32", ints(32, lo=-6, hi=6)),
        ],
        results,
    )


CASES += [math_case(t) for t in ("f16", "f32", "f64")]
# bf16 arithmetic and math: through mlir-translate only (llvmlite's JIT lacks the
# bf16 conversion helpers, see ``bf16_casts``).
CASES += [replace(c("bf16"), jit=False) for c in (float_case, math_case)]

# 1-D and n-D vector arith (casts, select with a vector condition, compares) and
# math.sincos: through mlir-translate only (the results are vectors, which the
# scalar driver does not print).
CASES += [
    Case(
        "vector_ops",
        f"""
func.func @kernel(%a: vector<4xi8>, %f: vector<4xf32>, %c: vector<4xi1>, %x: vector<4xindex>, %m: vector<2x3xf32>, %s: i1) -> (vector<4xi32>, vector<4xf64>, vector<4xi16>, vector<4xindex>, vector<4xi32>, vector<2x3xi32>, vector<2x3xf32>, vector<4xf16>) {NOINLINE} {{
  %0 = arith.extsi %a : vector<4xi8> to vector<4xi32>
  %1 = arith.extui %a : vector<4xi8> to vector<4xi32>
  %2 = arith.sitofp %0 : vector<4xi32> to vector<4xf64>
  %3 = arith.uitofp %1 : vector<4xi32> to vector<4xf32>
  %4 = arith.fptosi %f : vector<4xf32> to vector<4xi16>
  %5 = arith.fptoui %3 : vector<4xf32> to vector<4xi32>
  %6 = arith.index_cast %0 : vector<4xi32> to vector<4xindex>
  %7 = arith.index_castui %x : vector<4xindex> to vector<4xi32>
  %8 = arith.cmpi slt, %5, %7 : vector<4xi32>
  %9 = arith.andi %8, %c : vector<4xi1>
  %10 = arith.select %9, %5, %7 : vector<4xi1>, vector<4xi32>
  %11 = arith.select %s, %10, %1 : vector<4xi32>
  %12 = arith.fptosi %m : vector<2x3xf32> to vector<2x3xi32>
  %13, %14 = math.sincos %m : vector<2x3xf32>
  %15 = arith.truncf %f : vector<4xf32> to vector<4xf16>
  func.return %11, %2, %4, %6, %10, %12, %14, %15 : vector<4xi32>, vector<4xf64>, vector<4xi16>, vector<4xindex>, vector<4xi32>, vector<2x3xi32>, vector<2x3xf32>, vector<4xf16>
}}
""",
        [],
        [],
        jit=False,
    )
]

CASES += [
    Case(
        "math_integers",
        f"""
func.func @kernel(%a: i32, %b: i64, %c: i16) -> (i32, i32, i32, i32, i64, i64, i64, i64, i16, i16) {NOINLINE} {{
  %0 = math.ctlz %a : i32
  %1 = math.cttz %a : i32
  %2 = math.ctpop %a : i32
  %3 = math.absi %a : i32
  %4 = math.ctlz %b : i64
  %5 = math.cttz %b : i64
  %6 = math.ctpop %b : i64
  %7 = math.absi %b : i64
  %8 = math.ctpop %c : i16
  %9 = math.absi %c : i16
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i32, i32, i32, i32, i64, i64, i64, i64, i16, i16
}}
""",
        [("i32", ints(32)), ("i64", ints(64)), ("i16", ints(16))],
        ["i32", "i32", "i32", "i32", "i64", "i64", "i64", "i64", "i16", "i16"],
        extra_inputs=[[0, 0, 0], [-2147483648, -(1 << 63), -32768]],
    ),
    Case(
        "loops",
        f"""
func.func @kernel(%n: index, %x: f64, %k: i32) -> (f64, i32, index) {NOINLINE} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1 : i32
  %zero_i32 = arith.constant 0 : i32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {{
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %t = arith.mulf %fi, %x : f64
    %s = math.sin %t : f64
    %inner = scf.for %j = %c0 to %i step %c1 iter_args(%in = %s) -> (f64) {{
      %h = arith.constant 0.5 : f64
      %m = arith.mulf %in, %h : f64
      scf.yield %m : f64
    }}
    %u = arith.addf %acc, %inner : f64
    scf.yield %u : f64
  }}
  %w:2 = scf.while (%v = %k, %steps = %c0) : (i32, index) -> (i32, index) {{
    %gt = arith.cmpi sgt, %v, %one : i32
    scf.condition(%gt) %v, %steps : i32, index
  }} do {{
  ^bb0(%v: i32, %steps: index):
    %two = arith.constant 2 : i32
    %odd = arith.remsi %v, %two : i32
    %is_odd = arith.cmpi ne, %odd, %zero_i32 : i32
    %next = scf.if %is_odd -> (i32) {{
      %three = arith.constant 3 : i32
      %t3 = arith.muli %v, %three : i32
      %p1 = arith.addi %t3, %one : i32
      scf.yield %p1 : i32
    }} else {{
      %half = arith.divsi %v, %two : i32
      scf.yield %half : i32
    }}
    %s1 = arith.addi %steps, %c1 : index
    scf.yield %next, %s1 : i32, index
  }}
  func.return %sum, %w#0, %w#1 : f64, i32, index
}}
""",
        [
            ("index", ints(64, lo=0, hi=40)),
            ("f64", floats(-3.0, 3.0, special=False)),
            ("i32", ints(32, lo=1, hi=10000)),
        ],
        ["f64", "i32", "index"],
    ),
    Case(
        "branches_and_calls",
        f"""
func.func private @helper(%a: i64, %b: f32) -> (i64, f32) {{
  %c = arith.constant 3 : i64
  %m = arith.muli %a, %c : i64
  %f = arith.mulf %b, %b : f32
  func.return %m, %f : i64, f32
}}
func.func @factorial(%n: i64) -> i64 {{
  %one = arith.constant 1 : i64
  %le = arith.cmpi sle, %n, %one : i64
  cf.cond_br %le, ^base, ^rec
^base:
  func.return %one : i64
^rec:
  %m = arith.subi %n, %one : i64
  %r = func.call @factorial(%m) : (i64) -> i64
  %p = arith.muli %n, %r : i64
  func.return %p : i64
}}
func.func @kernel(%sel: i32, %a: i64, %b: f32, %c: i1) -> (i64, f32, i64) {NOINLINE} {{
  %x, %y = func.call @helper(%a, %b) : (i64, f32) -> (i64, f32)
  cf.switch %sel : i32, [
    default: ^other(%x : i64),
    0: ^zero,
    1: ^one(%a, %x : i64, i64)
  ]
^zero:
  %z = arith.constant 0 : i64
  cf.br ^done(%z : i64)
^one(%p: i64, %q: i64):
  %s = arith.addi %p, %q : i64
  cf.cond_br %c, ^done(%s : i64), ^other(%s : i64)
^other(%v: i64):
  %neg = arith.subi %a, %v : i64
  cf.br ^done(%neg : i64)
^done(%r: i64):
  cf.assert %c, "unreachable when the flag is false"
  %n = arith.constant 15 : i64
  %f = func.call @factorial(%n) : (i64) -> i64
  func.return %r, %y, %f : i64, f32, i64
}}
""",
        [
            ("i32", ints(32, lo=-1, hi=3)),
            ("i64", ints(40)),
            ("f32", floats()),
            ("i1", lambda rng: True),
        ],
        ["i64", "f32", "i64"],
    ),
    Case(
        "index_dialect",
        f"""
func.func @kernel(%a: index, %b: index, %i: i32) -> (index, index, index, index, index, index, index, index, index, index, index, i1, index, i32) {NOINLINE} {{
  %0 = index.add %a, %b
  %1 = index.mul %a, %b
  %2 = index.divs %a, %b
  %3 = index.rems %a, %b
  %4 = index.ceildivs %a, %b
  %5 = index.floordivs %a, %b
  %ua = index.and %a, %a
  %6 = index.divu %ua, %b
  %7 = index.ceildivu %a, %b
  %8 = index.maxs %a, %b
  %9 = index.minu %a, %b
  %c3 = index.constant 3
  %10 = index.shl %a, %c3
  %11 = index.cmp sle(%a, %b)
  %12 = index.casts %i : i32 to index
  %13 = index.castu %a : index to i32
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : index, index, index, index, index, index, index, index, index, index, index, i1, index, i32
}}
""",
        [("index", ints(32)), ("index", ints(32, nonzero=True)), ("i32", ints(32))],
        ["index"] * 11 + ["i1", "index", "i32"],
        extra_inputs=[[7, 2, -1], [-7, 2, 5], [7, -2, 0], [-7, -2, 3], [0, 5, 1]],
    ),
    Case(
        "affine_seed_map",
        f"""
#map = affine_map<()[s0, s1, s2] -> (s0 * s2 + s1)>
func.func @kernel(%a: index, %b: index, %c: index, %d: index) -> (index, index, index, index, index, index) {NOINLINE} {{
  %0 = affine.apply #map()[%a, %b, %c]
  %1 = affine.apply affine_map<(d0) -> (d0 mod 4)>(%d)
  %2 = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%d)[%c]
  %3 = affine.apply affine_map<(d0)[s0] -> (d0 ceildiv s0)>(%d)[%c]
  %4 = affine.apply affine_map<(d0)[s0] -> (d0 mod s0)>(%d)[%c]
  %5 = affine.min affine_map<(d0)[s0, s1] -> (d0 * 2 - s0, s1 floordiv 3, d0 ceildiv 5)>(%d)[%a, %b]
  func.return %0, %1, %2, %3, %4, %5 : index, index, index, index, index, index
}}
""",
        # Symbolic divisors must be positive (as in MLIR).
        [
            ("index", ints(32, lo=-1000, hi=1000)),
            ("index", ints(32, lo=-1000, hi=1000)),
            ("index", ints(32, lo=1, hi=64)),
            ("index", ints(32, lo=-1000, hi=1000)),
        ],
        ["index"] * 6,
    ),
    Case(
        "affine_loops",
        f"""
func.func @kernel(%n: index, %s: index) -> (index, index) {NOINLINE} {{
  %c0 = arith.constant 0 : index
  %r = affine.for %i = 0 to min affine_map<()[s0] -> (s0, 50)>()[%n] step 3 iter_args(%acc = %c0) -> (index) {{
    %t = affine.apply affine_map<(d0)[s0] -> (d0 * s0 + d0 mod 7)>(%i)[%s]
    %u = arith.addi %acc, %t : index
    affine.yield %u : index
  }}
  %q = affine.for %j = max affine_map<()[s0] -> (s0 floordiv 2, -3)>()[%s] to 20 iter_args(%acc = %c0) -> (index) {{
    %v = arith.addi %acc, %j : index
    affine.yield %v : index
  }}
  func.return %r, %q : index, index
}}
""",
        [("index", ints(32, lo=-5, hi=60)), ("index", ints(32, lo=-40, hi=40))],
        ["index", "index"],
    ),
    Case(
        "index_bitwidth_32",
        f"""
func.func @kernel(%a: index, %b: index, %i: i64) -> (index, index, i64, index, index) {NOINLINE} {{
  %0 = arith.muli %a, %b : index
  %1 = arith.ceildivsi %a, %b : index
  %2 = arith.index_cast %a : index to i64
  %3 = arith.index_cast %i : i64 to index
  %4 = index.floordivs %a, %b
  func.return %0, %1, %2, %3, %4 : index, index, i64, index, index
}}
""",
        [("index", ints(16)), ("index", ints(16, nonzero=True)), ("i64", ints(64))],
        ["index", "index", "i64", "index", "index"],
        index_bitwidth=32,
    ),
]


@requires_mlir
@pytest.mark.parametrize(
    "case", [c for c in CASES if c.jit], ids=[c.name for c in CASES if c.jit]
)
def test_same_results_as_upstream(case: Case) -> None:
    input_sets = case.inputs()
    expected = upstream_results(case, input_sets)
    got = our_results(case, input_sets)
    assert len(got) == len(expected)
    per_set = len(case.results)
    for k, inputs in enumerate(input_sets):
        ours = got[k * per_set : (k + 1) * per_set]
        theirs = expected[k * per_set : (k + 1) * per_set]
        assert ours == theirs, (
            f"inputs {inputs}: results differ at "
            f"{[i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b]}"
            f"\n ours:     {ours}\n upstream: {theirs}"
        )


@requires_mlir
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_mlir_translate_accepts_our_output(case: Case) -> None:
    assert MLIR_TRANSLATE is not None
    text = print_module(lower_ours(case.kernel, case.index_bitwidth))
    assert "unrealized_conversion_cast" not in text
    llvm_ir = _run([MLIR_TRANSLATE, "--mlir-to-llvmir"], text)
    assert "define" in llvm_ir
    assert "@kernel" in llvm_ir


# --------------------------------------------------------------------------------------
# Memref calling conventions of convert-func-to-llvm
# --------------------------------------------------------------------------------------

SAXPY = """
func.func @saxpy(%a: f32, %x: memref<16xf32>, %y: memref<16xf32>) -> (memref<16xf32>, f32) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %xi = memref.load %x[%i] : memref<16xf32>
    %yi = memref.load %y[%i] : memref<16xf32>
    %p = arith.mulf %a, %xi : f32
    %s = arith.addf %p, %yi : f32
    memref.store %s, %y[%i] : memref<16xf32>
    %t = arith.addf %acc, %s : f32
    scf.yield %t : f32
  }
  func.return %y, %sum : memref<16xf32>, f32
}
"""


@requires_mlir
@pytest.mark.parametrize("convention", ["descriptor", "ciface", "bare"])
def test_memref_calling_conventions(convention: str) -> None:
    from xdsl_gpu.targets.cpu_jit import CpuJit, upstream_llvm_ir

    bare = convention == "bare"
    ours = CpuJit(lower_ours(SAXPY, bare_ptr=bare))
    flags = upstream_flags(0)
    if bare:
        flags = [
            f + "=use-bare-ptr-memref-call-conv=1"
            if f == "--convert-func-to-llvm"
            else f
            for f in flags
        ]
    theirs = CpuJit.from_llvm_ir(upstream_llvm_ir(SAXPY, flags))
    rng = np.random.default_rng(3)
    x = rng.standard_normal(16).astype(np.float32)
    y = rng.standard_normal(16).astype(np.float32)
    results = [np.float32, None]
    y_ours, y_theirs = y.copy(), y.copy()
    out_ours = ours.call(
        "saxpy", np.float32(1.5), x, y_ours, convention=convention, results=results
    )
    out_theirs = theirs.call(
        "saxpy", np.float32(1.5), x, y_theirs, convention=convention, results=results
    )
    np.testing.assert_array_equal(y_ours, y_theirs)
    if bare:
        # A bare pointer result: the same address as the argument.
        assert out_ours[1] == out_theirs[1]
    else:
        np.testing.assert_array_equal(out_ours[0], out_theirs[0])
        assert struct.pack("<f", out_ours[1]) == struct.pack("<f", out_theirs[1])


# --------------------------------------------------------------------------------------
# What the passes print is upstream syntax
# --------------------------------------------------------------------------------------

FILECHECK = Path(__file__).resolve().parent.parent / "filecheck" / "passes"

PRINTED = [
    ("convert-arith-to-llvm.mlir", "convert-arith-to-llvm"),
    ("convert-arith-to-llvm.mlir", "convert-arith-to-llvm{index-bitwidth=32}"),
    ("convert-index-to-llvm.mlir", "convert-index-to-llvm"),
    ("convert-math-to-llvm.mlir", "convert-math-to-llvm"),
    ("convert-cf-to-llvm.mlir", "convert-cf-to-llvm"),
    ("convert-func-to-llvm.mlir", "convert-func-to-llvm"),
    (
        "convert-func-to-llvm-bare-ptr.mlir",
        "convert-func-to-llvm{use-bare-ptr-memref-call-conv=true}",
    ),
    ("lower-affine.mlir", "lower-affine"),
    ("convert-scf-to-cf.mlir", "convert-scf-to-cf"),
    ("reconcile-unrealized-casts.mlir", "reconcile-unrealized-casts"),
]


@requires_mlir
@pytest.mark.parametrize(("source", "pipeline"), PRINTED, ids=[p for _, p in PRINTED])
def test_mlir_opt_reads_what_our_passes_print(source: str, pipeline: str) -> None:
    """Every chunk of the filecheck inputs, after our pass, parses and verifies in
    ``mlir-opt-22`` (partially converted IR included: casts, ``test.op``)."""
    assert MLIR_OPT is not None
    printed = _run(
        ["xdsl-opt", "-p", pipeline, "--split-input-file", str(FILECHECK / source)], ""
    )
    for chunk in printed.split("// -----\n"):
        _run([MLIR_OPT, "--allow-unregistered-dialect", "--verify-roundtrip"], chunk)
