"""``convert-vector-to-scf``: n-D ``vector.transfer_read``/``transfer_write`` become
transfers of lower rank (down to ``target-rank``), as upstream MLIR 22's
``ConvertVectorToSCFPass``.

Each transfer of rank above ``target-rank`` is split along its first dim, rows that
may be out of bounds guarded by ``memref.dim``:

* by default (``full-unroll=false``), in an ``scf.for`` loop that moves the rows
  through a ``memref.alloca`` of the vector viewed row by row by ``vector.type_cast``
  (:mod:`xdsl_gpu.passes.vector_transforms.transfer_loop`); masked transfers are
  unrolled instead;
* with ``full-unroll=true``, into one transfer per row combined by
  ``vector.insert``/``extract``, rows guarded by ``scf.if``
  (:mod:`xdsl_gpu.passes.vector_transforms.transfer_unroll`).

``vector.print`` of a vector becomes scalar prints in ``scf.for`` loops, as upstream
(:mod:`xdsl_gpu.passes.vector_transforms.print_lowering`).

With ``lower-tensors``, transfers on tensors are lowered the same way (``tensor.dim``
for the bounds); a write threads the tensor through the rows (the loop carries it,
each row's ``transfer_write`` makes the next one), as upstream.
With ``lower-scalable``, a write of a ``[1, 0]`` transpose into ``vector<[N]xM>``
becomes a loop over its ``N * vector.vscale`` rows, as upstream
(:mod:`xdsl_gpu.passes.vector_transforms.transfer_scalable_transpose`); other
scalable leading dims stay, as upstream leaves them. 1-D scalable transfers along
a dim that is not the innermost loop over ``N * vector.vscale`` lanes.

Maps that are not minor identities are rewritten first: permuted minor maps become
a minor-identity transfer and a ``vector.transpose``, and a write that leaves source
dims out gets unit dims for them (:mod:`xdsl_gpu.passes.vector_transforms.
transfer_permutation`); broadcast dims a smaller read and a ``vector.broadcast``
(:mod:`xdsl_gpu.passes.vector_transforms.transfer_broadcast`); a 1-D transfer along
a dim that is not the innermost one becomes a scalar loop
(:mod:`xdsl_gpu.passes.vector_transforms.transfer_1d`).

Left as they are (and named by convert-vector-to-llvm or convert-gpu-to-nvvm if they
remain): transfers on tensors without ``lower-tensors``, masked n-D transfers whose
map is not a minor identity, scalable leading dims (but for the transposed write
above).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import RewritePattern
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.gpu_dialect.vector.in_bounds import FoldTransferInBounds
from xdsl_gpu.passes.greedy_dispatch import DispatchingApplier, DispatchingWalker
from xdsl_gpu.passes.options import UpstreamOptions
from xdsl_gpu.passes.vector_transforms.print_lowering import LowerVectorPrint
from xdsl_gpu.passes.vector_transforms.transfer_1d import (
    TransferRead1dToLoop,
    TransferWrite1dToLoop,
)
from xdsl_gpu.passes.vector_transforms.transfer_broadcast import (
    TransferReadBroadcastPermutation,
    TransferReadDropLeadingBroadcast,
)
from xdsl_gpu.passes.vector_transforms.transfer_loop import (
    TransferReadToLoop,
    TransferWriteToLoop,
)
from xdsl_gpu.passes.vector_transforms.transfer_permutation import (
    TransferReadPermutation,
    TransferWriteNonPermutation,
    TransferWritePermutation,
)
from xdsl_gpu.passes.vector_transforms.transfer_scalable_transpose import (
    ScalableTransposeTransferWrite,
)
from xdsl_gpu.passes.vector_transforms.transfer_unroll import (
    UnrollTransferRead,
    UnrollTransferWrite,
)


@dataclass(frozen=True)
class ConvertVectorToSCFPass(UpstreamOptions, ModulePass):
    """Lower n-D vector transfers to transfers of ``target-rank`` (see the module
    docstring).

    Options (upstream's): ``full-unroll``, ``target-rank`` (1), ``lower-tensors``,
    ``lower-scalable``.
    """

    name = "convert-vector-to-scf"

    full_unroll: bool = False
    target_rank: int = 1
    lower_tensors: bool = False
    lower_scalable: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.target_rank < 0:
            raise PassFailedException(
                f"{self.name}: target-rank={self.target_rank}: the rank must be 0 or "
                "more"
            )
        # Permuted maps first become minor identities and transposes, as upstream.
        # Before any rewrite, upstream's greedy driver folds each transfer's
        # in_bounds (a dim provably in bounds needs no guard).
        patterns: list[RewritePattern] = [
            FoldTransferInBounds(),
            TransferReadPermutation(),
            TransferWriteNonPermutation(),
            TransferWritePermutation(),
            TransferReadBroadcastPermutation(),
            TransferReadDropLeadingBroadcast(),
        ]
        if not self.full_unroll:
            patterns += [
                TransferReadToLoop(self.target_rank, self.lower_tensors),
                TransferWriteToLoop(self.target_rank, self.lower_tensors),
            ]
        if self.lower_scalable:
            patterns.append(ScalableTransposeTransferWrite(self.lower_tensors))
        # Unrolled: everything with full-unroll, masked transfers without.
        patterns += [
            UnrollTransferRead(self.target_rank, self.lower_tensors),
            UnrollTransferWrite(self.target_rank, self.lower_tensors),
            # 1-D transfers along a dim that is not the innermost: scalar loops.
            TransferRead1dToLoop(self.lower_tensors),
            TransferWrite1dToLoop(),
            LowerVectorPrint(),
        ]
        # Each op meets only the patterns that may act on its class: the pass walks
        # every op of a program that has few or no vector transfers.
        DispatchingWalker(DispatchingApplier(patterns)).rewrite_module(op)


__all__ = ["ConvertVectorToSCFPass"]
