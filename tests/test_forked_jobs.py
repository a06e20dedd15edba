"""Jobs in forked children (``xdsl_gpu/forked_jobs.py``): results in the
jobs' order, exceptions and crashes as outcomes, the fallback without fork, jobs
started to run while this process works, and cancelled."""

from __future__ import annotations

import os
import signal
import time

import pytest

from xdsl_gpu import forked_jobs
from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.forked_jobs import default_jobs, run_jobs, start_jobs

# These tests fork: skipped, with the reason, where this process may not
# (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("forking_is_safe")


def _sleep_then(value: int, seconds: float):
    def job() -> int:
        time.sleep(seconds)
        return value

    return job


def test_outcomes_in_job_order() -> None:
    # The later jobs finish first.
    jobs = [_sleep_then(i, 0.05 * (4 - i)) for i in range(5)]
    outcomes = run_jobs(jobs, 3)
    assert [o.value for o in outcomes] == [0, 1, 2, 3, 4]


def test_large_results_come_back_whole() -> None:
    outcomes = run_jobs([lambda: b"x" * 5_000_000, lambda: "y" * 100_000], 2)
    assert outcomes[0].value == b"x" * 5_000_000
    assert outcomes[1].value == "y" * 100_000


def test_errors_and_crashes_are_outcomes() -> None:
    def fails() -> None:
        raise UserError("fix the input")

    def crashes() -> None:
        # As LLVM does: straight to file descriptor 2, then abort.
        os.write(2, b"LLVM ERROR: Cannot select: intrinsic\n")
        os.abort()

    outcomes = run_jobs([fails, crashes, lambda: 3], 2)
    assert isinstance(outcomes[0].error, UserError)
    assert str(outcomes[0].error) == "fix the input"
    assert outcomes[1].died == "LLVM ERROR: Cannot select: intrinsic"
    assert outcomes[2].value == 3


def test_silent_crash_says_how_it_ended() -> None:
    (outcome,) = run_jobs([lambda: os.kill(os.getpid(), 9)], 1)
    assert outcome.died == "the process was ended by signal 9"


def test_without_fork_jobs_run_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked_jobs, "fork_is_safe", lambda: False)
    parent = os.getpid()
    outcomes = run_jobs([os.getpid, os.getpid], 4)
    assert [o.value for o in outcomes] == [parent, parent]
    # One worker, not isolated: in this process too.
    monkeypatch.undo()
    assert run_jobs([os.getpid], 1, isolate=False)[0].value == parent
    assert run_jobs([os.getpid], 1)[0].value != parent


def test_jobs_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDSL_GPU_JOBS", "5")
    assert default_jobs() == 5
    for ignored in ("0", "-2", "many"):
        monkeypatch.setenv("XDSL_GPU_JOBS", ignored)
        assert default_jobs() == len(os.sched_getaffinity(0))


def test_started_jobs_run_while_this_process_works() -> None:
    """``start_jobs`` returns before its jobs end: here the job waits for a byte
    that this process writes only after the start (it would hang otherwise; the
    alarm ends the test then)."""
    read_end, write_end = os.pipe()
    previous = signal.signal(signal.SIGALRM, signal.default_int_handler)
    signal.alarm(20)
    try:
        running = start_jobs([lambda: os.read(read_end, 1), lambda: 7], 2)
        os.write(write_end, b"x")
        assert [o.value for o in running.wait()] == [b"x", 7]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        os.close(read_end)
        os.close(write_end)


def test_cancel_ends_the_children_at_once() -> None:
    running = start_jobs([lambda: time.sleep(60)], 1)
    (child,) = running._children.values()  # pyright: ignore[reportPrivateUsage]
    started = time.monotonic()
    running.cancel()
    assert time.monotonic() - started < 10
    with pytest.raises(ChildProcessError):  # reaped: no such child any more
        os.waitpid(child.pid, os.WNOHANG)


def test_a_child_runs_its_own_single_job_itself() -> None:
    """In a child, one job needs no grandchild to be isolated: a crash there ends
    the child, which its parent reports."""

    def inner() -> tuple[int, int]:
        (outcome,) = run_jobs([os.getpid], 1)
        assert outcome.value is not None
        return os.getpid(), outcome.value

    (outcome,) = run_jobs([inner], 1)
    assert outcome.value is not None
    child, inner_pid = outcome.value
    assert child == inner_pid != os.getpid()


def test_an_interrupt_while_waiting_ends_the_children_at_once() -> None:
    """Ctrl-C during ``wait`` (here: SIGALRM raising KeyboardInterrupt) kills the
    children instead of waiting for their jobs to end."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    running = start_jobs([lambda: time.sleep(60)], 1)
    (child,) = running._children.values()  # pyright: ignore[reportPrivateUsage]
    started = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            running.wait()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - started < 10
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)


def test_children_take_the_next_job_while_this_process_is_busy() -> None:
    """A child done with a job starts the next from the queue without this process
    handing it out (it is busy elsewhere, not waiting), even when the job's result
    is larger than a pipe holds."""
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)

    def job(index: int):
        def run() -> bytes:
            os.write(write_end, bytes([index]))
            return b"r" * 1_000_000  # more than a pipe takes while nobody reads

        return run

    running = start_jobs([job(i) for i in range(6)], 2)
    deadline = time.monotonic() + 20
    seen = b""
    while len(seen) < 6 and time.monotonic() < deadline:  # no wait() here
        try:
            seen += os.read(read_end, 16)
        except BlockingIOError:
            time.sleep(0.01)
    try:
        assert sorted(seen) == list(range(6))
        assert [o.value for o in running.wait()] == [b"r" * 1_000_000] * 6
    finally:
        running.cancel()
        os.close(read_end)
        os.close(write_end)


def test_a_child_that_dies_is_replaced_and_the_rest_run() -> None:
    def dies() -> None:
        os._exit(3)

    outcomes = run_jobs([dies, dies, *[_sleep_then(i, 0.01) for i in range(6)]], 2)
    assert outcomes[0].died is not None
    assert outcomes[1].died is not None
    assert [o.value for o in outcomes[2:]] == list(range(6))


def test_more_jobs_than_the_queue_takes_at_once() -> None:
    """Job indices beyond the pipe's first fill go into the queue as it drains."""
    count = 20_000  # 80 kB of indices: more than a pipe holds
    outcomes = run_jobs([lambda i=i: i for i in range(count)], 2)
    assert [o.value for o in outcomes] == list(range(count))


def test_a_job_whose_child_died_as_it_took_it_runs_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A child that dies between taking a job from the queue and saying which one
    it took (the OOM killer, say) leaves that job to a new child."""
    send = forked_jobs._send  # pyright: ignore[reportPrivateUsage]
    read_end, write_end = os.pipe()  # the first child to take job 1 dies

    def dies_taking_job_1(results: int, spill: int, frame: tuple[str, object]) -> None:
        if frame == ("started", 1):
            os.set_blocking(read_end, False)
            try:
                first = os.read(read_end, 1)
            except BlockingIOError:
                first = b""
            if first:
                os.kill(os.getpid(), signal.SIGKILL)
        send(results, spill, frame)

    monkeypatch.setattr(forked_jobs, "_send", dies_taking_job_1)
    os.write(write_end, b"x")
    try:
        outcomes = run_jobs([lambda i=i: i for i in range(4)], 2)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert [o.value for o in outcomes] == [0, 1, 2, 3]


def test_waiting_until_a_failure_stops_the_rest() -> None:
    def fails() -> None:
        raise UserError("no")

    running = start_jobs([fails, *[_sleep_then(i, 30) for i in range(3)]], 2)
    started = time.monotonic()
    outcomes = running.wait(until_a_failure=True)
    assert time.monotonic() - started < 20
    assert isinstance(outcomes[0].error, UserError)
    assert all(o.died == "not run" for o in outcomes[2:])


def test_a_job_that_returns_none_is_no_failure() -> None:
    running = start_jobs([lambda: None, _sleep_then(1, 0.2)], 1)
    assert [o.value for o in running.wait(until_a_failure=True)] == [None, 1]
