"""``transform.nvgpu.create_async_groups``: 1-D vector copies from global to shared
memory become ``nvgpu.device_async_copy`` ops, each run of them closed by a
``device_async_create_group`` and a ``device_async_wait``.

Upstream: ``nvgpu::createAsyncGroups`` (``CreateAsyncGroups.cpp``, MLIR 22). A copy is
a ``vector.transfer_write`` (minor identity map, first dim in bounds, no mask, memref
with unit last stride) or ``vector.store`` of a 1-D vector into workgroup memory whose
value is a ``vector.transfer_read`` (same conditions; a mask only from
``vector.create_mask`` or a ``vector.extract`` of one, and not with an integer 0
padding) or ``vector.load`` from another memory space, of 4, 8 or 16 bytes. Copies
separated only by ops without memory effects and reads of non-shared memory join one
group; the group and its wait go where the group's last store was. The stores are
erased; the loads stay (dead, for a later cleanup), as upstream. ``bypass_l1`` sets
``bypassL1`` on the 16-byte copies.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
    VectorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import RecursiveMemoryEffect, get_effects

from xdsl_gpu.gpu_dialect.arith import CmpiOp, SelectOp
from xdsl_gpu.gpu_dialect.nvgpu.async_copy_ops import (
    DeviceAsyncCopyOp,
    DeviceAsyncCreateGroupOp,
    DeviceAsyncWaitOp,
    last_dim_unit_stride,
)
from xdsl_gpu.gpu_dialect.nvgpu.mma_ops import bitwidth
from xdsl_gpu.gpu_dialect.nvgpu.types import is_shared_memory_space

_Transfer = xvector.TransferReadOp | xvector.TransferWriteOp


def _memref(op: Operation) -> SSAValue:
    """upstream's ``nvgpu::getMemrefOperand``."""
    if isinstance(op, _Transfer):
        return op.source
    assert isinstance(op, xvector.LoadOp | xvector.StoreOp)
    return op.base


def _indices(op: Operation) -> list[SSAValue | Operation]:
    assert isinstance(op, _Transfer | xvector.LoadOp | xvector.StoreOp)
    return list(op.indices)


def _is_shared(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType) and is_shared_memory_space(
        value.type.memory_space
    )


def _contiguous_transfer(op: xvector.TransferReadOp | xvector.TransferWriteOp) -> bool:
    base = op.source.type
    in_bounds = op.in_bounds.data
    return (
        op.permutation_map.data.is_minor_identity()
        and bool(in_bounds)
        and bool(in_bounds[0].value.data)
        and isinstance(base, MemRefType)
        and last_dim_unit_stride(base)
    )


def _contiguous_store(op: Operation) -> bool:
    if isinstance(op, xvector.TransferWriteOp):
        return _contiguous_transfer(op) and op.mask is None
    return isinstance(op, xvector.StoreOp)


def _contiguous_read(op: Operation) -> bool:
    if isinstance(op, xvector.TransferReadOp):
        return _contiguous_transfer(op)
    return isinstance(op, xvector.LoadOp)


def _mask_source(
    read: Operation,
) -> tuple[xvector.CreateMaskOp | None, list[int]] | None:
    """The ``vector.create_mask`` behind the read's mask and the position a
    ``vector.extract`` takes of it; ``(None, [])`` without a mask; ``None`` for a
    mask made otherwise (upstream's ``getMaskOp``)."""
    if not isinstance(read, xvector.TransferReadOp) or read.mask is None:
        return None, []
    owner = read.mask.owner
    if isinstance(owner, xvector.CreateMaskOp):
        return owner, []
    if isinstance(owner, xvector.ExtractOp) and isinstance(
        source := owner.vector.owner, xvector.CreateMaskOp
    ):
        if owner.dynamic_position:
            return None
        return source, list(owner.static_position.get_values())
    return None


def _is_int_zero(value: SSAValue) -> bool:
    owner = value.owner
    return (
        isinstance(owner, arith.ConstantOp)
        and isinstance(owner.value, IntegerAttr)
        and owner.value.value.data == 0
    )


def _supported_size(vector_type: VectorType) -> bool:
    bits = vector_type.element_count() * bitwidth(vector_type.element_type)
    return bits in (32, 64, 128)


def _stored_value(op: Operation) -> SSAValue:
    assert isinstance(op, xvector.TransferWriteOp | xvector.StoreOp)
    return op.vector


def _is_copy_to_shared(write: Operation) -> bool:
    if not _contiguous_store(write):
        return False
    value = _stored_value(write)
    assert isinstance(value.type, VectorType)
    if value.type.get_num_dims() != 1 or not _is_shared(_memref(write)):
        return False
    read = value.owner
    if not isinstance(read, Operation) or not _contiguous_read(read):
        return False
    if _is_shared(_memref(read)):
        return False
    if isinstance(read, xvector.TransferReadOp) and read.mask is not None:
        if _is_int_zero(read.padding) or _mask_source(read) is None:
            return False
    return _supported_size(value.type)


def _index(rewriter: Rewriter, at: InsertPoint, value: int) -> SSAValue:
    constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
    rewriter.insert_op(constant, at)
    return constant.result


def _num_read_elements(
    rewriter: Rewriter, at: InsertPoint, read: Operation
) -> SSAValue | None:
    """How many elements the read's mask lets through (upstream's
    ``buildNumReadElements``), None without a mask."""
    found = _mask_source(read)
    assert found is not None
    mask, position = found
    if mask is None:
        return None
    sizes = list(mask.mask_dim_sizes)
    if not position:
        return sizes[0]
    # In the mask's rows up to the last dimension: the row is all-true while each
    # position is below its size; its length is then the last size.
    condition: SSAValue | None = None
    for pos, size in zip(position, sizes):
        compare = CmpiOp(_index(rewriter, at, pos), size, "slt")
        rewriter.insert_op(compare, at)
        if condition is None:
            condition = compare.result
            continue
        both = arith.AndIOp(compare.result, condition)
        rewriter.insert_op(both, at)
        condition = both.result
    assert condition is not None
    zero = _index(rewriter, at, 0)
    select = SelectOp(condition, sizes[-1], zero)
    rewriter.insert_op(select, at)
    return select.result


def _without_effects(op: Operation) -> bool:
    return not op.has_trait(RecursiveMemoryEffect) and get_effects(op) == set()


def _group_from(first: Operation, pending: dict[Operation, None]) -> list[Operation]:
    """``first`` and the copies after it that only effect-free ops and reads of
    non-shared memory separate from it."""
    group = [first]
    node = first.next_op
    while node is not None:
        if _without_effects(node):
            node = node.next_op
            continue
        if isinstance(node, xvector.TransferReadOp | xvector.LoadOp) and not _is_shared(
            _memref(node)
        ):
            node = node.next_op
            continue
        if node in pending:
            del pending[node]
            group.append(node)
            node = node.next_op
            continue
        break
    return group


def create_async_groups(target: Operation, bypass_l1: bool) -> None:
    """Rewrite the copies to shared memory under ``target`` (see the module
    docstring)."""
    # Post-order, as MLIR's Operation::walk; a dict keeps the order.
    pending = dict.fromkeys(
        op for op in target.walk(region_first=True) if _is_copy_to_shared(op)
    )
    rewriter = Rewriter()
    while pending:
        first = next(iter(pending))
        del pending[first]
        group = _group_from(first, pending)
        tokens: list[SSAValue] = []
        for write in group:
            at = InsertPoint.before(write)
            value = _stored_value(write)
            read = value.owner
            assert isinstance(read, Operation)
            assert isinstance(value.type, VectorType)
            store_base, load_base = _memref(write), _memref(read)
            elements = value.type.element_count()
            assert isinstance(store_base.type, MemRefType)
            size = bitwidth(store_base.type.element_type) * elements // 8
            copy = DeviceAsyncCopyOp(
                store_base,
                _indices(write),
                load_base,
                _indices(read),
                elements,
                _num_read_elements(rewriter, at, read),
                bypass_l1=bypass_l1 and size == 16,
            )
            rewriter.insert_op(copy, at)
            tokens.append(copy.async_token)
        at = InsertPoint.before(group[-1])
        create = DeviceAsyncCreateGroupOp(list(tokens))
        rewriter.insert_op(create, at)
        rewriter.insert_op(DeviceAsyncWaitOp(create.async_token), at)
        for write in group:
            rewriter.erase_op(write)


__all__ = ["create_async_groups"]
