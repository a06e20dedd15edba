"""``vector.print`` of a vector as scalar prints in loops, as upstream's
``convert-vector-to-scf`` lowers it (MLIR 22)::

    vector.print %v : vector<2x2xi32>      // prints ( ( 1, 2 ), ( 3, 4 ) )

becomes a ``vector.shape_cast`` to 1-D (for n-D vectors), ``punctuation <open>``,
one ``scf.for`` per dim printing its rows or elements (``punctuation
<no_punctuation>`` after an element, ``<comma>`` between them, ``<open>``/``<close>``
around each row) and the op's own punctuation at the end. Elements are read with
``vector.extract`` at the flattened index ``sum(iv_k * stride_k)``.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, VectorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.gpu_dialect.arith import CmpiOp
from xdsl_gpu.gpu_dialect.vector.attributes import Punctuation
from xdsl_gpu.passes.vector_transforms.common import index_constant


class LowerVectorPrint(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.PrintOp, rewriter: PatternRewriter):
        if op.source is None or not isinstance(op.source.type, VectorType):
            return
        t = op.source.type
        shape = t.get_shape()
        if t.get_num_scalable_dims() or not shape:
            return  # scalable and 0-D vectors: not lowered here
        flat: SSAValue = op.source
        if len(shape) > 1:
            total = 1
            for d in shape:
                total *= d
            cast = vector.ShapeCastOp(op.source, VectorType(t.element_type, [total]))
            rewriter.insert(cast)
            flat = cast.results[0]
        zero = index_constant(0, rewriter)
        one = index_constant(1, rewriter)
        strides = [1] * len(shape)
        for k in range(len(shape) - 2, -1, -1):
            strides[k] = strides[k + 1] * shape[k + 1]
        # The loop bounds before the loops, where upstream's folding puts them.
        uppers = [index_constant(d, rewriter) for d in shape]
        rewriter.insert(vector.PrintOp(None, Punctuation.OPEN))
        rewriter.insert(self._loop(flat, shape, strides, 0, [], zero, one, uppers))
        rewriter.insert(vector.PrintOp(None, Punctuation.CLOSE))
        rewriter.replace(op, vector.PrintOp(None, op.punctuation.data))

    def _loop(
        self,
        flat: SSAValue,
        shape: tuple[int, ...],
        strides: list[int],
        dim: int,
        ivs: list[SSAValue],
        zero: SSAValue,
        one: SSAValue,
        uppers: list[SSAValue],
    ) -> Operation:
        """The loop over ``dim``."""
        body = Block(arg_types=[IndexType()])
        iv = body.args[0]
        ops: list[Operation] = []
        if dim + 1 < len(shape):
            ops.append(vector.PrintOp(None, Punctuation.OPEN))
            ops.append(
                self._loop(flat, shape, strides, dim + 1, [*ivs, iv], zero, one, uppers)
            )
            ops.append(vector.PrintOp(None, Punctuation.CLOSE))
        else:
            index: SSAValue = iv
            for outer, stride in zip(ivs, strides, strict=False):
                ops.append(c := _index(stride))
                ops.append(m := arith.MuliOp(outer, c.result))
                ops.append(a := arith.AddiOp(index, m.result))
                index = a.result
            t = flat.type
            assert isinstance(t, VectorType)
            ops.append(e := vector.ExtractOp(flat, [index], t.element_type))
            ops.append(vector.PrintOp(e.result, Punctuation.NO_PUNCTUATION))
        ops.append(last := _index(shape[dim] - 1))
        ops.append(cmp := CmpiOp(iv, last.result, "ult"))
        comma = Block([vector.PrintOp(None, Punctuation.COMMA), scf.YieldOp()])
        ops.append(scf.IfOp(cmp.result, [], Region(comma)))
        ops.append(scf.YieldOp())
        body.add_ops(ops)
        return scf.ForOp(zero, uppers[dim], one, [], Region(body))


def _index(value: int) -> arith.ConstantOp:
    return arith.ConstantOp.from_int_and_width(value, IndexType())


__all__ = ["LowerVectorPrint"]
