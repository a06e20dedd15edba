"""What every nvvm op here shares: the LLVM intrinsic it is translated to.

The LLVM IR translation is table-driven: it calls
:meth:`IntrinsicOp.get_llvm_intrinsic` and passes the op's operands, in order, as the
call's arguments; the call's result is the op's result. Ops with one intrinsic name it
in the class constant ``LLVM_INTRINSIC``; ops whose intrinsic depends on their kind or
types (``shfl.sync``, ``vote.sync``, ``redux.sync``, ``memory.barrier``, the fences)
compute it in ``get_llvm_intrinsic``. Constant arguments that follow the operands are
listed in the class constant ``LLVM_IMMEDIATE_ARGS`` as (LLVM IR type, value) pairs
(``barrier0`` passes ``i32 0``). A special register's ``range`` becomes the call's
``range(...)`` return attribute. ``elect.sync``, whose call differs from the rule,
emits itself through an ``llvm_ir(emitter)`` method, the translation's hook.
"""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.irdl import IRDLOperation


class IntrinsicOp(IRDLOperation, ABC):
    """An nvvm op translated to a call of one LLVM intrinsic."""

    LLVM_INTRINSIC: ClassVar[str]
    """The intrinsic, for ops that always call the same one."""

    def get_llvm_intrinsic(self) -> str:
        """The name of the LLVM intrinsic that this op calls."""
        return self.LLVM_INTRINSIC
