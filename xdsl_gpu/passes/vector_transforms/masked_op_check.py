"""What convert-vector-to-llvm does not lower inside a ``vector.mask``, named at the
op before it starts.

A masked ``transfer_read``, ``transfer_write`` or ``gather`` is folded into the op's
own mask by ``lower-vector-mask``, which must run first: MLIR 22's
convert-vector-to-llvm rewrites the op inside the mask region and then fails to
verify the ``vector.mask`` ("expects only one operation to mask"); ours stops with
an error at the op that names the fix. Masked reductions, contractions and outer
products are lowered; a masked ``multi_reduction`` stays, as upstream leaves it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.passes.llvm_type_converter import conversion_error


def check_masked_ops(module: ModuleOp, pass_name: str) -> None:
    """Raise a located error for a masked transfer or gather (module docstring)."""
    for op in module.walk():
        if not isinstance(op, vector.MaskOp):
            continue
        masked = op.masked_op
        if not isinstance(
            masked, vector.TransferReadOp | vector.TransferWriteOp | vector.GatherOp
        ):
            continue
        if isinstance(masked, vector.TransferReadOp) and op.passthru is not None:
            fix = (
                "with a passthru is not lowered (lower-vector-mask leaves it too, as "
                "upstream): select the passthru after an unmasked-padding read "
                "(arith.select) instead"
            )
        else:
            fix = (
                "is not lowered by convert-vector-to-llvm: run lower-vector-mask "
                "first (it moves the mask into the op)"
            )
        raise conversion_error(pass_name, op, f"of {masked.name} {fix}")


__all__ = ["check_masked_ops"]
