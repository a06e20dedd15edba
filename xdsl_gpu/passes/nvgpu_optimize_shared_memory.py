"""``nvgpu-optimize-shared-memory``: XOR-swizzle the column index of shared-memory
buffers so that 128-bit accesses of consecutive rows hit different banks.

Upstream: ``mlir/lib/Dialect/NVGPU/Transforms/OptimizeSharedMemory.cpp`` (MLIR 22), a
pass on ``func.func`` (here: on every ``func.func`` and ``gpu.func`` of the module).
For each ``memref.alloc`` in shared memory (``3`` or ``#gpu.address_space<workgroup>``)
of rank 2 or more whose rows are short enough that several share a 128-byte line, and
that nothing views through ``memref.subview``: when every op that writes it is a
``memref.store``, ``vector.store`` or ``nvgpu.device_async_copy`` (its destination),
every op that reads it a ``memref.load``, ``vector.load`` or ``nvgpu.ldmatrix``, with
at least two indices, and there is at least one of each, the last index of each such
access becomes

    col ^ ((row & mask) << shift)      (or >> when the row bits sit higher)

with ``row`` the index before it, ``mask`` covering the bits of the 128-bit vector
index within the row, and ``shift`` aligning them, as upstream computes them from the
element width and the row length (the constants are ``arith.constant`` of ``index``,
created before each access). Writers are rewritten first, last to first, then readers.
As upstream, the first buffer that does not qualify ends the pass for its function.
The pass has no options.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    IndexType,
    IntAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.gpu_dialect.gpu.attributes import AddressSpaceAttr
from xdsl_gpu.gpu_dialect.nvgpu.async_copy_ops import DeviceAsyncCopyOp
from xdsl_gpu.gpu_dialect.nvgpu.mma_ops import LdMatrixOp
from xdsl_gpu.gpu_dialect.vector.memory_ops import LoadOp as VectorLoadOp
from xdsl_gpu.gpu_dialect.vector.memory_ops import StoreOp as VectorStoreOp
from xdsl_gpu.passes.ir_walk import preorder

SHARED_MEMORY_LINE_BYTES = 128
"""A shared-memory line (NVIDIA's documentation)."""
VECTOR_BITS = 128
"""The access width the swizzle is made for."""


def _log2(n: int) -> int:
    return n.bit_length() - 1


def _is_shared(t: MemRefType) -> bool:
    space = t.memory_space
    if isinstance(space, IntegerAttr):
        return space.value.data == 3
    if isinstance(space, IntAttr):
        return space.data == 3
    return isinstance(space, AddressSpaceAttr) and space.data.value == "workgroup"


def _element_bits(t: MemRefType) -> int:
    element = t.get_element_type()
    width = getattr(element, "bitwidth", None)
    if width is None:
        width = element.width.data  # pyright: ignore[reportAttributeAccessIssue]
    return int(width)


# The accesses: where their indices start among the operands, and the memref they use.
_READERS = (memref.LoadOp, VectorLoadOp, LdMatrixOp)
_WRITERS = (memref.StoreOp, VectorStoreOp, DeviceAsyncCopyOp)


def _access(op: Operation) -> tuple[SSAValue, int, int] | None:
    """(memref, first index operand, number of indices) of a supported access."""
    if isinstance(op, memref.LoadOp):
        return op.memref, 1, len(op.indices)
    if isinstance(op, VectorLoadOp):
        return op.base, 1, len(op.indices)
    if isinstance(op, LdMatrixOp):
        return op.src_memref, 1, len(op.indices)
    if isinstance(op, memref.StoreOp):
        return op.memref, 2, len(op.indices)
    if isinstance(op, VectorStoreOp):
        return op.base, 2, len(op.indices)
    if isinstance(op, DeviceAsyncCopyOp):
        return op.dst, 1, len(op.dst_indices)
    return None


def _reads_or_writes(op: Operation, buffer: SSAValue) -> str | None:
    """``read``, ``write`` or None: what ``op`` does to ``buffer``, for the ops with
    known memory effects (upstream asks their effect interface)."""
    if buffer not in op.operands:
        return None
    access = _access(op)
    if access is not None and access[0] is buffer:
        return "read" if isinstance(op, _READERS) else "write"
    if isinstance(op, DeviceAsyncCopyOp | memref.CopyOp):
        return "read"  # the source of a copy: not a supported access
    if op.name in ("vector.transfer_read", "vector.maskedload", "vector.gather"):
        return "read"
    if op.name in ("vector.transfer_write", "vector.maskedstore", "vector.scatter"):
        return "write"
    return None


def _permuted(
    op: Operation, indices: list[SSAValue], t: MemRefType, src: int, tgt: int
) -> SSAValue:
    """Upstream's ``permuteVectorOffset``: the new ``indices[tgt]``, built before
    ``op``."""
    block = op.parent_block()
    assert block is not None

    def put(new: Operation) -> SSAValue:
        block.insert_op_before(new, op)
        return new.results[0]

    def const(value: int) -> SSAValue:
        return put(arith.ConstantOp(IntegerAttr(value, IndexType())))

    bits = _element_bits(t)
    row_bytes = t.get_shape()[tgt] * bits // 8
    permute_every = max(1, SHARED_MEMORY_LINE_BYTES // row_bytes)
    n = _log2(VECTOR_BITS // bits)
    m = _log2(t.get_shape()[tgt])
    mask = (1 << (m - n)) - 1
    if permute_every > 1:
        mask <<= _log2(permute_every)
    src_bits = put(arith.AndIOp(indices[src], const(mask)))
    if permute_every > 1:
        shift = n - _log2(permute_every)
        if shift > 0:
            src_bits = put(arith.ShLIOp(src_bits, const(shift)))
        elif shift < 0:
            src_bits = put(arith.ShRUIOp(src_bits, const(-shift)))
    else:
        src_bits = put(arith.ShLIOp(src_bits, const(n)))
    return put(arith.XOrIOp(indices[tgt], src_bits))


def _optimize(function: Operation, buffer: SSAValue) -> bool:
    """Swizzle the accesses to ``buffer`` in ``function``; whether it qualified."""
    t = buffer.type
    if not isinstance(t, MemRefType) or not _is_shared(t):
        return False
    ops = preorder(function)
    if any(isinstance(o, memref.SubviewOp) for o in ops):
        return False  # upstream does no alias analysis
    rank = len(t.get_shape())
    if rank < 2 or any(d < 0 for d in t.get_shape()[-2:]):
        return False  # no rows, or rows of unknown length
    row = t.get_shape()[rank - 1]
    rows_per_line = (8 * SHARED_MEMORY_LINE_BYTES // _element_bits(t)) // row
    thread_group = 1 << (7 - _log2(VECTOR_BITS // 8))
    if rows_per_line >= thread_group:
        return False
    reads: list[Operation] = []
    writes: list[Operation] = []
    for o in ops:
        effect = _reads_or_writes(o, buffer)
        if effect == "read":
            reads.append(o)
        elif effect == "write":
            writes.append(o)
    for group, kinds in ((reads, _READERS), (writes, _WRITERS)):
        for o in group:
            access = _access(o)
            if not isinstance(o, kinds) or access is None or access[2] < 2:
                return False
    if not reads or not writes:
        return False
    tgt, src = rank - 1, rank - 2
    for o in [*reversed(writes), *reversed(reads)]:
        access = _access(o)
        assert access is not None
        _, first, count = access
        operands = list(o.operands)
        indices = operands[first : first + count]
        operands[first + tgt] = _permuted(o, indices, t, src, tgt)
        o.operands = operands
    return True


@dataclass(frozen=True)
class NVGPUOptimizeSharedMemoryPass(ModulePass):
    """Swizzle the accesses to shared-memory buffers (see the module docstring)."""

    name = "nvgpu-optimize-shared-memory"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = [
            o for o in preorder(op) if isinstance(o, func.FuncOp | kernel_ops.FuncOp)
        ]
        for function in functions:
            allocs = [
                o
                for o in preorder(function)
                if isinstance(o, memref.AllocOp)
                and isinstance(o.memref.type, MemRefType)
                and _is_shared(o.memref.type)
            ]
            for alloc in allocs:
                if not _optimize(function, alloc.memref):
                    break
