"""When gpu-lower-to-nvvm-pipeline verifies (``xdsl_gpu/passes/pipeline_verification.py``):
once at the end; on a failure the steps run again on a copy of the input, verified
one by one, and the error names the first step that left invalid IR; a user's error
is reported at once; ``XDSL_GPU_VERIFY_EACH=full`` verifies after each step; the
pipeline's output does not depend on the mode."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32, i64
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException, VerifyException

from tests.support.xdsl_tools import parse
from xdsl_gpu.passes.pipeline_verification import Step, run_steps, verify_in_two

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
func.func @f(%a: i32) -> i32 {
  %c = arith.constant 1 : i32
  %s = arith.addi %a, %c : i32
  func.return %s : i32
}
"""


def _constant(module: Operation) -> Operation:
    return next(o for o in module.walk() if o.name == "arith.constant")


class Steps:
    """Named steps that count their runs."""

    def __init__(self) -> None:
        self.runs: Counter[str] = Counter()

    def step(self, name: str, action: Callable[[ModuleOp], None]) -> Step:
        def run(module: ModuleOp) -> bool:
            self.runs[name] += 1
            action(module)
            return True

        return name, run


def _mark(module: ModuleOp) -> None:
    _constant(module).attributes["mark"] = IntegerAttr(1, i32)


def _break(module: ModuleOp) -> None:
    _constant(module).properties["value"] = IntegerAttr(1, i64)  # the result is i32


def _repair(module: ModuleOp) -> None:
    _constant(module).properties["value"] = IntegerAttr(1, i32)


def _crash_on_broken(module: ModuleOp) -> None:
    value = _constant(module).properties["value"]
    assert isinstance(value, IntegerAttr)
    {i32: None}[value.type]  # KeyError on the i64 that "break" left


@pytest.fixture
def verify_at_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDSL_GPU_VERIFY_EACH", raising=False)


@pytest.mark.usefixtures("verify_at_end")
def test_valid_steps_run_once_and_the_result_is_verified() -> None:
    module = parse(PROGRAM)
    steps = Steps()
    run_steps(module, [steps.step("mark", _mark), steps.step("mark2", _mark)], "p")
    assert steps.runs == Counter({"mark": 1, "mark2": 1})  # no replay
    assert "mark" in _constant(module).attributes


@pytest.mark.usefixtures("verify_at_end")
def test_invalid_result_is_blamed_on_the_step_that_made_it() -> None:
    module = parse(PROGRAM)
    steps = Steps()
    sequence = [
        steps.step("mark", _mark),
        steps.step("break", _break),
        steps.step("mark again", _mark),
    ]
    with pytest.raises(VerifyException) as error:
        run_steps(module, sequence, "p")
    assert error.value.__notes__[-1] == "in p, pass 2/3: break"
    # the replay stopped at the step it blames
    assert steps.runs == Counter({"mark": 2, "break": 2, "mark again": 1})
    full = parse(PROGRAM)
    _break(full)
    with pytest.raises(VerifyException) as expected:
        full.verify()
    assert str(error.value) == str(expected.value)


@pytest.mark.usefixtures("verify_at_end")
def test_crash_on_invalid_ir_is_blamed_on_the_step_that_broke_it() -> None:
    module = parse(PROGRAM)
    steps = Steps()
    sequence = [steps.step("break", _break), steps.step("crash", _crash_on_broken)]
    with pytest.raises(VerifyException) as error:
        run_steps(module, sequence, "p")
    assert error.value.__notes__[-1] == "in p, pass 1/2: break"


@pytest.mark.usefixtures("verify_at_end")
def test_crash_on_valid_ir_is_the_error_reported() -> None:
    module = parse(PROGRAM)

    def crash(module: ModuleOp) -> None:
        raise KeyError("bug")

    with pytest.raises(KeyError, match="bug"):
        run_steps(module, [Steps().step("crash", crash)], "p")


@pytest.mark.usefixtures("verify_at_end")
def test_user_error_is_reported_at_once_without_a_replay() -> None:
    module = parse(PROGRAM)
    steps = Steps()

    def refuse(module: ModuleOp) -> None:
        raise PassFailedException("unsupported op")

    sequence = [steps.step("mark", _mark), steps.step("refuse", refuse)]
    with pytest.raises(PassFailedException) as error:
        run_steps(module, sequence, "p")
    assert error.value.__notes__[-1] == "in p, pass 2/2: refuse"
    assert steps.runs == Counter({"mark": 1, "refuse": 1})


def test_full_mode_catches_invalid_ir_a_later_step_repairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sequence = [Steps().step("break", _break), Steps().step("repair", _repair)]
    monkeypatch.delenv("XDSL_GPU_VERIFY_EACH", raising=False)
    run_steps(parse(PROGRAM), sequence, "p")  # the end result is valid
    monkeypatch.setenv("XDSL_GPU_VERIFY_EACH", "full")
    with pytest.raises(VerifyException) as error:
        run_steps(parse(PROGRAM), sequence, "p")
    assert error.value.__notes__[-1] == "in p, pass 1/2: break"


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


FUNCTIONS = "\n".join(
    f"func.func @f{i}(%a: i32) -> i32 {{\n"
    f"  %c = arith.constant {i} : i32\n  %s = arith.addi %a, %c : i32\n"
    "  func.return %s : i32\n}"
    for i in range(6)
)


@pytest.mark.usefixtures("forking_is_safe")
@pytest.mark.parametrize("broken", [None, 0, 5])
def test_verify_in_two_reports_what_verify_reports(
    broken: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Half of the module verified in a forked child, the rest here: the same
    verdict, and for an invalid op in either half, the same error as
    ``module.verify()``."""
    from xdsl_gpu import forked_jobs
    from xdsl_gpu.passes import pipeline_verification

    monkeypatch.setattr(forked_jobs, "default_jobs", lambda: 2)
    monkeypatch.setattr(pipeline_verification, "SPLIT_VERIFICATION_FROM", 0)
    started = _count_forks(monkeypatch)
    module = parse(FUNCTIONS)
    if broken is not None:
        functions = list(module.ops)
        constant = next(
            o for o in functions[broken].walk() if o.name == "arith.constant"
        )
        constant.properties["value"] = IntegerAttr(1, i64)  # an i64 for an i32
    try:
        module.verify()
        expected = None
    except VerifyException as error:
        expected = str(error)
    if expected is None:
        verify_in_two(module)
        assert broken is None
        assert started == [1]  # half of it in a child
        return
    with pytest.raises(VerifyException) as raised:
        verify_in_two(module)
    assert str(raised.value) == expected
    assert started == [1]


def _count_forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of jobs of each ``start_jobs`` call from here on."""
    from xdsl_gpu import forked_jobs

    calls: list[int] = []
    start = forked_jobs.start_jobs

    def counted(jobs, workers):  # type: ignore[no-untyped-def]
        calls.append(len(jobs))
        return start(jobs, workers)

    monkeypatch.setattr(forked_jobs, "start_jobs", counted)
    return calls


def test_a_small_module_is_verified_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """Below SPLIT_VERIFICATION_FROM ops a fork costs more than it saves."""
    from xdsl_gpu import forked_jobs

    monkeypatch.setattr(forked_jobs, "default_jobs", lambda: 2)
    started = _count_forks(monkeypatch)
    verify_in_two(parse(FUNCTIONS))
    assert started == []


KERNEL = """
module attributes {gpu.container_module} {
  func.func @main(%m: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
               threads(%t0, %t1, %t2) in (%s0 = %c8, %s1 = %c1, %s2 = %c1) {
      %v = memref.load %m[%t0] : memref<8xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %m[%t0] : memref<8xf32>
      gpu.terminator
    }
    return
  }
}
"""

KERNEL_PIPELINE = (
    "gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 "
    "cubin-format=isa}"
)


def _xdsl_opt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *passes: str
) -> tuple[int, list[int], str]:
    """xdsl-opt in this process on :data:`KERNEL` (``passes``, then the pipeline):
    its exit status, the sizes of the inputs the pipeline copied, its output."""
    from xdsl_gpu.driver import opt
    from xdsl_gpu.passes import pipeline_verification

    monkeypatch.setenv("XDSL_GPU_CACHE", "0")
    monkeypatch.setenv("XDSL_GPU_JOBS", "1")
    copied: list[int] = []
    snapshot = pipeline_verification.snapshot

    def counted(module: ModuleOp) -> ModuleOp:
        copied.append(sum(1 for _ in module.walk()))
        return snapshot(module)

    monkeypatch.setattr(pipeline_verification, "snapshot", counted)
    source, out = tmp_path / "kernel.mlir", tmp_path / "out.mlir"
    source.write_text(KERNEL)
    pipeline = ",".join((*passes, KERNEL_PIPELINE))
    code = opt.run_in_this_process([str(source), "-p", pipeline, "-o", str(out)])
    return code, copied, out.read_text() if out.exists() else ""


@pytest.mark.usefixtures("verify_at_end")
def test_xdsl_opt_gives_the_pipeline_its_input_as_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pipeline as xdsl-opt's first pass does not copy its input (it could
    parse it again); after another pass it does, and the output is the same."""
    code, copied, first = _xdsl_opt(tmp_path, monkeypatch)
    assert code == 0
    assert copied == []
    assert "gpu.binary @main_kernel" in first
    code, copied, second = _xdsl_opt(tmp_path, monkeypatch, "canonicalize")
    assert code == 0
    assert copied == [10]  # the input, whole
    assert re.sub(r"TimeInMs = \d+", "", first) == re.sub(r"TimeInMs = \d+", "", second)


def _break_after_cse(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pipeline's first ``cse`` step leaves an op without a property its
    definition requires (each time it runs: in the replay too)."""
    from xdsl_gpu.passes import cse

    eliminate = cse.eliminate_common_subexpressions

    def breaking(root: Operation) -> None:
        eliminate(root)
        for op in root.walk():
            if op.name == "llvm.mlir.constant":
                del op.properties["value"]
                return

    monkeypatch.setattr(cse, "eliminate_common_subexpressions", breaking)


@pytest.mark.usefixtures("verify_at_end")
@pytest.mark.parametrize("before", [(), ("canonicalize",)])
def test_a_step_that_breaks_the_ir_is_blamed_from_the_text_too(
    before: tuple[str, ...],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Whether the pipeline parsed its input again (first pass) or copied it
    (after another pass), the replay blames the same step with the same error."""
    _break_after_cse(monkeypatch)
    code, copied, out = _xdsl_opt(tmp_path, monkeypatch, *before)
    assert code == 1
    assert out == ""
    assert len(copied) == len(before)
    said = capsys.readouterr().err
    assert "property 'value' expected" in said
    assert re.search(r"in gpu-lower-to-nvvm-pipeline, pass \d+/\d+: cse", said), said
