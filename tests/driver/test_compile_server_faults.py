"""``xdsl-gpu-opt`` loses no run when its compile server ends in the middle of it.

A load test: concurrent clients on distinct programs (to standard output and to
``-o`` files, one from standard input, two with user errors) while the server is
killed with SIGKILL together with its compiles (as the OOM killer, or a logout, may
do), and while it is stopped with ``--stop-server``: every run's exit status,
standard output, standard error and ``-o`` file equal those of the same command run
in a process of its own (``XDSL_GPU_SERVER=0``), and nothing is left behind.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from xdsl_gpu.driver import server_protocol as protocol
from xdsl_gpu.driver.opt import (
    Served,
    _run_on_server,  # pyright: ignore[reportPrivateUsage]
)

ROOT = Path(__file__).resolve().parents[2]
PIPELINE = (
    "gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 "
    "cubin-format=isa}"
)
CLIENTS = 10

PROGRAM = """\
module attributes {{gpu.container_module}} {{
  func.func @main(%a: memref<{n}xf32>) {{
    %c1 = arith.constant 1 : index
    %cn = arith.constant {n} : index
    %k = arith.constant {k} : f32
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%u = %cn, %v = %c1, %w = %c1) {{
      %v0 = memref.load %a[%tx] : memref<{n}xf32>
      %v1 = arith.mulf %v0, %k : f32
      %v2 = math.sqrt %v1 : f32
      memref.store %v2, %a[%tx] : memref<{n}xf32>
      gpu.terminator
    }}
    return
  }}
}}
"""

BAD = """func.func @f() {
  %0 = arith.constant 1 : i32
  %1 = arith.addf %0, %0 : i32
  return
}
"""


@dataclass(frozen=True)
class Job:
    args: tuple[str, ...]
    output: str | None = None  # the -o file, relative to the run's directory
    stdin: str | None = None


@dataclass(frozen=True)
class Outcome:
    status: int
    stdout: str
    stderr: str
    output: str | None


def _jobs(programs: Path) -> list[Job]:
    """CLIENTS distinct runs: GPU programs with other constants, half of them to
    ``-o`` files, the bundled matmul example, one from standard input, two that
    fail with a user error (a type error, a missing file)."""
    jobs: list[Job] = []
    for i in range(CLIENTS - 4):
        source = programs / f"p{i}.mlir"
        source.write_text(PROGRAM.format(n=32 * (i + 1), k=f"{i + 1}.5"))
        output = f"p{i}.out.mlir" if i % 2 else None
        args = (str(source), "-p", PIPELINE)
        jobs.append(Job(args + (("-o", output) if output else ()), output))
    matmul = ROOT / "examples" / "async_matmul" / "matmul.mlir"
    jobs.append(Job((str(matmul), "-p", PIPELINE, "-o", "mm.mlir"), "mm.mlir"))
    piped = PROGRAM.format(n=96, k="7.25")
    jobs.append(Job(("-p", PIPELINE), stdin=piped))
    bad = programs / "bad.mlir"
    bad.write_text(BAD)
    jobs.append(Job((str(bad), "-p", PIPELINE)))
    jobs.append(Job((str(programs / "missing.mlir"), "-p", PIPELINE)))
    return jobs


def _env(folder: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop(protocol.DISABLE_VARIABLE, None)
    env[protocol.DIR_VARIABLE] = folder
    env[protocol.IDLE_VARIABLE] = "120"
    env["XDSL_GPU_CACHE"] = "0"  # compile every time: no replayed run
    env.update(extra)
    return env


def _without_times(text: str) -> str:
    """The one part of a compile's output that differs between two runs."""
    return re.sub(r"TimeInMs = \d+", "TimeInMs = N", text)


def _run(job: Job, folder: str, cwd: Path, **extra: str) -> Outcome:
    done = subprocess.run(
        [sys.executable, "-m", "xdsl_gpu.driver.opt", *job.args],
        input=job.stdin,
        stdin=None if job.stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=_env(folder, **extra),
        timeout=240,
    )
    output = None
    if job.output is not None and (cwd / job.output).exists():
        output = _without_times((cwd / job.output).read_text())
    return Outcome(done.returncode, _without_times(done.stdout), done.stderr, output)


def _server_pid(folder: str) -> int | None:
    """The server of ``folder`` (its socket path is in its command line)."""
    path = protocol.socket_path(folder).encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                words = file.read().split(b"\0")
        except OSError:
            continue
        if b"xdsl_gpu.driver.compile_server" in words and path in words:
            return int(entry)
    return None


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as file:
                fields = file.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[1] == str(pid) and fields[0] != "Z":
            found.append(int(entry))
    return found


def _wait_for_server(folder: str) -> int:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        pid = _server_pid(folder)
        if pid is not None and os.path.exists(protocol.socket_path(folder)):
            return pid
        time.sleep(0.1)
    log = "".join(p.read_text() for p in Path(folder).glob("*.log"))
    raise AssertionError(f"no server came up; its log:\n{log}")


@pytest.fixture
def server_dir() -> Iterator[str]:
    """A private server folder (short: a socket path has at most 107 bytes); no
    server of it outlives the test."""
    folder = tempfile.mkdtemp(prefix="xgk", dir="/tmp")
    os.chmod(folder, 0o700)
    try:
        yield folder
    finally:
        subprocess.run(
            [sys.executable, "-m", "xdsl_gpu.driver.opt", "--stop-server"],
            env=_env(folder),
            capture_output=True,
            timeout=120,
        )
        while (pid := _server_pid(folder)) is not None:
            os.kill(pid, signal.SIGKILL)
            time.sleep(0.1)
        shutil.rmtree(folder, ignore_errors=True)


def _round(
    folder: str, jobs: list[Job], cwd: Path, fault: Callable[[int], None]
) -> tuple[list[Outcome], int]:
    """Run every job at once against the warm server of ``folder``; once half of
    them are compiling on it, ``fault(server pid)``. The outcomes, and how many
    runs the server had in flight then."""
    cwd.mkdir()
    server = _wait_for_server(folder)
    outcomes: list[Outcome | None] = [None] * len(jobs)

    def client(i: int) -> None:
        outcomes[i] = _run(jobs[i], folder, cwd)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    in_flight: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(in_flight) < len(jobs) // 2:
        in_flight = _children(server)
        time.sleep(0.01)
    fault(server)
    for thread in threads:
        thread.join()
    assert all(o is not None for o in outcomes)
    return [o for o in outcomes if o is not None], len(in_flight)


def test_no_run_is_lost_when_the_server_ends_mid_compile(
    server_dir: str, tmp_path: Path
) -> None:
    programs = tmp_path / "programs"
    programs.mkdir()
    jobs = _jobs(programs)

    # What each run gives in a process of its own.
    alone_dir = tmp_path / "alone"
    alone_dir.mkdir()
    with ThreadPoolExecutor(2) as pool:
        alone = list(
            pool.map(
                lambda job: _run(job, server_dir, alone_dir, XDSL_GPU_SERVER="0"),
                jobs,
            )
        )
    assert [o.status for o in alone].count(0) == CLIENTS - 2
    assert all("Traceback" not in o.stderr for o in alone)
    assert not list(Path(server_dir).glob("*.sock"))

    _run(Job(("--help",)), server_dir, tmp_path)  # starts the server

    # SIGKILL to the server and every compile it forked, half-way.
    def kill_all(server: int) -> None:
        os.killpg(os.getpgid(server), signal.SIGKILL)

    killed, in_flight = _round(server_dir, jobs, tmp_path / "killed", kill_all)
    assert in_flight >= len(jobs) // 2
    assert killed == alone

    # --stop-server half-way: the runs taken end on the server, later ones start a
    # server again (or compile in their own process while it warms up).
    def stop(server: int) -> None:
        stopped = subprocess.run(
            [sys.executable, "-m", "xdsl_gpu.driver.opt", "--stop-server"],
            env=_env(server_dir),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert "stopped" in stopped.stderr
        # It answers once the runs it had taken have ended, and exits.
        assert not _children(server)
        deadline = time.monotonic() + 10
        while os.path.exists(f"/proc/{server}") and _is_alive(server):
            assert time.monotonic() < deadline, "the stopped server did not exit"
            time.sleep(0.05)

    _wait_for_server(server_dir)
    stopped, in_flight = _round(server_dir, jobs, tmp_path / "stopped", stop)
    assert in_flight >= len(jobs) // 2
    assert stopped == alone

    # Nothing half-written or left behind beside the -o files.
    for folder in ("killed", "stopped"):
        assert not list((tmp_path / folder).glob(".*.tmp"))


def _is_alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# The client's side, against a fake server that plays a run's messages.


def _fake_server(
    path: str, play: Callable[[socket.socket, dict[str, object], list[int]], None]
) -> threading.Thread:
    """A server that takes one request and lets ``play`` answer it (with the
    request and its descriptors), then closes the connection."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)

    def serve() -> None:
        connection, _ = listener.accept()
        received = protocol.read_request(connection)
        assert received is not None
        request, fds = received
        try:
            play(connection, request, fds)
        finally:
            for fd in fds:
                os.close(fd)
            connection.close()
            listener.close()

    thread = threading.Thread(target=serve)
    thread.start()
    return thread


def _anonymous(text: str) -> int:
    fd = os.memfd_create("test output")
    os.write(fd, text.encode())
    return fd


@pytest.fixture
def fake_path() -> Iterator[str]:
    folder = tempfile.mkdtemp(prefix="xgf", dir="/tmp")
    os.chmod(folder, 0o700)
    try:
        yield os.path.join(folder, "fake.sock")
    finally:
        while (pid := _server_pid(folder)) is not None:  # a client started one
            os.kill(pid, signal.SIGKILL)
            time.sleep(0.1)
        shutil.rmtree(folder, ignore_errors=True)


def _served(path: str) -> Served:
    return _run_on_server(path, ["x.mlir"])


def test_the_output_is_written_once_the_answer_came(
    fake_path: str, capfd: pytest.CaptureFixture[str]
) -> None:
    def play(connection: socket.socket, request: dict[str, object], _: list[int]):
        assert request["argv"] == ["x.mlir"]
        assert request["merged"] is False  # pytest's two capture files
        protocol.send_line(connection, {"pid": 1})
        outputs = [_anonymous("the output\n"), _anonymous("a warning\n")]
        protocol.send_line(connection, {"exit": 3}, outputs)
        for fd in outputs:
            os.close(fd)

    thread = _fake_server(fake_path, play)
    served = _served(fake_path)
    thread.join()
    assert (served.status, served.taken) == (3, True)
    assert capfd.readouterr() == ("the output\n", "a warning\n")


@pytest.mark.parametrize(
    "answers",
    [
        [{"pid": 1}],  # the server and the run killed
        [{"pid": 1}, {"signal": 9}],  # the run killed (the OOM killer)
        [{"pid": 1}, {"exit": 0}],  # an answer without the run's output
    ],
    ids=["connection-closed", "run-killed", "no-output"],
)
def test_a_run_lost_before_its_answer_is_left_to_the_client(
    answers: list[dict[str, object]],
    fake_path: str,
    capfd: pytest.CaptureFixture[str],
) -> None:
    def play(connection: socket.socket, _: dict[str, object], fds: list[int]):
        # What the lost run had printed never reaches the client's streams.
        _anonymous("half an outp")
        for answer in answers:
            protocol.send_line(connection, answer)

    thread = _fake_server(fake_path, play)
    served = _served(fake_path)
    thread.join()
    assert (served.status, served.taken, served.stdin) == (None, True, None)
    assert capfd.readouterr() == ("", "")


def test_no_server_or_a_stale_one_leaves_the_run_to_the_client(
    fake_path: str,
) -> None:
    def play(connection: socket.socket, _: dict[str, object], fds: list[int]):
        protocol.send_line(connection, {"stale": True})

    thread = _fake_server(fake_path, play)
    served = _served(fake_path)
    thread.join()
    assert (served.status, served.taken) == (None, False)  # a server to start
    served = _served(fake_path)  # nobody listens now
    assert (served.status, served.taken) == (None, False)


def test_the_temporary_files_of_a_lost_run_are_removed(
    fake_path: str, tmp_path: Path
) -> None:
    left = tmp_path / ".out.mlir.abc.tmp"
    renamed = tmp_path / ".out.mlir.def.tmp"  # renamed into place: gone already
    mine = tmp_path / "out.mlir"

    def play(connection: socket.socket, _: dict[str, object], fds: list[int]):
        assert len(fds) == 4  # stdin, stdout, stderr, the journal
        protocol.send_line(connection, {"pid": 1})
        left.write_text("half")
        mine.write_text("a whole output, renamed into place")
        os.write(fds[3], bytes(left) + b"\0" + bytes(renamed) + b"\0")

    thread = _fake_server(fake_path, play)
    served = _served(fake_path)
    thread.join()
    assert served.status is None
    assert not left.exists()
    assert mine.exists()  # only what the journal names


def test_a_run_that_read_stdin_and_was_lost_reads_it_again(
    fake_path: str, tmp_path: Path
) -> None:
    """The client hands its standard input to the run when asked, keeps it, and
    compiles from it in its own process when the run is lost: the same result as a
    process of its own."""
    folder = os.path.dirname(fake_path)
    got: list[bytes] = []

    def play(connection: socket.socket, _: dict[str, object], fds: list[int]):
        protocol.send_line(connection, {"pid": 1})
        protocol.send_line(connection, {"stdin": True})
        data = b""
        while chunk := connection.recv(4096):
            data += chunk
        got.append(data)  # and the run dies

    program = PROGRAM.format(n=64, k="3.5")
    job = Job(("-p", "gpu-kernel-outlining,canonicalize"), stdin=program)
    alone = _run(job, folder, tmp_path, XDSL_GPU_SERVER="0")
    assert alone.status == 0
    assert "gpu.module" in alone.stdout

    thread = _fake_server(protocol.socket_path(folder), play)
    served = _run(job, folder, tmp_path)
    thread.join()
    assert got == [program.encode()]
    assert served == alone
