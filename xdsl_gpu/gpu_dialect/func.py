"""The ``func`` dialect of MLIR 22 for runs that use xdsl-gpu: xDSL's ``func.func``,
``func.call`` and ``func.return`` with the two ops xDSL lacks, in upstream's syntax::

    %f = func.constant @hello : (f32) -> ()
    %r = func.call_indirect %f(%x) : (f32) -> ()

``convert-func-to-llvm`` lowers them to ``llvm.mlir.addressof`` and an indirect
``llvm.call`` (``xdsl_gpu/passes/convert_func_to_llvm.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func as xdsl_func
from xdsl.dialects.builtin import FunctionType, SymbolRefAttr
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure, SymbolTable, SymbolUserOpInterface
from xdsl.utils.exceptions import VerifyException


class _ConstantSymbolUse(SymbolUserOpInterface):
    """The referenced ``func.func`` exists and has the result's type."""

    def verify(self, op: Operation) -> None:
        assert isinstance(op, ConstantOp)
        name = op.value.string_value()
        callee = SymbolTable.lookup_symbol(op, op.value)
        if not isinstance(callee, xdsl_func.FuncOp):
            raise VerifyException(
                f"'{op.name}' op reference to undefined function '{name}'"
            )
        if callee.function_type != op.result.type:
            raise VerifyException(
                f"'{op.name}' op reference to function with mismatched type"
            )


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """``func.constant``: a function symbol as an SSA value of function type."""

    name = "func.constant"

    value = prop_def(SymbolRefAttr)
    result = result_def(FunctionType)

    traits = traits_def(ConstantLike(), Pure(), _ConstantSymbolUse())

    def __init__(self, callee: str | SymbolRefAttr, type: FunctionType) -> None:
        if isinstance(callee, str):
            callee = SymbolRefAttr(callee)
        super().__init__(properties={"value": callee}, result_types=[type])

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        # attr-dict $value `:` type(results)
        attributes = parser.parse_optional_attr_dict()
        callee = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        type = parser.parse_type()
        if not isinstance(type, FunctionType):
            parser.raise_error(f"expected a function type, got '{type}'")
        op = cls(SymbolRefAttr(callee), type)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_attribute(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class CallIndirectOp(IRDLOperation):
    """``func.call_indirect``: a call through a value of function type."""

    name = "func.call_indirect"

    callee = operand_def(FunctionType)
    callee_operands = var_operand_def()
    results_ = var_result_def()

    def __init__(
        self,
        callee: SSAValue,
        arguments: Sequence[SSAValue],
        attributes: dict[str, Attribute] | None = None,
    ) -> None:
        assert isinstance(callee.type, FunctionType)
        super().__init__(
            operands=[callee, arguments],
            result_types=[callee.type.outputs.data],
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> CallIndirectOp:
        # $callee `(` $callee_operands `)` attr-dict `:` type($callee)
        callee = parser.parse_unresolved_operand()
        arguments: list[UnresolvedOperand] = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parser.pos
        type = parser.parse_type()
        if not isinstance(type, FunctionType):
            parser.raise_error(f"expected a function type, got '{type}'", at)
        if len(arguments) != len(type.inputs):
            parser.raise_error(
                "number of operands and types do not match: got "
                f"{len(arguments)} operands and {len(type.inputs)} types",
                at,
            )
        return cls(
            parser.resolve_operand(callee, type),
            [parser.resolve_operand(a, t) for a, t in zip(arguments, type.inputs)],
            attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.callee)
        printer.print_string("(")
        printer.print_list(self.callee_operands, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.callee.type)

    def verify_(self) -> None:
        type = self.callee.type
        assert isinstance(type, FunctionType)
        if list(type.inputs) != [a.type for a in self.callee_operands]:
            raise VerifyException(
                f"'{self.name}' op failed to verify that callee input types match "
                "argument types"
            )
        if list(type.outputs) != [r.type for r in self.results]:
            raise VerifyException(
                f"'{self.name}' op failed to verify that callee result types match "
                "result types"
            )


FUNC = Dialect(
    "func",
    [*xdsl_func.Func.operations, ConstantOp, CallIndirectOp],
    list(xdsl_func.Func.attributes),
)
"""xDSL's ``func`` dialect with ``func.constant`` and ``func.call_indirect``."""
