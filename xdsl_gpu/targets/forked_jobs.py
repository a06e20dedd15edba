"""Run independent jobs in forked child processes, a few at a time.

``gpu-module-to-binary`` compiles each ``gpu.module`` separately (LLVM, nvJitLink,
nvFatbin): with one child per module, the modules of a program compile on every core
at once, and a job that kills its process (LLVM ends the process on IR its back end
cannot select) takes only its child with it. ``fork`` shares the parent's memory, so
a job is any callable (nothing is pickled on the way in); its result travels back
pickled through a pipe.

Forking is only safe in a process that runs one thread (a lock held by another
thread stays locked in the child): elsewhere, and with one job, the jobs run in this
process one after the other.

``XDSL_GPU_JOBS``: how many children run at once (default: the CPUs this process
may use; ``1`` compiles one module at a time).
"""

from __future__ import annotations

import os
import pickle
import selectors
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

__all__ = ["Outcome", "default_jobs", "fork_is_safe", "run_jobs"]

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """What one job gave: its ``value``, the exception it raised (``error``), or,
    when its child died, ``died`` (what the child wrote on stderr, or how it
    ended)."""

    value: T | None = None
    error: BaseException | None = None
    died: str | None = None


def default_jobs() -> int:
    """``XDSL_GPU_JOBS`` when set to a positive number, else the CPUs this process
    may run on."""
    text = os.environ.get("XDSL_GPU_JOBS", "").strip()
    if text:
        try:
            if (value := int(text)) > 0:
                return value
        except ValueError:
            pass
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def fork_is_safe() -> bool:
    """Whether this process runs one thread, so that ``fork`` is safe."""
    if not hasattr(os, "fork"):  # pragma: no cover - not on Linux
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:  # pragma: no cover - no /proc
        return False


def run_jobs(
    jobs: Sequence[Callable[[], T]], workers: int, *, isolate: bool = True
) -> list[Outcome[T]]:
    """Run every job; the outcomes come in the order of ``jobs``, whatever order the
    children finish in. ``workers`` children run at once. With ``isolate`` (the
    default) even a single job runs in a child, so that a crash is an outcome;
    without it, one worker runs the jobs in this process."""
    if not jobs:
        return []
    if not fork_is_safe() or (workers <= 1 and not isolate):
        return [_run_here(job) for job in jobs]
    return _run_forked(jobs, max(1, workers))


def _run_here(job: Callable[[], T]) -> Outcome[T]:
    try:
        return Outcome(value=job())
    except Exception as error:
        return Outcome(error=error)


@dataclass
class _Child:
    index: int
    pid: int
    chunks: list[bytes]
    errors: int  # the file descriptor of its stderr's file


def _run_forked(jobs: Sequence[Callable[[], T]], workers: int) -> list[Outcome[T]]:
    outcomes: list[Outcome[T] | None] = [None] * len(jobs)
    waiting = list(range(len(jobs)))[::-1]
    running: dict[int, _Child] = {}
    with selectors.DefaultSelector() as selector:
        try:
            while waiting or running:
                while waiting and len(running) < workers:
                    index = waiting.pop()
                    read, child = _start(jobs[index], index)
                    running[read] = child
                    selector.register(read, selectors.EVENT_READ)
                for key, _ in selector.select():
                    read = key.fd
                    assert isinstance(read, int)
                    data = os.read(read, 1 << 20)
                    if data:
                        running[read].chunks.append(data)
                        continue
                    selector.unregister(read)
                    os.close(read)
                    child = running.pop(read)
                    outcomes[child.index] = cast(Outcome[T], _finish(child))
        finally:
            for read, child in running.items():  # only on an exception here
                os.close(read)
                os.close(child.errors)
                _reap(child.pid)
    return [o if o is not None else Outcome(died="not run") for o in outcomes]


def _start(job: Callable[[], object], index: int) -> tuple[int, _Child]:
    errors = tempfile.TemporaryFile()
    errors_fd = os.dup(errors.fileno())
    errors.close()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        status = 1
        try:
            os.close(read)
            os.dup2(errors_fd, 2)
            try:
                result: tuple[str, object] = ("value", job())
            except Exception as error:
                result = ("error", error)
            try:
                data = pickle.dumps(result)
            except Exception as error:  # an unpicklable result or exception
                data = pickle.dumps(("error", RuntimeError(f"{error}: {result[1]}")))
            view = memoryview(data)
            while view:
                view = view[os.write(write, view) :]
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    return read, _Child(index, pid, [], errors_fd)


def _finish(child: _Child) -> Outcome[object]:
    status = _reap(child.pid)
    try:
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and child.chunks:
            try:
                kind, payload = pickle.loads(b"".join(child.chunks))
            except Exception as error:
                return Outcome(died=f"its result could not be read back ({error})")
            if kind == "value":
                return Outcome(value=payload)
            return Outcome(error=payload)
        os.lseek(child.errors, 0, os.SEEK_SET)
        said = _read_all(child.errors).decode(errors="replace").strip()
        if not said:
            if os.WIFSIGNALED(status):
                said = f"the process was ended by signal {os.WTERMSIG(status)}"
            else:
                said = f"the process exited with status {os.waitstatus_to_exitcode(status)}"
        return Outcome(died=said)
    finally:
        os.close(child.errors)


def _read_all(fd: int) -> bytes:
    parts: list[bytes] = []
    while chunk := os.read(fd, 1 << 16):
        parts.append(chunk)
    return b"".join(parts)


def _reap(pid: int) -> int:
    _, status = os.waitpid(pid, 0)
    return status
