"""Index ops → ``nvvm.read.ptx.sreg.*``.

* ``thread_id``/``block_dim``/``block_id``/``grid_dim`` and the cluster queries read
  the special register of their dimension as ``i32`` and sign-extend (or truncate) it
  to the index width. The read carries ``range <i32, lo, hi>`` when a bound is known,
  exactly as upstream's ``GPUIndexIntrinsicOpLowering``: the op's ``upper_bound``
  first, else the enclosing function's ``known_block_size`` (ids and sizes of
  threads), ``known_grid_size`` (blocks) or ``known_cluster_size`` (blocks within a
  cluster); an id ranges over ``[0, N)``, a size over ``[1, N + 1)`` (``N`` itself when
  it is ``INT32_MAX``). ``cluster_id``/``cluster_dim`` (clusters in the grid) only
  know an ``upper_bound``.
* ``lane_id``: ``laneid`` with ``range <i32, 0, upper_bound or 32>``.
* ``subgroup_size`` (beyond MLIR 22, which cannot lower it): the constant 32.

Rewritten into those ops before the conversion: ``global_id`` (``thread_id +
block_id * block_dim``, as upstream), and, beyond MLIR 22, ``subgroup_id`` (linear
thread id / 32) and ``num_subgroups`` (ceil(threads in the block / 32)).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xdsl_gpu.gpu_dialect import index, llvm, nvvm
from xdsl_gpu.gpu_dialect.gpu import compute_ops as gpu
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.gpu_dialect.gpu.attributes import (
    KNOWN_BLOCK_SIZE_ATTR_NAME,
    KNOWN_CLUSTER_SIZE_ATTR_NAME,
    KNOWN_GRID_SIZE_ATTR_NAME,
)
from xdsl_gpu.passes.gpu_to_nvvm_patterns.common import WARP_SIZE, NVVMLowering
from xdsl_gpu.passes.llvm_type_converter import replace_op

_INT32_MAX = 2**31 - 1

_ID, _DIM, _NONE = "id", "dim", "none"

_Registers = tuple[
    type[nvvm.RangeableSpecialRegisterOp],
    type[nvvm.RangeableSpecialRegisterOp],
    type[nvvm.RangeableSpecialRegisterOp],
]

_INDEX_OPS: dict[type[gpu.GPUIndexOp], tuple[_Registers, str | None, str]] = {
    gpu.ThreadIdOp: (
        (nvvm.ThreadIdXOp, nvvm.ThreadIdYOp, nvvm.ThreadIdZOp),
        "known_block_size",
        _ID,
    ),
    gpu.BlockDimOp: (
        (nvvm.BlockDimXOp, nvvm.BlockDimYOp, nvvm.BlockDimZOp),
        "known_block_size",
        _DIM,
    ),
    gpu.BlockIdOp: (
        (nvvm.BlockIdXOp, nvvm.BlockIdYOp, nvvm.BlockIdZOp),
        "known_grid_size",
        _ID,
    ),
    gpu.GridDimOp: (
        (nvvm.GridDimXOp, nvvm.GridDimYOp, nvvm.GridDimZOp),
        "known_grid_size",
        _DIM,
    ),
    gpu.ClusterIdOp: (
        (nvvm.ClusterIdXOp, nvvm.ClusterIdYOp, nvvm.ClusterIdZOp),
        None,
        _ID,
    ),
    gpu.ClusterDimOp: (
        (nvvm.ClusterDimXOp, nvvm.ClusterDimYOp, nvvm.ClusterDimZOp),
        None,
        _DIM,
    ),
    gpu.ClusterBlockIdOp: (
        (nvvm.BlockInClusterIdXOp, nvvm.BlockInClusterIdYOp, nvvm.BlockInClusterIdZOp),
        "known_cluster_size",
        _ID,
    ),
    gpu.ClusterDimBlocksOp: (
        (
            nvvm.ClusterDimBlocksXOp,
            nvvm.ClusterDimBlocksYOp,
            nvvm.ClusterDimBlocksZOp,
        ),
        "known_cluster_size",
        _DIM,
    ),
}
"""gpu op → (x/y/z registers, the function hint bounding it, id or size)."""

_DISCARDABLE = {
    "known_block_size": KNOWN_BLOCK_SIZE_ATTR_NAME,
    "known_grid_size": KNOWN_GRID_SIZE_ATTR_NAME,
    "known_cluster_size": KNOWN_CLUSTER_SIZE_ATTR_NAME,
}


def known_size(op: Operation, hint: str, dim: int) -> int | None:
    """The ``hint`` size of dimension ``dim`` from the function around ``op``: the
    ``gpu.func`` property, or the ``gpu.known_*`` attribute that a lowered
    ``llvm.func`` (or a ``func.func``) carries."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, kernel_ops.FuncOp):
            value = getattr(parent, hint)
            break
        if isinstance(parent, llvm.FuncOp | func.FuncOp):
            value = parent.attributes.get(_DISCARDABLE[hint])
            break
        parent = parent.parent_op()
    else:
        return None
    if not isinstance(value, DenseArrayBase):
        return None
    values = value.get_values()
    return int(values[dim]) if dim < len(values) else None


def register_range(bound: int | None, kind: str) -> tuple[int, int] | None:
    """``[lo, hi)`` of a register bounded by ``bound`` (upstream's rule)."""
    if bound is None or kind == _NONE:
        return None
    if kind == _DIM:
        return (1, bound if bound == _INT32_MAX else bound + 1)
    return (0, bound)


def _upper_bound(op: Operation) -> int | None:
    bound = op.properties.get("upper_bound")
    return bound.value.data if isinstance(bound, IntegerAttr) else None


def to_index_width(
    builder: Builder, value: SSAValue, lowering: NVVMLowering
) -> SSAValue:
    """An ``i32`` register value at the index width (sext or trunc)."""
    width = lowering.converter.index_bitwidth
    if width > 32:
        return builder.insert(llvm.SExtOp(value, lowering.index_type)).results[0]
    if width < 32:
        return builder.insert(llvm.TruncOp(value, lowering.index_type)).results[0]
    return value


@dataclass
class IndexOpLowering(RewritePattern):
    lowering: NVVMLowering

    acts_on = tuple(_INDEX_OPS)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        entry = _INDEX_OPS.get(type(op))  # pyright: ignore[reportArgumentType]
        if entry is None:
            return
        assert isinstance(op, gpu.GPUIndexOp)
        registers, hint, kind = entry
        dim = ("x", "y", "z").index(op.dimension.data.value)
        bound = _upper_bound(op)
        if bound is None and hint is not None:
            bound = known_size(op, hint, dim)
        builder = Builder(InsertPoint.before(op))
        read = builder.insert(registers[dim](register_range(bound, kind)))
        value = to_index_width(builder, read.results[0], self.lowering)
        replace_op(op, [], [value], rewriter)


@dataclass
class LaneIdLowering(RewritePattern):
    lowering: NVVMLowering

    acts_on = (gpu.LaneIdOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.LaneIdOp):
            return
        bound = _upper_bound(op)
        builder = Builder(InsertPoint.before(op))
        read = builder.insert(nvvm.LaneIdOp((0, WARP_SIZE if bound is None else bound)))
        value = to_index_width(builder, read.results[0], self.lowering)
        replace_op(op, [], [value], rewriter)


@dataclass
class SubgroupSizeLowering(RewritePattern):
    """``gpu.subgroup_size``: 32 on every NVIDIA GPU (a constant, so that index
    arithmetic on it folds)."""

    lowering: NVVMLowering

    acts_on = (gpu.SubgroupSizeOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.SubgroupSizeOp):
            return
        t = self.lowering.index_type
        constant = llvm.ConstantOp(IntegerAttr(WARP_SIZE, t), t)
        replace_op(op, [constant], [constant.result], rewriter)


def index_patterns(lowering: NVVMLowering) -> list[RewritePattern]:
    return [
        IndexOpLowering(lowering),
        LaneIdLowering(lowering),
        SubgroupSizeLowering(lowering),
    ]


# -- rewrites before the conversion ----------------------------------------------------


class GlobalIdExpansion(RewritePattern):
    """``gpu.global_id d`` → ``thread_id d + block_id d * block_dim d`` (upstream's
    ``populateGpuGlobalIdPatterns``, with ``index`` ops)."""

    acts_on = (gpu.GlobalIdOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.GlobalIdOp):
            return
        d = op.dimension
        block_id = gpu.BlockIdOp(d)
        block_dim = gpu.BlockDimOp(d)
        offset = index.MulOp(block_id, block_dim)
        thread_id = gpu.ThreadIdOp(d)
        total = index.AddOp(thread_id, offset)
        rewriter.replace(op, [block_id, block_dim, offset, thread_id, total])


def _linear_thread_id() -> tuple[list[Operation], SSAValue]:
    """``(tz * ny + ty) * nx + tx`` in ``index`` ops."""
    tx, ty, tz = (gpu.ThreadIdOp(d) for d in "xyz")
    nx, ny = gpu.BlockDimOp("x"), gpu.BlockDimOp("y")
    plane = index.MulOp(tz, ny)
    row = index.AddOp(plane, ty)
    rows = index.MulOp(row, nx)
    linear = index.AddOp(rows, tx)
    return [tx, ty, tz, nx, ny, plane, row, rows, linear], linear.results[0]


class SubgroupIdExpansion(RewritePattern):
    """``gpu.subgroup_id`` → linear thread id / 32 (beyond MLIR 22). Not
    ``%warpid``, which names the hardware slot and changes under preemption."""

    acts_on = (gpu.SubgroupIdOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.SubgroupIdOp):
            return
        ops, linear = _linear_thread_id()
        warp = index.ConstantOp(WARP_SIZE)
        rewriter.replace(op, [*ops, warp, index.DivUOp(linear, warp)])


class NumSubgroupsExpansion(RewritePattern):
    """``gpu.num_subgroups`` → ceil(threads in the block / 32) (beyond MLIR 22)."""

    acts_on = (gpu.NumSubgroupsOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.NumSubgroupsOp):
            return
        nx, ny, nz = (gpu.BlockDimOp(d) for d in "xyz")
        plane = index.MulOp(nx, ny)
        threads = index.MulOp(plane, nz)
        warp = index.ConstantOp(WARP_SIZE)
        count = index.CeilDivUOp(threads, warp)
        rewriter.replace(op, [nx, ny, nz, plane, threads, warp, count])


def index_expansion_patterns() -> list[RewritePattern]:
    return [GlobalIdExpansion(), SubgroupIdExpansion(), NumSubgroupsExpansion()]
