"""What ``xdsl-gpu-opt`` and its compile server say to each other.

Both sides import this module, so it imports nothing heavy: the client must start in
the time of a bare Python interpreter.

A request is one message on a Unix socket: a length-prefixed JSON object (the
command line, working directory, environment and umask of the client) that carries
the client's standard input, output and error as ``SCM_RIGHTS`` file descriptors.
The server answers with JSON lines: ``{"pid": N}`` when a process has taken the run,
then ``{"exit": code}`` or ``{"signal": number}`` when it has ended; or
``{"stale": true}`` when the server's own code changed on disk since it started
(the client then runs the command itself and starts a fresh server).
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import struct
import sys
from collections.abc import Iterator
from typing import Any

__all__ = [
    "DIR_VARIABLE",
    "DISABLE_VARIABLE",
    "IDLE_VARIABLE",
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
_MAX_REQUEST = 64 << 20


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


def send_request(connection: socket.socket, request: dict[str, Any]) -> None:
    body = json.dumps(request).encode()
    socket.send_fds(connection, [_LENGTH.pack(len(body)) + body], [0, 1, 2])


def read_request(
    connection: socket.socket,
) -> tuple[dict[str, Any], list[int]] | None:
    """The request and the client's three descriptors, or None for a malformed
    one (its descriptors closed)."""
    data, fds, _flags, _address = socket.recv_fds(connection, 1 << 16, 3)
    ok = len(fds) == 3 and len(data) >= _LENGTH.size
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


def read_lines(connection: socket.socket) -> Iterator[dict[str, Any]]:
    """The server's answers, one JSON object a line, until it closes."""
    pending = b""
    while True:
        chunk = connection.recv(4096)
        if not chunk:
            return
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict):
                yield message
