"""The run cache of ``xdsl-gpu-opt``'s server: a repeated run is replayed only when
everything it read is unchanged, and never when its output could differ."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Each scenario runs in a process of its own (as a served run does): the cache
# installs an audit hook and swaps the standard streams for the run.
_SCENARIO = r"""
import io, json, os, sys
from xdsl_gpu.driver import opt, run_cache

real_runs = []
run_here = opt.run_in_this_process

def counting(args, on_main=None):
    real_runs.append(list(args))
    return run_here(args, on_main)

# Warm up as the server does: a first run in a process loads libraries (and may
# start a program to find one), which makes that run unfit to replay.
saved, sys.stdout = sys.stdout, io.StringIO()
run_here([sys.argv[2], "-p", "cse"])
sys.stdout = saved
opt.run_in_this_process = counting
results = []
for args, stdin in json.loads(sys.argv[1]):
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))
    out = io.StringIO()
    saved, sys.stdout = sys.stdout, out
    before = len(real_runs)
    try:
        code = run_cache.run_with_cache(args, "code-fingerprint")
    finally:
        sys.stdout = saved
    results.append({"code": code, "ran": len(real_runs) > before,
                    "stdout": out.getvalue()})
print(json.dumps(results))
"""

PROGRAM = """func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
"""


def _run(
    tmp_path: Path,
    steps: list[tuple[list[str], str | None]],
    expect_status: int = 0,
    **env: str,
) -> list[dict[str, object]]:
    warm_up = tmp_path / "warm_up.mlir"
    warm_up.write_text(PROGRAM)
    environment = dict(os.environ)
    environment["XDSL_GPU_CACHE_DIR"] = str(tmp_path / "cache")
    environment.pop("XDSL_GPU_CACHE", None)
    environment.update(env)
    done = subprocess.run(
        [sys.executable, "-c", _SCENARIO, json.dumps(steps), str(warm_up)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment,
        timeout=300,
    )
    assert done.returncode == expect_status, done.stderr
    return json.loads(done.stdout.splitlines()[-1]) if expect_status == 0 else []


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "in.mlir"
    path.write_text(PROGRAM)
    return path


def test_a_repeated_run_is_replayed(tmp_path: Path, program: Path) -> None:
    args = [str(program), "-p", "canonicalize"]
    first, second = _run(tmp_path, [(args, None), (args, None)])
    assert first["ran"]
    assert not second["ran"]
    assert first["code"] == second["code"] == 0
    assert second["stdout"] == first["stdout"]
    assert "arith.addi" in str(first["stdout"])

    # An output file is written again, byte for byte.
    out = tmp_path / "out.mlir"
    with_output = [str(program), "-o", str(out)]
    (first,) = _run(tmp_path, [(with_output, None)])
    written = out.read_bytes()
    out.unlink()
    (second,) = _run(tmp_path, [(with_output, None)])
    assert first["ran"]
    assert not second["ran"]
    assert out.read_bytes() == written


def test_a_changed_input_runs_again(tmp_path: Path, program: Path) -> None:
    args = [str(program)]
    (first,) = _run(tmp_path, [(args, None)])
    program.write_text(PROGRAM.replace("addi", "muli"))
    (second,) = _run(tmp_path, [(args, None)])
    assert first["ran"]
    assert second["ran"]
    assert "arith.muli" in str(second["stdout"])
    (third,) = _run(tmp_path, [(args, None)])
    assert not third["ran"]
    assert third["stdout"] == second["stdout"]


def test_a_different_environment_or_directory_is_another_run(
    tmp_path: Path, program: Path
) -> None:
    args = [str(program)]
    _run(tmp_path, [(args, None)])
    (other_env,) = _run(tmp_path, [(args, None)], XDSL_GPU_JOBS="1")
    assert other_env["ran"]


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        ([], PROGRAM),  # standard input
        (["in.mlir", "--mlir-timing"], None),  # times are measured anew
    ],
)
def test_runs_that_are_never_replayed(
    tmp_path: Path, program: Path, args: list[str], stdin: str | None
) -> None:
    results = _run(tmp_path, [(args, stdin), (args, stdin)])
    assert [r["ran"] for r in results] == [True, True]


def test_no_cache_when_the_cache_is_off(tmp_path: Path, program: Path) -> None:
    args = [str(program)]
    results = _run(tmp_path, [(args, None), (args, None)], XDSL_GPU_CACHE="0")
    assert [r["ran"] for r in results] == [True, True]
    assert not (tmp_path / "cache").exists()


def test_a_failed_run_is_not_recorded(tmp_path: Path, program: Path) -> None:
    # A user error: status 1 (after its diagnostic), and the run again compiles.
    results = _run(tmp_path, [(["missing.mlir"], None)] * 2)
    assert [(r["code"], r["ran"]) for r in results] == [(1, True), (1, True)]
    assert not list((tmp_path / "cache").rglob("*.entry"))


def test_a_path_a_search_did_not_find_must_stay_missing(tmp_path: Path) -> None:
    """An object-file search that did not find a file in its first folder (it
    reports the paths it tries to ``xdsl_gpu.file_access``): once the file appears
    there, the run is not replayed."""
    from xdsl_gpu.driver.run_cache import (
        _Recorder,  # pyright: ignore[reportPrivateUsage]
        _replay,  # pyright: ignore[reportPrivateUsage]
    )
    from xdsl_gpu.file_access import listening
    from xdsl_gpu.passes.xgpu_object_files import resolve_object_file
    from xdsl_gpu.targets.compile_cache import CompileCache

    second = tmp_path / "second"
    second.mkdir()
    (second / "kernel.cubin").write_bytes(b"object")
    first = tmp_path / "first"
    first.mkdir()
    recorder = _Recorder(CompileCache(tmp_path / "cache"))
    with listening(recorder.probed):
        found = resolve_object_file(
            "kernel.cubin", [str(first), str(second)], False, "test"
        )
    assert found == second / "kernel.cubin"
    assert recorder.replayable()
    data, metadata = recorder.entry()
    assert str(first / "kernel.cubin") in metadata["absent"]
    assert _replay(data, metadata)
    (first / "kernel.cubin").write_bytes(b"another object")
    assert not _replay(data, metadata)
