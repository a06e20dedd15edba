"""xdsl-gpu's ``vector`` dialect (``xdsl_gpu/gpu_dialect/vector/``): it takes the place of
xDSL's, keeps xDSL's classes matching, verifies with upstream's words and agrees with
mlir-opt-22.

The chunks of ``tests/filecheck/dialects/vector/ops.mlir`` are compared with mlir-opt-22
in both directions, custom and generic, by ``tests/test_mlir_conformance.py``; here
every op must occur in them, and every chunk of ``invalid.mlir`` must fail here with
the message upstream gives (mlir-opt-22 checks the same file's ``expected-error``s)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import IndexType, VectorType, f32, i1
from xdsl.utils.test_value import create_ssa_value

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.gpu_dialect.registration import REPLACED_DIALECTS

FILES = Path(__file__).parents[1] / "filecheck" / "dialects" / "vector"
MLIR_OPT = shutil.which("mlir-opt-22")


def test_factory_replaces_xdsls_dialect() -> None:
    assert REPLACED_DIALECTS["vector"]() is vector.VECTOR
    ctx = make_context()
    assert ctx.get_op("vector.load") is vector.LoadOp
    assert ctx.get_op("vector.contract") is vector.ContractionOp
    assert ctx.get_op("vector.fma") is xvector.FMAOp


def test_every_xdsl_op_is_still_defined_and_subclassed() -> None:
    ours = {op.name: op for op in vector.VECTOR.operations}
    assert len(ours) == len(list(vector.VECTOR.operations))
    for xdsl_op in xvector.Vector.operations:
        assert xdsl_op.name in ours
        assert issubclass(ours[xdsl_op.name], xdsl_op), xdsl_op.name


def test_every_op_occurs_in_the_compared_corpus() -> None:
    corpus = "".join((FILES / n).read_text() for n in ("ops.mlir", "mask.mlir"))
    missing = [
        op.name
        for op in vector.VECTOR.operations
        if not re.search(rf"(?<![\w.]){re.escape(op.name)}(?![\w.])", corpus)
    ]
    assert not missing


def _invalid_chunks() -> list[tuple[str, str]]:
    chunks = (FILES / "invalid.mlir").read_text().split("// -----")
    out: list[tuple[str, str]] = []
    for chunk in chunks:
        match = re.search(r"^// CHECK: (.*)$", chunk, re.MULTILINE)
        assert match is not None
        out.append((match.group(1), chunk))
    return out


INVALID = _invalid_chunks()


@pytest.mark.parametrize(
    ("message", "source"), INVALID, ids=[m[:50] for m, _ in INVALID]
)
def test_verifier_messages_are_upstreams(message: str, source: str) -> None:
    with pytest.raises(Exception) as info:  # noqa: PT011 - parse or verify error
        parse(source)
    assert message in str(info.value)


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
def test_upstream_reports_the_same_errors() -> None:
    assert MLIR_OPT is not None
    done = subprocess.run(
        [
            MLIR_OPT,
            str(FILES / "invalid.mlir"),
            "--split-input-file",
            "--verify-diagnostics",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_builders_verify_and_print() -> None:
    v = create_ssa_value(VectorType(f32, [4]))
    m = create_ssa_value(VectorType(f32, [2, 4]))
    ops = [
        vector.TransposeOp(m, [1, 0]),
        vector.ShapeCastOp(m, VectorType(f32, [8])),
        vector.InterleaveOp(v, v),
        vector.DeinterleaveOp(v),
        vector.ToElementsOp(v),
        vector.OuterProductOp(v, v),
        vector.MultiDimReductionOp(xvector.CombiningKindFlag.ADD, m, v, [0]),
        vector.ExtractStridedSliceOp(
            m, [0, 1], [2, 2], [1, 1], VectorType(f32, [2, 2])
        ),
        vector.InsertStridedSliceOp(v, m, [1, 0], [1]),
        vector.ConstantMaskOp([1, 2], VectorType(i1, [2, 4])),
        vector.StepOp(VectorType(IndexType(), [4])),
        vector.PrintOp(v),
        vector.PrintOp(string="hi\n"),
    ]
    for op in ops:
        op.verify()
    assert ops[0].result.type == VectorType(f32, [4, 2])
    assert ops[5].result.type == VectorType(f32, [4, 4])


def test_print_string_is_escaped_as_upstream() -> None:
    module = parse('func.func @f() {\n  vector.print str "a\\nb"\n  func.return\n}')
    assert 'vector.print str "a\\0Ab"' in print_module(module)
