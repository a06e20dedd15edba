"""The attributes of the ``vector`` dialect: ``#vector.kind`` (xDSL's),
``#vector.iterator_type`` and ``#vector.punctuation``, and the syntax helpers the ops
share (dense ``i64`` arrays written ``[1, 0]``, types quoted as upstream quotes them)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


class IteratorType(StrEnum):
    PARALLEL = "parallel"
    REDUCTION = "reduction"


@irdl_attr_definition
class IteratorTypeAttr(EnumAttribute[IteratorType]):
    """``#vector.iterator_type<parallel>``: the kind of a ``vector.contract`` loop."""

    name = "vector.iterator_type"

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> IteratorType:
        with parser.in_angle_brackets():
            return IteratorType(parser.parse_identifier())


class Punctuation(StrEnum):
    NO_PUNCTUATION = "no_punctuation"
    NEWLINE = "newline"
    COMMA = "comma"
    OPEN = "open"
    CLOSE = "close"


@irdl_attr_definition
class PrintPunctuationAttr(EnumAttribute[Punctuation]):
    """``#vector.punctuation<newline>``: what ``vector.print`` prints after its value."""

    name = "vector.punctuation"

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Punctuation:
        with parser.in_angle_brackets():
            return Punctuation(parser.parse_identifier())


def quoted(attr: Attribute) -> str:
    """A type as upstream's diagnostics quote it: ``'vector<4xf32>'``."""
    return f"'{attr}'"


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, values)


def parse_i64_list(parser: Parser) -> list[int]:
    """``[1, 0]``, as the custom syntax writes a dense ``i64`` array."""
    return parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, parser.parse_integer
    )


def print_i64_list(printer: Printer, values: Sequence[int]) -> None:
    printer.print_string("[" + ", ".join(str(v) for v in values) + "]")


def int_array(attr: Attribute) -> list[int] | None:
    """The integers of an ``[0, 1] : i64``-style array attribute, or ``None``."""
    if not isinstance(attr, ArrayAttr):
        return None
    out: list[int] = []
    for a in attr.data:
        if not isinstance(a, IntegerAttr):
            return None
        out.append(a.value.data)
    return out


def print_attr_dict(printer: Printer, attrs: dict[str, Attribute]) -> None:
    """`` {name = value, ...}`` as MLIR prints it: arrays of ``i64`` integers without
    their type (``[0, 1]``)."""
    if not attrs:
        return
    printer.print_string(" {")
    for i, (name, attr) in enumerate(attrs.items()):
        if i:
            printer.print_string(", ")
        printer.print_string(f"{name} = ")
        values = int_array(attr)
        if values is not None and all(
            isinstance(a, IntegerAttr) and a.type == i64
            for a in attr.data  # pyright: ignore[reportAttributeAccessIssue,reportUnknownMemberType,reportUnknownVariableType]
        ):
            print_i64_list(printer, values)
        else:
            printer.print_attribute(attr)
    printer.print_string("}")


def i64_array_attr(values: Sequence[int]) -> ArrayAttr[IntegerAttr]:
    return ArrayAttr(IntegerAttr(v, i64) for v in values)


__all__ = [
    "CombiningKindAttr",
    "CombiningKindFlag",
    "IteratorType",
    "IteratorTypeAttr",
    "PrintPunctuationAttr",
    "Punctuation",
]
