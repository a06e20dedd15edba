"""The run cache of ``xdsl-gpu-opt``'s server: a whole run's output, replayed.

The compile cache (:mod:`xdsl_gpu.targets.compile_cache`) spares LLVM and nvJitLink
a second compile of a ``gpu.module``; parsing, the other pipeline steps and printing
still cost a served run ~0.13 s. When a run is repeated exactly (same command line,
working directory, environment, xdsl-gpu code, and the same bytes in every file it
read), its output is the same: the server then writes the recorded output instead
of compiling, as ccache does for a C compiler.

What is recorded, for a run that succeeded (exit status 0) and wrote nothing on
standard error:

* what it printed on standard output, and the text of its ``-o`` file;
* every file it opened for reading (``open``, ``os.open``), with a SHA-256 of its
  contents, and every path it looked for and did not find (failed opens, and the
  paths that searches such as the object files' report to
  :mod:`xdsl_gpu.file_access`): a replay first checks that each file still has
  those bytes and each missing path is still missing.

A run is not recorded when it read standard input, started a program, wrote a file
other than its output (the compile cache, temporary files and ``/dev/null`` aside),
read a device or FIFO, or printed anything on standard error. Entries live in the
compile cache's folder and bound (``XDSL_GPU_CACHE=0`` turns both off).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from xdsl_gpu.file_access import listening
from xdsl_gpu.targets.compile_cache import CompileCache, cache_key, default_cache

__all__ = ["run_with_cache"]

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def run_with_cache(args: Sequence[str], code_fingerprint: str) -> int:
    """Replay the recorded run of ``args`` if it is still valid, else run it (and
    record it when it can be replayed later)."""
    from xdsl_gpu.driver.opt import run_in_this_process

    cache = default_cache()
    if cache is None:
        return run_in_this_process(args)
    env = sorted(os.environ.items())
    key = cache_key(
        "xdsl-gpu-opt run", code_fingerprint, json.dumps([list(args), os.getcwd(), env])
    )
    entry = cache.get(key)
    if entry is not None and _replay(entry.data, entry.metadata):
        return 0
    recorder = _Recorder(cache)
    stdout, stderr, stdin = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr = _Tee(stdout, recorder.out), _Tee(stderr, recorder.err)
    sys.stdin = _Watched(stdin, recorder)
    try:
        with _watching_files(recorder), listening(recorder.probed):
            code = run_in_this_process(args, on_main=recorder.note_main)
    finally:
        sys.stdout, sys.stderr, sys.stdin = stdout, stderr, stdin
    if code == 0 and recorder.replayable():
        data, metadata = recorder.entry()
        cache.put(key, data, metadata)
    return code


class _Recorder:
    def __init__(self, cache: CompileCache) -> None:
        self.out: list[str] = []
        self.err: list[str] = []
        self.reads: set[str] = set()
        self.written: set[str] = set()
        self.refused: str | None = None
        self.output_file: str | None = None
        self.cache_folder = os.path.abspath(cache.directory)
        self.allowed_writes = [
            self.cache_folder,
            os.path.abspath(tempfile.gettempdir()),
        ]

    def note_main(self, main: Any) -> None:
        self.output_file = getattr(main.args, "output_file", None)
        if getattr(main.args, "time_passes", False):
            self.refuse("--mlir-timing: times are measured anew each run")

    def refuse(self, why: str) -> None:
        if self.refused is None:
            self.refused = why

    def opened(self, path: Any, writes: bool) -> None:
        if not isinstance(path, str | bytes | os.PathLike):
            return  # a descriptor already open
        name = os.path.abspath(os.fsdecode(path))  # pyright: ignore[reportUnknownArgumentType]
        if writes:
            self.written.add(name)
            if not self._write_allowed(name):
                self.refuse(f"wrote {name}")
        elif name not in self.written and not self._under(name, [self.cache_folder]):
            # The compile cache is content-addressed: what it holds for a key
            # never changes what the run makes.
            self.reads.add(name)

    def probed(self, path: str) -> None:
        """A path a search looked at (:mod:`xdsl_gpu.file_access`)."""
        self.reads.add(os.path.abspath(path))

    def _write_allowed(self, name: str) -> bool:
        if name == "/dev/null" or self._under(name, self.allowed_writes):
            return True
        if self.output_file is None:
            return False
        target = os.path.abspath(self.output_file)
        # _AtomicOutput writes a temporary file beside the target, then renames it.
        return name == target or (
            os.path.dirname(name) == os.path.dirname(target)
            and os.path.basename(name).startswith(f".{os.path.basename(target)}.")
        )

    @staticmethod
    def _under(name: str, folders: list[str]) -> bool:
        return any(name == f or name.startswith(f + os.sep) for f in folders)

    def replayable(self) -> bool:
        if self.err and "".join(self.err):
            self.refuse("wrote on standard error")
        if self.output_file == "-":
            self.refuse("-o -")
        return self.refused is None

    def entry(self) -> tuple[bytes, dict[str, Any]]:
        output = b""
        if self.output_file is not None:
            try:
                with open(self.output_file, "rb") as file:
                    output = file.read()
            except OSError:
                self.refuse("output unreadable")
        deps: list[list[str]] = []
        for name in sorted(self.reads):
            digest = _digest(name)
            if digest is None:
                continue  # a file it tried (a search path): absent then and now
            deps.append([name, digest])
        stdout = "".join(self.out).encode()
        metadata = {
            "stdout": len(stdout),
            "output_file": self.output_file,
            "deps": deps,
            "absent": sorted(n for n in self.reads if not os.path.exists(n)),
        }
        return stdout + output, metadata


def _digest(name: str) -> str | None:
    """The SHA-256 of a regular file's bytes; None when there is no such file. A
    device or FIFO has no stable contents: its digest never matches."""
    try:
        info = os.stat(name)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    try:
        with open(name, "rb") as file:
            return hashlib.sha256(file.read()).hexdigest()
    except OSError:
        return None


def _replay(data: bytes, metadata: dict[str, Any]) -> bool:
    """Write the recorded output if every file the run read still has the bytes it
    had (and every file it looked for is still absent); False to run instead."""
    deps = metadata.get("deps")
    absent = metadata.get("absent", [])
    if not isinstance(deps, list) or not isinstance(absent, list):
        return False
    for name, digest in deps:
        if digest == "not a regular file" or _digest(name) != digest:
            return False
    if any(os.path.exists(name) for name in absent):
        return False
    size = int(metadata.get("stdout", 0))
    output_file = metadata.get("output_file")
    if output_file is not None:
        from xdsl_gpu import compat

        try:
            compat.write_output_file(str(output_file), data[size:].decode())
        except OSError:
            return False
    sys.stdout.write(data[:size].decode())
    sys.stdout.flush()
    return True


@contextmanager
def _watching_files(recorder: _Recorder) -> Iterator[None]:
    """Tell ``recorder`` of every file this process opens and of every program it
    starts, while the block runs. (Wrappers, not an audit hook: a hook sees every
    ``id()`` call too, which made a large compile 15% slower.) The process ends with
    the run, the wrappers are taken away all the same."""
    import builtins
    import io
    import subprocess

    open_file = builtins.open
    open_descriptor = os.open
    start = subprocess.Popen._execute_child  # pyright: ignore[reportAttributeAccessIssue]
    system = os.system

    def opening(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        recorder.opened(file, any(c in mode for c in "wax+"))
        return open_file(file, mode, *args, **kwargs)

    def opening_descriptor(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        recorder.opened(path, bool(flags & _WRITE_FLAGS))
        return open_descriptor(path, flags, *args, **kwargs)

    def starting(*args: Any, **kwargs: Any) -> Any:
        recorder.refuse("started a program")
        return start(*args, **kwargs)

    def running(command: Any) -> int:
        recorder.refuse("started a program")
        return system(command)

    builtins.open = io.open = opening  # pyright: ignore[reportAttributeAccessIssue]
    os.open = opening_descriptor
    subprocess.Popen._execute_child = starting  # pyright: ignore[reportAttributeAccessIssue]
    os.system = running
    try:
        yield
    finally:
        builtins.open = io.open = open_file
        os.open = open_descriptor
        subprocess.Popen._execute_child = start  # pyright: ignore[reportAttributeAccessIssue]
        os.system = system


class _Tee:
    """A text stream that also keeps what is written to it."""

    def __init__(self, stream: Any, kept: list[str]) -> None:
        self._stream = stream
        self._kept = kept

    def write(self, text: str) -> int:
        self._kept.append(text)
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Watched:
    """Standard input: a run that reads it is not replayable (its input is not a
    file whose bytes can be checked)."""

    def __init__(self, stream: Any, recorder: _Recorder) -> None:
        self._stream = stream
        self._recorder = recorder

    def __getattr__(self, name: str) -> Any:
        self._recorder.refuse("read standard input")
        return getattr(self._stream, name)

    def __iter__(self) -> Any:
        self._recorder.refuse("read standard input")
        return iter(self._stream)
