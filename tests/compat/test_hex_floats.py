"""Hexadecimal literals in dense<...> of floats are bit patterns, as in MLIR
(``compat.hex_floats_in_dense_literals``)."""

from __future__ import annotations

import math
import shutil
import subprocess

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.parser import Parser

from xdsl_gpu import compat

compat.hex_floats_in_dense_literals()


def values(text: str) -> list[float]:
    attr = Parser(Context(), text).parse_attribute()
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    return [float(v) for v in attr.get_values()]  # pyright: ignore[reportArgumentType]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dense<[0x3F800000, 0x40490FDB]> : tensor<2xf32>", [1.0, 3.1415927410125732]),
        ("dense<0x419D6F3454000000> : tensor<2xf64>", [123456789.0] * 2),
        ("dense<[0x3C00, 0xC000]> : tensor<2xf16>", [1.0, -2.0]),
        ("dense<[0x3F80, 0x4049]> : tensor<2xbf16>", [1.0, 3.140625]),
        ("dense<[1.5, 0x40000000]> : tensor<2xf32>", [1.5, 2.0]),
        ("dense<[7, 0x10]> : tensor<2xi32>", [7.0, 16.0]),  # integers unchanged
    ],
)
def test_hex_literals_are_bit_patterns(text: str, expected: list[float]) -> None:
    assert values(text) == pytest.approx(expected)


def test_nan() -> None:
    assert all(math.isnan(v) for v in values("dense<0x7FC00000> : tensor<2xf32>"))


@pytest.mark.parametrize(
    "text",
    ["dense<0x7FC00000> : tensor<1xbf16>", "dense<-0x3F800000> : tensor<1xf32>"],
)
def test_patterns_wider_than_the_element_are_errors(text: str) -> None:
    from xdsl.utils.exceptions import ParseError

    with pytest.raises(ParseError, match="hexadecimal float constant out of range"):
        values(text)


@pytest.mark.skipif(shutil.which("mlir-opt-22") is None, reason="needs mlir-opt-22")
def test_what_mlir_opt_prints_reads_back_the_same() -> None:
    source = (
        "func.func @f() -> tensor<3xf64> {\n  %0 = arith.constant dense<"
        "[0x7FF0000000000000, 0xFFF0000000000000, 0x3FB999999999999A]> : tensor<3xf64>\n"
        "  return %0 : tensor<3xf64>\n}\n"
    )
    printed = subprocess.run(
        ["mlir-opt-22"], input=source, capture_output=True, text=True, check=True
    ).stdout
    start = printed.index("dense<")
    dense = printed[
        start : printed.index("tensor<3xf64>", start) + len("tensor<3xf64>")
    ]
    assert "0x7FF0000000000000" in dense  # mlir-opt-22 prints infinities as patterns
    assert values(dense) == [math.inf, -math.inf, 0.1]
