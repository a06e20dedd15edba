"""Which dialects and passes a stock ``xdsl-opt`` run gets: xDSL's own or xdsl-gpu's.

xdsl-gpu's ``gpu``, ``llvm``, ``arith``, ``math``, ``memref`` and ``vector`` dialects
and its ``lower-affine``, ``convert-scf-to-cf`` and ``reconcile-unrealized-casts``
passes follow MLIR 22, and that is not always what xDSL's own do: upstream prints
``#llvm.overflow<nsw, nuw>`` where xDSL prints ``<nsw,nuw>``, gives other verifier
messages, and reads ``gpu.wait async`` where xDSL's gpu ops are generic-only.
Installing xdsl-gpu must not change what stock xDSL does for a program that does
not use it, so every run chooses, once, after its arguments are read and before the
pass pipeline is built (:func:`xdsl_gpu.compat.dialects_chosen_per_run`):

* **xdsl-gpu's** when ``--xdsl-gpu`` is given, or the run uses anything that only
  xdsl-gpu provides (see :func:`why_xdsl_gpu`);
* **xDSL's own** otherwise: the run is the one xDSL alone would make.

Python users choose for themselves: :func:`xdsl_gpu.register_dialects` puts ours into
their ``Context``; ``xdsl-gpu-run`` always uses ours.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import io
import os
import re
import sys
from collections.abc import Iterable
from functools import cache
from typing import Any

from xdsl_gpu import compat, diagnostics
from xdsl_gpu.diagnostics import RUN_NOTES
from xdsl_gpu.gpu_dialect.registration import (
    NEW_DIALECTS,
    REPLACED_DIALECTS,
    install_hooks,
)
from xdsl_gpu.passes import get_all_passes
from xdsl_gpu.passes.registration import REPLACED_PASSES
from xdsl_gpu.targets import get_all_targets, register_target_interfaces

FLAG = "--xdsl-gpu"

_OURS_ONLY = "|".join(sorted(NEW_DIALECTS))
_OURS_ONLY_NAME = re.compile(
    rf"(?<![\w$%^@.#!])(?:{_OURS_ONLY})\.[A-Za-z_]|[#!](?:{_OURS_ONLY})[.<]"
)
"""An op, attribute or type of a dialect that only xdsl-gpu defines (nvvm.barrier0,
"nvgpu.rcp"(...), #nvvm.target<...>, !nvgpu.mbarrier.group<...>)."""

_SHARED = "|".join(sorted(REPLACED_DIALECTS))
_CUSTOM_FORM_OP = re.compile(
    rf"^[ \t]*(?:%[^=\n\"]*=[ \t]*)?((?:{_SHARED})\.[\w$.]+)", re.MULTILINE
)
"""An op of a shared dialect written in custom form: at the start of a statement,
after its results, unquoted (``%0 = gpu.wait async``, ``memref.copy %a, %b``)."""
_SHARED_NAME = re.compile(rf"(?<![\w$%^@.#!])\"?({_SHARED})\.[A-Za-z_]")
_GENERIC_FORM_OP = re.compile(
    rf"^[ \t]*(?:%[^=\n\"]*=[ \t]*)?\"((?:{_SHARED})\.[\w$.]+)\"[ \t]*\(", re.MULTILINE
)
_SHARED_ATTRIBUTE = re.compile(rf"[#!]({_SHARED})(?:\.([\w$.]+)|<([\w$.]+))")


def add_arguments(arg_parser: argparse.ArgumentParser) -> None:
    arg_parser.add_argument(
        FLAG,
        dest="xdsl_gpu",
        action="store_true",
        help="use xdsl-gpu's MLIR 22 gpu, llvm, arith, math, memref and vector "
        "dialects and passes in place of xDSL's own (implied when the program or "
        "pipeline uses anything only xdsl-gpu provides)",
    )
    arg_parser.add_argument(
        "--print-module-on-diagnostic",
        dest="print_module_on_diagnostic",
        action="store_true",
        help="with an error about an op, also print the whole module with the op "
        "marked (by default: the location, the source line and the op alone)",
    )


def choose(main: Any) -> None:
    """``xdsl-opt``'s choice for this run, made before its pipeline is built."""
    diagnostics.SHOW_MODULE_ON_DIAGNOSTIC = bool(
        getattr(main.args, "print_module_on_diagnostic", False)
    )
    program = _peek_input(main.args)
    if why_xdsl_gpu(
        forced=bool(getattr(main.args, "xdsl_gpu", False)),
        pipeline=_pipeline_text(main.args),
        target=str(getattr(main.args, "target", "") or ""),
        program=program,
        allow_unregistered=bool(
            getattr(main.args, "allow_unregistered_dialect", False)
        ),
    ):
        use_xdsl_gpu(main)
    elif shared := sorted(set(_SHARED_NAME.findall(program or ""))):
        RUN_NOTES.append(
            f"this run used xDSL's own {', '.join(shared)} dialect"
            f"{'s' if len(shared) > 1 else ''} (nothing in it needs xdsl-gpu); "
            f"{FLAG} uses xdsl-gpu's, which follow MLIR 22"
        )


def use_xdsl_gpu(main: Any) -> None:
    """Put our dialects and passes in place of xDSL's in ``main`` (nothing is loaded
    in its Context yet) and make the changes inside xDSL that they need."""
    # The IR of a GPU program is many small objects that live until the end: with
    # CPython's default thresholds, collections were 31% of compiling 64 copies of
    # seed 002 (benchmarks/bench_compile.py). So are the classes of the dialects
    # loaded below (collections while they load: ~30 ms of a run on seed 002). A
    # command-line run only.
    gc.set_threshold(50_000, 20, 20)
    install_hooks()
    compat.indexed_symbol_lookup()
    compat.no_second_verification()
    from xdsl_gpu.passes.pipeline_verification import input_as_text

    compat.first_pass_input_as_text(input_as_text)
    compat.remembered_builtin_types()
    compat.plain_op_construction()
    compat.plain_op_verification()
    compat.remembered_op_constraints()
    compat.linear_isolation_check()
    compat.statement_forms()
    compat.regex_tokens()
    register_target_interfaces()
    for name, factory in REPLACED_DIALECTS.items():
        compat.replace_context_dialect(main.ctx, name, factory)
    main.available_passes.update(REPLACED_PASSES)
    main.xdsl_gpu_dialects = True
    # What is loaded by now (classes, dialects, tables) lives to the end: out of the
    # collector's way (another ~10 ms of collections on seed 002).
    gc.freeze()


def settle(main: Any) -> None:
    """In a run with our dialects, rebuild the ops that a pass of xDSL's made with
    xDSL's classes (``memref-to-gpu`` makes xDSL's ``gpu.alloc``) as ours before the
    next pass sees them (:mod:`xdsl_gpu.gpu_dialect.adoption`)."""
    pipeline = getattr(main, "pipeline", None)
    if not getattr(main, "xdsl_gpu_dialects", False) or pipeline is None:
        return
    from xdsl_gpu.gpu_dialect.adoption import adopt_foreign_ops

    then = pipeline.callback

    def callback(previous: Any, module: Any, following: Any) -> None:
        if previous is not None and not type(previous).__module__.startswith(
            "xdsl_gpu."
        ):
            adopt_foreign_ops(module, main.ctx)
        if then is not None:
            then(previous, module, following)

    main.pipeline = dataclasses.replace(pipeline, callback=callback)


def why_xdsl_gpu(
    *,
    forced: bool,
    pipeline: str,
    target: str,
    program: str | None,
    allow_unregistered: bool = False,
) -> str | None:
    """Why a run needs xdsl-gpu's dialects, or None if it is xDSL's alone. With
    ``allow_unregistered``, xDSL reads a generic op it does not define too (as an
    unregistered op), so such an op does not call for ours."""
    if forced:
        return f"{FLAG} was given"
    words = set(re.findall(r"[\w-]+", pipeline))
    passes = sorted(words & set(get_all_passes()))
    if passes:
        return f"the pipeline names '{passes[0]}', a pass of xdsl-gpu"
    if target.split("{")[0] in get_all_targets():
        return f"-t {target} is a target of xdsl-gpu"
    if program is None:
        return None
    program = _without_comments(program)
    if match := _OURS_ONLY_NAME.search(program):
        return f"the program uses '{match.group(0)}', a dialect of xdsl-gpu"
    return _beyond_xdsl(program, allow_unregistered)


def _without_comments(program: str) -> str:
    """The program without its ``//`` comments (FileCheck lines name ops that the
    program itself does not use)."""
    if "//" not in program:
        return program
    lines = program.split("\n")
    for i, line in enumerate(lines):
        start = line.find("//")
        if start < 0:
            continue
        in_string = False
        for j, char in enumerate(line):
            if char == '"' and (j == 0 or line[j - 1] != "\\"):
                in_string = not in_string
            elif not in_string and line.startswith("//", j):
                lines[i] = line[:j]
                break
    return "\n".join(lines)


def _beyond_xdsl(program: str, allow_unregistered: bool) -> str | None:
    """An op, attribute or type of a shared dialect that xDSL's own does not define,
    or an op in a custom form that xDSL's own does not read."""
    for name in _unique(m.group(1) for m in _CUSTOM_FORM_OP.finditer(program)):
        if not _xdsl_reads_custom_form(name):
            return f"xDSL's own dialect does not read '{name}' in custom form"
    for name in _unique(m.group(1) for m in _GENERIC_FORM_OP.finditer(program)):
        if not allow_unregistered and name not in _xdsl_ops(name.split(".")[0]):
            return f"xDSL's own dialect has no '{name}'"
    for m in _SHARED_ATTRIBUTE.finditer(program):
        dialect, mnemonic = m.group(1), m.group(2) or m.group(3)
        if f"{dialect}.{mnemonic}" not in _xdsl_attributes(dialect):
            return f"xDSL's own dialect has no '{m.group(0)}'"
    return None


def _unique(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(names))


@cache
def _xdsl_dialect(name: str) -> Any:
    from xdsl.dialects import get_all_dialects

    return get_all_dialects()[name]()


@cache
def _xdsl_ops(dialect: str) -> dict[str, type]:
    return {op.name: op for op in _xdsl_dialect(dialect).operations}


@cache
def _xdsl_attributes(dialect: str) -> frozenset[str]:
    return frozenset(a.name for a in _xdsl_dialect(dialect).attributes)


def _xdsl_reads_custom_form(name: str) -> bool:
    from xdsl.ir import Operation

    op = _xdsl_ops(name.split(".")[0]).get(name)
    return op is not None and op.parse.__func__ is not Operation.parse.__func__  # pyright: ignore[reportFunctionMemberAccess]


def _pipeline_text(args: Any) -> str:
    return ",".join(
        str(part)
        for part in (
            getattr(args, "passes", ""),
            getattr(args, "mlir_pass_pipeline", ""),
            *getattr(args, "mlir_pass_flags", []),
        )
        if part
    )


def _peek_input(args: Any) -> str | None:
    """The program's text, read without using it up (None if it cannot be read:
    reading it for real gives the diagnostic)."""
    path = getattr(args, "input_file", None)
    try:
        if path is not None:
            with open(path, "rb") as f:
                data = f.read()
                if not os.path.isfile(path):  # a pipe: what it gave is gone
                    from xdsl_gpu.compat.opt_tool import READ_AHEAD

                    READ_AHEAD[path] = data
        else:
            data = sys.stdin.buffer.read()
            sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    except (OSError, AttributeError, ValueError):
        return None
    return data.decode("utf-8", errors="replace")
