"""In-process access to the same dialects, passes and printer that ``xdsl-opt`` uses,
so that tests need not pay the tool's start-up for every chunk."""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import cache

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.universe import Universe


@cache
def _multiverse() -> Universe:
    return Universe.get_multiverse()


def make_context() -> Context:
    """A context with every dialect stock xdsl-opt knows, as in a run that uses
    xdsl-gpu (ours in place of xDSL's gpu, llvm, arith, math, memref, vector)."""
    from xdsl_gpu.gpu_dialect import register_dialects

    ctx = Context()
    for name, factory in _multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    register_dialects(ctx)
    return ctx


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass stock xdsl-opt knows, as in a run that uses xdsl-gpu."""
    from xdsl_gpu.passes.registration import REPLACED_PASSES

    return {**_multiverse().all_passes, **REPLACED_PASSES}


def parse(text: str, ctx: Context | None = None) -> ModuleOp:
    module = Parser(ctx or make_context(), text).parse_module()
    module.verify()
    return module


def print_module(module: ModuleOp, *, generic: bool = False) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    return out.getvalue() + "\n"
