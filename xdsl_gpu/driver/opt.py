"""``xdsl-gpu-opt``: ``xdsl-opt --xdsl-gpu``, served by a resident compile server.

A Python compiler pays for its interpreter's start, xDSL's import and the loading of
every dialect on each run: about 0.45 s of a 0.6 s seed-002 compile, where the
pipeline itself takes 0.16 s. ``xdsl-gpu-opt`` pays it once: the first run starts a
server in the background (and compiles as ``xdsl-opt --xdsl-gpu`` would, in its own
process); later runs hand their command line, working directory, environment and
standard streams to that server, which forks a warmed-up copy of itself to run the
command (:mod:`xdsl_gpu.driver.compile_server`). Every run starts from the same
state, so the output is the same as a run in a process of its own, and two runs at
a time run at the same time.

This module runs in the client before anything else: it imports nothing of xDSL.

* ``XDSL_GPU_SERVER=0``: no server, every run in its own process.
* ``XDSL_GPU_SERVER_DIR``, ``XDSL_GPU_SERVER_IDLE``: where the socket lives, and how
  long an idle server stays (:mod:`xdsl_gpu.driver.server_protocol`).
* ``xdsl-gpu-opt --stop-server``: ends this installation's server now.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
from collections.abc import Callable, Sequence
from typing import Any

from xdsl_gpu.driver import server_protocol as protocol

__all__ = ["main", "run_in_this_process"]

STOP_FLAG = "--stop-server"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == [STOP_FLAG]:
        return _stop_server()
    if protocol.server_enabled() and _descriptors_open():
        folder = protocol.server_folder()
        if folder is not None:
            path = protocol.socket_path(folder)
            served = _run_on_server(path, args)
            if served.status is not None:
                return served.status
            if not served.taken:
                _start_server(folder, path)
            # No server, or the run was lost with it: compile here, from the same
            # standard input.
            return run_in_this_process(args, stdin=served.stdin)
    return run_in_this_process(args)


def run_in_this_process(
    args: Sequence[str],
    on_main: Callable[[Any], None] | None = None,
    stdin: bytes | None = None,
) -> int:
    """Run ``xdsl-opt --xdsl-gpu args`` here; its exit status. ``on_main`` sees the
    tool once it has read its arguments, before it reads the input; ``stdin``, when
    given, is read instead of this process's standard input."""
    import warnings

    from xdsl.xdsl_opt_main import xDSLOptMain

    saved = sys.argv, sys.stdin
    sys.argv = ["xdsl-gpu-opt", "--xdsl-gpu", *args]
    if stdin is not None:
        import io

        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        warnings.filterwarnings("default", category=DeprecationWarning)  # as xdsl-opt
        main = xDSLOptMain()
        if on_main is not None:
            on_main(main)
        main.run()
    except SystemExit as done:
        return _status(done.code)
    except Exception as error:
        # As xdsl-opt's own process reports it: a user error as a diagnostic
        # (exit status 1), anything else with its traceback.
        from xdsl_gpu.diagnostics import excepthook

        excepthook(type(error), error, error.__traceback__)
        return 1
    finally:
        sys.argv, sys.stdin = saved
    return 0


def _status(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _descriptors_open() -> bool:
    """The server writes into this process's standard streams: all three must be
    open to be handed over."""
    try:
        for fd in (0, 1, 2):
            os.fstat(fd)
    except OSError:
        return False
    return True


def _connect(path: str) -> socket.socket | None:
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(path)
    except OSError:
        connection.close()
        return None
    return connection


class Served:
    """How a run on the server went."""

    def __init__(
        self, status: int | None = None, taken: bool = False, stdin: bytes | None = None
    ) -> None:
        self.status = status
        """The run's exit status, its output written; None when the client must
        run the command itself (nothing of it was written)."""
        self.taken = taken
        """Whether a server took the run (then it is up, or it was lost with the
        run: the client starts none)."""
        self.stdin = stdin
        """The standard input the client read for the run (a run of its own reads
        that)."""


def _run_on_server(path: str, args: list[str]) -> Served:
    """Run the command on the server at ``path``."""
    connection = _connect(path)
    if connection is None:
        return Served()
    journal = _journal()
    try:
        with connection:
            umask = os.umask(0)
            os.umask(umask)
            try:
                cwd = os.getcwd()
            except OSError:  # a deleted directory: let the run say what it makes of it
                return Served()
            merged = _same_file(1, 2)
            request = {
                "argv": args,
                "cwd": cwd,
                "env": dict(os.environ),
                "umask": umask,
                "merged": merged,
                "tty": os.isatty(1),
            }
            try:
                protocol.send_request(connection, request, (0, 1, 2, *journal))
            except OSError:
                return Served()
            served = _follow_run(connection, merged)
        if served.status is None and served.taken and journal:
            _remove_left_behind(journal[0])
        return served
    finally:
        for fd in journal:
            os.close(fd)


def _follow_run(connection: socket.socket, merged: bool) -> Served:
    """Answer the run's requests and wait for it to end; Ctrl-C reaches it as it
    would reach a compiler in this process. Its output is written here once it has
    ended (a run lost half-way has written nothing here)."""
    reader = protocol.AnswerReader(connection)
    pid: int | None = None
    taken = False
    stdin: bytes | None = None
    interrupts = 0
    try:
        while True:
            try:
                answer = reader.next()
                if answer is None:  # the server and the run are gone
                    return Served(130 if interrupts else None, taken, stdin)
                message, fds = answer
                if "pid" in message:
                    pid, taken = int(message["pid"]), True
                elif message.get("stdin"):
                    stdin = _hand_over_stdin(connection)
                elif "exit" in message:
                    if len(fds) == (1 if merged else 2):
                        _write_output(fds, merged)
                        return Served(int(message["exit"]), True)
                    for fd in fds:  # not this run's output: wait for the server's
                        os.close(fd)
                elif "signal" in message:
                    # Killed (the OOM killer, a crash): compile here, as a process
                    # of its own would have; unless it was the user's Ctrl-C.
                    number = int(message["signal"])
                    return Served(128 + number if interrupts else None, True, stdin)
                elif message.get("stale"):
                    return Served()
            except KeyboardInterrupt:
                interrupts += 1
                if pid is None:
                    return Served(130, True)
                try:
                    os.kill(pid, signal.SIGINT if interrupts == 1 else signal.SIGKILL)
                except OSError:
                    return Served(130, True)
            except OSError:  # a reset connection: gone as well
                return Served(130 if interrupts else None, taken, stdin)
    finally:
        reader.close()


def _hand_over_stdin(connection: socket.socket) -> bytes:
    """Send the run all of this process's standard input; a copy of it."""
    chunks: list[bytes] = []
    while chunk := os.read(0, 1 << 16):
        chunks.append(chunk)
    data = b"".join(chunks)
    try:
        connection.sendall(data)
        connection.shutdown(socket.SHUT_WR)
    except OSError:
        pass  # the run is gone: the answer says so
    return data


def _write_output(fds: list[int], merged: bool) -> None:
    """Copy the run's standard error, then its standard output (one file when they
    are one here), to this process's."""
    try:
        if not merged:
            _copy(fds[1], 2)
        _copy(fds[0], 1)
    finally:
        for fd in fds:
            os.close(fd)


def _copy(source: int, target: int) -> None:
    offset = 0
    try:
        while data := os.pread(source, 1 << 20, offset):
            offset += len(data)
            view = memoryview(data)
            while view:
                view = view[os.write(target, view) :]
    except OSError:
        pass  # a closed pipe: as the run's own writes would have ended


def _same_file(first: int, second: int) -> bool:
    a, b = os.fstat(first), os.fstat(second)
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _journal() -> tuple[int, ...]:
    """An anonymous file where the run notes the temporary files it makes."""
    try:
        return (os.memfd_create("xdsl-gpu-opt journal"),)
    except (AttributeError, OSError):
        return ()


def _remove_left_behind(journal: int) -> None:
    """Remove the temporary files of a lost run that are still there (an ``-o``
    file is written to one beside it, renamed over it once complete)."""
    data = b""
    offset = 0
    while chunk := os.pread(journal, 1 << 16, offset):
        data += chunk
        offset += len(chunk)
    for name in data.split(b"\0"):
        if name:
            try:
                os.unlink(name)
            except OSError:
                pass  # renamed into place, or removed by the run


def _start_server(folder: str, path: str) -> None:
    """Start this installation's server in the background, detached from this
    terminal and session; it warms up while this run compiles on its own."""
    import subprocess

    log = os.path.join(folder, os.path.basename(path)[: -len(".sock")] + ".log")
    try:
        with open(log, "ab") as output:
            subprocess.Popen(
                [sys.executable, "-m", "xdsl_gpu.driver.compile_server", path],
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=output,
                start_new_session=True,
                close_fds=True,
            )
    except OSError:
        pass  # no server: every run compiles in its own process, as it did


def _stop_server() -> int:
    folder = protocol.server_folder()
    path = protocol.socket_path(folder) if folder else None
    connection = _connect(path) if path else None
    if connection is None:
        print("xdsl-gpu-opt: no compile server is running", file=sys.stderr)
        return 0
    with connection:
        try:
            protocol.send_request(connection, {"stop": True})  # waits for its runs
            for _ in protocol.read_lines(connection):
                pass
        except OSError:
            pass
    print("xdsl-gpu-opt: the compile server stopped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
