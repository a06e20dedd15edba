"""How xdsl-gpu's dialects take the place of xDSL's own.

xDSL ships a partial ``gpu`` dialect (generic syntax only), ``llvm``, ``arith``
and ``math`` dialects that lack ops the GPU flow needs, and a ``memref`` dialect that
lacks upstream's custom syntax of several ops (it has no ``index`` dialect at all).
``Universe.get_multiverse()`` refuses two plugins that define the same dialect name,
so a plugin cannot simply define ``gpu`` again.

The mechanism, kept in this one module:

* ``get_multiverse()`` imports every ``xdsl.universe`` entry point *before* it merges
  their dictionaries. Importing our plugin (``xdsl_gpu.gpu_dialect.universe``) calls
  :func:`override_xdsl_dialects`, which swaps the factories for the dialects in
  :data:`REPLACED_DIALECTS` (``gpu``, ``llvm``, ``arith``, ``math``, ``memref``) in
  the dictionary of xDSL's own universe object. Stock ``xdsl-opt`` then loads ours.
* Python users do the same for their own ``Context`` with :func:`register_dialects`.

A third patch gives xDSL the hook it lacks for MLIR's
``Dialect::verifyOperationAttribute``: :func:`verify_dialect_attributes_on_verify` wraps
``Operation.verify`` so that every op's discardable ``gpu.*`` and ``nvvm.*`` attributes
(``gpu.known_block_size``, ``gpu.container_module``, ``nvvm.kernel``, ``nvvm.maxntid``,
``nvvm.grid_constant`` on kernel arguments, ...) are checked with upstream's messages
wherever IR is verified: ``xdsl-opt`` after parsing and after each pass, and
``op.verify()`` in Python.

A fourth, smaller patch makes xDSL's lexer decode string literals with a C codec
(:func:`speed_up_string_literals`): GPU binaries are printed as escaped strings, and
xDSL's pure-Python decoder takes seconds per megabyte; the result is the same bytes.

Two more give diagnostics a place in the source, as MLIR's do: the parser records
each op's ``file:line:col`` as its location (:func:`record_source_locations`; MLIR's
parser does the same, and ``--print-debuginfo`` shows them), and a verification error
remembers the op that failed (:func:`remember_failing_ops`), so that the command-line
tools print ``file:line:col: error: message`` (``xdsl_gpu/gpu_dialect/diagnostics.py``).

All fail loudly (``XdslChangedError``) if a new xDSL no longer has what this relies
on; ``tests/gpu_dialect/test_registration.py`` checks it on every run, which is why
``pyproject.toml`` pins xDSL to a tested minor version.
"""

from __future__ import annotations

import bisect
import contextvars
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.utils.exceptions import VerifyException


class XdslChangedError(RuntimeError):
    """xDSL no longer looks the way the dialect override expects."""


def _gpu() -> Dialect:
    from xdsl_gpu.gpu_dialect.gpu import GPU

    return GPU


def _llvm() -> Dialect:
    from xdsl_gpu.gpu_dialect.llvm import LLVM

    return LLVM


def _arith() -> Dialect:
    from xdsl_gpu.gpu_dialect.arith import ARITH

    return ARITH


def _math() -> Dialect:
    from xdsl_gpu.gpu_dialect.math import MATH

    return MATH


def _memref() -> Dialect:
    from xdsl_gpu.gpu_dialect.memref import MEMREF

    return MEMREF


def _index() -> Dialect:
    from xdsl_gpu.gpu_dialect.index import INDEX

    return INDEX


def _nvvm() -> Dialect:
    from xdsl_gpu.gpu_dialect.nvvm import NVVM

    return NVVM


def _rocdl() -> Dialect:
    from xdsl_gpu.gpu_dialect.rocdl import ROCDL

    return ROCDL


def _xgpu() -> Dialect:
    from xdsl_gpu.gpu_dialect.xgpu import XGPU

    return XGPU


REPLACED_DIALECTS: dict[str, Callable[[], Dialect]] = {
    "arith": _arith,
    "gpu": _gpu,
    "llvm": _llvm,
    "math": _math,
    "memref": _memref,
}
"""Dialects that xDSL defines too: ours take their place."""

NEW_DIALECTS: dict[str, Callable[[], Dialect]] = {
    "index": _index,
    "nvvm": _nvvm,
    "rocdl": _rocdl,
    "xgpu": _xgpu,
}
"""Dialects that only this package defines."""


def override_xdsl_dialects() -> None:
    """Point xDSL's own universe at our ``gpu`` and ``llvm`` dialects."""
    try:
        from xdsl.universe import XDSL_UNIVERSE
    except ImportError as e:  # pragma: no cover - only with an incompatible xDSL
        raise XdslChangedError(f"xdsl.universe.XDSL_UNIVERSE is gone: {e}") from e
    dialects = getattr(XDSL_UNIVERSE, "all_dialects", None)
    if not isinstance(dialects, dict):
        raise XdslChangedError("XDSL_UNIVERSE.all_dialects is no longer a dict")
    for name, factory in REPLACED_DIALECTS.items():
        if name not in dialects:
            raise XdslChangedError(
                f"xDSL no longer registers a '{name}' dialect; "
                "xdsl_gpu/gpu_dialect/registration.py must be revisited"
            )
        dialects[name] = factory
    install_hooks()


def install_hooks() -> None:
    """Every patch of xDSL that this module makes (each only once)."""
    speed_up_string_literals()
    verify_dialect_attributes_on_verify()
    record_source_locations()
    remember_failing_ops()


CHUNK_LINE_OFFSET: contextvars.ContextVar[int] = contextvars.ContextVar(
    "xdsl_gpu_chunk_line_offset", default=0
)
"""Lines before the text being parsed: ``xdsl-opt --split-input-file`` parses each
chunk on its own, and its locations must still be lines of the file."""


@dataclass
class _LineIndex:
    """Where the lines of one parser input start, to turn offsets into line and
    column in O(log n) (xDSL's ``Span.get_location`` counts the newlines before the
    offset each time, which made parsing quadratic), and one ``StringAttr`` for the
    file name that every location of the input shares."""

    source: object
    newlines: list[int]
    file: Attribute

    @staticmethod
    def of(source: Any) -> _LineIndex:
        from xdsl.dialects.builtin import StringAttr

        newline = re.escape(source.newline)
        offsets = [m.start() for m in re.finditer(newline, source.content)]
        return _LineIndex(source, offsets, StringAttr(source.name))

    def line_col(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_left(self.newlines, offset)  # newlines before offset
        start = self.newlines[line - 1] + 1 if line else 0
        return line + 1, offset - start + 1


def record_source_locations() -> None:
    """Make the parser give each op it parses without a ``loc(...)`` its place in the
    source as a ``FileLineColLoc``, as MLIR's parser does: the line and column of the
    op's name (after its results)."""
    from xdsl.dialects.builtin import FileLineColLoc, IntAttr, UnknownLoc
    from xdsl.parser import Parser

    parse_operation_ = Parser.__dict__.get("parse_operation")
    parse_results = Parser.__dict__.get("_parse_op_result_list")
    parse_location = getattr(Parser, "parse_optional_location", None)
    if not callable(parse_operation_) or not callable(parse_results):
        raise XdslChangedError(
            "xdsl.parser.Parser.parse_operation or _parse_op_result_list is gone"
        )
    if not callable(parse_location):
        raise XdslChangedError("xdsl.parser.Parser.parse_optional_location is gone")
    if getattr(parse_operation_, "xdsl_gpu_locations", False):
        return

    def pending(parser: Parser) -> list[list[Any]]:
        """Per op being parsed (nested ops stack up): [name span, explicit unknown]."""
        return parser.__dict__.setdefault("_xdsl_gpu_ops", [])

    def _parse_op_result_list(self: Parser) -> Any:
        results = parse_results(self)
        stack = pending(self)
        if stack:
            token = getattr(self, "_current_token", None)
            if not hasattr(token, "span"):
                raise XdslChangedError("xDSL's parser tokens no longer carry a span")
            stack[-1][0] = token.span  # type: ignore[union-attr]
        return results

    def parse_optional_location(self: Parser) -> Any:
        location = parse_location(self)
        stack = pending(self)
        if isinstance(location, UnknownLoc) and stack:
            stack[-1][1] = True  # an explicit loc(unknown) stays unknown
        return location

    def parse_operation(self: Parser) -> Operation:
        stack = pending(self)
        stack.append([None, False])
        try:
            op = parse_operation_(self)
        finally:
            span, explicit_unknown = stack.pop()
        if span is None or explicit_unknown or not isinstance(op.location, UnknownLoc):
            return op
        index: _LineIndex | None = self.__dict__.get("_xdsl_gpu_lines")
        if index is None or index.source is not span.input:
            index = _LineIndex.of(span.input)
            self.__dict__["_xdsl_gpu_lines"] = index
        line, col = index.line_col(span.start)
        op.location = FileLineColLoc(
            index.file, IntAttr(line + CHUNK_LINE_OFFSET.get()), IntAttr(col)
        )
        return op

    for function in (parse_operation, _parse_op_result_list, parse_optional_location):
        function.xdsl_gpu_locations = True  # type: ignore[attr-defined]
    parse_operation.__doc__ = parse_operation_.__doc__
    Parser.parse_operation = parse_operation  # type: ignore[method-assign]
    Parser._parse_op_result_list = _parse_op_result_list  # type: ignore[method-assign]
    Parser.parse_optional_location = parse_optional_location  # type: ignore[method-assign]
    if "xdsl.xdsl_opt_main" in sys.modules:  # only xdsl-opt splits its input
        _offset_split_input_chunks()


def _offset_split_input_chunks() -> None:
    """Set :data:`CHUNK_LINE_OFFSET` while ``xdsl-opt`` parses each chunk of a split
    input (it passes the chunk's first line to ``parse_chunk``)."""
    from xdsl.xdsl_opt_main import xDSLOptMain

    parse_chunk = getattr(xDSLOptMain, "parse_chunk", None)
    if getattr(parse_chunk, "xdsl_gpu_locations", False):
        return
    if not callable(parse_chunk):
        raise XdslChangedError("xdsl.xdsl_opt_main.xDSLOptMain.parse_chunk is gone")
    import inspect

    if list(inspect.signature(parse_chunk).parameters)[:4] != [
        "self", "chunk", "file_extension", "start_offset",
    ]:  # fmt: skip
        raise XdslChangedError(
            "xDSLOptMain.parse_chunk no longer takes (chunk, file_extension, "
            "start_offset)"
        )

    def parse_chunk_at(self: Any, chunk: Any, file_extension: str, start_offset: int = 0):
        token = CHUNK_LINE_OFFSET.set(start_offset)
        try:
            return parse_chunk(self, chunk, file_extension, start_offset)
        finally:
            CHUNK_LINE_OFFSET.reset(token)

    parse_chunk_at.xdsl_gpu_locations = True  # type: ignore[attr-defined]
    parse_chunk_at.__doc__ = parse_chunk.__doc__
    xDSLOptMain.parse_chunk = parse_chunk_at  # type: ignore[method-assign]


def remember_failing_ops() -> None:
    """Make ``Operation.emit_error`` note, on the exception it raises, the op that
    failed and the message without xDSL's dump of the whole module
    (``failing_op``, ``plain_message``)."""
    original = Operation.__dict__.get("emit_error")
    if not callable(original):
        raise XdslChangedError("xdsl.ir.Operation.emit_error is gone")
    if getattr(original, "xdsl_gpu_failing_op", False):
        return

    def emit_error(self: Operation, message: str, underlying_error: Exception):
        try:
            original(self, message, underlying_error)
        except Exception as error:
            if not hasattr(error, "failing_op"):
                error.failing_op = self  # type: ignore[attr-defined]
                error.plain_message = str(underlying_error)  # type: ignore[attr-defined]
            raise
        raise XdslChangedError("xdsl.ir.Operation.emit_error returned")

    emit_error.xdsl_gpu_failing_op = True  # type: ignore[attr-defined]
    emit_error.__doc__ = original.__doc__
    Operation.emit_error = emit_error  # type: ignore[method-assign]


def verify_dialect_attributes(op: Operation) -> None:
    """MLIR's ``verifyOperationAttribute`` of the ``gpu`` and ``nvvm`` dialects for
    the discardable attributes of ``op`` (not of the ops nested in it), and the
    ``nvvm`` argument-attribute rules. Raises ``VerifyException`` with upstream's
    message."""
    names = [n for n in op.attributes if n.startswith(("gpu.", "nvvm."))]
    has_arg_attrs = "arg_attrs" in op.properties or "arg_attrs" in op.attributes
    if not names and not has_arg_attrs:
        return
    from xdsl_gpu.gpu_dialect.gpu.attributes import (
        CONTAINER_MODULE_ATTR_NAME,
        verify_discardable_gpu_attr,
    )
    from xdsl_gpu.gpu_dialect.nvvm.kernel_attrs import verify_nvvm_attributes

    for name in names:
        if name.startswith("gpu."):
            try:
                verify_discardable_gpu_attr(op, name, op.attributes[name])
            except VerifyException as e:
                container = name == CONTAINER_MODULE_ATTR_NAME
                prefix = "" if container else f"'{op.name}' op "
                raise VerifyException(f"{prefix}{e}") from e
    if has_arg_attrs or any(n.startswith("nvvm.") for n in names):
        verify_nvvm_attributes(op)


def verify_dialect_attributes_on_verify() -> None:
    """Make ``Operation.verify`` run :func:`verify_dialect_attributes` on every op
    first, as MLIR's verifier checks dialect attributes before the op itself."""
    original = Operation.__dict__.get("verify")
    if not callable(original):
        raise XdslChangedError("xdsl.ir.Operation.verify is gone")
    if getattr(original, "xdsl_gpu_dialect_attrs", False):
        return
    import inspect

    if list(inspect.signature(original).parameters) != ["self", "verify_nested_ops"]:
        raise XdslChangedError(
            "xdsl.ir.Operation.verify no longer takes (self, verify_nested_ops)"
        )

    def verify(self: Operation, verify_nested_ops: bool = True) -> None:
        if self.attributes or self.properties:
            try:
                verify_dialect_attributes(self)
            except VerifyException as err:
                self.emit_error(f"Operation does not verify: {err}", err)
        original(self, verify_nested_ops)

    verify.xdsl_gpu_dialect_attrs = True  # type: ignore[attr-defined]
    verify.__doc__ = original.__doc__
    Operation.verify = verify  # type: ignore[method-assign]


def speed_up_string_literals() -> None:
    """Decode string literals with :func:`unescape_mlir_string` (same bytes as xDSL's
    decoder, which still reports malformed escapes with their location)."""
    from xdsl.utils import mlir_lexer

    literal = getattr(mlir_lexer, "StringLiteral", None)
    original = getattr(literal, "bytes_contents", None)
    if literal is None or not isinstance(original, property):
        raise XdslChangedError("xdsl.utils.mlir_lexer.StringLiteral.bytes_contents is gone")
    if getattr(original.fget, "xdsl_gpu_fast", False):
        return
    from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import unescape_mlir_string

    def bytes_contents(self: object) -> bytes:
        try:
            return unescape_mlir_string(self.text[1:-1])  # type: ignore[attr-defined]
        except ValueError:
            return original.fget(self)  # raises the located ParseError

    bytes_contents.xdsl_gpu_fast = True  # type: ignore[attr-defined]
    literal.bytes_contents = property(bytes_contents)


def register_dialects(ctx: Context) -> None:
    """Make the ``gpu``, ``nvvm``, ``rocdl`` and extended ``llvm`` dialects available
    in ``ctx``, in place of xDSL's own ``gpu`` and ``llvm``.

    Call it before anything parses or builds IR with ``ctx``.
    """
    registered: dict[str, Callable[[], Dialect]] | None = getattr(
        ctx, "_registered_dialects", None
    )
    if not isinstance(registered, dict):
        raise XdslChangedError("xdsl.context.Context._registered_dialects is gone")
    install_hooks()
    for name, factory in {**REPLACED_DIALECTS, **NEW_DIALECTS}.items():
        loaded = {d.name: d for d in ctx.loaded_dialects}
        if name in loaded:
            if loaded[name] is factory():
                continue
            raise ValueError(
                f"the '{name}' dialect is already loaded in this Context; call "
                "xdsl_gpu.gpu_dialect.register_dialects(ctx) before the first parse or load"
            )
        # A lazily registered factory that was never loaded is safe to replace.
        registered[name] = factory
