"""``gpu-launch-sink-index-computations``: copy the cheap values that a ``gpu.launch``
body uses from outside (constants, ``memref.dim``, ``arith.select``, ``arith.cmpi``)
into the body, so that outlining does not turn them into kernel arguments (upstream's
``GpuLaunchSinkIndexComputationsPass`` in ``KernelOutlining.cpp``).

The helpers here (:func:`used_values_defined_above`,
:func:`sink_operations_into_launch`) are shared with ``gpu-kernel-outlining``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike

from xdsl_gpu.gpu_dialect.gpu.kernel_ops import LaunchOp
from xdsl_gpu.passes.ir_walk import region_postorder


def is_inside(op: Operation, region: Region) -> bool:
    """Whether ``op`` is nested (at any depth) in ``region``."""
    current: Region | None = op.parent_region()
    while current is not None:
        if current is region:
            return True
        parent = current.parent_op()
        current = parent.parent_region() if parent is not None else None
    return False


def used_values_defined_above(region: Region) -> list[SSAValue]:
    """The values that ops of ``region`` use but that are defined outside it, in the
    order of first use when the ops are walked children first (upstream
    ``getUsedValuesDefinedAbove``, whose walk is post-order); no duplicates."""
    ops = region_postorder(region)  # region.walk(region_first=True), as a list
    inner_blocks = {
        id(b) for op in ops if op.regions for r in op.regions for b in r.blocks
    }
    inner_blocks.update(id(b) for b in region.blocks)
    found: dict[SSAValue, None] = {}
    for op in ops:
        for operand in op.operands:
            owner = operand.owner
            block = owner if isinstance(owner, Block) else owner.parent
            if block is None or id(block) not in inner_blocks:
                found.setdefault(operand, None)
    return list(found)


def is_likely_an_index_computation(op: Operation) -> bool:
    """Upstream's rule for what is worth copying into a kernel: constants,
    ``memref.dim``, ``arith.select`` and ``arith.cmpi`` (all free of side effects, so
    duplicating them is legal)."""
    return op.has_trait(ConstantLike) or isinstance(
        op, memref.DimOp | arith.SelectOp | arith.CmpiOp
    )


def _extract_beneficiary_ops(
    op: Operation,
    existing: dict[SSAValue, None],
    to_sink: dict[Operation, None],
    available: set[SSAValue],
    beneficial: Callable[[Operation], bool],
) -> bool:
    """Whether ``op`` can be copied into the kernel without adding an argument; if
    so, it and the ops it needs are appended to ``to_sink``, defs before uses.

    An operand is fine when it is already available inside, when the launch body
    uses it anyway (``existing``), or when its own def can be sunk."""
    if op in to_sink:
        return True
    if not beneficial(op):
        return False
    for operand in op.operands:
        if operand in available:
            continue
        owner = operand.owner
        sunk = isinstance(owner, Operation) and _extract_beneficiary_ops(
            owner, existing, to_sink, available, beneficial
        )
        if not sunk and operand not in existing:
            return False
    to_sink[op] = None
    available.update(op.results)
    return True


def sink_operations_into_launch(
    launch: LaunchOp,
    beneficial: Callable[[Operation], bool] = is_likely_an_index_computation,
) -> None:
    """Copy the ops selected by ``beneficial`` that define values used in the body of
    ``launch`` to the start of its entry block and use the copies inside (upstream
    ``sinkOperationsIntoLaunchOp``). The originals stay for their other users."""
    body = launch.body
    candidates = dict.fromkeys(used_values_defined_above(body))
    to_sink: dict[Operation, None] = {}
    available: set[SSAValue] = set()
    for value in candidates:
        owner = value.owner
        if isinstance(owner, Operation):
            _extract_beneficiary_ops(owner, candidates, to_sink, available, beneficial)
    if not to_sink:
        return
    mapping: dict[SSAValue, SSAValue] = {}
    entry = body.blocks[0]
    anchor = entry.first_op
    for op in to_sink:
        clone = op.clone(mapping)
        point = (
            InsertPoint.before(anchor)
            if anchor is not None
            else InsertPoint.at_end(entry)
        )
        Rewriter.insert_op(clone, point)
        for old, new in zip(op.results, clone.results):
            old.replace_uses_with_if(
                new,
                lambda use: (
                    use.operation is not clone and is_inside(use.operation, body)
                ),
            )


@dataclass(frozen=True)
class GpuLaunchSinkIndexComputationsPass(ModulePass):
    """Copy constants and cheap index computations used by each ``gpu.launch`` into
    its body (no options; upstream's pass of the same name)."""

    name = "gpu-launch-sink-index-computations"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Post-order, like upstream's walk: inner launches first.
        for launch in [
            o for o in op.walk(region_first=True) if isinstance(o, LaunchOp)
        ]:
            sink_operations_into_launch(launch)
