"""1-D transfers to plain or masked loads and stores, as upstream's
``TransferReadToVectorLoadLowering``/``TransferWriteToVectorStoreLowering`` with the
mask materialization that convert-vector-to-llvm runs first (MLIR 22).

A 1-D ``transfer_read`` with a minor-identity map on a memref whose innermost stride
is 1 becomes:

* ``vector.load`` when it is in bounds and unmasked;
* otherwise ``vector.maskedload`` with the padding broadcast as pass-through, its
  mask ``vector.create_mask (dim - index)`` for an out-of-bounds dim (and-ed with the
  op's own mask).

``transfer_write`` likewise becomes ``vector.store`` or ``vector.maskedstore``.
A 0-D transfer (``vector<f32>``) becomes a plain load or store of its element.
Other transfers are left alone (n-D ones need convert-vector-to-scf first).
"""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import MemRefType, VectorType, i1
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.passes.memref_descriptor import strides_and_offset
from xdsl_gpu.passes.vector_transforms.common import index_constant, is_minor_identity


def _lowerable(
    op: vector.TransferReadOp | vector.TransferWriteOp, v: VectorType
) -> MemRefType | None:
    source = op.source.type
    if v.get_num_dims() > 1 or not isinstance(source, MemRefType):
        return None
    if v.get_num_dims() == 0 and op.mask is not None:
        return None
    if isinstance(source.element_type, VectorType):
        return None
    if not is_minor_identity(op.permutation_map.data):
        return None
    try:
        strides, _ = strides_and_offset(source)
    except ValueError:
        return None
    if not strides or strides[-1] != 1:
        return None
    return source


def _mask(
    op: vector.TransferReadOp | vector.TransferWriteOp,
    source: MemRefType,
    v: VectorType,
    rewriter: PatternRewriter,
) -> SSAValue | None:
    """The mask the access needs, or ``None`` for a plain one."""
    mask = op.mask
    if not op.in_bounds.data or op.in_bounds.data[0].value:
        return mask  # a 0-D transfer reads its one element, as upstream's
    last = source.get_num_dims() - 1
    size = memref.DimOp(op.source, index_constant(last, rewriter))
    bound = arith.SubiOp(size.result, op.indices[last])
    bounds_mask = vector.CreateMaskOp([bound], VectorType(i1, v.get_shape()))
    for new in (size, bound, bounds_mask):
        rewriter.insert(new)
    if mask is None:
        return bounds_mask.mask_vector
    both = arith.AndIOp(bounds_mask.mask_vector, mask)
    rewriter.insert(both)
    return both.result


class TransferReadToLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferReadOp, rewriter: PatternRewriter):
        v = op.result.type
        assert isinstance(v, VectorType)
        source = _lowerable(op, v)
        if source is None:
            return
        mask = _mask(op, source, v, rewriter)
        if mask is None:
            rewriter.replace(op, vector.LoadOp(op.source, list(op.indices), v))
            return
        pass_thru = vector.BroadcastOp(op.padding, v)
        rewriter.replace(
            op,
            [
                pass_thru,
                vector.MaskedLoadOp(op.source, list(op.indices), mask, pass_thru, v),
            ],
        )


class TransferWriteToStore(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferWriteOp, rewriter: PatternRewriter):
        v = op.vector.type
        assert isinstance(v, VectorType)
        if op.result is not None:
            return
        source = _lowerable(op, v)
        if source is None:
            return
        mask = _mask(op, source, v, rewriter)
        if mask is None:
            rewriter.replace(op, vector.StoreOp(op.vector, op.source, list(op.indices)))
            return
        rewriter.replace(
            op, vector.MaskedStoreOp(op.source, list(op.indices), mask, op.vector)
        )


__all__ = ["TransferReadToLoad", "TransferWriteToStore"]
