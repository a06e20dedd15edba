"""The ops of ``mlir-opt``'s test dialect that upstream's integer range tests use.

* ``test.with_bounds {umin = .., umax = .., smin = .., smax = ..} : T``: a value of
  which nothing is known but those four bounds (each a ``T``-typed integer).
* ``test.reflect_bounds %v : T``: ``%v`` again; ``-int-range-optimizations`` writes
  the range it inferred for ``%v`` on it as ``umin``/``umax``/``smin``/``smax``
  (``ui``/``si`` typed for an integer, ``index`` for an index), so a test can check
  what the analysis found.

They are ops of xdsl-gpu's ``test`` dialect (``xdsl_gpu/gpu_dialect/test.py``), as
``mlir-opt`` has them in its own.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    VectorType,
)
from xdsl.ir import Attribute, SSAValue
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

_EXPECTED = "integer or index or vector of integer or index values"


def _int_or_index_like(type: Attribute) -> bool:
    if isinstance(type, VectorType):
        type = type.element_type
    return isinstance(type, IntegerType | IndexType)


def _check_type(op: IRDLOperation, what: str, type: Attribute) -> None:
    """MLIR's type constraint message for an operand or result."""
    if not _int_or_index_like(type):
        raise VerifyException(
            f"'{op.name}' op {what} must be {_EXPECTED}, but got '{type}'"
        )


BOUND_NAMES = ("smax", "smin", "umax", "umin")
"""The four bounds, in the order MLIR prints them (sorted by name)."""


@irdl_op_definition
class WithBoundsOp(IRDLOperation):
    """``test.with_bounds``: an integer known only by the given bounds."""

    name = "test.with_bounds"

    # Required; checked in verify_ for MLIR's message and order.
    umin = opt_prop_def(IntegerAttr)
    umax = opt_prop_def(IntegerAttr)
    smin = opt_prop_def(IntegerAttr)
    smax = opt_prop_def(IntegerAttr)
    fakeVal = result_def()

    traits = traits_def(Pure())

    def verify_(self) -> None:
        for name in BOUND_NAMES:
            if name not in self.properties:
                raise VerifyException(f"'{self.name}' op requires attribute '{name}'")
        _check_type(self, "result #0", self.fakeVal.type)

    @classmethod
    def parse(cls, parser: Parser) -> WithBoundsOp:
        # attr-dict `:` type($fakeVal), the four bounds in the dictionary.
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type = parser.parse_type()
        properties = {n: attributes.pop(n) for n in BOUND_NAMES if n in attributes}
        return cls.create(
            result_types=[type], properties=properties, attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        # MLIR prints the dictionary sorted by name.
        merged = {**self.properties, **self.attributes}
        printer.print_op_attributes({k: merged[k] for k in sorted(merged)})
        printer.print_string(" : ")
        printer.print_attribute(self.fakeVal.type)

    def __init__(
        self, umin: int, umax: int, smin: int, smax: int, type: IntegerType | IndexType
    ):
        bounds = {"umin": umin, "umax": umax, "smin": smin, "smax": smax}
        props: dict[str, Attribute] = {
            name: IntegerAttr(bounds[name], type, truncate_bits=True)
            for name in BOUND_NAMES
        }
        super().__init__(result_types=[type], properties=props)

    def bounds(self) -> tuple[int, int, int, int] | None:
        """(umin, umax, smin, smax) as written (two's-complement bit patterns of the
        type), or None while one is missing."""
        values = [self.properties.get(n) for n in ("umin", "umax", "smin", "smax")]
        ints = [v.value.data for v in values if isinstance(v, IntegerAttr)]
        if len(ints) != 4:
            return None
        return ints[0], ints[1], ints[2], ints[3]


@irdl_op_definition
class ReflectBoundsOp(IRDLOperation):
    """``test.reflect_bounds``: its operand, with the operand's inferred range
    written on it by the integer range analysis."""

    name = "test.reflect_bounds"

    value = operand_def()
    umin = opt_prop_def(IntegerAttr)
    umax = opt_prop_def(IntegerAttr)
    smin = opt_prop_def(IntegerAttr)
    smax = opt_prop_def(IntegerAttr)
    result = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> ReflectBoundsOp:
        # attr-dict $value `:` type($result), the operand of the result's type.
        attributes = parser.parse_optional_attr_dict()
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        type = parser.parse_type()
        properties = {n: attributes.pop(n) for n in BOUND_NAMES if n in attributes}
        return cls.create(
            operands=[parser.resolve_operand(value, type)],
            result_types=[type],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        merged = {**self.properties, **self.attributes}
        printer.print_op_attributes({k: merged[k] for k in sorted(merged)})
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        _check_type(self, "operand #0", self.value.type)
        _check_type(self, "result #0", self.result.type)
        if self.value.type != self.result.type:
            raise VerifyException(
                f"'{self.name}' op failed to verify that all of {{value, result}} "
                "have same type"
            )

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value], result_types=[value.type])

    def reflect(self, umin: int, umax: int, smin: int, smax: int, width: int) -> None:
        """Write the range on the op: signed bounds as ``si``, unsigned ones as
        ``ui`` integers of the value's ``width``, or all four as ``index``."""
        type = self.value.type
        if isinstance(type, VectorType):
            type = type.element_type
        bounds = {"umin": umin, "umax": umax, "smin": smin, "smax": smax}
        for name in BOUND_NAMES:
            self.properties.pop(name, None)
        for name in BOUND_NAMES:
            if isinstance(type, IndexType):
                # index prints signed: the 64-bit two's-complement value.
                value = bounds[name] & ((1 << 64) - 1)
                value -= (1 << 64) if value >> 63 else 0
                attr = IntegerAttr(value, type)
            else:
                signed = name.startswith("s")
                signedness = Signedness.SIGNED if signed else Signedness.UNSIGNED
                attr = IntegerAttr(bounds[name], IntegerType(width, signedness))
            self.properties[name] = attr


OPERATIONS: list[type[IRDLOperation]] = [WithBoundsOp, ReflectBoundsOp]


__all__ = ["OPERATIONS", "ReflectBoundsOp", "WithBoundsOp"]
