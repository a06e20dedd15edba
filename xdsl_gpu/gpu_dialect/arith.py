"""The ``arith`` dialect: xDSL's, with what MLIR 22 has and xDSL lacks.

Added or replaced here (everything else is xDSL's own class):

* ``arith.remf`` (xDSL has no floating-point remainder);
* ``arith.index_castui`` (the zero-extending ``index_cast``);
* ``arith.extf`` with its optional ``fastmath`` flags;
* ``arith.truncf`` with its optional rounding mode and ``fastmath`` flags
  (``arith.truncf %x to_nearest_even fastmath<fast> : f64 to f32``);
* the casts ``extsi extui trunci sitofp uitofp fptosi fptoui index_cast
  index_castui`` on vectors and tensors, as upstream (xDSL's take scalars only),
  verified like upstream (same shape, wider/narrower element);
* ``arith.cmpi``/``arith.cmpf`` on vectors and tensors with an ``i1`` vector
  (tensor) result of the same shape (xDSL's result is always ``i1``);
* ``arith.select`` with a vector (or tensor) condition of the operands' shape
  (``arith.select %c, %a, %b : vector<4xi1>, vector<4xi32>``).

The cast and select classes subclass xDSL's, so ``isinstance(op, xarith.ExtSIOp)``
and every pattern written against xDSL's classes still match what is parsed.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith as xarith
from xdsl.dialects.arith import FastMathFlagsAttr, FloatingPointLikeBinaryOperation
from xdsl.dialects.builtin import (
    I32,
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    VectorType,
    i1,
    i32,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.xdsl_format import RESET_FORMAT

floatingPointLike = xarith.floatingPointLike
integerLike = xarith.container_of(IntegerType)  # pyright: ignore[reportPrivateImportUsage]
integerOrIndexLike = xarith.signlessIntegerLike


def _shape(t: Attribute) -> tuple[type, tuple[int, ...], tuple[bool, ...]] | None:
    """(kind, shape, scalable dims) of a vector or tensor; None for a scalar."""
    if isinstance(t, VectorType):
        return (VectorType, tuple(t.get_shape()), tuple(t.get_scalable_dims()))
    if isinstance(t, TensorType):
        return (TensorType, tuple(t.get_shape()), ())
    return None


def _element(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, VectorType | TensorType) else t


class _CastVerifier(IRDLOperation):
    """Upstream's checks of a cast: the same shape in and out, then element types
    that the op can cast (``_compatible``)."""

    def verify_(self) -> None:
        in_type, out_type = self.operands[0].type, self.results[0].type
        if _shape(in_type) != _shape(out_type):
            raise VerifyException(
                f"'{self.name}' op requires the same shape for all operands and results"
            )
        if not self._compatible(_element(in_type), _element(out_type)):
            raise VerifyException(
                f"'{self.name}' op operand type '{in_type}' and result type "
                f"'{out_type}' are cast incompatible"
            )

    def _compatible(self, a: Attribute, b: Attribute) -> bool:
        raise NotImplementedError

    # xDSL's cast classes print scalars only; these take their syntax from the
    # assembly format instead (one place for every cast below).
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]


def _width(t: Attribute) -> int:
    return t.width.data if isinstance(t, IntegerType) else -1


@irdl_op_definition
class ExtSIOp(_CastVerifier, xarith.ExtSIOp):
    """``arith.extsi`` on integers or vectors/tensors of integers."""

    input = operand_def(integerLike)
    result = result_def(integerLike)

    def _compatible(self, a: Attribute, b: Attribute) -> bool:
        return _width(b) > _width(a)


@irdl_op_definition
class ExtUIOp(_CastVerifier, xarith.ExtUIOp):
    """``arith.extui`` on integers or vectors/tensors of integers."""

    input = operand_def(integerLike)
    result = result_def(integerLike)

    def _compatible(self, a: Attribute, b: Attribute) -> bool:
        return _width(b) > _width(a)


@irdl_op_definition
class TruncIOp(_CastVerifier, xarith.TruncIOp):
    """``arith.trunci`` on integers or vectors/tensors of integers."""

    input = operand_def(integerLike)
    result = result_def(integerLike)

    def _compatible(self, a: Attribute, b: Attribute) -> bool:
        return _width(b) < _width(a)


class _IntToFloat(_CastVerifier):
    def _compatible(self, a: Attribute, b: Attribute) -> bool:
        return isinstance(a, IntegerType) and isinstance(b, AnyFloat)


class _FloatToInt(_CastVerifier):
    def _compatible(self, a: Attribute, b: Attribute) -> bool:
        return isinstance(a, AnyFloat) and isinstance(b, IntegerType)


@irdl_op_definition
class SIToFPOp(_IntToFloat, xarith.SIToFPOp):
    """``arith.sitofp`` on scalars, vectors and tensors."""

    input = operand_def(integerLike)
    result = result_def(floatingPointLike)


@irdl_op_definition
class UIToFPOp(_IntToFloat, xarith.UIToFPOp):
    """``arith.uitofp`` on scalars, vectors and tensors."""

    input = operand_def(integerLike)
    result = result_def(floatingPointLike)


@irdl_op_definition
class FPToSIOp(_FloatToInt, xarith.FPToSIOp):
    """``arith.fptosi`` on scalars, vectors and tensors."""

    input = operand_def(floatingPointLike)
    result = result_def(integerLike)


@irdl_op_definition
class FPToUIOp(_FloatToInt, xarith.FPToUIOp):
    """``arith.fptoui`` on scalars, vectors and tensors."""

    input = operand_def(floatingPointLike)
    result = result_def(integerLike)


class _IndexCast(_CastVerifier):
    def _compatible(self, a: Attribute, b: Attribute) -> bool:
        return isinstance(a, IndexType) != isinstance(b, IndexType)


@irdl_op_definition
class IndexCastOp(_IndexCast, xarith.IndexCastOp):
    """``arith.index_cast`` on scalars, vectors and tensors (sign-extends)."""

    input = operand_def(integerOrIndexLike)
    result = result_def(integerOrIndexLike)


def _bool_like(t: Attribute) -> Attribute:
    """``i1`` shaped like ``t``: ``i1``, ``vector<4x[2]xi1>``, ``tensor<?xi1>``."""
    if isinstance(t, VectorType):
        return VectorType(i1, t.get_shape(), t.scalable_dims)
    if isinstance(t, TensorType):
        return TensorType(i1, t.get_shape())
    return i1


@irdl_op_definition
class CmpiOp(xarith.CmpiOp):
    """``arith.cmpi``: on vectors and tensors the result is a vector (tensor) of
    ``i1`` of the operands' shape, as upstream (xDSL's result is always ``i1``)."""

    predicate = prop_def(IntegerAttr)
    lhs = operand_def(integerOrIndexLike)
    rhs = operand_def(integerOrIndexLike)
    result = result_def(xarith.container_of(IntegerType(1)))  # pyright: ignore[reportPrivateImportUsage]

    def __init__(
        self,
        operand1: Operation | SSAValue,
        operand2: Operation | SSAValue,
        arg: int | str,
    ):
        operand1 = SSAValue.get(operand1)
        if isinstance(arg, str):
            arg = list(xarith.CMPI_COMPARISON_OPERATIONS).index(arg)
        IRDLOperation.__init__(
            self,
            operands=[operand1, operand2],
            result_types=[_bool_like(operand1.type)],
            properties={"predicate": IntegerAttr(arg, 64)},
        )

    def verify_(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise VerifyException(
                "'arith.cmpi' op requires all operands to have the same type"
            )
        if self.result.type != _bool_like(self.lhs.type):
            raise VerifyException(
                f"'arith.cmpi' op result type {self.result.type} does not match the "
                f"operand type {self.lhs.type} (expected {_bool_like(self.lhs.type)})"
            )


@irdl_op_definition
class CmpfOp(xarith.CmpfOp):
    """``arith.cmpf``: on vectors and tensors the result is a vector (tensor) of
    ``i1`` of the operands' shape, as upstream (xDSL's result is always ``i1``)."""

    predicate = prop_def(IntegerAttr)
    lhs = operand_def(floatingPointLike)
    rhs = operand_def(floatingPointLike)
    fastmath = prop_def(FastMathFlagsAttr, default_value=FastMathFlagsAttr("none"))
    result = result_def(xarith.container_of(IntegerType(1)))  # pyright: ignore[reportPrivateImportUsage]

    def __init__(
        self,
        operand1: SSAValue | Operation,
        operand2: SSAValue | Operation,
        arg: int | str,
        fastmath: FastMathFlagsAttr = FastMathFlagsAttr("none"),
    ):
        operand1 = SSAValue.get(operand1)
        if isinstance(arg, str):
            arg = list(xarith.CMPF_COMPARISON_OPERATIONS).index(arg)
        IRDLOperation.__init__(
            self,
            operands=[operand1, operand2],
            result_types=[_bool_like(operand1.type)],
            properties={"predicate": IntegerAttr(arg, 64), "fastmath": fastmath},
        )

    def verify_(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise VerifyException(
                "'arith.cmpf' op requires all operands to have the same type"
            )
        if self.result.type != _bool_like(self.lhs.type):
            raise VerifyException(
                f"'arith.cmpf' op result type {self.result.type} does not match the "
                f"operand type {self.lhs.type} (expected {_bool_like(self.lhs.type)})"
            )


@irdl_op_definition
class SelectOp(xarith.SelectOp):
    """``arith.select %c, %a, %b : T`` with an ``i1`` condition, or
    ``arith.select %c, %a, %b : vector<4xi1>, vector<4xi32>`` with a condition of
    the operands' shape (upstream prints the condition type only when it is not
    ``i1``)."""

    _T: ClassVar = VarConstraint("_T", AnyAttr())
    cond = operand_def(xarith.container_of(IntegerType(1)))  # pyright: ignore[reportPrivateImportUsage]
    lhs = operand_def(_T)
    rhs = operand_def(_T)
    result = result_def(_T)

    assembly_format = None

    def verify_(self) -> None:
        cond = self.cond.type
        if cond == i1:
            return
        shape = _shape(cond)
        if shape is None or shape != _shape(self.result.type):
            raise VerifyException(
                "'arith.select' op failed to verify that condition is signless i1 or "
                "has matching shape"
            )

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        if len(operands) != 3:
            parser.raise_error("'arith.select' takes three operands")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_type
        )
        if len(types) > 2:
            parser.raise_error("expected the condition type and the result type")
        cond_type: Attribute = i1 if len(types) == 1 else types[0]
        value_type = types[-1]
        op = cls(
            parser.resolve_operand(operands[0], cond_type),
            parser.resolve_operand(operands[1], value_type),
            parser.resolve_operand(operands[2], value_type),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if self.cond.type != i1:
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    """``%r = arith.remf %a, %b : f32``: the remainder of a division (C ``fmod``)."""

    name = "arith.remf"


@irdl_op_definition
class IndexCastUIOp(_IndexCast, IRDLOperation):
    """``arith.index_castui``: like ``index_cast``, but zero-extends."""

    name = "arith.index_castui"

    input = operand_def(integerOrIndexLike)
    result = result_def(integerOrIndexLike)

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, input_arg: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[input_arg], result_types=[target_type])


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


_NEW_CLASSES: tuple[type[IRDLOperation], ...] = (
    ExtFOp,
    TruncFOp,
    ExtSIOp,
    ExtUIOp,
    TruncIOp,
    SIToFPOp,
    UIToFPOp,
    FPToSIOp,
    FPToUIOp,
    IndexCastOp,
    SelectOp,
    CmpiOp,
    CmpfOp,
)
_REPLACED = {op.name for op in _NEW_CLASSES}

ARITH = Dialect(
    "arith",
    [
        *(op for op in xarith.Arith.operations if op.name not in _REPLACED),
        *_NEW_CLASSES,
        IndexCastUIOp,
        RemFOp,
    ],
    list(xarith.Arith.attributes),
    list(xarith.Arith._interfaces),  # pyright: ignore[reportPrivateUsage]
)
