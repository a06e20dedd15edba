"""MLIR's builtin ``distinct[N]<attr>``: an attribute that is equal only to itself,
however many others reference the same ``attr`` (the ``id`` of a debug-info compile
unit or subprogram).

``N`` only ties the uses of one distinct attribute together in the text: every
``distinct[0]<>`` of one parsed input is the same attribute, and the printer numbers
the distinct attributes 0, 1, ... in the order it prints them, as MLIR's does. Here
each one carries a process-wide ``identity`` that keeps two of them apart.

xDSL has no such attribute: :func:`parse_optional_distinct` is what the parser calls
on the keyword ``distinct`` (:func:`xdsl_gpu.compat.distinct_attributes`).
"""

from __future__ import annotations

import itertools
from typing import Any

from xdsl.dialects.builtin import IntAttr, UnitAttr
from xdsl.ir import Attribute, BuiltinAttribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.printer import Printer

_IDENTITIES = itertools.count()

_PARSED = "_xdsl_gpu_distinct_ids"
"""Per parser: the ``N`` of the text to its attribute."""
_PRINTED = "_xdsl_gpu_distinct_numbers"
"""Per printer: an attribute's identity to the ``N`` it is printed with."""


@irdl_attr_definition
class DistinctAttr(ParametrizedAttribute, BuiltinAttribute):
    """``distinct[N]<referenced>`` (``<>`` for a unit ``referenced``)."""

    name = "builtin.distinct"

    identity: IntAttr
    referenced: Attribute

    @staticmethod
    def new(referenced: Attribute | None = None) -> DistinctAttr:
        """A distinct attribute unlike every other one."""
        return DistinctAttr(
            IntAttr(next(_IDENTITIES)),
            UnitAttr() if referenced is None else referenced,
        )

    def print_builtin(self, printer: Printer) -> None:
        numbers: dict[int, int] = printer.__dict__.setdefault(_PRINTED, {})
        number = numbers.setdefault(self.identity.data, len(numbers))
        printer.print_string(f"distinct[{number}]<")
        if not isinstance(self.referenced, UnitAttr):
            printer.print_attribute(self.referenced)
        printer.print_string(">")


def parse_optional_distinct(parser: Any) -> DistinctAttr | None:
    """``distinct[N]<attr?>`` at the parser's position, or None if the next token
    is not ``distinct``. The same ``N`` in one input is the same attribute."""
    if parser.parse_optional_keyword("distinct") is None:
        return None
    parser.parse_punctuation("[")
    number = parser.parse_integer(allow_negative=False, allow_boolean=False)
    parser.parse_punctuation("]")
    parser.parse_punctuation("<")
    referenced: Attribute = UnitAttr()
    if parser.parse_optional_punctuation(">") is None:
        referenced = parser.parse_attribute()
        parser.parse_punctuation(">")
    seen: dict[int, DistinctAttr] = parser.__dict__.setdefault(_PARSED, {})
    if number not in seen:
        seen[number] = DistinctAttr.new(referenced)
    return seen[number]


__all__ = ["DistinctAttr", "parse_optional_distinct"]
