"""Warp-level matrix ops: ``nvvm.ldmatrix`` and ``nvvm.mma.sync``.

Printed forms (MLIR 22)::

    %r = nvvm.ldmatrix %p {eltType = #nvvm.ld_st_matrix_elt_type<b16>,
        layout = #nvvm.mma_layout<row>, num = 4 : i32,
        shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
        : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
    %d = nvvm.mma.sync A[%a0, %a1]  B[%b0]  C[%c0, %c1]  {layoutA = ..., layoutB = ...,
        shape = #nvvm.shape<m = 16, n = 8, k = 8>}
        : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>

``mma.sync``'s ``multiplicandAPtxType``/``multiplicandBPtxType`` are printed only when
they cannot be inferred from the operand types, as upstream.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
    f16,
    f32,
    f64,
    i32,
)
from xdsl.dialects.llvm import LLVMPointerType, LLVMStructType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from xdsl_gpu.gpu_dialect.nvvm.base import IntrinsicOp
from xdsl_gpu.gpu_dialect.nvvm.mma_attrs import (
    LdStMatrixEltTypeAttr,
    LdStMatrixShapeAttr,
    MMAB1OpAttr,
    MMAIntOverflowAttr,
    MMALayout,
    MMALayoutAttr,
    MMAShapeAttr,
    MMATypes,
    MMATypesAttr,
)


@irdl_op_definition
class LdMatrixOp(IntrinsicOp):
    """``nvvm.ldmatrix``: load ``num`` matrices from shared memory (``layout``
    ``col`` transposes them). Translated to
    ``llvm.nvvm.ldmatrix.sync.aligned.m8n8.x<num>[.trans].b16.p3``."""

    name = "nvvm.ldmatrix"

    ptr = operand_def(LLVMPointerType)
    res = result_def()
    num = prop_def(IntegerAttr[I32])
    layout = prop_def(MMALayoutAttr)
    shape = prop_def(LdStMatrixShapeAttr)
    elt_type = prop_def(LdStMatrixEltTypeAttr, prop_name="eltType")

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$ptr attr-dict `:` functional-type($ptr, $res)"

    def __init__(
        self,
        ptr: SSAValue | Operation,
        result_type: Attribute,
        num: int,
        layout: MMALayoutAttr,
        shape: LdStMatrixShapeAttr,
        elt_type: LdStMatrixEltTypeAttr,
    ):
        super().__init__(
            operands=[ptr],
            result_types=[result_type],
            properties={
                "num": IntegerAttr(num, i32),
                "layout": layout,
                "shape": shape,
                "eltType": elt_type,
            },
        )

    def get_llvm_intrinsic(self) -> str:
        trans = ".trans" if self.layout.data == MMALayout.COL else ""
        shape = f"m{self.shape.m.data}n{self.shape.n.data}"
        pointer = self.ptr.type
        assert isinstance(pointer, LLVMPointerType)
        space = (
            pointer.addr_space.data if isinstance(pointer.addr_space, IntAttr) else 0
        )
        return (
            f"llvm.nvvm.ldmatrix.sync.aligned.{shape}.x{self.num.value.data}{trans}."
            f"{self.elt_type.data.value}.p{space}"
        )


_F16X2 = VectorType(f16, [2])


def infer_mma_type(t: Attribute, accumulator: bool) -> MMATypes | None:
    """Upstream's ``MmaOp::inferOperandMMAType``."""
    if t == f64:
        return MMATypes.F64
    if t in (f16, _F16X2):
        return MMATypes.F16
    if t == f32:
        return MMATypes.F32 if accumulator else MMATypes.TF32
    if isinstance(t, IntegerType):
        return MMATypes.S32 if accumulator else None
    if isinstance(t, LLVMStructType) and t.types.data:
        return infer_mma_type(t.types.data[0], accumulator)
    return None


@irdl_op_definition
class MmaOp(IntrinsicOp):
    """``nvvm.mma.sync``: warp-level ``D = A * B + C`` on registers. Translated to
    ``llvm.nvvm.mma.m<M>n<N>k<K>.<layoutA>.<layoutB>[.<overflow>].<types>``
    (see :meth:`get_llvm_intrinsic`)."""

    name = "nvvm.mma.sync"

    operand_a = var_operand_def()
    operand_b = var_operand_def()
    operand_c = var_operand_def()
    res = result_def()
    shape = prop_def(MMAShapeAttr)
    b1_op = opt_prop_def(MMAB1OpAttr, prop_name="b1Op")
    int_overflow_behavior = opt_prop_def(
        MMAIntOverflowAttr, prop_name="intOverflowBehavior"
    )
    layout_a = prop_def(MMALayoutAttr, prop_name="layoutA")
    layout_b = prop_def(MMALayoutAttr, prop_name="layoutB")
    multiplicand_a_ptx_type = opt_prop_def(
        MMATypesAttr, prop_name="multiplicandAPtxType"
    )
    multiplicand_b_ptx_type = opt_prop_def(
        MMATypesAttr, prop_name="multiplicandBPtxType"
    )

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    _PTX_TYPE_NAMES: ClassVar[tuple[str, str]] = (
        "multiplicandAPtxType",
        "multiplicandBPtxType",
    )

    def __init__(
        self,
        result_type: Attribute,
        operand_a: list[SSAValue],
        operand_b: list[SSAValue],
        operand_c: list[SSAValue],
        shape: tuple[int, int, int],
        layouts: tuple[MMALayout, MMALayout] = (MMALayout.ROW, MMALayout.COL),
        ptx_types: tuple[MMATypes, MMATypes] | None = None,
        int_overflow: MMAIntOverflowAttr | None = None,
    ):
        properties: dict[str, Attribute] = {
            "shape": MMAShapeAttr(*shape),
            "layoutA": MMALayoutAttr(layouts[0]),
            "layoutB": MMALayoutAttr(layouts[1]),
        }
        for name, values, given in zip(
            self._PTX_TYPE_NAMES,
            (operand_a, operand_b),
            ptx_types or (None, None),
            strict=True,
        ):
            ptx = given or infer_mma_type(values[0].type, False)
            if ptx is not None:
                properties[name] = MMATypesAttr(ptx)
        if int_overflow is not None:
            properties["intOverflowBehavior"] = int_overflow
        super().__init__(
            operands=[operand_a, operand_b, operand_c],
            result_types=[result_type],
            properties=properties,
        )

    @classmethod
    def parse(cls, parser: Parser) -> MmaOp:
        groups: list[list[UnresolvedOperand]] = []
        for name in ("A", "B", "C"):
            parser.parse_keyword(name)
            groups.append(
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
            parser.raise_error(
                f"expected one type for each operand segment but got {len(types)} types"
            )
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        operands = [
            [parser.resolve_operand(o, t) for o in group]
            for group, t in zip(groups, types, strict=True)
        ]
        properties: dict[str, Attribute] = {}
        for key in list(attributes):
            if key in cls.get_irdl_definition().properties:
                properties[key] = attributes.pop(key)
        for name, t in zip(cls._PTX_TYPE_NAMES, types[:2], strict=True):
            if name in properties:
                continue
            inferred = infer_mma_type(t, False)
            if inferred is None:
                parser.raise_error(
                    f"attribute {name} is not provided explicitly and cannot be "
                    "inferred"
                )
            properties[name] = MMATypesAttr(inferred)
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32, [len(g) for g in operands]
        )
        return cls.create(
            operands=[o for g in operands for o in g],
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
            printer.print_string("] ")
            if index < 2 and infer_mma_type(group[0].type, False) is not None:
                hidden.add(self._PTX_TYPE_NAMES[index])
        shown = {k: v for k, v in self.properties.items() if k not in hidden}
        printer.print_op_attributes({**shown, **self.attributes})
        printer.print_string(" : (")
        printer.print_list([g[0].type for g in groups], printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.res.type)

    def get_llvm_intrinsic(self) -> str:
        s = self.shape
        name = "llvm.nvvm.mma"
        if self.b1_op is not None:
            name += "." + self.b1_op.data.value.replace("_", ".")
        name += f".m{s.m.data}n{s.n.data}k{s.k.data}"
        name += f".{self.layout_a.data.value}.{self.layout_b.data.value}"
        if self.int_overflow_behavior is not None:
            name += f".{self.int_overflow_behavior.data.value}"
        a = self.multiplicand_a_ptx_type
        b = self.multiplicand_b_ptx_type
        assert a is not None
        assert b is not None
        d = infer_mma_type(self.res.type, True)
        c = infer_mma_type(self.operand_c[0].type, True)
        assert d is not None
        assert c is not None
        if a.data in (MMATypes.F16,) and b.data == MMATypes.F16:
            return f"{name}.{d.value}.{c.value}"
        if a.data == b.data:
            return f"{name}.{a.data.value}"
        return f"{name}.{a.data.value}.{b.data.value}"


OPERATIONS: tuple[type[Operation], ...] = (LdMatrixOp, MmaOp)

__all__ = ["LdMatrixOp", "MmaOp", "infer_mma_type"]
