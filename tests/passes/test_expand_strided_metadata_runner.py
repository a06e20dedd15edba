"""Views of a static ``memref.alloc`` through ``lower-affine`` *then*
``expand-strided-metadata`` and the rest of the CPU lowering: ``mlir-runner-22`` must
run what we print and print what it prints for ``mlir-opt-22``'s lowering.

With ``lower-affine`` first, any ``affine.apply`` that ``expand-strided-metadata``
leaves stays in the output, and ``mlir-runner-22`` cannot translate it. Upstream's
greedy driver folds the applies over offsets and strides that resolve to constants;
ours left them (a subview of a subview whose type hides the static layout).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.support.mlir_differential import MLIR_OPT

MLIR_RUNNER = shutil.which("mlir-runner-22")
XDSL_OPT = shutil.which("xdsl-opt")

PIPELINE = (
    "lower-affine",
    "expand-strided-metadata",
    "convert-scf-to-cf",
    "finalize-memref-to-llvm",
    "convert-arith-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    "reconcile-unrealized-casts",
)

_FILL = """
  %a = memref.alloc() : memref<16x16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1)> (%i, %j)
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      memref.store %kf, %a[%i, %j] : memref<16x16xf32>
    }
  }
"""

PROGRAMS = {
    # The program: alloc 16x16, subview [2, 3][4, 4][1, 1], load.
    "static_subview": (
        """
  %s = memref.subview %a[2, 3] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 35>>
  %v = memref.load %s[%c1, %c1] : memref<4x4xf32, strided<[16, 1], offset: 35>>
""",
        52.0,
    ),
    # Constant operands and a dynamic result layout, then a subview of that view.
    "view_of_view": (
        """
  %s = memref.subview %a[%c2, %c3] [%c4, %c4] [%c1, %c1] : memref<16x16xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %t = memref.subview %s[1, 1] [2, 2] [2, 1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  %v = memref.load %t[%c1, %c1] : memref<2x2xf32, strided<[?, ?], offset: ?>>
""",
        85.0,
    ),
}


def _program(body: str) -> str:
    return (
        "func.func @main() -> f32 {"
        + _FILL
        + body
        + "  memref.dealloc %a : memref<16x16xf32>\n  return %v : f32\n}\n"
    )


def _run(args: list[str], stdin: str) -> str:
    done = subprocess.run(
        args, input=stdin, capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _runner(lowered: str) -> float:
    assert MLIR_RUNNER is not None
    out = _run([MLIR_RUNNER, "-e", "main", "-entry-point-result=f32"], lowered)
    return float(out.strip())


@pytest.mark.skipif(
    None in (MLIR_OPT, MLIR_RUNNER, XDSL_OPT),
    reason="mlir-opt-22, mlir-runner-22 or xdsl-opt not installed",
)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_mlir_runner_runs_our_lowering(name: str) -> None:
    assert MLIR_OPT is not None
    assert XDSL_OPT is not None
    body, expected = PROGRAMS[name]
    program = _program(body)
    upstream = _run([MLIR_OPT, *(f"-{p}" for p in PIPELINE)], program)
    ours = _run([XDSL_OPT, "--xdsl-gpu", "-p", ",".join(PIPELINE)], program)
    assert "affine." not in ours
    assert _runner(upstream) == expected
    assert _runner(ours) == expected
