"""``convert-linalg-to-loops`` (xDSL's pass) on linalg contractions whose inputs have
another element type than their output, against ``mlir-opt-22``.

Each case of ``tests/filecheck/passes/convert-linalg-to-loops-casts.mlir`` is lowered
both ways; the computations in the innermost loops (every ``arith`` op but the
constants of the loop bounds, with its types) must be the same ops in the same order.
Before ``compat.linalg_contractions_cast_inputs`` our side multiplied f16 inputs into
an f32 accumulator without ``arith.extf`` (a verifier error), or failed on a float
convolution.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.passes import PassPipeline

from tests.support.mlir_differential import MLIR_OPT, case_id, mlir_opt, split_cases
from tests.support.xdsl_tools import available_passes, make_context, parse, print_module

CASES = split_cases(
    Path(__file__).parents[1]
    / "filecheck"
    / "passes"
    / "convert-linalg-to-loops-casts.mlir"
)


def _computation(text: str) -> list[str]:
    """The arith ops of ``text`` but constants, SSA names dropped."""
    return [
        re.sub(r"%[\w.$-]+", "%", line.strip())
        for line in text.splitlines()
        if re.search(r"= arith\.(?!constant)", line)
    ]


def _ours(source: str) -> str:
    ctx = make_context()
    module = parse(source, ctx)
    lowering = available_passes()["convert-linalg-to-loops"]()
    PassPipeline((lowering(),)).apply(ctx, module)
    module.verify()
    return print_module(module)


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
@pytest.mark.parametrize("source", CASES, ids=[case_id(c) for c in CASES])
def test_casts_as_mlir_opt(source: str) -> None:
    upstream = _computation(mlir_opt(source, "-convert-linalg-to-loops"))
    assert upstream, "the case lowers to no arith op"
    assert _computation(_ours(source)) == upstream


def test_every_case_casts() -> None:
    assert len(CASES) >= 8
    for case in CASES:
        assert re.search(r"arith\.(ext|trunc|sitofp|fptosi|index_cast)", _ours(case))
