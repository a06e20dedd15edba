"""n-D transfers as ``scf.for`` loops over a stack buffer, as upstream's
``convert-vector-to-scf`` (``full-unroll=false``, the default) lowers them (MLIR 22).

A ``transfer_read`` of ``vector<2x4xf32>`` gets a ``memref.alloca`` of
``memref<vector<2x4xf32>>`` at the start of its function, viewed as
``memref<2xvector<4xf32>>`` by ``vector.type_cast``; an ``scf.for`` over the first
dim stores each row (a ``vector<4xf32>`` transfer at the row's index + iv) into the
buffer, or, for a row out of bounds (``memref.dim <= index``), the padding
broadcast; the result is the buffer loaded whole. A ``transfer_write`` stores its
vector into such a buffer and writes it row by row from the loop, skipping rows out
of bounds. The row transfers have one dim less and are lowered again until their
rank is the target rank.

Masked transfers are unrolled instead (:mod:`.transfer_unroll`); tensors, other
permutation maps and scalable leading dims are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    IndexType,
    MemRefType,
    VectorType,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.gpu_dialect.arith import CmpiOp
from xdsl_gpu.passes.vector_transforms.common import index_constant
from xdsl_gpu.passes.vector_transforms.transfer_unroll import (
    dim_op,
    inner_map,
    inner_type,
    unpacked_dim,
    unrollable,
)

_ROW_INDEX = AffineMap(1, 1, (AffineExpr.dimension(0) + AffineExpr.symbol(0),))
"""``(d0)[s0] -> (d0 + s0)``: the loop's row added to the transfer's index."""


def _alloca_at_function_start(
    op: Operation, t: MemRefType, rewriter: PatternRewriter
) -> SSAValue:
    """A ``memref.alloca`` of ``t`` at the start of the function holding ``op`` (the
    allocation scope), so that loops around the transfer do not grow the stack."""
    scope = op.parent_op()
    while scope is not None and scope.parent_op() is not None:
        if scope.name in ("func.func", "gpu.func", "llvm.func"):
            break
        scope = scope.parent_op()
    alloca = memref.AllocaOp.get(t.element_type, shape=t.get_shape())
    if scope is None or not scope.regions or scope.regions[0].blocks.first is None:
        rewriter.insert(alloca)
    else:
        # After the allocas already there, so that they stay in creation order.
        entry = scope.regions[0].blocks.first
        anchor = entry.first_op
        while isinstance(anchor, memref.AllocaOp):
            anchor = anchor.next_op
        point = (
            InsertPoint.before(anchor)
            if anchor is not None
            else InsertPoint.at_end(entry)
        )
        rewriter.insert(alloca, point)
    return alloca.memref


def _row_index(
    indices: list[SSAValue], dim: int, iv: SSAValue
) -> tuple[Operation, list[SSAValue]]:
    apply = affine.ApplyOp([iv, indices[dim]], AffineMapAttr(_ROW_INDEX))
    return apply, [*indices[:dim], apply.result, *indices[dim + 1 :]]


def _loop(
    size: int,
    carried: list[SSAValue],
    rewriter: PatternRewriter,
) -> tuple[scf.ForOp, SSAValue]:
    zero = index_constant(0, rewriter)
    upper = index_constant(size, rewriter)
    one = index_constant(1, rewriter)
    body = Block(arg_types=[IndexType(), *(c.type for c in carried)])
    loop = scf.ForOp(zero, upper, one, carried, Region(body))
    return loop, body.args[0]


def _guard(
    op: vector.TransferReadOp | vector.TransferWriteOp,
    dim: int,
    iv: SSAValue,
    then_ops: list[Operation],
    else_ops: list[Operation],
    body: Block,
    then_yield: list[SSAValue] | None = None,
    else_yield: list[SSAValue] | None = None,
) -> None:
    """Append ``if (memref.dim > index + iv) then_ops else else_ops`` to ``body``
    (yielding ``then_yield``/``else_yield``: a tensor carried by the loop)."""
    c = arith.ConstantOp.from_int_and_width(dim, IndexType())
    size = dim_op(op.source, c.result)
    shifted = affine.ApplyOp([iv, op.indices[dim]], AffineMapAttr(_ROW_INDEX))
    cond = CmpiOp(size.results[0], shifted.result, "sgt")
    body.add_ops(
        [
            c,
            size,
            shifted,
            cond,
            scf.IfOp(
                cond.result,
                [v.type for v in then_yield or []],
                Region(Block([*then_ops, scf.YieldOp(*(then_yield or []))])),
                Region(Block([*else_ops, scf.YieldOp(*(else_yield or []))])),
            ),
        ]
    )


@dataclass
class TransferReadToLoop(RewritePattern):
    target_rank: int = 1
    lower_tensors: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferReadOp, rewriter: PatternRewriter):
        v = op.result.type
        assert isinstance(v, VectorType)
        if op.mask is not None:
            return
        if not unrollable(op, v, self.target_rank, self.lower_tensors):
            return
        amap = op.permutation_map.data
        dim = unpacked_dim(amap)
        row_t = inner_type(v)
        in_bounds = list(op.in_bounds.data)
        buffer = _alloca_at_function_start(op, MemRefType(v, []), rewriter)
        rows = vector.TypeCastOp(buffer, MemRefType(row_t, [v.get_shape()[0]]))
        rewriter.insert(rows)
        loop, iv = _loop(v.get_shape()[0], [], rewriter)
        body = loop.body.block

        def read_row() -> list[Operation]:
            apply, row_indices = _row_index(list(op.indices), dim, iv)
            read = vector.TransferReadOp(
                op.source,
                row_indices,
                op.padding,
                row_t,
                ArrayAttr[BoolAttr](in_bounds[1:]),
                inner_map(amap),
            )
            return [apply, read, memref.StoreOp.get(read.result, rows.result, [iv])]

        if in_bounds[0].value:
            body.add_ops(read_row())
        else:
            pad = vector.BroadcastOp(op.padding, row_t)
            _guard(
                op,
                dim,
                iv,
                read_row(),
                [pad, memref.StoreOp.get(pad.vector, rows.result, [iv])],
                body,
            )
        body.add_op(scf.YieldOp())
        rewriter.insert(loop)
        rewriter.replace(op, memref.LoadOp.get(buffer, []))


@dataclass
class TransferWriteToLoop(RewritePattern):
    """The rows written from a stack buffer in a loop; into a tensor (with
    ``lower-tensors``) the loop carries the tensor, each row's write making the
    next one, as upstream threads it."""

    target_rank: int = 1
    lower_tensors: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferWriteOp, rewriter: PatternRewriter):
        v = op.vector.type
        assert isinstance(v, VectorType)
        if op.mask is not None:
            return
        if not unrollable(op, v, self.target_rank, self.lower_tensors):
            return
        amap = op.permutation_map.data
        dim = unpacked_dim(amap)
        row_t = inner_type(v)
        in_bounds = list(op.in_bounds.data)
        buffer = _alloca_at_function_start(op, MemRefType(v, []), rewriter)
        rewriter.insert(memref.StoreOp.get(op.vector, buffer, []))
        rows = vector.TypeCastOp(buffer, MemRefType(row_t, [v.get_shape()[0]]))
        rewriter.insert(rows)
        carried = [op.source] if op.result is not None else []
        loop, iv = _loop(v.get_shape()[0], carried, rewriter)
        body = loop.body.block
        into = body.args[1] if carried else op.source
        tensor_t = op.result.type if op.result is not None else None

        def write_row() -> tuple[list[Operation], list[SSAValue]]:
            apply, row_indices = _row_index(list(op.indices), dim, iv)
            row = memref.LoadOp.get(rows.result, [iv])
            write = vector.TransferWriteOp(
                row.res,
                into,
                row_indices,
                ArrayAttr[BoolAttr](in_bounds[1:]),
                None,
                inner_map(amap),
                tensor_t,  # pyright: ignore[reportArgumentType]
            )
            return [apply, row, write], list(write.results)

        ops, made = write_row()
        if in_bounds[0].value:
            body.add_ops([*ops, scf.YieldOp(*made)])
        else:
            _guard(
                op,
                dim,
                iv,
                ops,
                [],
                body,
                then_yield=made,
                else_yield=[into] if carried else [],
            )
            guard = body.last_op
            assert isinstance(guard, scf.IfOp)
            body.add_op(scf.YieldOp(*guard.results))
        rewriter.insert(loop)
        rewriter.replace(op, [], list(loop.results))


__all__ = ["TransferReadToLoop", "TransferWriteToLoop"]
