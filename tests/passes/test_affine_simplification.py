"""MLIR's affine expression simplification (xdsl_gpu/passes/affine_simplification.py):
the forms mlir-opt-22 prints, for the maps the GPU mapping transforms build and for a
batch of expressions simplified by mlir-opt-22's canonicalizer itself."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from xdsl.ir.affine import AffineExpr

from xdsl_gpu.gpu_dialect.gpu.attributes import format_affine_expr
from xdsl_gpu.passes.affine_simplification import (
    add,
    const,
    floordiv,
    largest_known_divisor,
    mod,
    mul,
    rebuild,
    simplify,
)

S0, S1, S2 = (AffineExpr.symbol(i) for i in range(3))


def linear(x: int, y: int) -> AffineExpr:
    return simplify(add(add(S0, mul(S1, const(x))), mul(S2, const(x * y))), 0, 3)


def composed(outer: AffineExpr, inner: AffineExpr) -> str:
    return format_affine_expr(simplify(rebuild(outer, [], [inner]), 0, 3))


def test_constructors_simplify_as_mlir_does() -> None:
    assert format_affine_expr(add(const(2), S0)) == "s0 + 2"
    assert format_affine_expr(mul(mul(S0, const(2)), const(3))) == "s0 * 6"
    assert format_affine_expr(floordiv(mul(S0, const(128)), const(64))) == "s0 * 2"
    assert format_affine_expr(mod(mul(S0, const(128)), const(64))) == "0"
    # (e + k * c) floordiv c splits; (e + k * c) mod c drops the multiple.
    split = floordiv(add(S0, mul(S1, const(8))), const(8))
    assert format_affine_expr(split) == "s0 floordiv 8 + s1"
    assert format_affine_expr(mod(add(S0, mul(S1, const(8))), const(4))) == "s0 mod 4"
    # (e mod 6) mod 3 -> e mod 3; e - (e floordiv 4) * 4 -> e mod 4.
    assert format_affine_expr(mod(mod(S0, const(6)), const(3))) == "s0 mod 3"
    minus = add(S0, mul(floordiv(S0, const(4)), const(-4)))
    assert format_affine_expr(minus) == "s0 mod 4"
    assert largest_known_divisor(add(mul(S0, const(4)), mul(S1, const(6)))) == 2


@pytest.mark.parametrize(
    ("block", "divisor", "outer", "expected"),
    [
        # Warpgroups over a 32x8x4 block (upstream's warpgroup_linear).
        ((32, 8), 128, mod(S0, const(2)), "((s0 + s1 * 32) floordiv 128) mod 2"),
        (
            (32, 8),
            128,
            floordiv(S0, const(2)),
            "s2 + ((s0 + s1 * 32) floordiv 128) floordiv 2",
        ),
        # Warps (warp_linear): the flattened order, symbols before quotients.
        ((32, 8), 32, mod(S0, const(2)), "(s1 + s2 * 8 + s0 floordiv 32) mod 2"),
        (
            (32, 8),
            32,
            floordiv(S0, const(2)),
            "(s1 + s2 * 8 + s0 floordiv 32) floordiv 2",
        ),
        # Blocks of a 7x9x1 grid (block_linear_generate_launch).
        ((7, 9), 1, mod(S0, const(7)), "s0 mod 7"),
        ((7, 9), 1, floordiv(S0, const(7)), "s1 + s2 * 9 + s0 floordiv 7"),
    ],
)
def test_the_maps_of_upstreams_transform_gpu(
    block: tuple[int, int], divisor: int, outer: AffineExpr, expected: str
) -> None:
    scaled = simplify(rebuild(floordiv(S0, const(divisor)), [], [linear(*block)]), 0, 3)
    assert composed(outer, scaled) == expected


BATCH = [
    "(s0 + s1 * 32 + 256) floordiv 128",
    "(s0 * 4 + s1 * 6) floordiv 2",
    "(s0 + s1 * 18) mod 10",
    "((s0 + s1 * 18) floordiv 32) mod 6",
    "(s0 * 3 + s1 + 7) mod 3",
    "(s0 - (s0 floordiv 5) * 5) + s1",
    "(s0 + s1) ceildiv 4",
    "((s0 * 2) floordiv 4) * 4 + s1 * 3 - s1",
]


@pytest.mark.skipif(shutil.which("mlir-opt-22") is None, reason="needs mlir-opt-22")
def test_simplify_agrees_with_mlir_opt_22() -> None:
    """Each expression of :data:`BATCH` in an ``affine.apply`` of two symbols,
    canonicalized by mlir-opt-22 (which simplifies the map), against ours."""
    from xdsl.context import Context
    from xdsl.dialects.builtin import AffineMapAttr, Builtin
    from xdsl.parser import Parser

    from xdsl_gpu.gpu_dialect.registration import install_hooks

    install_hooks()
    body = "\n".join(
        f"  %r{i} = affine.apply affine_map<()[s0, s1] -> ({e})>()[%a, %b]\n"
        f'  "test.use"(%r{i}) : (index) -> ()'
        for i, e in enumerate(BATCH)
    )
    program = f"func.func @f(%a: index, %b: index) {{\n{body}\n  return\n}}\n"
    done = subprocess.run(
        ["mlir-opt-22", "--allow-unregistered-dialect", "-canonicalize"],
        input=program,
        capture_output=True,
        text=True,
        check=True,
    )
    used = [
        line.split("affine.apply ", 1)[1].split("(", 1)[0]
        for line in done.stdout.splitlines()
        if "affine.apply" in line
    ]
    by_name = {
        line.split(" = ", 1)[0]: line.split(" = ", 1)[1]
        for line in done.stdout.splitlines()
        if line.startswith("#map")
    }
    assert len(used) == len(BATCH)
    ctx = Context()
    ctx.load_dialect(Builtin)
    for text, name in zip(BATCH, used):
        ours = Parser(ctx, f"affine_map<()[s0, s1] -> ({text})>").parse_attribute()
        assert isinstance(ours, AffineMapAttr)
        mine = format_affine_expr(simplify(rebuild(ours.data.results[0]), 0, 2))
        theirs = by_name[name].removeprefix("affine_map<").rsplit("-> (", 1)[1][:-2]
        assert mine == theirs, text
