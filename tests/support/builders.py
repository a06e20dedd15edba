"""Helpers for tests of Python builders: values to build ops from, and the printed
form of the ops built."""

from __future__ import annotations

from xdsl.dialects import test
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue

from tests.support.xdsl_tools import parse, print_module


def values(*types: Attribute) -> tuple[Operation, list[SSAValue]]:
    """A ``test.op`` defining one value of each type, and those values."""
    op = test.TestOp(result_types=types)
    return op, list(op.results)


def printed(*ops: Operation) -> str:
    """The module holding ``ops``, verified and printed; it must parse back to the
    same text."""
    module = ModuleOp(list(ops))
    module.verify()
    text = print_module(module)
    assert print_module(parse(text)) == text
    return text
