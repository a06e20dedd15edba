"""Run independent jobs in forked child processes, a few at a time.

``gpu-module-to-binary`` compiles each ``gpu.module`` separately (LLVM, nvJitLink,
nvFatbin): as jobs of a few long-lived children, the modules of a program compile on
every core at once, and a job that kills its process (LLVM ends the process on IR its back end
cannot select) takes only its child with it. ``gpu-lower-to-nvvm-pipeline`` starts
its kernels' lowering in children (:func:`start_jobs`) and lowers the host code
meanwhile. ``fork`` shares the parent's memory, so a job is any callable (nothing
is pickled on the way in); its result travels back pickled (through a pipe, or a
file for a large one). The children take the jobs in order from one queue, so
they stay busy while the parent does something else.

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
    may run on; 1 in a child of :func:`run_jobs` or :func:`start_jobs`, whose parent
    already spreads the work over the CPUs (a worker of the pipeline's parallel
    schedule serializes its modules itself, instead of forking as many children
    again)."""
    if _in_child:
        return 1
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
_LARGEST_IN_PIPE = 8192
"""An outcome larger than this (pickled) goes through the child's spill file and
only its place through the pipe: a child whose parent is busy elsewhere would
otherwise wait for the parent to read a full pipe before it could start its next
job."""
_QUEUE_WRITE = 4096
"""Job indices go into the queue this many bytes at a time at most: a pipe write
of up to PIPE_BUF bytes is whole, so no reader ever takes part of an index."""


@dataclass
class _Child:
    """A worker: it takes job indices from the queue it shares with the other
    children and writes, length-prefixed to ``results``, which job it starts and
    then its outcome."""

    pid: int
    results: int
    errors: int  # its stderr: a file, emptied before each job
    spill: int  # a file for the outcomes too large for the pipe
    current: int | None = None
    stopped: bool = False
    buffer: bytearray = field(default_factory=bytearray)


def start_jobs(jobs: Sequence[Callable[[], T]], workers: int) -> RunningJobs[T]:
    """Start ``jobs`` in forked children and return at once, so that this process
    can work meanwhile; :meth:`RunningJobs.wait` gives the outcomes. Only where
    :func:`fork_is_safe` (this raises otherwise: there is no in-process fallback
    to run behind the caller's back).

    The children are forked now, with every job, and take the next job from a
    queue as they finish one, whether or not this process is waiting yet: every
    job sees this process as it is now. Only a child that replaces one that died
    is forked later (during :meth:`RunningJobs.wait`), from this process as it is
    then."""
    if not fork_is_safe():
        raise RuntimeError("start_jobs: this process runs several threads")
    return RunningJobs(jobs, max(1, workers))


class RunningJobs(Generic[T]):
    """Jobs running in up to ``workers`` forked children, which take them in order
    from one queue (a pipe of job indices): a child that is done with one job
    starts the next at once, so that the children stay busy to the end even while
    this process does something else."""

    def __init__(self, jobs: Sequence[Callable[[], T]], workers: int) -> None:
        self._jobs = jobs
        self._outcomes: list[Outcome[T] | None] = [None] * len(jobs)
        self._children: dict[int, _Child] = {}  # by its results pipe
        self._workers = min(workers, len(jobs))
        self._died = 0  # children that died, not replaced yet
        self._replaced = 0
        self._retried = False
        self._queue_read, self._queue_write = os.pipe()
        os.set_blocking(self._queue_write, False)
        indices = [*range(len(jobs)), *[_STOP] * self._workers]
        self._unqueued = b"".join(_INDEX.pack(i) for i in indices)
        try:
            self._fill_queue()
            for _ in range(self._workers):
                self._start_child()
        except BaseException:
            self.cancel()
            raise

    def _fill_queue(self) -> None:
        """Put as much of what is left to queue as the pipe takes now."""
        while self._unqueued:
            try:
                written = os.write(self._queue_write, self._unqueued[:_QUEUE_WRITE])
            except BlockingIOError:
                return
            self._unqueued = self._unqueued[written:]

    def _start_child(self) -> _Child:
        child = _start(self._jobs, self._queue_read, self._queue_write)
        self._children[child.results] = child
        return child

    def _replacements(self) -> list[_Child]:
        """A new child for each that died while jobs may wait in the queue (each
        with a stop of its own in the queue); at most one per job in all."""
        started: list[_Child] = []
        while (
            self._died
            and self._replaced < len(self._jobs)
            and self._work_left()
            and fork_is_safe()
        ):
            self._died -= 1
            self._replaced += 1
            self._unqueued += _INDEX.pack(_STOP)
            self._fill_queue()
            started.append(self._start_child())
        return started

    def _work_left(self) -> bool:
        """Whether a job may still wait in the queue: one without an outcome that
        no child is known to run."""
        running = {c.current for c in self._children.values()}
        return any(o is None and i not in running for i, o in enumerate(self._outcomes))

    def wait(self, *, until_a_failure: bool = False) -> list[Outcome[T]]:
        """The outcomes in the order of the jobs, once every job has ended; with
        ``until_a_failure``, once one has failed (raised, or its child died): the
        children are then stopped, and the jobs that did not end are ``"not
        run"``."""
        children = self._children
        try:
            with selectors.DefaultSelector() as selector:
                for fd in children:
                    selector.register(fd, selectors.EVENT_READ)
                while children:
                    queueing = bool(self._unqueued)
                    if queueing:  # the rest of the indices, as the queue drains
                        selector.register(self._queue_write, selectors.EVENT_WRITE)
                    for key, _ in selector.select():
                        if key.fd == self._queue_write:
                            self._fill_queue()
                        else:
                            self._read(selector, children[cast(int, key.fd)])
                    if queueing:
                        selector.unregister(self._queue_write)
                    if until_a_failure and self._a_job_failed():
                        break
                    # A child that died leaves its place to a new one; a job whose
                    # child died as it took it runs again.
                    for child in [*self._replacements(), *self._retries()]:
                        selector.register(child.results, selectors.EVENT_READ)
        except BaseException:  # Ctrl-C, say: the children end now, not after their job
            self.cancel()
            raise
        finally:
            self.cancel()
        return [o if o is not None else Outcome(died="not run") for o in self._outcomes]

    def _a_job_failed(self) -> bool:
        return any(
            o is not None and (o.error is not None or o.died is not None)
            for o in self._outcomes
        )

    def _retries(self) -> list[_Child]:
        """Once every child has ended: the jobs that no child ran (a child that
        died between taking one and saying so) go into the queue again, once,
        for a new child."""
        lost = [i for i, o in enumerate(self._outcomes) if o is None]
        if self._children or not lost or self._retried or not fork_is_safe():
            return []
        self._retried = True
        # No child is left to read the queue: empty it of the stops that the
        # children which died never took, so that the new child finds the jobs.
        os.set_blocking(self._queue_read, False)
        try:
            while os.read(self._queue_read, 1 << 16):
                pass
        except BlockingIOError:
            pass
        os.set_blocking(self._queue_read, True)
        self._unqueued = b"".join(_INDEX.pack(i) for i in [*lost, _STOP])
        self._fill_queue()
        return [self._start_child()]

    def cancel(self) -> None:
        """Stop every child now (killed, not waited for to finish its job)."""
        for child in self._children.values():
            try:
                os.kill(child.pid, signal.SIGKILL)
            except OSError:
                pass
            _end(child)
        self._children.clear()
        for fd in (self._queue_read, self._queue_write):
            try:
                os.close(fd)
            except OSError:
                pass
        self._queue_read = self._queue_write = -1

    def _read(self, selector: selectors.BaseSelector, child: _Child) -> None:
        data = os.read(child.results, 1 << 20)
        if data:
            child.buffer += data
            for kind, payload in _complete_frames(child):
                if kind == "started":
                    child.current = cast(int, payload)
                elif kind == "stopped":
                    child.stopped = True
                else:
                    assert child.current is not None
                    self._outcomes[child.current] = cast(Outcome[T], payload)
                    child.current = None
            return
        # The child ended: after its stop, or killed (by its job, say).
        selector.unregister(child.results)
        del self._children[child.results]
        outcome = _end(child)
        if child.current is not None:
            self._outcomes[child.current] = cast(Outcome[T], outcome)
        if not child.stopped:
            self._died += 1


def _complete_frames(child: _Child) -> list[tuple[str, object]]:
    """The frames the child has written whole so far: ``("started", index)``,
    ``("stopped", None)`` or ``("outcome", Outcome)``."""
    done: list[tuple[str, object]] = []
    while len(child.buffer) >= _LENGTH.size:
        (size,) = _LENGTH.unpack_from(child.buffer)
        if len(child.buffer) < _LENGTH.size + size:
            break
        frame = bytes(child.buffer[_LENGTH.size : _LENGTH.size + size])
        del child.buffer[: _LENGTH.size + size]
        try:
            kind, payload = pickle.loads(frame)
            if kind == "spilled":
                offset, length = cast(tuple[int, int], payload)
                kind, payload = pickle.loads(os.pread(child.spill, length, offset))
        except Exception as error:
            done.append(
                (
                    "outcome",
                    Outcome(died=f"its result could not be read back ({error})"),
                )
            )
            continue
        if kind == "value":
            done.append(("outcome", Outcome(value=payload)))
        elif kind == "error":
            done.append(("outcome", Outcome(error=payload)))
        else:
            done.append((kind, payload))
    return done


def _start(
    jobs: Sequence[Callable[[], object]], queue: int, queue_write: int
) -> _Child:
    errors_fd, spill_fd = _anonymous_file(), _anonymous_file()
    result_read, result_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        status = 1
        try:
            os.close(result_read)
            os.close(queue_write)  # the queue ends when this process's parent ends
            os.dup2(errors_fd, 2)
            # A job that kills its worker is reported by the parent; a Python
            # traceback of the worker (pytest enables faulthandler) says nothing
            # more.
            faulthandler.disable()
            global _in_child
            _in_child = True
            _serve(jobs, queue, result_write, spill_fd)
            status = 0
        finally:
            os._exit(status)
    os.close(result_write)
    return _Child(pid, result_read, errors_fd, spill_fd)


def _anonymous_file() -> int:
    """A descriptor of a temporary file that has no name."""
    file = tempfile.TemporaryFile()
    fd = os.dup(file.fileno())
    file.close()
    return fd


def _serve(  # pragma: no cover - runs in the child
    jobs: Sequence[Callable[[], object]], queue: int, results: int, spill: int
) -> None:
    while True:
        raw = _read_exactly(queue, _INDEX.size)
        if raw is None:
            return
        (index,) = _INDEX.unpack(raw)
        if index == _STOP:
            _send(results, spill, ("stopped", None))
            return
        _send(results, spill, ("started", index))
        os.ftruncate(2, 0)  # what the job says, and only that, if it dies
        os.lseek(2, 0, os.SEEK_SET)
        try:
            result: tuple[str, object] = ("value", jobs[index]())
        except Exception as error:
            result = ("error", error)
        _send(results, spill, result)


def _send(  # pragma: no cover - runs in the child
    results: int, spill: int, result: tuple[str, object]
) -> None:
    try:
        data = pickle.dumps(result)
    except Exception as error:  # an unpicklable result or exception
        data = pickle.dumps(("error", RuntimeError(f"{error}: {result[1]}")))
    if len(data) > _LARGEST_IN_PIPE:
        offset = os.lseek(spill, 0, os.SEEK_END)
        _write_all(spill, data)
        data = pickle.dumps(("spilled", (offset, len(data))))
    _write_all(results, _LENGTH.pack(len(data)) + data)


def _write_all(fd: int, data: bytes) -> None:  # pragma: no cover - in the child
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


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
    for fd in (child.results, child.spill):
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
