"""Full unrolling of n-D transfers, as upstream's ``UnrollTransferReadConversion`` and
``UnrollTransferWriteConversion`` (``convert-vector-to-scf{full-unroll=true}``).

A ``transfer_read`` of ``vector<2x4xf32>`` becomes a broadcast of the padding and, for
each row ``i``, a ``transfer_read`` of ``vector<4xf32>`` at the row's index plus ``i``
inserted at ``[i]``. Where the row may be out of bounds (``in_bounds`` false for the
first dim), the read is guarded by ``memref.dim > index`` in an ``scf.if`` that yields
the vector unchanged otherwise; writes likewise skip such rows. A mask is split the
same way (``vector.extract`` of its row). The new transfers have one dim less and are
unrolled again until their rank is the target rank.

Only minor-identity permutation maps on memrefs are unrolled here (upstream first
turns other maps into minor identities plus ``vector.transpose``/``broadcast``);
other transfers are left for the caller to report.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import memref, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    MemRefType,
    TensorType,
    VectorType,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.gpu_dialect.arith import CmpiOp
from xdsl_gpu.passes.vector_transforms.common import (
    index_constant,
    is_minor_identity,
    offset_index,
)


def unrollable(
    op: vector.TransferReadOp | vector.TransferWriteOp,
    v: VectorType,
    target_rank: int,
    lower_tensors: bool = False,
) -> bool:
    if v.get_num_dims() <= max(target_rank, 0) or v.get_num_dims() < 2:
        return False
    source = op.source.type
    if not isinstance(source, MemRefType) and not (
        lower_tensors and isinstance(source, TensorType)
    ):
        return False  # tensors only with lower-tensors, as upstream
    if v.get_num_scalable_dims() and v.get_scalable_dims()[0]:
        return False  # a scalable leading dim needs a loop over vscale
    amap = op.permutation_map.data
    if is_minor_identity(amap):
        return True
    # Other maps whose first vector dim walks a source dim (``(d0, d1) -> (d0,
    # 0)``) are split the same way, as upstream splits them, unmasked (a mask's
    # dims follow the map's); the permutation rewrites get the first chance.
    return op.mask is None and isinstance(amap.results[0], AffineDimExpr)


def dim_op(source: SSAValue, dim: SSAValue) -> Operation:
    """``memref.dim``, or ``tensor.dim`` for a transfer on a tensor."""
    if isinstance(source.type, TensorType):
        return tensor.DimOp(source, dim)
    return memref.DimOp(source, dim)


def inner_map(amap: AffineMap) -> AffineMapAttr:
    return AffineMapAttr(AffineMap(amap.num_dims, 0, amap.results[1:]))


def inner_type(v: VectorType) -> VectorType:
    return VectorType(
        v.element_type, v.get_shape()[1:], ArrayAttr(v.scalable_dims.data[1:])
    )


def unpacked_dim(amap: AffineMap) -> int:
    first = amap.results[0]
    assert isinstance(first, AffineDimExpr)
    return first.position


def _row_indices(
    indices: list[SSAValue], dim: int, row: int, ops: list[Operation]
) -> list[SSAValue]:
    """The indices of row ``row``: ``indices[dim] + row`` (ops appended to ``ops``)."""
    shifted = offset_index(indices[dim], row)
    if shifted is None:
        return list(indices)
    ops.append(shifted)
    return [*indices[:dim], shifted.results[0], *indices[dim + 1 :]]


def _in_bounds_condition(
    source: SSAValue,
    indices: list[SSAValue],
    dim: int,
    row: int,
    rewriter: PatternRewriter,
) -> SSAValue:
    """``memref.dim %source, dim > indices[dim] + row``, built before the op."""
    size = dim_op(source, index_constant(dim, rewriter))
    rewriter.insert(size)
    position = indices[dim]
    shifted = offset_index(position, row)
    if shifted is not None:
        rewriter.insert(shifted)
        position = shifted.results[0]
    cmp = CmpiOp(size.results[0], position, "sgt")
    rewriter.insert(cmp)
    return cmp.result


@dataclass
class UnrollTransferRead(RewritePattern):
    target_rank: int = 1
    lower_tensors: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferReadOp, rewriter: PatternRewriter):
        v = op.result.type
        assert isinstance(v, VectorType)
        if not unrollable(op, v, self.target_rank, self.lower_tensors):
            return
        amap = op.permutation_map.data
        dim = unpacked_dim(amap)
        row_type = inner_type(v)
        row_map = inner_map(amap)
        in_bounds = list(op.in_bounds.data)
        inner_in_bounds = ArrayAttr[BoolAttr](in_bounds[1:])
        indices = list(op.indices)
        init = vector.BroadcastOp(op.padding, v)
        rewriter.insert(init)
        current: SSAValue = init.vector
        for row in range(v.get_shape()[0]):

            def read_row(previous: SSAValue, row: int = row) -> list[Operation]:
                ops: list[Operation] = []
                row_indices = _row_indices(indices, dim, row, ops)
                mask = None
                if op.mask is not None:
                    ops.append(
                        m := vector.ExtractOp(op.mask, [row], _mask_row(op.mask))
                    )
                    mask = m.result
                ops.append(
                    read := vector.TransferReadOp(
                        op.source,
                        row_indices,
                        op.padding,
                        row_type,
                        inner_in_bounds,
                        row_map,
                        mask,
                    )
                )
                ops.append(vector.InsertOp(read.result, previous, [row], v))
                return ops

            if in_bounds[0].value:
                ops = read_row(current)
                for new in ops:
                    rewriter.insert(new)
                current = ops[-1].results[0]
                continue
            cond = _in_bounds_condition(op.source, indices, dim, row, rewriter)
            then_ops = read_row(current)
            then_ops.append(scf.YieldOp(then_ops[-1].results[0]))
            guarded = scf.IfOp(
                cond,
                [v],
                Region(Block(then_ops)),
                Region(Block([scf.YieldOp(current)])),
            )
            rewriter.insert(guarded)
            current = guarded.results[0]
        rewriter.replace(op, [], [current])


def _mask_row(mask: SSAValue) -> VectorType:
    t = mask.type
    assert isinstance(t, VectorType)
    return inner_type(t)


@dataclass
class UnrollTransferWrite(RewritePattern):
    """One write per row; into a tensor (with ``lower-tensors``) each row's write
    takes the tensor the previous one made, and a row out of bounds passes it on."""

    target_rank: int = 1
    lower_tensors: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferWriteOp, rewriter: PatternRewriter):
        v = op.vector.type
        assert isinstance(v, VectorType)
        if not unrollable(op, v, self.target_rank, self.lower_tensors):
            return
        amap = op.permutation_map.data
        dim = unpacked_dim(amap)
        row_type = inner_type(v)
        row_map = inner_map(amap)
        in_bounds = list(op.in_bounds.data)
        inner_in_bounds = ArrayAttr[BoolAttr](in_bounds[1:])
        indices = list(op.indices)
        tensor_t = op.result.type if op.result is not None else None
        current = op.source  # the tensor so far (or the memref)
        for row in range(v.get_shape()[0]):

            def write_row(
                row: int = row, into: SSAValue = current
            ) -> tuple[list[Operation], SSAValue | None]:
                ops: list[Operation] = []
                row_indices = _row_indices(indices, dim, row, ops)
                ops.append(value := vector.ExtractOp(op.vector, [row], row_type))
                mask = None
                if op.mask is not None:
                    ops.append(
                        m := vector.ExtractOp(op.mask, [row], _mask_row(op.mask))
                    )
                    mask = m.result
                write = vector.TransferWriteOp(
                    value.result,
                    into,
                    row_indices,
                    inner_in_bounds,
                    mask,
                    row_map,
                    tensor_t,  # pyright: ignore[reportArgumentType]
                )
                ops.append(write)
                return ops, write.result

            if in_bounds[0].value:
                ops, made = write_row()
                for new in ops:
                    rewriter.insert(new)
                current = made if made is not None else current
                continue
            cond = _in_bounds_condition(op.source, indices, dim, row, rewriter)
            ops, made = write_row()
            guarded = scf.IfOp(
                cond,
                [] if made is None else [made.type],
                Region(Block([*ops, scf.YieldOp(*([] if made is None else [made]))])),
                Region(Block([scf.YieldOp(*([] if made is None else [current]))])),
            )
            rewriter.insert(guarded)
            if made is not None:
                current = guarded.results[0]
        rewriter.replace(op, [], [current] if op.result is not None else [])


__all__ = [
    "UnrollTransferRead",
    "UnrollTransferWrite",
    "dim_op",
    "inner_map",
    "inner_type",
    "unpacked_dim",
    "unrollable",
]
