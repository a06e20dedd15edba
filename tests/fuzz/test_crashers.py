"""Every input that once crashed, hung or lost a file (found by ``tools/fuzz.py``,
minimized, kept in ``crashers/``) now gives a result or a diagnostic; and a short,
deterministic fuzz run finds nothing new."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CRASHERS = sorted((Path(__file__).parent / "crashers").glob("*.mlir"))


def _fuzz():
    spec = importlib.util.spec_from_file_location("fuzz", ROOT / "tools" / "fuzz.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz"] = module
    spec.loader.exec_module(module)
    from xdsl.universe import Universe

    Universe.get_multiverse()
    return module


fuzz = _fuzz()


def test_there_are_crashers() -> None:
    assert CRASHERS


@pytest.mark.parametrize("path", CRASHERS, ids=lambda p: p.stem)
def test_crasher_is_a_diagnostic_now(path: Path) -> None:
    text = path.read_text()
    pipeline = next(
        (line.split(":", 1)[1].strip() for line in text.splitlines()
         if line.startswith("// PIPELINE:")),
        "",
    )  # fmt: skip
    outcome = fuzz.run_case(text, pipeline, timeout=60)
    assert not outcome.failed, f"{outcome.kind}: {outcome.signature}\n{outcome.detail}"


def test_a_fault_printing_the_diagnostic_is_a_crash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A user would see a traceback, not the diagnostic: a failure to count (it
    was counted as an ordinary rejection)."""
    from xdsl_gpu import diagnostics

    def broken(*args: object, **kwargs: object) -> str:
        raise AttributeError("a fault of the formatter")

    monkeypatch.setattr(diagnostics, "user_error_text", broken)
    outcome = fuzz.run_case("func.func @f() {\n  %0 = arith.nope\n}\n", "", 60)
    assert outcome.kind == "crash", outcome
    assert "AttributeError" in outcome.signature


def test_a_short_fuzz_run_finds_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """What CI runs: a fixed seed and count, so the same cases every time."""
    status = fuzz.main(["--cases", "400", "--seed", "11", "--minimize-seconds", "5"])
    assert status == 0, capsys.readouterr().out
