"""What ``xdsl-gpu-opt`` and its compile server say to each other.

Both sides import this module, so it imports nothing heavy: the client must start in
the time of a bare Python interpreter.

A request is one message on a Unix socket: a length-prefixed JSON object (the
command line, working directory, environment and umask of the client) with four
``SCM_RIGHTS`` file descriptors: the client's standard input (unused by a server of
this version: it keeps an older server able to read the request and find itself
stale), the write ends of two pipes that become the run's standard output and error
(one pipe twice when the client's two streams are one file, so that their
interleaving is kept), and a *journal*, an anonymous file in which the run notes
every temporary file it creates. The client keeps what comes through the pipes and
writes it to its own streams only once the run's final answer came, so a run that
dies leaves no trace on them; and it removes what a lost run left behind.

Answers are JSON lines:

* ``{"pid": N}``, from the run's own process when it starts;
* ``{"stdin": true}``, from the run when it first reads standard input: the client
  sends all of its standard input over the socket, its length first (8 bytes,
  little-endian), then shuts its sending side (and keeps a copy, for a run of its
  own should this one be lost); a run that finds less than that length has lost its
  client and ends without compiling it;
* ``{"exit": code}``, from the run as it ends and again from the server when it has
  reaped it (the client takes the first: the run's own reaches the client even when
  the server is gone);
* ``{"signal": number}``, from the server, when the run was killed;
* ``{"stale": true}``, when the server's own code changed on disk since it started;
  ``{"stopped": true}`` to a ``--stop-server`` request (three descriptors), once the
  server has finished every run it had taken.

A connection that closes before an ``exit`` answer (the server and the run both
gone) leaves the run to the client. A client that closes it first (killed) has its
run interrupted by the server, as its own compile would have died with it.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import struct
import sys
from collections.abc import Iterator, Sequence
from typing import Any

__all__ = [
    "DIR_VARIABLE",
    "DISABLE_VARIABLE",
    "IDLE_VARIABLE",
    "STDIN_LENGTH",
    "AnswerReader",
    "read_lines",
    "read_request",
    "send_line",
    "send_request",
    "server_folder",
    "socket_path",
]

DISABLE_VARIABLE = "XDSL_GPU_SERVER"
"""``0`` (or ``off``, ``no``, ``false``): ``xdsl-gpu-opt`` runs every command in its
own process and starts no server."""

DIR_VARIABLE = "XDSL_GPU_SERVER_DIR"
"""Where the server's socket, lock and log live (default: ``$XDG_RUNTIME_DIR/
xdsl-gpu``, else ``<tmp>/xdsl-gpu-<uid>``)."""

IDLE_VARIABLE = "XDSL_GPU_SERVER_IDLE"
"""Seconds a server with nothing to do waits before it exits (default 600)."""

DEFAULT_IDLE_SECONDS = 600.0

PROCESS_VARIABLES = (
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONHASHSEED",
    "LD_LIBRARY_PATH",
    "LD_PRELOAD",
    "CUDA_ROOT",
    "CUDA_HOME",
    "CUDA_PATH",
)
"""Variables that a process reads once, at its start or when it first loads a
library (which Python files, which CUDA libraries): a server started with other
values is another server."""
_LENGTH = struct.Struct("<I")
STDIN_LENGTH = struct.Struct("<Q")
"""The length of the standard input the client sends a run, before the bytes."""
_MAX_REQUEST = 64 << 20
_MAX_FDS = 4


def server_enabled() -> bool:
    value = os.environ.get(DISABLE_VARIABLE, "1").strip().lower()
    return value not in ("0", "off", "no", "false")


def idle_seconds() -> float:
    try:
        value = float(os.environ.get(IDLE_VARIABLE, ""))
    except ValueError:
        return DEFAULT_IDLE_SECONDS
    return value if value > 0 else DEFAULT_IDLE_SECONDS


def server_folder() -> str | None:
    """The folder of this user's servers, created private, or None when it cannot
    be trusted (someone else owns it, or others may write in it): then no server is
    used and every command runs in its own process."""
    folder = os.environ.get(DIR_VARIABLE)
    if not folder:
        runtime = os.environ.get("XDG_RUNTIME_DIR")
        if runtime and os.path.isdir(runtime):
            folder = os.path.join(runtime, "xdsl-gpu")
        else:
            import tempfile

            folder = os.path.join(tempfile.gettempdir(), f"xdsl-gpu-{os.getuid()}")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        status = os.stat(folder)
    except OSError:
        return None
    if status.st_uid != os.getuid() or status.st_mode & 0o022:
        return None
    return folder


def socket_path(folder: str) -> str:
    """One server per interpreter, installed copy of xdsl-gpu and value of the
    :data:`PROCESS_VARIABLES`: a client of one virtual environment or CUDA
    installation never talks to another's server."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fixed = [f"{v}={os.environ.get(v, '')}" for v in PROCESS_VARIABLES]
    key = "\0".join([sys.executable, package, sys.version, *fixed]).encode()
    return os.path.join(folder, f"opt-{hashlib.sha256(key).hexdigest()[:16]}.sock")


def send_request(
    connection: socket.socket, request: dict[str, Any], fds: Sequence[int] = (0, 1, 2)
) -> None:
    body = json.dumps(request).encode()
    socket.send_fds(connection, [_LENGTH.pack(len(body)) + body], list(fds))


def read_request(
    connection: socket.socket,
) -> tuple[dict[str, Any], list[int]] | None:
    """The request and the descriptors it carried, or None for a malformed one (its
    descriptors closed)."""
    data, fds, _flags, _address = socket.recv_fds(connection, 1 << 16, _MAX_FDS)
    ok = len(data) >= _LENGTH.size
    if ok:
        (length,) = _LENGTH.unpack_from(data)
        ok = length <= _MAX_REQUEST
        while ok and len(data) < _LENGTH.size + length:
            more = connection.recv(_LENGTH.size + length - len(data))
            ok = bool(more)
            data += more
    try:
        request = json.loads(data[_LENGTH.size :]) if ok else None
    except ValueError:
        request = None
    if not isinstance(request, dict):
        for fd in fds:
            os.close(fd)
        return None
    return request, fds


def send_line(connection: socket.socket, message: dict[str, Any]) -> None:
    connection.sendall(json.dumps(message).encode() + b"\n")


class AnswerReader:
    """The answers on a connection, one JSON object a line. It reads when told
    to, so that a caller can wait for other descriptors as well."""

    def __init__(self, connection: socket.socket) -> None:
        self._connection = connection
        self._pending = b""
        self.ended = False
        """Whether the other side has closed."""

    def feed(self) -> list[dict[str, Any]]:
        """Read once (blocking until something comes); the answers completed."""
        data = self._connection.recv(1 << 16)
        if not data:
            self.ended = True
        self._pending += data
        answers: list[dict[str, Any]] = []
        while b"\n" in self._pending:
            line, self._pending = self._pending.split(b"\n", 1)
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict):
                answers.append(message)  # pyright: ignore[reportUnknownArgumentType]
        return answers


def read_lines(connection: socket.socket) -> Iterator[dict[str, Any]]:
    """The answers, until the other side closes."""
    reader = AnswerReader(connection)
    while not reader.ended:
        yield from reader.feed()
