"""The ``llvm.intr.vector.reduce.*`` ops that xDSL's ``llvm`` dialect lacks (it has
``fadd`` and ``fmul``), as upstream MLIR 22 defines and prints them::

    %s = "llvm.intr.vector.reduce.add"(%v) : (vector<4xi32>) -> i32
    %m = llvm.intr.vector.reduce.fmax(%v) : (vector<4xf32>) -> f32

and the scalable-vector ops: ``llvm.intr.vscale``, ``llvm.intr.stepvector`` and a
``llvm.shufflevector`` whose parser keeps a scalable result scalable.

They join the ``llvm`` dialect through its op list (``xdsl_gpu/gpu_dialect/llvm.py``).
"""

from __future__ import annotations

from abc import ABC
from typing import Self, cast

from xdsl.dialects import llvm as _xllvm
from xdsl.dialects.builtin import (
    I1,
    I32,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    VectorType,
    i32,
)
from xdsl.dialects.llvm import FastMathAttr, LLVMPointerType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
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
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.xdsl_format import RESET_FORMAT


class IntVectorReduceOp(IRDLOperation, ABC):
    """An integer reduction of a vector to its element type (generic syntax only, as
    upstream prints it)."""

    vector = operand_def(VectorType)
    res = result_def()
    traits = traits_def(Pure())

    def __init__(self, vector: SSAValue | Operation):
        vector = SSAValue.get(vector)
        assert isinstance(vector.type, VectorType)
        super().__init__(operands=[vector], result_types=[vector.type.element_type])

    def verify_(self) -> None:
        t = self.vector.type
        assert isinstance(t, VectorType)
        if t.element_type != self.res.type:  # pyright: ignore[reportUnknownMemberType]
            raise VerifyException("result must be the element type of the vector")


class FloatMinMaxVectorReduceOp(IRDLOperation, ABC):
    """``llvm.intr.vector.reduce.fmax(%v) : (vector<4xf32>) -> f32``."""

    vector = operand_def(VectorType)
    res = result_def()
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`(` $vector `)` attr-dict `:` functional-type(operands, results)"

    def __init__(
        self, vector: SSAValue | Operation, fastmath: FastMathAttr | None = None
    ):
        vector = SSAValue.get(vector)
        assert isinstance(vector.type, VectorType)
        super().__init__(
            operands=[vector],
            result_types=[vector.type.element_type],
            properties={"fastmathFlags": fastmath or FastMathAttr(None)},
        )

    def verify_(self) -> None:
        t = self.vector.type
        assert isinstance(t, VectorType)
        if t.element_type != self.res.type:  # pyright: ignore[reportUnknownMemberType]
            raise VerifyException("result must be the element type of the vector")


@irdl_op_definition
class VectorReduceAddOp(IntVectorReduceOp):
    name = "llvm.intr.vector.reduce.add"


@irdl_op_definition
class VectorReduceMulOp(IntVectorReduceOp):
    name = "llvm.intr.vector.reduce.mul"


@irdl_op_definition
class VectorReduceAndOp(IntVectorReduceOp):
    name = "llvm.intr.vector.reduce.and"


@irdl_op_definition
class VectorReduceOrOp(IntVectorReduceOp):
    name = "llvm.intr.vector.reduce.or"


@irdl_op_definition
class VectorReduceXorOp(IntVectorReduceOp):
    name = "llvm.intr.vector.reduce.xor"


@irdl_op_definition
class VectorReduceSMaxOp(IntVectorReduceOp):
    name = "llvm.intr.vector.reduce.smax"


@irdl_op_definition
class VectorReduceSMinOp(IntVectorReduceOp):
    name = "llvm.intr.vector.reduce.smin"


@irdl_op_definition
class VectorReduceUMaxOp(IntVectorReduceOp):
    name = "llvm.intr.vector.reduce.umax"


@irdl_op_definition
class VectorReduceUMinOp(IntVectorReduceOp):
    name = "llvm.intr.vector.reduce.umin"


@irdl_op_definition
class VectorReduceFMaxOp(FloatMinMaxVectorReduceOp):
    name = "llvm.intr.vector.reduce.fmax"


@irdl_op_definition
class VectorReduceFMinOp(FloatMinMaxVectorReduceOp):
    name = "llvm.intr.vector.reduce.fmin"


@irdl_op_definition
class VectorReduceFMaximumOp(FloatMinMaxVectorReduceOp):
    name = "llvm.intr.vector.reduce.fmaximum"


@irdl_op_definition
class VectorReduceFMinimumOp(FloatMinMaxVectorReduceOp):
    name = "llvm.intr.vector.reduce.fminimum"


@irdl_op_definition
class MaskedLoadOp(IRDLOperation):
    """``%v = llvm.intr.masked.load %p, %mask, %pass {alignment = 4 : i32} :
    (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>``: the lanes whose mask
    bit is clear take ``%pass`` and are not read."""

    name = "llvm.intr.masked.load"
    data = operand_def(LLVMPointerType)
    mask = operand_def(VectorType[I1])
    pass_thru = operand_def(VectorType)
    res = result_def(VectorType)
    alignment = prop_def(IntegerAttr[I32])
    nontemporal = opt_prop_def(UnitAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$data `,` $mask `,` $pass_thru attr-dict `:` functional-type(operands, results)"

    def __init__(
        self,
        data: SSAValue | Operation,
        mask: SSAValue | Operation,
        pass_thru: SSAValue | Operation,
        alignment: int,
    ):
        pass_thru = SSAValue.get(pass_thru)
        super().__init__(
            operands=[data, mask, pass_thru],
            result_types=[pass_thru.type],
            properties={"alignment": IntegerAttr(alignment, 32)},
        )

    def verify_(self) -> None:
        if self.pass_thru.type != self.res.type:
            raise VerifyException("expected pass_thru of the result type")


@irdl_op_definition
class MaskedStoreOp(_xllvm.MaskedStoreOp):
    """``llvm.intr.masked.store %v, %p, %mask {alignment = 4 : i32} : vector<4xi32>,
    vector<4xi1> into !llvm.ptr``: xDSL's op, which takes float vectors only, for
    vectors of any element type as upstream."""

    value = operand_def(VectorType)
    data = operand_def(LLVMPointerType)
    mask = operand_def(VectorType[I1])
    alignment = prop_def(IntegerAttr[I32])
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$value `,` $data `,` $mask attr-dict `:` type($value) `,` type($mask) "
        "`into` type($data)"
    )
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        # Our own (empty) check: the verify_ inherited from xDSL's class would check
        # xDSL's float-only operand constraint again.
        return None


def _align_arg_attrs(position: int, count: int, alignment: int | None) -> ArrayAttr:
    """``[{}, {llvm.align = N : i64}, {}]``: the pointer argument's alignment, as
    upstream attaches it to the expand/compress intrinsics."""
    attrs: list[Attribute] = [DictionaryAttr({}) for _ in range(count)]
    if alignment is not None:
        attrs[position] = DictionaryAttr({"llvm.align": IntegerAttr(alignment, 64)})
    return ArrayAttr(attrs)


def pointer_alignment(op: Operation, position: int) -> int | None:
    """The ``llvm.align`` of argument ``position`` in ``arg_attrs``, if any."""
    attrs = op.properties.get("arg_attrs")
    if not isinstance(attrs, ArrayAttr):
        return None
    entry = attrs.data[position]  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    if isinstance(entry, DictionaryAttr) and "llvm.align" in entry.data:
        align = entry.data["llvm.align"]
        if isinstance(align, IntegerAttr):
            return align.value.data
    return None


@irdl_op_definition
class MaskedExpandLoadOp(IRDLOperation):
    """``"llvm.intr.masked.expandload"(%p, %mask, %pass) : (!llvm.ptr, vector<4xi1>,
    vector<4xf32>) -> vector<4xf32>``: consecutive elements from ``%p`` into the set
    lanes (generic syntax, as upstream prints it)."""

    name = "llvm.intr.masked.expandload"
    ptr = operand_def(LLVMPointerType)
    mask = operand_def(VectorType[I1])
    pass_thru = operand_def(VectorType)
    res = result_def(VectorType)
    arg_attrs = opt_prop_def(ArrayAttr)

    def __init__(
        self,
        ptr: SSAValue | Operation,
        mask: SSAValue | Operation,
        pass_thru: SSAValue | Operation,
        alignment: int | None,
    ):
        pass_thru = SSAValue.get(pass_thru)
        super().__init__(
            operands=[ptr, mask, pass_thru],
            result_types=[pass_thru.type],
            properties={}
            if alignment is None
            else {"arg_attrs": _align_arg_attrs(0, 3, alignment)},
        )


@irdl_op_definition
class MaskedCompressStoreOp(IRDLOperation):
    """``"llvm.intr.masked.compressstore"(%v, %p, %mask) : (vector<4xf32>, !llvm.ptr,
    vector<4xi1>) -> ()``: the set lanes stored consecutively from ``%p``."""

    name = "llvm.intr.masked.compressstore"
    value = operand_def(VectorType)
    ptr = operand_def(LLVMPointerType)
    mask = operand_def(VectorType[I1])
    arg_attrs = opt_prop_def(ArrayAttr)

    def __init__(
        self,
        value: SSAValue | Operation,
        ptr: SSAValue | Operation,
        mask: SSAValue | Operation,
        alignment: int | None,
    ):
        super().__init__(
            operands=[value, ptr, mask],
            properties={}
            if alignment is None
            else {"arg_attrs": _align_arg_attrs(1, 3, alignment)},
        )


def _pointer_vector(op: Operation, t: Attribute, what: str) -> VectorType:
    if not (
        isinstance(t, VectorType)
        and isinstance(t.element_type, LLVMPointerType)
        and t.get_num_dims() == 1
    ):
        raise VerifyException(
            f"'{op.name}' op {what} must be LLVM dialect-compatible vector of LLVM "
            f"pointer type, but got '{t}'"
        )
    return cast(VectorType, t)


@irdl_op_definition
class MaskedGatherOp(IRDLOperation):
    """``%g = llvm.intr.masked.gather %ptrs, %mask, %pass {alignment = 4 : i32} :
    (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xf32>) -> vector<4xf32>``: one lane
    read from each pointer whose mask bit is set; the others take ``%pass`` (poison
    without it)."""

    name = "llvm.intr.masked.gather"
    ptrs = operand_def(VectorType)
    mask = operand_def(VectorType[I1])
    pass_thru = opt_operand_def(VectorType)
    res = result_def(VectorType)
    alignment = prop_def(IntegerAttr[I32])
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "operands attr-dict `:` functional-type(operands, results)"

    def __init__(
        self,
        ptrs: SSAValue | Operation,
        mask: SSAValue | Operation,
        pass_thru: SSAValue | Operation,
        alignment: int,
    ):
        pass_thru = SSAValue.get(pass_thru)
        super().__init__(
            operands=[ptrs, mask, [pass_thru]],
            result_types=[pass_thru.type],
            properties={"alignment": IntegerAttr(alignment, 32)},
        )

    def verify_(self) -> None:
        _pointer_vector(self, self.ptrs.type, "operand #0")
        if self.pass_thru is not None and self.pass_thru.type != self.res.type:
            raise VerifyException("expected pass_thru of the result type")


@irdl_op_definition
class MaskedScatterOp(IRDLOperation):
    """``llvm.intr.masked.scatter %v, %ptrs, %mask {alignment = 4 : i32} :
    vector<4xf32>, vector<4xi1> into vector<4x!llvm.ptr>``: each lane whose mask bit
    is set stored at its pointer."""

    name = "llvm.intr.masked.scatter"
    value = operand_def(VectorType)
    ptrs = operand_def(VectorType)
    mask = operand_def(VectorType[I1])
    alignment = prop_def(IntegerAttr[I32])
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$value `,` $ptrs `,` $mask attr-dict `:` type($value) `,` type($mask) "
        "`into` type($ptrs)"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        ptrs: SSAValue | Operation,
        mask: SSAValue | Operation,
        alignment: int,
    ):
        super().__init__(
            operands=[value, ptrs, mask],
            properties={"alignment": IntegerAttr(alignment, 32)},
        )

    def verify_(self) -> None:
        _pointer_vector(self, self.ptrs.type, "operand #1")


@irdl_op_definition
class VScaleOp(IRDLOperation):
    """``%vs = "llvm.intr.vscale"() : () -> i64`` (generic syntax, as upstream prints
    it): the multiple of the lengths of scalable vectors."""

    name = "llvm.intr.vscale"
    res = result_def(IntegerType)
    traits = traits_def(Pure())

    def __init__(self, result_type: IntegerType):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class StepVectorOp(IRDLOperation):
    """``%s = llvm.intr.stepvector : vector<[4]xi64>``: ``[0, 1, 2, ...]`` over every
    lane of a (scalable) integer vector."""

    name = "llvm.intr.stepvector"
    res = result_def(VectorType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($res)"

    def __init__(self, result_type: VectorType):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class ShuffleVectorOp(_xllvm.ShuffleVectorOp):
    """``%r = llvm.shufflevector %a, %b [0, 0, 0, 0] : vector<[4]xf32>``: xDSL's op,
    whose parser makes every result fixed-size; a shuffle of scalable vectors has a
    scalable result (LLVM allows only the all-zero mask there, the splat)."""

    v1 = operand_def(VectorType)
    v2 = operand_def(VectorType)
    mask = prop_def(DenseArrayBase[I32])
    res = result_def(VectorType)
    traits = traits_def(Pure())
    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        v1 = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        v2 = parser.parse_unresolved_operand()
        mask = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_integer
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        if not isinstance(t, VectorType):
            parser.raise_error(f"expected a vector type, got {t}")
        operands = parser.resolve_operands([v1, v2], [t, t], parser.pos)
        scalable = bool(t.get_num_scalable_dims())
        result_t = VectorType(
            t.element_type, [len(mask)], ArrayAttr([BoolAttr.from_bool(scalable)])
        )
        op = cls(
            operands[0],
            operands[1],
            DenseArrayBase.from_list(i32, mask),
            result_t,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.v1)
        printer.print_string(", ")
        printer.print_operand(self.v2)
        printer.print_string(
            " [" + ", ".join(str(int(m)) for m in self.mask.get_values()) + "]"
        )
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.v1.type)


VECTOR_LLVM_OPS: list[type[IRDLOperation]] = [
    MaskedGatherOp,
    MaskedScatterOp,
    MaskedExpandLoadOp,
    MaskedCompressStoreOp,
    MaskedLoadOp,
    MaskedStoreOp,
    VectorReduceAddOp,
    VectorReduceMulOp,
    VectorReduceAndOp,
    VectorReduceOrOp,
    VectorReduceXorOp,
    VectorReduceSMaxOp,
    VectorReduceSMinOp,
    VectorReduceUMaxOp,
    VectorReduceUMinOp,
    VectorReduceFMaxOp,
    VectorReduceFMinOp,
    VectorReduceFMaximumOp,
    VectorReduceFMinimumOp,
    VScaleOp,
    StepVectorOp,
    ShuffleVectorOp,
]
"""The ops this module adds to the ``llvm`` dialect."""
