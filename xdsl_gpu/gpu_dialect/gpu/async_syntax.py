"""``custom<AsyncDependencies>``: the ``async [%t0, %t1]`` prefix of async gpu ops.

Upstream grammar: ``(`async`)? (`[` ssa-use-list `]`)?``. The ``async`` keyword says
that the op returns a ``!gpu.async.token``; the bracketed list holds the tokens it
waits for (printed only when non-empty).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from xdsl_gpu.compat.locations import bound_result_count
from xdsl_gpu.gpu_dialect.gpu.types import AsyncTokenType


def parse_async_dependencies(parser: Parser) -> tuple[bool, list[UnresolvedOperand]]:
    """Parse ``async? ([deps])?``; return (has a token result, dependencies)."""
    is_async = parser.parse_optional_keyword("async") is not None
    deps: list[UnresolvedOperand] = []
    if parser.parse_optional_punctuation("[") is not None:
        if parser.parse_optional_punctuation("]") is None:
            deps = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation("]")
    return is_async, deps


def print_async_dependencies(
    printer: Printer, is_async: bool, deps: Sequence[SSAValue]
) -> bool:
    """Print ``async? ([deps])?`` (no leading space); return whether anything was
    printed."""
    printed = False
    if is_async:
        printer.print_string("async")
        printed = True
    if deps:
        if printed:
            printer.print_string(" ")
        printer.print_string("[")
        printer.print_list(deps, printer.print_operand)
        printer.print_string("]")
        printed = True
    return printed


@irdl_custom_directive
class AsyncDependencies(CustomDirective):
    """``custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)``."""

    token_type: TypeDirective
    dependencies: VariadicOperandVariable

    def is_present(self, op: IRDLOperation) -> bool:
        return bool(self.token_type.get(op)) or bool(self.dependencies.get(op))

    def is_anchorable(self) -> bool:
        return True

    def set_empty(self, state: ParsingState) -> None:
        self.token_type.set(state, ())
        self.dependencies.set(state, ())
        self.dependencies.set_types(state, ())

    def parse(self, parser: Parser, state: ParsingState) -> None:
        start = parser.pos
        is_async, deps = parse_async_dependencies(parser)
        if is_async and bound_result_count(parser) == 0:
            # The token must have a name to be used (upstream's parser checks it).
            parser.raise_error(
                f"custom op '{state.op_type.name}' needs to be named when marked "
                "'async'",
                start,
                start + len("async"),
            )
        self.token_type.set(state, (AsyncTokenType(),) if is_async else ())
        self.dependencies.set(state, deps)
        self.dependencies.set_types(state, (AsyncTokenType(),) * len(deps))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        if not self.is_present(op):
            return
        state.print_whitespace(printer)
        print_async_dependencies(
            printer, bool(self.token_type.get(op)), self.dependencies.get(op)
        )
