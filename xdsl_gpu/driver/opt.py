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
from collections.abc import Callable, Iterator, Sequence
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
            code = _run_on_server(path, args)
            if code is not None:
                return code
            _start_server(folder, path)
    return run_in_this_process(args)


def run_in_this_process(
    args: Sequence[str], on_main: Callable[[Any], None] | None = None
) -> int:
    """Run ``xdsl-opt --xdsl-gpu args`` here; its exit status. ``on_main`` sees the
    tool once it has read its arguments, before it reads the input."""
    import warnings

    from xdsl.xdsl_opt_main import xDSLOptMain

    saved = sys.argv
    sys.argv = ["xdsl-gpu-opt", "--xdsl-gpu", *args]
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
        sys.argv = saved
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


def _run_on_server(path: str, args: list[str]) -> int | None:
    """The command's exit status when the server ran it; None when there is no
    (current) server, so nothing has run yet."""
    connection = _connect(path)
    if connection is None:
        return None
    with connection:
        umask = os.umask(0)
        os.umask(umask)
        try:
            cwd = os.getcwd()
        except OSError:  # a deleted directory: let the run say what it makes of it
            return None
        request = {
            "argv": args,
            "cwd": cwd,
            "env": dict(os.environ),
            "umask": umask,
        }
        try:
            protocol.send_request(connection, request)
            answers = protocol.read_lines(connection)
            first = next(answers, None)
        except OSError:
            return None
        if first is None or first.get("stale") or "pid" not in first:
            return None  # nothing ran: the caller runs it here
        return _wait_for_run(int(first["pid"]), answers)


def _wait_for_run(pid: int, answers: Iterator[dict[str, Any]]) -> int:
    """Wait for the run in process ``pid`` to end; Ctrl-C reaches it as it would
    reach a compiler in this process."""
    interrupts = 0
    while True:
        try:
            for answer in answers:
                if "exit" in answer:
                    return int(answer["exit"])
                if "signal" in answer:
                    number = int(answer["signal"])
                    name = _signal_name(number)
                    print(
                        f"xdsl-gpu-opt: the compile ended by signal {name}; rerun "
                        f"with {protocol.DISABLE_VARIABLE}=0 to see it in this "
                        "process",
                        file=sys.stderr,
                    )
                    return 128 + number
            print(
                "xdsl-gpu-opt: the compile server ended before the compile did; "
                f"rerun with {protocol.DISABLE_VARIABLE}=0",
                file=sys.stderr,
            )
            return 1
        except KeyboardInterrupt:
            interrupts += 1
            try:
                os.kill(pid, signal.SIGINT if interrupts == 1 else signal.SIGKILL)
            except OSError:
                return 130
        except OSError:
            return 1


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


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
            for _ in protocol.read_lines(connection):
                pass
        except OSError:
            pass
    print("xdsl-gpu-opt: the compile server stopped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
