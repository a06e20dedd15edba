"""The token model of ``gpu-to-llvm``: which ``!gpu.async.token`` is a stream, which
an event, on which stream each op runs, and where a stream is provably dead.

As upstream, a token lowers to an ``!llvm.ptr`` that is a **stream** when it comes
from an ``mgpuStreamCreate`` (``gpu.wait async``; an async op with no dependency; an
async op whose stream is a stream), and an **event** otherwise (a function or block
argument, the result of an op this pass does not lower). :class:`StreamPlan` decides
this on the input IR, before anything is rewritten, so that it can also see every use
of a stream.

**Which stream an op runs on.** The first dependency that is a stream. Failing that,
an async op with exactly one dependency uses that dependency as its stream (upstream's
chain convention, which also lets a caller pass its stream to a callee). Otherwise the
op gets a new stream (a temporary one for a synchronous op). Every other dependency is
waited for as upstream's ``gpu.wait async`` waits: an event recorded on it right after
its definition when it is a stream, the token itself when it is an event; the stream
waits on the events (``mgpuStreamWaitEvent``), which are then destroyed.

**When a stream is destroyed.** ``gpu.wait [%t]`` synchronizes and destroys a stream,
as upstream. Beyond upstream, a stream is also destroyed right after its last use when
nothing else can: when every use of every token that lowers to it is a dependency of an
async op this pass lowers or of a synchronous runtime op (never a synchronous
``gpu.wait``, which destroys it itself, and never anything through which the token
escapes: a return, a branch, a yield, an unknown op), and all those uses sit in the
block that created the stream. After the last of those uses, in that block's order, no
work can be enqueued on the stream any more and every event recorded on it has been
recorded; ``cuStreamDestroy`` of a stream that still runs work returns at once and
frees it when the work is done, so nothing waits and nothing leaks. The typical case
is ``gpu.wait async [%a, %b]`` joining two streams (upstream leaks both).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import UnrealizedConversionCastOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import LaunchFuncOp
from xdsl_gpu.gpu_dialect.gpu.memory_ops import (
    AllocOp,
    DeallocOp,
    MemcpyOp,
    MemsetOp,
    WaitOp,
)
from xdsl_gpu.passes.gpu_to_llvm_patterns.runtime import PTR, RuntimeCalls
from xdsl_gpu.passes.llvm_type_converter import to_llvm

StreamOp = AllocOp | DeallocOp | MemcpyOp | MemsetOp | LaunchFuncOp
"""The ops that run on a stream (``gpu.wait`` only synchronizes)."""

STREAM_OPS = (AllocOp, DeallocOp, MemcpyOp, MemsetOp, LaunchFuncOp)


def _deps(op: StreamOp | WaitOp) -> Sequence[SSAValue]:
    return tuple(op.async_dependencies)


@dataclass
class StreamPlan:
    """What :func:`StreamPlan.analyze` learns from the input IR."""

    stream_of: dict[SSAValue, int] = field(default_factory=dict[SSAValue, int])
    """Each token that lowers to a stream → the id of that stream."""
    created_by: dict[Operation, int] = field(default_factory=dict[Operation, int])
    """The op that creates each stream (``mgpuStreamCreate`` in its lowering)."""
    destroy_after: dict[Operation, list[int]] = field(
        default_factory=dict[Operation, list[int]]
    )
    """The streams that die with each op (see the module docstring)."""

    @classmethod
    def analyze(cls, ops: Iterable[Operation]) -> StreamPlan:
        """The plan for ``ops`` (host code, in program order: a pre-order walk)."""
        plan = cls()
        for op in ops:
            if isinstance(op, WaitOp):
                if op.async_token is not None:
                    plan._new_stream(op, op.async_token)
            elif isinstance(op, STREAM_OPS) and op.async_token is not None:
                chosen = plan.chosen_dependency(op)
                if chosen is None:
                    plan._new_stream(op, op.async_token)
                elif chosen in plan.stream_of:
                    plan.stream_of[op.async_token] = plan.stream_of[chosen]
        plan._find_deaths()
        return plan

    def is_stream(self, token: SSAValue) -> bool:
        return token in self.stream_of

    def chosen_dependency(self, op: StreamOp) -> SSAValue | None:
        """The dependency whose stream ``op`` runs on (analysis time)."""
        return choose_dependency(op, self.is_stream)

    def _new_stream(self, op: Operation, token: SSAValue) -> None:
        stream = len(self.created_by)
        self.created_by[op] = stream
        self.stream_of[token] = stream

    def _find_deaths(self) -> None:
        tokens: dict[int, list[SSAValue]] = {}
        for token, stream in self.stream_of.items():
            tokens.setdefault(stream, []).append(token)
        positions: dict[Block, dict[Operation, int]] = {}
        for creator, stream in self.created_by.items():
            block = creator.parent_block()
            users = _users_in(block, tokens[stream])
            if block is None or users is None:
                continue
            if block not in positions:
                positions[block] = {o: i for i, o in enumerate(block.ops)}
            last = max([creator, *users], key=positions[block].__getitem__)
            self.destroy_after.setdefault(last, []).append(stream)


def _users_in(
    block: Block | None, tokens: Sequence[SSAValue]
) -> list[Operation] | None:
    """The users of ``tokens``, if they all sit in ``block`` and leave the stream
    alive (see :func:`_leaves_alive`); ``None`` otherwise."""
    users: list[Operation] = []
    for token in tokens:
        for use in token.uses:
            if use.operation.parent_block() is not block:
                return None
            if not _leaves_alive(use.operation, use.index):
                return None
            users.append(use.operation)
    return users


def choose_dependency(
    op: StreamOp, is_stream: Callable[[SSAValue], bool]
) -> SSAValue | None:
    """The dependency whose stream ``op`` runs on; ``None``: a new stream, or (a
    synchronous op without dependencies) whatever the op's lowering picks."""
    deps = _deps(op)
    for dep in deps:
        if is_stream(dep):
            return dep
    if len(deps) == 1 and op.async_token is not None:
        return deps[0]
    return None


def _leaves_alive(user: Operation, operand_index: int) -> bool:
    """Whether ``user`` uses a token only as a dependency that this pass lowers and
    that leaves the stream to be destroyed by someone else."""
    if isinstance(user, WaitOp):
        return user.async_token is not None
    if isinstance(user, STREAM_OPS):
        return operand_index < len(user.async_dependencies)
    return False


@dataclass
class Streams:
    """Builds the stream and event calls of each op, following a :class:`StreamPlan`."""

    plan: StreamPlan
    runtime: RuntimeCalls
    values: dict[int, SSAValue] = field(default_factory=dict[int, SSAValue])
    """The ``mgpuStreamCreate`` result of each planned stream, once built."""

    def is_stream(self, dep: SSAValue) -> bool:
        """Whether a dependency, at lowering time, is a stream: its converted value
        is an ``mgpuStreamCreate`` result (upstream's ``isDefinedByCallTo``; the
        :class:`StreamPlan` made the same decision on the input IR)."""
        value = dep
        owner = value.owner
        if isinstance(owner, UnrealizedConversionCastOp) and len(owner.inputs) == 1:
            value = owner.inputs[0]
        call = value.owner
        return (
            isinstance(call, llvm.CallOp)
            and call.callee is not None
            and call.callee.string_value() == "mgpuStreamCreate"
        )

    def create(self, rewriter: PatternRewriter, op: Operation) -> SSAValue:
        """``mgpuStreamCreate()``; the stream of ``op`` if the plan has one."""
        stream = self.runtime.call(rewriter, op, "mgpuStreamCreate", [])
        assert stream is not None
        if (planned := self.plan.created_by.get(op)) is not None:
            self.values[planned] = stream
        return stream

    def event_of(
        self, rewriter: PatternRewriter, op: Operation, dep: SSAValue
    ) -> SSAValue:
        """An event for ``dep``: recorded on it right after its definition when it is
        a stream (upstream's placement), the token itself when it is an event."""
        value = to_llvm(dep, PTR, rewriter)
        owner = dep.owner
        if not self.is_stream(dep) or not isinstance(owner, Operation):
            return value
        event = self.runtime.call(rewriter, op, "mgpuEventCreate", [], owner)
        assert event is not None
        record_after = event.owner
        assert isinstance(record_after, Operation)
        self.runtime.call(rewriter, op, "mgpuEventRecord", [event, value], record_after)
        return event

    def wait_for(
        self,
        rewriter: PatternRewriter,
        op: Operation,
        stream: SSAValue,
        deps: Sequence[SSAValue],
    ) -> None:
        """Make ``stream`` wait for ``deps``; the events are destroyed after."""
        events = [self.event_of(rewriter, op, dep) for dep in deps]
        for event in events:
            self.runtime.call(rewriter, op, "mgpuStreamWaitEvent", [stream, event])
        for event in events:
            self.runtime.call(rewriter, op, "mgpuEventDestroy", [event])

    def acquire(
        self, rewriter: PatternRewriter, op: StreamOp
    ) -> tuple[SSAValue | None, bool]:
        """The stream ``op`` runs on, after it waits for every other dependency, and
        whether it is a temporary stream (created for a synchronous op: the caller
        synchronizes and destroys it). ``None`` for a synchronous op without
        dependencies: its lowering chooses."""
        deps = _deps(op)
        chosen = choose_dependency(op, self.is_stream)
        if chosen is not None:
            stream = to_llvm(chosen, PTR, rewriter)
            self.wait_for(rewriter, op, stream, [d for d in deps if d is not chosen])
            return stream, False
        if op.async_token is None and not deps:
            return None, False
        stream = self.create(rewriter, op)
        self.wait_for(rewriter, op, stream, deps)
        return stream, op.async_token is None

    def temporary(self, rewriter: PatternRewriter, op: Operation) -> SSAValue:
        """A stream for a synchronous op without dependencies."""
        return self.create(rewriter, op)

    def settle(
        self,
        rewriter: PatternRewriter,
        op: StreamOp,
        stream: SSAValue | None,
        temporary: bool,
    ) -> None:
        """After ``op`` is enqueued: a synchronous op with a stream blocks until the
        stream is done (and a temporary stream goes); planned deaths follow."""
        if stream is not None and op.async_token is None:
            self.runtime.call(rewriter, op, "mgpuStreamSynchronize", [stream])
            if temporary:
                self.runtime.call(rewriter, op, "mgpuStreamDestroy", [stream])
        self.finish(rewriter, op)

    def finish(self, rewriter: PatternRewriter, op: Operation) -> None:
        """Destroy the streams whose last use is ``op``."""
        for planned in self.plan.destroy_after.get(op, ()):
            self.runtime.call(rewriter, op, "mgpuStreamDestroy", [self.values[planned]])
