"""Verification between pipeline steps, scoped to what changed
(``xdsl_gpu/passes/scoped_verification.py``): unchanged IR is not verified again,
any change to an op, its operands, its blocks or its children is, a failure gives
the full verification's diagnostic, and the pipeline's output does not depend on
the mode."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from xdsl.dialects.builtin import IntegerAttr, i32, i64
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from tests.support.xdsl_tools import parse
from xdsl_gpu.passes.scoped_verification import ScopedVerifier

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
func.func @f(%a: i32, %b: i64) -> i32 {
  %c = arith.constant 1 : i32
  %s = arith.addi %a, %c : i32
  func.return %s : i32
}
func.func @g() {
  func.return
}
"""


def _op(module: Operation, name: str) -> Operation:
    return next(o for o in module.walk() if o.name == name)


def test_unchanged_ir_is_not_verified_again() -> None:
    module = parse(PROGRAM)
    verifier = ScopedVerifier()
    verifier.verify(module)
    assert verifier.last_checked == sum(1 for _ in module.walk())
    verifier.verify(module)
    assert verifier.last_checked == 0


def test_a_change_reverifies_the_op_and_its_ancestors_only() -> None:
    module = parse(PROGRAM)
    verifier = ScopedVerifier()
    verifier.verify(module)
    constant = _op(module, "arith.constant")
    constant.attributes["note"] = IntegerAttr(1, i32)
    verifier.verify(module)
    # the constant, its function and the module; not @g, its return, the addi
    assert verifier.last_checked == 3


def test_invalid_property_is_caught_with_the_full_diagnostic() -> None:
    module = parse(PROGRAM)
    verifier = ScopedVerifier()
    verifier.verify(module)
    constant = _op(module, "arith.constant")
    constant.properties["value"] = IntegerAttr(1, i64)  # the result is i32
    with pytest.raises(VerifyException) as scoped:
        verifier.verify(module)
    with pytest.raises(VerifyException) as full:
        module.verify()
    assert str(scoped.value) == str(full.value)


def test_replaced_operand_is_seen() -> None:
    module = parse(PROGRAM)
    verifier = ScopedVerifier()
    verifier.verify(module)
    add = _op(module, "arith.addi")
    func = _op(module, "func.func")
    wide = func.regions[0].blocks[0].args[1]  # the i64 argument
    add.operands = [wide, add.operands[1]]
    with pytest.raises(VerifyException):
        verifier.verify(module)


def test_removed_terminator_is_seen() -> None:
    module = parse(PROGRAM)
    verifier = ScopedVerifier()
    verifier.verify(module)
    returns = [o for o in module.walk() if o.name == "func.return"]
    returns[1].detach()  # @g's block is now empty
    with pytest.raises(VerifyException, match="empty block"):
        verifier.verify(module)


def _pipeline(mode: str | None, tmp_path: Path) -> str:
    import os

    env = dict(os.environ)
    env.pop("XDSL_GPU_VERIFY_EACH", None)
    if mode is not None:
        env["XDSL_GPU_VERIFY_EACH"] = mode
    env["XDSL_GPU_CACHE"] = "0"
    done = subprocess.run(
        [
            "xdsl-opt",
            str(ROOT / "examples" / "async_matmul" / "matmul.mlir"),
            "-p",
            "gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 "
            "cubin-format=isa}",
        ],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=tmp_path,
    )
    return re.sub(r"TimeInMs = \d+", "TimeInMs = N", done.stdout)


def test_pipeline_output_does_not_depend_on_the_mode(tmp_path: Path) -> None:
    assert _pipeline(None, tmp_path) == _pipeline("full", tmp_path)
