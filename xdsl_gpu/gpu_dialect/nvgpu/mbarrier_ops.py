"""mbarrier objects in shared memory: ``mbarrier.create``, ``init``, ``arrive``,
``arrive.nocomplete``, ``arrive.expect_tx``, ``test.wait``, ``try_wait.parity`` and
``get``. Each op but ``create`` addresses barrier ``%id`` of a group.

Printed forms (MLIR 22; the group type is printed stripped)::

    %g = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
    nvgpu.mbarrier.init %g[%id], %count, predicate = %p : <memorySpace = 3 : i64>
    %t = nvgpu.mbarrier.arrive %g[%id] : <...> -> !nvgpu.mbarrier.token
    %t = nvgpu.mbarrier.arrive.nocomplete %g[%id], %count : <...> -> !nvgpu.mbarrier.token
    nvgpu.mbarrier.arrive.expect_tx %g[%id], %tx, predicate = %p : <...>
    %done = nvgpu.mbarrier.test.wait %g[%id], %t : <...>, !nvgpu.mbarrier.token
    nvgpu.mbarrier.try_wait.parity %g[%id], %parity, %ticks : <...>
    %addr = nvgpu.mbarrier.get %g[%id] : <...> -> i32
"""

from __future__ import annotations

from xdsl.dialects.builtin import I1, IndexType, i1, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    EqAttrConstraint,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    result_def,
)

from xdsl_gpu.gpu_dialect.nvgpu.types import (
    MBarrierGroup,
    MBarrierGroupType,
    MBarrierTokenType,
)

_Values = SSAValue | Operation


def _optional(value: _Values | None) -> list[_Values]:
    return [] if value is None else [value]


@irdl_op_definition
class MBarrierCreateOp(IRDLOperation):
    """``nvgpu.mbarrier.create``: allocate the group's barriers (a shared-memory
    global of ``num_barriers`` i64 after lowering)."""

    name = "nvgpu.mbarrier.create"

    barriers = result_def(MBarrierGroupType)

    custom_directives = (MBarrierGroup,)
    assembly_format = "attr-dict `->` custom<MBarrierGroup>(type($barriers))"

    def __init__(self, barriers: MBarrierGroupType):
        super().__init__(result_types=[barriers])


@irdl_op_definition
class MBarrierInitOp(IRDLOperation):
    """``nvgpu.mbarrier.init``: set the expected arrival count of a barrier."""

    name = "nvgpu.mbarrier.init"

    barriers = operand_def(MBarrierGroupType)
    count = operand_def(IndexType)
    mbar_id = operand_def(IndexType)
    predicate = opt_operand_def(I1)

    custom_directives = (MBarrierGroup,)
    assembly_format = (
        "$barriers `[` $mbar_id `]` `,` $count (`,` `predicate` `=` $predicate^)? "
        "attr-dict `:` custom<MBarrierGroup>(type($barriers))"
    )

    def __init__(
        self,
        barriers: _Values,
        count: _Values,
        mbar_id: _Values,
        predicate: _Values | None = None,
    ):
        super().__init__(operands=[barriers, count, mbar_id, _optional(predicate)])


@irdl_op_definition
class MBarrierTestWaitOp(IRDLOperation):
    """``nvgpu.mbarrier.test.wait``: whether the phase of ``token`` completed
    (non-blocking)."""

    name = "nvgpu.mbarrier.test.wait"

    barriers = operand_def(MBarrierGroupType)
    token = operand_def(MBarrierTokenType)
    mbar_id = operand_def(IndexType)
    wait_complete = result_def(I1)

    custom_directives = (MBarrierGroup,)
    assembly_format = (
        "$barriers `[` $mbar_id `]` `,` $token attr-dict `:` "
        "custom<MBarrierGroup>(type($barriers)) `,` type($token)"
    )

    def __init__(self, barriers: _Values, token: _Values, mbar_id: _Values):
        super().__init__(operands=[barriers, token, mbar_id], result_types=[i1])


@irdl_op_definition
class MBarrierArriveOp(IRDLOperation):
    """``nvgpu.mbarrier.arrive``: arrive on a barrier, returning the phase token."""

    name = "nvgpu.mbarrier.arrive"

    barriers = operand_def(MBarrierGroupType)
    mbar_id = operand_def(IndexType)
    token = result_def(MBarrierTokenType)

    custom_directives = (MBarrierGroup,)
    assembly_format = (
        "$barriers `[` $mbar_id `]` attr-dict `:` "
        "custom<MBarrierGroup>(type($barriers)) `->` type($token)"
    )

    def __init__(self, barriers: _Values, mbar_id: _Values):
        super().__init__(
            operands=[barriers, mbar_id], result_types=[MBarrierTokenType()]
        )


@irdl_op_definition
class MBarrierArriveNoCompleteOp(IRDLOperation):
    """``nvgpu.mbarrier.arrive.nocomplete``: arrive ``count`` times without
    completing the phase."""

    name = "nvgpu.mbarrier.arrive.nocomplete"

    barriers = operand_def(MBarrierGroupType)
    mbar_id = operand_def(IndexType)
    count = operand_def(IndexType)
    token = result_def(MBarrierTokenType)

    custom_directives = (MBarrierGroup,)
    assembly_format = (
        "$barriers `[` $mbar_id `]` `,` $count attr-dict `:` "
        "custom<MBarrierGroup>(type($barriers)) `->` type($token)"
    )

    def __init__(self, barriers: _Values, mbar_id: _Values, count: _Values):
        super().__init__(
            operands=[barriers, mbar_id, count], result_types=[MBarrierTokenType()]
        )


@irdl_op_definition
class MBarrierArriveExpectTxOp(IRDLOperation):
    """``nvgpu.mbarrier.arrive.expect_tx``: arrive and expect ``txcount`` more
    bytes of asynchronous transactions (TMA loads) in this phase."""

    name = "nvgpu.mbarrier.arrive.expect_tx"

    barriers = operand_def(MBarrierGroupType)
    txcount = operand_def(IndexType)
    mbar_id = operand_def(IndexType)
    predicate = opt_operand_def(I1)

    custom_directives = (MBarrierGroup,)
    assembly_format = (
        "$barriers `[` $mbar_id `]` `,` $txcount (`,` `predicate` `=` $predicate^)? "
        "attr-dict `:` custom<MBarrierGroup>(type($barriers))"
    )

    def __init__(
        self,
        barriers: _Values,
        txcount: _Values,
        mbar_id: _Values,
        predicate: _Values | None = None,
    ):
        super().__init__(operands=[barriers, txcount, mbar_id, _optional(predicate)])


@irdl_op_definition
class MBarrierTryWaitParityOp(IRDLOperation):
    """``nvgpu.mbarrier.try_wait.parity``: wait (in a loop, ``ticks`` as the
    suspend-time hint) until the phase of parity ``phaseParity`` completes."""

    name = "nvgpu.mbarrier.try_wait.parity"

    barriers = operand_def(MBarrierGroupType)
    phase_parity = operand_def(I1)
    ticks = operand_def(IndexType)
    mbar_id = operand_def(IndexType)

    custom_directives = (MBarrierGroup,)
    assembly_format = (
        "$barriers `[` $mbar_id `]` `,` $phase_parity `,` $ticks attr-dict `:` "
        "custom<MBarrierGroup>(type($barriers))"
    )

    def __init__(
        self, barriers: _Values, phase_parity: _Values, ticks: _Values, mbar_id: _Values
    ):
        super().__init__(operands=[barriers, phase_parity, ticks, mbar_id])


@irdl_op_definition
class MBarrierGetOp(IRDLOperation):
    """``nvgpu.mbarrier.get``: the shared-memory address of a barrier, as an
    ``i32`` or ``i64``."""

    name = "nvgpu.mbarrier.get"

    barriers = operand_def(MBarrierGroupType)
    mbar_id = operand_def(IndexType)
    mbarrier_pointer = result_def(EqAttrConstraint(i32) | EqAttrConstraint(i64))

    custom_directives = (MBarrierGroup,)
    assembly_format = (
        "$barriers `[` $mbar_id `]` attr-dict `:` "
        "custom<MBarrierGroup>(type($barriers)) `->` type($mbarrier_pointer)"
    )

    def __init__(self, barriers: _Values, mbar_id: _Values, result_type: Attribute):
        super().__init__(operands=[barriers, mbar_id], result_types=[result_type])


OPERATIONS: tuple[type[Operation], ...] = (
    MBarrierCreateOp,
    MBarrierInitOp,
    MBarrierTestWaitOp,
    MBarrierArriveOp,
    MBarrierArriveNoCompleteOp,
    MBarrierArriveExpectTxOp,
    MBarrierTryWaitParityOp,
    MBarrierGetOp,
)

__all__ = [
    "MBarrierArriveExpectTxOp",
    "MBarrierArriveNoCompleteOp",
    "MBarrierArriveOp",
    "MBarrierCreateOp",
    "MBarrierGetOp",
    "MBarrierInitOp",
    "MBarrierTestWaitOp",
    "MBarrierTryWaitParityOp",
]
