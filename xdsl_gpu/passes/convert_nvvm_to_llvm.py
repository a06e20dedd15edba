"""``convert-nvvm-to-llvm``: the nvvm ops that have no LLVM intrinsic → ``llvm.inline_asm``.

Upstream: ``mlir/lib/Conversion/NVVMToLLVM/NVVMToLLVM.cpp`` and the PTX builder of
``mlir/lib/Dialect/LLVMIR/IR/BasicPtxBuilderInterface.cpp`` (MLIR 22). An op of the
builder interface whose current form has no intrinsic is replaced by an inline-asm op
with the op's PTX:

* ``%N`` operand references become ``$N``; a predicate is the last operand and
  guards the instruction with ``@$N``;
* constraints follow from the operand types (``b`` i1, ``h`` i16, ``r`` i32 and
  shared pointers, ``l`` i64 and other pointers, ``f`` f32, ``d`` f64); an operand
  defined by ``llvm.mlir.constant`` is an immediate (``n``);
* a struct that the op writes gives one ``=`` output per field (and is the
  inline-asm's result); a struct that it reads and writes (wgmma's accumulator) is
  split by ``llvm.extractvalue`` into inputs tied to those outputs (``0``, ``1``...).

MLIR 22 has such forms for ``nvvm.mbarrier.init`` and
``nvvm.mbarrier.arrive.expect_tx`` with a predicate, ``nvvm.mbarrier.try_wait.parity``
(a PTX wait loop), the TMA copies ``cp.async.bulk.tensor.shared.cluster.global`` and
``cp.async.bulk.tensor.global.shared.cta`` with a predicate,
``prefetch.tensormap`` with a predicate, and ``wgmma.mma_async`` (and xdsl-gpu's
``xgpu.wgmma.mma_async.reg_a``, which upstream lacks). Every other op is left
as it is (``xdsl-opt -t llvmir`` translates it to its intrinsic call). The LLVM IR is
the same either way: without this pass the ops' own translation writes the same
inline asm (:mod:`xdsl_gpu.gpu_dialect.nvvm.ptx_builder`).

The pass has no options. :func:`nvvm_to_llvm_patterns` is also one of the dialect
pattern sets of ``convert-to-llvm``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntAttr, IntegerAttr, IntegerType, ModuleOp, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xdsl_gpu.gpu_dialect.nvvm.mbarrier_ops import (
    MBarrierArriveExpectTxOp,
    MBarrierInitOp,
    MBarrierTryWaitParityOp,
    address_space,
)
from xdsl_gpu.gpu_dialect.nvvm.mma_attrs import MMALayout
from xdsl_gpu.gpu_dialect.nvvm.ptx_builder import SHARED_ADDRESS_SPACE
from xdsl_gpu.gpu_dialect.nvvm.tma_ops import (
    CpAsyncBulkTensorGlobalToSharedClusterOp,
    CpAsyncBulkTensorSharedCTAToGlobalOp,
    PrefetchOp,
)
from xdsl_gpu.gpu_dialect.nvvm.wgmma_ops import (
    WgmmaMmaAsyncOp,
    WGMMAScaleIn,
    WGMMAScaleOut,
    WGMMATypes,
)
from xdsl_gpu.gpu_dialect.xgpu_wgmma import A_REGISTERS, WgmmaMmaAsyncRegAOp
from xdsl_gpu.passes.llvm_type_converter import PatternSet, extract

PASS_NAME = "convert-nvvm-to-llvm"

AT_T_DIALECT = 0
"""``asm_dialect = att``: the only dialect the PTX builder writes."""


class RegisterMod(Enum):
    """How the PTX uses an operand (upstream's ``PTXRegisterMod``)."""

    READ = ""
    WRITE = "="
    READ_WRITE = "+"


def register_type(t: Attribute) -> str:
    """The constraint letter of a value of type ``t`` (upstream's
    ``getRegisterType``)."""
    if isinstance(t, llvm.LLVMPointerType):
        space = t.addr_space
        shared = isinstance(space, IntAttr) and space.data == SHARED_ADDRESS_SPACE
        return "r" if shared else "l"
    if isinstance(t, IntegerType):
        letter = {1: "b", 16: "h", 32: "r", 64: "l"}.get(t.width.data)
        if letter is not None:
            return letter
    if t.name == "f32":
        return "f"
    if t.name == "f64":
        return "d"
    raise ValueError(f"no PTX register type for {t}")


def _is_constant(value: SSAValue) -> bool:
    return isinstance(value.owner, llvm.ConstantOp)


@dataclass
class PtxBuilder:
    """Collects the operands and constraints of one op's inline asm, as upstream's
    ``PtxBuilder``: inputs in the order given, then the predicate."""

    op: Operation
    rewriter: PatternRewriter
    operands: list[SSAValue] = field(default_factory=list[SSAValue])
    constraints: list[str] = field(default_factory=list[str])
    result_type: Attribute | None = None

    def insert(self, value: SSAValue, mod: RegisterMod = RegisterMod.READ) -> None:
        t = value.type
        if isinstance(t, llvm.LLVMStructType):
            if mod is RegisterMod.WRITE:
                self.result_type = t
            for index, element in enumerate(t.types.data):
                if mod is not RegisterMod.WRITE:
                    field_op = extract(value, index)
                    self.rewriter.insert(field_op)
                    self.operands.append(field_op.res)
                if mod is RegisterMod.READ_WRITE:
                    self.constraints.append(str(index))
                else:
                    self.constraints.append(mod.value + register_type(element))
            return
        if mod is RegisterMod.WRITE:
            self.result_type = t
        else:
            self.operands.append(value)
        letter = "n" if _is_constant(value) else register_type(t)
        self.constraints.append(mod.value + letter)

    def constant(self, value: int) -> SSAValue:
        """An ``i32`` immediate, created before the op as upstream does."""
        op = llvm.ConstantOp(IntegerAttr(value, 32), i32)
        self.rewriter.insert(op)
        return op.result

    def replace(self, ptx: str, predicate: SSAValue | None = None) -> None:
        """Replace the op by the inline asm of ``ptx`` (``%N`` references)."""
        if predicate is not None:
            self.insert(predicate)
            ptx = f"@%{len(self.operands) - 1} {ptx}"
        asm = llvm.InlineAsmOp(
            ptx.replace("%", "$"),
            ",".join(self.constraints),
            self.operands,
            [] if self.result_type is None else [self.result_type],
            asm_dialect=AT_T_DIALECT,
            has_side_effects=True,
        )
        self.rewriter.replace(self.op, asm, [asm.res] if asm.res is not None else [])


def _shared(value: SSAValue) -> str:
    return ".shared" if address_space(value) == SHARED_ADDRESS_SPACE else ""


class _PtxPattern(RewritePattern):
    """The base of the patterns: the op classes each acts on (for the dispatch of
    ``llvm_type_converter.PatternSet``)."""

    acts_on: tuple[type[Operation], ...] = ()


class MBarrierInitLowering(_PtxPattern):
    acts_on = (MBarrierInitOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, MBarrierInitOp) or op.predicate is None:
            return
        builder = PtxBuilder(op, rewriter)
        builder.insert(op.addr)
        builder.insert(op.count)
        builder.replace(f"mbarrier.init{_shared(op.addr)}.b64 [%0], %1;", op.predicate)


class MBarrierArriveExpectTxLowering(_PtxPattern):
    acts_on = (MBarrierArriveExpectTxOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, MBarrierArriveExpectTxOp) or op.predicate is None:
            return
        builder = PtxBuilder(op, rewriter)
        builder.insert(op.addr)
        builder.insert(op.txcount)
        ptx = f"mbarrier.arrive.expect_tx{_shared(op.addr)}.b64 _, [%0], %1;"
        builder.replace(ptx, op.predicate)


class MBarrierTryWaitParityLowering(_PtxPattern):
    acts_on = (MBarrierTryWaitParityOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, MBarrierTryWaitParityOp):
            return
        builder = PtxBuilder(op, rewriter)
        for value in (op.addr, op.phase, op.ticks):
            builder.insert(value)
        builder.replace(op.WAIT_LOOP.format(space=_shared(op.addr)))


class TmaLoadLowering(_PtxPattern):
    acts_on = (CpAsyncBulkTensorGlobalToSharedClusterOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if (
            not isinstance(op, CpAsyncBulkTensorGlobalToSharedClusterOp)
            or op.predicate is None
            or op.is_cta_only.value.data
        ):
            return
        ptx, values = op.inline_ptx()
        builder = PtxBuilder(op, rewriter)
        for value in values:
            builder.insert(value)
        builder.replace(ptx, op.predicate)


class TmaStoreLowering(_PtxPattern):
    acts_on = (CpAsyncBulkTensorSharedCTAToGlobalOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if (
            not isinstance(op, CpAsyncBulkTensorSharedCTAToGlobalOp)
            or op.predicate is None
        ):
            return
        rank = len(op.coordinates)
        coords = ", ".join(f"%{2 + i}" for i in range(rank))
        ptx = (
            f"cp.async.bulk.tensor.{rank}d.global.shared::cta.bulk_group "
            f"[%0, {{{coords}}} ], [%1];"
        )
        builder = PtxBuilder(op, rewriter)
        for value in (op.tma_descriptor, op.src_mem, *op.coordinates):
            builder.insert(value)
        builder.replace(ptx, op.predicate)


class PrefetchTensorMapLowering(_PtxPattern):
    acts_on = (PrefetchOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, PrefetchOp) or op.predicate is None:
            return
        builder = PtxBuilder(op, rewriter)
        builder.insert(op.addr)
        builder.replace("prefetch.tensormap [%0];", op.predicate)


class WgmmaMmaAsyncLowering(_PtxPattern):
    """The accumulator struct is written (the result) and read (tied inputs); then
    the descriptors, the scale-d flag and the immediates that the types take."""

    acts_on = (WgmmaMmaAsyncOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, WgmmaMmaAsyncOp):
            return
        builder = PtxBuilder(op, rewriter)
        # Upstream creates the immediates first, then extracts the accumulator.
        immediates = [int(op.scale_d.data == WGMMAScaleOut.ONE)]
        if op.type_d.data != WGMMATypes.S32:
            for scale in (op.scale_a, op.scale_b):
                immediates.append(-1 if scale.data == WGMMAScaleIn.NEG else 1)
            if op.types()[0] in (WGMMATypes.F16, WGMMATypes.BF16):
                immediates.append(int(op.layout_a.data == MMALayout.COL))
                immediates.append(int(op.layout_b.data == MMALayout.ROW))
        constants = [builder.constant(v) for v in immediates]
        _insert_accumulator(builder, op)
        builder.insert(op.descriptor_a)
        builder.insert(op.descriptor_b)
        for value in constants:
            builder.insert(value)
        builder.replace(op.ptx())


class WgmmaMmaAsyncRegALowering(_PtxPattern):
    """xdsl-gpu's register-A wgmma (``xgpu.wgmma.mma_async.reg_a``): as the
    descriptor form, with A's four registers (16-bit pairs bit-cast to ``i32``) as
    ``r`` inputs in place of A's descriptor."""

    acts_on = (WgmmaMmaAsyncRegAOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, WgmmaMmaAsyncRegAOp):
            return
        builder = PtxBuilder(op, rewriter)
        immediates = [int(op.scale_d.data == WGMMAScaleOut.ONE), *op.immediates()]
        constants = [builder.constant(v) for v in immediates]
        _insert_accumulator(builder, op)
        for index in range(A_REGISTERS):
            register = rewriter.insert(extract(op.a, index)).results[0]
            if register.type != i32:
                register = rewriter.insert(llvm.BitcastOp(register, i32)).results[0]
            builder.insert(register)
        builder.insert(op.descriptor_b)
        for value in constants:
            builder.insert(value)
        builder.replace(op.ptx())


def _insert_accumulator(
    builder: PtxBuilder, op: WgmmaMmaAsyncOp | WgmmaMmaAsyncRegAOp
) -> None:
    """``=r`` (s32) or ``=f`` outputs, one per register, then the tied inputs.
    MLIR 22 writes ``=f`` for the ``vector<2xf16>`` registers of an f16 accumulator
    too."""
    struct = op.res.type
    assert isinstance(struct, llvm.LLVMStructType)
    letter = "r" if op.type_d.data == WGMMATypes.S32 else "f"
    builder.result_type = struct
    builder.constraints.extend(f"={letter}" for _ in struct.types.data)
    builder.insert(op.inouts, RegisterMod.READ_WRITE)


def nvvm_to_llvm_patterns() -> Sequence[RewritePattern]:
    """The PTX-builder lowering of every op that has one (upstream's
    ``populateNVVMToLLVMConversionPatterns``)."""
    return (
        MBarrierInitLowering(),
        MBarrierArriveExpectTxLowering(),
        MBarrierTryWaitParityLowering(),
        TmaLoadLowering(),
        TmaStoreLowering(),
        PrefetchTensorMapLowering(),
        WgmmaMmaAsyncLowering(),
        WgmmaMmaAsyncRegALowering(),
    )


@dataclass(frozen=True)
class ConvertNVVMToLLVMPass(ModulePass):
    """Lower the nvvm ops without an intrinsic to inline PTX (see the module
    docstring)."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternSet(nvvm_to_llvm_patterns(), erase_dead_casts=False).apply(op)
