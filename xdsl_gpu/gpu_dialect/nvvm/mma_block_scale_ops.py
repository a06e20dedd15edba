"""Warp-level matrix multiply with block scaling: ``nvvm.mma.block_scale`` and its
2:4-sparse form ``nvvm.mma.sp.block_scale`` (``D = (A * SF_A) x (B * SF_B) + C``).

Printed forms (MLIR 22)::

    %d = nvvm.mma.block_scale A[%a0, %a1, %a2, %a3] B[%b0, %b1] C[%c0, %c1, %c2, %c3]
        scaleA[%dataA, %byteIdA, %threadIdA] scaleB[%dataB, %byteIdB, %threadIdB]
        {blockScaleFormat = #nvvm.block_scale_format<ue8m0>,
         kind = #nvvm.block_scale_kind<mxf8f6f4>,
         multiplicandAPtxType = #nvvm.mma_type<e2m1>,
         multiplicandBPtxType = #nvvm.mma_type<e3m2>,
         scaleVecSize = #nvvm.scale_vec_size<x1>,
         shape = #nvvm.shape<m = 16, n = 8, k = 32>}
        : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %d = nvvm.mma.sp.block_scale A[...] B[...] C[...] sparseMetadata[%meta]
        selector[%sel] scaleA[...] scaleB[...] {..., orderedMetadata, ...} : (...) -> ...

As ``mma.sync``, each of A, B and C is a list of registers of one type, the types
being listed in that order after the colon; a multiplicand's PTX type is printed only
when its register type does not tell it. A scale is its data (i32), byte id and
thread id (i16). The shapes, kinds, scale vector sizes and formats that MLIR 22's
verifier accepts:

* dense ``m16n8k32``, sparse ``m16n8k64``: ``mxf8f6f4``, ``x1``, ``ue8m0``;
* dense ``m16n8k64``, sparse ``m16n8k128``: e2m1 multiplicands and ``mxf4`` with
  ``x2``/``ue8m0``, or ``mxf4nvf4`` with ``x2``/``ue8m0`` or ``x4``/``ue4m3``.

The ops become ``llvm.nvvm.mma[.sp.ordered.metadata].block.scale.m16n8k<K>.row.col.
<kind>.scale.<N>x.<D>.<A>.<B>.<C>.<format>`` calls with the registers of A, B, C,
(sparse: the metadata and selector,) then the scales as arguments. The sparse op
needs ``orderedMetadata`` (its parser adds it). MLIR 22 gives neither op an SM
requirement.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from xdsl.dialects.builtin import DenseArrayBase, IntegerType, UnitAttr, i32
from xdsl.dialects.llvm import LLVMStructType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarOperand,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.nvvm.attributes import AngleBracketSyntax
from xdsl_gpu.gpu_dialect.nvvm.mma_attrs import MMAShapeAttr, MMATypes, MMATypesAttr
from xdsl_gpu.gpu_dialect.nvvm.mma_ops import infer_mma_type


class ScaleVecSize(StrEnum):
    X1 = "x1"
    X2 = "x2"
    X4 = "x4"


class BlockScaleFormat(StrEnum):
    UE8M0 = "ue8m0"
    UE4M3 = "ue4m3"


class MMABlockScaleKind(StrEnum):
    MXF8F6F4 = "mxf8f6f4"
    MXF4 = "mxf4"
    MXF4NVF4 = "mxf4nvf4"


@irdl_attr_definition
class ScaleVecSizeAttr(AngleBracketSyntax, EnumAttribute[ScaleVecSize]):
    """``#nvvm.scale_vec_size<x1|x2|x4>``: scale factors per row of ``mma.block_scale``."""

    name = "nvvm.scale_vec_size"


@irdl_attr_definition
class BlockScaleFormatAttr(AngleBracketSyntax, EnumAttribute[BlockScaleFormat]):
    """``#nvvm.block_scale_format<ue8m0|ue4m3>``: the format of ``mma.block_scale``'s scale factors."""

    name = "nvvm.block_scale_format"


@irdl_attr_definition
class MMABlockScaleKindAttr(AngleBracketSyntax, EnumAttribute[MMABlockScaleKind]):
    """``#nvvm.block_scale_kind<mxf8f6f4|mxf4|mxf4nvf4>``: the kind of ``mma.block_scale`` and ``tcgen05.mma.block_scale``."""

    name = "nvvm.block_scale_kind"


_I16 = IntegerType(16)
_SCALE_TYPES = (i32, _I16, _I16)
_PTX_TYPE_NAMES = ("multiplicandAPtxType", "multiplicandBPtxType")


class _MmaBlockScaleBase(IRDLOperation):
    """What the dense and the sparse op share: operands A, B and C, the two scales
    and the attributes that pick the instruction."""

    SPARSE: ClassVar[bool] = False
    INTRINSIC_PREFIX: ClassVar[str] = "llvm.nvvm.mma.block.scale"
    # The two shapes: (k of mxf8f6f4, k of mxf4 and mxf4nvf4).
    K_SIZES: ClassVar[tuple[int, int]] = (32, 64)

    # Each op defines its operands (IRDL orders a subclass's fields first): A, B
    # and C, then the single operands; and its result.
    if TYPE_CHECKING:
        operand_a: VarOperand
        operand_b: VarOperand
        operand_c: VarOperand
        res: OpResult

    shape = prop_def(MMAShapeAttr)
    multiplicand_a_ptx_type = opt_prop_def(
        MMATypesAttr, prop_name="multiplicandAPtxType"
    )
    multiplicand_b_ptx_type = opt_prop_def(
        MMATypesAttr, prop_name="multiplicandBPtxType"
    )
    scale_vec_size = prop_def(ScaleVecSizeAttr, prop_name="scaleVecSize")
    block_scale_format = prop_def(BlockScaleFormatAttr, prop_name="blockScaleFormat")
    kind = prop_def(MMABlockScaleKindAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    # The keywords of the single operands after C, in order (each `name[...]`).
    _SINGLE_GROUPS: ClassVar[tuple[tuple[str, int], ...]] = (
        ("scaleA", 3),
        ("scaleB", 3),
    )

    def _single_operands(self) -> list[SSAValue]:
        return list(self.operands[-self._single_count() :])

    @classmethod
    def _single_count(cls) -> int:
        return sum(n for _, n in cls._SINGLE_GROUPS)

    @classmethod
    def _single_types(cls) -> list[Attribute]:
        types: list[Attribute] = []
        for name, _ in cls._SINGLE_GROUPS:
            types += [i32] if name in ("sparseMetadata", "selector") else _SCALE_TYPES
        return types

    @classmethod
    def parse(cls, parser: Parser) -> _MmaBlockScaleBase:
        groups: list[list[UnresolvedOperand]] = []
        for name in ("A", "B", "C"):
            parser.parse_keyword(name)
            groups.append(
                parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, parser.parse_unresolved_operand
                )
            )
        singles: list[list[UnresolvedOperand]] = []
        for name, _ in cls._SINGLE_GROUPS:
            parser.parse_keyword(name)
            singles.append(
                parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, parser.parse_unresolved_operand
                )
            )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_type
        )
        if len(types) != 3:
            parser.raise_error("expected exactly 3 types")
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        operands = [
            [parser.resolve_operand(o, t) for o in group]
            for group, t in zip(groups, types, strict=True)
        ]
        flat_singles = [o for group in singles for o in group]
        single_types = cls._single_types()
        if len(flat_singles) != len(single_types):
            parser.raise_error(
                f"expected {len(single_types)} operands after C, got {len(flat_singles)}"
            )
        resolved = [
            parser.resolve_operand(o, t)
            for o, t in zip(flat_singles, single_types, strict=True)
        ]
        properties: dict[str, Attribute] = {}
        for key in list(attributes):
            if key in cls.get_irdl_definition().properties:
                properties[key] = attributes.pop(key)
        for name, t in zip(_PTX_TYPE_NAMES, types[:2], strict=True):
            if name not in properties and (inferred := infer_mma_type(t, False)):
                properties[name] = MMATypesAttr(inferred)
        if cls.SPARSE:
            properties.setdefault("orderedMetadata", UnitAttr())
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32, [len(g) for g in operands] + [1] * len(resolved)
        )
        return cls.create(
            operands=[o for g in operands for o in g] + resolved,
            result_types=[result_type],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        hidden = {"operandSegmentSizes"}
        groups = (self.operand_a, self.operand_b, self.operand_c)
        for index, (name, group) in enumerate(zip("ABC", groups, strict=True)):
            printer.print_string(f" {name}[")
            printer.print_list(group, printer.print_operand)
            printer.print_string("]")
            if index < 2 and infer_mma_type(group[0].type, False) is not None:
                hidden.add(_PTX_TYPE_NAMES[index])
        singles = iter(self._single_operands())
        for name, count in self._SINGLE_GROUPS:
            printer.print_string(f" {name}[")
            printer.print_list(
                [next(singles) for _ in range(count)], printer.print_operand
            )
            printer.print_string("]")
        # MLIR prints the attribute dictionary sorted by name.
        shown = {k: v for k, v in self.properties.items() if k not in hidden}
        printer.print_op_attributes(dict(sorted({**shown, **self.attributes}.items())))
        printer.print_string(" : (")
        printer.print_list([g[0].type for g in groups], printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        if not self.operand_a or not self.operand_b or not self.operand_c:
            raise VerifyException("A, B and C each need at least one register")
        s = self.shape
        m, n, k = s.m.data, s.n.data, s.k.data
        kind = self.kind.data
        vec = self.scale_vec_size.data
        fmt = self.block_scale_format.data
        k8, k4 = self.K_SIZES
        sparse = "sparse " if self.SPARSE else ""
        if (m, n, k) == (16, 8, k4):
            geom = f"mma.m16n8k{k4}"
            if self._ptx_type(0) != MMATypes.E2M1 or self._ptx_type(1) != MMATypes.E2M1:
                raise VerifyException(
                    f"unsupported MMATypes attribute for {geom}.(mxf4nvf4|mxf4)"
                )
            if kind == MMABlockScaleKind.MXF4:
                if vec != ScaleVecSize.X2:
                    raise VerifyException(
                        f"unsupported ScaleVecSize attribute for {geom}.mxf4"
                    )
                if fmt != BlockScaleFormat.UE8M0:
                    raise VerifyException(
                        f"unsupported BlockScaleFormat attribute for {geom}.mxf4"
                    )
            elif kind == MMABlockScaleKind.MXF4NVF4:
                if (vec, fmt) not in (
                    (ScaleVecSize.X2, BlockScaleFormat.UE8M0),
                    (ScaleVecSize.X4, BlockScaleFormat.UE4M3),
                ):
                    raise VerifyException(
                        "unsupported ScaleVecSize and BlockScaleFormat attributes "
                        f"for {geom}.mxf4nvf4"
                    )
            else:
                raise VerifyException(f"unsupported Kind attribute for {geom}")
        elif (m, n, k) == (16, 8, k8):
            if (kind, vec, fmt) != (
                MMABlockScaleKind.MXF8F6F4,
                ScaleVecSize.X1,
                BlockScaleFormat.UE8M0,
            ):
                raise VerifyException(
                    "unsupported Kind, ScaleVecSize and BlockScaleFormat attributes "
                    f"for mma.m16n8k{k8}"
                )
        else:
            raise VerifyException(
                f"unsupported Geom for {sparse}mma with block scaling"
            )

    def _ptx_type(self, index: int) -> MMATypes | None:
        attr = (self.multiplicand_a_ptx_type, self.multiplicand_b_ptx_type)[index]
        return None if attr is None else MMATypes(attr.data)

    def get_llvm_intrinsic(self) -> str:
        s = self.shape
        a, b = self._ptx_type(0), self._ptx_type(1)
        res = self.res.type
        d = (
            infer_mma_type(res.types.data[0], True)
            if isinstance(res, LLVMStructType)
            else None
        )
        c = infer_mma_type(self.operand_c[0].type, True)
        if a is None or b is None or d is None or c is None:
            raise VerifyException(
                f"'{self.name}' has no LLVM intrinsic for these types: give "
                "multiplicandAPtxType/multiplicandBPtxType and f32 accumulators"
            )
        scale = self.scale_vec_size.data.value.removeprefix("x")
        return (
            f"{self.INTRINSIC_PREFIX}.m{s.m.data}n{s.n.data}k{s.k.data}.row.col."
            f"{self.kind.data.value}.scale.{scale}x.{d.value}.{a.value}.{b.value}."
            f"{c.value}.{self.block_scale_format.data.value}"
        )

    def llvm_ir(self, emitter: Any) -> None:
        args: list[tuple[str, str]] = []
        for operand in self.operands:
            llvm_type, ref = emitter.typed(operand).rsplit(" ", 1)
            args.append((llvm_type, ref))
        emitter.call_intrinsic(
            self.get_llvm_intrinsic(), self.res.type, args, result=self.res
        )


@irdl_op_definition
class MmaBlockScaleOp(_MmaBlockScaleBase):
    """``nvvm.mma.block_scale``: dense block-scaled ``mma``."""

    name = "nvvm.mma.block_scale"

    operand_a = var_operand_def()
    operand_b = var_operand_def()
    operand_c = var_operand_def()
    scale_a_data = operand_def(i32)
    byte_id_a = operand_def(_I16)
    thread_id_a = operand_def(_I16)
    scale_b_data = operand_def(i32)
    byte_id_b = operand_def(_I16)
    thread_id_b = operand_def(_I16)
    res = result_def()


@irdl_op_definition
class MmaSpBlockScaleOp(_MmaBlockScaleBase):
    """``nvvm.mma.sp.block_scale``: block-scaled ``mma`` with a 2:4-sparse A, whose
    ``sparseMetadata`` tells the positions of its non-zero elements and
    ``selector`` which threads provide it."""

    name = "nvvm.mma.sp.block_scale"

    SPARSE: ClassVar[bool] = True
    INTRINSIC_PREFIX: ClassVar[str] = "llvm.nvvm.mma.sp.ordered.metadata.block.scale"
    K_SIZES: ClassVar[tuple[int, int]] = (64, 128)
    _SINGLE_GROUPS: ClassVar[tuple[tuple[str, int], ...]] = (
        ("sparseMetadata", 1),
        ("selector", 1),
        ("scaleA", 3),
        ("scaleB", 3),
    )

    operand_a = var_operand_def()
    operand_b = var_operand_def()
    operand_c = var_operand_def()
    sparse_metadata = operand_def(i32)
    sparsity_selector = operand_def(i32)
    scale_a_data = operand_def(i32)
    byte_id_a = operand_def(_I16)
    thread_id_a = operand_def(_I16)
    scale_b_data = operand_def(i32)
    byte_id_b = operand_def(_I16)
    thread_id_b = operand_def(_I16)
    res = result_def()
    ordered_metadata = opt_prop_def(UnitAttr, prop_name="orderedMetadata")

    def verify_(self) -> None:
        if self.ordered_metadata is None:
            raise VerifyException("'orderedMetadata' attribute is mandatory")
        super().verify_()


OPERATIONS: tuple[type[Operation], ...] = (MmaBlockScaleOp, MmaSpBlockScaleOp)
ATTRIBUTES: tuple[type[Attribute], ...] = (
    ScaleVecSizeAttr,
    BlockScaleFormatAttr,
    MMABlockScaleKindAttr,
)

__all__ = [
    "BlockScaleFormat",
    "BlockScaleFormatAttr",
    "MMABlockScaleKind",
    "MMABlockScaleKindAttr",
    "MmaBlockScaleOp",
    "MmaSpBlockScaleOp",
    "ScaleVecSize",
    "ScaleVecSizeAttr",
]
