"""Every change that xdsl-gpu makes inside xDSL, in one place.

xdsl-gpu extends xDSL by subclassing and through the ``xdsl.universe`` entry point.
What cannot be done that way is here, one :class:`Patch` each, written against
xDSL 0.74 (the minor that ``pyproject.toml`` pins). Each patch says why it exists and
has a test that stock xDSL still has the gap it fills (``tests/test_compat.py``,
which runs xDSL's own code) for every patch,
so the suite fails as soon as a new xDSL no longer needs one, and the patch can go.
Each one also fails loudly (:class:`XdslChangedError`) if the xDSL code it wraps is
no longer what it expects.

The patches only widen what xDSL accepts or how precisely it reports errors; none of
them changes what stock xDSL prints or computes for a program that it already
handles. ``tools/xdsl_own_suite.sh`` runs xDSL's own filecheck suite with and without
the package to show it.

Nothing here imports the rest of the package (this module sits below the dialect
layer): the patches that need xdsl-gpu's code get it as an argument from
``xdsl_gpu.gpu_dialect.registration``, which applies them.
"""

from __future__ import annotations

import bisect
import contextlib
import contextvars
import inspect
import io
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

XDSL_VERSION = "0.74"
"""The xDSL minor these patches are written against."""


class XdslChangedError(RuntimeError):
    """xDSL no longer looks the way a patch of this module expects."""


@dataclass(frozen=True)
class Patch:
    """One change inside xDSL and why; ``tests/test_compat.py`` holds, per name, the
    check that stock xDSL still has the gap (it runs xDSL's own code, reached through
    :func:`original`)."""

    name: str
    reason: str
    xdsl_version: str = XDSL_VERSION


def is_patched(function: Callable[..., Any], mark: str) -> bool:
    """Whether ``function`` or one of the wrappers under it carries ``mark``."""
    seen: Any = function
    while seen is not None:
        if getattr(seen, mark, False):
            return True
        seen = getattr(seen, "__wrapped__", None)
    return False


def _mark(function: Callable[..., Any], mark: str, like: Callable[..., Any]) -> None:
    setattr(function, mark, True)
    function.__doc__ = like.__doc__
    function.__wrapped__ = like  # type: ignore[attr-defined]


def original(function: Any) -> Any:
    """xDSL's own function behind our wrappers (itself if not wrapped)."""
    while hasattr(function, "__wrapped__"):
        function = function.__wrapped__
    return function


# -- 1. dialects and passes that take the place of xDSL's -------------------------------


def replace_context_dialect(ctx: Any, name: str, factory: Callable[[], Any]) -> None:
    """Register ``factory`` for ``name`` in ``ctx`` even if xDSL's dialect of that
    name is registered (not loaded) there: ``Context.register_dialect`` refuses a
    second registration and has no way to replace one."""
    registered = getattr(ctx, "_registered_dialects", None)
    if not isinstance(registered, dict):
        raise XdslChangedError("xdsl.context.Context._registered_dialects is gone")
    registered[name] = factory


# -- 2. MLIR's Dialect::verifyOperationAttribute ---------------------------------------


def verify_dialect_attributes_with(verifier: Callable[[Operation], None]) -> None:
    """Make ``Operation.verify`` run ``verifier`` on every op with attributes before
    the op's own checks, as MLIR's verifier checks the discardable attributes of a
    dialect (``gpu.known_block_size``, ``nvvm.kernel``, ...) through
    ``Dialect::verifyOperationAttribute``; xDSL has no such hook."""
    current = Operation.__dict__.get("verify")
    if not callable(current):
        raise XdslChangedError("xdsl.ir.Operation.verify is gone")
    if is_patched(current, "xdsl_gpu_dialect_attrs"):
        return
    if list(inspect.signature(current).parameters) != ["self", "verify_nested_ops"]:
        raise XdslChangedError(
            "xdsl.ir.Operation.verify no longer takes (self, verify_nested_ops)"
        )

    def verify(self: Operation, verify_nested_ops: bool = True) -> None:
        if self.attributes or self.properties:
            try:
                verifier(self)
            except VerifyException as err:
                self.emit_error(f"Operation does not verify: {err}", err)
        current(self, verify_nested_ops)

    _mark(verify, "xdsl_gpu_dialect_attrs", current)
    Operation.verify = verify  # type: ignore[method-assign]


# -- 3. the op that failed, for located diagnostics --------------------------------------


def remember_failing_ops() -> None:
    """Make ``Operation.emit_error`` note, on the exception it raises, the op that
    failed and the message without xDSL's dump of the whole module (``failing_op``,
    ``plain_message``), so that the command-line tools print ``file:line:col:
    error: message`` as MLIR's do (``xdsl_gpu/diagnostics.py``)."""
    current = Operation.__dict__.get("emit_error")
    if not callable(current):
        raise XdslChangedError("xdsl.ir.Operation.emit_error is gone")
    if is_patched(current, "xdsl_gpu_failing_op"):
        return

    def emit_error(self: Operation, message: str, underlying_error: Exception):
        try:
            current(self, message, underlying_error)
        except Exception as error:
            if not hasattr(error, "failing_op"):
                error.failing_op = self  # type: ignore[attr-defined]
                error.plain_message = str(underlying_error)  # type: ignore[attr-defined]
            raise
        raise XdslChangedError("xdsl.ir.Operation.emit_error returned")

    _mark(emit_error, "xdsl_gpu_failing_op", current)
    Operation.emit_error = emit_error  # type: ignore[method-assign]


# -- 4. source locations ------------------------------------------------------------------

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
    file: StringAttr

    @staticmethod
    def of(source: Any) -> _LineIndex:
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
    op's name (after its results). xDSL leaves every op at ``loc(unknown)``."""
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
    if is_patched(parse_operation_, "xdsl_gpu_locations"):
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
            op = cast(Operation, parse_operation_(self))
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

    _mark(parse_operation, "xdsl_gpu_locations", parse_operation_)
    _mark(_parse_op_result_list, "xdsl_gpu_locations", parse_results)
    _mark(parse_optional_location, "xdsl_gpu_locations", parse_location)
    Parser.parse_operation = parse_operation  # type: ignore[method-assign]
    Parser._parse_op_result_list = _parse_op_result_list  # type: ignore[method-assign]
    Parser.parse_optional_location = parse_optional_location  # type: ignore[method-assign]
    _offset_split_input_chunks()


def _offset_split_input_chunks() -> None:
    """Set :data:`CHUNK_LINE_OFFSET` while ``xdsl-opt`` parses each chunk of a split
    input (it passes the chunk's first line to ``parse_chunk``)."""
    from xdsl.xdsl_opt_main import xDSLOptMain

    parse_chunk = getattr(xDSLOptMain, "parse_chunk", None)
    if not callable(parse_chunk):
        raise XdslChangedError("xdsl.xdsl_opt_main.xDSLOptMain.parse_chunk is gone")
    if is_patched(parse_chunk, "xdsl_gpu_locations"):
        return
    if list(inspect.signature(parse_chunk).parameters)[:4] != [
        "self", "chunk", "file_extension", "start_offset",
    ]:  # fmt: skip
        raise XdslChangedError(
            "xDSLOptMain.parse_chunk no longer takes (chunk, file_extension, "
            "start_offset)"
        )

    def parse_chunk_at(
        self: Any, chunk: Any, file_extension: str, start_offset: int = 0
    ):
        token = CHUNK_LINE_OFFSET.set(start_offset)
        try:
            return parse_chunk(self, chunk, file_extension, start_offset)
        finally:
            CHUNK_LINE_OFFSET.reset(token)

    _mark(parse_chunk_at, "xdsl_gpu_locations", parse_chunk)
    xDSLOptMain.parse_chunk = parse_chunk_at  # type: ignore[method-assign]


# -- 5. string literals -------------------------------------------------------------------


def fast_string_literals(unescape: Callable[[str], bytes]) -> None:
    """Decode string literals with ``unescape`` (a C codec; same bytes as xDSL's
    decoder, which still reports malformed escapes with their location). GPU binaries
    are printed as escaped strings and xDSL's pure-Python decoder takes seconds per
    megabyte."""
    from xdsl.utils import mlir_lexer

    literal = getattr(mlir_lexer, "StringLiteral", None)
    current = getattr(literal, "bytes_contents", None)
    if literal is None or not isinstance(current, property) or current.fget is None:
        raise XdslChangedError(
            "xdsl.utils.mlir_lexer.StringLiteral.bytes_contents is gone"
        )
    xdsl_decoder = current.fget
    if is_patched(xdsl_decoder, "xdsl_gpu_fast"):
        return

    def bytes_contents(self: object) -> bytes:
        try:
            return unescape(self.text[1:-1])  # type: ignore[attr-defined]
        except ValueError:
            return xdsl_decoder(self)  # raises the located ParseError

    _mark(bytes_contents, "xdsl_gpu_fast", xdsl_decoder)
    literal.bytes_contents = property(bytes_contents)


# -- 6. semi-affine expressions -----------------------------------------------------------


def semi_affine_expressions() -> None:
    """Give xDSL's ``AffineExpr`` MLIR's semi-affine operators.

    MLIR lets a product have a symbolic factor and lets ``floordiv``, ``ceildiv`` and
    ``mod`` divide by a symbolic expression (``affine_map<()[s0, s1, s2] -> (s0 * s2
    + s1)>``, upstream's loop-to-GPU mapping, seed 002). xDSL 0.74 parses the map and
    then raises ``NotImplementedError`` in ``AffineExpr.__mul__`` and friends: a
    traceback on IR that mlir-opt prints. The wrappers send a constant operand to
    xDSL's own code, unchanged; otherwise they build the node as MLIR's
    ``simplifyMul`` does (the symbolic factor to the right; a divisor must be
    symbolic), and what is not even semi-affine becomes a parse error with MLIR's
    wording at the operator."""
    from xdsl.ir.affine import AffineBinaryOpKind, AffineExpr
    from xdsl.parser.affine_parser import AffineParser
    from xdsl.utils.exceptions import ParseError

    if is_patched(AffineExpr.__mul__, "xdsl_gpu_semi_affine"):
        return
    kinds = {
        "__mul__": (AffineBinaryOpKind.Mul, "*"),
        "__floordiv__": (AffineBinaryOpKind.FloorDiv, "floordiv"),
        "ceil_div": (AffineBinaryOpKind.CeilDiv, "ceildiv"),
        "__mod__": (AffineBinaryOpKind.Mod, "mod"),
    }
    for method, (kind, token) in kinds.items():
        original = getattr(AffineExpr, method, None)
        if not callable(original):
            raise XdslChangedError(f"xdsl.ir.affine.AffineExpr.{method} is gone")
        wrapper = _semi_affine_operator(original, kind, token)
        _mark(wrapper, "xdsl_gpu_semi_affine", original)
        setattr(AffineExpr, method, wrapper)

    create = AffineParser.__dict__.get("_create_binop_expr")
    if not callable(create):
        raise XdslChangedError("AffineParser._create_binop_expr is gone")

    def _create_binop_expr(self: Any, lhs: Any, rhs: Any, binop: Any) -> Any:
        try:
            return create(self, lhs, rhs, binop)
        except NonAffineExpressionError as e:
            raise ParseError(binop.span, str(e)) from None

    _mark(_create_binop_expr, "xdsl_gpu_semi_affine", create)
    AffineParser._create_binop_expr = _create_binop_expr  # type: ignore[method-assign]


class NonAffineExpressionError(ValueError):
    """An expression that is not even semi-affine (MLIR rejects it too)."""


def is_symbolic_or_constant(expr: Any) -> bool:
    """True if ``expr`` has no dimension in it (MLIR's ``isSymbolicOrConstant``)."""
    from xdsl.ir.affine import AffineDimExpr

    return not any(isinstance(e, AffineDimExpr) for e in expr.dfs())


def _semi_affine_operator(
    original: Callable[[Any, Any], Any], kind: Any, token: str
) -> Callable[[Any, Any], Any]:
    from xdsl.ir.affine import AffineBinaryOpExpr, AffineConstantExpr, AffineExpr

    def operator(self: Any, other: Any) -> Any:
        other = AffineExpr.constant(other) if isinstance(other, int) else other
        if isinstance(other, AffineConstantExpr) or (
            token == "*" and isinstance(self, AffineConstantExpr)
        ):
            return original(self, other)
        if token == "*":
            if not is_symbolic_or_constant(self) and not is_symbolic_or_constant(other):
                raise NonAffineExpressionError(
                    "non-affine expression: at least one of the multiply operands has "
                    "to be either a constant or symbolic"
                )
            if not is_symbolic_or_constant(other):
                self, other = other, self
        elif not is_symbolic_or_constant(other):
            raise NonAffineExpressionError(
                f"non-affine expression: right operand of {token} has to be either "
                "a constant or symbolic"
            )
        return AffineBinaryOpExpr(kind, self, other)

    return operator


# -- 7. MLIR's printed form of llvm types and flags --------------------------------------


def upstream_llvm_type_syntax() -> None:
    """Print types nested in llvm types as MLIR does (``!llvm.struct<(ptr, i64)>``,
    where xDSL prints ``!llvm.struct<(!llvm.ptr, i64)>``) and flag lists with MLIR's
    spacing (``#llvm.fastmath<nnan, ninf>``, ``overflow<nsw, nuw>``; xDSL omits the
    space). Both forms parse either way; this makes the printed text mlir-opt's."""
    from xdsl.dialects import llvm

    targets = {
        llvm.LLVMStructType: ("print_parameters", _print_struct_parameters),
        llvm.LLVMArrayType: ("print_parameters", _print_array_parameters),
        llvm.LLVMFunctionType: ("print_parameters", _print_function_parameters),
        llvm.FastMathAttr: ("print_parameter", _print_fastmath_parameter),
        llvm.OverflowAttr: ("print_parameter", _print_overflow_parameter),
    }
    for cls, (method, printer) in targets.items():
        current = getattr(cls, method, None)
        if not callable(current):
            raise XdslChangedError(
                f"xdsl.dialects.llvm.{cls.__name__}.{method} is gone"
            )
        if is_patched(current, "xdsl_gpu_upstream_syntax"):
            continue
        wrapper = _bound_printer(printer)
        _mark(wrapper, "xdsl_gpu_upstream_syntax", current)
        setattr(cls, method, wrapper)


def _bound_printer(printer: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    def print_parameters(self: Any, out: Any) -> None:
        printer(self, out)

    return print_parameters


def _print_nested_type(printer: Any, t: Attribute) -> None:
    """A type inside an llvm type as upstream prints it: ``ptr``, ``array<...>``,
    ``struct<...>``, ``void`` without the ``!llvm.`` prefix; any other type in full."""
    from xdsl.dialects import llvm

    short = {
        llvm.LLVMPointerType: "ptr",
        llvm.LLVMArrayType: "array",
        llvm.LLVMStructType: "struct",
    }
    for cls, keyword in short.items():
        if isinstance(t, cls):
            printer.print_string(keyword)
            t.print_parameters(printer)  # pyright: ignore[reportAttributeAccessIssue]
            return
    if isinstance(t, llvm.LLVMVoidType):
        printer.print_string("void")
    else:
        printer.print_attribute(t)


def _print_struct_parameters(self: Any, printer: Any) -> None:
    with printer.in_angle_brackets():
        if self.struct_name.data:
            printer.print_string_literal(self.struct_name.data)
            printer.print_string(", ")
        with printer.in_parens():
            printer.print_list(
                self.types.data, lambda t: _print_nested_type(printer, t)
            )


def _print_array_parameters(self: Any, printer: Any) -> None:
    with printer.in_angle_brackets():
        printer.print_int(self.size.data)
        printer.print_string(" x ")
        _print_nested_type(printer, self.type)


def _print_function_parameters(self: Any, printer: Any) -> None:
    with printer.in_angle_brackets():
        _print_nested_type(printer, self.output)
        printer.print_string(" (")
        printer.print_list(self.inputs.data, lambda t: _print_nested_type(printer, t))
        if self.is_variadic:
            printer.print_string(", ..." if self.inputs.data else "...")
        printer.print_string(")")


def _print_fastmath_parameter(self: Any, printer: Any) -> None:
    from xdsl.dialects.utils import FastMathFlag

    with printer.in_angle_brackets():
        if not self.data:
            printer.print_string("none")
        elif len(self.data) == len(FastMathFlag):
            printer.print_string("fast")
        else:
            flags = [f.value for f in FastMathFlag if f in self.data]
            printer.print_list(flags, printer.print_string)


def _print_overflow_parameter(self: Any, printer: Any) -> None:
    from xdsl.dialects.llvm import OverflowFlag

    with printer.in_angle_brackets():
        flags = [f.value for f in OverflowFlag if f in self.data]
        printer.print_list(flags, printer.print_string)


# -- 8. MLIR's pass-pipeline syntax ----------------------------------------------------

_OP_ANCHOR = re.compile(r"(?:[A-Za-z_][\w$]*\.)+[A-Za-z_][\w$.]*\(|any\(")
_XDSL_WORD = re.compile(r"[A-Za-z0-9_-]+|[-+]?[0-9]+(\.[0-9]*([eE][-+]?[0-9]+)?)?")


class PassPipelineError(DiagnosticException, ValueError):
    """A pass pipeline that names an unknown pass or gives a pass a bad option."""


def mlir_pipeline_to_xdsl(spec: str) -> str:
    """Rewrite a pass pipeline as MLIR writes it into one xDSL's parser reads.

    * Op anchors (``builtin.module(...)``, ``gpu.module(...)``, ``func.func(...)``,
      ``any(...)``) are dropped: every pass of xdsl-gpu and of xDSL is a module pass
      that visits the ops it applies to wherever they are nested.
    * Option values that xDSL's lexer cannot read bare (``+ptx80``, ``/path/lib.bc``,
      ``sm_90a,+ptx80``...) are quoted, each comma-separated element on its own.

    Text inside quotes and ``mlir-opt[...]`` is kept as it is; a pipeline that xDSL
    already reads comes back unchanged."""
    out: list[str] = []
    anchors: list[bool] = []  # per open parenthesis: is it an op anchor?
    i, n = 0, len(spec)
    braces = 0
    while i < n:
        c = spec[i]
        if c == '"':
            end = _end_of_string(spec, i)
            out.append(spec[i:end])
            i = end
        elif c == "[":
            end = spec.find("]", i)
            end = n if end < 0 else end + 1
            out.append(spec[i:end])
            i = end
        elif (
            braces == 0 and (m := _OP_ANCHOR.match(spec, i)) and _at_word_start(spec, i)
        ):
            anchors.append(True)
            i = m.end()
        elif c == "(":
            anchors.append(False)
            out.append(c)
            i += 1
        elif c == ")" and anchors:
            if not anchors.pop():
                out.append(c)
            i += 1
        elif c.isspace() and braces == 0:
            i += 1
        elif c == "{":
            braces += 1
            out.append(c)
            i += 1
        elif c == "}":
            braces -= 1
            out.append(c)
            i += 1
        elif c == "=" and braces > 0:
            end = i + 1
            while end < n and not spec[end].isspace() and spec[end] != "}":
                if spec[end] == '"':
                    end = _end_of_string(spec, end)
                else:
                    end += 1
            out.append("=" + _quote_value(spec[i + 1 : end]))
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _at_word_start(spec: str, i: int) -> bool:
    return i == 0 or spec[i - 1] in " ,("


def _end_of_string(spec: str, start: int) -> int:
    i = start + 1
    while i < len(spec) and spec[i] != '"':
        i += 2 if spec[i] == "\\" else 1
    return min(i + 1, len(spec))


def _quote_value(value: str) -> str:
    if not value or '"' in value:
        return value
    elements = value.split(",")
    if all(_XDSL_WORD.fullmatch(e) for e in elements):
        return value
    return ",".join(
        e if _XDSL_WORD.fullmatch(e) else '"' + e.replace("\\", "\\\\") + '"'
        for e in elements
    )


def upstream_pass_pipelines() -> None:
    """Make ``PassPipeline.parse_spec`` (what ``xdsl-opt -p`` uses) read MLIR's
    pipeline syntax (:func:`mlir_pipeline_to_xdsl`) and report an unknown pass or a
    bad option as a diagnostic that names the valid ones (xDSL raises a bare
    ``ValueError``, a traceback on the command line)."""
    from xdsl.passes import PassPipeline

    current = PassPipeline.__dict__.get("parse_spec")
    if not isinstance(current, staticmethod):
        raise XdslChangedError("xdsl.passes.PassPipeline.parse_spec is gone")
    parse_spec = current.__func__
    if is_patched(parse_spec, "xdsl_gpu_pipelines"):
        return
    if list(inspect.signature(parse_spec).parameters)[:2] != [
        "available_passes",
        "spec",
    ]:
        raise XdslChangedError(
            "PassPipeline.parse_spec no longer takes (available_passes, spec, ...)"
        )

    def parse_upstream_spec(
        available_passes: Mapping[str, Callable[[], Any]],
        spec: str,
        callback: Any = None,
    ) -> Any:
        from xdsl.utils.arg_spec import parse_pipeline

        passes = tuple(
            _build_pass(available_passes, arg_spec)
            for arg_spec in parse_pipeline(mlir_pipeline_to_xdsl(spec))
        )
        return PassPipeline(passes, callback)

    _mark(parse_upstream_spec, "xdsl_gpu_pipelines", parse_spec)
    PassPipeline.parse_spec = staticmethod(parse_upstream_spec)  # type: ignore[method-assign]


def _build_pass(available: Mapping[str, Callable[[], Any]], arg_spec: Any) -> Any:
    """The pass ``arg_spec`` names, with its options; a :class:`PassPipelineError`
    that says what is valid where xDSL raises a bare ``ValueError``. A string option
    given a comma-separated list gets the whole text, as in MLIR."""
    import dataclasses
    import difflib
    from typing import get_type_hints

    from xdsl.utils.arg_spec import ArgSpec

    if arg_spec.name not in available:
        close = difflib.get_close_matches(arg_spec.name, list(available), n=3)
        hint = (
            f"; did you mean {', '.join(repr(c) for c in close)}?"
            if close
            else "; `xdsl-opt --help` lists the passes"
        )
        raise PassPipelineError(f"unknown pass '{arg_spec.name}'{hint}")
    pass_class = available[arg_spec.name]()
    hints = get_type_hints(pass_class)
    parameters: dict[str, tuple[Any, ...]] = {
        key: (",".join(map(str, values)),)
        if len(values) > 1 and hints.get(key.replace("-", "_")) is str
        else values
        for key, values in arg_spec.parameters.items()
    }
    fields = {
        f.name.replace("_", "-"): f.name
        for f in dataclasses.fields(pass_class)
        if f.init and f.name != "name"
    }
    for key in parameters:
        if key.replace("_", "-") not in fields:
            close = difflib.get_close_matches(key, list(fields), n=1)
            raise PassPipelineError(
                f"pass '{arg_spec.name}' has no option '{key}'"
                + (f"; did you mean '{close[0]}'?" if close else "")
                + f" (its options: {', '.join(fields) or 'none'})"
            )
    try:
        return pass_class.from_pass_spec(ArgSpec(arg_spec.name, parameters))
    except (ValueError, TypeError) as error:
        # xDSL says "Incompatible types: given ('abc',), expected <class 'int'>":
        # name the option whose value that is.
        given = re.search(r"given (\(.*?\)), expected", str(error))
        for key, values in parameters.items():
            if given is not None and given.group(1) == repr(tuple(values)):
                wanted = _OPTION_KINDS.get(
                    str(hints.get(fields[key.replace("_", "-")]))
                )
                text = ",".join(str(v) for v in values) or "nothing"
                raise PassPipelineError(
                    f"option '{key}' of pass '{arg_spec.name}' takes "
                    f"{wanted or 'another kind of value'}, not '{text}'"
                ) from None
        raise PassPipelineError(f"pass '{arg_spec.name}': {error}") from None


_OPTION_KINDS = {
    str(int): "an integer",
    str(bool): "true or false",
    str(float): "a number",
    str(str): "a string",
    str(bool | int): "true, false or an integer",
    str(tuple[str, ...]): "a comma-separated list of strings",
    str(tuple[int, ...]): "a comma-separated list of integers",
}


# -- 9. xdsl-opt's files: never lose one ---------------------------------------------


class _AtomicOutput(io.StringIO):
    """An output file written only when the run succeeds: the text collects in
    memory and goes to a temporary file beside the target, renamed over it by
    :meth:`commit` (so the target is never left half-written, and an input given as
    the output is read before it is replaced)."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def close(self) -> None:  # xdsl-opt closes the stream in a ``finally``
        pass

    def commit(self) -> None:
        import os
        import stat
        import tempfile

        if os.path.exists(self.path) and not stat.S_ISREG(os.stat(self.path).st_mode):
            # A device, FIFO or socket (-o /dev/null, -o /dev/stdout): renaming a
            # file over it would replace the device node itself.
            with open(self.path, "w", encoding="utf-8") as out:
                out.write(self.getvalue())
            super().close()
            return
        directory = os.path.dirname(os.path.abspath(self.path))
        descriptor, temporary = tempfile.mkstemp(
            dir=directory, prefix=f".{os.path.basename(self.path)}.", suffix=".tmp"
        )
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as out:
                out.write(self.getvalue())
            if os.path.exists(self.path):
                os.chmod(temporary, os.stat(self.path).st_mode & 0o7777)
            os.replace(temporary, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        super().close()


def write_output_file(path: str, text: str) -> None:
    """Write ``text`` to ``path`` as ``xdsl-opt -o path`` does (atomically, into a
    device or FIFO directly)."""
    output = _AtomicOutput(path)
    output.write(text)
    output.commit()


def _check_output_path(path: str) -> None:
    import os

    from xdsl_gpu.diagnostics import UserError

    if "\0" in path:
        raise UserError(f"cannot write '{path!r}': a file name cannot contain NUL")
    directory = os.path.dirname(os.path.abspath(path)) or "."
    if os.path.isdir(path):
        raise UserError(f"cannot write output to '{path}': it is a directory")
    if not os.path.isdir(directory):
        raise UserError(
            f"cannot write output to '{path}': the directory '{directory}' does not "
            "exist; create it first"
        )
    if not os.access(directory, os.W_OK | os.X_OK):
        raise UserError(
            f"cannot write output to '{path}': no permission to write in '{directory}'"
        )
    if len(os.path.basename(path).encode()) > 255:
        raise UserError(
            f"cannot write output to '{path[:40]}...': the name is too long"
        )


def read_input_file(path: str) -> bytes:
    """The bytes of the input file ``path``, UTF-8 checked, or a :class:`UserError`
    that says what is wrong with it (missing, a directory, unreadable, binary)."""
    import os

    from xdsl_gpu.diagnostics import UserError

    if "\0" in path:
        raise UserError(f"cannot read {path!r}: a file name cannot contain NUL")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise UserError(f"cannot read '{path}': no such file") from None
    except IsADirectoryError:
        raise UserError(
            f"cannot read '{path}': it is a directory, not a file"
        ) from None
    except OSError as e:
        reason = e.strerror or str(e)
        raise UserError(f"cannot read '{path[:200]}': {reason.lower()}") from None
    check_utf8_text(data, path if os.path.basename(path) else "input")
    return data


def check_utf8_text(data: bytes, name: str) -> None:
    """Raise a :class:`UserError` at the first byte of ``data`` that is not UTF-8 (a
    binary such as a cubin given as IR, or text in another encoding)."""
    from xdsl_gpu.diagnostics import UserError

    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        what = "a binary file" if b"\0" in data[:4096] else "not UTF-8 text"
        raise UserError(
            f"{name}:{line}:{column}: the input is {what} (byte 0x{data[e.start]:02x} "
            "cannot be decoded as UTF-8); xdsl-opt reads MLIR text"
        ) from None


def safe_opt_files() -> None:
    """Make ``xdsl-opt`` read its input whole and check it first (a missing file, a
    directory or a binary give a diagnostic, not a traceback) and write ``-o`` only
    when the run succeeds, atomically. xDSL opens the output with ``open(path, "w")``
    before reading the input: ``-o in.mlir`` truncated the input, and a failing run
    left an empty output behind."""
    from xdsl.xdsl_opt_main import xDSLOptMain

    for name in ("get_input_stream", "prepare_output", "run"):
        if not callable(getattr(xDSLOptMain, name, None)):
            raise XdslChangedError(f"xdsl.xdsl_opt_main.xDSLOptMain.{name} is gone")
    get_input_stream = xDSLOptMain.get_input_stream
    prepare_output = xDSLOptMain.prepare_output
    run = xDSLOptMain.run
    if is_patched(run, "xdsl_gpu_safe_files"):
        return

    def get_checked_input_stream(self: Any) -> tuple[Any, str]:
        path = getattr(self.args, "input_file", None)
        if path is None:
            return get_input_stream(self)
        import os

        from xdsl_gpu.diagnostics import UserError

        data = read_input_file(path)
        extension = getattr(self.args, "frontend", None) or os.path.splitext(path)[
            1
        ].replace(".", "")
        if not extension:  # /dev/null, a file without extension: MLIR, as mlir-opt
            extension = "mlir"
        if extension not in self.available_frontends:
            raise UserError(
                f"cannot tell how to read '{path}' from its extension '.{extension}': "
                f"xdsl-opt reads {', '.join('.' + f for f in self.available_frontends)}"
                " (choose one with -f)"
            )
        return io.BytesIO(data), extension

    def prepare_atomic_output(self: Any) -> Any:
        path = getattr(self.args, "output_file", None)
        if path is None:
            return prepare_output(self)
        _check_output_path(path)
        output = _AtomicOutput(path)
        self.__dict__.setdefault("_xdsl_gpu_outputs", []).append(output)
        return output

    def run_then_commit(self: Any) -> Any:
        import gc

        result = run(self)
        for output in self.__dict__.pop("_xdsl_gpu_outputs", []):
            output.commit()
        # The run is over: spare the interpreter's exit a full collection of the
        # whole IR (~0.1 s of a seed-002 compile).
        gc.freeze()
        return result

    _mark(get_checked_input_stream, "xdsl_gpu_safe_files", get_input_stream)
    _mark(prepare_atomic_output, "xdsl_gpu_safe_files", prepare_output)
    _mark(run_then_commit, "xdsl_gpu_safe_files", run)
    xDSLOptMain.get_input_stream = get_checked_input_stream  # type: ignore[method-assign]
    xDSLOptMain.prepare_output = prepare_atomic_output  # type: ignore[method-assign]
    xDSLOptMain.run = run_then_commit  # type: ignore[method-assign]


# -- 10. no input ends in a traceback --------------------------------------------------


class InternalParseError(ParseError):
    """Parsing an op raised an exception that is not a diagnostic: a fault of the
    parser (xDSL's or ours) on input it did not foresee, reported at the op."""


class InternalVerifyError(VerifyException):
    """An op's verifier raised an exception that is not a diagnostic."""


class InternalPassError(DiagnosticException):
    """A pass raised an exception that is not a diagnostic."""


def _is_bad_value(error: Exception) -> bool:
    """A range or validity check of a value (``ValueError`` from an attribute's
    constructor, ``OverflowError`` from packing a number, a bare ``Exception`` as some
    of xDSL's code raises): the input's fault, reported as a plain parse error."""
    if isinstance(error, UnicodeError):
        return False
    return isinstance(error, ValueError | OverflowError) or type(error) is Exception


def _range_message(error: Exception) -> str:
    if isinstance(error, OverflowError):
        return f"a number does not fit its type ({error})"
    return str(error)


def _described(error: BaseException) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def diagnose_internal_errors() -> None:
    """Turn an exception that xDSL's or our parsers, verifiers or passes raise on
    input they did not foresee into a diagnostic at the op (the command-line tools
    print it with ``file:line:col``, exit status 1), instead of a traceback. A
    ``ValueError`` while parsing is a range or validity check of an attribute, and is
    reported as a plain parse error; everything else says that it is a fault of the
    tool (``tools/fuzz.py`` counts those as failures to fix)."""
    from xdsl.parser import Parser
    from xdsl.passes import PassPipeline
    from xdsl.utils.exceptions import ParseError

    parse_operation_ = Parser.__dict__.get("parse_operation")
    verify_ = Operation.__dict__.get("verify")
    apply_ = PassPipeline.__dict__.get("apply")
    if not callable(parse_operation_) or not callable(verify_) or not callable(apply_):
        raise XdslChangedError("Parser.parse_operation, Operation.verify or "
                               "PassPipeline.apply is gone")  # fmt: skip
    if is_patched(parse_operation_, "xdsl_gpu_internal"):
        return

    def parse_operation(self: Parser) -> Operation:
        start = getattr(getattr(self, "_current_token", None), "span", None)
        try:
            return cast(Operation, parse_operation_(self))
        except ParseError:
            raise
        except DiagnosticException as error:  # e.g. the op's constraints, checked
            # while it is built: the same exception (``--verify-diagnostics`` prints
            # it), with the place of the op for the command-line diagnostic.
            if start is not None and not hasattr(error, "parse_span"):
                import dataclasses

                offset = CHUNK_LINE_OFFSET.get()
                error.parse_span = dataclasses.replace(start, line_offset=offset)  # type: ignore[attr-defined]
            raise
        except Exception as error:
            if start is None:
                raise
            if _is_bad_value(error):
                raise ParseError(start, _range_message(error)) from None
            raise InternalParseError(
                start, f"xdsl-gpu could not parse this op ({_described(error)}); "
                "please report it with this input",
            ) from error  # fmt: skip

    def verify(self: Operation, verify_nested_ops: bool = True) -> None:
        try:
            verify_(self, verify_nested_ops)
        except DiagnosticException:
            raise
        except Exception as error:
            if type(error) is Exception:  # how some of xDSL's verifiers report
                problem = VerifyException(str(error))
                self.emit_error(str(problem), problem)
            problem = InternalVerifyError(
                f"'{self.name}' op could not be verified ({_described(error)}); "
                "please report it with this input"
            )
            problem.__cause__ = error  # for tools/fuzz.py; users see the message
            self.emit_error(str(problem), problem)

    def apply(self: Any, ctx: Any, op: Any) -> None:
        import dataclasses

        # xDSL's own loop runs, with its callback wrapped to know which pass is next.
        running: list[Any] = [self.passes[0] if self.passes else None]
        callback = self.callback

        def track(previous: Any, module: Any, following: Any) -> None:
            running[0] = following
            if callback is not None:
                callback(previous, module, following)

        try:
            apply_(dataclasses.replace(self, callback=track), ctx, op)
        except DiagnosticException:
            raise
        except Exception as error:
            name = getattr(running[0], "name", "?")
            raise InternalPassError(
                f"pass '{name}' failed ({_described(error)}); this is a fault of the "
                "pass, please report it with this input"
            ) from error

    from xdsl.xdsl_opt_main import xDSLOptMain

    output_ = xDSLOptMain.__dict__.get("output_resulting_program")
    if not callable(output_):
        raise XdslChangedError("xDSLOptMain.output_resulting_program is gone")

    def output_resulting_program(self: Any, prog: Any) -> str:
        try:
            return cast(str, output_(self, prog))
        except (ParseError, DiagnosticException):
            raise
        except Exception as error:
            target = getattr(self.args, "target", "?")
            raise InternalPassError(
                f"target '{target}' failed ({_described(error)}); this is a fault of "
                "the target, please report it with this input"
            ) from error

    _mark(output_resulting_program, "xdsl_gpu_internal", output_)
    xDSLOptMain.output_resulting_program = output_resulting_program  # type: ignore[method-assign]
    _mark(parse_operation, "xdsl_gpu_internal", parse_operation_)
    _mark(verify, "xdsl_gpu_internal", verify_)
    _mark(apply, "xdsl_gpu_internal", apply_)
    Parser.parse_operation = parse_operation  # type: ignore[method-assign]
    Operation.verify = verify  # type: ignore[method-assign]
    PassPipeline.apply = apply  # type: ignore[method-assign]


def linear_string_literals() -> None:
    """Lex string literals in linear time. xDSL's pattern nests a ``+`` inside a
    ``*``: on a string left open on its line it backtracks exponentially, so a
    missing quote hangs ``xdsl-opt``. The replacement matches the same strings one
    character at a time."""
    from xdsl.utils.mlir_lexer import MLIRLexer

    current = getattr(MLIRLexer, "_unescaped_characters_regex", None)
    if not isinstance(current, re.Pattern):
        raise XdslChangedError("MLIRLexer._unescaped_characters_regex is gone")
    if current.pattern == _LINEAR_STRING.pattern:
        return
    if current.pattern != _XDSL_STRING:
        raise XdslChangedError("MLIRLexer's string-literal pattern changed")
    MLIRLexer._unescaped_characters_regex = _LINEAR_STRING  # type: ignore[misc]


_XDSL_STRING = r'"(?:[^"\\\n\v\f]+|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
_LINEAR_STRING = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


# -- 11. upstream's printed forms that xDSL's parsers refuse ----------------------------


def upstream_scf_while_syntax() -> None:
    """Read ``scf.while : () -> () { ... } do { ... }``, the form MLIR prints for a
    loop without operands (upstream's integration programs use it); xDSL's parser
    wants ``scf.while () : () -> ()`` ("'(' expected"). Every form xDSL reads is read
    as before, and it still prints its own (which MLIR reads too)."""
    from xdsl.dialects.scf import WhileOp

    current = WhileOp.__dict__.get("parse")
    if not isinstance(current, classmethod):
        raise XdslChangedError("xdsl.dialects.scf.WhileOp.parse is gone")
    parse = current.__func__
    if is_patched(parse, "xdsl_gpu_upstream_syntax"):
        return

    def parse_without_operands(cls: Any, parser: Any) -> Any:
        if parser.parse_optional_punctuation(":") is None:
            return parse(cls, parser)
        where = parser.pos
        function_type = parser.parse_function_type()
        if function_type.inputs.data:
            parser.raise_error(
                "expected '(' and the loop's initial values before the type: "
                f"the loop takes {len(function_type.inputs.data)} operands",
                where,
                parser.pos,
            )
        before = parser.parse_region()
        parser.parse_characters("do")
        after = parser.parse_region()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls((), function_type.outputs.data, before, after)
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    _mark(parse_without_operands, "xdsl_gpu_upstream_syntax", parse)
    WhileOp.parse = classmethod(parse_without_operands)  # type: ignore[method-assign,assignment]


def hex_floats_in_dense_literals() -> None:
    """Read a hexadecimal literal in a ``dense<...>`` of floats as the bit pattern of
    the element, as MLIR does (``dense<0x7FC00000> : tensor<2xf32>`` is a NaN;
    mlir-opt prints inexact f64 constants that way). xDSL reads it as an integer
    value, so ``0x7FC00000`` became the float 2143289344.0: a silent miscompile. A
    pattern wider than the element is a parse error, as in MLIR."""
    import struct

    from xdsl.dialects.builtin import AnyFloat
    from xdsl.parser.attribute_parser import AttrParser

    element = AttrParser._TensorLiteralElement  # pyright: ignore[reportPrivateUsage]
    current = element.__dict__.get("to_type")
    if not callable(current):
        raise XdslChangedError("AttrParser._TensorLiteralElement.to_type is gone")
    if is_patched(current, "xdsl_gpu_hex_floats"):
        return

    def to_type(self: Any, parser: Any, type: Any) -> Any:
        text = self.span.text.lstrip("-")
        if not (isinstance(type, AnyFloat) and text[:2] in ("0x", "0X")):
            return current(self, parser, type)
        bits, width = int(text, 16), type.bitwidth
        if self.is_negative or bits >> width:
            parser.raise_error(
                f"hexadecimal float constant out of range for type {type}",
                at_position=self.span,
            )
        formats = {16: "<e", 32: "<f", 64: "<d"}
        if type.name == "bf16":
            return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
        if width not in formats:
            parser.raise_error(
                f"a hexadecimal {type} constant is not supported here",
                at_position=self.span,
            )
        raw = bits.to_bytes(width // 8, "little")
        return struct.unpack(formats[width], raw)[0]

    _mark(to_type, "xdsl_gpu_hex_floats", current)
    element.to_type = to_type  # type: ignore[method-assign]


def upstream_command_lines() -> None:
    """Give ``xdsl-opt`` mlir-opt's way of naming passes on the command line, so
    that upstream's commands work with only the tool's name changed:
    ``--pass-pipeline="builtin.module(...)"``, one flag per pass
    (``-gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80"``,
    ``--gpu-kernel-outlining``), ``--mlir-print-ir-after-all`` and ``--mlir-timing``
    (xDSL's ``--print-between-passes`` and ``--time-passes``). They add to ``-p``, in
    this order: ``-p``, ``--pass-pipeline``, the pass flags as given."""
    import argparse

    from xdsl.xdsl_opt_main import xDSLOptMain

    register = xDSLOptMain.__dict__.get("register_all_arguments")
    setup = xDSLOptMain.__dict__.get("setup_pipeline")
    if not callable(register) or not callable(setup):
        raise XdslChangedError(
            "xDSLOptMain.register_all_arguments or setup_pipeline is gone"
        )
    if is_patched(register, "xdsl_gpu_command_lines"):
        return

    class PassFlag(argparse.Action):
        def __call__(
            self, parser: Any, namespace: Any, values: Any, option: Any = None
        ):
            flags = getattr(namespace, "mlir_pass_flags", None) or []
            options = values if isinstance(values, str) else ""
            flags.append(f"{self.metavar}{{{options}}}" if options else self.metavar)
            namespace.mlir_pass_flags = flags

    def register_all_arguments(self: Any, arg_parser: argparse.ArgumentParser) -> None:
        register(self, arg_parser)
        arg_parser.add_argument(
            "--pass-pipeline",
            dest="mlir_pass_pipeline",
            default="",
            help="a pass pipeline as mlir-opt writes it (added after -p)",
        )
        arg_parser.set_defaults(mlir_pass_flags=[])
        for alias, dest in (
            ("--mlir-print-ir-after-all", "print_between_passes"),
            ("--mlir-timing", "time_passes"),
        ):
            arg_parser.add_argument(
                alias, dest=dest, action="store_true", help=argparse.SUPPRESS
            )
        taken = set(arg_parser._option_string_actions)  # pyright: ignore[reportPrivateUsage]
        for name in self.available_passes:
            flags = [f for f in (f"-{name}", f"--{name}") if f not in taken]
            if len(flags) == 2:
                arg_parser.add_argument(
                    *flags, nargs="?", const=None, metavar=name, action=PassFlag,
                    help=argparse.SUPPRESS,
                )  # fmt: skip

    def setup_pipeline(self: Any) -> None:
        parts = [
            self.args.passes,
            getattr(self.args, "mlir_pass_pipeline", ""),
            *getattr(self.args, "mlir_pass_flags", []),
        ]
        self.args.passes = ",".join(part for part in parts if part)
        setup(self)

    _mark(register_all_arguments, "xdsl_gpu_command_lines", register)
    _mark(setup_pipeline, "xdsl_gpu_command_lines", setup)
    xDSLOptMain.register_all_arguments = register_all_arguments  # type: ignore[method-assign]
    xDSLOptMain.setup_pipeline = setup_pipeline  # type: ignore[method-assign]


def dialects_chosen_per_run(
    add_arguments: Callable[[Any], None],
    choose: Callable[[Any], None],
    settle: Callable[[Any], None],
) -> None:
    """Give ``xdsl-opt`` a moment, once its arguments are read and before its pass
    pipeline is built or its input parsed, where xdsl-gpu chooses between xDSL's own
    dialects and passes and ours for the run (``choose(main)``), one once the
    pipeline is built (``settle(main)``), and a place for the flag that forces ours
    (``add_arguments(arg_parser)``). xDSL reads a plugin's dialects and passes once,
    when the main starts, and keeps one entry per name."""
    from xdsl.xdsl_opt_main import xDSLOptMain

    register = xDSLOptMain.__dict__.get("register_all_arguments")
    setup = xDSLOptMain.__dict__.get("setup_pipeline")
    if not callable(register) or not callable(setup):
        raise XdslChangedError(
            "xDSLOptMain.register_all_arguments or setup_pipeline is gone"
        )
    if is_patched(setup, "xdsl_gpu_dialect_choice"):
        return

    def register_all_arguments(self: Any, arg_parser: Any) -> None:
        register(self, arg_parser)
        add_arguments(arg_parser)

    def setup_pipeline(self: Any) -> None:
        choose(self)
        setup(self)
        settle(self)

    _mark(register_all_arguments, "xdsl_gpu_dialect_choice", register)
    _mark(setup_pipeline, "xdsl_gpu_dialect_choice", setup)
    xDSLOptMain.register_all_arguments = register_all_arguments  # type: ignore[method-assign]
    xDSLOptMain.setup_pipeline = setup_pipeline  # type: ignore[method-assign]


DENSE_ELEMENT_LIMIT = 1 << 24
"""The most elements a ``dense<...>`` may have here (2^24, 16M)."""


def bounded_dense_literals() -> None:
    """Refuse a ``dense<...>`` of more than :data:`DENSE_ELEMENT_LIMIT` elements with
    a diagnostic. MLIR keeps a splat as one value; xDSL expands it into a Python list,
    so ``dense<1> : vector<2147483647xi32>`` ran out of time and memory."""
    import math

    from xdsl.parser.attribute_parser import AttrParser

    parse_type = AttrParser.__dict__.get("_parse_dense_literal_type")
    parse_dense = AttrParser.__dict__.get("parse_dense_int_or_fp_elements_attr")
    if not callable(parse_type) or not callable(parse_dense):
        raise XdslChangedError("AttrParser's dense literal parsing is gone")
    if is_patched(parse_type, "xdsl_gpu_bounded_dense"):
        return

    def check(parser: Any, type: Any, where: Any = None) -> None:
        count = math.prod(type.get_shape())
        if count > DENSE_ELEMENT_LIMIT:
            parser.raise_error(
                f"a dense attribute of {count} elements ({type}) is larger than "
                f"xdsl-gpu handles ({DENSE_ELEMENT_LIMIT} elements): xDSL stores every "
                "element; give the data in a smaller attribute or as a file",
                *(() if where is None else (where, parser.pos)),
            )

    def _parse_dense_literal_type(self: Any) -> Any:
        where = self.pos
        type = parse_type(self)
        check(self, type, where)
        return type

    def parse_dense_int_or_fp_elements_attr(self: Any, type: Any) -> Any:
        if type is not None:
            check(self, type)
        return parse_dense(self, type)

    _mark(_parse_dense_literal_type, "xdsl_gpu_bounded_dense", parse_type)
    _mark(parse_dense_int_or_fp_elements_attr, "xdsl_gpu_bounded_dense", parse_dense)
    AttrParser._parse_dense_literal_type = _parse_dense_literal_type  # type: ignore[method-assign]
    AttrParser.parse_dense_int_or_fp_elements_attr = parse_dense_int_or_fp_elements_attr  # type: ignore[method-assign]


def block_redeclaration_after_forward_use() -> None:
    """Report a block label defined twice after a branch used it first
    (``cf.br ^bb2`` ... ``^bb2:`` ... ``^bb2:``) as MLIR does, "re-declaration of
    block". xDSL's parser forgets the first definition of a forward-referenced block
    and fails on the second with a ``KeyError``."""
    from xdsl.parser import Parser

    current = Parser.__dict__.get("_parse_block")
    if not callable(current):
        raise XdslChangedError("xdsl.parser.Parser._parse_block is gone")
    if is_patched(current, "xdsl_gpu_block_labels"):
        return

    def _parse_block(self: Any) -> Any:
        token = getattr(self, "_current_token", None)
        try:
            return current(self)
        except KeyError:
            if token is None:
                raise
            raise ParseError(
                token.span, f"re-declaration of block '{token.text[1:]}'"
            ) from None

    _mark(_parse_block, "xdsl_gpu_block_labels", current)
    Parser._parse_block = _parse_block  # type: ignore[method-assign]


def empty_input_is_an_empty_module() -> None:
    """Read an input without operations (an empty file, only comments or aliases)
    as an empty module, as MLIR does (``mlir-opt /dev/null`` prints ``module {}``).
    xDSL reports "Could not parse entire input!" at its end."""
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.parser import Parser
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    current = Parser.__dict__.get("parse_module")
    if not callable(current):
        raise XdslChangedError("xdsl.parser.Parser.parse_module is gone")
    if is_patched(current, "xdsl_gpu_empty_input"):
        return

    def parse_module(self: Any, allow_implicit_module: bool = True) -> Any:
        try:
            return current(self, allow_implicit_module)
        except ParseError as error:
            token = getattr(self, "_current_token", None)
            if (
                "Could not parse entire input!" not in str(error)
                or not allow_implicit_module
                or token is None
                or token.kind != MLIRTokenKind.EOF
                or getattr(self, "forward_ssa_references", None)
            ):
                raise
            return ModuleOp([])

    _mark(parse_module, "xdsl_gpu_empty_input", current)
    Parser.parse_module = parse_module  # type: ignore[method-assign]


def llvm_constant_keeps_its_type() -> None:
    """Print ``llvm.mlir.constant(1 : index) : i64`` as written. xDSL leaves out the
    value's type whenever the *result* is ``i64`` (``(1) : i64``), which turns an
    ``index`` value into an ``i64`` one when the text is read back; like MLIR, only
    an ``i64`` value is printed without its type."""
    from xdsl.dialects.builtin import IntegerAttr, i64
    from xdsl.dialects.llvm import ConstantOp

    current = ConstantOp.__dict__.get("print")
    if not callable(current):
        raise XdslChangedError("xdsl.dialects.llvm.ConstantOp.print is gone")
    if is_patched(current, "xdsl_gpu_constant_type"):
        return

    def print_constant(self: Any, printer: Any) -> None:
        value = self.value
        if isinstance(value, IntegerAttr) and value.type != i64:
            with printer.in_parens():
                printer.print_attribute(value)
            printer.print_string(" : ")
            printer.print_attribute(self.result.type)
            return
        current(self, printer)

    _mark(print_constant, "xdsl_gpu_constant_type", current)
    ConstantOp.print = print_constant  # type: ignore[method-assign]


def xdsl_dispatch_follows_subclasses(classes: Any) -> None:
    """Let xDSL's code that looks ops up by their exact class serve our subclasses
    of its ops: ``xdsl-run``'s interpreter (it falls back along the op's MRO) and
    the tables of the ``-t llvm`` backend (each of ``classes`` gets the entry of the
    xDSL class it extends). xDSL has no extension point for either."""
    from xdsl.backend.llvm import convert_op
    from xdsl.interpreter import (
        _InterpreterFunctionImpls,  # pyright: ignore[reportPrivateUsage]
    )

    tables = [
        getattr(convert_op, name, None)
        for name in (
            "_BINARY_OP_MAP", "_CAST_OP_NAMES", "_UNARY_INTRINSIC_MAP",
            "_BINARY_INTRINSIC_MAP", "_VECTOR_REDUCE_INTRINSIC_MAP",
        )
    ]  # fmt: skip
    if not all(isinstance(table, dict) for table in tables):
        raise XdslChangedError("xdsl.backend.llvm.convert_op's op tables changed")
    for table in tables:
        assert isinstance(table, dict)
        for cls in classes:
            if cls in table:
                continue
            base = next((b for b in cls.__mro__[1:] if b in table), None)
            if base is not None:
                table[cls] = table[base]

    run = _InterpreterFunctionImpls.__dict__.get("run")
    if not callable(run):
        raise XdslChangedError("xdsl.interpreter._InterpreterFunctionImpls.run is gone")
    if is_patched(run, "xdsl_gpu_dispatch"):
        return

    def run_by_mro(self: Any, interpreter: Any, op: Operation, args: Any) -> Any:
        impls = self._impl_dict
        kind = type(op)
        if kind not in impls:
            base = next((b for b in kind.__mro__[1:] if b in impls), None)
            if base is not None:
                impls[kind] = impls[base]
        return run(self, interpreter, op, args)

    _mark(run_by_mro, "xdsl_gpu_dispatch", run)
    _InterpreterFunctionImpls.run = run_by_mro  # type: ignore[method-assign]


# -- 12. start-up and linear cost (issue 16) --------------------------------------------


def lazy_assembly_formats() -> None:
    """Parse an op's declarative assembly format when an op of that class is first
    parsed or printed, instead of when the class is defined: xdsl-opt defines about
    600 op classes per run and parsing their formats is ~90 ms of its start-up. A
    malformed format still raises ``PyRDLOpDefinitionError``, at first use (the
    test suite parses every format of xdsl-gpu's dialects)."""
    from xdsl.irdl.declarative_assembly_format import FormatProgram
    from xdsl.utils.exceptions import PyRDLOpDefinitionError

    from_str_ = FormatProgram.__dict__.get("from_str")
    if not isinstance(from_str_, staticmethod):
        raise XdslChangedError("FormatProgram.from_str is no longer a staticmethod")
    from_str = from_str_.__func__
    if is_patched(from_str, "xdsl_gpu_lazy_formats"):
        return

    class LazyFormatProgram:
        """A ``FormatProgram`` parsed on first use."""

        __slots__ = ("_op_def", "_program", "_text")

        def __init__(self, text: str, op_def: Any) -> None:
            self._text = text
            self._op_def = op_def
            self._program: Any = None

        def program(self) -> Any:
            if self._program is None:
                try:
                    self._program = from_str(self._text, self._op_def)
                except ParseError as e:
                    raise PyRDLOpDefinitionError(
                        "Error during the parsing of the assembly format: ", e.args
                    ) from e
            return self._program

        def parse(self, parser: Any, op_type: Any) -> Any:
            return self.program().parse(parser, op_type)

        def print(self, printer: Any, op: Any) -> Any:
            return self.program().print(printer, op)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.program(), name)

    def lazy_from_str(input: str, op_def: Any) -> Any:
        return LazyFormatProgram(input, op_def)

    _mark(lazy_from_str, "xdsl_gpu_lazy_formats", from_str)
    FormatProgram.from_str = staticmethod(lazy_from_str)  # type: ignore[method-assign]


def parse_lazy_formats(operations: Iterable[type[Operation]]) -> int:
    """Parse now the lazy assembly formats (:func:`lazy_assembly_formats`) of
    ``operations``; how many there were. For a process that pays its start-up once
    and serves many runs (the compile server). A malformed format raises
    ``PyRDLOpDefinitionError``."""
    parsed = 0
    for op in operations:
        parse = getattr(op, "parse", None)
        function = getattr(parse, "__func__", parse)
        for cell in getattr(function, "__closure__", None) or ():
            try:
                contents = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if callable(getattr(contents, "program", None)):
                contents.program()
                parsed += 1
    return parsed


def indexed_symbol_lookup() -> None:
    """``SymbolTable.lookup_symbol`` through an index of each symbol table's block
    (name -> op) instead of a scan of the block per lookup: verifying a module with n
    calls and n functions was O(n^2) (64 copies of seed 002, 192 gpu.modules: seconds
    in llvm.call's and gpu.launch_func's verifiers). An indexed answer is checked
    (the op is still in that block under that name) and the index rebuilt when it
    is stale or has no answer, so the result is the scan's, except that with two
    ops of one name (IR that does not verify) it may be either of them."""
    from weakref import WeakKeyDictionary

    from xdsl.dialects.builtin import SymbolRefAttr
    from xdsl.traits import SymbolOpInterface, SymbolTable

    lookup_ = SymbolTable.__dict__.get("lookup_symbol")
    if not isinstance(lookup_, staticmethod):
        raise XdslChangedError("SymbolTable.lookup_symbol is no longer a staticmethod")
    lookup = lookup_.__func__
    if is_patched(lookup, "xdsl_gpu_symbol_index"):
        return
    indexes: WeakKeyDictionary[Any, dict[str, Operation]] = WeakKeyDictionary()

    def symbol_of(op: Operation) -> StringAttr | None:
        interface = op.get_trait(SymbolOpInterface)
        return None if interface is None else interface.get_sym_attr_name(op)

    def find(block: Any, name: StringAttr) -> Operation | None:
        index = indexes.get(block)
        if index is not None:
            op = index.get(name.data)
            if op is not None and op.parent is block and symbol_of(op) == name:
                return op
        index = {}
        for o in block.ops:
            if (symbol := symbol_of(o)) is not None:
                index.setdefault(symbol.data, o)
        indexes[block] = index
        return index.get(name.data)

    def lookup_symbol(
        op: Operation, name: str | StringAttr | SymbolRefAttr
    ) -> Operation | None:
        anchor: Operation | None = op
        while anchor is not None and not anchor.has_trait(SymbolTable):
            anchor = anchor.parent_op()
        if anchor is None:
            return lookup(op, name)  # xDSL's error
        if isinstance(name, str | StringAttr):
            name = SymbolRefAttr(name)
        found = find(anchor.regions[0].block, name.root_reference)
        if found is None or not name.nested_references:
            return found
        nested_root, *nested = name.nested_references.data
        return lookup_symbol(found, SymbolRefAttr(nested_root, nested))

    _mark(lookup_symbol, "xdsl_gpu_symbol_index", lookup)
    SymbolTable.lookup_symbol = staticmethod(lookup_symbol)  # type: ignore[method-assign]


# -- the list ----------------------------------------------------------------------------

PATCHES: tuple[Patch, ...] = (
    Patch(
        "dialects_chosen_per_run",
        "Universe.get_multiverse() refuses a plugin that defines a dialect or pass "
        "name xDSL defines too, and xdsl-opt reads the plugins once, before its "
        "arguments: xdsl-gpu chooses per run between xDSL's gpu, llvm, arith, "
        "math, memref, vector, lower-affine, convert-scf-to-cf, "
        "reconcile-unrealized-casts and its own, so that a program that does not "
        "use xdsl-gpu runs as with xDSL alone.",
    ),
    Patch(
        "verify_dialect_attributes_with",
        "xDSL has no Dialect::verifyOperationAttribute: discardable gpu.* and nvvm.* "
        "attributes are checked by wrapping Operation.verify.",
    ),
    Patch(
        "remember_failing_ops",
        "xDSL's verification errors do not say which op failed, so diagnostics "
        "could not give its file:line:col.",
    ),
    Patch(
        "record_source_locations",
        "xDSL's parser leaves every op at loc(unknown); MLIR records file:line:col.",
    ),
    Patch(
        "fast_string_literals",
        "xDSL decodes string literals one character at a time in Python: seconds per "
        "megabyte of embedded GPU binary.",
    ),
    Patch(
        "semi_affine_expressions",
        "xDSL raises NotImplementedError for semi-affine products and divisions "
        "that MLIR accepts (seed 002's loop-to-GPU map).",
    ),
    Patch(
        "upstream_llvm_type_syntax",
        "xDSL prints types nested in llvm types fully qualified and flag lists "
        "without spaces; MLIR's printed form is the project's contract. This one "
        "changes what stock xDSL prints for llvm types and flags (both forms parse "
        "either way).",
    ),
    Patch(
        "upstream_pass_pipelines",
        "xDSL's pipeline parser reads neither MLIR's op anchors "
        "(builtin.module(gpu.module(...))) nor bare option values such as "
        "cubin-features=+ptx80, and reports an unknown pass or option as a bare "
        "ValueError (a traceback).",
    ),
    Patch(
        "safe_opt_files",
        "xdsl-opt opens -o for writing before it reads the input (-o in.mlir "
        "destroys the input; a failed run leaves an empty file) and lets a missing, "
        "binary or directory input end in a traceback.",
    ),
    Patch(
        "diagnose_internal_errors",
        "An exception that a parser, verifier or pass raises on input it did not "
        "foresee (AttributeError, an out-of-range ValueError, ...) ends xdsl-opt in "
        "a traceback.",
    ),
    Patch(
        "linear_string_literals",
        "xDSL's string-literal pattern backtracks exponentially on a string left "
        "open: a missing quote hangs xdsl-opt.",
    ),
    Patch(
        "upstream_scf_while_syntax",
        "xDSL's scf.while parser refuses `scf.while : () -> ()`, the form MLIR "
        "prints for a loop without operands.",
    ),
    Patch(
        "hex_floats_in_dense_literals",
        "xDSL reads a hexadecimal literal in a dense<...> of floats as an integer "
        "value instead of the element's bit pattern (a silent miscompile of what "
        "mlir-opt prints).",
    ),
    Patch(
        "upstream_command_lines",
        "xdsl-opt has no --pass-pipeline, no flag per pass "
        '(-gpu-lower-to-nvvm-pipeline="..."), no --mlir-print-ir-after-all or '
        "--mlir-timing: upstream's command lines fail.",
    ),
    Patch(
        "bounded_dense_literals",
        "xDSL expands a dense splat into one Python value per element: "
        "dense<1> : vector<2147483647xi32> never finishes.",
    ),
    Patch(
        "block_redeclaration_after_forward_use",
        "xDSL's parser fails with a KeyError on a block label defined twice after "
        "a branch used it first.",
    ),
    Patch(
        "empty_input_is_an_empty_module",
        "xDSL's parser refuses an input without operations (Could not parse entire "
        "input!); MLIR reads it as an empty module.",
    ),
    Patch(
        "llvm_constant_keeps_its_type",
        "xDSL prints llvm.mlir.constant(1 : index) : i64 as (1) : i64, which reads "
        "back as an i64 value.",
    ),
    Patch(
        "xdsl_dispatch_follows_subclasses",
        "xdsl-run's interpreter and the -t llvm backend look ops up by exact class "
        "with no extension point, so our subclasses of xDSL's ops are unknown there.",
    ),
    Patch(
        "lazy_assembly_formats",
        "xDSL parses every op's declarative assembly format when the class is "
        "defined: about 600 formats, ~90 ms of every xdsl-opt start.",
    ),
    Patch(
        "indexed_symbol_lookup",
        "SymbolTable.lookup_symbol scans the table's block on every lookup: "
        "verifying n calls to n functions is quadratic (seconds at 192 gpu.modules).",
    ),
    Patch(
        "replace_context_dialect",
        "Context.register_dialect refuses a second registration of a name and has "
        "no way to replace one: register_dialects(ctx) puts our gpu, llvm, arith, "
        "math, memref in place of xDSL's in a user's Context.",
    ),
)
"""Every patch of this module, with the test of the gap it fills."""
