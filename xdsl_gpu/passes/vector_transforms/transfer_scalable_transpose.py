"""A write of a transposed vector with a scalable leading dim, as a loop over its
``vscale``-many rows: upstream's ``ScalableTransposeTransferWriteConversion``, which
``convert-vector-to-scf{lower-scalable=true}`` adds (MLIR 22).

``transfer_write (vector.transpose %v, [1, 0] : vector<4x[4]xf32> to
vector<[4]x4xf32>), %m[%i, %j] {in_bounds = [true, ...]}`` takes the 4 scalable rows
of ``%v`` once (``vector.extract %v[k]``); an ``scf.for`` over ``4 * vector.vscale``
rows (or the mask's first size) then builds row ``r`` from lane ``r`` of each
(``vector.extract``, ``vector.from_elements``) and writes it as a ``vector<4xf32>``
at ``%m[%i + r, %j]``, masked by a ``create_mask`` of the other mask sizes. On a
tensor (with ``lower-tensors``) the loop carries it.

Only this form: rank 2, ``[N]xM``, the identity map, the leading dim in bounds, the
vector a ``[1, 0]`` transpose, a mask from ``create_mask``/``constant_mask``; other
scalable leading dims are left, as upstream leaves them.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    IndexType,
    IntegerType,
    TensorType,
    VectorType,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.passes.vector_transforms.common import index_constant

_ROW_INDEX = AffineMap(1, 1, (AffineExpr.dimension(0) + AffineExpr.symbol(0),))
"""``(d0)[s0] -> (d0 + s0)``: the loop's row added to the write's index."""


class _VScaleMultiples:
    """``n * vector.vscale`` as index values, one ``vector.vscale`` for all."""

    def __init__(self, rewriter: PatternRewriter):
        self.rewriter = rewriter
        self.vscale: SSAValue | None = None

    def __call__(self, n: int) -> SSAValue:
        if self.vscale is None:
            self.rewriter.insert(vs := vector.VectorScaleOp())
            self.vscale = vs.res
        size = index_constant(n, self.rewriter)
        self.rewriter.insert(product := arith.MuliOp(self.vscale, size))
        return product.result


def _mask_sizes(
    mask: SSAValue | None, vscale_times: _VScaleMultiples, rewriter: PatternRewriter
) -> list[SSAValue] | None:
    """The sizes of a ``create_mask``/``constant_mask`` as index values (``[]`` for
    no mask; ``None`` for a mask made otherwise)."""
    if mask is None:
        return []
    owner = mask.owner
    if isinstance(owner, vector.CreateMaskOp):
        return list(owner.mask_dim_sizes)
    if isinstance(owner, vector.ConstantMaskOp):
        t = owner.result.type
        assert isinstance(t, VectorType)
        sizes: list[SSAValue] = []
        for size, scalable in zip(
            owner.mask_dim_sizes.get_values(), t.get_scalable_dims(), strict=True
        ):
            sizes.append(
                vscale_times(size) if scalable else index_constant(size, rewriter)
            )
        return sizes
    return None


@dataclass
class ScalableTransposeTransferWrite(RewritePattern):
    lower_tensors: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferWriteOp, rewriter: PatternRewriter):
        if isinstance(op.source.type, TensorType) and not self.lower_tensors:
            return
        v = op.vector.type
        if not isinstance(v, VectorType) or v.get_scalable_dims() != (True, False):
            return
        amap = op.permutation_map.data
        if amap != AffineMap.identity(amap.num_dims) or amap.num_dims != 2:
            return
        if not op.in_bounds.data[0].value:
            return  # out-of-bounds rows need a mask
        transpose = op.vector.owner
        if not isinstance(transpose, vector.TransposeOp):
            return
        if tuple(transpose.permutation.get_values()) != (1, 0):
            return
        mask = op.mask
        if mask is not None and not isinstance(
            mask.owner, vector.CreateMaskOp | vector.ConstantMaskOp
        ):
            return
        vscale_times = _VScaleMultiples(rewriter)
        sizes = _mask_sizes(mask, vscale_times, rewriter)
        assert sizes is not None
        rows = v.get_shape()[1]
        source = transpose.vector
        columns: list[SSAValue] = []
        for k in range(rows):
            source_t = source.type
            assert isinstance(source_t, VectorType)
            column_t = VectorType(
                source_t.element_type,
                source_t.get_shape()[1:],
                ArrayAttr(source_t.scalable_dims.data[1:]),
            )
            rewriter.insert(column := vector.ExtractOp(source, [k], column_t))
            columns.append(column.result)
        zero = index_constant(0, rewriter)
        upper = sizes[0] if sizes else vscale_times(v.get_shape()[0])
        one = index_constant(1, rewriter)
        row_t = VectorType(v.element_type, [rows])
        row_mask: SSAValue | None = None
        if sizes:
            row_mask_op = vector.CreateMaskOp(
                list[Operation | SSAValue](sizes[1:]),
                VectorType(IntegerType(1), [rows]),
            )
            rewriter.insert(row_mask_op)
            row_mask = row_mask_op.mask_vector

        carried = [op.source] if op.result is not None else []
        body = Block(arg_types=[IndexType(), *(c.type for c in carried)])
        row = body.args[0]
        into = body.args[1] if carried else op.source
        shifted = affine.ApplyOp([row, op.indices[0]], AffineMapAttr(_ROW_INDEX))
        lanes: list[Operation] = [
            vector.ExtractOp(c, [row], v.element_type) for c in columns
        ]
        slice_op = vector.FromElementsOp([lane.results[0] for lane in lanes], row_t)
        write = vector.TransferWriteOp(
            slice_op.results[0],
            into,
            [shifted.result, *op.indices[1:]],
            ArrayAttr[BoolAttr](op.in_bounds.data[1:]),
            row_mask,
            AffineMapAttr(AffineMap.minor_identity(2, 1)),
            op.result.type if op.result is not None else None,  # pyright: ignore[reportArgumentType]
        )
        body.add_ops([shifted, *lanes, slice_op, write, scf.YieldOp(*write.results)])
        loop = scf.ForOp(zero, upper, one, carried, Region(body))
        rewriter.replace(op, loop, list(loop.results))
        if not transpose.result.uses:
            rewriter.erase(transpose)


__all__ = ["ScalableTransposeTransferWrite"]
