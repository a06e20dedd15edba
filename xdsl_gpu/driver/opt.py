"""``xdsl-gpu-opt``: ``xdsl-opt --xdsl-gpu``, served by a resident compile server.

A Python compiler pays for its interpreter's start, xDSL's import and the loading of
every dialect on each run: about 0.45 s of a 0.6 s seed-002 compile, where the
pipeline itself takes 0.16 s. ``xdsl-gpu-opt`` pays it once: the first run starts a
server in the background (and compiles as ``xdsl-opt --xdsl-gpu`` would, in its own
process); later runs hand their command line, working directory, environment and
umask to that server, which forks a warmed-up copy of itself to run the command
(:mod:`xdsl_gpu.driver.compile_server`). Every run starts from the same state, so
the output is the same as a run in a process of its own, and two runs at a time run
at the same time.

No run is lost with the server: the client keeps what the run prints and writes it
out only once the run has ended; if the server and the run go away before that
(SIGKILL, the OOM killer), the client compiles the command itself, as
``XDSL_GPU_SERVER=0`` would, from the same standard input, after removing the
temporary files the lost run left (its ``-o`` file is written to one and renamed
over the target, so that is never half-written).

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
    if (
        protocol.server_enabled()
        and _descriptors_open()
        and not _names_own_descriptors(args)
    ):
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
        # (exit status 1), anything else with its traceback. The caller ends the
        # process (a served run answers its client first).
        import gc

        from xdsl_gpu.diagnostics import excepthook

        excepthook(type(error), error, error.__traceback__, end=False)
        gc.freeze()  # spare the interpreter's exit a collection of the whole IR
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


_OWN_DESCRIPTOR_NAMES = ("/dev/stdin", "/dev/fd/", "/proc/self/", "/dev/tty")


def _names_own_descriptors(args: Sequence[str]) -> bool:
    """Whether an argument names a descriptor of this process (``/dev/stdin``,
    ``/dev/fd/63`` of a shell's ``<(...)``, ``-o /dev/fd/3``) or its terminal: the
    server's run has none of these (its standard input comes through the socket,
    it has no terminal), so such a command runs here."""
    own = (*_OWN_DESCRIPTOR_NAMES, f"/proc/{os.getpid()}/")
    return any(name in arg for arg in args for name in own)


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
        self,
        status: int | None = None,
        taken: bool = False,
        stdin: bytes | None = None,
        answered: bool = False,
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
        self.answered = answered
        """Whether the run ended with its exit answer (else it was lost or killed,
        and the temporary files it left are removed)."""


def _run_on_server(path: str, args: list[str]) -> Served:
    """Run the command on the server at ``path``."""
    try:
        cwd = os.getcwd()
    except OSError:  # a deleted directory: let the run say what it makes of it
        return Served()
    connection = _connect(path)
    if connection is None:
        return Served()
    journal = _journal()
    out_read, out_write = os.pipe()
    if _same_file(1, 2):
        err_read, err_write = out_read, out_write
    else:
        err_read, err_write = os.pipe()
    try:
        with connection:
            umask = os.umask(0)
            os.umask(umask)
            request = {
                "argv": args,
                "cwd": cwd,
                "env": dict(os.environ),
                "umask": umask,
                "tty": os.isatty(1),
            }
            fds = [0, out_write, err_write, journal]
            try:
                protocol.send_request(connection, request, fds)
            except OSError:
                return Served()
            finally:
                for fd in {out_write, err_write}:
                    os.close(fd)  # the run holds them: the pipes end with it
            served = _follow_run(connection, [out_read, err_read])
        if not served.answered:  # lost, or killed by a second Ctrl-C
            _remove_left_behind(journal)
        return served
    finally:
        for fd in {out_read, err_read, journal}:
            os.close(fd)


def _follow_run(connection: socket.socket, pipes: list[int]) -> Served:
    """Keep what the run prints, answer its requests and wait for it to end; then
    write what it printed (a run lost half-way has written nothing here). Ctrl-C
    reaches it as it would reach a compiler in this process."""
    import selectors

    reader = protocol.AnswerReader(connection)
    printed = {fd: bytearray() for fd in pipes}  # stdout, stderr (one when one)
    pid: int | None = None
    taken = False
    stdin: bytes | None = None
    interrupts = 0
    status: int | None = None  # the run's exit answer
    with selectors.DefaultSelector() as selector:
        selector.register(connection, selectors.EVENT_READ)
        for fd in printed:
            os.set_blocking(fd, False)
            selector.register(fd, selectors.EVENT_READ)
        while status is None:
            try:
                for key, _ in selector.select():
                    if key.fileobj is not connection:
                        _take(key.fd, printed[key.fd], selector)
                        continue
                    for message in reader.feed():
                        if "pid" in message:
                            pid, taken = int(message["pid"]), True
                        elif message.get("stdin"):
                            stdin = _hand_over_stdin(connection)
                        elif "exit" in message:
                            status = int(message["exit"])
                            break
                        elif "signal" in message:
                            # Killed (the OOM killer, a crash): compile here, as a
                            # process of its own would have; unless the user's
                            # Ctrl-C killed it.
                            number = int(message["signal"])
                            killed = 128 + number if interrupts else None
                            return Served(killed, True, stdin)
                        elif message.get("stale"):
                            return Served()
                    if status is not None:
                        break
                    if reader.ended:  # the server and the run are gone
                        return Served(130 if interrupts else None, taken, stdin)
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
    # Everything it printed is in the pipes by now. The run has ended: a Ctrl-C
    # from here on stops the writing only (its process may be another's by now).
    try:
        for fd in printed:
            _take(fd, printed[fd], None)
        _write_out(printed, pipes)
    except KeyboardInterrupt:
        return Served(130, True, answered=True)
    return Served(status, True, answered=True)


def _take(fd: int, kept: bytearray, selector: Any) -> None:
    """Keep what the pipe ``fd`` holds now; forget the pipe once it has ended."""
    while True:
        try:
            data = os.read(fd, 1 << 16)
        except BlockingIOError:
            return
        if not data:
            if selector is not None:
                selector.unregister(fd)
            return
        kept += data


def _hand_over_stdin(connection: socket.socket) -> bytes:
    """Send the run all of this process's standard input; a copy of it."""
    chunks: list[bytes] = []
    while chunk := os.read(0, 1 << 16):
        chunks.append(chunk)
    data = b"".join(chunks)
    try:
        # Its length first: the run tells all of it from what a client killed
        # half-way sent (it must not compile that).
        connection.sendall(protocol.STDIN_LENGTH.pack(len(data)) + data)
        connection.shutdown(socket.SHUT_WR)
    except OSError:
        pass  # the run is gone: the answer says so
    return data


def _write_out(printed: dict[int, bytearray], pipes: list[int]) -> None:
    """Write what the run printed: its standard error, then its standard output
    (one stream when this process's two are one file)."""
    out, err = pipes
    if err != out:
        _write_all(2, printed[err])
    _write_all(1, printed[out])


def _write_all(target: int, data: bytearray) -> None:
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(target, view) :]
    except OSError:
        pass  # a closed pipe: as the run's own writes would have ended


def _same_file(first: int, second: int) -> bool:
    a, b = os.fstat(first), os.fstat(second)
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _journal() -> int:
    """An anonymous file where the run notes the temporary files it makes (or,
    where there is none, a file that keeps nothing)."""
    try:
        return os.memfd_create("xdsl-gpu-opt journal")
    except (AttributeError, OSError):
        return os.open(os.devnull, os.O_RDWR)


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
            protocol.send_request(connection, {"stop": True})
            for _ in protocol.read_lines(connection):  # once its runs have ended
                pass
        except OSError:
            pass
        except KeyboardInterrupt:
            print(
                "xdsl-gpu-opt: the compile server takes no more runs and stops once "
                "the runs it has taken end",
                file=sys.stderr,
            )
            return 130
    print("xdsl-gpu-opt: the compile server stopped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
