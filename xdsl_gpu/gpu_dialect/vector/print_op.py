"""``vector.print``: a value, a string or only punctuation, as upstream writes it::

vector.print %v : vector<4xf32>
vector.print %x : f32 punctuation <no_punctuation>
vector.print str "hello\\n"
vector.print punctuation <comma>
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import irdl_op_definition, opt_operand_def, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.vector.attributes import PrintPunctuationAttr, Punctuation


@irdl_op_definition
class PrintOp(xvector.PrintOp):
    """``vector.print``: upstream's op, with its optional source, string literal and
    punctuation (``newline`` unless said otherwise)."""

    source = opt_operand_def()
    punctuation = prop_def(
        PrintPunctuationAttr, default_value=PrintPunctuationAttr(Punctuation.NEWLINE)
    )
    stringLiteral = opt_prop_def(StringAttr)
    assembly_format = None

    def __init__(
        self,
        source: SSAValue | Operation | None = None,
        punctuation: Punctuation = Punctuation.NEWLINE,
        string: str | None = None,
    ):
        props: dict[str, PrintPunctuationAttr | StringAttr] = {
            "punctuation": PrintPunctuationAttr(punctuation)
        }
        if string is not None:
            props["stringLiteral"] = StringAttr(string)
        super(xvector.PrintOp, self).__init__(
            operands=[[] if source is None else [source]], properties=props
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands: list[SSAValue] = []
        props: dict[str, PrintPunctuationAttr | StringAttr] = {}
        if (source := parser.parse_optional_unresolved_operand()) is not None:
            parser.parse_punctuation(":")
            operands.append(parser.resolve_operand(source, parser.parse_type()))
        while True:
            if parser.parse_optional_keyword("str") is not None:
                props["stringLiteral"] = StringAttr(parser.parse_str_literal())
            elif parser.parse_optional_keyword("punctuation") is not None:
                props["punctuation"] = PrintPunctuationAttr(
                    PrintPunctuationAttr.parse_parameter(parser)
                )
            else:
                break
        attrs = parser.parse_optional_attr_dict()
        return cls.create(operands=operands, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.source is not None:
            printer.print_string(" ")
            printer.print_operand(self.source)
            printer.print_string(" : ")
            printer.print_attribute(self.source.type)
        if self.stringLiteral is not None:
            printer.print_string(" str ")
            printer.print_attribute(self.stringLiteral)
        if self.punctuation.data != Punctuation.NEWLINE:
            printer.print_string(f" punctuation <{self.punctuation.data.value}>")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.stringLiteral is not None and (
            self.source is not None or self.punctuation.data != Punctuation.NEWLINE
        ):
            raise VerifyException(
                "failed to verify that `source` or `punctuation` are not set when "
                "printing strings"
            )


__all__ = ["PrintOp"]
