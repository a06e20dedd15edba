"""``xdsl-gpu-opt`` loses no run when its compile server ends in the middle of it.

A load test: concurrent clients on distinct programs (to standard output and to
``-o`` files, one from standard input, two with user errors) while the server is
killed with SIGKILL together with its compiles (as the OOM killer, or a logout, may
do), and while it is stopped with ``--stop-server``: every run's exit status,
standard output, standard error and ``-o`` file equal those of the same command run
in a process of its own (``XDSL_GPU_SERVER=0``), and nothing is left behind.
"""

from __future__ import annotations

import contextlib
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
    ``-o`` files (one to ``-o /dev/stdout``), the bundled matmul example, one from standard input, two that
    fail with a user error (a type error, a missing file)."""
    jobs: list[Job] = []
    for i in range(CLIENTS - 4):
        source = programs / f"p{i}.mlir"
        source.write_text(PROGRAM.format(n=32 * (i + 1), k=f"{i + 1}.5"))
        output = f"p{i}.out.mlir" if i % 2 else None
        args = (str(source), "-p", PIPELINE)
        if output:
            args += ("-o", output)
        elif i == 0:
            args += ("-o", "/dev/stdout")  # the client's standard output
        jobs.append(Job(args, output))
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


def _servers(folder: str) -> list[int]:
    """The server processes of ``folder`` (its socket path is in their command
    line): the one serving, and any that are starting or giving up."""
    path = protocol.socket_path(folder).encode()
    found: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                words = file.read().split(b"\0")
        except OSError:
            continue
        if b"xdsl_gpu.driver.compile_server" in words and path in words:
            found.append(int(entry))
    return found


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


def _serving(folder: str) -> int | None:
    """The server that holds the lock of ``folder``'s socket and accepts on it, if
    there is one (not one still warming up beside a killed server's socket file)."""
    path = protocol.socket_path(folder)
    try:
        inode = os.stat(path[: -len(".sock")] + ".lock").st_ino
    except OSError:
        return None
    holder = None
    with open("/proc/locks") as locks:
        for line in locks:
            fields = line.split()
            if "->" not in fields and fields[1] == "FLOCK":
                if fields[5].rsplit(":", 1)[-1] == str(inode):
                    holder = int(fields[4])
    if holder is None:
        return None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(path)  # an empty request: the server drops it
        except OSError:
            return None
    return holder


def _wait_for_server(folder: str) -> int:
    """The server of ``folder``, once it serves."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        server = _serving(folder)
        if server is not None:
            return server
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
        while servers := _servers(folder):
            for pid in servers:
                _kill(pid)
            time.sleep(0.1)
        shutil.rmtree(folder, ignore_errors=True)


def _start_time(pid: int) -> float:
    with open("/proc/stat") as file:
        boot = next(int(line.split()[1]) for line in file if line.startswith("btime"))
    with open(f"/proc/{pid}/stat") as file:
        ticks = int(file.read().rsplit(")", 1)[1].split()[19])
    return boot + ticks / os.sysconf("SC_CLK_TCK")


def _code_changed_since(started: float) -> bool:
    """Whether a file of xdsl-gpu's code changed since a server started: it then
    ends at its next request (stale), which may happen while this test runs in a
    working tree that others edit."""
    started -= 1  # the boot time is in whole seconds
    return any(f.stat().st_mtime > started for f in (ROOT / "xdsl_gpu").rglob("*.py"))


def _round(
    folder: str, jobs: list[Job], cwd: Path, fault: Callable[[int], None]
) -> tuple[list[Outcome], int | None]:
    """Run every job at once against the warm server of ``folder``; once half of
    them are compiling on it, ``fault(server pid)``. The outcomes, and how many
    runs the server had in flight then (None: the server went stale first, its
    code changed, and had no fault)."""
    cwd.mkdir()
    server = _wait_for_server(folder)
    started = _start_time(server)
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
    faulted = _serving(folder) == server
    stale = not faulted and _code_changed_since(started)
    if faulted:
        fault(server)
    for thread in threads:
        thread.join()
    assert all(o is not None for o in outcomes)
    if not faulted:
        log = "".join(p.read_text() for p in Path(folder).glob("*.log"))
        assert stale, f"the server ended by itself; its log:\n{log}"
    return [o for o in outcomes if o is not None], len(in_flight) if faulted else None


def _faulted_round(
    folder: str,
    jobs: list[Job],
    cwd: Path,
    fault: Callable[[int], None],
    alone: list[Outcome],
) -> None:
    """A :func:`_round` with its fault (tried again when the code changed under
    it): no run lost, every outcome that of a process of its own, nothing half
    written or left beside the output files."""
    cwd.mkdir()
    for attempt in range(3):
        outcomes, in_flight = _round(folder, jobs, cwd / str(attempt), fault)
        assert outcomes == alone
        assert not list((cwd / str(attempt)).glob(".*.tmp"))
        if in_flight is not None:
            assert in_flight >= 3  # the fault came mid-round
            return
    pytest.fail("the server's code changed during every round")


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

    _faulted_round(server_dir, jobs, tmp_path / "killed", kill_all, alone)

    # SIGKILL to the server alone: its compiles go on and answer themselves.
    def kill_server(server: int) -> None:
        os.kill(server, signal.SIGKILL)

    _faulted_round(server_dir, jobs, tmp_path / "orphaned", kill_server, alone)

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
        while _is_alive(server):
            assert time.monotonic() < deadline, "the stopped server did not exit"
            time.sleep(0.05)

    _faulted_round(server_dir, jobs, tmp_path / "stopped", stop, alone)


def _held_client(
    folder: str, job: Job, cwd: Path, marker: Path
) -> subprocess.Popen[str]:
    """``xdsl-gpu-opt`` on ``job``, its standard input still to come: its run on
    the server waits for it. ``marker`` will say whether the client process
    imported xDSL (it compiled the command itself)."""
    code = (
        "import sys; from xdsl_gpu.driver.opt import main; "
        "code = main(sys.argv[1:]); "
        f"open({str(marker)!r}, 'w').write(str('xdsl' in sys.modules)); "
        "sys.exit(code)"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code, *job.args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=_env(folder),
    )


def _one_run(server: int) -> int:
    deadline = time.monotonic() + 60
    while not (runs := _children(server)):
        assert time.monotonic() < deadline, "the run did not start"
        time.sleep(0.02)
    assert len(runs) == 1
    return runs[0]


def test_a_killed_run_and_a_terminated_server(server_dir: str, tmp_path: Path) -> None:
    """A run killed alone (the OOM killer picks the largest process) is compiled
    again by its client, from the standard input the run had taken. SIGTERM (a
    logout, a service manager) stops the server as --stop-server does: no new run,
    the socket removed at once (a new client may start a new server), and the runs
    taken end on it."""
    job = Job(("-p", "gpu-kernel-outlining"), stdin=PROGRAM.format(n=64, k="2.5"))
    alone = _run(job, server_dir, tmp_path, XDSL_GPU_SERVER="0")
    assert alone.status == 0
    _run(Job(("--help",)), server_dir, tmp_path)
    server = _wait_for_server(server_dir)
    marker = tmp_path / "imported"

    client = _held_client(server_dir, job, tmp_path, marker)
    try:
        run = _one_run(server)
        time.sleep(0.5)  # most likely it has asked for its input by now
        os.kill(run, signal.SIGKILL)
        stdout, stderr = client.communicate(job.stdin, timeout=120)
    finally:
        client.kill()
    assert marker.read_text() == "True"  # compiled in the client
    assert Outcome(client.returncode, stdout, stderr, None) == alone
    assert _is_alive(server)

    client = _held_client(server_dir, job, tmp_path, marker)
    try:
        _one_run(server)
        os.kill(server, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while os.path.exists(protocol.socket_path(server_dir)):
            assert time.monotonic() < deadline, "the server still accepts runs"
            time.sleep(0.02)
        assert _is_alive(server)  # waiting for its run
        stdout, stderr = client.communicate(job.stdin, timeout=120)
    finally:
        client.kill()
    assert marker.read_text() == "False"  # the server ran it to its end
    assert Outcome(client.returncode, stdout, stderr, None) == alone
    deadline = time.monotonic() + 10
    while _is_alive(server):
        assert time.monotonic() < deadline, "the server did not exit after its run"
        time.sleep(0.05)


def test_a_user_error_is_answered_by_its_run_when_the_server_is_gone(
    server_dir: str, tmp_path: Path
) -> None:
    """A run that ends in a user error answers its client itself, as any run does:
    with its server killed meanwhile, the client does not compile it again."""
    job = Job(("-p", "canonicalize"), stdin=BAD)
    alone = _run(job, server_dir, tmp_path, XDSL_GPU_SERVER="0")
    assert alone.status == 1
    assert "error:" in alone.stderr
    _run(Job(("--help",)), server_dir, tmp_path)
    server = _wait_for_server(server_dir)
    marker = tmp_path / "imported"
    client = _held_client(server_dir, job, tmp_path, marker)
    try:
        _one_run(server)
        time.sleep(0.5)  # most likely it has asked for its input by now
        os.kill(server, signal.SIGKILL)
        stdout, stderr = client.communicate(job.stdin, timeout=120)
    finally:
        client.kill()
    assert marker.read_text() == "False"  # the run on the server answered
    assert Outcome(client.returncode, stdout, stderr, None) == alone


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # ended by itself


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


@pytest.fixture
def fake_path() -> Iterator[str]:
    folder = tempfile.mkdtemp(prefix="xgf", dir="/tmp")
    os.chmod(folder, 0o700)
    try:
        yield os.path.join(folder, "fake.sock")
    finally:
        while servers := _servers(folder):  # a client started one
            for pid in servers:
                _kill(pid)
            time.sleep(0.1)
        shutil.rmtree(folder, ignore_errors=True)


def _served(path: str) -> Served:
    return _run_on_server(path, ["x.mlir"])


def test_the_output_is_written_once_the_answer_came(
    fake_path: str, capfd: pytest.CaptureFixture[str]
) -> None:
    def play(connection: socket.socket, request: dict[str, object], fds: list[int]):
        assert request["argv"] == ["x.mlir"]
        assert len(fds) == 4  # stdin, stdout, stderr, the journal
        protocol.send_line(connection, {"pid": 1})
        os.write(fds[1], b"the output\n")
        os.write(fds[2], b"a warning\n")
        # Not written out yet: the run may still be lost.
        time.sleep(0.2)
        assert capfd.readouterr() == ("", "")
        protocol.send_line(connection, {"exit": 3})

    thread = _fake_server(fake_path, play)
    served = _served(fake_path)
    thread.join()
    assert (served.status, served.taken) == (3, True)
    assert capfd.readouterr() == ("the output\n", "a warning\n")


def test_a_large_output_does_not_stall_the_run(
    fake_path: str, capfd: pytest.CaptureFixture[str]
) -> None:
    """The client empties the pipes while the run goes on (a pipe holds 64 KiB)."""
    text = "".join(f"line {i}\n" for i in range(200_000))

    def play(connection: socket.socket, _: dict[str, object], fds: list[int]):
        protocol.send_line(connection, {"pid": 1})
        os.write(fds[1], text.encode())  # blocks until the client has read it
        protocol.send_line(connection, {"exit": 0})

    thread = _fake_server(fake_path, play)
    served = _served(fake_path)
    thread.join()
    assert served.status == 0
    assert capfd.readouterr().out == text


@pytest.mark.parametrize(
    "answers",
    [
        [{"pid": 1}],  # the server and the run killed
        [{"pid": 1}, {"signal": 9}],  # the run killed (the OOM killer)
    ],
    ids=["connection-closed", "run-killed"],
)
def test_a_run_lost_before_its_answer_is_left_to_the_client(
    answers: list[dict[str, object]],
    fake_path: str,
    capfd: pytest.CaptureFixture[str],
) -> None:
    def play(connection: socket.socket, _: dict[str, object], fds: list[int]):
        # What the lost run had printed never reaches the client's streams.
        os.write(fds[1], b"half an outp")
        os.write(fds[2], b"a warning\n")
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
    data = program.encode()
    assert got == [protocol.STDIN_LENGTH.pack(len(data)) + data]  # its length first
    assert served == alone


def _client(
    folder: str,
    args: tuple[str, ...],
    cwd: Path,
    stdin: int = subprocess.DEVNULL,
    stderr: int = subprocess.PIPE,
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "xdsl_gpu.driver.opt", *args],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=stderr,
        cwd=cwd,
        env=_env(folder),
        preexec_fn=_as_in_a_terminal,
    )


def _as_in_a_terminal() -> None:
    """Ctrl-C reaches the client as it does in a terminal: a suite started in the
    background (``cmd &`` in a script, as CI may) has SIGINT ignored, which its
    children would inherit and never see a Ctrl-C at all."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_ctrl_c_while_the_output_is_written_signals_nothing(
    fake_path: str, tmp_path: Path
) -> None:
    """Ctrl-C while the client writes out a finished run's output (into a full
    pipe) stops the writing: the run has ended (its pid may be another process's
    by now), so nothing is signalled and nothing is written twice."""
    folder = os.path.dirname(fake_path)
    ended = subprocess.Popen(["sleep", "60"])  # stands for the run's process
    text = b"x" * (1 << 20)

    answered = threading.Event()

    def play(connection: socket.socket, _: dict[str, object], fds: list[int]):
        protocol.send_line(connection, {"pid": ended.pid})
        os.write(fds[1], text)
        protocol.send_line(connection, {"exit": 0})  # the run's own answer
        answered.set()
        time.sleep(3)
        with contextlib.suppress(OSError):  # the client may have left
            protocol.send_line(connection, {"exit": 0})  # the server's, once reaped

    thread = _fake_server(protocol.socket_path(folder), play)
    client = _client(folder, ("x.mlir",), tmp_path, stderr=subprocess.DEVNULL)
    try:
        # The client has the run's answer (however long it took to start on a
        # busy machine) and writes into its full stdout pipe.
        assert answered.wait(timeout=120)
        time.sleep(1.0)
        client.send_signal(signal.SIGINT)
        time.sleep(0.5)
        written = client.communicate(timeout=60)[0]
        thread.join()
        assert ended.poll() is None  # not signalled
    finally:
        ended.kill()
        client.kill()
    assert client.returncode == 130
    assert len(written) <= len(text)


def test_a_run_killed_after_a_ctrl_c_leaves_no_temporary(
    fake_path: str, tmp_path: Path
) -> None:
    """A run that Ctrl-C ended by a signal (a second Ctrl-C kills it) has its
    temporary files removed, as a run lost otherwise."""
    folder = os.path.dirname(fake_path)
    # Dies of the SIGINT the client sends.
    run = subprocess.Popen(["sleep", "60"], preexec_fn=_as_in_a_terminal)
    left = tmp_path / ".out.mlir.abc.tmp"

    told = threading.Event()

    def play(connection: socket.socket, _: dict[str, object], fds: list[int]):
        protocol.send_line(connection, {"pid": run.pid})
        left.write_text("half")
        os.write(fds[3], bytes(left) + b"\0")
        told.set()
        status = run.wait(timeout=60)
        protocol.send_line(connection, {"signal": -status})

    thread = _fake_server(protocol.socket_path(folder), play)
    client = _client(folder, ("x.mlir",), tmp_path)
    try:
        assert told.wait(timeout=120)  # however long the client took to start
        time.sleep(1.0)  # the client has read the pid
        client.send_signal(signal.SIGINT)
        client.communicate(timeout=60)
        thread.join()
    finally:
        run.kill()
        client.kill()
    assert client.returncode == 128 + signal.SIGINT
    assert not left.exists()


def test_a_killed_client_takes_its_run_with_it(server_dir: str, tmp_path: Path) -> None:
    """A client killed while its run waits for its standard input, or while the
    run compiles: the run ends without writing its -o file, as a compile in the
    client's own process would have died with it (the run neither compiles the
    input it did not get, nor finishes alone)."""
    _run(Job(("--help",)), server_dir, tmp_path)
    server = _wait_for_server(server_dir)
    slow = tmp_path / "slow.mlir"
    body = "".join(f"  %v{i} = arith.addi %a, %a : i32\n" for i in range(20_000))
    slow.write_text(f"func.func @f(%a: i32) {{\n{body}  return\n}}\n")
    cases = [
        (("-p", "canonicalize", "-o", "in.out.mlir"), signal.SIGKILL),
        ((str(slow), "-p", "canonicalize", "-o", "slow.out.mlir"), signal.SIGTERM),
    ]
    for args, number in cases:
        client = _client(server_dir, args, tmp_path, stdin=subprocess.PIPE)
        try:
            run = _one_run(server)
            time.sleep(0.5)  # it has asked for its input, or it compiles
            client.send_signal(number)
            client.wait(timeout=60)
            deadline = time.monotonic() + 60
            while _is_alive(run):
                assert time.monotonic() < deadline, "the run goes on alone"
                time.sleep(0.05)
        finally:
            client.kill()
            client.communicate()
        assert not (tmp_path / args[-1]).exists()
        assert not list(tmp_path.glob(".*.tmp"))
    assert _is_alive(server)


def test_a_name_of_the_client_s_own_descriptors_is_read_in_the_client(
    server_dir: str, tmp_path: Path
) -> None:
    """``/dev/stdin`` (and ``/dev/fd/N``, ``/proc/self/...``) name descriptors of
    the client, which a run on the server does not have: such a command compiles
    in the client, with the same result as a process of its own."""
    source = tmp_path / "prog.mlir"
    source.write_text(BAD.replace("arith.addf", "arith.addi"))
    _run(Job(("--help",)), server_dir, tmp_path)
    _wait_for_server(server_dir)
    results: list[tuple[int, bytes, bytes]] = []
    for extra in ({"XDSL_GPU_SERVER": "0"}, {}):
        with source.open("rb") as stdin:
            done = subprocess.run(
                [sys.executable, "-m", "xdsl_gpu.driver.opt", "/dev/stdin"],
                stdin=stdin,
                capture_output=True,
                cwd=tmp_path,
                env=_env(server_dir, **extra),
                timeout=120,
            )
        results.append((done.returncode, done.stdout, done.stderr))
    assert b"arith.addi" in results[0][1]
    assert results[1] == results[0]


def test_a_run_interrupted_before_it_started_ends_in_its_child(
    tmp_path: Path,
) -> None:
    """A Ctrl-C that reaches a forked run before its compile is under way ends the
    run (status 130) in its own process: it never returns into the server's loop
    (which printed the server's traceback to the client)."""
    folder = tempfile.mkdtemp(prefix="xgi", dir="/tmp")
    os.chmod(folder, 0o700)
    path = protocol.socket_path(folder)
    code = (
        "import sys\n"
        "from xdsl_gpu.driver import compile_server as server\n"
        "server._warm_up = lambda: None\n"
        "def interrupted(journal): raise KeyboardInterrupt\n"
        "server._note_temporaries = interrupted\n"
        f"sys.exit(server.serve({path!r}))\n"
    )
    server = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while not os.path.exists(path):
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        source = tmp_path / "prog.mlir"
        source.write_text("func.func @f() {\n  return\n}\n")
        done = _run(Job((str(source),)), folder, tmp_path)
        assert (done.status, done.stdout, done.stderr) == (130, "", "")
        time.sleep(0.2)
        assert server.poll() is None
        assert os.path.exists(path)
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)
