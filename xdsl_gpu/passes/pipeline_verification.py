"""When ``gpu-lower-to-nvvm-pipeline`` verifies the IR: once at the end, and after
every step only to find the step to blame.

mlir-opt verifies after every pass (``-verify-each``) so that invalid IR is reported
at the pass that made it. In xDSL a verification costs about what the pass does, and
the pipeline has 23 steps: verifying after each was a third of a large compile. The
passes are ours and tested to leave valid IR, so the pipeline verifies the result
once and, only when that fails or a step fails with an internal error (a crash on IR
an earlier step broke, say), runs the steps again on a copy of its input with a
verification after each, and reports the first step whose output is invalid, with
the note that names it, as ``-verify-each`` would. A user's error (a diagnostic
from a pass: an unsupported op, a bad option) is reported at once, as it does not
need the replay.

The copy of the input costs ~9 µs an op before the first step. Where the input is
the text ``xdsl-opt`` has just parsed (the pipeline is its first pass), the copy is
not made: on a failure the input is parsed again (:func:`input_as_text`, offered by
``compat.first_pass_input_as_text``), to the same IR.

``XDSL_GPU_VERIFY_EACH=full`` (or ``1``/``true``) verifies after every step in the
first run, as the test suite does (``tests/conftest.py``, ``tests/filecheck/lit.cfg``):
a step that leaves invalid IR which a later step happens to lower away is caught
there.
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import accumulate

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from xdsl_gpu.passes.ir_snapshot import snapshot
from xdsl_gpu.passes.ir_walk import preorder

__all__ = [
    "ParseAgain",
    "Step",
    "input_as_text",
    "run_steps",
    "take_input_text",
    "verify_after_each_step",
    "verify_in_two",
]


def verify_after_each_step() -> bool:
    """Whether ``XDSL_GPU_VERIFY_EACH`` asks for a verification after every step."""
    return os.environ.get("XDSL_GPU_VERIFY_EACH", "").strip().lower() in (
        "full",
        "1",
        "true",
    )


Step = tuple[str, Callable[[ModuleOp], bool]]
"""A step's name, for the note, and what runs it: it returns whether it may have
changed the IR (a check-only step does not)."""


_PARSE_AGAIN: dict[int, tuple[Operation, Callable[[], Operation | None]]] = {}
"""Per module (by id, with the module to tell a reused id): how to get it again as
it is now, by parsing its text (:func:`input_as_text`)."""


@contextmanager
def input_as_text(
    first_pass: object, module: Operation, parse_again: Callable[[], Operation | None]
) -> Iterator[None]:
    """While ``first_pass`` runs on ``module`` (just parsed): if that pass verifies
    its result this way (``gpu-lower-to-nvvm-pipeline``), it takes
    ``parse_again`` (:func:`take_input_text`) to get its input again should it
    need it, instead of copying it first. Any other pass: nothing changes."""
    if getattr(first_pass, "verifies_its_result", False) is not True:
        yield
        return
    _PARSE_AGAIN[id(module)] = (module, parse_again)
    try:
        yield
    finally:
        _PARSE_AGAIN.pop(id(module), None)


ParseAgain = Callable[[], ModuleOp | None]
"""The input of a pipeline parsed again from its text (None if it cannot be)."""


def take_input_text(module: Operation) -> ParseAgain | None:
    """How to get ``module`` again by parsing its text, where :func:`input_as_text`
    offers it; None otherwise. Taken once, by the first run of a pipeline on the
    module: a later run in the same ``-p`` gets the first one's result, not the
    text."""
    offered = _PARSE_AGAIN.pop(id(module), None)
    if offered is None or offered[0] is not module:
        return None
    parse_again = offered[1]
    return lambda: _parsed_again(parse_again)


def run_steps(
    module: ModuleOp,
    steps: Sequence[Step],
    pipeline: str,
    parse_again: ParseAgain | None = None,
) -> None:
    """Run ``steps`` on ``module`` in order and verify the result, as the module
    docstring says. An error gets the note ``in <pipeline>, pass i/n: <step>``.
    ``parse_again`` (:func:`take_input_text`): the input is parsed again should
    the steps need replaying, instead of copied first."""
    if verify_after_each_step():
        _run(module, steps, pipeline, verify_each=True)
        return
    copy = snapshot(module) if parse_again is None else None
    try:
        _run(module, steps, pipeline, verify_each=False)
        verify_in_two(module)
    except Exception as error:
        if isinstance(error, DiagnosticException) and not isinstance(
            error, VerifyException
        ):
            raise  # a user's error, reported by the step that found it
        if copy is None and parse_again is not None:
            copy = parse_again()
        blamed = None if copy is None else _first_invalid_step(copy, steps, pipeline)
        if blamed is None:
            raise
        raise blamed from None


def _parsed_again(
    parse_again: Callable[[], Operation | None] | None,
) -> ModuleOp | None:
    """The input parsed again; None if it cannot be (the first error is then the
    one to report)."""
    if parse_again is None:
        return None
    try:
        again = parse_again()
    except Exception:
        return None
    return again if isinstance(again, ModuleOp) else None


def _run(
    module: ModuleOp, steps: Sequence[Step], pipeline: str, *, verify_each: bool
) -> None:
    for index, (name, run) in enumerate(steps, 1):
        try:
            if run(module) and verify_each:
                module.verify()
        except DiagnosticException as e:
            e.add_note(_note(pipeline, index, len(steps), name))
            raise


def _first_invalid_step(
    module: ModuleOp, steps: Sequence[Step], pipeline: str
) -> VerifyException | None:
    """The verification error after the first step that leaves ``module`` invalid,
    with its note; None if every step's output verifies or a step fails first
    (the first run's error is then the one to report)."""
    for index, (name, run) in enumerate(steps, 1):
        try:
            if not run(module):
                continue
        except Exception:
            return None
        try:
            module.verify()
        except VerifyException as e:
            e.add_note(_note(pipeline, index, len(steps), name))
            return e
    return None


def _note(pipeline: str, index: int, count: int, name: str) -> str:
    return f"in {pipeline}, pass {index}/{count}: {name}"


SPLIT_VERIFICATION_FROM = 2000
"""Ops from which :func:`verify_in_two` shares the work with a child: below, a
fork costs more than it saves."""


def verify_in_two(module: ModuleOp) -> None:
    """``module.verify()``, its top-level ops shared with a forked child: the
    child verifies the first ones (about half of the ops) while this process
    verifies the module op and the rest. The final verification of a large program
    runs on one CPU otherwise (64 copies of seed 002: 0.20 s, 0.12 s in two). Any
    failure, on either side, and this process verifies the whole module itself,
    so that the error is the one ``module.verify()`` reports. A small module, one
    job, or a process where forking is not safe: ``module.verify()``."""
    from xdsl_gpu.forked_jobs import default_jobs, fork_is_safe, start_jobs

    block = module.body.block
    ops = list(block.ops)
    ends = list(accumulate(len(preorder(op)) for op in ops))
    if (
        len(ops) < 2
        or ends[-1] < SPLIT_VERIFICATION_FROM
        or default_jobs() < 2
        or not fork_is_safe()
    ):
        module.verify()
        return
    first = min(max(bisect_left(ends, ends[-1] / 2), 1), len(ops) - 1)

    def verify(part: Sequence[Operation]) -> bool:
        for op in part:
            if op.parent is not block:  # as Block.verify checks
                raise VerifyException(f"{op.name} is not in the module's block")
            op.verify()
        return True

    running = start_jobs([lambda: verify(ops[:first])], 1)
    try:
        module.verify(verify_nested_ops=False)
        verify(ops[first:])
        (outcome,) = running.wait()
    except Exception:
        running.cancel()
        module.verify()  # the error, as a whole verification finds it first
        raise
    if outcome.value is not True:
        module.verify()
        raise VerifyException(  # pragma: no cover - the child failed, this did not
            f"the module does not verify in a worker ({outcome.error or outcome.died})"
        )
