"""The ``llvm.intr.vector.reduce.*`` ops that xDSL's ``llvm`` dialect lacks (it has
``fadd`` and ``fmul``), as upstream MLIR 22 defines and prints them::

    %s = "llvm.intr.vector.reduce.add"(%v) : (vector<4xi32>) -> i32
    %m = llvm.intr.vector.reduce.fmax(%v) : (vector<4xf32>) -> f32

They join the ``llvm`` dialect through its op list (``xdsl_gpu/gpu_dialect/llvm.py``).
"""

from __future__ import annotations

from abc import ABC
from typing import cast

from xdsl.dialects import llvm as _xllvm
from xdsl.dialects.builtin import (
    I1,
    I32,
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    UnitAttr,
    VectorType,
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
]
"""The ops this module adds to the ``llvm`` dialect."""
