"""mbarrier objects (sm_80+, transaction counts sm_90): ``nvvm.mbarrier.init``,
``inval``, ``arrive``, ``arrive.nocomplete``, ``arrive.expect_tx``, ``test.wait`` and
``try_wait.parity``.

Printed forms (MLIR 22)::

    nvvm.mbarrier.init %bar, %count : !llvm.ptr<3>, i32
    nvvm.mbarrier.init %bar, %count, predicate = %p : !llvm.ptr<3>, i32, i1
    nvvm.mbarrier.inval %bar : !llvm.ptr<3>
    %s = nvvm.mbarrier.arrive %bar : !llvm.ptr<3> -> i64
    nvvm.mbarrier.arrive %remote, %count {relaxed = true} : !llvm.ptr<7>
    %s = nvvm.mbarrier.arrive.nocomplete %bar, %count : !llvm.ptr<3>, i32 -> i64
    nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive.expect_tx %bar, %tx, predicate = %p : !llvm.ptr<3>, i32, i1
    %done = nvvm.mbarrier.test.wait %bar, %s : !llvm.ptr<3>, i64 -> i1
    nvvm.mbarrier.try_wait.parity %bar, %parity, %ticks : !llvm.ptr<3>, i32, i32

The barrier is addressed by a generic (``!llvm.ptr``) or shared (``!llvm.ptr<3>``)
pointer; ``arrive`` and ``arrive.expect_tx`` also take a barrier of another CTA of
the cluster (``!llvm.ptr<7>``, no result then). ``relaxed`` drops the release/acquire
semantics, ``scope`` (``cta``, the default, or ``cluster``) widens them.

LLVM IR, as ``mlir-translate-22`` writes it (after ``convert-nvvm-to-llvm`` for the
inline-PTX cases): ``init``, ``inval`` and ``arrive.nocomplete`` call
``llvm.nvvm.mbarrier.<op>[.shared]``; ``arrive`` without count, relaxation or scope
calls ``llvm.nvvm.mbarrier.arrive.shared``, otherwise, like ``arrive.expect_tx`` and
``test.wait``, ``llvm.nvvm.mbarrier.<op>[.relaxed].scope.<s>.space.<cta|cluster>``
(a generic pointer is cast to the shared space first). A predicate, and
``try_wait.parity`` always, give inline PTX (:mod:`.ptx_builder`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from xdsl.dialects.builtin import I1, I32, I64, BoolAttr, IntAttr, i1, i64
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_result_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvvm.attributes import MemScopeKind, MemScopeKindAttr
from xdsl_gpu.gpu_dialect.nvvm.ptx_builder import emit_inline_ptx, value_argument

GENERIC, SHARED, SHARED_CLUSTER = 0, 3, 7
"""NVVM address spaces of an mbarrier's address."""

_CTA_SCOPE = MemScopeKindAttr(MemScopeKind.CTA)
_FALSE = BoolAttr.from_bool(False)


def address_space(value: SSAValue) -> int:
    t = value.type
    assert isinstance(t, LLVMPointerType)
    return t.addr_space.data if isinstance(t.addr_space, IntAttr) else 0


def _check_pointer(op: Operation, value: SSAValue, spaces: tuple[int, ...]) -> None:
    """Upstream's ODS message for an address outside ``spaces``."""
    t = value.type
    if isinstance(t, LLVMPointerType) and address_space(value) in spaces:
        return
    allowed = " or ".join(f"LLVM pointer in address space {s}" for s in spaces)
    raise VerifyException(f"'{op.name}' op operand #0 must be {allowed}, but got '{t}'")


def _check_scope(op: Operation, scope: MemScopeKindAttr) -> None:
    if scope.data not in (MemScopeKind.CTA, MemScopeKind.CLUSTER):
        raise VerifyException("mbarrier scope must be either CTA or Cluster")


def shared_address(emitter: Any, value: SSAValue) -> str:
    """``value`` as a ``ptr addrspace(3)``: a generic pointer is cast first, as
    upstream's translation does for the intrinsics that take a shared pointer."""
    ref = emitter.ref(value)
    if address_space(value) != GENERIC:
        return ref
    return _emit_value(emitter, f"addrspacecast ptr {ref} to ptr addrspace(3)")


def _emit_value(emitter: Any, rhs: str) -> str:
    name = emitter.fresh()
    emitter.emit(f"{name} = {rhs}")
    return name


def _pointer_arg(emitter: Any, value: SSAValue) -> tuple[str, str]:
    llvm_type, ref = emitter.typed(value).rsplit(" ", 1)
    return llvm_type, ref


def _scoped_intrinsic(
    base: str, relaxed: bool, scope: MemScopeKindAttr, space: str
) -> str:
    """``llvm.nvvm.mbarrier.<base>[.relaxed].scope.<scope>.space.<space>``."""
    return (
        f"llvm.nvvm.mbarrier.{base}{'.relaxed' if relaxed else ''}"
        f".scope.{scope.data.value}.space.{space}"
    )


class _ScopedBarrierOp(IRDLOperation):
    """``relaxed`` and ``scope``: the memory semantics of arrive and wait ops."""

    relaxed = prop_def(BoolAttr, default_value=_FALSE)
    scope = prop_def(MemScopeKindAttr, default_value=_CTA_SCOPE)

    irdl_options = (ParsePropInAttrDict(),)

    @property
    def is_relaxed(self) -> bool:
        return bool(self.relaxed.value.data)

    def is_default_semantics(self) -> bool:
        return not self.is_relaxed and self.scope == _CTA_SCOPE


@irdl_op_definition
class MBarrierInitOp(IRDLOperation):
    """``nvvm.mbarrier.init``: set the barrier's expected arrival count."""

    name = "nvvm.mbarrier.init"

    addr = operand_def(LLVMPointerType)
    count = operand_def(I32)
    predicate = opt_operand_def(I1)

    assembly_format = (
        "$addr `,` $count (`,` `predicate` `=` $predicate^)? attr-dict `:` "
        "type(operands)"
    )

    def __init__(
        self,
        addr: SSAValue | Operation,
        count: SSAValue | Operation,
        predicate: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[addr, count, [] if predicate is None else [predicate]]
        )

    def verify_(self) -> None:
        _check_pointer(self, self.addr, (GENERIC, SHARED))

    def llvm_ir(self, emitter: Any) -> None:
        shared = address_space(self.addr) == SHARED
        if self.predicate is not None:
            ptx = f"mbarrier.init{'.shared' if shared else ''}.b64 [%0], %1;"
            args = [value_argument(emitter, v) for v in (self.addr, self.count)]
            emit_inline_ptx(emitter, ptx, args, self.predicate)
            return
        emitter.call_intrinsic(
            f"llvm.nvvm.mbarrier.init{'.shared' if shared else ''}",
            None,
            [_pointer_arg(emitter, self.addr), ("i32", emitter.ref(self.count))],
        )


@irdl_op_definition
class MBarrierInvalOp(IRDLOperation):
    """``nvvm.mbarrier.inval``: invalidate the barrier (its memory may be reused)."""

    name = "nvvm.mbarrier.inval"

    addr = operand_def(LLVMPointerType)

    assembly_format = "$addr attr-dict `:` type(operands)"

    def __init__(self, addr: SSAValue | Operation):
        super().__init__(operands=[addr])

    def verify_(self) -> None:
        _check_pointer(self, self.addr, (GENERIC, SHARED))

    def llvm_ir(self, emitter: Any) -> None:
        shared = address_space(self.addr) == SHARED
        emitter.call_intrinsic(
            f"llvm.nvvm.mbarrier.inval{'.shared' if shared else ''}",
            None,
            [_pointer_arg(emitter, self.addr)],
        )


@irdl_op_definition
class MBarrierArriveOp(_ScopedBarrierOp):
    """``nvvm.mbarrier.arrive``: arrive (``count`` times, default 1); returns the
    phase state, except for a barrier of another CTA (``!llvm.ptr<7>``)."""

    name = "nvvm.mbarrier.arrive"

    addr = operand_def(LLVMPointerType)
    count = opt_operand_def(I32)
    res = opt_result_def(I64)

    assembly_format = (
        "$addr (`,` $count^)? attr-dict `:` type($addr) (`->` type($res)^)?"
    )

    def __init__(
        self,
        addr: SSAValue | Operation,
        count: SSAValue | Operation | None = None,
        has_result: bool = True,
    ):
        super().__init__(
            operands=[addr, [] if count is None else [count]],
            result_types=[[i64] if has_result else []],
        )

    def verify_(self) -> None:
        _check_pointer(self, self.addr, (GENERIC, SHARED, SHARED_CLUSTER))
        if address_space(self.addr) == SHARED_CLUSTER and self.res is not None:
            raise VerifyException(
                "mbarrier in shared_cluster space cannot return any value"
            )
        _check_scope(self, self.scope)

    def llvm_ir(self, emitter: Any) -> None:
        count = "1" if self.count is None else emitter.ref(self.count)
        if address_space(self.addr) == SHARED_CLUSTER:
            name = _scoped_intrinsic("arrive", self.is_relaxed, self.scope, "cluster")
            emitter.call_intrinsic(
                name, None, [_pointer_arg(emitter, self.addr), ("i32", count)]
            )
            return
        pointer = shared_address(emitter, self.addr)
        args = [("ptr addrspace(3)", pointer)]
        if self.count is None and self.is_default_semantics():
            name = "llvm.nvvm.mbarrier.arrive.shared"
        else:
            name = _scoped_intrinsic("arrive", self.is_relaxed, self.scope, "cta")
            args.append(("i32", count))
        emitter.call_intrinsic(name, i64, args, result=self.res)


@irdl_op_definition
class MBarrierArriveNocompleteOp(IRDLOperation):
    """``nvvm.mbarrier.arrive.nocomplete``: arrive ``count`` times without
    completing the phase."""

    name = "nvvm.mbarrier.arrive.nocomplete"

    addr = operand_def(LLVMPointerType)
    count = operand_def(I32)
    res = result_def(I64)

    assembly_format = "$addr `,` $count attr-dict `:` type(operands) `->` type($res)"

    def __init__(self, addr: SSAValue | Operation, count: SSAValue | Operation):
        super().__init__(operands=[addr, count], result_types=[i64])

    def verify_(self) -> None:
        _check_pointer(self, self.addr, (GENERIC, SHARED))

    def llvm_ir(self, emitter: Any) -> None:
        shared = address_space(self.addr) == SHARED
        emitter.call_intrinsic(
            f"llvm.nvvm.mbarrier.arrive.noComplete{'.shared' if shared else ''}",
            i64,
            [_pointer_arg(emitter, self.addr), ("i32", emitter.ref(self.count))],
            result=self.res,
        )


@irdl_op_definition
class MBarrierArriveExpectTxOp(_ScopedBarrierOp):
    """``nvvm.mbarrier.arrive.expect_tx``: expect ``txcount`` more bytes of
    asynchronous transactions (TMA copies) in this phase, then arrive."""

    name = "nvvm.mbarrier.arrive.expect_tx"

    addr = operand_def(LLVMPointerType)
    txcount = operand_def(I32)
    predicate = opt_operand_def(I1)
    res = opt_result_def(I64)

    assembly_format = (
        "$addr `,` $txcount (`,` `predicate` `=` $predicate^)? attr-dict `:` "
        "type(operands) (`->` type($res)^)?"
    )

    def __init__(
        self,
        addr: SSAValue | Operation,
        txcount: SSAValue | Operation,
        predicate: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[addr, txcount, [] if predicate is None else [predicate]],
            result_types=[[]],
        )

    def verify_(self) -> None:
        _check_pointer(self, self.addr, (GENERIC, SHARED, SHARED_CLUSTER))
        cluster = address_space(self.addr) == SHARED_CLUSTER
        if self.predicate is not None:
            if cluster:
                raise VerifyException(
                    "mbarrier in shared_cluster space is not supported when using "
                    "predicate"
                )
            if self.res is not None:
                raise VerifyException(
                    "return-value is not supported when using predicate"
                )
        if cluster and self.res is not None:
            raise VerifyException(
                "mbarrier in shared_cluster space cannot return any value"
            )
        _check_scope(self, self.scope)

    def llvm_ir(self, emitter: Any) -> None:
        space = address_space(self.addr)
        if self.predicate is not None:
            shared = ".shared" if space == SHARED else ""
            ptx = f"mbarrier.arrive.expect_tx{shared}.b64 _, [%0], %1;"
            args = [value_argument(emitter, v) for v in (self.addr, self.txcount)]
            emit_inline_ptx(emitter, ptx, args, self.predicate)
            return
        tx = ("i32", emitter.ref(self.txcount))
        if space == SHARED_CLUSTER:
            name = _scoped_intrinsic(
                "arrive.expect.tx", self.is_relaxed, self.scope, "cluster"
            )
            emitter.call_intrinsic(name, None, [_pointer_arg(emitter, self.addr), tx])
            return
        pointer = shared_address(emitter, self.addr)
        name = _scoped_intrinsic("arrive.expect.tx", self.is_relaxed, self.scope, "cta")
        args = [("ptr addrspace(3)", pointer), tx]
        if self.res is not None:
            emitter.call_intrinsic(name, i64, args, result=self.res)
            return
        # The intrinsic returns the state even when the op has no result.
        callee = emitter.module.declare(name, "i64", [t for t, _ in args])
        _emit_value(
            emitter, f"call i64 {callee}({', '.join(f'{t} {v}' for t, v in args)})"
        )


@irdl_op_definition
class MBarrierTestWaitOp(_ScopedBarrierOp):
    """``nvvm.mbarrier.test.wait``: whether the phase of ``state`` completed
    (non-blocking)."""

    name = "nvvm.mbarrier.test.wait"

    addr = operand_def(LLVMPointerType)
    state = operand_def(I64)
    res = result_def(I1)

    assembly_format = "$addr `,` $state attr-dict `:` type(operands) `->` type($res)"

    def __init__(self, addr: SSAValue | Operation, state: SSAValue | Operation):
        super().__init__(operands=[addr, state], result_types=[i1])

    def verify_(self) -> None:
        _check_pointer(self, self.addr, (GENERIC, SHARED))
        _check_scope(self, self.scope)

    def llvm_ir(self, emitter: Any) -> None:
        pointer = shared_address(emitter, self.addr)
        name = _scoped_intrinsic("test.wait", self.is_relaxed, self.scope, "cta")
        emitter.call_intrinsic(
            name,
            i1,
            [("ptr addrspace(3)", pointer), ("i64", emitter.ref(self.state))],
            result=self.res,
        )


@irdl_op_definition
class MBarrierTryWaitParityOp(IRDLOperation):
    """``nvvm.mbarrier.try_wait.parity``: wait until the phase of parity ``phase``
    completes: a PTX loop around ``mbarrier.try_wait.parity`` (``ticks`` is the
    suspend-time hint of each try)."""

    name = "nvvm.mbarrier.try_wait.parity"

    addr = operand_def(LLVMPointerType)
    phase = operand_def(I32)
    ticks = operand_def(I32)

    assembly_format = "$addr `,` $phase `,` $ticks attr-dict `:` type(operands)"

    WAIT_LOOP: ClassVar[str] = (
        "{{\n\t"
        ".reg .pred       P1; \n\t"
        "LAB_WAIT: \n\t"
        "mbarrier.try_wait.parity{space}.b64 P1, [%0], %1, %2; \n\t"
        "@P1 bra.uni DONE; \n\t"
        "bra.uni     LAB_WAIT; \n\t"
        "DONE: \n\t"
        "}}"
    )

    def __init__(
        self,
        addr: SSAValue | Operation,
        phase: SSAValue | Operation,
        ticks: SSAValue | Operation,
    ):
        super().__init__(operands=[addr, phase, ticks])

    def llvm_ir(self, emitter: Any) -> None:
        shared = ".shared" if address_space(self.addr) == SHARED else ""
        args = [value_argument(emitter, v) for v in self.operands]
        emit_inline_ptx(emitter, self.WAIT_LOOP.format(space=shared), args)


OPERATIONS: tuple[type[Operation], ...] = (
    MBarrierInitOp,
    MBarrierInvalOp,
    MBarrierArriveOp,
    MBarrierArriveNocompleteOp,
    MBarrierArriveExpectTxOp,
    MBarrierTestWaitOp,
    MBarrierTryWaitParityOp,
)

__all__ = [
    "MBarrierArriveExpectTxOp",
    "MBarrierArriveNocompleteOp",
    "MBarrierArriveOp",
    "MBarrierInitOp",
    "MBarrierInvalOp",
    "MBarrierTestWaitOp",
    "MBarrierTryWaitParityOp",
    "address_space",
    "shared_address",
]
