"""``xdsl-gpu-opt`` and its compile server: a served run is the run a process of its
own would make (output, diagnostics, exit status, files, environment, working
directory, standard input), and the client falls back to running the command itself
whenever there is no server it can trust."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from xdsl_gpu.driver import server_protocol as protocol
from xdsl_gpu.driver.compile_server import (
    _changed,  # pyright: ignore[reportPrivateUsage]
)

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "examples" / "async_matmul" / "matmul.mlir"
PIPELINE = (
    "gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 "
    "cubin-format=isa}"
)
BAD = """func.func @f() {
  %0 = arith.constant 1 : i32
  %1 = arith.addf %0, %0 : i32
  return
}
"""


@pytest.fixture
def server_dir() -> Iterator[str]:
    """A private server folder (short: a socket path has at most 107 bytes), its
    server stopped at the end."""
    folder = tempfile.mkdtemp(prefix="xgs", dir="/tmp")
    os.chmod(folder, 0o700)
    try:
        yield folder
    finally:
        subprocess.run(
            [sys.executable, "-m", "xdsl_gpu.driver.opt", "--stop-server"],
            env=_env(folder),
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(folder, ignore_errors=True)


def _env(folder: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop(protocol.DISABLE_VARIABLE, None)
    env[protocol.DIR_VARIABLE] = folder
    env[protocol.IDLE_VARIABLE] = "120"
    env["XDSL_GPU_CACHE"] = "0"
    env.update(extra)
    return env


def _opt(
    folder: str,
    *args: str,
    stdin: str | None = None,
    cwd: Path | None = None,
    marker: Path | None = None,
    **extra: str,
) -> subprocess.CompletedProcess[str]:
    """``xdsl-gpu-opt args``; with ``marker``, that file says whether the client
    process imported xDSL (it does not when a server ran the command)."""
    if marker is None:
        command = [sys.executable, "-m", "xdsl_gpu.driver.opt", *args]
    else:
        code = (
            "import sys; from xdsl_gpu.driver.opt import main; "
            "code = main(sys.argv[1:]); "
            f"open({str(marker)!r}, 'w').write(str('xdsl' in sys.modules)); "
            "sys.exit(code)"
        )
        command = [sys.executable, "-c", code, *args]
    return subprocess.run(
        command,
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=_env(folder, **extra),
        timeout=300,
    )


def _wait_for_server(folder: str) -> None:
    path = protocol.socket_path(folder)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return
        time.sleep(0.2)
    log = "".join(p.read_text() for p in Path(folder).glob("*.log"))
    raise AssertionError(f"no server came up; its log:\n{log}")


def _without_times(text: str) -> str:
    import re

    return re.sub(r"TimeInMs = \d+", "TimeInMs = N", text)


def test_served_runs_are_the_runs_of_a_process_of_their_own(
    server_dir: str, tmp_path: Path
) -> None:
    alone = _opt(server_dir, str(SEED), "-p", PIPELINE, XDSL_GPU_SERVER="0")
    assert alone.returncode == 0, alone.stderr
    assert not list(Path(server_dir).glob("*.sock"))  # opted out: no server

    first = _opt(server_dir, str(SEED), "-p", PIPELINE)  # starts the server
    assert first.returncode == 0, first.stderr
    _wait_for_server(server_dir)

    marker = tmp_path / "imported"
    served = _opt(server_dir, str(SEED), "-p", PIPELINE, marker=marker)
    assert served.returncode == 0, served.stderr
    assert marker.read_text() == "False"  # the server ran it
    assert _without_times(served.stdout) == _without_times(alone.stdout)
    assert "gpu.binary" in served.stdout

    # A user error: the same diagnostic and exit status.
    bad = tmp_path / "bad.mlir"
    bad.write_text(BAD)
    errors = [
        _opt(server_dir, str(bad), marker=marker),
        _opt(server_dir, str(bad), XDSL_GPU_SERVER="0"),
    ]
    assert [e.returncode for e in errors] == [1, 1]
    assert errors[0].stderr == errors[1].stderr
    assert errors[0].stderr.startswith(f"{bad}:3:3: error: Unexpected attribute i32")
    assert "Traceback" not in errors[0].stderr


def test_the_server_takes_stdin_cwd_environment_and_output_files(
    server_dir: str, tmp_path: Path
) -> None:
    _opt(server_dir, "--help")
    _wait_for_server(server_dir)
    marker = tmp_path / "imported"

    piped = _opt(server_dir, "-p", "canonicalize", stdin=BAD, marker=marker)
    assert marker.read_text() == "False"
    assert piped.returncode == 1
    assert "stdin:3:3: error: Unexpected attribute i32" in piped.stderr

    # A relative output path is the client's, and the environment is the client's:
    # the compile cache goes where its XDSL_GPU_CACHE_DIR says.
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(SEED, work / "seed.mlir")
    cache = tmp_path / "cache"
    done = _opt(
        server_dir,
        "seed.mlir",
        "-p",
        PIPELINE,
        "-o",
        "out.mlir",
        cwd=work,
        marker=marker,
        XDSL_GPU_CACHE="1",
        XDSL_GPU_CACHE_DIR=str(cache),
    )
    assert done.returncode == 0, done.stderr
    assert marker.read_text() == "False"
    assert "gpu.binary" in (work / "out.mlir").read_text()
    assert done.stdout == ""
    assert any(p.is_file() for p in cache.rglob("*"))

    # A new output file gets the client's umask, not the server's.
    before = os.umask(0o027)
    try:
        done = _opt(server_dir, "seed.mlir", "-o", "mine.mlir", cwd=work, marker=marker)
    finally:
        os.umask(before)
    assert done.returncode == 0, done.stderr
    assert marker.read_text() == "False"
    assert (work / "mine.mlir").stat().st_mode & 0o777 == 0o640


def test_runs_at_the_same_time_do_not_wait_for_each_other(
    server_dir: str, tmp_path: Path
) -> None:
    _opt(server_dir, "--help")
    _wait_for_server(server_dir)
    results: list[subprocess.CompletedProcess[str]] = []

    def run(i: int) -> None:
        results.append(
            _opt(server_dir, str(SEED), "-p", PIPELINE, "-o", str(tmp_path / f"{i}"))
        )

    threads = [threading.Thread(target=run, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [r.returncode for r in results] == [0, 0, 0]
    texts = {_without_times((tmp_path / f"{i}").read_text()) for i in range(3)}
    assert len(texts) == 1


def test_stop_server_ends_it(server_dir: str) -> None:
    _opt(server_dir, "--help")
    _wait_for_server(server_dir)
    stopped = _opt(server_dir, "--stop-server")
    assert "stopped" in stopped.stderr
    deadline = time.monotonic() + 30
    while os.path.exists(protocol.socket_path(server_dir)):
        assert time.monotonic() < deadline, "the socket outlived the server"
        time.sleep(0.1)
    again = _opt(server_dir, "--stop-server")
    assert "no compile server is running" in again.stderr


def test_a_folder_others_may_write_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    monkeypatch.setenv(protocol.DIR_VARIABLE, str(folder))
    assert protocol.server_folder() is None
    folder.chmod(0o700)
    assert protocol.server_folder() == str(folder)


def test_the_socket_depends_on_the_process_level_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CUDA_HOME", raising=False)
    plain = protocol.socket_path(str(tmp_path))
    monkeypatch.setenv("CUDA_HOME", "/opt/other-cuda")
    assert protocol.socket_path(str(tmp_path)) != plain
    monkeypatch.setenv("XDSL_GPU_CACHE_DIR", "/elsewhere")  # read per run: same
    monkeypatch.delenv("CUDA_HOME")
    assert protocol.socket_path(str(tmp_path)) == plain


def test_a_changed_code_file_makes_the_server_stale(tmp_path: Path) -> None:
    source = tmp_path / "module.py"
    source.write_text("x = 1\n")
    watched = {str(source): source.stat().st_mtime_ns}
    assert not _changed(watched)
    os.utime(source, ns=(0, source.stat().st_mtime_ns + 1))
    assert _changed(watched)
    source.unlink()
    assert _changed(watched)


def test_an_idle_server_ends_by_itself(server_dir: str) -> None:
    _opt(server_dir, "--help", XDSL_GPU_SERVER_IDLE="2")
    _wait_for_server(server_dir)
    _opt(server_dir, "--help")  # a run: idle from its end
    deadline = time.monotonic() + 60
    while os.path.exists(protocol.socket_path(server_dir)):
        assert time.monotonic() < deadline, "an idle server did not end"
        time.sleep(0.2)
