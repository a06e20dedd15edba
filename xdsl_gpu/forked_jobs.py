"""Run independent jobs in forked child processes, a few at a time.

``gpu-module-to-binary`` compiles each ``gpu.module`` separately (LLVM, nvJitLink,
nvFatbin): with one child per module, the modules of a program compile on every core
at once, and a job that kills its process (LLVM ends the process on IR its back end
cannot select) takes only its child with it. ``gpu-lower-to-nvvm-pipeline`` starts
its kernels' lowering in children (:func:`start_jobs`) and lowers the host code
meanwhile. ``fork`` shares the parent's memory, so a job is any callable (nothing
is pickled on the way in); its result travels back pickled through a pipe.

Forking is only safe in a process that runs one thread (a lock held by another
thread stays locked in the child): elsewhere :func:`run_jobs` runs the jobs in this
process one after the other (as it does with one job, where asked), and
:func:`start_jobs` refuses.

``XDSL_GPU_JOBS``: how many children run at once (default: the CPUs this process
may use; ``1`` compiles one module at a time).
"""

from __future__ import annotations

import faulthandler
import os
import pickle
import selectors
import signal
import struct
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar, cast

__all__ = [
    "Outcome",
    "RunningJobs",
    "default_jobs",
    "fork_is_safe",
    "run_jobs",
    "start_jobs",
]

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
    default) even a single job runs in a child, so that a crash is an outcome
    (unless this process is such a child already); without it, one worker runs the
    jobs in this process."""
    if not jobs:
        return []
    isolated_already = _in_child  # a crash ends this child, which its parent reports
    if not fork_is_safe() or (workers <= 1 and (not isolate or isolated_already)):
        return [_run_here(job) for job in jobs]
    return RunningJobs(jobs, max(1, workers)).wait()


_in_child = False
"""Whether this process is a child of :func:`run_jobs` or :func:`start_jobs`: there
a single job needs no child of its own to be isolated, its worker is one already."""


def _run_here(job: Callable[[], T]) -> Outcome[T]:
    try:
        return Outcome(value=job())
    except Exception as error:
        return Outcome(error=error)


_STOP = 0xFFFFFFFF
_INDEX = struct.Struct("<I")
_LENGTH = struct.Struct("<Q")


@dataclass
class _Child:
    """A worker: it runs the jobs whose indices it reads from ``commands`` and
    writes each outcome, length-prefixed, to ``results``."""

    pid: int
    commands: int
    results: int
    errors: int  # its stderr: a file, emptied before each job
    current: int | None = None
    buffer: bytearray = field(default_factory=bytearray)


def start_jobs(jobs: Sequence[Callable[[], T]], workers: int) -> RunningJobs[T]:
    """Start ``jobs`` in forked children and return at once, so that this process
    can work meanwhile; :meth:`RunningJobs.wait` gives the outcomes. Only where
    :func:`fork_is_safe` (this raises otherwise: there is no in-process fallback
    to run behind the caller's back).

    Give ``workers`` >= ``len(jobs)`` when the jobs must see this process as it is
    now: a job that waits for a free child (or takes the place of one that died)
    starts in a child forked during :meth:`RunningJobs.wait`, from this process as
    it is then."""
    if not fork_is_safe():
        raise RuntimeError("start_jobs: this process runs several threads")
    return RunningJobs(jobs, max(1, workers))


class RunningJobs(Generic[T]):
    """Jobs running in up to ``workers`` forked children: the children start at
    once with one job each, and take the next ones as they finish while
    :meth:`wait` runs."""

    def __init__(self, jobs: Sequence[Callable[[], T]], workers: int) -> None:
        self._jobs = jobs
        self._outcomes: list[Outcome[T] | None] = [None] * len(jobs)
        self._waiting = list(range(len(jobs)))[::-1]
        self._children: dict[int, _Child] = {}  # by its results pipe
        self._workers = min(workers, len(jobs))
        try:
            self._start_children()
        except BaseException:
            self.cancel()
            raise

    def _start_children(self) -> list[_Child]:
        started: list[_Child] = []
        while self._waiting and len(self._children) < self._workers:
            child = _start(self._jobs)
            self._children[child.results] = child
            _give_work(child, self._waiting)
            started.append(child)
        return started

    def wait(self) -> list[Outcome[T]]:
        """The outcomes in the order of the jobs, once every job has ended."""
        children = self._children
        try:
            with selectors.DefaultSelector() as selector:
                for fd in children:
                    selector.register(fd, selectors.EVENT_READ)
                while self._waiting or any(
                    c.current is not None for c in children.values()
                ):
                    # A child that died leaves its place to a new one.
                    for child in self._start_children():
                        selector.register(child.results, selectors.EVENT_READ)
                    for key, _ in selector.select():
                        self._read(selector, children[cast(int, key.fd)])
        except BaseException:  # Ctrl-C, say: the children end now, not after their job
            self.cancel()
            raise
        finally:
            for child in children.values():
                _give_work(child, [])
                _end(child)
            children.clear()
        return [o if o is not None else Outcome(died="not run") for o in self._outcomes]

    def cancel(self) -> None:
        """Stop every child now (killed, not waited for to finish its job)."""
        for child in self._children.values():
            try:
                os.kill(child.pid, signal.SIGKILL)
            except OSError:
                pass
            _end(child)
        self._children.clear()

    def _read(self, selector: selectors.BaseSelector, child: _Child) -> None:
        data = os.read(child.results, 1 << 20)
        if data:
            child.buffer += data
            for index, outcome in _complete_outcomes(child):
                self._outcomes[index] = cast(Outcome[T], outcome)
                _give_work(child, self._waiting)
            return
        # The child ended: after a stop, or killed by its job.
        selector.unregister(child.results)
        del self._children[child.results]
        outcome = _end(child)
        if child.current is not None:
            self._outcomes[child.current] = cast(Outcome[T], outcome)


def _give_work(child: _Child, waiting: list[int]) -> None:
    """Send the child its next job, or tell it to stop."""
    child.current = waiting.pop() if waiting else None
    index = _STOP if child.current is None else child.current
    try:
        os.write(child.commands, _INDEX.pack(index))
    except OSError:  # it died already; its end is noticed on its results pipe
        pass


def _complete_outcomes(child: _Child) -> list[tuple[int, Outcome[object]]]:
    done: list[tuple[int, Outcome[object]]] = []
    while len(child.buffer) >= _LENGTH.size:
        (size,) = _LENGTH.unpack_from(child.buffer)
        if len(child.buffer) < _LENGTH.size + size:
            break
        frame = bytes(child.buffer[_LENGTH.size : _LENGTH.size + size])
        del child.buffer[: _LENGTH.size + size]
        assert child.current is not None
        try:
            kind, payload = pickle.loads(frame)
            outcome: Outcome[object] = (
                Outcome(value=payload) if kind == "value" else Outcome(error=payload)
            )
        except Exception as error:
            outcome = Outcome(died=f"its result could not be read back ({error})")
        done.append((child.current, outcome))
    return done


def _start(jobs: Sequence[Callable[[], object]]) -> _Child:
    errors = tempfile.TemporaryFile()
    errors_fd = os.dup(errors.fileno())
    errors.close()
    command_read, command_write = os.pipe()
    result_read, result_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        status = 1
        try:
            os.close(command_write)
            os.close(result_read)
            os.dup2(errors_fd, 2)
            # A job that kills its worker is reported by the parent; a Python
            # traceback of the worker (pytest enables faulthandler) says nothing
            # more.
            faulthandler.disable()
            global _in_child
            _in_child = True
            _serve(jobs, command_read, result_write)
            status = 0
        finally:
            os._exit(status)
    os.close(command_read)
    os.close(result_write)
    return _Child(pid, command_write, result_read, errors_fd)


def _serve(  # pragma: no cover - runs in the child
    jobs: Sequence[Callable[[], object]], commands: int, results: int
) -> None:
    while True:
        raw = _read_exactly(commands, _INDEX.size)
        if raw is None:
            return
        (index,) = _INDEX.unpack(raw)
        if index == _STOP:
            return
        os.ftruncate(2, 0)  # what the job says, and only that, if it dies
        os.lseek(2, 0, os.SEEK_SET)
        try:
            result: tuple[str, object] = ("value", jobs[index]())
        except Exception as error:
            result = ("error", error)
        try:
            data = pickle.dumps(result)
        except Exception as error:  # an unpicklable result or exception
            data = pickle.dumps(("error", RuntimeError(f"{error}: {result[1]}")))
        view = memoryview(_LENGTH.pack(len(data)) + data)
        while view:
            view = view[os.write(results, view) :]


def _read_exactly(fd: int, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _end(child: _Child) -> Outcome[object]:
    """Close the child's pipes, wait for it, and say how it ended (for the job it
    was running, if any)."""
    for fd in (child.commands, child.results):
        try:
            os.close(fd)
        except OSError:
            pass
    status = _reap(child.pid)
    try:
        os.lseek(child.errors, 0, os.SEEK_SET)
        said = _read_all(child.errors).decode(errors="replace").strip()
    finally:
        os.close(child.errors)
    if not said:
        if os.WIFSIGNALED(status):
            said = f"the process was ended by signal {os.WTERMSIG(status)}"
        else:
            said = f"the process exited with status {os.waitstatus_to_exitcode(status)}"
    return Outcome(died=said)


def _read_all(fd: int) -> bytes:
    parts: list[bytes] = []
    while chunk := os.read(fd, 1 << 16):
        parts.append(chunk)
    return b"".join(parts)


def _reap(pid: int) -> int:
    _, status = os.waitpid(pid, 0)
    return status
