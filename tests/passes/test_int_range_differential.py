"""``-int-range-optimizations`` (``xdsl_gpu/passes/int_range_optimizations.py``): the
ranges the analysis infers, compared with mlir-opt-22's.

Random programs (fixed seeds) give each arith op two ``test.with_bounds`` operands
and reflect the result's range with ``test.reflect_bounds``: every op of
``InferIntRangeCommon`` (with and without overflow flags), ``cmpi`` with each
predicate, ``select``, casts, on i1, i8, i64 and index, and the ``index`` dialect's
ops. Both tools' printed bounds must agree, op for op. The unit tests below pin cases worked out by hand, and run
without mlir-opt-22.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess

import pytest

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.passes.int_range import inference as inf
from xdsl_gpu.passes.int_range.ranges import ConstantIntRanges as R
from xdsl_gpu.passes.int_range_optimizations import IntRangeOptimizationsPass

MLIR_OPT = shutil.which("mlir-opt-22")

if MLIR_OPT is None and os.environ.get("CI"):
    raise RuntimeError("CI needs mlir-opt-22 (Debian package mlir-22-tools)")

BINARY = (
    "addi subi muli divui divsi ceildivui ceildivsi floordivsi remui remsi andi ori "
    "xori maxsi maxui minsi minui shli shrsi shrui"
).split()
PREDICATES = "eq ne slt sle sgt sge ult ule ugt uge".split()


def _signed(value: int, width: int) -> int:
    return ((value + (1 << (width - 1))) % (1 << width)) - (1 << (width - 1))


def _bounds(rng: random.Random, width: int) -> tuple[int, int, int, int]:
    """Valid bounds (umin <= umax, smin <= smax), often near the edges."""

    def value() -> int:
        pick = rng.random()
        if pick < 0.3:
            return rng.randint(-4, 8)
        if pick < 0.5:
            return rng.choice([0, 1, -1, (1 << (width - 1)) - 1, -(1 << (width - 1))])
        return rng.randint(-(1 << (width - 1)), (1 << width) - 1)

    umin, umax = sorted([value() % (1 << width), value() % (1 << width)])
    smin, smax = sorted([_signed(value(), width), _signed(value(), width)])
    return umin, umax, smin, smax


def _program(seed: int, count: int = 40) -> str:
    rng = random.Random(seed)
    lines = ["func.func @f() {"]
    for i in range(count):
        width = rng.choice([1, 8, 8, 64, 64])
        type = rng.choice(["index", "i64"]) if width == 64 else f"i{width}"
        for name in "ab":
            umin, umax, smin, smax = _bounds(rng, width)
            lines.append(
                f"  %{name}{i} = test.with_bounds {{umin = {_signed(umin, width)} : "
                f"{type}, umax = {_signed(umax, width)} : {type}, smin = {smin} : "
                f"{type}, smax = {smax} : {type}}} : {type}"
            )
        kind = rng.choice([*BINARY, "cmpi", "cast", "select"])
        result_type = type
        if kind == "cmpi":
            pred = rng.choice(PREDICATES)
            lines.append(f"  %r{i} = arith.cmpi {pred}, %a{i}, %b{i} : {type}")
            result_type = "i1"
        elif kind == "cast" and type == "index":
            cast = rng.choice(["index_cast", "index_castui"])
            lines.append(f"  %r{i} = arith.{cast} %a{i} : index to i32")
            result_type = "i32"
        elif kind == "cast" and width == 8:
            cast = rng.choice(["extui", "extsi", "trunci", "index_cast"])
            result_type = {"trunci": "i3", "index_cast": "index"}.get(cast, "i32")
            lines.append(f"  %r{i} = arith.{cast} %a{i} : i8 to {result_type}")
        elif kind == "select":
            lines.append(
                f"  %c{i} = test.with_bounds {{umin = 0 : i1, umax = -1 : i1, "
                f"smin = -1 : i1, smax = 0 : i1}} : i1"
            )
            lines.append(f"  %r{i} = arith.select %c{i}, %a{i}, %b{i} : {type}")
        else:
            op = kind if kind in BINARY else "addi"
            flags = ""
            if op in ("addi", "subi", "muli", "shli") and rng.random() < 0.4:
                flags = f" overflow<{rng.choice(['nsw', 'nuw', 'nsw, nuw'])}>"
            lines.append(f"  %r{i} = arith.{op} %a{i}, %b{i}{flags} : {type}")
        lines.append(f"  %x{i} = test.reflect_bounds %r{i} : {result_type}")
    lines.append("  func.return\n}")
    return "\n".join(lines)


INDEX_BINARY = (
    "add sub mul divs divu ceildivs ceildivu floordivs rems remu maxs maxu mins minu "
    "shl shrs shru and or xor"
).split()


def _index_program(seed: int, count: int = 30) -> str:
    """The index dialect's ops, whose ranges hold for 32- and 64-bit index."""
    rng = random.Random(seed)
    edges = [0, 1, -1, 2**31 - 1, -(2**31), 2**32 - 1, 2**32, 2**63 - 1, -(2**63)]

    def value() -> int:
        pick = rng.random()
        if pick < 0.3:
            return rng.randint(-4, 40)
        if pick < 0.55:
            return rng.choice(edges)
        return rng.randint(-(2**63), 2**64 - 1)

    lines = ["func.func @f() {"]
    for i in range(count):
        for name in "ab":
            umin, umax = sorted([value() % 2**64, value() % 2**64])
            smin, smax = sorted([_signed(value(), 64), _signed(value(), 64)])
            lines.append(
                f"  %{name}{i} = test.with_bounds {{umin = {_signed(umin, 64)} : index, "
                f"umax = {_signed(umax, 64)} : index, smin = {smin} : index, "
                f"smax = {smax} : index}} : index"
            )
        pick = rng.random()
        result_type = "index"
        if pick < 0.15:
            pred = rng.choice(PREDICATES)
            lines.append(f"  %r{i} = index.cmp {pred}(%a{i}, %b{i})")
            result_type = "i1"
        elif pick < 0.25:
            cast = rng.choice(["casts", "castu"])
            lines.append(f"  %r{i} = index.{cast} %a{i} : index to i32")
            result_type = "i32"
        else:
            lines.append(f"  %r{i} = index.{rng.choice(INDEX_BINARY)} %a{i}, %b{i}")
        lines.append(f"  %x{i} = test.reflect_bounds %r{i} : {result_type}")
    lines.append("  func.return\n}")
    return "\n".join(lines)


_REFLECTED = re.compile(r"test\.reflect_bounds (\{[^}]*\})?")


def _ours(text: str) -> str:
    ctx = make_context()
    module = parse(text, ctx)
    IntRangeOptimizationsPass().apply(ctx, module)
    return print_module(module)


@pytest.mark.skipif(MLIR_OPT is None, reason="needs mlir-opt-22")
@pytest.mark.parametrize("seed", range(12))
def test_inferred_ranges_match_mlir_opt(seed: int) -> None:
    text = _program(seed)
    assert MLIR_OPT is not None
    ref = subprocess.run(
        [MLIR_OPT, "-int-range-optimizations"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    expected = _REFLECTED.findall(ref)
    got = _REFLECTED.findall(_ours(text))
    assert len(expected) == 40
    assert got == expected


@pytest.mark.skipif(MLIR_OPT is None, reason="needs mlir-opt-22")
@pytest.mark.parametrize("seed", range(6))
def test_index_dialect_ranges_match_mlir_opt(seed: int) -> None:
    text = _index_program(seed)
    assert MLIR_OPT is not None
    ref = subprocess.run(
        [MLIR_OPT, "-int-range-optimizations"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    expected = _REFLECTED.findall(ref)
    assert len(expected) == 30
    assert _REFLECTED.findall(_ours(text)) == expected


# Cases worked out by hand --------------------------------------------------------


def test_add_keeps_the_tighter_interval() -> None:
    # [3, 200]u / [-5, 5]s + 7 in i8: unsigned [10, 207] (crosses the sign bit, so
    # no signed bound), signed [2, 12]; intersected bound by bound.
    lhs = R(8, 3, 200, -5, 5)
    assert inf.infer_add(lhs, R.constant(7, 8)) == R(8, 10, 12, 2, 12)


def test_unsigned_overflow_gives_up_unless_nuw() -> None:
    lhs = R(8, 250, 255, -128, 127)  # nothing known of the sign
    ten = R.constant(10, 8)
    assert inf.infer_add(lhs, ten) == R.max_range(8)
    saturated = inf.infer_add(lhs, ten, nuw=True)
    assert (saturated.umin, saturated.umax) == (255, 255)


def test_global_id_style_product_wraps_signed_only() -> None:
    dim = R.from_unsigned(1, (1 << 32) - 1, 64)
    ids = R.from_unsigned(0, (1 << 32) - 2, 64)
    product = inf.infer_mul(ids, dim)
    assert product.umax == ((1 << 32) - 2) * ((1 << 32) - 1)
    # Above 2**63: the signed product overflows, so nothing is known signed.
    assert (product.smin, product.smax) == (-(1 << 63), (1 << 63) - 1)


def test_remu_by_constant_sweeps_one_period() -> None:
    assert inf.infer_remu(R.from_unsigned(5, 7, 32), R.constant(8, 32)) == (
        R.from_unsigned(5, 7, 32)
    )
    # [6, 9] wraps past 8: only [0, 7] is known.
    assert inf.infer_remu(R.from_unsigned(6, 9, 32), R.constant(8, 32)) == (
        R.from_unsigned(0, 7, 32)
    )


def test_trunc_without_rollover_keeps_bounds() -> None:
    assert inf.trunc_range(R.from_unsigned(256, 258, 16), 8) == R(8, 0, 2, 0, 2)
    wrapped = inf.trunc_range(R.from_unsigned(255, 257, 16), 8)
    assert (wrapped.umin, wrapped.umax) == (0, 255)


@pytest.mark.parametrize(
    ("pred", "lhs", "rhs", "truth"),
    [
        ("sgt", R.from_unsigned(0, 32, 32), R.constant(64, 32), False),
        ("sgt", R.from_unsigned(0, 128, 32), R.constant(64, 32), None),
        ("ult", R.from_unsigned(0, 31, 32), R.constant(32, 32), True),
        ("ne", R.constant(1, 32), R.constant(2, 32), True),
        ("eq", R.constant(2, 32), R.constant(2, 32), True),
    ],
)
def test_comparisons_decided_by_ranges(
    pred: str, lhs: R, rhs: R, truth: bool | None
) -> None:
    assert inf.evaluate_pred(pred, lhs, rhs) is truth
