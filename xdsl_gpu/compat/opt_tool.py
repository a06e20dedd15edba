"""``xdsl-opt`` as a user meets it: never a lost file, never a traceback,
mlir-opt's command lines, and the choice of dialects per run."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable
from typing import Any, cast

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched
from xdsl_gpu.compat.locations import CHUNK_LINE_OFFSET, offset_split_input_chunks


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
        from xdsl_gpu.diagnostics import UserError

        try:
            self._commit()
        except OSError as error:
            # A place that accepts no new file (a read-only or virtual file system,
            # -o /proc/version, -o /sys/x.mlir), a full disk: the run's output is
            # not written, and the target is as it was.
            reason = (error.strerror or str(error)).lower()
            if isinstance(error, FileNotFoundError):  # /proc: no new files at all
                reason = "the file system there takes no new files"
            raise UserError(
                f"cannot write output to '{self.path}': {reason}; choose another "
                "place with -o"
            ) from None

    def _commit(self) -> None:
        import errno
        import os
        import stat
        import tempfile

        real = os.path.realpath(self.path)
        if os.path.islink(real):  # a loop of links: realpath stopped on one
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), self.path)
        if _is_special(self.path) or (
            os.path.exists(real) and not stat.S_ISREG(os.stat(real).st_mode)
        ):
            # A device, FIFO or socket (-o /dev/null), or a name in /dev or /proc
            # for an open file (-o /dev/stdout, a link to the shell's redirection):
            # renaming a file over it would replace the node or the link itself.
            with open(self.path, "w", encoding="utf-8") as out:
                out.write(self.getvalue())
            super().close()
            return
        # A symbolic link stays one: the file it points to is replaced.
        directory = os.path.dirname(real)
        descriptor, temporary = tempfile.mkstemp(
            dir=directory, prefix=f".{os.path.basename(real)}.", suffix=".tmp"
        )
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as out:
                out.write(self.getvalue())
            if os.path.exists(real):
                mode = os.stat(real).st_mode & 0o7777
            else:  # as open() makes it (mkstemp's file is private: 0600)
                mode = 0o666 & ~_umask()
            os.chmod(temporary, mode)
            os.replace(temporary, real)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        super().close()


def _is_special(path: str) -> bool:
    """Whether ``path`` names something in ``/dev`` or ``/proc`` (``/dev/stdout``,
    ``/dev/fd/1``, ``/proc/self/fd/1``): an open file of this process rather than a
    place to put a new one, whatever it resolves to."""
    import os

    absolute = os.path.abspath(path)
    return absolute.startswith(("/dev/", "/proc/"))


def _umask() -> int:
    """This process's umask (read by setting it, then putting it back)."""
    import os

    mask = os.umask(0o022)
    os.umask(mask)
    return mask


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


READ_AHEAD: dict[str, bytes] = {}
"""Input that was read before the run reads it (the dialect choice looks at the
program first) from a file that can be read only once (``/dev/stdin`` from a pipe,
a shell's ``<(...)``): :func:`read_input_file` takes it from here."""


def read_input_file(path: str) -> bytes:
    """The bytes of the input file ``path``, UTF-8 checked, or a :class:`UserError`
    that says what is wrong with it (missing, a directory, unreadable, binary)."""
    import os

    from xdsl_gpu.diagnostics import UserError

    if "\0" in path:
        raise UserError(f"cannot read {path!r}: a file name cannot contain NUL")
    try:
        if (data := READ_AHEAD.pop(path, None)) is None:
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


class InternalParseError(ParseError):
    """Parsing an op raised an exception that is not a diagnostic: a fault of the
    parser (xDSL's or ours) on input it did not foresee, reported at the op."""


class InternalVerifyError(VerifyException):
    """An op's verifier raised an exception that is not a diagnostic."""


class InternalPassError(DiagnosticException):
    """A pass raised an exception that is not a diagnostic."""


def _at_redefinition(error: Exception, table: Operation) -> None:
    """xDSL's symbol table check raises ``Redefinition of symbol "g"`` about the
    table (often the implicit module, which has no location): point it at the
    second definition, in MLIR's words."""
    import re

    from xdsl.dialects.builtin import StringAttr

    message = str(getattr(error, "plain_message", error))
    match = re.fullmatch(r'Redefinition of symbol "(.*)"', message.strip(), re.S)
    if match is None or not table.regions or not table.regions[0].blocks:
        return
    name = match.group(1)
    seen = False
    for op in table.regions[0].blocks[0].ops:
        symbol = op.properties.get("sym_name") or op.attributes.get("sym_name")
        if isinstance(symbol, StringAttr) and symbol.data == name:
            if seen:
                error.failing_op = op  # type: ignore[attr-defined]
                error.plain_message = f"redefinition of symbol named '{name}'"  # type: ignore[attr-defined]
                return
            seen = True


def _op_being_printed(error: Exception) -> Operation | None:
    """The innermost op that xDSL's printer was printing when ``error`` was raised
    (a local ``op`` of a printer frame), or ``None``."""
    trace = error.__traceback__
    found: Operation | None = None
    while trace is not None:
        frame = trace.tb_frame
        if "printer" in frame.f_code.co_filename or frame.f_code.co_name == "print":
            candidate = frame.f_locals.get("op", frame.f_locals.get("self"))
            if isinstance(candidate, Operation):
                found = candidate
        trace = trace.tb_next
    return found


def _unlowered_op(error: Exception, program: Operation) -> Operation | None:
    """The op that xDSL's ``-t llvm`` stopped at when ``error`` is its "Conversion
    not implemented for op: NAME"; ``None`` for any other error."""
    import re

    match = re.fullmatch(r"Conversion not implemented for op: ([\w.$]+)", str(error))
    if not isinstance(error, NotImplementedError) or match is None:
        return None
    name = match.group(1)
    return next((op for op in program.walk() if op.name == name), None)


_RESULTS = re.compile(r"(?:%[\w$.-]+(?::\d+)?\s*,\s*)*%[\w$.-]+(?::\d+)?\s*=\s*")
"""The results an op's text starts with (``%0 = ``, ``%a, %b:2 = ``)."""


def _at_op_name(start: Any) -> Any:
    """The place of the op's name, after its results, where MLIR places an op
    (``start``: the span of the op's first token)."""
    from xdsl.utils.lexer import Span

    content = start.input.content
    if isinstance(content, str) and (found := _RESULTS.match(content, start.start)):
        return Span(found.end(), found.end(), start.input, start.line_offset)
    return start


def _is_bad_value(error: Exception) -> bool:
    """A range or validity check of a value (``ValueError`` from an attribute's
    constructor, ``OverflowError`` from packing a number, a bare ``Exception`` as some
    of xDSL's code raises): the input's fault, reported as a plain parse error."""
    import struct

    if isinstance(error, UnicodeError):
        return False
    return (
        isinstance(error, ValueError | OverflowError | struct.error)
        or type(error) is Exception
    )


def _in_xdsl_linalg_body(error: Exception) -> bool:
    """Whether ``error`` is an assertion of xDSL's linalg ops about the element
    types of their operands (``body_arg_types``)."""
    import traceback

    if not isinstance(error, AssertionError):
        return False
    frames = traceback.extract_tb(error.__traceback__)
    return any("xdsl/dialects/linalg" in f.filename.replace("\\", "/") for f in frames)


def _range_message(error: Exception) -> str:
    import struct

    if isinstance(error, OverflowError | struct.error):  # packing a number
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
    from xdsl.dialects.builtin import UnknownLoc
    from xdsl.parser import Parser
    from xdsl.passes import PassPipeline
    from xdsl.utils.exceptions import ParseError

    from xdsl_gpu.diagnostics import PARSED_AT

    parse_operation_ = Parser.__dict__.get("parse_operation")
    verify_ = Operation.__dict__.get("verify")
    apply_ = PassPipeline.__dict__.get("apply")
    if not callable(parse_operation_) or not callable(verify_) or not callable(apply_):
        raise XdslChangedError("Parser.parse_operation, Operation.verify or "
                               "PassPipeline.apply is gone")  # fmt: skip
    if is_patched(parse_operation_, "xdsl_gpu_internal"):
        return
    offset_split_input_chunks()  # the line of an op in a later chunk

    def parse_operation(self: Parser) -> Operation:
        start = getattr(getattr(self, "_current_token", None), "span", None)
        try:
            op = cast(Operation, parse_operation_(self))
            if start is not None and isinstance(op.location, UnknownLoc):
                # No location recorded (xDSL's own dialects): keep where the op
                # was for a diagnostic about it (diagnostics.PARSED_AT).
                setattr(op, PARSED_AT, (_at_op_name(start), CHUNK_LINE_OFFSET.get()))
            return op
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
            if _in_xdsl_linalg_body(error):
                # xDSL's linalg builds a contraction's body for inputs of the output's
                # element type only (compat.linalg_contractions_cast_inputs mends it
                # in runs with xdsl-gpu's dialects).
                raise ParseError(
                    start,
                    "xDSL's linalg cannot build this op's body for these element "
                    "types; --xdsl-gpu builds it as MLIR does, casting the inputs",
                ) from None
            raise InternalParseError(
                start, f"xdsl-gpu could not parse this op ({_described(error)}); "
                "please report it with this input",
            ) from error  # fmt: skip

    def verify(self: Operation, verify_nested_ops: bool = True) -> None:
        try:
            verify_(self, verify_nested_ops)
        except DiagnosticException as error:
            if not hasattr(error, "parse_span"):
                if not hasattr(error, "failing_op"):
                    # Raised by xDSL's checks of the op's regions and blocks (an
                    # empty block, a missing terminator), which name no op: it is
                    # about the innermost op being verified, reported at its place.
                    error.failing_op = self  # type: ignore[attr-defined]
                    error.plain_message = str(error)  # type: ignore[attr-defined]
                if getattr(error, "failing_op", None) is self:
                    # A symbol defined twice: at the second definition, as MLIR.
                    _at_redefinition(error, self)
            raise
        except Exception as error:
            if type(error) is Exception:  # how some of xDSL's verifiers report
                problem = VerifyException(str(error))
                self.emit_error(str(problem), problem)
            if "Forward declared values do not have an owner" in str(error):
                problem = VerifyException(
                    "uses a value that is never defined where it is visible (an SSA "
                    "value of another region, or one never defined)"
                )
                self.emit_error(str(problem), problem)
            if "Erased SSA value" in str(error):
                # xDSL's parser lets a value be used outside the region that defines
                # it (MLIR refuses that while parsing); a pass erased the definition.
                problem = VerifyException(
                    "uses a value whose definition a pass erased: the value is used "
                    "outside the region that defines it (a value is visible only in "
                    "the region of its definition and the regions nested in it)"
                )
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
            if (unlowered := _unlowered_op(error, prog)) is not None:
                # xDSL's -t llvm meets an op of a dialect it does not translate:
                # the input is not lowered yet, which is the user's to fix.
                from xdsl_gpu.diagnostics import UserError, at_op, lowering_hint

                raise at_op(
                    UserError(
                        f"'{unlowered.name}' op cannot be translated by -t {target}; "
                        f"{lowering_hint(unlowered.name)}"
                    ),
                    unlowered,
                ) from None
            printed = _op_being_printed(error)
            if printed is not None and not getattr(self, "xdsl_gpu_dialects", False):
                # xDSL's own dialects verify less than MLIR's: an op they let through
                # can break its own printer. Ours check it as MLIR 22 does.
                from xdsl_gpu.diagnostics import UserError, at_op

                raise at_op(
                    UserError(
                        f"'{printed.name}' op cannot be printed ({_described(error)}): "
                        f"it is not valid, and xDSL's own {printed.dialect_name()} "
                        "dialect does not check that; --xdsl-gpu checks it as MLIR 22 "
                        "does"
                    ),
                    printed,
                ) from None
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


def upstream_command_lines() -> None:
    """Give ``xdsl-opt`` mlir-opt's command lines, so that upstream's commands work
    with only the tool's name changed (:mod:`xdsl_gpu.compat.command_line`):
    ``--pass-pipeline="builtin.module(...)"``, one flag per pass
    (``-gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80"``,
    ``--gpu-kernel-outlining``), one dash or two, ``=`` values, ``llvm::cl``'s
    booleans, ``-o -``, and MLIR's names of xDSL's options (``-mlir-print-op-generic``,
    ``--mlir-print-ir-after-all``, ``--mlir-timing``...). The passes add to ``-p``, in
    this order: ``-p``, ``--pass-pipeline``, the pass flags as given. A bad argument
    is a one-line error (argparse prints its usage and exits with 2)."""
    import argparse
    import sys

    from xdsl.xdsl_opt_main import xDSLOptMain

    from xdsl_gpu.compat.command_line import CommandLineError, mlir_opt_arguments
    from xdsl_gpu.compat.debug_info import PRINT_LOCAL_SCOPE

    register, setup = _argument_and_pipeline_setup(xDSLOptMain)
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
        from xdsl_gpu.diagnostics import UserError

        register(self, arg_parser)
        arg_parser.add_argument(
            "--pass-pipeline",
            dest="mlir_pass_pipeline",
            default="",
            help="a pass pipeline as mlir-opt writes it (added after -p)",
        )
        arg_parser.add_argument(
            "--mlir-very-unsafe-disable-verifier-on-parsing",
            dest="disable_verifier_on_parsing",
            action="store_true",
            help="do not verify the input after parsing (passes still verify "
            "their output); printed, an invalid module is in the generic form",
        )
        arg_parser.add_argument(
            "--mlir-print-local-scope",
            dest="print_local_scope",
            action="store_true",
            help="with --print-debuginfo, print locations in place instead of as "
            "aliases defined after the module",
        )
        arg_parser.set_defaults(mlir_pass_flags=[])
        taken = set(arg_parser._option_string_actions)  # pyright: ignore[reportPrivateUsage]
        for name in self.available_passes:
            flags = [f for f in (f"-{name}", f"--{name}") if f not in taken]
            if len(flags) == 2:
                arg_parser.add_argument(
                    *flags, nargs="?", const=None, metavar=name, action=PassFlag,
                    help=argparse.SUPPRESS,
                )  # fmt: skip
        parse_known_args = arg_parser.parse_known_args

        def parse_mlir_opt_arguments(
            args: Any = None, namespace: Any = None
        ) -> tuple[argparse.Namespace, list[str]]:
            argv = list(sys.argv[1:] if args is None else args)
            try:
                argv = mlir_opt_arguments(
                    argv, arg_parser, self.available_passes, self.available_targets
                )
            except CommandLineError as error:
                raise UserError(str(error)) from None
            return parse_known_args(argv, namespace)

        def error(message: str) -> Any:
            raise UserError(message)

        # On this parser only, read when the arguments are parsed (after every
        # option is registered, --xdsl-gpu too).
        arg_parser.parse_known_args = parse_mlir_opt_arguments  # type: ignore[method-assign]
        arg_parser.error = error  # type: ignore[method-assign]

    def setup_pipeline(self: Any) -> None:
        parts = [
            self.args.passes,
            getattr(self.args, "mlir_pass_pipeline", ""),
            *getattr(self.args, "mlir_pass_flags", []),
        ]
        self.args.passes = ",".join(part for part in parts if part)
        PRINT_LOCAL_SCOPE.set(bool(getattr(self.args, "print_local_scope", False)))
        setup(self)
        if getattr(self.args, "disable_verifier_on_parsing", False):
            _skip_verification_after_parsing(self)

    _mark(register_all_arguments, "xdsl_gpu_command_lines", register)
    _mark(setup_pipeline, "xdsl_gpu_command_lines", setup)
    xDSLOptMain.register_all_arguments = register_all_arguments  # type: ignore[method-assign]
    xDSLOptMain.setup_pipeline = setup_pipeline  # type: ignore[method-assign]


def _skip_verification_after_parsing(main: Any) -> None:
    """mlir-opt's ``--mlir-very-unsafe-disable-verifier-on-parsing``: the pipeline's
    callback verifies the module before the first pass (previous pass None); that
    call runs with verification off. As MLIR's printer, a module that is not valid
    is printed in the generic form."""
    import dataclasses

    pipeline = main.pipeline
    callback = pipeline.callback
    if callback is None:
        return

    def after_parsing_unverified(previous: Any, module: Any, following: Any) -> None:
        if previous is not None:
            callback(previous, module, following)
            return
        disabled = main.args.disable_verify
        main.args.disable_verify = True
        try:
            callback(previous, module, following)
        finally:
            main.args.disable_verify = disabled

    main.pipeline = dataclasses.replace(pipeline, callback=after_parsing_unverified)
    output = main.output_resulting_program

    def output_resulting_program(prog: Any) -> str:
        if not main.args.print_op_generic:
            try:
                prog.verify()
            except DiagnosticException:
                main.args.print_op_generic = True
                try:
                    return cast(str, output(prog))
                finally:
                    main.args.print_op_generic = False
        return cast(str, output(prog))

    main.output_resulting_program = output_resulting_program


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

    register, setup = _argument_and_pipeline_setup(xDSLOptMain)
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


def _argument_and_pipeline_setup(main: type) -> tuple[Any, Any]:
    """xDSLOptMain's own ``register_all_arguments`` and ``setup_pipeline``, which
    the command-line patches wrap."""
    register = main.__dict__.get("register_all_arguments")
    setup = main.__dict__.get("setup_pipeline")
    if not callable(register) or not callable(setup):
        raise XdslChangedError(
            "xDSLOptMain.register_all_arguments or setup_pipeline is gone"
        )
    return register, setup
