"""In-process access to the same dialects, passes and printer that ``xdsl-opt`` uses,
so that tests need not pay the tool's start-up for every chunk."""

from __future__ import annotations

import io
from functools import cache

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.universe import Universe


@cache
def _multiverse() -> Universe:
    return Universe.get_multiverse()


def make_context() -> Context:
    """A context with every dialect stock xdsl-opt knows (ours included)."""
    ctx = Context()
    for name, factory in _multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    return ctx


def parse(text: str, ctx: Context | None = None) -> ModuleOp:
    module = Parser(ctx or make_context(), text).parse_module()
    module.verify()
    return module


def print_module(module: ModuleOp, *, generic: bool = False) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    return out.getvalue() + "\n"
