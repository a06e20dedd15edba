"""MLIR's ``test`` dialect: the ops of upstream's test dialect (``mlir/test/lib/Dialect/
Test``) that upstream's own GPU, NVGPU and NVVM tests use, for runs that use xdsl-gpu.

It extends xDSL's own ``test`` dialect (``test.op``, ``test.termop``, ``!test.type``...
keep working) and, like upstream's, accepts any other ``test.*`` op written in generic
form as an op it does not know (``"test.use.shared.memory"(%0) : (...) -> ()``), without
``--allow-unregistered-dialect`` (``Dialect::allowsUnknownOperations``; the patch that
gives xDSL this is :func:`xdsl_gpu.compat.dialects_allow_unknown_operations`).

Ops with a definition here (upstream's syntax and checks)::

    %1 = test.increment %0 : index     // integer, index or a vector of them
    %2 = test.with_bounds {umin = 0 : index, umax = 4 : index, smin = 0 : index,
                           smax = 4 : index} : index   // int_range_test_ops.py
    %3 = test.reflect_bounds %2 : index                // int_range_test_ops.py
    "test.finish"() : () -> ()         // a terminator with no operands
    "test.read_buffer"(%m) : (memref<2xf32>) -> ()   // reads (dumps) a buffer

Add an op here when an upstream test needs its custom syntax or its verifier; one
written in generic form with no check is accepted without it.
"""

from __future__ import annotations

from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import (
    IndexType,
    IntegerType,
    MemRefType,
    UnrankedMemRefType,
    VectorType,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.int_range_test_ops import OPERATIONS as INT_RANGE_TEST_OPS


class OpenDialect(Dialect):
    """A dialect that accepts ops it does not define (MLIR's
    ``allowsUnknownOperations``)."""

    allows_unknown_operations = True


def _integer_or_index_like(type: Attribute) -> bool:
    if isinstance(type, VectorType):
        type = type.element_type
    return isinstance(type, IntegerType | IndexType)


@irdl_op_definition
class IncrementOp(IRDLOperation):
    """``test.increment``: its operand plus one (an integer range test op)."""

    name = "test.increment"

    value = operand_def()
    result = result_def()

    traits = traits_def(Pure())

    def __init__(self, value: SSAValue) -> None:
        super().__init__(operands=[value], result_types=[value.type])

    @classmethod
    def parse(cls, parser: Parser) -> IncrementOp:
        # attr-dict $value `:` type($result), the operand of the result's type.
        attributes = parser.parse_optional_attr_dict()
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        type = parser.parse_type()
        op = cls(parser.resolve_operand(value, type))
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if not _integer_or_index_like(self.value.type):
            raise VerifyException(
                f"'{self.name}' op operand #0 must be integer or index or vector of "
                f"integer or index values, but got '{self.value.type}'"
            )
        if self.value.type != self.result.type:
            raise VerifyException(
                f"'{self.name}' op failed to verify that all of {{value, result}} "
                "have same type"
            )


class _Terminator(IsTerminator):
    """xDSL's ``IsTerminator`` with MLIR's message."""

    def verify(self, op: Operation) -> None:
        if op.parent is not None and op.parent.last_op is not op:
            raise VerifyException(
                f"'{op.name}' op must be the last operation in the parent block"
            )


@irdl_op_definition
class FinishOp(IRDLOperation):
    """``test.finish``: a terminator for any region (it ends a block, nothing else)."""

    name = "test.finish"

    traits = traits_def(_Terminator())


@irdl_op_definition
class ReadBufferOp(IRDLOperation):
    """``test.read_buffer``: reads its memref and writes elsewhere (upstream's
    effects: it stands for dumping the buffer, so no canonicalization erases it)."""

    name = "test.read_buffer"

    buffer = operand_def(MemRefType | UnrankedMemRefType)

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


TEST = OpenDialect(
    "test",
    [
        *xdsl_test.Test.operations,
        IncrementOp,
        FinishOp,
        ReadBufferOp,
        *INT_RANGE_TEST_OPS,
    ],
    list(xdsl_test.Test.attributes),
)
"""xDSL's ``test`` dialect with upstream's test ops; unknown ``test.*`` ops allowed."""
