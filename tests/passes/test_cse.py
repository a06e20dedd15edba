"""``cse`` (``xdsl_gpu/passes/cse.py``): xDSL's result, op for op, on every module
that the pipeline's ``cse`` steps see in the test corpus, and on programs made to
exercise its scopes: nested regions, ops isolated from above, read-only ops with
a write in between."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from xdsl.printer import Printer
from xdsl.transforms.common_subexpression_elimination import cse as xdsl_cse
from xdsl.utils.exceptions import ParseError, VerifyException

from tests.support.xdsl_tools import make_context, parse
from xdsl_gpu.passes import cse as our_cse
from xdsl_gpu.passes.gpu_lower_to_nvvm_pipeline import GpuLowerToNVVMPipelinePass

ROOT = Path(__file__).resolve().parents[2]


def _printed(module: object) -> str:
    out = io.StringIO()
    Printer(stream=out, print_debuginfo=True).print_op(module)  # type: ignore[arg-type]
    return out.getvalue()


def _both(text: str) -> tuple[str, str]:
    """(xDSL's cse, ours) on ``text``."""
    ctx = make_context()
    theirs, ours = parse(text, ctx), parse(text, ctx)
    xdsl_cse(theirs)
    our_cse.eliminate_common_subexpressions(ours)
    return _printed(theirs), _printed(ours)


SCOPES = """
func.func @f(%m: memref<4xf32>, %c: i1, %i: index) -> f32 {
  %a = arith.constant 1.0 : f32
  %b = arith.constant 1.0 : f32
  %l1 = memref.load %m[%i] : memref<4xf32>
  %r = scf.if %c -> (f32) {
    %a2 = arith.constant 1.0 : f32
    %l2 = memref.load %m[%i] : memref<4xf32>
    %s = arith.addf %a2, %l2 : f32
    scf.yield %s : f32
  } else {
    %l4 = memref.load %m[%i] : memref<4xf32>
    scf.yield %l4 : f32
  }
  %l3 = memref.load %m[%i] : memref<4xf32>
  memref.store %a, %m[%i] : memref<4xf32>
  %l5 = memref.load %m[%i] : memref<4xf32>
  %x = arith.addf %l1, %l3 : f32
  %y = arith.addf %x, %l5 : f32
  %z = arith.addf %y, %b : f32
  %w = arith.addf %z, %r : f32
  func.return %w : f32
}
func.func @g() -> f32 {
  %a = arith.constant 1.0 : f32
  func.return %a : f32
}
"""


def test_scopes_are_xdsls() -> None:
    theirs, ours = _both(SCOPES)
    assert ours == theirs
    # What that result is: the constant and the first load stand for their
    # twins, in nested regions too; a load in another block or after a store
    # stays; the second function starts afresh (isolated from above).
    for gone in ("%b", "%a2", "%l3"):
        assert f"{gone} = " not in ours
    for kept in ("%l2", "%l4", "%l5"):
        assert f"{kept} = " in ours
    assert "%x = arith.addf %l1, %l1 : f32" in ours
    assert ours.count("arith.constant 1.000000e+00 : f32") == 2


def test_an_op_used_by_a_twin_to_come_keeps_that_use() -> None:
    """xDSL leaves a use alone where the user has a known twin (its wasVisited):
    ours does the same."""
    text = """
func.func @f(%x: i32) -> (i32, i32) {
  %a = arith.addi %x, %x : i32
  %b = arith.addi %x, %x : i32
  %c = arith.muli %b, %b : i32
  %d = arith.muli %a, %a : i32
  func.return %c, %d : i32, i32
}
"""
    theirs, ours = _both(text)
    assert ours == theirs
    assert ours.count("arith.addi") == 1


def _gpu_chunks() -> list[tuple[str, str]]:
    chunks: list[tuple[str, str]] = []
    for folder in ("examples", "tests/filecheck", "tests/gpu", "tests/runtime"):
        for path in sorted((ROOT / folder).rglob("*.mlir")):
            text = path.read_text()
            for index, chunk in enumerate(re.split(r"^// -----.*$", text, flags=re.M)):
                if "gpu.launch" in chunk or "gpu.module" in chunk:
                    chunks.append((f"{path.relative_to(ROOT)}#{index}", chunk))
    return chunks


def test_every_cse_step_of_the_pipeline_is_xdsls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pipeline, step after step, on every GPU program of the corpus: at each
    ``cse`` step (top-level and in each ``gpu.module``), xDSL's cse on a copy of
    the module prints what ours leaves."""
    monkeypatch.setenv("XDSL_GPU_JOBS", "1")
    monkeypatch.setenv("XDSL_GPU_CACHE", "0")
    compared: list[int] = []
    differing: list[str] = []
    current = [""]
    ours = our_cse.eliminate_common_subexpressions

    def compared_with_xdsl(root: object, rewriter: object = None) -> None:
        # Both on copies (a copy loses the blocks' names), then ours on the module.
        theirs, same = root.clone(), root.clone()  # type: ignore[attr-defined]
        xdsl_cse(theirs)
        ours(same)
        compared.append(1)
        if _printed(theirs) != _printed(same):
            differing.append(current[0])
        ours(root)  # type: ignore[arg-type]

    monkeypatch.setattr(our_cse, "eliminate_common_subexpressions", compared_with_xdsl)
    compiled = 0
    for name, text in _gpu_chunks():
        ctx = make_context()
        try:
            module = parse(text, ctx)
        except (ParseError, VerifyException):
            continue  # a negative test's input
        current[0] = name
        try:
            GpuLowerToNVVMPipelinePass(cubin_format="isa").apply(ctx, module)
        except Exception:  # a program the pipeline refuses: compared up to there
            continue
        compiled += 1
    assert not differing, differing
    assert compiled > 60
    assert len(compared) > 3 * compiled


def _reloads(count: int, write_every: int = 0) -> str:
    """A block that reloads one value ``count`` times, a pure op between each two
    loads, and a store every ``write_every`` loads (none with 0)."""
    lines = ["func.func @f(%m: memref<4xf32>, %i: index, %x: f32) -> f32 {"]
    value = "%x"
    for n in range(count):
        lines.append(f"  %l{n} = memref.load %m[%i] : memref<4xf32>")
        lines.append(f"  %s{n} = arith.addf {value}, %l{n} : f32")
        value = f"%s{n}"
        if write_every and n % write_every == write_every - 1:
            lines.append(f"  memref.store {value}, %m[%i] : memref<4xf32>")
    lines += [f"  func.return {value} : f32", "}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("write_every", [0, 1, 3, 7])
def test_reloaded_values_are_xdsls(write_every: int) -> None:
    theirs, ours = _both(_reloads(40, write_every))
    assert theirs == ours
    if not write_every:
        assert ours.count("memref.load") == 1


def test_searching_for_writes_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each op between a load and its last twin is asked for its effects about
    once, however many twins there are (xDSL asks again from the load for each
    twin: quadratic)."""
    asked: list[object] = []
    effects = our_cse.get_effects

    def counted(op: object) -> object:
        asked.append(op)
        return effects(op)  # type: ignore[arg-type]

    monkeypatch.setattr(our_cse, "get_effects", counted)
    ctx = make_context()
    for count in (100, 400):
        asked.clear()
        module = parse(_reloads(count), ctx)
        our_cse.eliminate_common_subexpressions(module)
        # The ops of the block, each asked once (xDSL's search asks count² of them).
        assert 2 * count - 2 <= len(asked) <= 2 * count + 2
        assert _printed(module).count("memref.load") == 1
