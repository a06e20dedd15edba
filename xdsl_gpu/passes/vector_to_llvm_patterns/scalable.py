"""The ops that only scalable vectors need, to the ``llvm`` dialect as upstream MLIR 22
lowers them: ``vector.vscale`` is ``llvm.intr.vscale`` (``i64``, the converted
``index``), a ``vector.step`` of scalable length is ``llvm.intr.stepvector`` (a
fixed-length one is a dense constant, :class:`..convert_vector_to_llvm.LowerStep`).

The other 1-D ops (load/store, arithmetic, insert/extract, broadcast, reductions)
lower as for fixed lengths: LLVM takes ``vector<[4]xf32>`` as it is and the LLVM IR
translation writes it ``<vscale x 4 x float>``.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    IndexType,
    UnrealizedConversionCastOp,
    VectorType,
    i64,
)
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import llvm_vector, vector


class LowerVScale(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.VectorScaleOp, rewriter: PatternRewriter):
        rewriter.replace(
            op,
            [
                vscale := llvm_vector.VScaleOp(i64),
                UnrealizedConversionCastOp.create(
                    operands=[vscale.res], result_types=[IndexType()]
                ),
            ],
        )


class LowerScalableStep(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.StepOp, rewriter: PatternRewriter):
        t = op.result.type
        assert isinstance(t, VectorType)
        if not t.get_num_scalable_dims():
            return
        step = llvm_vector.StepVectorOp(VectorType(i64, t.get_shape(), t.scalable_dims))
        rewriter.replace(
            op,
            [
                step,
                UnrealizedConversionCastOp.create(
                    operands=[step.res], result_types=[t]
                ),
            ],
        )


def scalable_patterns() -> list[RewritePattern]:
    return [LowerVScale(), LowerScalableStep()]


__all__ = ["LowerScalableStep", "LowerVScale", "scalable_patterns"]
