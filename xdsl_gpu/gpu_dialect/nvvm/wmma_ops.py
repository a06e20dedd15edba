"""Warp-level matrix ops of the WMMA API: ``nvvm.wmma.load``, ``nvvm.wmma.store`` and
``nvvm.wmma.mma``, and their ``#nvvm.mma_frag`` attribute.

Printed forms (MLIR 22)::

    %a = nvvm.wmma.load %ptr, %stride {eltype = #nvvm.mma_type<f16>,
        frag = #nvvm.mma_frag<a>, k = 16 : i32, layout = #nvvm.mma_layout<row>,
        m = 16 : i32, n = 16 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(vector<2xf16>, ...)>
    nvvm.wmma.store %ptr, %stride, %d0, ..., %d7 {eltype = #nvvm.mma_type<f32>,
        k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32}
        : !llvm.ptr, f32, ..., f32
    %d = nvvm.wmma.mma %a0, ..., %c7 {eltypeA = #nvvm.mma_type<f16>,
        eltypeB = #nvvm.mma_type<f32>, k = 16 : i32, layoutA = ..., layoutB = ...,
        m = 16 : i32, n = 16 : i32} : (vector<2xf16>, ..., f32) -> !llvm.struct<(f32, ...)>

``eltypeB`` of ``wmma.mma`` is, as upstream, the type of the accumulator (C and D).

The combinations MLIR 22 accepts (:func:`is_valid_load_store`, :func:`is_valid_mma`)
and what each fragment holds per lane (:func:`fragment`) were read off
``mlir-opt-22``'s verifier; the intrinsic names off ``mlir-translate-22``:
``llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p3``,
``llvm.nvvm.wmma.m16n16k16.store.d.col.stride.f32.p0`` (the data, then the stride),
``llvm.nvvm.wmma.m16n16k16.mma.row.col.f32.f32`` (f16 inputs: the D and C types;
otherwise the input type: ``.tf32``, ``.s8``, ``.u8``, ``.f64``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import (
    I32,
    IntAttr,
    IntegerAttr,
    VectorType,
    f16,
    f32,
    f64,
    i32,
)
from xdsl.dialects.llvm import LLVMPointerType, LLVMStructType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.nvvm.attributes import AngleBracketSyntax
from xdsl_gpu.gpu_dialect.nvvm.base import IntrinsicOp
from xdsl_gpu.gpu_dialect.nvvm.mma_attrs import (
    MMALayout,
    MMALayoutAttr,
    MMATypes,
    MMATypesAttr,
)


class MMAFrag(StrEnum):
    A = "a"
    B = "b"
    C = "c"


@irdl_attr_definition
class MMAFragAttr(AngleBracketSyntax, EnumAttribute[MMAFrag]):
    """``#nvvm.mma_frag<a>``: which operand of ``D = A * B + C`` a fragment is."""

    name = "nvvm.mma_frag"


# ===----------------------------------------------------------------------=== #
# What MLIR 22 supports
# ===----------------------------------------------------------------------=== #

Geometry = tuple[int, int, int]

_HALF_GEOMETRIES: tuple[Geometry, ...] = ((16, 16, 16), (32, 8, 16), (8, 32, 16))
"""The f16 and 8-bit integer shapes."""
_TF32_GEOMETRY: Geometry = (16, 16, 8)
_F64_GEOMETRY: Geometry = (8, 8, 4)

_T = MMATypes
_AB_TYPES: frozenset[tuple[Geometry, MMATypes]] = frozenset(
    {(g, t) for g in _HALF_GEOMETRIES for t in (_T.F16, _T.S8, _T.U8)}
    | {(_TF32_GEOMETRY, _T.TF32), (_F64_GEOMETRY, _T.F64)}
)
_CD_TYPES: frozenset[tuple[Geometry, MMATypes]] = frozenset(
    {(g, t) for g in _HALF_GEOMETRIES for t in (_T.F16, _T.F32, _T.S32)}
    | {(_TF32_GEOMETRY, _T.F32), (_F64_GEOMETRY, _T.F64)}
)
_MMA_TYPES: frozenset[tuple[Geometry, MMATypes, MMATypes]] = frozenset(
    {
        (g, a, c)
        for g in _HALF_GEOMETRIES
        for a, c in (
            (_T.F16, _T.F16),
            (_T.F16, _T.F32),
            (_T.S8, _T.S32),
            (_T.U8, _T.S32),
        )
    }
    | {(_TF32_GEOMETRY, _T.TF32, _T.F32), (_F64_GEOMETRY, _T.F64, _T.F64)}
)


def is_valid_load_store(
    geometry: Geometry, frag: MMAFrag | None, eltype: MMATypes
) -> bool:
    """Whether a ``wmma.load`` of ``frag`` (``None``: a ``wmma.store`` of D) exists."""
    table = _AB_TYPES if frag in (MMAFrag.A, MMAFrag.B) else _CD_TYPES
    return (geometry, eltype) in table


def is_valid_mma(geometry: Geometry, eltype_a: MMATypes, eltype_c: MMATypes) -> bool:
    """Whether a ``wmma.mma`` with inputs of ``eltype_a`` accumulating in
    ``eltype_c`` exists."""
    return (geometry, eltype_a, eltype_c) in _MMA_TYPES


def fragment(
    eltype: MMATypes, frag: MMAFrag | None, geometry: Geometry
) -> tuple[Attribute, int]:
    """The registers of one lane's fragment: (their LLVM type, how many).
    ``frag`` ``None`` is the D (result) fragment, as C."""
    m, n, k = geometry
    accumulator = frag not in (MMAFrag.A, MMAFrag.B)
    match eltype:
        case MMATypes.F16:
            return VectorType(f16, [2]), 4 if accumulator else 8
        case MMATypes.F32:
            return f32, 8
        case MMATypes.TF32:
            return i32, 4
        case MMATypes.S8 | MMATypes.U8 if not accumulator:
            # Four 8-bit elements per register; the warp holds an A of m x k or a B
            # of k x n.
            return i32, (m * k if frag == MMAFrag.A else k * n) // 128
        case MMATypes.S32:
            return i32, 8
        case MMATypes.F64:
            return f64, 2 if accumulator else 1
        case _:
            raise ValueError(f"no WMMA fragment of {eltype}")


def fragment_type(
    eltype: MMATypes, frag: MMAFrag | None, geometry: Geometry
) -> Attribute:
    """The LLVM type of a whole fragment: a struct of its registers, or a lone ``f64``
    (the A and B fragments of the f64 shape), as upstream's ``convertMMAToLLVMType``."""
    element, count = fragment(eltype, frag, geometry)
    if element == f64 and count == 1:
        return f64
    return LLVMStructType.from_type_list([element] * count)


def _struct_message(element: Attribute, count: int) -> str:
    return (
        f"expected destination type is a structure of {count} elements of type "
        f"'{element}'"
    )


def _geometry_props(geometry: Geometry) -> dict[str, Attribute]:
    m, n, k = geometry
    return {
        "m": IntegerAttr(m, i32),
        "n": IntegerAttr(n, i32),
        "k": IntegerAttr(k, i32),
    }


def _sorted(properties: dict[str, Attribute]) -> dict[str, Attribute]:
    """Properties in name order, as MLIR prints them."""
    return dict(sorted(properties.items()))


def _pointer_space(pointer: Attribute) -> int:
    assert isinstance(pointer, LLVMPointerType)
    space = pointer.addr_space
    return space.data if isinstance(space, IntAttr) else 0


def _llvm_type_of(emitter: Any, value: SSAValue) -> str:
    """The LLVM IR spelling of ``value``'s type (the emitter writes ``<type> <ref>``)."""
    return emitter.typed(value).rsplit(" ", 1)[0]


def _geometry_of(op: Operation) -> Geometry:
    m, n, k = (op.properties[name] for name in "mnk")
    assert isinstance(m, IntegerAttr)
    assert isinstance(n, IntegerAttr)
    assert isinstance(k, IntegerAttr)
    return (m.value.data, n.value.data, k.value.data)


def _geometry_name(geometry: Geometry) -> str:
    m, n, k = geometry
    return f"m{m}n{n}k{k}"


# ===----------------------------------------------------------------------=== #
# Ops
# ===----------------------------------------------------------------------=== #


@irdl_op_definition
class WMMALoadOp(IntrinsicOp):
    """``nvvm.wmma.load``: the warp loads one fragment (A, B or C) of an
    ``m x n x k`` product from ``ptr``, rows (``layout`` ``row``) or columns
    ``stride`` elements apart. Translated to
    ``llvm.nvvm.wmma.<mnk>.load.<frag>.<layout>.stride.<eltype>.p<addrspace>``."""

    name = "nvvm.wmma.load"

    ptr = operand_def(LLVMPointerType)
    stride = operand_def(I32)
    res = result_def()
    m = prop_def(IntegerAttr[I32])
    n = prop_def(IntegerAttr[I32])
    k = prop_def(IntegerAttr[I32])
    layout = prop_def(MMALayoutAttr)
    eltype = prop_def(MMATypesAttr)
    frag = prop_def(MMAFragAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$ptr `,` $stride attr-dict `:` functional-type($ptr, $res)"

    def __init__(
        self,
        ptr: SSAValue | Operation,
        stride: SSAValue | Operation,
        geometry: Geometry,
        layout: MMALayout,
        eltype: MMATypes,
        frag: MMAFrag,
        result_type: Attribute | None = None,
    ):
        """The result type is the fragment's unless ``result_type`` is given."""
        if result_type is None:
            result_type = fragment_type(eltype, frag, geometry)
        super().__init__(
            operands=[ptr, stride],
            result_types=[result_type],
            properties=_sorted(
                {
                    **_geometry_props(geometry),
                    "layout": MMALayoutAttr(layout),
                    "eltype": MMATypesAttr(eltype),
                    "frag": MMAFragAttr(frag),
                }
            ),
        )

    def verify_(self) -> None:
        result = self.res.type
        if not isinstance(result, LLVMStructType) and result != f64:
            raise VerifyException(
                "result #0 must be LLVM structure type or 64-bit float, but got "
                f"'{result}'"
            )
        geometry = _geometry_of(self)
        eltype, frag = MMATypes(self.eltype.data), MMAFrag(self.frag.data)
        if not is_valid_load_store(geometry, frag, eltype):
            raise VerifyException("invalid attribute combination")
        element, count = fragment(eltype, frag, geometry)
        if element == f64 and count == 1:
            if result != f64:
                raise VerifyException("expected destination type to be f64")
            return
        if (
            not isinstance(result, LLVMStructType)
            or list(result.types.data) != [element] * count
        ):
            raise VerifyException(_struct_message(element, count))

    def get_llvm_intrinsic(self) -> str:
        return (
            f"llvm.nvvm.wmma.{_geometry_name(_geometry_of(self))}.load."
            f"{self.frag.data.value}.{self.layout.data.value}.stride."
            f"{self.eltype.data.value}.p{_pointer_space(self.ptr.type)}"
        )

    def llvm_ir(self, emitter: Any) -> None:
        """A call of the intrinsic, whose one-register fragments (the 8-bit A or B
        of m8n32k16 and m32n8k16) come back as the bare register: it is put in the
        op's one-field struct."""
        result = self.res.type
        args = [
            (_llvm_type_of(emitter, self.ptr), emitter.ref(self.ptr)),
            ("i32", emitter.ref(self.stride)),
        ]
        if isinstance(result, LLVMStructType) and len(result.types.data) == 1:
            register = emitter.module.declare(
                self.get_llvm_intrinsic(), "i32", [t for t, _ in args]
            )
            value = emitter.fresh()
            emitter.emit(
                f"{value} = call i32 {register}({', '.join(f'{t} {v}' for t, v in args)})"
            )
            emitter.define(self.res, f"insertvalue {{ i32 }} poison, i32 {value}, 0")
            return
        emitter.call_intrinsic(self.get_llvm_intrinsic(), result, args, result=self.res)


@irdl_op_definition
class WMMAStoreOp(IntrinsicOp):
    """``nvvm.wmma.store``: the warp stores its D fragment (the registers ``args``)
    to ``ptr``, rows or columns ``stride`` elements apart. Translated to
    ``llvm.nvvm.wmma.<mnk>.store.d.<layout>.stride.<eltype>.p<addrspace>``. The
    stride is printed before the data but is the last operand (and argument), as
    upstream's."""

    name = "nvvm.wmma.store"

    ptr = operand_def(LLVMPointerType)
    args = var_operand_def()
    stride = operand_def(I32)
    m = prop_def(IntegerAttr[I32])
    n = prop_def(IntegerAttr[I32])
    k = prop_def(IntegerAttr[I32])
    layout = prop_def(MMALayoutAttr)
    eltype = prop_def(MMATypesAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$ptr `,` $stride `,` $args attr-dict `:` type($ptr) `,` type($args)"
    )

    def __init__(
        self,
        ptr: SSAValue | Operation,
        stride: SSAValue | Operation,
        args: Sequence[SSAValue | Operation],
        geometry: Geometry,
        layout: MMALayout,
        eltype: MMATypes,
    ):
        super().__init__(
            operands=[ptr, args, stride],
            properties=_sorted(
                {
                    **_geometry_props(geometry),
                    "layout": MMALayoutAttr(layout),
                    "eltype": MMATypesAttr(eltype),
                }
            ),
        )

    def verify_(self) -> None:
        geometry = _geometry_of(self)
        eltype = MMATypes(self.eltype.data)
        if not is_valid_load_store(geometry, None, eltype):
            raise VerifyException("invalid attribute combination")
        element, count = fragment(eltype, None, geometry)
        if len(self.args) != count:
            raise VerifyException(f"expected {count} data operands")
        if any(a.type != element for a in self.args):
            raise VerifyException(f"expected data operands of type '{element}'")

    def get_llvm_intrinsic(self) -> str:
        return (
            f"llvm.nvvm.wmma.{_geometry_name(_geometry_of(self))}.store.d."
            f"{self.layout.data.value}.stride.{self.eltype.data.value}"
            f".p{_pointer_space(self.ptr.type)}"
        )


@irdl_op_definition
class WMMAMmaOp(IntrinsicOp):
    """``nvvm.wmma.mma``: the warp computes ``D = A * B + C`` from the registers of
    its A, B and C fragments (``args``, in that order). Translated to
    ``llvm.nvvm.wmma.<mnk>.mma.<layoutA>.<layoutB>.<types>``."""

    name = "nvvm.wmma.mma"

    args = var_operand_def()
    res = result_def(LLVMStructType)
    m = prop_def(IntegerAttr[I32])
    n = prop_def(IntegerAttr[I32])
    k = prop_def(IntegerAttr[I32])
    layout_a = prop_def(MMALayoutAttr, prop_name="layoutA")
    layout_b = prop_def(MMALayoutAttr, prop_name="layoutB")
    eltype_a = prop_def(MMATypesAttr, prop_name="eltypeA")
    eltype_b = prop_def(MMATypesAttr, prop_name="eltypeB")

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$args attr-dict `:` functional-type($args, $res)"

    def __init__(
        self,
        args: Sequence[SSAValue | Operation],
        geometry: Geometry,
        layouts: tuple[MMALayout, MMALayout],
        eltype_a: MMATypes,
        eltype_c: MMATypes,
        result_type: Attribute | None = None,
    ):
        """The result type is the D fragment's unless ``result_type`` is given."""
        if result_type is None:
            result_type = fragment_type(eltype_c, MMAFrag.C, geometry)
        super().__init__(
            operands=[args],
            result_types=[result_type],
            properties=_sorted(
                {
                    **_geometry_props(geometry),
                    "layoutA": MMALayoutAttr(layouts[0]),
                    "layoutB": MMALayoutAttr(layouts[1]),
                    "eltypeA": MMATypesAttr(eltype_a),
                    "eltypeB": MMATypesAttr(eltype_c),
                }
            ),
        )

    def expected_arguments(self) -> list[Attribute]:
        """The register types of the A, B and C fragments, in order."""
        geometry = _geometry_of(self)
        a, c = MMATypes(self.eltype_a.data), MMATypes(self.eltype_b.data)
        types: list[Attribute] = []
        for eltype, frag in ((a, MMAFrag.A), (a, MMAFrag.B), (c, MMAFrag.C)):
            element, count = fragment(eltype, frag, geometry)
            types += [element] * count
        return types

    def verify_(self) -> None:
        geometry = _geometry_of(self)
        a, c = MMATypes(self.eltype_a.data), MMATypes(self.eltype_b.data)
        if not is_valid_mma(geometry, a, c):
            raise VerifyException("invalid attribute combination")
        expected = self.expected_arguments()
        if len(self.args) != len(expected):
            raise VerifyException(f"expected {len(expected)} arguments")
        for index, (arg, t) in enumerate(zip(self.args, expected, strict=True)):
            if arg.type != t:
                raise VerifyException(f"expected argument {index} to be of type '{t}'")
        element, count = fragment(c, MMAFrag.C, geometry)
        result = self.res.type
        assert isinstance(result, LLVMStructType)
        if list(result.types.data) != [element] * count:
            raise VerifyException(_struct_message(element, count))

    def get_llvm_intrinsic(self) -> str:
        a, c = MMATypes(self.eltype_a.data), MMATypes(self.eltype_b.data)
        types = f"{c.value}.{c.value}" if a == MMATypes.F16 else a.value
        return (
            f"llvm.nvvm.wmma.{_geometry_name(_geometry_of(self))}.mma."
            f"{self.layout_a.data.value}.{self.layout_b.data.value}.{types}"
        )


OPERATIONS: tuple[type[Operation], ...] = (WMMALoadOp, WMMAStoreOp, WMMAMmaOp)
ATTRIBUTES: tuple[type[Attribute], ...] = (MMAFragAttr,)

__all__ = [
    "MMAFrag",
    "MMAFragAttr",
    "WMMALoadOp",
    "WMMAMmaOp",
    "WMMAStoreOp",
    "fragment",
    "fragment_type",
    "is_valid_load_store",
    "is_valid_mma",
]
