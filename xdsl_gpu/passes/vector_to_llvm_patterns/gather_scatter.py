"""``vector.gather``/``vector.scatter`` → ``llvm``, as upstream MLIR 22's
``VectorGatherOpConversion``/``VectorScatterOpConversion`` lower them.

The base address is the memref's aligned pointer plus the strided offset of the
op's offsets (as for ``vector.load``); a second ``getelementptr`` takes the vector
of indices and gives one pointer per lane (``vector<4x!llvm.ptr>``), which
``llvm.intr.masked.gather``/``masked.scatter`` read or write under the mask::

    %p = llvm.getelementptr %base[%off] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %ps = llvm.getelementptr %p[%idx] : (!llvm.ptr, vector<4xi32>) -> vector<4x!llvm.ptr>, f32
    %g = llvm.intr.masked.gather %ps, %mask, %pass {alignment = 4 : i32} : ...

An n-D gather is lowered row by row on the arrays of 1-D vectors (each row's
index, mask and pass-through rows extracted, the base address recomputed per row,
the gathered rows inserted into the result); upstream starts that array from a
``ub.poison`` cast, we from ``llvm.mlir.poison`` of the array (the same value).
Like upstream, an n-D scatter and a memref whose innermost stride is not 1 are
left as they are.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import MemRefType, VectorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xdsl_gpu.gpu_dialect import llvm, vector
from xdsl_gpu.gpu_dialect.llvm_vector import MaskedGatherOp, MaskedScatterOp
from xdsl_gpu.passes.finalize_memref_to_llvm import MemRefLoweringOptions
from xdsl_gpu.passes.llvm_type_converter import array_positions, extract, insert
from xdsl_gpu.passes.memref_descriptor import strides_and_offset
from xdsl_gpu.passes.vector_to_llvm_patterns.memory import VectorAccessPattern


def _unit_innermost_stride(t: Attribute) -> MemRefType | None:
    """Upstream gathers only from memrefs whose innermost stride is 1."""
    if not isinstance(t, MemRefType) or not t.get_shape():
        return None
    try:
        strides, _ = strides_and_offset(t)
    except ValueError:
        return None
    return cast(MemRefType, t) if strides and strides[-1] == 1 else None


def _pointers(
    base: SSAValue, indices: SSAValue, element: Attribute, lanes: int
) -> llvm.GEPOp:
    """One pointer per lane: ``base + indices[i]`` elements."""
    return llvm.GEPOp.from_mixed_indices(
        base,
        [indices],
        element,
        result_type=VectorType(llvm.LLVMPointerType(), [lanes]),
    )


class GatherLowering(VectorAccessPattern):
    op_type = vector.GatherOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue] | None:
        gather = cast(vector.GatherOp, op)
        memref_type = _unit_innermost_stride(gather.base.type)
        result_t = gather.result.type
        if memref_type is None or not isinstance(result_t, VectorType):
            return None
        if result_t.get_num_scalable_dims():
            return None
        o = self.options
        converted, *rest = o.operands(op, rewriter)
        *offsets, indices, mask, pass_thru = rest
        element = o.element_type(op, memref_type)
        rows, row_t = array_positions(o.convert(op, result_t))
        assert isinstance(row_t, VectorType)
        alignment = self.alignment(op, memref_type, row_t)
        lanes = row_t.get_shape()[0]
        if rows == [()]:
            base = self.address(op, memref_type, converted, offsets, rewriter)
            rewriter.insert(ptrs := _pointers(base, indices, element, lanes))
            rewriter.insert(g := MaskedGatherOp(ptrs, mask, pass_thru, alignment))
            return [g.res]
        rewriter.insert(acc := llvm.PoisonOp(o.convert(op, result_t)))
        result: SSAValue = acc.res
        for row in rows:
            row_ops: list[Operation] = [
                extract(indices, *row),
                extract(mask, *row),
                extract(pass_thru, *row),
            ]
            for new in row_ops:
                rewriter.insert(new)
            row_indices, row_mask, row_pass = (r.results[0] for r in row_ops)
            base = self.address(op, memref_type, converted, offsets, rewriter)
            rewriter.insert(ptrs := _pointers(base, row_indices, element, lanes))
            rewriter.insert(g := MaskedGatherOp(ptrs, row_mask, row_pass, alignment))
            rewriter.insert(step := insert(result, g.res, *row))
            result = step.res
        return [result]


class ScatterLowering(VectorAccessPattern):
    op_type = vector.ScatterOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue] | None:
        scatter = cast(vector.ScatterOp, op)
        memref_type = _unit_innermost_stride(scatter.base.type)
        value_t = scatter.valueToStore.type
        if memref_type is None or not isinstance(value_t, VectorType):
            return None
        if value_t.get_num_dims() != 1 or value_t.get_num_scalable_dims():
            return None  # n-D: upstream leaves it too
        o = self.options
        converted, *rest = o.operands(op, rewriter)
        *offsets, indices, mask, value = rest
        element = o.element_type(op, memref_type)
        alignment = self.alignment(op, memref_type, value_t)
        base = self.address(op, memref_type, converted, offsets, rewriter)
        lanes = value_t.get_shape()[0]
        rewriter.insert(ptrs := _pointers(base, indices, element, lanes))
        rewriter.insert(MaskedScatterOp(value, ptrs, mask, alignment))
        return []


def gather_scatter_patterns(
    options: MemRefLoweringOptions, use_vector_alignment: bool = False
) -> list[VectorAccessPattern]:
    return [
        GatherLowering(options, use_vector_alignment),
        ScatterLowering(options, use_vector_alignment),
    ]


__all__ = ["GatherLowering", "ScatterLowering", "gather_scatter_patterns"]
