"""``gpu-lower-to-nvvm-pipeline``'s parallel schedule: after kernel outlining, the
``gpu.module``\\ s are lowered and serialized in forked workers while this process
lowers the host code.

Once ``gpu-kernel-outlining`` has run, device code and host code share nothing but
symbol names: a ``gpu.module`` is isolated from above, and the host names its
kernels. The rest of the pipeline then splits into two programs:

* the *device part*, runs of consecutive ``gpu.module``\\ s, each in a module of
  its own (a copy of the top-level module's attributes around them): the
  top-level steps (:attr:`Part.BOTH`), the ``gpu.module(...)`` steps (:attr:`Part.DEVICE`) and
  ``gpu-module-to-binary`` (:attr:`Part.SERIALIZE`), which leaves a ``gpu.binary``;
* the *host part*, each ``gpu.module`` replaced by an empty stand-in (same name,
  targets and attributes): the top-level steps and the host-only ones
  (``gpu-to-llvm`` and every step after ``gpu-module-to-binary``,
  :attr:`Part.HOST`). Then each stand-in is replaced by the ops its module became.

Steps after ``gpu-module-to-binary`` thus run before the binaries are in place;
those of the pipeline (``convert-math-to-llvm``, ``canonicalize``, ``cse``,
``reconcile-unrealized-casts``) do not look at a kernel's module, whatever it is.

mlir-opt runs nested pass pipelines on threads; Python threads would not run
passes at once, so the device part runs in forked workers
(``xdsl_gpu/forked_jobs.py``; ``XDSL_GPU_JOBS`` of them, each taking the
next run of modules when done with one), which send their ``gpu.binary``\\ s
back as text, while this process lowers the host part.

The output is the sequential schedule's, byte for byte
(``tests/passes/test_parallel_device_lowering.py`` compares the two on every GPU
program of the test corpus). Whatever goes wrong here (a diagnostic, a crash, a
worker that died), the schedule gives up, puts the input back and says so; the
pipeline then runs sequentially and reports the error exactly as it always has.
The schedule is used only where forking is safe (one thread), with more than one
job, and not when every step is verified (``XDSL_GPU_VERIFY_EACH=full``, as in the
test suite).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum, auto

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Block, Operation
from xdsl.parser import Parser
from xdsl.printer import Printer

from xdsl_gpu.forked_jobs import default_jobs, fork_is_safe, start_jobs
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import LaunchOp
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import ModuleOp as GPUModuleOp
from xdsl_gpu.passes.pipeline_verification import ParseAgain, verify_in_two

__all__ = [
    "SMALLEST_SPLIT",
    "ParallelRun",
    "ParallelScheduleWarning",
    "Part",
    "device_op_count",
    "parallel_schedule_possible",
    "run_parallel",
    "worth_splitting",
]


class Part(Enum):
    """Which part of a split program a pipeline step runs on."""

    WHOLE = auto()
    """Before the split (up to kernel outlining): the whole program."""
    BOTH = auto()
    """A top-level step: on the host part and on each device module."""
    DEVICE = auto()
    """A ``gpu.module(...)`` step: on each device module only."""
    HOST = auto()
    """A step that leaves ``gpu.module``\\ s alone, or runs after they are gone
    (here: before the binaries are put in place)."""
    SERIALIZE = auto()
    """``gpu-module-to-binary``: on each device module, then the host part takes
    the binaries."""


WORKER_TEXT = "<xdsl-gpu worker>"
"""The name the workers' text is parsed under (what marks a location from it)."""

StepRun = Callable[[ModuleOp], object]
"""What runs one step on a module."""


def parallel_schedule_possible() -> bool:
    """Whether this process may fork workers and is asked to use more than one."""
    return default_jobs() > 1 and fork_is_safe()


@dataclass(frozen=True)
class ParallelRun:
    """How :func:`run_parallel` ended: done (true), or not; then ``gave_up`` says
    why when the schedule was tried and failed (``None``: it does not apply)."""

    done: bool
    gave_up: str | None = None

    def __bool__(self) -> bool:
        return self.done


class ParallelScheduleWarning(RuntimeWarning):
    """The parallel schedule gave up on a program that then compiled step after
    step: the output is the same, only slower. It should not happen (a program's
    own error fails both ways), so it is worth a report."""


def run_parallel(
    ctx: Context,
    module: ModuleOp,
    steps: Sequence[tuple[Part, StepRun]],
    parse_again: ParseAgain | None = None,
) -> ParallelRun:
    """Run ``steps`` on ``module`` with the parallel schedule and verify the result;
    not done (and ``module`` as it was) when that did not succeed, for any reason,
    or does not apply (the parts are not in the order ``WHOLE* (BOTH|DEVICE|HOST)*
    SERIALIZE HOST*``, or the program has no ``gpu.module``)."""
    if not _splittable([part for part, _ in steps]) or not worth_splitting(module):
        return ParallelRun(False)
    # The input, to put back should the schedule fail: parsed again where it is
    # xdsl-opt's text (``parse_again``, pipeline_verification.take_input_text),
    # else a copy.
    snapshot = module.clone() if parse_again is None else None
    try:
        attempt = _run(ctx, module, steps)
    except Exception as error:
        attempt = ParallelRun(False, _described(error))
    if not attempt:
        if snapshot is None:
            assert parse_again is not None
            snapshot = parse_again()
            if snapshot is None:  # the text parsed before: it does again
                raise RuntimeError(
                    "internal error: the parallel schedule gave up "
                    f"({attempt.gave_up}) and the input could not be parsed again "
                    "to compile it step after step; please report it with this "
                    "input (XDSL_GPU_JOBS=1 compiles it meanwhile)"
                )
        _restore(module, snapshot)
    return attempt


def _described(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


SMALLEST_SPLIT = 300
"""The fewest ops of device code (in ``gpu.module``\\ s and ``gpu.launch`` bodies)
that the schedule is used for, and the fewest beside the largest kernel
(:func:`worth_splitting`). Each worker pays once what this process has paid
already (the first use of each op class, pattern and format, LLVM's loading: ~0.1 s
of CPU time); below this size that costs more than the parallel lowering saves
(seed 002, 57 device ops: 0.53 s step after step, 0.65 s with two workers on two
CPUs), above it the workers win (8 copies of seed 002, 456 device ops, served cold
on a quiet 2-CPU machine: 0.552 s with 1000 here, step after step; 0.392 s with
300, in parallel; ``benchmarks/bench_compile.py``)."""


def device_op_count(module: ModuleOp) -> int:
    """The ops in ``module``'s ``gpu.module``\\ s and in its ``gpu.launch`` bodies
    (which outlining makes ``gpu.module``\\ s of)."""
    return sum(_kernel_sizes(module))


def _kernel_sizes(module: ModuleOp) -> list[int]:
    """The ops of each ``gpu.module`` and ``gpu.launch`` of ``module``."""
    return [
        sum(1 for _ in op.walk())
        for op in module.walk()
        if isinstance(op, GPUModuleOp | LaunchOp)
    ]


def worth_splitting(module: ModuleOp) -> bool:
    """Whether ``module`` has device code enough for the parallel schedule (at
    least :data:`SMALLEST_SPLIT` ops), and as much beside its largest kernel: the
    largest kernel is lowered in one worker whatever happens, so only the ops
    beside it (the host's, the other kernels') are lowered in parallel with it.
    One kernel of 4000 ops in a small host gains nothing from the schedule and
    pays for it (a copy of the input, a fork, the text sent back: 0.53 s served
    cold on 2 CPUs, 0.50 s step after step; ``benchmarks/bench_compile.py``)."""
    sizes = _kernel_sizes(module)
    if sum(sizes) < SMALLEST_SPLIT:
        return False
    every_op = sum(1 for _ in module.walk())
    return every_op - max(sizes) >= SMALLEST_SPLIT


def _splittable(parts: Sequence[Part]) -> bool:
    serialize = [i for i, part in enumerate(parts) if part is Part.SERIALIZE]
    if len(serialize) != 1:
        return False
    split = next(i for i, part in enumerate(parts) if part is not Part.WHOLE)
    return (
        Part.WHOLE not in parts[split:]
        and split <= serialize[0]
        and all(part is Part.HOST for part in parts[serialize[0] + 1 :])
    )


def _run(
    ctx: Context, module: ModuleOp, steps: Sequence[tuple[Part, StepRun]]
) -> ParallelRun:
    whole = [run for part, run in steps if part is Part.WHOLE]
    rest = [(part, run) for part, run in steps if part is not Part.WHOLE]
    for run in whole:
        run(module)
    device_modules = [op for op in module.ops if isinstance(op, GPUModuleOp)]
    if not device_modules:
        return ParallelRun(False)  # nothing was outlined: nothing to split
    stand_ins = [_stand_in(m) for m in device_modules]
    device_steps = [run for part, run in rest if part is not Part.HOST]
    workers = default_jobs()
    chunks = _chunks(device_modules, workers)
    jobs = [
        _device_job(module, [device_modules[i] for i in chunk], device_steps)
        for chunk in chunks
    ]
    # Every worker is forked now, with every job: a job runs in this process's
    # present state whichever worker takes it.
    running = start_jobs(jobs, workers)
    try:
        for part, run in rest:
            if part in (Part.BOTH, Part.HOST):
                run(module)
        outcomes = running.wait(until_a_failure=True)  # then it is all in vain
    finally:
        running.cancel()
    for outcome in outcomes:
        # An error or a dead worker: the sequential run reports it.
        if outcome.error is not None:
            return ParallelRun(False, f"a worker failed: {_described(outcome.error)}")
        if outcome.value is None:
            return ParallelRun(False, f"a worker ended: {outcome.died}")
    for chunk, outcome in zip(chunks, outcomes, strict=True):
        assert outcome.value is not None
        if not _put_binaries(ctx, [stand_ins[i] for i in chunk], outcome.value):
            why = "a worker's result is not one op per gpu.module, named as it"
            return ParallelRun(False, why)
    verify_in_two(module)  # as the sequential schedule does at its end
    return ParallelRun(True)


def _stand_in(device_module: GPUModuleOp) -> GPUModuleOp:
    """Put an empty copy of ``device_module`` (name, targets, attributes) in its
    place, and return it; ``device_module`` is left detached."""
    stand_in = device_module.clone_without_regions()
    stand_in.body.add_block(Block())
    parent = device_module.parent_block()
    assert parent is not None
    parent.insert_op_before(stand_in, device_module)
    parent.detach_op(device_module)
    return stand_in


CHUNKS_PER_WORKER = 2
"""Into how many runs of modules each worker's part of the work is cut."""


def _chunks(device_modules: Sequence[GPUModuleOp], workers: int) -> list[list[int]]:
    """The modules' indices in runs of consecutive modules, of about equal size (in
    ops), :data:`CHUNKS_PER_WORKER` per worker; a worker takes the next run when it
    is done with one. (One share per worker fixed in advance left a worker idle
    for a fifth of the time: kernels of equal size may take unequal time.)"""
    sizes = [sum(1 for _ in m.walk()) for m in device_modules]
    count = min(len(sizes), workers * CHUNKS_PER_WORKER)
    total = sum(sizes)
    chunks: list[list[int]] = [[] for _ in range(count)]
    before = 0
    for index, size in enumerate(sizes):
        chunks[min(count - 1, before * count // total)].append(index)
        before += size
    return [chunk for chunk in chunks if chunk]


def _device_job(
    top: ModuleOp, chunk: Sequence[GPUModuleOp], device_steps: Sequence[StepRun]
) -> Callable[[], str]:
    """In a worker: lower and serialize the (detached) modules of ``chunk``, in one
    copy of the top-level module that holds them alone, in program order; its
    text. One holder for several modules, not one per module: a step's set-up is
    paid once per run of modules."""

    def run() -> str:
        holder = top.clone_without_regions()
        holder.body.add_block(Block(chunk))
        for step in device_steps:
            step(holder)
        out = io.StringIO()
        Printer(stream=out, print_debuginfo=True).print_op(holder)
        return out.getvalue()

    return run


def _put_binaries(ctx: Context, stand_ins: Sequence[GPUModuleOp], text: str) -> bool:
    """Replace each stand-in by the op its device module became, read from a
    worker's ``text``: one op per module, named as the module, in order (else
    False: the schedule gives up). Their locations travel in the text (printed
    with debug info); an op that comes back with a position in that text instead
    (it was printed without a location) gets ``UnknownLoc``: no diagnostic may
    point into the workers' text."""
    holder = Parser(ctx, text, WORKER_TEXT).parse_module()
    results = list(holder.ops)
    if [_symbol(op) for op in results] != [_symbol(m) for m in stand_ins]:
        return False
    for op in holder.walk():
        loc = op.location
        if isinstance(loc, FileLineColLoc) and loc.filename.data == WORKER_TEXT:
            op.location = UnknownLoc()
    for result, stand_in in zip(results, stand_ins, strict=True):
        holder.body.block.detach_op(result)
        parent = stand_in.parent_block()
        assert parent is not None
        parent.insert_op_before(result, stand_in)
        parent.erase_op(stand_in)
    return True


def _symbol(op: Operation) -> str | None:
    name = op.attributes.get("sym_name") or op.properties.get("sym_name")
    return name.data if isinstance(name, StringAttr) else None


def _restore(module: ModuleOp, snapshot: ModuleOp) -> None:
    """Make ``module`` what ``snapshot`` is (``snapshot`` is used up)."""
    block = module.body.block
    for op in list(block.ops):
        block.detach_op(op)
    for op in list(snapshot.ops):
        snapshot.body.block.detach_op(op)
        block.add_op(op)
    module.attributes.clear()
    module.attributes.update(snapshot.attributes)
    module.properties.clear()
    module.properties.update(snapshot.properties)
