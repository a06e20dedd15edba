"""``nvvm.wmma.load``/``store``/``mma`` against MLIR 22's verifier, over every shape,
fragment, element type and layout.

Each case is one op, written twice: with the fragment type that
:func:`~xdsl_gpu.gpu_dialect.nvvm.wmma_ops.fragment` gives (or a wrong one where no
fragment exists), and with a deliberately wrong type. ``mlir-opt-22`` verifies all of
them in one ``--split-input-file`` run; ours must accept the same cases and reject
the rest with the same message.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from itertools import product

import pytest
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from tests.support.xdsl_tools import make_context
from xdsl_gpu.gpu_dialect.nvvm.mma_attrs import MMATypes
from xdsl_gpu.gpu_dialect.nvvm.wmma_ops import MMAFrag, fragment, fragment_type

MLIR_OPT = shutil.which("mlir-opt-22")
requires_mlir = pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 missing")

GEOMETRIES = [
    (16, 16, 16),
    (32, 8, 16),
    (8, 32, 16),
    (16, 16, 8),
    (8, 8, 4),
    (8, 8, 32),
]
TYPES = ["f16", "f32", "tf32", "bf16", "s8", "u8", "s32", "f64", "s4", "b1"]
LAYOUTS = ["row", "col"]


def _props(m: int, n: int, k: int, **more: str) -> str:
    extra = ", ".join(f"{key} = {value}" for key, value in sorted(more.items()))
    return f"{{{extra}, k = {k} : i32, m = {m} : i32, n = {n} : i32}}"


def _guess(eltype: str, frag: MMAFrag | None, geometry: tuple[int, int, int]):
    """The fragment if one is defined for these names, else a placeholder."""
    try:
        return fragment(MMATypes(eltype), frag, geometry)
    except ValueError:
        return None


def _cases() -> list[str]:
    cases: list[str] = []
    for (m, n, k), eltype, layout in product(GEOMETRIES, TYPES, LAYOUTS):
        attrs = {
            "eltype": f"#nvvm.mma_type<{eltype}>",
            "layout": f"#nvvm.mma_layout<{layout}>",
        }
        for frag in MMAFrag:
            for wrong in (False, True):
                guess = _guess(eltype, frag, (m, n, k))
                result = "!llvm.struct<(i64)>"
                if guess is not None and not wrong:
                    result = str(fragment_type(MMATypes(eltype), frag, (m, n, k)))
                props = _props(m, n, k, frag=f"#nvvm.mma_frag<{frag.value}>", **attrs)
                cases.append(
                    f"%0 = nvvm.wmma.load %p, %s {props} : (!llvm.ptr<3>) -> {result}"
                )
        guess = _guess(eltype, None, (m, n, k))
        for count, element in ((2, "i64"),) + (
            ((guess[1], str(guess[0])), (guess[1] + 1, str(guess[0]))) if guess else ()
        ):
            data = ", ".join(
                ["%" + element.replace("<", "_").replace(">", "_")] * count
            )
            data_types = ", ".join([element] * count)
            cases.append(
                f"nvvm.wmma.store %p, %s, {data} {_props(m, n, k, **attrs)} : "
                f"!llvm.ptr<3>, {data_types}"
            )
    for (m, n, k), a, c, la, lb in product(
        GEOMETRIES, TYPES, ["f16", "f32", "s32", "f64"], LAYOUTS, LAYOUTS
    ):
        props = _props(
            m,
            n,
            k,
            eltypeA=f"#nvvm.mma_type<{a}>",
            eltypeB=f"#nvvm.mma_type<{c}>",
            layoutA=f"#nvvm.mma_layout<{la}>",
            layoutB=f"#nvvm.mma_layout<{lb}>",
        )
        types: list[str] = []
        for eltype, frag in ((a, MMAFrag.A), (a, MMAFrag.B), (c, MMAFrag.C)):
            guess = _guess(eltype, frag, (m, n, k))
            types += [str(guess[0])] * guess[1] if guess else ["i64"]
        result = _guess(c, MMAFrag.C, (m, n, k))
        result_type = (
            str(fragment_type(MMATypes(c), MMAFrag.C, (m, n, k)))
            if result
            else "!llvm.struct<(i64)>"
        )
        names = ", ".join(_value(t) for t in types)
        cases.append(
            f"%0 = nvvm.wmma.mma {names} {props} : ({', '.join(types)}) -> {result_type}"
        )
    return cases


def _value(t: str) -> str:
    return "%" + re.sub(r"[<>]", "_", t)


HEADER = (
    "llvm.func @f(%p: !llvm.ptr<3>, %s: i32, %i64: i64, %i32: i32, %f32: f32, "
    "%f64: f64, %vector_2xf16_: vector<2xf16>) {"
)


def _module(case: str) -> str:
    return f"{HEADER}\n  {case}\n  llvm.return\n}}\n"


def _upstream_errors(cases: list[str]) -> list[str | None]:
    """mlir-opt-22's error for each case (``None``: accepted), in one run."""
    assert MLIR_OPT is not None
    text = "// -----\n".join(_module(c) for c in cases)
    done = subprocess.run(
        [MLIR_OPT, "--split-input-file", "-o", "/dev/null"],
        input=text,
        capture_output=True,
        text=True,
    )
    errors: list[str | None] = [None] * len(cases)
    for match in re.finditer(r"<stdin>:(\d+):\d+: error: (.*)", done.stderr):
        line = int(match.group(1))
        errors[(line - 2) // 5] = match.group(2)  # 5 lines per case with separator
    return errors


def _our_error(case: str) -> str | None:
    try:
        Parser(make_context(), _module(case)).parse_module().verify()
    except VerifyException as e:
        return str(e).splitlines()[0]
    return None


@requires_mlir
def test_verifier_matches_mlir_opt() -> None:
    cases = _cases()
    upstream = _upstream_errors(cases)
    accepted = 0
    mismatches: list[str] = []
    for case, theirs in zip(cases, upstream, strict=True):
        ours = _our_error(case)
        if theirs is None:
            accepted += 1
            if ours is not None:
                mismatches.append(f"{case}\n  ours: {ours}\n  upstream accepts")
            continue
        if "op " in theirs:
            theirs = theirs.split("op ", 1)[1]
        if ours is None or not ours.endswith(theirs):
            mismatches.append(f"{case}\n  ours: {ours}\n  upstream: {theirs}")
    assert not mismatches, "\n".join(mismatches[:10]) + f"\n({len(mismatches)} in all)"
    assert accepted > 100  # the valid combinations are really exercised
