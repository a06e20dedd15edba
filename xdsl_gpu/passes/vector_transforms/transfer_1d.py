"""1-D transfers whose dim is not the source's innermost one, as scalar loops: what
upstream's ``TransferOp1dConversion`` makes of them in ``convert-vector-to-scf``
(MLIR 22).

``vector.transfer_read %m[%i, %j], %pad {permutation_map = (d0, d1) -> (d0)} :
memref<?x?xf32>, vector<9xf32>`` reads a column: the padding broadcast to the
vector, then an ``scf.for`` over the 9 lanes that, where the element is in bounds
(``memref.dim %m, 0 > %i + iv``, and the lane's mask bit if there is a mask),
``memref.load``-s ``%m[%i + iv, %j]`` and ``vector.insert``-s it at the lane. A
write ``vector.extract``-s each lane and ``memref.store``-s it in the same loop.
An ``in_bounds`` dim has no guard. A scalable vector (``vector<[4]xf32>``) loops
over ``4 * vector.vscale`` lanes.

Left alone: broadcast dims (``(d0, d1) -> (0)``; :mod:`.transfer_broadcast`),
and tensors unless ``lower-tensors`` (reads as
``tensor.extract``).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import affine, arith, memref, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
    VectorType,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.gpu_dialect.arith import CmpiOp
from xdsl_gpu.passes.vector_transforms.common import index_constant, is_minor_identity
from xdsl_gpu.passes.vector_transforms.transfer_unroll import dim_op

_LANE_INDEX = AffineMap(1, 1, (AffineExpr.dimension(0) + AffineExpr.symbol(0),))
"""``(d0)[s0] -> (d0 + s0)``: the lane added to the transfer's index."""


def _column(
    op: vector.TransferReadOp | vector.TransferWriteOp,
    v: object,
    lower_tensors: bool,
) -> tuple[VectorType, int] | None:
    """The vector type and the source dim a 1-D transfer walks, if it is one this
    lowering takes."""
    if not isinstance(v, VectorType) or v.get_num_dims() != 1:
        return None
    source = op.source.type
    if not isinstance(source, MemRefType) and not (
        lower_tensors and isinstance(source, TensorType)
    ):
        return None
    amap = op.permutation_map.data
    if is_minor_identity(amap) or len(amap.results) != 1:
        return None
    (expr,) = amap.results
    if not isinstance(expr, AffineDimExpr):
        return None  # a broadcast: transfer_broadcast reads one element
    return v, expr.position  # pyright: ignore[reportUnknownVariableType]


def _lane_loop(
    v: VectorType, carried: list[SSAValue], rewriter: PatternRewriter
) -> tuple[scf.ForOp, SSAValue, Block]:
    zero = index_constant(0, rewriter)
    upper = index_constant(v.get_shape()[0], rewriter)
    if v.get_num_scalable_dims():
        # A scalable vector has its length times vscale lanes.
        rewriter.insert(vscale := vector.VectorScaleOp())
        rewriter.insert(lanes := arith.MuliOp(vscale.res, upper))
        upper = lanes.result
    one = index_constant(1, rewriter)
    body = Block(arg_types=[IndexType(), *(c.type for c in carried)])
    loop = scf.ForOp(zero, upper, one, carried, Region(body))
    return loop, body.args[0], body


def _lane_indices(
    op: vector.TransferReadOp | vector.TransferWriteOp, dim: int, lane: SSAValue
) -> tuple[Operation, list[SSAValue]]:
    indices = list(op.indices)
    apply = affine.ApplyOp([lane, indices[dim]], AffineMapAttr(_LANE_INDEX))
    return apply, [*indices[:dim], apply.result, *indices[dim + 1 :]]


def _condition(
    op: vector.TransferReadOp | vector.TransferWriteOp,
    dim: int,
    lane: SSAValue,
) -> tuple[list[Operation], SSAValue | None]:
    """The ops that decide whether ``lane`` is accessed, and the ``i1`` they give
    (None: always)."""
    ops: list[Operation] = []
    cond: SSAValue | None = None
    if not op.in_bounds.data[0].value:
        position = arith.ConstantOp.from_int_and_width(dim, IndexType())
        size = dim_op(op.source, position.result)
        shifted = affine.ApplyOp([lane, op.indices[dim]], AffineMapAttr(_LANE_INDEX))
        compare = CmpiOp(size.results[0], shifted.result, "sgt")
        ops += [position, size, shifted, compare]
        cond = compare.result
    if op.mask is not None:
        bit = vector.ExtractOp(op.mask, [lane], IntegerType(1))
        ops.append(bit)
        if cond is None:
            cond = bit.result
        else:
            both = arith.AndIOp(cond, bit.result)
            ops.append(both)
            cond = both.result
    return ops, cond


@dataclass
class TransferRead1dToLoop(RewritePattern):
    lower_tensors: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferReadOp, rewriter: PatternRewriter):
        found = _column(op, op.result.type, self.lower_tensors)
        if found is None:
            return
        v, dim = found
        init = vector.BroadcastOp(op.padding, v)
        rewriter.insert(init)
        loop, lane, body = _lane_loop(v, [init.vector], rewriter)
        acc = body.args[1]
        apply, indices = _lane_indices(op, dim, lane)
        load: Operation = (
            tensor.ExtractOp(op.source, indices, v.element_type)
            if isinstance(op.source.type, TensorType)
            else memref.LoadOp.get(op.source, indices)
        )
        insert = vector.InsertOp(load.results[0], acc, [lane], v)
        guard_ops, cond = _condition(op, dim, lane)
        if cond is None:
            body.add_ops([apply, load, insert, scf.YieldOp(insert.result)])
        else:
            choice = scf.IfOp(
                cond,
                [v],
                Region(Block([load, insert, scf.YieldOp(insert.result)])),
                Region(Block([scf.YieldOp(acc)])),
            )
            body.add_ops([apply, *guard_ops, choice, scf.YieldOp(choice.results[0])])
        rewriter.replace(op, loop)


class TransferWrite1dToLoop(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferWriteOp, rewriter: PatternRewriter):
        if op.result is not None:
            return  # a tensor: bufferize first
        found = _column(op, op.vector.type, False)
        if found is None:
            return
        v, dim = found
        loop, lane, body = _lane_loop(v, [], rewriter)
        apply, indices = _lane_indices(op, dim, lane)
        element = vector.ExtractOp(op.vector, [lane], v.element_type)
        store = memref.StoreOp.get(element.result, op.source, indices)
        guard_ops, cond = _condition(op, dim, lane)
        if cond is None:
            body.add_ops([apply, element, store, scf.YieldOp()])
        else:
            body.add_ops(
                [
                    *guard_ops,
                    scf.IfOp(
                        cond,
                        [],
                        Region(Block([apply, element, store, scf.YieldOp()])),
                        Region(Block([scf.YieldOp()])),
                    ),
                    scf.YieldOp(),
                ]
            )
        rewriter.replace(op, loop, [])


__all__ = ["TransferRead1dToLoop", "TransferWrite1dToLoop"]
