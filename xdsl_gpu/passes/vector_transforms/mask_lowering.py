"""1-D ``create_mask``/``constant_mask`` as convert-vector-to-llvm lowers them
(MLIR 22): lane ``i`` is set when ``i < bound``, a comparison of a constant step
vector with the broadcast bound, in ``i32`` lanes with ``force-32bit-vector-indices``
(the default) and ``i64`` otherwise. A ``constant_mask`` is a dense constant."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerType,
    VectorType,
    i1,
)
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.gpu_dialect.arith import CmpiOp, IndexCastOp


@dataclass
class LowerCreateMask(RewritePattern):
    force_32bit_vector_indices: bool = True

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.CreateMaskOp, rewriter: PatternRewriter):
        t = op.mask_vector.type
        assert isinstance(t, VectorType)
        if t.get_num_dims() != 1 or t.get_num_scalable_dims():
            return
        n = t.get_shape()[0]
        lane = IntegerType(32 if self.force_32bit_vector_indices else 64)
        lanes = VectorType(lane, [n])
        rewriter.replace(
            op,
            [
                step := arith.ConstantOp(
                    DenseIntOrFPElementsAttr.from_list(lanes, list(range(n)))
                ),
                bound := IndexCastOp(op.mask_dim_sizes[0], lane),
                splat := vector.BroadcastOp(bound, lanes),
                CmpiOp(splat, step, "sgt"),
            ],
        )


class LowerConstantMask(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ConstantMaskOp, rewriter: PatternRewriter):
        t = op.result.type
        assert isinstance(t, VectorType)
        if t.get_num_dims() != 1 or t.get_num_scalable_dims():
            return
        n = t.get_shape()[0]
        size = op.mask_dim_sizes.get_values()[0]
        values = [1 if i < size else 0 for i in range(n)]
        rewriter.replace(
            op,
            arith.ConstantOp(
                DenseIntOrFPElementsAttr.from_list(VectorType(i1, [n]), values)
            ),
        )


__all__ = ["LowerConstantMask", "LowerCreateMask"]
