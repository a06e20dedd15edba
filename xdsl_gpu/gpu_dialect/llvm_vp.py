"""The ``llvm.intr.vp.reduce.*`` ops (LLVM's vector-predicated reductions), which
MLIR 22's convert-vector-to-llvm makes of a masked ``vector.reduction``. Upstream
prints them in the generic form::

    %r = "llvm.intr.vp.reduce.fadd"(%start, %v, %mask, %evl)
        : (f32, vector<16xf32>, vector<16xi1>, i32) -> f32

The lanes whose mask bit is set, among the first ``%evl``, are combined with
``%start``. Their LLVM IR is a call of ``@llvm.vp.reduce.<kind>.<vector type>``
(``xdsl_gpu/targets/llvm_ir/convert_op.py``'s intrinsic table). They join the
``llvm`` dialect through its op list (``xdsl_gpu/gpu_dialect/llvm.py``).
"""

from __future__ import annotations

from abc import ABC
from typing import cast

from xdsl.dialects.builtin import I1, I32, VectorType
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


class VPReduceOp(IRDLOperation, ABC):
    """``(start, vector, mask, evl) -> start``'s type (generic syntax only)."""

    start_value = operand_def()
    val = operand_def(VectorType)
    mask = operand_def(VectorType[I1])
    evl = operand_def(I32)
    res = result_def()
    traits = traits_def(Pure())

    def __init__(
        self,
        start: SSAValue | Operation,
        vector: SSAValue | Operation,
        mask: SSAValue | Operation,
        evl: SSAValue | Operation,
    ):
        start = SSAValue.get(start)
        super().__init__(operands=[start, vector, mask, evl], result_types=[start.type])

    def verify_(self) -> None:
        t = cast(VectorType, self.val.type)
        if t.element_type != self.res.type or self.start_value.type != self.res.type:
            raise VerifyException(
                "start value and result must be the element type of the vector"
            )
        if cast(VectorType, self.mask.type).get_shape() != t.get_shape():
            raise VerifyException("mask and vector must have the same shape")


def _vp(kind: str) -> type[VPReduceOp]:
    cls = type(
        f"VPReduce{kind.capitalize()}Op",
        (VPReduceOp,),
        {"name": f"llvm.intr.vp.reduce.{kind}", "__module__": __name__},
    )
    return irdl_op_definition(cls)


VP_REDUCE_KINDS = "add mul and or xor smax smin umax umin fadd fmul fmax fmin".split()
VP_REDUCE_OPS: dict[str, type[VPReduceOp]] = {k: _vp(k) for k in VP_REDUCE_KINDS}
"""``llvm.intr.vp.reduce.<kind>`` by kind."""

__all__ = ["VP_REDUCE_KINDS", "VP_REDUCE_OPS", "VPReduceOp"]
