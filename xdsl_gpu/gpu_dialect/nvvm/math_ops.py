"""Approximate math: ``nvvm.rcp.approx.ftz.f``.

Printed form (MLIR 22)::

    %r = nvvm.rcp.approx.ftz.f %x : f32
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import f32
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import EqAttrConstraint, irdl_op_definition, operand_def, result_def

from xdsl_gpu.gpu_dialect.nvvm.base import IntrinsicOp


@irdl_op_definition
class RcpApproxFtzF32Op(IntrinsicOp):
    """``nvvm.rcp.approx.ftz.f``: ``1 / x``, approximate, subnormals flushed."""

    name = "nvvm.rcp.approx.ftz.f"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.rcp.approx.ftz.f"

    arg = operand_def(EqAttrConstraint(f32))
    res = result_def(EqAttrConstraint(f32))

    assembly_format = "$arg attr-dict `:` type($res)"

    def __init__(self, arg: SSAValue | Operation):
        super().__init__(operands=[arg], result_types=[f32])


OPERATIONS: tuple[type[Operation], ...] = (RcpApproxFtzF32Op,)

__all__ = ["RcpApproxFtzF32Op"]
