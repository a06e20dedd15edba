"""MLIR's order of verification, for the ops whose first error depends on it.

MLIR checks an op's own invariants (its operand count, its ODS constraints, its
``verify()``) when it *enters* the op, then the ops nested in it, then the block's
terminator, and last the op's ``verifyRegions()``. xDSL checks the nested ops and
whether the op may end its block first, and the op's own constraints last. Where an
input breaks both, the two tools then name different errors: a ``gpu.launch`` with
too few operands whose body holds a misplaced ``gpu.return``, a kernel with a result
type whose ``gpu.return`` returns nothing, a ``gpu.memcpy`` of mismatched memrefs
that is the last op of a block without terminator.

An op with :class:`VerifiedOnEntrance` among its bases runs
:meth:`~VerifiedOnEntrance.verify_on_entrance_` before all of that; by default its
whole ``verify_`` (the ODS constraints and its own checks), which suits ops without
region checks. Ops with region checks override it with the part MLIR runs on
entrance. The usual ``verify_`` still runs where xDSL runs it, so those checks run
twice: cheap, and only for these ops.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.irdl import IRDLOperation
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.gpu.constraints import SameTypeMismatch, op_error


class VerifiedOnEntrance(Operation):
    """Mixin, before ``IRDLOperation`` in the bases: verify the op's own invariants
    before the ops nested in it (see the module docstring)."""

    def verify_on_entrance_(self) -> None:
        """What MLIR checks on entering the op; by default everything ``verify_``
        checks."""
        self.verify_()

    def verify(self, verify_nested_ops: bool = True) -> None:
        try:
            verify_ods_on_entrance(self, self.verify_on_entrance_)
        except VerifyException as err:
            self.emit_error(f"Operation does not verify: {err}", err)
        except Exception:
            # A check that trips over IR this broken: the usual verification below
            # runs it again and reports it as every other op's.
            pass
        super().verify(verify_nested_ops)


def verify_ods_on_entrance(op: Operation, check: object) -> None:
    """Run ``check`` (a callable), giving an ``AllTypesMatch`` failure of the ODS
    constraints upstream's words: ``'gpu.x' op failed to verify that all of {a, b}
    have same type`` (xDSL names the operand or result where the match broke)."""
    assert callable(check)
    try:
        check()
    except VerifyException as err:
        cause = err.__cause__
        if isinstance(cause, SameTypeMismatch):
            raise op_error(op, str(cause)) from err
        raise


def verify_ods(op: IRDLOperation) -> None:
    """The op's ODS constraints alone (operands, results, properties, ...), without
    its own ``verify_``."""
    op.get_irdl_definition().verify(op)


def verify_operand_count(op: Operation, minimum: int) -> None:
    """Upstream ``AtLeastNOperands<minimum>``, which MLIR checks before anything
    else of the op: ``expected 6 or more operands, but found 5``."""
    if len(op.operands) < minimum:
        raise op_error(
            op,
            f"expected {minimum} or more operands, but found {len(op.operands)}",
        )
