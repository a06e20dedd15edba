"""``vector.mask`` folded into the ops it wraps, as upstream's ``lower-vector-mask``
(MLIR 22) does:

* a masked ``transfer_read`` without a passthru, ``transfer_write`` and ``gather``
  take the mask as their own mask operand (replacing one they had, as upstream
  does); the gather's passthru becomes a zero vector. A ``transfer_read`` with a
  passthru stays masked, as upstream leaves it (a passthru vector has no place in a
  transfer, whose padding is a scalar);
* a mask whose region holds only a ``vector.yield`` is replaced by the yielded
  values; an all-true mask (``arith.constant dense<true>`` or a ``constant_mask`` of
  the whole shape) is dropped and its op moved out (upstream's ``vector.mask``
  canonicalization).

Other masked ops (``reduction``, ``contract``, ``outerproduct``, ``multi_reduction``)
stay for convert-vector-to-llvm, as upstream leaves them.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import vector


def is_all_true(mask: SSAValue) -> bool:
    """A mask known to set every lane: ``arith.constant dense<true>`` or a
    ``constant_mask`` of the whole (fixed) shape."""
    owner = mask.owner
    t = mask.type
    if not isinstance(t, VectorType) or t.get_num_scalable_dims():
        return False
    if isinstance(owner, arith.ConstantOp):
        value = owner.value
        return isinstance(value, DenseIntOrFPElementsAttr) and all(
            v != 0 for v in value.get_values()
        )
    if isinstance(owner, vector.ConstantMaskOp):
        shape = cast(VectorType, t).get_shape()
        return tuple(owner.mask_dim_sizes.get_values()) == tuple(shape)
    return False


def move_out(op: vector.MaskOp, masked: Operation, rewriter: PatternRewriter) -> None:
    """Replace ``op`` by its masked op, taken out of the region."""
    masked.detach()
    rewriter.insert(masked)
    rewriter.replace(op, [], list(masked.results))


class FoldEmptyMask(RewritePattern):
    """``vector.mask %m { vector.yield %v }`` is ``%v``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.MaskOp, rewriter: PatternRewriter):
        if op.masked_op is not None:
            return
        terminator = op.mask_region.block.last_op
        if terminator is None:
            return
        rewriter.replace(op, [], list(terminator.operands))


class UnmaskAllTrue(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.MaskOp, rewriter: PatternRewriter):
        masked = op.masked_op
        if masked is None or not is_all_true(op.mask):
            return
        move_out(op, masked, rewriter)


class LowerMaskedTransfer(RewritePattern):
    """``vector.mask %m { transfer_read/transfer_write }`` → the transfer with mask
    ``%m`` (no passthru on the read)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.MaskOp, rewriter: PatternRewriter):
        masked = op.masked_op
        if not isinstance(masked, vector.TransferReadOp | vector.TransferWriteOp):
            return
        if op.passthru is not None:
            return  # as upstream: a vector passthru does not fit a transfer
        new = _rebuild_transfer(masked, op.mask)
        rewriter.replace(op, new, list(new.results))


def _rebuild_transfer(
    masked: vector.TransferReadOp | vector.TransferWriteOp, mask: SSAValue
) -> Operation:
    if isinstance(masked, vector.TransferReadOp):
        operands: list[SSAValue | list[SSAValue]] = [
            masked.source,
            list(masked.indices),
            masked.padding,
            [mask],
        ]
    else:
        operands = [masked.vector, masked.source, list(masked.indices), [mask]]
    properties = {
        k: v for k, v in masked.properties.items() if k != "operandSegmentSizes"
    }
    return type(masked).build(
        operands=operands,
        result_types=[[r.type for r in masked.results]]
        if isinstance(masked, vector.TransferWriteOp)
        else [masked.result.type],
        properties=properties,
        attributes=dict(masked.attributes),
    )


def _zeros(t: VectorType) -> Operation:
    element = t.element_type
    value: Attribute = (
        FloatAttr(0.0, cast(AnyFloat, element))
        if isinstance(element, AnyFloat)
        else IntegerAttr(0, cast(IntegerType, element))
    )
    return arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [value.value.data]))  # pyright: ignore


class LowerMaskedGather(RewritePattern):
    """``vector.mask %m { gather ..., %own_mask, %pass }`` → ``gather ..., %m,
    zeros`` (upstream's lowering: the lanes masked off are zero)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.MaskOp, rewriter: PatternRewriter):
        masked = op.masked_op
        if not isinstance(masked, vector.GatherOp):
            return
        zeros = _zeros(cast(VectorType, masked.result.type))
        new = vector.GatherOp.create(
            operands=[
                masked.base,
                *masked.offsets,
                masked.indices,
                op.mask,
                zeros.results[0],
            ],
            result_types=[masked.result.type],
            properties=dict(masked.properties),
            attributes=dict(masked.attributes),
        )
        rewriter.replace(op, [zeros, new], list(new.results))


def mask_canonicalization_patterns() -> list[RewritePattern]:
    """Upstream's ``vector.mask`` canonicalizations (empty and all-true masks)."""
    return [FoldEmptyMask(), UnmaskAllTrue()]


def lower_vector_mask_patterns() -> list[RewritePattern]:
    """What ``lower-vector-mask`` applies."""
    return [
        *mask_canonicalization_patterns(),
        LowerMaskedTransfer(),
        LowerMaskedGather(),
    ]


__all__ = [
    "FoldEmptyMask",
    "LowerMaskedGather",
    "LowerMaskedTransfer",
    "UnmaskAllTrue",
    "is_all_true",
    "lower_vector_mask_patterns",
    "mask_canonicalization_patterns",
    "move_out",
]
