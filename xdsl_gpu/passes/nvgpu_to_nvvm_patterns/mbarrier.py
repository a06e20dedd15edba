"""The mbarrier ops of ``nvgpu`` (sm_80, transaction counts sm_90): ``mbarrier.create``,
``init``, ``arrive``, ``arrive.nocomplete``, ``arrive.expect_tx``, ``test.wait``,
``try_wait.parity`` and ``get`` (upstream: ``NVGPUToNVVM.cpp``, MLIR 22).

A group of ``N`` barriers is a ``memref<N x i64, space>``: ``mbarrier.create`` adds a
private ``memref.global @__mbarrier`` (8-byte aligned; ``__mbarrier_0``, ... when the
name is taken) at the start of the nearest symbol table and becomes its
``memref.get_global``; the other ops address barrier ``%id`` as the element of that
memref, through its converted descriptor. ``!nvgpu.mbarrier.token`` is the ``i64``
phase state of the NVVM ops; counts and tick hints are truncated to ``i32``.
"""

from __future__ import annotations

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    IntAttr,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StringAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from xdsl_gpu.gpu_dialect import llvm, nvgpu, nvvm
from xdsl_gpu.gpu_dialect.memref import GlobalOp
from xdsl_gpu.passes.llvm_type_converter import (
    NVVM_ADDRESS_SPACES,
    LLVMTypeConverter,
    replace_op,
)
from xdsl_gpu.passes.memref_descriptor import MemRefDescriptor, strided_element_ptr
from xdsl_gpu.passes.nvgpu_to_nvvm_patterns.common import (
    NVGPULowering,
    TypeConversion,
    lowering_error,
)

BARRIER_GLOBAL = "__mbarrier"
"""The name of the globals that hold the barriers of ``mbarrier.create``."""


def barrier_memref_type(group: nvgpu.MBarrierGroupType) -> MemRefType:
    """``memref<num_barriers x i64, memorySpace>`` (upstream's
    ``getMBarrierMemrefType``), with ``#gpu.address_space`` as NVVM's number (the
    pass's memory-space conversion)."""
    space = group.memory_space
    if space.name == "gpu.address_space":
        number = NVVM_ADDRESS_SPACES[str(getattr(space, "data"))]
        space = IntegerAttr(number, i64)
    if isinstance(space, IntegerAttr) and space.value == IntAttr(0):
        space = NoneAttr()  # the default memory space prints as none
    return MemRefType(i64, [group.num_barriers.data], memory_space=space)


def convert_mbarrier_types(
    t: Attribute, converter: LLVMTypeConverter
) -> Attribute | None:
    """A barrier group becomes the descriptor of its memref; a token, ``i64``."""
    if isinstance(t, nvgpu.MBarrierGroupType):
        return converter.convert_type(barrier_memref_type(t))
    if isinstance(t, nvgpu.MBarrierTokenType):
        return i64
    return None


TYPE_CONVERSIONS: tuple[TypeConversion, ...] = (convert_mbarrier_types,)


def _constant_i32(rewriter: PatternRewriter, value: int) -> SSAValue:
    return rewriter.insert(llvm.ConstantOp(IntegerAttr(value, i32), i32)).results[0]


def truncate_to_i32(rewriter: PatternRewriter, value: SSAValue) -> SSAValue:
    """A converted ``index`` (``i64``) as the ``i32`` the NVVM ops take."""
    return rewriter.insert(llvm.TruncOp(value, i32)).results[0]


def barrier_pointer(
    rewriter: PatternRewriter,
    group: Attribute,
    descriptor: SSAValue,
    mbar_id: SSAValue,
) -> SSAValue:
    """The address of barrier ``mbar_id`` of a group of type ``group`` (or of the
    memref that ``mbarrier.create`` became), from the group's converted descriptor and
    the converted id: the aligned pointer plus ``mbar_id`` (upstream's
    ``getMbarrierPtr``)."""
    if isinstance(group, nvgpu.MBarrierGroupType):
        group = barrier_memref_type(group)
    assert isinstance(group, MemRefType)
    return strided_element_ptr(
        rewriter,
        group,
        MemRefDescriptor(descriptor),
        [mbar_id],
        i64,
    )


def _unique_symbol(table: Operation, name: str) -> str:
    """``name``, or ``name_0``, ``name_1``... if taken (MLIR's symbol uniquing)."""
    if SymbolTable.lookup_symbol(table, name) is None:
        return name
    suffix = 0
    while SymbolTable.lookup_symbol(table, f"{name}_{suffix}") is not None:
        suffix += 1
    return f"{name}_{suffix}"


def _symbol_table_of(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not parent.has_trait(SymbolTable):
        parent = parent.parent_op()
    return parent


class MBarrierCreateLowering(RewritePattern):
    """``nvgpu.mbarrier.create`` → a ``memref.global`` of the barriers and its
    ``memref.get_global``."""

    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    acts_on = (nvgpu.MBarrierCreateOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.MBarrierCreateOp):
            return
        group = op.barriers.type
        assert isinstance(group, nvgpu.MBarrierGroupType)
        table = _symbol_table_of(op)
        if table is None:
            raise lowering_error(op, "is not inside a symbol table (module)")
        memref_type = barrier_memref_type(group)
        name = _unique_symbol(table, BARRIER_GLOBAL)
        global_op = GlobalOp.create(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": StringAttr("private"),
                "type": memref_type,
                "alignment": IntegerAttr(8, i64),
            }
        )
        block = table.regions[0].block
        if block.first_op is None:
            rewriter.insert(global_op, InsertPoint.at_end(block))
        else:
            rewriter.insert(global_op, InsertPoint.before(block.first_op))
        get_global = xmemref.GetGlobalOp(name, memref_type)
        rewriter.replace(op, [get_global])


class _BarrierPattern(RewritePattern):
    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    def adaptor(
        self, op: Operation, rewriter: PatternRewriter
    ) -> dict[SSAValue, SSAValue]:
        """Every operand as a value of its converted type, converted in operand
        order before anything is built (upstream's adaptor)."""
        return {o: self.lowering.llvm_value(o, rewriter, op) for o in op.operands}

    @staticmethod
    def pointer(
        rewriter: PatternRewriter,
        operands: dict[SSAValue, SSAValue],
        barriers: SSAValue,
        mbar_id: SSAValue,
    ) -> SSAValue:
        return barrier_pointer(
            rewriter, barriers.type, operands[barriers], operands[mbar_id]
        )


class MBarrierInitLowering(_BarrierPattern):
    """``nvgpu.mbarrier.init`` → ``nvvm.mbarrier.init`` (count as ``i32``)."""

    acts_on = (nvgpu.MBarrierInitOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.MBarrierInitOp):
            return
        operands = self.adaptor(op, rewriter)
        pointer = self.pointer(rewriter, operands, op.barriers, op.mbar_id)
        count = truncate_to_i32(rewriter, operands[op.count])
        rewriter.insert(nvvm.MBarrierInitOp(pointer, count, op.predicate))
        rewriter.erase(op)


class MBarrierArriveLowering(_BarrierPattern):
    """``nvgpu.mbarrier.arrive`` → ``nvvm.mbarrier.arrive`` (its state is the
    token)."""

    acts_on = (nvgpu.MBarrierArriveOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.MBarrierArriveOp):
            return
        operands = self.adaptor(op, rewriter)
        pointer = self.pointer(rewriter, operands, op.barriers, op.mbar_id)
        arrive = rewriter.insert(nvvm.MBarrierArriveOp(pointer))
        assert arrive.res is not None
        replace_op(op, [], [arrive.res], rewriter)


class MBarrierArriveNoCompleteLowering(_BarrierPattern):
    """``nvgpu.mbarrier.arrive.nocomplete`` → ``nvvm.mbarrier.arrive.nocomplete``."""

    acts_on = (nvgpu.MBarrierArriveNoCompleteOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.MBarrierArriveNoCompleteOp):
            return
        operands = self.adaptor(op, rewriter)
        pointer = self.pointer(rewriter, operands, op.barriers, op.mbar_id)
        count = truncate_to_i32(rewriter, operands[op.count])
        arrive = rewriter.insert(nvvm.MBarrierArriveNocompleteOp(pointer, count))
        replace_op(op, [], [arrive.res], rewriter)


class MBarrierTestWaitLowering(_BarrierPattern):
    """``nvgpu.mbarrier.test.wait`` → ``nvvm.mbarrier.test.wait``."""

    acts_on = (nvgpu.MBarrierTestWaitOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.MBarrierTestWaitOp):
            return
        operands = self.adaptor(op, rewriter)
        pointer = self.pointer(rewriter, operands, op.barriers, op.mbar_id)
        wait = rewriter.insert(nvvm.MBarrierTestWaitOp(pointer, operands[op.token]))
        replace_op(op, [], [wait.res], rewriter)


class MBarrierArriveExpectTxLowering(_BarrierPattern):
    """``nvgpu.mbarrier.arrive.expect_tx`` → ``nvvm.mbarrier.arrive.expect_tx``
    (the transaction count in bytes, as ``i32``)."""

    acts_on = (nvgpu.MBarrierArriveExpectTxOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.MBarrierArriveExpectTxOp):
            return
        operands = self.adaptor(op, rewriter)
        pointer = self.pointer(rewriter, operands, op.barriers, op.mbar_id)
        txcount = truncate_to_i32(rewriter, operands[op.txcount])
        rewriter.insert(nvvm.MBarrierArriveExpectTxOp(pointer, txcount, op.predicate))
        rewriter.erase(op)


class MBarrierTryWaitParityLowering(_BarrierPattern):
    """``nvgpu.mbarrier.try_wait.parity`` → ``nvvm.mbarrier.try_wait.parity``
    (ticks truncated, the ``i1`` parity zero-extended to ``i32``)."""

    acts_on = (nvgpu.MBarrierTryWaitParityOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.MBarrierTryWaitParityOp):
            return
        operands = self.adaptor(op, rewriter)
        pointer = self.pointer(rewriter, operands, op.barriers, op.mbar_id)
        ticks = truncate_to_i32(rewriter, operands[op.ticks])
        parity = rewriter.insert(llvm.ZExtOp(op.phase_parity, i32)).results[0]
        rewriter.insert(nvvm.MBarrierTryWaitParityOp(pointer, parity, ticks))
        rewriter.erase(op)


class MBarrierGetLowering(_BarrierPattern):
    """``nvgpu.mbarrier.get`` → the barrier's address as an integer."""

    acts_on = (nvgpu.MBarrierGetOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.MBarrierGetOp):
            return
        operands = self.adaptor(op, rewriter)
        pointer = self.pointer(rewriter, operands, op.barriers, op.mbar_id)
        address = rewriter.insert(
            llvm.PtrToIntOp(pointer, op.mbarrier_pointer.type)
        ).results[0]
        replace_op(op, [], [address], rewriter)


def patterns(lowering: NVGPULowering) -> list[RewritePattern]:
    return [
        MBarrierCreateLowering(lowering),
        MBarrierInitLowering(lowering),
        MBarrierArriveLowering(lowering),
        MBarrierArriveNoCompleteLowering(lowering),
        MBarrierTestWaitLowering(lowering),
        MBarrierArriveExpectTxLowering(lowering),
        MBarrierTryWaitParityLowering(lowering),
        MBarrierGetLowering(lowering),
    ]


__all__ = [
    "BARRIER_GLOBAL",
    "TYPE_CONVERSIONS",
    "barrier_memref_type",
    "barrier_pointer",
    "patterns",
    "truncate_to_i32",
]
