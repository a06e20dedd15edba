"""The ``index`` dialect (upstream ``IndexOps.td``), which xDSL does not have.

Every op and its custom syntax as in MLIR 22::

    %0 = index.add %a, %b
    %1 = index.constant 42
    %2 = index.bool.constant true
    %3 = index.cmp slt(%a, %b)
    %4 = index.sizeof
    %5 = index.casts %i : i32 to index

``convert-index-to-llvm`` (xdsl_gpu/passes/convert_index_to_llvm.py) lowers it.
"""

from __future__ import annotations

import abc

from xdsl.dialects.builtin import (
    I1,
    BoolAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    i1,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Dialect, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum


class IndexCmpPredicate(StrEnum):
    EQ = "eq"
    NE = "ne"
    SLT = "slt"
    SLE = "sle"
    SGT = "sgt"
    SGE = "sge"
    ULT = "ult"
    ULE = "ule"
    UGT = "ugt"
    UGE = "uge"


@irdl_attr_definition
class IndexCmpPredicateAttr(
    EnumAttribute[IndexCmpPredicate], SpacedOpaqueSyntaxAttribute
):
    """``#index<cmp_predicate slt>``; bare (``slt``) inside ``index.cmp``."""

    name = "index.cmp_predicate"


class IndexBinaryOp(IRDLOperation, abc.ABC):
    """``%r = index.<op> %lhs, %rhs``: both operands and the result are ``index``."""

    lhs = operand_def(IndexType)
    rhs = operand_def(IndexType)
    result = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = "$lhs `,` $rhs attr-dict"

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        super().__init__(operands=[lhs, rhs], result_types=[IndexType()])


@irdl_op_definition
class AddOp(IndexBinaryOp):
    name = "index.add"


@irdl_op_definition
class SubOp(IndexBinaryOp):
    name = "index.sub"


@irdl_op_definition
class MulOp(IndexBinaryOp):
    name = "index.mul"


@irdl_op_definition
class DivSOp(IndexBinaryOp):
    name = "index.divs"


@irdl_op_definition
class DivUOp(IndexBinaryOp):
    name = "index.divu"


@irdl_op_definition
class CeilDivSOp(IndexBinaryOp):
    name = "index.ceildivs"


@irdl_op_definition
class CeilDivUOp(IndexBinaryOp):
    name = "index.ceildivu"


@irdl_op_definition
class FloorDivSOp(IndexBinaryOp):
    name = "index.floordivs"


@irdl_op_definition
class RemSOp(IndexBinaryOp):
    name = "index.rems"


@irdl_op_definition
class RemUOp(IndexBinaryOp):
    name = "index.remu"


@irdl_op_definition
class MaxSOp(IndexBinaryOp):
    name = "index.maxs"


@irdl_op_definition
class MaxUOp(IndexBinaryOp):
    name = "index.maxu"


@irdl_op_definition
class MinSOp(IndexBinaryOp):
    name = "index.mins"


@irdl_op_definition
class MinUOp(IndexBinaryOp):
    name = "index.minu"


@irdl_op_definition
class ShlOp(IndexBinaryOp):
    name = "index.shl"


@irdl_op_definition
class ShrSOp(IndexBinaryOp):
    name = "index.shrs"


@irdl_op_definition
class ShrUOp(IndexBinaryOp):
    name = "index.shru"


@irdl_op_definition
class AndOp(IndexBinaryOp):
    name = "index.and"


@irdl_op_definition
class OrOp(IndexBinaryOp):
    name = "index.or"


@irdl_op_definition
class XOrOp(IndexBinaryOp):
    name = "index.xor"


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """``%c = index.constant 42``"""

    name = "index.constant"

    value = prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)

    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: int):
        super().__init__(
            properties={"value": IntegerAttr(value, IndexType())},
            result_types=[IndexType()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        value = parser.parse_integer(allow_boolean=False)
        attrs = parser.parse_optional_attr_dict()
        op = cls(value)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.value.value.data}")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class BoolConstantOp(IRDLOperation):
    """``%t = index.bool.constant true``"""

    name = "index.bool.constant"

    value = prop_def(IntegerAttr[I1])
    result = result_def(I1)

    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: bool):
        super().__init__(
            properties={"value": BoolAttr.from_bool(value)}, result_types=[i1]
        )

    @classmethod
    def parse(cls, parser: Parser) -> BoolConstantOp:
        value = parser.parse_boolean()
        attrs = parser.parse_optional_attr_dict()
        op = cls(value)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" true" if self.value.value.data else " false")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class CmpOp(IRDLOperation):
    """``%b = index.cmp slt(%lhs, %rhs)``"""

    name = "index.cmp"

    pred = prop_def(IndexCmpPredicateAttr)
    lhs = operand_def(IndexType)
    rhs = operand_def(IndexType)
    result = result_def(I1)

    traits = traits_def(Pure())

    assembly_format = "$pred `` `(` $lhs `,` $rhs `)` attr-dict"

    def __init__(
        self,
        pred: IndexCmpPredicate | str,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
    ):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[i1],
            properties={"pred": IndexCmpPredicateAttr(IndexCmpPredicate(pred))},
        )


@irdl_op_definition
class SizeOfOp(IRDLOperation):
    """``%n = index.sizeof``: the bit width of ``index`` on the target."""

    name = "index.sizeof"

    result = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[IndexType()])


class IndexCastOp(IRDLOperation, abc.ABC):
    """``index.casts``/``index.castu``: between ``index`` and an integer type."""

    input = operand_def(IntegerType | IndexType)
    output = result_def(IntegerType | IndexType)

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($input) `to` type($output)"

    def __init__(
        self, input: SSAValue | Operation, result_type: IntegerType | IndexType
    ):
        super().__init__(operands=[input], result_types=[result_type])

    def verify_(self) -> None:
        if isinstance(self.input.type, IndexType) == isinstance(
            self.output.type, IndexType
        ):
            raise VerifyException(
                f"'{self.name}' op casts between 'index' and an integer type; got "
                f"'{self.input.type}' to '{self.output.type}'"
            )


@irdl_op_definition
class CastSOp(IndexCastOp):
    name = "index.casts"


@irdl_op_definition
class CastUOp(IndexCastOp):
    name = "index.castu"


INDEX = Dialect(
    "index",
    [
        AddOp,
        AndOp,
        BoolConstantOp,
        CastSOp,
        CastUOp,
        CeilDivSOp,
        CeilDivUOp,
        CmpOp,
        ConstantOp,
        DivSOp,
        DivUOp,
        FloorDivSOp,
        MaxSOp,
        MaxUOp,
        MinSOp,
        MinUOp,
        MulOp,
        OrOp,
        RemSOp,
        RemUOp,
        ShlOp,
        ShrSOp,
        ShrUOp,
        SizeOfOp,
        SubOp,
        XOrOp,
    ],
    [IndexCmpPredicateAttr],
)
