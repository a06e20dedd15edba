"""The compile server behind ``xdsl-gpu-opt``: a warmed-up process that forks.

Started by a client (:mod:`xdsl_gpu.driver.opt`) as ``python -m
xdsl_gpu.driver.compile_server SOCKET``, it imports xDSL and xdsl-gpu, compiles a
small GPU program once through ``gpu-lower-to-nvvm-pipeline`` (so that every lazily
built table, parser and LLVM target is ready), freezes that state and listens.

For each request it forks: the child takes the client's working directory,
environment, umask and command line, runs ``xdsl-opt --xdsl-gpu`` on them and exits;
it prints into pipes the client reads, reads standard input from the client when it
needs it, and tells the client how it ended (so does the server, which also tells
of a child killed by a signal). The server itself never runs a command, so every
run starts from the same warmed-up state and runs may overlap.

It exits when it has been idle for ``XDSL_GPU_SERVER_IDLE`` seconds, on
``--stop-server`` or SIGTERM, or at the first request after a file of its own code
(xDSL's or xdsl-gpu's) changed on disk, answering that one ``stale`` so that its
client compiles in its own process and starts a fresh server. Stopping lets the runs
it has taken end first: it removes its socket and releases its lock at once (a new
client starts a new server), then waits for them. A child outlives a server killed
outright and still answers its client; a client whose run is lost compiles the
command itself (:mod:`xdsl_gpu.driver.opt`).
"""

from __future__ import annotations

import fcntl
import gc
import io
import json
import os
import select
import selectors
import signal
import socket
import sys
import time
from dataclasses import dataclass
from typing import Any

from xdsl_gpu.driver import server_protocol as protocol

__all__ = ["serve"]

WARM_UP_PROGRAM = """\
module attributes {gpu.container_module} {
  func.func @main(%a: memref<128xf32>, %b: memref<?x?xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
      %v0 = memref.load %a[%tx] : memref<128xf32>
      %v1 = arith.mulf %v0, %v0 : f32
      %v2 = math.sqrt %v1 : f32
      %n = memref.dim %b, %c1 : memref<?x?xf16>
      %s = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %v2) -> (f32) {
        %h = memref.load %b[%tx, %i] : memref<?x?xf16>
        %f = arith.extf %h : f16 to f32
        %r = arith.addf %acc, %f : f32
        scf.yield %r : f32
      }
      memref.store %s, %a[%tx] : memref<128xf32>
      gpu.terminator
    }
    return
  }
}
"""
"""Enough of a GPU program to build every table the pipeline uses on the way to
PTX: host and kernel code, memref descriptors, scf, math, the NVPTX back end."""

WARM_UP_PIPELINE = (
    "gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 "
    "cubin-format=isa}"
)


XDSL_DIALECTS_USED = ("builtin", "func", "scf", "cf", "affine", "tensor")
"""The dialects of xDSL's (not replaced by ours) that GPU programs use."""


@dataclass
class _Run:
    connection: socket.socket
    pid: int
    pidfd: int


def serve(path: str) -> int:
    """Serve at ``path`` until idle, stopped or stale; 0, or 1 when another server
    holds the path's lock (it serves instead)."""
    lock = open(path[: -len(".sock")] + ".lock", "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 1
    _warm_up()
    # What the warm-up built lives as long as the server: no run's collection
    # needs to look at it (and the children share its pages untouched).
    gc.collect()
    gc.freeze()
    watched = _code_files()
    fingerprint = _code_fingerprint(watched)
    if os.path.exists(path):
        os.unlink(path)  # a server that died without cleaning up
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    return _Server(path, lock, listener, watched, fingerprint).serve()


class _Server:
    """The accept-and-fork loop. Stopping (``--stop-server``, SIGTERM, a stale
    request) first stops accepting: the socket is removed and the lock released,
    so that a fresh server may start at once; the runs taken go on, and the server
    exits when the last has ended."""

    def __init__(
        self,
        path: str,
        lock: io.TextIOWrapper,
        listener: socket.socket,
        watched: dict[str, int],
        fingerprint: str,
    ) -> None:
        self.path = path
        self.lock = lock
        self.listener = listener
        self.inode = os.stat(path).st_ino
        self.watched = watched
        self.fingerprint = fingerprint
        self.runs: dict[int, _Run] = {}  # by pidfd
        # The connections of the runs, watched for hang-ups only (their data is
        # the runs' own): a client that is killed has its run interrupted.
        self.hangups = select.epoll()
        self.clients: dict[int, _Run] = {}  # by connection descriptor
        self.stoppers: list[socket.socket] = []  # --stop-server, told at the end
        self.accepting = True
        self.selector = selectors.DefaultSelector()
        # SIGTERM stops as --stop-server does: its handler only wakes the loop.
        self.wake_read, self.wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        signal.set_wakeup_fd(self.wake_write)
        signal.signal(signal.SIGTERM, lambda *_: None)

    def serve(self) -> int:
        selector = self.selector
        selector.register(self.listener, selectors.EVENT_READ)
        selector.register(self.wake_read, selectors.EVENT_READ)
        selector.register(self.hangups.fileno(), selectors.EVENT_READ)
        idle_since = time.monotonic()
        try:
            while self.accepting or self.runs:
                timeout = None
                if self.accepting and not self.runs:
                    timeout = protocol.idle_seconds() - (time.monotonic() - idle_since)
                    if timeout <= 0:
                        break
                events = selector.select(timeout)
                for key, _ in events:
                    if key.fileobj is self.listener:
                        self._accept()
                    elif key.fileobj == self.wake_read:
                        woken = os.read(self.wake_read, 512)
                        if signal.SIGTERM in woken:
                            self._stop_accepting()
                    elif key.fileobj == self.hangups.fileno():
                        self._interrupt_abandoned()
                    else:
                        self._finish(self.runs.pop(key.fd))
                if events and not self.runs:  # busy until now: idle from here
                    idle_since = time.monotonic()
        finally:
            self._stop_accepting()
            for connection in self.stoppers:
                try:
                    protocol.send_line(connection, {"stopped": True})
                except OSError:
                    pass
                connection.close()
            selector.close()
            self.hangups.close()
        return 0

    def _stop_accepting(self) -> None:
        """Take no more requests; a new client finds no server and starts one."""
        if not self.accepting:
            return
        self.accepting = False
        self.selector.unregister(self.listener)
        self.listener.close()
        try:
            if os.stat(self.path).st_ino == self.inode:
                os.unlink(self.path)
        except OSError:
            pass
        self.lock.close()

    def _accept(self) -> None:
        connection, _ = self.listener.accept()
        try:
            received = protocol.read_request(connection)
        except OSError:
            received = None
        if received is None:
            connection.close()
            return
        request, fds = received
        # A run's request carries the client's stdin (for an older server's sake
        # only), the pipes it reads the run's stdout and stderr from, its journal.
        stop = bool(request.get("stop"))
        if stop or len(fds) != 4 or _changed(self.watched):
            for fd in fds:
                os.close(fd)
            if stop:
                self.stoppers.append(connection)  # answered once the runs ended
                self._stop_accepting()
            elif len(fds) != 4:
                connection.close()  # not a request of this version's
            else:
                try:
                    protocol.send_line(connection, {"stale": True})
                except OSError:
                    pass
                connection.close()
                self._stop_accepting()
            return
        os.close(fds[0])
        pid = os.fork()
        if pid == 0:
            # Whatever happens (a Ctrl-C forwarded before the run is under way), the
            # child never returns into the server's loop.
            code = 1
            try:
                self._leave_to_run()
                code = _run_request(request, connection, fds[1:], self.fingerprint)
            except KeyboardInterrupt:
                code = 130
            finally:
                os._exit(code)
        for fd in fds[1:]:
            os.close(fd)
        pidfd = os.pidfd_open(pid)
        run = _Run(connection, pid, pidfd)
        self.runs[pidfd] = run
        self.selector.register(pidfd, selectors.EVENT_READ)
        self.clients[connection.fileno()] = run
        self.hangups.register(connection.fileno(), 0)  # EPOLLHUP is always told

    def _leave_to_run(self) -> None:
        """In a forked child: keep nothing of the server's (a lock or a client
        connection it held would outlive the server or keep another client
        waiting)."""
        signal.set_wakeup_fd(-1)
        os.close(self.wake_read)
        os.close(self.wake_write)
        for other in self.runs.values():
            other.connection.close()
            os.close(other.pidfd)
        for stopper in self.stoppers:
            stopper.close()
        self.selector.close()
        self.hangups.close()
        self.listener.close()
        self.lock.close()

    def _interrupt_abandoned(self) -> None:
        """Interrupt the runs whose client has closed its connection (killed: a
        shutdown of its sending side after standard input is no hang-up), as a
        compile in the client's own process would have died with it; a run that
        has answered already ignores it."""
        for fd, _ in self.hangups.poll(0):
            self.hangups.unregister(fd)
            run = self.clients.pop(fd, None)
            if run is not None:
                try:
                    signal.pidfd_send_signal(run.pidfd, signal.SIGINT)
                except OSError:
                    pass  # it has ended

    def _finish(self, run: _Run) -> None:
        """Tell the client how its run ended (the run has told it itself unless it
        was killed)."""
        self.selector.unregister(run.pidfd)
        os.close(run.pidfd)
        if self.clients.pop(run.connection.fileno(), None) is not None:
            self.hangups.unregister(run.connection.fileno())
        _, status = os.waitpid(run.pid, 0)
        try:
            if os.WIFSIGNALED(status):
                protocol.send_line(run.connection, {"signal": os.WTERMSIG(status)})
            else:
                code = os.waitstatus_to_exitcode(status)
                protocol.send_line(run.connection, {"exit": code})
        except OSError:
            pass  # the client has its answer and has left
        run.connection.close()


class _ClientInput(io.RawIOBase):
    """The run's standard input: asked of the client at the first read, then read
    from the connection, as many bytes as the client said it sends (the client
    keeps a copy, to compile on its own should this run be lost). A connection that
    ends before them is a client that was killed: the run ends, as the client's own
    compile would have, rather than compile a part of its input."""

    def __init__(self, control: socket.socket) -> None:
        super().__init__()
        self._control = control
        self._left: int | None = None  # bytes still to come; None: not asked yet

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            left = self._left
            if left is None:
                protocol.send_line(self._control, {"stdin": True})
                head = self._receive(protocol.STDIN_LENGTH.size)
                (left,) = protocol.STDIN_LENGTH.unpack(head)
            if left == 0:
                self._left = 0
                return 0
            if count := self._control.recv_into(memoryview(buffer)[:left]):
                self._left = left - count
                return count
        except OSError:
            pass
        os._exit(1)  # the client is gone: nobody is waiting for this run

    def _receive(self, size: int) -> bytes:
        data = b""
        while len(data) < size:
            chunk = self._control.recv(size - len(data))
            if not chunk:
                os._exit(1)  # the client is gone before it sent its input
            data += chunk
        return data


def _note_temporaries(journal: int) -> None:
    """Write the name of every temporary file the run makes (``-o`` writes one
    beside its target, renamed over it at the end) into the client's journal: if
    the run dies, the client removes those still there."""
    import tempfile

    make = tempfile.mkstemp

    def noting(*args: Any, **kwargs: Any) -> Any:
        fd, name = make(*args, **kwargs)
        try:
            os.write(journal, os.path.abspath(os.fsencode(name)) + b"\0")
        except OSError:
            pass
        return fd, name

    tempfile.mkstemp = noting


def _run_request(
    request: dict[str, object],
    control: socket.socket,
    fds: list[int],
    fingerprint: str,
) -> int:
    """In the forked child: become the client's compiler process and run. ``fds``:
    the pipes of its standard output and error (the client keeps what comes through
    them and writes it out once the run has ended: a run that dies half-way has
    printed nothing), the client's journal."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    # A worker process the run forks must not hold the connection: the client
    # learns that a run is lost when the connection closes.
    os.register_at_fork(after_in_child=control.close)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    out, err, journal = fds
    os.dup2(out, 1)
    os.dup2(err, 2)
    for fd in {out, err}:
        os.close(fd)
    sys.stdin = io.TextIOWrapper(io.BufferedReader(_ClientInput(control)))
    sys.stdout = io.TextIOWrapper(
        io.FileIO(1, "w", closefd=False), line_buffering=bool(request.get("tty"))
    )
    sys.stderr = io.TextIOWrapper(
        io.FileIO(2, "w", closefd=False),
        errors="backslashreplace",
        line_buffering=True,
    )
    try:
        protocol.send_line(control, {"pid": os.getpid()})
    except OSError:
        pass  # the client has left; the run still ends on its own
    _note_temporaries(journal)
    try:
        env = request.get("env")
        if isinstance(env, dict):
            os.environ.clear()
            os.environ.update({str(k): str(v) for k, v in env.items()})
        umask = request.get("umask")
        if isinstance(umask, int):
            os.umask(umask)
        os.chdir(str(request.get("cwd", ".")))
        argv = request.get("argv")
        args = [str(a) for a in argv] if isinstance(argv, list) else []
        from xdsl_gpu.driver.run_cache import run_with_cache

        code = run_with_cache(args, fingerprint)
    except KeyboardInterrupt:
        code = 130
    except BaseException as error:  # report it as this process would, then end
        import traceback

        traceback.print_exception(error)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    # The run is over: a Ctrl-C or a hang-up from here on has nothing to stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        protocol.send_line(control, {"exit": code})
    except OSError:
        pass
    return code


def _warm_up() -> None:
    """Compile :data:`WARM_UP_PROGRAM` once, in this process, into nothing, without
    the compile cache or worker processes (a child of a later run starts its own)."""
    import tempfile

    from xdsl_gpu.driver.opt import run_in_this_process

    saved = dict(os.environ)
    os.environ["XDSL_GPU_CACHE"] = "0"
    os.environ["XDSL_GPU_JOBS"] = "1"
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "warm_up.mlir")
        with open(source, "w") as file:
            file.write(WARM_UP_PROGRAM)
        code = run_in_this_process(
            [source, "-p", WARM_UP_PIPELINE, "-o", os.path.join(folder, "out.mlir")]
        )
    os.environ.clear()
    os.environ.update(saved)
    if code != 0:
        print(f"compile server: the warm-up compile failed ({code})", file=sys.stderr)
    _parse_every_format()
    # Serialization runs in forked children, so the warm-up did not load LLVM's
    # NVPTX back end or nvJitLink here; the runs' children inherit them loaded.
    from xdsl_gpu.targets.nvvm.serializer import (
        _initialize_llvm,  # pyright: ignore[reportPrivateUsage]
        assembler_cuda_version,
    )

    _initialize_llvm()
    assembler_cuda_version()
    # Every pass class: a pipeline imports some only when a program needs them.
    from xdsl_gpu.passes import get_all_passes

    for load_pass in get_all_passes().values():
        load_pass()


def _parse_every_format() -> None:
    """Parse the assembly format of every op a program may use: each is parsed at
    its first use, which would otherwise be once per run (~40 ms of a seed-002
    compile)."""
    from xdsl.dialects import get_all_dialects

    from xdsl_gpu import compat
    from xdsl_gpu.gpu_dialect.registration import NEW_DIALECTS, REPLACED_DIALECTS

    shared = {n: f for n, f in get_all_dialects().items() if n in XDSL_DIALECTS_USED}
    factories = {**shared, **REPLACED_DIALECTS, **NEW_DIALECTS}
    for name, factory in factories.items():
        try:
            compat.parse_lazy_formats(factory().operations)
        except Exception as error:  # a dialect of xDSL's we never load
            print(f"compile server: dialect {name}: {error}", file=sys.stderr)


def _code_files() -> dict[str, int]:
    """The modification times of every loaded file of xDSL's and ours."""
    roots = []
    for name in ("xdsl", "xdsl_gpu"):
        module = sys.modules.get(name)
        if module is not None and module.__file__:
            roots.append(os.path.dirname(module.__file__))
    files: dict[str, int] = {}
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if file and any(file.startswith(root) for root in roots):
            try:
                files[file] = os.stat(file).st_mtime_ns
            except OSError:
                pass
    return files


def _code_fingerprint(watched: dict[str, int]) -> str:
    """What the run cache keys on besides a run's own inputs: this server's code
    (it serves only while that is unchanged) and the compile toolchain."""
    import hashlib

    from xdsl_gpu.targets.nvvm.cache_key import toolchain_fingerprint

    text = json.dumps(sorted(watched.items())) + toolchain_fingerprint()
    return hashlib.sha256(text.encode()).hexdigest()


def _changed(watched: dict[str, int]) -> bool:
    for file, mtime in watched.items():
        try:
            if os.stat(file).st_mtime_ns != mtime:
                return True
        except OSError:
            return True
    return False


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: python -m xdsl_gpu.driver.compile_server SOCKET", file=sys.stderr)
        sys.exit(2)
    sys.exit(serve(sys.argv[1]))
