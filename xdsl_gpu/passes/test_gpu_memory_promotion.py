"""``test-gpu-memory-promotion``: MLIR's test pass of ``promoteToWorkgroupMemory``.

Upstream: ``mlir/test/lib/Dialect/GPU/TestGpuMemoryPromotion.cpp`` and
``mlir/lib/Dialect/GPU/Transforms/MemoryPromotion.cpp`` (MLIR 22), with
``affine::mapLoopToProcessorIds``. Every argument of a ``gpu.func`` marked
``gpu.test_promote_workgroup`` (a statically shaped memref) is promoted to workgroup
memory, op for op as upstream does:

1. a new workgroup attribution of the argument's shape and element type, in
   ``#gpu.address_space<workgroup>``, after the existing ones; every use of the
   argument now uses it;
2. at the start of the body, a loop nest copies the argument into it: at least three
   ``scf.for`` loops (single-iteration ones first for a rank below 3), the innermost
   three mapped to the thread ids z, y, x (``lb = tid * step + lb``,
   ``step = block_dim * step``, with ``affine.apply``), then ``gpu.barrier``;
3. before the terminator of the body, ``gpu.barrier`` and the same loop nest copying
   back.

The copy's constants are built as MLIR's ``createOrFold`` builds them: ``0``, ``1``,
then per dimension the dimension's index and its folded size (``memref.dim`` of a
static size); none is unique-d or hoisted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IndexType,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.diagnostics import at_op
from xdsl_gpu.gpu_dialect.gpu import compute_ops as gpu
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.gpu_dialect.gpu.attributes import AddressSpace, AddressSpaceAttr
from xdsl_gpu.passes.ir_walk import preorder

PROMOTE_ATTR = "gpu.test_promote_workgroup"
WORKGROUP_DIMENSIONS = 3

_S0, _S1 = AffineExpr.symbol(0), AffineExpr.symbol(1)
_MUL = AffineMapAttr(AffineMap(0, 2, (_S0 * _S1,)))
_ADD = AffineMapAttr(AffineMap(0, 2, (_S0 + _S1,)))


class _Builder:
    """Inserts before ``before`` (or at the end of ``block`` when it is None)."""

    def __init__(self, block: Block, before: Operation | None) -> None:
        self.block = block
        self.before = before

    def put(self, op: Operation) -> Operation:
        if self.before is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, self.before)
        return op

    def index(self, value: int) -> SSAValue:
        return self.put(
            arith.ConstantOp.from_int_and_width(value, IndexType())
        ).results[0]


def _apply(b: _Builder, map: AffineMapAttr, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    return b.put(affine.ApplyOp([lhs, rhs], map)).results[0]


def _map_loop_to_processor_ids(
    loop: scf.ForOp, processor_id: SSAValue, num_processors: SSAValue
) -> None:
    """``affine::mapLoopToProcessorIds`` for one processor dimension."""
    block = loop.parent_block()
    assert block is not None
    b = _Builder(block, loop)
    scaled = _apply(b, _MUL, processor_id, loop.step)
    loop.operands[0] = _apply(b, _ADD, scaled, loop.lb)
    loop.operands[2] = _apply(b, _MUL, num_processors, loop.step)


def _insert_copy_loops(b: _Builder, source: SSAValue, target: SSAValue) -> None:
    """The loop nest copying ``source`` to ``target`` (upstream's ``insertCopyLoops``)."""
    memref_type = source.type
    assert isinstance(memref_type, MemRefType)
    rank = memref_type.get_num_dims()
    zero = b.index(0)
    one = b.index(1)
    extra = max(0, WORKGROUP_DIMENSIONS - rank)
    lbs = [zero] * (extra + rank)
    ubs = [one] * extra
    steps = [one] * (extra + rank)
    for size in memref_type.get_shape():
        b.index(len(ubs) - extra)  # memref.dim's index operand, left by the fold
        ubs.append(b.index(size))

    thread_ids: list[SSAValue] = []
    block_dims: list[SSAValue] = []
    for dim in "xyz":
        thread_ids.append(b.put(gpu.ThreadIdOp(dim)).results[0])
        block_dims.append(b.put(gpu.BlockDimOp(dim)).results[0])

    loops = _loop_nest(b, lbs, ubs, steps)
    ivs = [loop.body.block.args[0] for loop in loops]
    active = ivs[len(ivs) - rank :]
    innermost = loops[-1].body.block
    loaded = memref.LoadOp.get(source, active)
    innermost.insert_op_before(loaded, innermost.ops.last)  # type: ignore[arg-type]
    innermost.insert_op_before(
        memref.StoreOp.get(loaded.res, target, active),
        innermost.ops.last,  # type: ignore[arg-type]
    )
    for i, loop in enumerate(reversed(loops[-WORKGROUP_DIMENSIONS:])):
        _map_loop_to_processor_ids(loop, thread_ids[i], block_dims[i])


def _loop_nest(
    b: _Builder,
    lbs: Sequence[SSAValue],
    ubs: Sequence[SSAValue],
    steps: Sequence[SSAValue],
) -> list[scf.ForOp]:
    """``scf::buildLoopNest``: one loop per bound, each nested in the previous."""
    loops: list[scf.ForOp] = []
    for lb, ub, step in zip(lbs, ubs, steps, strict=True):
        body = Block([scf.YieldOp()], arg_types=[IndexType()])
        loop = scf.ForOp(lb, ub, step, [], Region(body))
        if loops:
            inner = loops[-1].body.block
            inner.insert_op_before(loop, inner.ops.last)  # type: ignore[arg-type]
        else:
            b.put(loop)
        loops.append(loop)
    return loops


def promote_to_workgroup_memory(func: kernel_ops.FuncOp, index: int) -> None:
    """Upstream's ``promoteToWorkgroupMemory(func, index)``."""
    value = func.body.blocks[0].args[index]
    memref_type = value.type
    if not (isinstance(memref_type, MemRefType) and memref_type.has_static_shape()):
        raise at_op(
            PassFailedException(
                f"test-gpu-memory-promotion: argument #{index} marked "
                f"'{PROMOTE_ATTR}' is not a statically shaped memref (it has type "
                f"'{memref_type}'); only those can be promoted"
            ),
            func,
        )
    if memref_type.get_num_dims() == 0:
        raise at_op(
            PassFailedException(
                f"test-gpu-memory-promotion: argument #{index} marked "
                f"'{PROMOTE_ATTR}' is a 0-d memref; only ranked buffers of at least "
                "one dimension can be promoted"
            ),
            func,
        )
    if len(func.body.blocks) != 1:
        raise at_op(
            PassFailedException(
                "test-gpu-memory-promotion: the function has several blocks; "
                "promotion needs a body of one block (unstructured control flow is "
                "not supported, as upstream)"
            ),
            func,
        )
    buffer_type = MemRefType(
        memref_type.element_type,
        memref_type.get_shape(),
        NoneAttr(),
        AddressSpaceAttr(AddressSpace.Workgroup),
    )
    attribution = func.add_workgroup_attribution(buffer_type)
    value.replace_all_uses_with(attribution)

    block = func.body.blocks[0]
    first = block.first_op
    terminator = block.last_op
    assert terminator is not None
    start = _Builder(block, first)
    _insert_copy_loops(start, value, attribution)
    start.put(gpu.BarrierOp())
    end = _Builder(block, terminator)
    end.put(gpu.BarrierOp())
    _insert_copy_loops(end, attribution, value)


@dataclass(frozen=True)
class TestGpuMemoryPromotionPass(ModulePass):
    """Promote the ``gpu.func`` arguments marked ``gpu.test_promote_workgroup`` to
    workgroup memory (see the module docstring). No options."""

    name = "test-gpu-memory-promotion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in preorder(op) if isinstance(f, kernel_ops.FuncOp)]:
            for index in range(len(func.function_type.inputs)):
                attrs = func.arg_attrs
                if attrs is None or PROMOTE_ATTR not in attrs.data[index].data:
                    continue
                promote_to_workgroup_memory(func, index)
