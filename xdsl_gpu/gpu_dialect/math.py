"""The ``math`` dialect: xDSL's, with the MLIR 22 ops that xDSL lacks.

Added here: ``math.erfc``, ``math.isnan``, ``math.isinf``, ``math.isfinite``,
``math.isnormal``, ``math.sincos`` and ``math.clampf``, with upstream's syntax::

    %e = math.erfc %x : f32
    %b = math.isnan %x fastmath<fast> : f32
    %s, %c = math.sincos %x : f32
    %y = math.clampf %x to [%lo, %hi] fastmath<fast> : f32
"""

from __future__ import annotations

import abc
from typing import ClassVar, Self

from xdsl.dialects import math as xmath
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import I1, IntegerType, VectorType, i1
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

floatingPointLike = xmath.floatingPointLike


@irdl_op_definition
class ErfcOp(xmath.FloatingPointLikeUnaryMathOperation):
    """``math.erfc``: the complementary error function, ``1 - erf(x)``."""

    name = "math.erfc"


class FloatClassificationOp(IRDLOperation, abc.ABC):
    """``%b = math.isnan %x : f32``: an ``i1`` (or vector of ``i1``) per element."""

    operand = operand_def(floatingPointLike)
    result = result_def(I1 | VectorType[I1])
    fastmath = prop_def(FastMathFlagsAttr, default_value=FastMathFlagsAttr("none"))

    traits = traits_def(Pure())

    def __init__(
        self, operand: SSAValue | Operation, fastmath: FastMathFlagsAttr | None = None
    ):
        operand = SSAValue.get(operand)
        result: Attribute = i1
        if isinstance(operand.type, VectorType):
            result = VectorType(IntegerType(1), operand.type.get_shape())
        super().__init__(
            operands=[operand], result_types=[result], properties={"fastmath": fastmath}
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operand = parser.parse_unresolved_operand()
        fastmath = None
        if parser.parse_optional_keyword("fastmath") is not None:
            fastmath = FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(parser.resolve_operand(operand, parser.parse_type()), fastmath)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        if self.fastmath != FastMathFlagsAttr("none"):
            printer.print_string(" fastmath")
            self.fastmath.print_parameter(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)


@irdl_op_definition
class IsNaNOp(FloatClassificationOp):
    name = "math.isnan"


@irdl_op_definition
class IsInfOp(FloatClassificationOp):
    name = "math.isinf"


@irdl_op_definition
class IsFiniteOp(FloatClassificationOp):
    name = "math.isfinite"


@irdl_op_definition
class IsNormalOp(FloatClassificationOp):
    name = "math.isnormal"


@irdl_op_definition
class SinCosOp(IRDLOperation):
    """``%s, %c = math.sincos %x : f32``"""

    name = "math.sincos"

    T: ClassVar = VarConstraint("T", floatingPointLike)

    operand = operand_def(T)
    sin = result_def(T)
    cos = result_def(T)
    fastmath = prop_def(FastMathFlagsAttr, default_value=FastMathFlagsAttr("none"))

    traits = traits_def(Pure())

    assembly_format = (
        "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($operand)"
    )

    def __init__(
        self, operand: SSAValue | Operation, fastmath: FastMathFlagsAttr | None = None
    ):
        operand = SSAValue.get(operand)
        super().__init__(
            operands=[operand],
            result_types=[operand.type, operand.type],
            properties={"fastmath": fastmath},
        )


@irdl_op_definition
class ClampFOp(IRDLOperation):
    """``%y = math.clampf %x to [%lo, %hi] : f32``: ``%x`` clamped to
    ``[%lo, %hi]``. Like upstream, no LLVM lowering (``math-expand-ops`` expands it
    upstream); parsed, verified and printed so that IR holding it round-trips."""

    name = "math.clampf"

    T: ClassVar = VarConstraint("T", floatingPointLike)

    value = operand_def(T)
    min = operand_def(T)
    max = operand_def(T)
    result = result_def(T)
    fastmath = prop_def(FastMathFlagsAttr, default_value=FastMathFlagsAttr("none"))

    traits = traits_def(Pure())

    assembly_format = (
        "$value `to` ` ` `[` $min `,` $max `]` (`fastmath` `` $fastmath^)? "
        "attr-dict `:` type($result)"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        lo: SSAValue | Operation,
        hi: SSAValue | Operation,
        fastmath: FastMathFlagsAttr | None = None,
    ):
        value = SSAValue.get(value)
        super().__init__(
            operands=[value, lo, hi],
            result_types=[value.type],
            properties={"fastmath": fastmath},
        )


MATH = Dialect(
    "math",
    [
        *xmath.Math.operations,
        ErfcOp,
        IsFiniteOp,
        IsInfOp,
        IsNaNOp,
        IsNormalOp,
        SinCosOp,
        ClampFOp,
    ],
    list(xmath.Math.attributes),
)
