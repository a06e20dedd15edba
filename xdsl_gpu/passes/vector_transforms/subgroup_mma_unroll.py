"""``transform.apply_patterns.gpu.unroll_vectors_subgroup_mma [m, n, k]``: the vector
unroll patterns (:mod:`~xdsl_gpu.passes.vector_transforms.vector_unroll`) with the
native shapes of a subgroup MMA of ``m x n x k``, as upstream's
``ApplyUnrollVectorsSubgroupMmaOp`` (``GPUTransformOps.cpp``, MLIR 22):

* ``vector.contract``: ``[1, ..., m, n, k]`` over its iteration space, the
  reduction tiles outermost, then the parallel dims of the LHS, then the others (so
  that one LHS tile is reused);
* ``vector.transfer_write``: ``[1, ..., m, n]``;
* ``vector.transfer_read``: the shape of the ``extract_strided_slice``s that use it
  (all of its users must be such slices, of one shape; otherwise it stays);
* elementwise ops of rank 2 or more: the shape of the slices that use them, if all
  their users are slices of one shape, else ``[1, ..., m, n]``.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import VectorType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import RewritePattern

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.passes.vector_transforms.vector_unroll import (
    UnrollOptions,
    is_elementwise,
    vector_unroll_patterns,
)


def mma_unroll_order(op: Operation) -> list[int] | None:
    """Upstream's ``gpuMmaUnrollOrder``: reductions, then the LHS's parallel dims,
    then the other parallel dims."""
    if not isinstance(op, vector.ContractionOp):
        return None
    iterators = op.iterators
    lhs_dims = {e.position for e in op.maps[0].results if isinstance(e, AffineDimExpr)}
    reductions = [i for i, t in enumerate(iterators) if t == "reduction"]
    parallel = [i for i, t in enumerate(iterators) if t == "parallel"]
    return [
        *reductions,
        *(i for i in parallel if i in lhs_dims),
        *(i for i in parallel if i not in lhs_dims),
    ]


def _slice_shape(op: Operation) -> list[int] | None:
    """The one shape of the ``extract_strided_slice``s that are all of ``op``'s
    users; None otherwise."""
    shape: list[int] | None = None
    for use in op.results[0].uses:
        user = use.operation
        if not isinstance(user, vector.ExtractStridedSliceOp):
            return None
        assert isinstance(user.result.type, VectorType)
        sliced = list(user.result.type.get_shape())
        if shape is not None and shape != sliced:
            return None
        shape = sliced
    return shape


def subgroup_mma_native_shape(
    op: Operation, m: int, n: int, k: int
) -> Sequence[int] | None:
    """Upstream's ``getSubgroupMmaNativeVectorSize``."""
    if isinstance(op, vector.ContractionOp):
        rank = len(op.iterator_types.data)
        return None if rank < 3 else [*([1] * (rank - 3)), m, n, k]
    if isinstance(op, vector.TransferWriteOp):
        assert isinstance(op.vector.type, VectorType)
        rank = op.vector.type.get_num_dims()
        return None if rank < 2 else [*([1] * (rank - 2)), m, n]
    if isinstance(op, vector.TransferReadOp):
        return _slice_shape(op)
    if is_elementwise(op):
        t = op.results[0].type
        assert isinstance(t, VectorType)
        if t.get_num_dims() < 2:
            return None
        # An elementwise op between a read and a contract (an arith.ext of the
        # inputs) takes the contract's slices; the trailing ones the output tile.
        users = [use.operation for use in op.results[0].uses]
        if users and not all(
            isinstance(u, vector.ExtractStridedSliceOp) for u in users
        ):
            return None
        shape = _slice_shape(op)
        if users:
            return shape
        return [*([1] * (t.get_num_dims() - 2)), m, n]
    return None


def unroll_vectors_subgroup_mma_patterns(
    m: int, n: int, k: int
) -> list[RewritePattern]:
    return vector_unroll_patterns(
        UnrollOptions(
            native_shape=lambda op: subgroup_mma_native_shape(op, m, n, k),
            traversal_order=mma_unroll_order,
        )
    )


__all__ = [
    "mma_unroll_order",
    "subgroup_mma_native_shape",
    "unroll_vectors_subgroup_mma_patterns",
]
