"""5th-generation tensor core ops (``tcgen05``, sm_100a/sm_101a): Tensor Memory
allocation, fences, waits, commit, shift, copies into and loads/stores of Tensor
Memory, and the shared memory descriptor of ``tcgen05.mma``.

Printed forms (MLIR 22)::

    nvvm.tcgen05.alloc %addr, %ncols {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i32
    nvvm.tcgen05.dealloc %taddr, %ncols : !llvm.ptr<6>, i32
    nvvm.tcgen05.relinquish_alloc_permit
    nvvm.tcgen05.fence <before>
    nvvm.tcgen05.wait <load>
    nvvm.tcgen05.commit %mbar, multicast_mask = %mask : !llvm.ptr<3>, i16
    nvvm.tcgen05.shift %taddr : !llvm.ptr<6>
    nvvm.tcgen05.cp %taddr, %smem_desc {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>}
    %v = nvvm.tcgen05.ld %taddr pack {shape = #nvvm.tcgen05_ldst_shape<shape_16x128b>}
        : vector<4xi32>
    nvvm.tcgen05.st %taddr, %v, %offset {shape = ...} : i32
    %d = nvvm.tcgen05.mma_smem_desc(%start, %lead, %stride, %base, %mode, %swizzle)
        : (i32, i32, i32, i8, i1, i8) -> i64

``group`` (default ``cta_1``) is omitted from the attribute dictionary when it has its
default value, as upstream prints it. Tensor Memory pointers are ``!llvm.ptr<6>``.
Each op becomes the ``llvm.nvvm.tcgen05.*`` intrinsic that mlir-translate 22 calls
(``mma_smem_desc``: the bit-field arithmetic that builds the descriptor). As in
MLIR 22, all but ``shift`` (also sm_103a) and ``mma_smem_desc`` (any chip) need
sm_100a or sm_101a.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import (
    I1,
    I8,
    I16,
    I32,
    I64,
    IntAttr,
    IntegerType,
    UnitAttr,
    VectorType,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    EqAttrConstraint,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvvm.sm import RequiresSM
from xdsl_gpu.gpu_dialect.nvvm.tcgen05_attrs import (
    CTAGroupKind,
    CTAGroupKindAttr,
    Tcgen05CpMulticast,
    Tcgen05CpMulticastAttr,
    Tcgen05CpShape,
    Tcgen05CpShapeAttr,
    Tcgen05CpSrcFormatAttr,
    Tcgen05FenceKind,
    Tcgen05FenceKindAttr,
    Tcgen05LdStShape,
    Tcgen05LdStShapeAttr,
    Tcgen05WaitKind,
    Tcgen05WaitKindAttr,
)

SM_100A_101A = RequiresSM(100, 101, arch_accelerated=True)
"""MLIR 22's requirement of the tcgen05 ops other than ``shift`` and the mma ops."""

_CTA_1 = CTAGroupKindAttr(CTAGroupKind.CTA_1)
_SHARED = 3
_TENSOR_POINTER = EqAttrConstraint(LLVMPointerType(IntAttr(6)))
"""MLIR 22's ``LLVM_PointerTensor``: Tensor Memory is address space 6."""


def _cg(group: CTAGroupKindAttr) -> str:
    """The intrinsics' suffix for the CTA group: ``cg1`` or ``cg2``."""
    return "cg2" if group.data == CTAGroupKind.CTA_2 else "cg1"


def _address_space(value: SSAValue) -> int:
    t = value.type
    assert isinstance(t, LLVMPointerType)
    return t.addr_space.data if isinstance(t.addr_space, IntAttr) else 0


def _args(emitter: Any, *values: SSAValue) -> list[tuple[str, str]]:
    """(LLVM IR type, reference) of each value, as ``call_intrinsic`` takes them."""
    return [_typed(emitter, v) for v in values]


def _typed(emitter: Any, value: SSAValue) -> tuple[str, str]:
    llvm_type, ref = emitter.typed(value).rsplit(" ", 1)
    return llvm_type, ref


class _GroupOp(IRDLOperation):
    """An op with MLIR 22's ``group`` property (``cta_1`` by default)."""

    group = prop_def(CTAGroupKindAttr, default_value=_CTA_1)

    irdl_options = (ParsePropInAttrDict(),)


@irdl_op_definition
class Tcgen05AllocOp(_GroupOp):
    """``nvvm.tcgen05.alloc``: allocate ``nCols`` columns of Tensor Memory and write
    their address to ``addr`` (generic or shared memory)."""

    name = "nvvm.tcgen05.alloc"
    traits = traits_def(SM_100A_101A)

    addr = operand_def(LLVMPointerType)
    n_cols = operand_def(I32)

    assembly_format = "$addr `,` $n_cols attr-dict `:` type(operands)"

    def __init__(
        self,
        addr: SSAValue,
        n_cols: SSAValue,
        group: CTAGroupKind | str = CTAGroupKind.CTA_1,
    ):
        super().__init__(
            operands=[addr, n_cols],
            properties={"group": CTAGroupKindAttr(CTAGroupKind(group))},
        )

    def llvm_ir(self, emitter: Any) -> None:
        shared = ".shared" if _address_space(self.addr) == _SHARED else ""
        emitter.call_intrinsic(
            f"llvm.nvvm.tcgen05.alloc{shared}.{_cg(self.group)}",
            None,
            _args(emitter, self.addr, self.n_cols),
        )


@irdl_op_definition
class Tcgen05DeallocOp(_GroupOp):
    """``nvvm.tcgen05.dealloc``: free ``nCols`` columns of Tensor Memory at
    ``taddr``."""

    name = "nvvm.tcgen05.dealloc"
    traits = traits_def(SM_100A_101A)

    taddr = operand_def(_TENSOR_POINTER)
    n_cols = operand_def(I32)

    assembly_format = "$taddr `,` $n_cols attr-dict `:` type(operands)"

    def llvm_ir(self, emitter: Any) -> None:
        emitter.call_intrinsic(
            f"llvm.nvvm.tcgen05.dealloc.{_cg(self.group)}",
            None,
            _args(emitter, self.taddr, self.n_cols),
        )


@irdl_op_definition
class Tcgen05RelinquishAllocPermitOp(_GroupOp):
    """``nvvm.tcgen05.relinquish_alloc_permit``: this CTA allocates no more Tensor
    Memory."""

    name = "nvvm.tcgen05.relinquish_alloc_permit"
    traits = traits_def(SM_100A_101A)

    assembly_format = "attr-dict"

    def llvm_ir(self, emitter: Any) -> None:
        emitter.call_intrinsic(
            f"llvm.nvvm.tcgen05.relinq.alloc.permit.{_cg(self.group)}", None, []
        )


@irdl_op_definition
class Tcgen05FenceOp(IRDLOperation):
    """``nvvm.tcgen05.fence <before|after>``: order async tcgen05 ops before (after)
    the thread synchronization that follows (precedes)."""

    name = "nvvm.tcgen05.fence"
    traits = traits_def(SM_100A_101A)

    kind = prop_def(Tcgen05FenceKindAttr)

    assembly_format = "$kind attr-dict"

    def __init__(self, kind: Tcgen05FenceKind | str):
        super().__init__(
            properties={"kind": Tcgen05FenceKindAttr(Tcgen05FenceKind(kind))}
        )

    def llvm_ir(self, emitter: Any) -> None:
        when = "before" if self.kind.data == Tcgen05FenceKind.BEFORE else "after"
        emitter.call_intrinsic(f"llvm.nvvm.tcgen05.fence.{when}.thread.sync", None, [])


@irdl_op_definition
class Tcgen05WaitOp(IRDLOperation):
    """``nvvm.tcgen05.wait <load|store>``: wait for this thread's prior
    ``tcgen05.ld`` (``st``) ops."""

    name = "nvvm.tcgen05.wait"
    traits = traits_def(SM_100A_101A)

    kind = prop_def(Tcgen05WaitKindAttr)

    assembly_format = "$kind attr-dict"

    def __init__(self, kind: Tcgen05WaitKind | str):
        super().__init__(
            properties={"kind": Tcgen05WaitKindAttr(Tcgen05WaitKind(kind))}
        )

    def llvm_ir(self, emitter: Any) -> None:
        what = "ld" if self.kind.data == Tcgen05WaitKind.LOAD else "st"
        emitter.call_intrinsic(f"llvm.nvvm.tcgen05.wait.{what}", None, [])


@irdl_op_definition
class Tcgen05CommitOp(_GroupOp):
    """``nvvm.tcgen05.commit``: the mbarrier at ``addr`` tracks the completion of
    this thread's prior async tcgen05 ops (``multicast_mask``: the mbarriers of
    these CTAs of the cluster)."""

    name = "nvvm.tcgen05.commit"
    traits = traits_def(SM_100A_101A)

    addr = operand_def(LLVMPointerType)
    multicast_mask = opt_operand_def(I16)

    assembly_format = (
        "$addr (`,` `multicast_mask` `=` $multicast_mask^)? attr-dict "
        "`:` type(operands)"
    )

    def llvm_ir(self, emitter: Any) -> None:
        mc = ".mc" if self.multicast_mask is not None else ""
        shared = ".shared" if _address_space(self.addr) == _SHARED else ""
        values = [self.addr]
        if self.multicast_mask is not None:
            values.append(self.multicast_mask)
        emitter.call_intrinsic(
            f"llvm.nvvm.tcgen05.commit{mc}{shared}.{_cg(self.group)}",
            None,
            _args(emitter, *values),
        )


@irdl_op_definition
class Tcgen05ShiftOp(_GroupOp):
    """``nvvm.tcgen05.shift``: shift the rows of the Tensor Memory matrix at
    ``taddr`` down by one."""

    name = "nvvm.tcgen05.shift"
    traits = traits_def(RequiresSM(100, 101, 103, arch_accelerated=True))

    taddr = operand_def(_TENSOR_POINTER)

    assembly_format = "$taddr attr-dict `:` type(operands)"

    def llvm_ir(self, emitter: Any) -> None:
        emitter.call_intrinsic(
            f"llvm.nvvm.tcgen05.shift.down.{_cg(self.group)}",
            None,
            _args(emitter, self.taddr),
        )


_NO_MULTICAST = Tcgen05CpMulticastAttr(Tcgen05CpMulticast.NONE)


@irdl_op_definition
class Tcgen05CpOp(_GroupOp):
    """``nvvm.tcgen05.cp``: copy the shared memory matrix of descriptor
    ``smem_desc`` into Tensor Memory at ``taddr``."""

    name = "nvvm.tcgen05.cp"
    traits = traits_def(SM_100A_101A)

    shape = prop_def(Tcgen05CpShapeAttr)
    multicast = prop_def(Tcgen05CpMulticastAttr, default_value=_NO_MULTICAST)
    src_format = opt_prop_def(Tcgen05CpSrcFormatAttr, prop_name="srcFormat")
    taddr = operand_def(_TENSOR_POINTER)
    smem_desc = operand_def(I64)

    assembly_format = "$taddr `,` $smem_desc attr-dict"

    def verify_(self) -> None:
        # MLIR prints the attribute dictionary sorted by name; the declarative
        # format prints properties in the order they were given, so keep them
        # sorted (verification runs before any printing).
        ordered = dict(sorted(self.properties.items()))
        self.properties.clear()
        self.properties.update(ordered)
        shape, mc = self.shape.data, self.multicast.data
        if shape == Tcgen05CpShape.SHAPE_64x128b:
            if mc not in (
                Tcgen05CpMulticast.WARPX2_01_23,
                Tcgen05CpMulticast.WARPX2_02_13,
            ):
                raise VerifyException(
                    "Shape 64x128b requires multicast warpx2_01_23 or "
                    "warpx2_02_13 for tcgen05.cp Op"
                )
        elif shape == Tcgen05CpShape.SHAPE_32x128b:
            if mc != Tcgen05CpMulticast.WARPX4:
                raise VerifyException(
                    "Shape 32x128b requires multicast warpx4 for tcgen05.cp Op"
                )
        elif mc != Tcgen05CpMulticast.NONE:
            raise VerifyException("Invalid multicast type for tcgen05.cp Op")

    def get_llvm_intrinsic(self) -> str:
        shape = self.shape.data.value.removeprefix("shape_")
        if self.multicast.data != Tcgen05CpMulticast.NONE:
            shape += "_" + self.multicast.data.value
        fmt = "" if self.src_format is None else "." + self.src_format.data.value
        return f"llvm.nvvm.tcgen05.cp.{shape}{fmt}.{_cg(self.group)}"

    def llvm_ir(self, emitter: Any) -> None:
        emitter.call_intrinsic(
            self.get_llvm_intrinsic(), None, _args(emitter, self.taddr, self.smem_desc)
        )


# Elements (i32) of one access of each shape: the vector length is this times the
# repeat count `.x<N>` of the intrinsic.
_LDST_BASE = {
    Tcgen05LdStShape.SHAPE_16X128B: 2,
    Tcgen05LdStShape.SHAPE_16X256B: 4,
}
_LDST_LENGTHS = (1, 2, 4, 8, 16, 32, 64, 128)


def _ldst_length(t: Attribute) -> int:
    return t.get_shape()[0] if isinstance(t, VectorType) else 1


def _check_ldst_type(t: Attribute, what: str) -> None:
    """MLIR 22's constraint: i32 or a vector of 2, 4, ... 128 i32."""
    i32 = IntegerType(32)
    ok = t == i32 or (
        isinstance(t, VectorType)
        and t.element_type == i32
        and t.get_num_dims() == 1
        and _ldst_length(t) in _LDST_LENGTHS[1:]
    )
    if not ok:
        raise VerifyException(
            f"{what} must be 32-bit signless integer or vector of 32-bit signless "
            "integer values of length 2/4/8/16/32/64/128, but got " + str(t)
        )


def _check_ldst(
    shape: Tcgen05LdStShape, offset: SSAValue | None, length: int, kind: str, what: str
) -> None:
    if shape == Tcgen05LdStShape.SHAPE_16X32BX2 and offset is None:
        raise VerifyException("shape 16x32bx2 requires offset argument")
    if length < _LDST_BASE.get(shape, 1):
        raise VerifyException(
            f"invalid {what} length {length} for shape {shape.value} in {kind} Op"
        )


def _ldst_intrinsic(kind: str, shape: Tcgen05LdStShape, length: int) -> str:
    base = shape.value.removeprefix("shape_")
    return f"llvm.nvvm.tcgen05.{kind}.{base}.x{length // _LDST_BASE.get(shape, 1)}"


@irdl_op_definition
class Tcgen05LdOp(IRDLOperation):
    """``nvvm.tcgen05.ld``: load from Tensor Memory at ``tmemAddr`` (``pack``: two
    16-bit elements of adjacent columns into one 32-bit element)."""

    name = "nvvm.tcgen05.ld"
    traits = traits_def(SM_100A_101A)

    pack = opt_prop_def(UnitAttr)
    shape = prop_def(Tcgen05LdStShapeAttr)
    tmem_addr = operand_def(_TENSOR_POINTER)
    offset = opt_operand_def(I64)
    res = result_def()

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$tmem_addr (`,` $offset^)? (`pack` $pack^)? attr-dict `:` type($res)"
    )

    def verify_(self) -> None:
        _check_ldst_type(self.res.type, "result #0")
        _check_ldst(
            Tcgen05LdStShape(self.shape.data),
            self.offset,
            _ldst_length(self.res.type),
            "tcgen05.ld",
            "result type",
        )

    def llvm_ir(self, emitter: Any) -> None:
        length = _ldst_length(self.res.type)
        args = _args(emitter, self.tmem_addr)
        if self.offset is not None:
            args += _args(emitter, self.offset)
        args.append(("i1", "true" if self.pack is not None else "false"))
        emitter.call_intrinsic(
            _ldst_intrinsic("ld", Tcgen05LdStShape(self.shape.data), length),
            self.res.type,
            args,
            result=self.res,
        )


@irdl_op_definition
class Tcgen05StOp(IRDLOperation):
    """``nvvm.tcgen05.st``: store ``val`` to Tensor Memory at ``tmemAddr``
    (``unpack``: each 32-bit element into two 16-bit elements of adjacent
    columns)."""

    name = "nvvm.tcgen05.st"
    traits = traits_def(SM_100A_101A)

    unpack = opt_prop_def(UnitAttr)
    shape = prop_def(Tcgen05LdStShapeAttr)
    tmem_addr = operand_def(_TENSOR_POINTER)
    val = operand_def()
    offset = opt_operand_def(I64)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$tmem_addr `,` $val (`,` $offset^)? (`unpack` $unpack^)? attr-dict "
        "`:` type($val)"
    )

    def verify_(self) -> None:
        _check_ldst_type(self.val.type, "operand #1")
        _check_ldst(
            Tcgen05LdStShape(self.shape.data),
            self.offset,
            _ldst_length(self.val.type),
            "tcgen05.st",
            "input",
        )

    def llvm_ir(self, emitter: Any) -> None:
        length = _ldst_length(self.val.type)
        args = _args(emitter, self.tmem_addr)
        if self.offset is not None:
            args += _args(emitter, self.offset)
        args += _args(emitter, self.val)
        args.append(("i1", "true" if self.unpack is not None else "false"))
        emitter.call_intrinsic(
            _ldst_intrinsic("st", Tcgen05LdStShape(self.shape.data), length), None, args
        )


# (operand, mask of its bits, position in the descriptor) for the fields of
# `mma_smem_desc`; bits 46-48 hold the constant 0b001.
_SMEM_DESC_FIELDS = ((0, 0x3FFF, 0), (1, 0x3FFF, 16), (2, 0x3FFF, 32))
_SMEM_DESC_SMALL_FIELDS = ((3, 7, 49), (4, 1, 52), (5, 7, 61))
_SMEM_DESC_FIXED = 1 << 46


@irdl_op_definition
class Tcgen05MmaSmemDescOp(IRDLOperation):
    """``nvvm.tcgen05.mma_smem_desc``: the 64-bit shared memory descriptor of an
    mma operand: start address, leading and stride dimension offsets (14 bits
    each), base offset (3), leading dimension mode (1) and swizzle mode (3)."""

    name = "nvvm.tcgen05.mma_smem_desc"

    start_addr = operand_def(I32)
    leading_dim_offset = operand_def(I32)
    stride_dim_offset = operand_def(I32)
    base_offset = operand_def(I8)
    leading_dim_mode = operand_def(I1)
    swizzle_mode = operand_def(I8)
    res = result_def(I64)

    assembly_format = (
        "`(` operands `)` attr-dict `:` `(` type(operands) `)` `->` type($res)"
    )

    def llvm_ir(self, emitter: Any) -> None:
        # The same instructions, in the same order, as mlir-translate 22 writes.
        acc = "0"
        for index, mask, shift in _SMEM_DESC_FIELDS:
            masked = _emit(
                emitter, f"and i32 {emitter.ref(self.operands[index])}, {mask}"
            )
            wide = _emit(emitter, f"zext i32 {masked} to i64")
            placed = _emit(emitter, f"shl i64 {wide}, {shift}")
            acc = _emit(emitter, f"or i64 {acc}, {placed}")
        acc = _emit(emitter, f"or i64 {acc}, {_SMEM_DESC_FIXED}")
        for n, (index, mask, shift) in enumerate(_SMEM_DESC_SMALL_FIELDS):
            value = self.operands[index]
            width = "i1" if value.type == IntegerType(1) else "i8"
            word = _emit(emitter, f"zext {width} {emitter.ref(value)} to i32")
            masked = _emit(emitter, f"and i32 {word}, {mask}")
            wide = _emit(emitter, f"zext i32 {masked} to i64")
            placed = _emit(emitter, f"shl i64 {wide}, {shift}")
            rhs = f"or i64 {acc}, {placed}"
            if n == len(_SMEM_DESC_SMALL_FIELDS) - 1:
                emitter.define(self.res, rhs)
            else:
                acc = _emit(emitter, rhs)


def _emit(emitter: Any, rhs: str) -> str:
    name = emitter.fresh()
    emitter.emit(f"{name} = {rhs}")
    return name


OPERATIONS: tuple[type[Operation], ...] = (
    Tcgen05AllocOp,
    Tcgen05DeallocOp,
    Tcgen05RelinquishAllocPermitOp,
    Tcgen05FenceOp,
    Tcgen05WaitOp,
    Tcgen05CommitOp,
    Tcgen05ShiftOp,
    Tcgen05CpOp,
    Tcgen05LdOp,
    Tcgen05StOp,
    Tcgen05MmaSmemDescOp,
)

__all__ = [
    "SM_100A_101A",
    "Tcgen05AllocOp",
    "Tcgen05CommitOp",
    "Tcgen05CpOp",
    "Tcgen05DeallocOp",
    "Tcgen05FenceOp",
    "Tcgen05LdOp",
    "Tcgen05MmaSmemDescOp",
    "Tcgen05RelinquishAllocPermitOp",
    "Tcgen05ShiftOp",
    "Tcgen05StOp",
    "Tcgen05WaitOp",
]
