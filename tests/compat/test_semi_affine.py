"""Semi-affine maps (``compat.semi_affine_expressions``): the gap in xDSL and the fix.

Upstream's loop-to-GPU mapping emits ``affine_map<()[s0, s1, s2] -> (s0 * s2 + s1)>``
(seed 002). xDSL 0.74 cannot even parse it.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineExpr,
    AffineMap,
)
from xdsl.utils.exceptions import ParseError

from xdsl_gpu import compat

compat.semi_affine_expressions()

SEED_MAP = "affine_map<()[s0, s1, s2] -> (s0 * s2 + s1)>"

s0, s1, s2 = (AffineExpr.symbol(i) for i in range(3))
d0 = AffineExpr.dimension(0)


def parse_map(text: str) -> AffineMap:
    from xdsl.context import Context
    from xdsl.dialects.builtin import AffineMapAttr
    from xdsl.parser import Parser

    attr = Parser(Context(), text).parse_attribute()
    assert isinstance(attr, AffineMapAttr)
    return attr.data


def test_xdsl_alone_cannot_build_semi_affine_expressions() -> None:
    """The gap: xDSL's own operators (behind the wrappers) raise."""
    with pytest.raises(NotImplementedError):
        compat.original(AffineExpr.__mul__)(s0, s2)
    for method in ("__floordiv__", "ceil_div", "__mod__"):
        with pytest.raises(NotImplementedError):
            compat.original(getattr(AffineExpr, method))(d0, s0)


def test_seed_map_parses_and_evaluates() -> None:
    amap = parse_map(SEED_MAP)
    (expr,) = amap.results
    assert expr == AffineBinaryOpExpr(
        AffineBinaryOpKind.Add, AffineBinaryOpExpr(AffineBinaryOpKind.Mul, s0, s2), s1
    )
    assert amap.eval([], [32, 5, 7]) == (32 * 7 + 5,)


@pytest.mark.parametrize(
    ("text", "dims", "symbols", "expected"),
    [
        ("affine_map<(d0)[s0] -> (d0 * s0)>", [6], [7], 42),
        # The symbolic factor goes to the right, as MLIR canonicalizes products.
        ("affine_map<(d0)[s0] -> (s0 * d0)>", [6], [7], 42),
        ("affine_map<(d0)[s0] -> (d0 floordiv s0)>", [-7], [2], -4),
        ("affine_map<(d0)[s0] -> (d0 ceildiv s0)>", [7], [2], 4),
        ("affine_map<(d0)[s0, s1] -> (d0 mod (s0 + s1))>", [-7], [2, 1], 2),
        ("affine_map<(d0)[s0, s1] -> (s0 * s1 * 3 + d0 * 2)>", [1], [2, 5], 32),
    ],
)
def test_semi_affine_expressions(
    text: str, dims: list[int], symbols: list[int], expected: int
) -> None:
    assert parse_map(text).eval(dims, symbols) == (expected,)


def test_symbolic_factor_is_canonicalized_to_the_right() -> None:
    (expr,) = parse_map("affine_map<(d0)[s0] -> (s0 * d0)>").results
    assert expr == AffineBinaryOpExpr(AffineBinaryOpKind.Mul, d0, s0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "affine_map<(d0, d1) -> (d0 * d1)>",
            "non-affine expression: at least one of the multiply operands has to be "
            "either a constant or symbolic",
        ),
        (
            "affine_map<(d0, d1) -> (d0 floordiv d1)>",
            "non-affine expression: right operand of floordiv has to be either a "
            "constant or symbolic",
        ),
        (
            "affine_map<(d0, d1) -> (d0 mod (d1 + 1))>",
            "non-affine expression: right operand of mod has to be either a constant "
            "or symbolic",
        ),
    ],
)
def test_non_affine_is_a_parse_error_with_mlirs_words(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_map(text)


def test_xdsl_opt_round_trips_the_seed_map_through_mlir_opt() -> None:
    mlir_opt = shutil.which("mlir-opt-22")
    if mlir_opt is None:
        pytest.skip("mlir-opt-22 (Debian mlir-22-tools) is not installed")
    source = (
        f"#map = {SEED_MAP}\n"
        "func.func @f(%a: index, %b: index, %c: index) -> index {\n"
        "  %0 = affine.apply #map()[%a, %b, %c]\n"
        "  func.return %0 : index\n"
        "}\n"
    )
    ours = subprocess.run(
        ["xdsl-opt"], input=source, capture_output=True, text=True, check=True
    ).stdout
    upstream = subprocess.run(
        [mlir_opt], input=ours, capture_output=True, text=True, check=True
    ).stdout
    assert "affine_map<()[s0, s1, s2] -> (s0 * s2 + s1)>" in upstream
    again = subprocess.run(
        ["xdsl-opt"], input=upstream, capture_output=True, text=True, check=True
    ).stdout
    assert "s0 * s2" in again
