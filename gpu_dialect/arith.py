"""The ``arith`` dialect: xDSL's, with what MLIR 22 has and xDSL lacks.

Added or replaced here (everything else is xDSL's own class):

* ``arith.remf`` (xDSL has no floating-point remainder);
* ``arith.index_castui`` (the zero-extending ``index_cast``);
* ``arith.extf`` with its optional ``fastmath`` flags;
* ``arith.truncf`` with its optional rounding mode and ``fastmath`` flags
  (``arith.truncf %x to_nearest_even fastmath<fast> : f64 to f32``).
"""

from __future__ import annotations

from xdsl.dialects import arith as xarith
from xdsl.dialects.arith import FastMathFlagsAttr, FloatingPointLikeBinaryOperation
from xdsl.dialects.builtin import (
    I32,
    IndexType,
    IntegerAttr,
    IntegerType,
    i32,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

floatingPointLike = xarith.floatingPointLike


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    """``%r = arith.remf %a, %b : f32``: the remainder of a division (C ``fmod``)."""

    name = "arith.remf"


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """``arith.index_castui``: like ``index_cast``, but zero-extends."""

    name = "arith.index_castui"

    input = operand_def(IntegerType | IndexType)
    result = result_def(IntegerType | IndexType)

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, input_arg: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[input_arg], result_types=[target_type])

    def verify_(self) -> None:
        if isinstance(self.input.type, IndexType) == isinstance(
            self.result.type, IndexType
        ):
            raise VerifyException(
                f"'arith.index_castui' op operand type '{self.input.type}' and "
                f"result type '{self.result.type}' are cast incompatible"
            )


@irdl_op_definition
class ExtFOp(IRDLOperation):
    """``%r = arith.extf %x fastmath<fast> : f16 to f32``"""

    name = "arith.extf"

    input = operand_def(floatingPointLike)
    result = result_def(floatingPointLike)
    fastmath = opt_prop_def(FastMathFlagsAttr)

    traits = traits_def(Pure())

    assembly_format = (
        "$input (`fastmath` `` $fastmath^)? attr-dict `:` type($input) `to` "
        "type($result)"
    )

    def __init__(
        self,
        op: SSAValue | Operation,
        target_type: Attribute,
        fastmath: FastMathFlagsAttr | None = None,
    ):
        super().__init__(
            operands=[op], result_types=[target_type], properties={"fastmath": fastmath}
        )


class RoundingMode(StrEnum):
    """``arith::RoundingMode``, numbered like upstream's I32 enum."""

    TO_NEAREST_EVEN = "to_nearest_even"
    DOWNWARD = "downward"
    UPWARD = "upward"
    TOWARD_ZERO = "toward_zero"
    TO_NEAREST_AWAY = "to_nearest_away"


ROUNDING_MODES = tuple(RoundingMode)


@irdl_op_definition
class TruncFOp(IRDLOperation):
    """``%r = arith.truncf %x to_nearest_even fastmath<fast> : f64 to f32``"""

    name = "arith.truncf"

    input = operand_def(floatingPointLike)
    result = result_def(floatingPointLike)
    roundingmode = opt_prop_def(IntegerAttr[I32])
    fastmath = opt_prop_def(FastMathFlagsAttr)

    traits = traits_def(Pure())

    def __init__(
        self,
        op: SSAValue | Operation,
        target_type: Attribute,
        roundingmode: RoundingMode | None = None,
        fastmath: FastMathFlagsAttr | None = None,
    ):
        mode = (
            None
            if roundingmode is None
            else IntegerAttr(ROUNDING_MODES.index(roundingmode), i32)
        )
        super().__init__(
            operands=[op],
            result_types=[target_type],
            properties={"roundingmode": mode, "fastmath": fastmath},
        )

    @property
    def rounding_mode(self) -> RoundingMode | None:
        if self.roundingmode is None:
            return None
        return ROUNDING_MODES[self.roundingmode.value.data]

    def verify_(self) -> None:
        if self.roundingmode is not None and not (
            0 <= self.roundingmode.value.data < len(ROUNDING_MODES)
        ):
            raise VerifyException(
                f"'arith.truncf' op roundingmode {self.roundingmode.value.data} is "
                f"not one of 0..{len(ROUNDING_MODES) - 1}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> TruncFOp:
        operand = parser.parse_unresolved_operand()
        mode = parser.parse_optional_keyword_in({m.value for m in RoundingMode})
        fastmath = None
        if parser.parse_optional_keyword("fastmath") is not None:
            fastmath = FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        in_type = parser.parse_type()
        parser.parse_keyword("to")
        out_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(operand, in_type),
            out_type,
            None if mode is None else RoundingMode(mode),
            fastmath,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        if (mode := self.rounding_mode) is not None:
            printer.print_string(f" {mode.value}")
        if self.fastmath is not None and self.fastmath != FastMathFlagsAttr("none"):
            printer.print_string(" fastmath")
            self.fastmath.print_parameter(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)


_REPLACED = {ExtFOp.name, TruncFOp.name}

ARITH = Dialect(
    "arith",
    [
        *(op for op in xarith.Arith.operations if op.name not in _REPLACED),
        ExtFOp,
        IndexCastUIOp,
        RemFOp,
        TruncFOp,
    ],
    list(xarith.Arith.attributes),
    list(xarith.Arith._interfaces),  # pyright: ignore[reportPrivateUsage]
)
