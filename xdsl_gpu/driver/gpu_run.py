"""``xdsl-gpu-run``: run a GPU program, the analogue of ``mlir-runner`` with the CUDA
runtime library.

::

    xdsl-gpu-run program.mlir -e main --entry-point-result=void
    xdsl-gpu-run program.mlir --function=mul --input=8xf32=2 --input=8xf32=4

The second form calls a function with arguments, as IREE's ``iree-run-module`` does:
one ``--input=<shape>x<type>=<values>`` per argument (:func:`parse_input`), and prints
every result in the same notation (``8xf32=12 12 12 12 12 12 12 12``).

Steps: parse the input (a file or ``-`` for stdin); if it still has ops above the LLVM
level (``gpu.launch``, ``gpu.module`` with ``gpu.func``, ``func``, ``arith``...), lower
it with ``gpu-lower-to-nvvm-pipeline`` for the GPU found here (``cubin-chip`` = its
chip; ``--pipeline-options`` adds options); translate the host side with its binaries;
JIT it (global constructors load the GPU modules); call the entry; synchronize, which
flushes device ``printf``; run the destructors.

Output order: C's ``stdout`` is made line-buffered, so device ``printf`` lines (written
when the host synchronizes) and host ``printf`` lines reach the output in the order
they were produced, and the entry's result, printed by Python, comes after both.

Every failure (bad input, missing entry, no GPU, a CUDA error while running) is one
diagnostic on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import ctypes
import math
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AnyFloat,
    Float32Type,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import DiagnosticException, ParseError

from xdsl_gpu.diagnostics import UserError, user_error_text
from xdsl_gpu.gpu_dialect import llvm

TOOL = "xdsl-gpu-run"

RESULT_TYPES = {"void": "void", "i32": "i32", "i64": "i64", "f32": "float"}
"""``--entry-point-result`` values and the LLVM return type each one expects."""

CUDA_RUNTIME_LIBRARY_NAMES = ("mlir_cuda_runtime", "cuda-runtime-wrappers")
"""``--shared-libs`` entries that this runner replaces with its own runtime."""


class RunnerError(UserError):
    """A command-line or program problem, reported as one diagnostic."""


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=TOOL,
        description=(
            "Run a GPU program written in MLIR (gpu/llvm dialects) on this machine's "
            "NVIDIA GPU, like mlir-runner with the CUDA runtime. Programs with "
            "unlowered gpu ops are compiled with gpu-lower-to-nvvm-pipeline first."
        ),
    )
    parser.add_argument("input", nargs="?", default="-", help="MLIR file ('-': stdin)")
    parser.add_argument(
        "-e",
        "--function",
        dest="entry",
        default="main",
        help="the function to call (default: main)",
    )
    parser.add_argument(
        "--entry-point-result",
        "-entry-point-result",
        dest="result",
        default="f32",
        choices=sorted(RESULT_TYPES),
        action=_ResultAction,
        help=(
            "the entry's result type, printed after the run (default: f32); with "
            "--input the results are printed from the function's type instead"
        ),
    )
    parser.add_argument(
        "--input",
        dest="inputs",
        action="append",
        default=[],
        metavar="SPEC",
        help=(
            "one argument of the function, as in iree-run-module: "
            "<shape>x<type>=<values> for a memref (8xf32=2 fills all 8 elements; "
            "2x2xi32=1 2 3 4 gives each one), <type>=<value> for a scalar (i32=8), "
            "@file.npy for a NumPy file; repeat it per argument, in order"
        ),
    )
    parser.add_argument(
        "--shared-libs",
        "-shared-libs",
        dest="shared_libs",
        action="append",
        default=[],
        help=(
            "comma-separated libraries; MLIR's CUDA runtime wrappers are replaced by "
            "xdsl-gpu's own runtime; other libraries are loaded (MLIR's runner "
            "utilities, printMemrefF32..., are built in: a library that defines "
            "them is used instead)"
        ),
    )
    level = parser.add_mutually_exclusive_group()
    for n in range(4):
        level.add_argument(
            f"-O{n}", f"--O{n}", dest="opt_level", action="store_const", const=n,
            help=f"host JIT optimization level {n}" + (" (default)" if n == 2 else ""),
        )  # fmt: skip
    parser.add_argument(
        "--pipeline-options",
        default="",
        help=(
            "options for gpu-lower-to-nvvm-pipeline when the input needs lowering, "
            'as in xdsl-opt: "cubin-format=isa opt-level=3"'
        ),
    )
    parser.add_argument(
        "--print-host-llvm",
        action="store_true",
        help=(
            "print the host LLVM IR (binaries embedded) instead of running it; "
            "needs no GPU (cubin-chip then defaults as in the pipeline)"
        ),
    )
    parser.set_defaults(opt_level=2, result_given=False)
    return parser


class _ResultAction(argparse.Action):
    """``--entry-point-result``, remembering that it was given (``--input`` runs print
    results from the function's type and only check an explicit value)."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None):
        setattr(namespace, self.dest, values)
        namespace.result_given = True


# -- --input: arguments written as iree-run-module writes them --------------------------

INPUT_DTYPES: dict[str, Any] = {
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "ui8": np.dtype(np.uint8),
    "ui16": np.dtype(np.uint16),
    "ui32": np.dtype(np.uint32),
    "ui64": np.dtype(np.uint64),
    "index": np.dtype(np.int64),
    "f16": np.dtype(np.float16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}
"""Element types ``--input`` accepts, and their NumPy dtypes."""

_DTYPE_NAMES = {
    np.dtype(np.bool_): "i1",
    np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "ui8",
    np.dtype(np.uint16): "ui16",
    np.dtype(np.uint32): "ui32",
    np.dtype(np.uint64): "ui64",
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
}


@dataclass
class InputValue:
    """One parsed ``--input``: an array (``shape`` may be ``()``) or a scalar."""

    spec: str
    type_name: str
    array: np.ndarray
    scalar: bool
    """Written without a shape (``i32=8``): a scalar argument, or a rank-0 memref."""

    @property
    def notation(self) -> str:
        return _type_notation(self.array.shape, self.type_name)


def _type_notation(shape: Sequence[int], type_name: str) -> str:
    return "x".join([*(str(d) for d in shape), type_name])


MAX_INPUT_ELEMENTS = 1 << 30
"""The most elements one ``--input`` may hold (4 GiB of ``f32``): a bigger shape is
refused before anything is allocated, as is any single dimension above it."""


def _input_error(spec: str, why: str) -> RunnerError:
    return RunnerError(f"--input={spec}: {why}")


def _parse_number(text: str, dtype: Any, spec: str) -> Any:
    lowered = text.lower()
    try:
        if dtype == np.bool_:
            if lowered in ("true", "false"):
                return lowered == "true"
            value = int(text, 0)
            if value not in (0, 1):
                raise ValueError
            return bool(value)
        if dtype.kind in "iu":
            value = int(text, 0)
            info = np.iinfo(dtype)
            if not info.min <= value <= info.max:
                raise _input_error(
                    spec, f"{text} does not fit in {_DTYPE_NAMES[dtype]} "
                    f"({info.min}..{info.max})"
                )  # fmt: skip
            return value
        value = float(text)
        with np.errstate(over="ignore"):
            converted = dtype.type(value)
        if math.isinf(converted) and lowered.lstrip("+-") not in ("inf", "infinity"):
            raise _input_error(
                spec, f"{text} is out of range for {_DTYPE_NAMES[dtype]} (largest "
                f"finite value {np.finfo(dtype).max})"
            )  # fmt: skip
        return value
    except ValueError:
        kind = "an integer" if dtype.kind in "biu" else "a number"
        raise _input_error(
            spec, f"'{text}' is not {kind} ({_DTYPE_NAMES[dtype]})"
        ) from None


def parse_input(spec: str, base: Path | None = None) -> InputValue:
    """One ``--input`` value, in ``iree-run-module``'s notation:

    * ``8xf32=2``: a memref of shape 8 with every element 2 (one value is splatted);
    * ``2x3xi32=1 2 3 4 5 6`` (or ``=[1 2 3][4 5 6]``, or comma-separated): every
      element, in row-major order;
    * ``4xf32``: zeros;
    * ``f32=0.5``, ``i32=8``: a scalar (or a rank-0 memref, when the function takes
      one);
    * ``@a.npy``: a NumPy ``.npy`` file (relative to ``base``, default the current
      folder).

    Anything else, a shape of more than :data:`MAX_INPUT_ELEMENTS` elements, or a
    value that does not fit its element type is a :class:`RunnerError` naming the
    input.
    """
    if spec.startswith("@"):
        path = Path(spec[1:])
        if base is not None and not path.is_absolute():
            path = base / path
        try:
            # Mapped, not read: the header's shape is checked before any copy.
            array = np.load(path, mmap_mode="r", allow_pickle=False)
        except (OSError, ValueError, EOFError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            why = why or type(e).__name__
            raise _input_error(
                spec, f"cannot read the NumPy file {path}: {why}"
            ) from None
        if not isinstance(array, np.ndarray):  # an .npz archive
            array.close()
            raise _input_error(
                spec, f"{path} is not a NumPy .npy array file (an .npz archive holds "
                "several arrays: save the one to pass with numpy.save)"
            )  # fmt: skip
        too_big = any(d > MAX_INPUT_ELEMENTS for d in array.shape)
        if too_big or array.size > MAX_INPUT_ELEMENTS:
            raise _input_error(
                spec, f"{path} has shape {'x'.join(map(str, array.shape))}, more "
                f"than the limit of {MAX_INPUT_ELEMENTS} elements per input"
            )  # fmt: skip
        name = _DTYPE_NAMES.get(array.dtype)
        if name is None:
            raise _input_error(
                spec, f"{path} holds {array.dtype}, which no MLIR element type here "
                f"matches (use one of {', '.join(INPUT_DTYPES)})"
            )  # fmt: skip
        try:
            # A plain, writable copy (the kernel may write to its arguments).
            array = np.array(array, copy=True, order="C", ndmin=1)
        except (OSError, ValueError, MemoryError) as e:  # an unreadable file
            why = str(e) or type(e).__name__
            raise _input_error(
                spec, f"cannot read the NumPy file {path}: {why}"
            ) from None
        return InputValue(spec, name, array, scalar=False)
    type_part, has_values, values_part = spec.partition("=")
    type_part = type_part.strip()
    # The element type is the last field; "index" itself contains an x.
    type_name = next(
        (n for n in INPUT_DTYPES if type_part == n or type_part.endswith(f"x{n}")),
        None,
    )
    if type_name is None:
        type_name = type_part.rsplit("x", 1)[-1]
        fields = []
    else:
        fields = type_part[: -len(type_name)].split("x")
    if type_name not in INPUT_DTYPES:
        raise _input_error(
            spec, f"unknown element type '{type_name}' (expected <shape>x<type>=<values> "
            f"with a type among {', '.join(INPUT_DTYPES)}, e.g. 8xf32=2)"
        )  # fmt: skip
    shape: list[int] = []
    for field in fields[:-1]:  # the last one is the empty string before the type
        if not re.fullmatch(r"[0-9]+", field):  # ASCII digits only (not "²" or "８")  # noqa: RUF003
            raise _input_error(
                spec, f"bad dimension '{field}' in '{type_part}': dimensions are "
                "non-negative integers, as in 2x3xf32"
            )  # fmt: skip
        digits = field.lstrip("0") or "0"
        # Compared as text first: int() refuses (ValueError) over 4300 digits.
        limit_digits = len(str(MAX_INPUT_ELEMENTS))
        if len(digits) > limit_digits or int(digits) > MAX_INPUT_ELEMENTS:
            raise _input_error(
                spec, f"dimension {field} in '{type_part}' is larger than the limit of "
                f"{MAX_INPUT_ELEMENTS} elements per input"
            )  # fmt: skip
        shape.append(int(digits))
    dtype = INPUT_DTYPES[type_name]
    count = math.prod(shape)  # Python integers: no overflow
    if count > MAX_INPUT_ELEMENTS:
        raise _input_error(
            spec, f"{_type_notation(shape, type_name)} holds {count} elements, more "
            f"than the limit of {MAX_INPUT_ELEMENTS} per input"
        )  # fmt: skip
    words = [w for w in re.split(r"[\s,\[\]]+", values_part) if w]
    if has_values and words and len(words) not in (1, count):
        raise _input_error(
            spec, f"{_type_notation(shape, type_name)} holds {count} "
            f"element{'s' * (count != 1)} but {len(words)} values were given (give one "
            "value to fill every element, or all of them)"
        )  # fmt: skip
    if has_values and not words and not shape:
        raise _input_error(spec, f"no value given for the {type_name} scalar")
    try:
        if len(words) > 1:
            values = [_parse_number(w, dtype, spec) for w in words]
            array = np.array(values, dtype=dtype).reshape(shape)
        else:
            fill = _parse_number(words[0], dtype, spec) if words else 0
            array = np.full(shape, fill, dtype=dtype)
    except MemoryError:
        size = count * dtype.itemsize
        raise _input_error(
            spec, f"not enough memory for {_type_notation(shape, type_name)} "
            f"({size} bytes)"
        ) from None  # fmt: skip
    return InputValue(spec, type_name, array, scalar=not shape)


def _element_name(element: Attribute) -> str | None:
    if isinstance(element, IndexType):
        return "index"
    if isinstance(element, IntegerType):
        return f"i{element.width.data}"
    if isinstance(element, AnyFloat):
        return f"f{element.bitwidth}"
    return None


def _compatible_element(input_type: str, element: str | None) -> bool:
    if element is None:
        return False
    if input_type == element:
        return True
    # index is i64 on the host; unsigned inputs fill signless integers of their width.
    same = {"index": "i64", "i64": "index"}
    return same.get(input_type) == element or input_type == f"u{element}"


def _input_example(t: Attribute) -> str:
    """How an ``--input`` for a parameter of type ``t`` is written."""
    if isinstance(t, MemRefType):
        dims = ["N" if d < 0 else str(d) for d in t.get_shape()]
        element = _element_name(t.element_type) or str(t.element_type)
        return _type_notation(dims, element) + "=..."  # type: ignore[arg-type]
    return f"{_element_name(t) or t}=..."


def arguments_for(
    entry: str, inputs: Sequence[InputValue], types: Sequence[Attribute] | None
) -> list[Any]:
    """The call's arguments: each input checked against the parameter it is for
    (when the function's MLIR type is known: before lowering)."""
    if types is not None and len(inputs) != len(types):
        wanted = " ".join(f"--input={_input_example(t)}" for t in types) or "no --input"
        raise RunnerError(
            f"@{entry} takes {len(types)} argument{'s' * (len(types) != 1)} "
            f"({', '.join(str(t) for t in types) or 'none'}) but {len(inputs)} "
            f"--input {'was' if len(inputs) == 1 else 'were'} given; pass {wanted}"
        )
    args: list[Any] = []
    for i, value in enumerate(inputs):
        param = types[i] if types is not None else None
        if param is None:
            args.append(value.array[()] if value.scalar else value.array)
            continue
        where = f"--input={value.spec} (argument {i} of @{entry})"
        if isinstance(param, MemRefType):
            element = _element_name(param.element_type)
            shape = [int(d) for d in param.get_shape()]
            array = value.array
            ok = (
                _compatible_element(value.type_name, element)
                and len(shape) == array.ndim
            )
            ok = ok and all(
                d < 0 or d == n for d, n in zip(shape, array.shape, strict=False)
            )
            if not ok:
                raise RunnerError(
                    f"{where} is {value.notation}, but the parameter is {param}"
                )
            assert element is not None
            args.append(array.astype(INPUT_DTYPES[element], copy=False))
            continue
        element = _element_name(param)
        if not value.scalar or not _compatible_element(value.type_name, element):
            raise RunnerError(
                f"{where} is {value.notation}, but the parameter is the scalar {param} "
                f"(write it as {param}=<value>)"
            )
        args.append(value.array[()])
    return args


def _format_element(value: Any, dtype: Any) -> str:
    if dtype == np.bool_:
        return str(int(value))
    if dtype.kind in "iu":
        return str(int(value))
    text = str(value)  # NumPy's shortest round-trip form: 12.0, 0.1, 1e+20, nan
    return text[:-2] if text.endswith(".0") else text


def _format_nested(array: np.ndarray) -> str:
    if array.ndim == 1:
        return " ".join(_format_element(v, array.dtype) for v in array)
    return "".join(f"[{_format_nested(sub)}]" for sub in array)


def format_value(value: Any, mlir_type: Attribute | None) -> str:
    """A result in iree-run-module's notation: ``8xf32=12 12 ...``,
    ``2x2xi32=[1 2][3 4]``, ``f32=96``."""
    if isinstance(value, np.ndarray):
        name = _DTYPE_NAMES.get(value.dtype, str(value.dtype))
        if isinstance(mlir_type, MemRefType):
            name = _element_name(mlir_type.element_type) or name
        if value.ndim == 0:
            return f"{name}={_format_element(value[()], value.dtype)}"
        return f"{_type_notation(value.shape, name)}={_format_nested(value)}"
    name = _element_name(mlir_type) if mlir_type is not None else None
    if isinstance(value, bool | np.bool_) or name == "i1":
        return f"i1={int(value)}"
    if isinstance(value, float | np.floating):
        dtype = (
            np.dtype(type(value))
            if isinstance(value, np.floating)
            else np.dtype(np.float64)
        )
        return f"{name or _DTYPE_NAMES[dtype]}={_format_element(value, dtype)}"
    return f"{name or 'i64'}={int(value)}"


def format_results(
    entry: str, values: Sequence[Any], types: Sequence[Attribute] | None
) -> str:
    """What iree-run-module prints after a call: ``EXEC @f`` and each result."""
    lines = [f"EXEC @{entry}"]
    for i, value in enumerate(values):
        mlir_type = types[i] if types is not None and i < len(types) else None
        text = format_value(value, mlir_type)
        if isinstance(value, np.ndarray):
            lines.append(
                f"result[{i}]: {mlir_type if mlir_type is not None else 'memref'}"
            )
            lines.append(text)
        else:
            lines.append(f"result[{i}]: {text}")
    return "\n".join(lines) + "\n"


def read_input(path: str) -> tuple[str, str]:
    """The input text and the name used in diagnostics."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        return Path(path).read_text(), path
    except OSError as e:
        raise RunnerError(f"cannot read {path}: {e.strerror}") from None


def split_shared_libs(values: Sequence[str]) -> tuple[list[str], list[str]]:
    """(libraries to load, CUDA runtime libraries that are replaced)."""
    load: list[str] = []
    replaced: list[str] = []
    for value in values:
        for lib in filter(None, (v.strip() for v in value.split(","))):
            name = os.path.basename(lib)
            (
                replaced if any(n in name for n in CUDA_RUNTIME_LIBRARY_NAMES) else load
            ).append(lib)
    return load, replaced


def _function_types(
    module: ModuleOp, name: str
) -> tuple[tuple[Attribute, ...], tuple[Attribute, ...]] | None:
    """(inputs, outputs) of ``@name`` as a ``func.func`` or ``llvm.func``."""
    from xdsl.dialects.llvm import LLVMVoidType

    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return tuple(op.function_type.inputs.data), tuple(
                op.function_type.outputs.data
            )
        if isinstance(op, llvm.FuncOp) and op.sym_name.data == name:
            fn_type = op.function_type
            output = fn_type.output
            outputs = () if isinstance(output, LLVMVoidType) else (output,)
            return tuple(fn_type.inputs.data), outputs
    return None


def _type_matches(result: str, types: tuple[Attribute, ...]) -> bool:
    if result == "void":
        return not types
    if len(types) != 1:
        return False
    (t,) = types
    if result == "f32":
        return isinstance(t, Float32Type)
    return isinstance(t, IntegerType) and t.width.data == int(result[1:])


def _missing_entry(module: ModuleOp, entry: str) -> RunnerError:
    names = sorted(
        op.sym_name.data
        for op in module.ops
        if isinstance(op, func.FuncOp | llvm.FuncOp)
    )
    return RunnerError(
        f"entry point @{entry} not found in the module (functions: "
        f"{', '.join(names) or 'none'}); choose it with -e"
    )


def check_entry(module: ModuleOp, entry: str, result: str) -> None:
    """The entry exists, takes no arguments and returns what ``result`` says."""
    types = _function_types(module, entry)
    if types is None:
        raise _missing_entry(module, entry)
    inputs, outputs = types
    if inputs:
        raise RunnerError(
            f"entry point @{entry} takes {len(inputs)} arguments "
            f"({', '.join(str(t) for t in inputs)}); pass one --input=<value> per "
            "argument (e.g. --input=8xf32=2), or call it through the Python API"
        )
    if not _type_matches(result, outputs):
        got = ", ".join(str(t) for t in outputs) or "nothing"
        raise RunnerError(
            f"entry point @{entry} returns {got}, but --entry-point-result={result}; "
            "pass the matching --entry-point-result (void, i32, i64 or f32)"
        )


@dataclass
class InputCall:
    """A call with ``--input`` arguments, checked before anything is compiled."""

    arguments: list[Any]
    result_types: tuple[Attribute, ...]
    """The function's results (of an ``llvm.func``: scalars only)."""


def prepare_input_call(
    module: ModuleOp,
    entry: str,
    specs: Sequence[str],
    args: argparse.Namespace | None = None,
) -> InputCall:
    """Parse the ``--input`` values and check them against ``@entry``'s type."""
    op = next(
        (
            o
            for o in module.ops
            if isinstance(o, func.FuncOp | llvm.FuncOp) and o.sym_name.data == entry
        ),
        None,
    )
    if op is None:
        raise _missing_entry(module, entry)
    inputs = [parse_input(spec) for spec in specs]
    types = _function_types(module, entry)
    assert types is not None
    params, outputs = types
    if isinstance(op, func.FuncOp):
        arguments = arguments_for(entry, inputs, params)
        result_types = outputs
    else:
        # Already lowered: the memref types are gone (a memref is its descriptor's
        # fields now), so the inputs are passed as written and the JIT checks the
        # count; a memref result's element type is unknown.
        from xdsl.dialects.llvm import LLVMStructType

        arguments = arguments_for(entry, inputs, None)
        result_types = outputs
        if any(isinstance(t, LLVMStructType) for t in outputs):
            raise RunnerError(
                f"@{entry} is already lowered to the llvm dialect and returns "
                f"{outputs[0]} (a memref descriptor or several results), whose element "
                "types the lowered program no longer records; run the program from "
                "before gpu-lower-to-nvvm-pipeline (xdsl-gpu-run lowers it itself; add "
                "its options with --pipeline-options)"
            )
    if (
        args is not None
        and args.result_given
        and not _type_matches(args.result, outputs)
    ):
        got = ", ".join(str(t) for t in outputs) or "nothing"
        raise RunnerError(
            f"@{entry} returns {got}, but --entry-point-result={args.result}; with "
            "--input the results are printed from the function's type: drop "
            "--entry-point-result"
        )
    return InputCall(arguments, result_types)


def format_result(value: object, result: str) -> str:
    """The entry's result as mlir-runner prints it (``%e`` for f32)."""
    if result == "f32":
        return f"{float(value):e}"  # type: ignore[arg-type]
    return str(int(value))  # type: ignore[call-overload]


def line_buffer_c_stdout() -> None:
    """Make C's ``stdout`` line-buffered (before anything is written to it), so that
    nothing written through it is lost when a failing program stops the process."""
    libc = ctypes.CDLL(None)
    try:
        stdout = ctypes.c_void_p.in_dll(libc, "stdout")
    except ValueError:  # pragma: no cover - not glibc
        return
    io_line_buffered = 1  # _IOLBF
    libc.setvbuf(stdout, None, io_line_buffered, 4096)


def run(args: argparse.Namespace) -> int:
    from xdsl_gpu.targets.runtime.api import (
        GpuProgram,
        _function_infos,
        compile_host_llvm_ir,
        needs_gpu_lowering,
        parse_program,
    )

    text, name = read_input(args.input)
    module = parse_program(text, name)
    input_call = None
    entry_types = _function_types(module, args.entry)
    if args.inputs or (entry_types is not None and entry_types[0]):
        input_call = prepare_input_call(module, args.entry, args.inputs, args)
    else:
        check_entry(module, args.entry, args.result)
    load, replaced = split_shared_libs(args.shared_libs)
    if replaced:
        print(
            f"{TOOL}: note: ignoring --shared-libs {', '.join(replaced)}: xdsl-gpu-run "
            "has its own CUDA runtime",
            file=sys.stderr,
        )
    for lib in load:
        if not Path(lib).exists():
            raise RunnerError(f"--shared-libs: {lib} does not exist")
    if (
        args.pipeline_options
        and not needs_gpu_lowering(module)
        and not any(op.name == "gpu.module" for op in module.walk())
    ):
        raise RunnerError(
            "--pipeline-options given, but the input is already lowered to the llvm "
            "dialect and has no gpu.module; drop the option"
        )

    if args.print_host_llvm:
        sys.stdout.write(
            compile_host_llvm_ir(module, pipeline_options=args.pipeline_options)
        )
        return 0

    from xdsl_gpu.targets.runtime.driver import CudaUnavailableError
    from xdsl_gpu.targets.runtime.runtime import CudaRuntime

    try:
        runtime = CudaRuntime.get()
    except CudaUnavailableError as e:
        raise RunnerError(
            f"no usable NVIDIA GPU here ({e}); xdsl-gpu-run needs a CUDA device. To "
            "compile only, use --print-host-llvm or xdsl-opt -p "
            "gpu-lower-to-nvvm-pipeline -t llvm-offload"
        ) from None
    runtime.on_error = "exit"
    line_buffer_c_stdout()
    import llvmlite.binding as llvm

    for lib in load:
        llvm.load_library_permanently(lib)
    # MLIR's runner utilities are built in; those these libraries define win.
    from xdsl_gpu.targets.runtime.runner_utils import prefer_libraries

    prefer_libraries(load)
    functions = _function_infos(module)
    llvm_ir = compile_host_llvm_ir(
        module, pipeline_options=args.pipeline_options, chip=f"sm_{runtime.device.sm}"
    )
    # The entry's type after lowering (a func.func may have become an llvm.func
    # with the same signature): the JIT checks its LLVM signature.
    program = GpuProgram(llvm_ir, functions, opt_level=args.opt_level)
    signature = program.signature(args.entry)
    if signature is None:
        raise RunnerError(f"entry point @{args.entry} not found in the lowered module")
    llvm_result, params = signature
    if input_call is not None:
        sys.stdout.flush()
        value = program.call(args.entry, *input_call.arguments)
        program.close()
        if llvm_result == "void" and value is None:
            values: list[Any] = []
        elif isinstance(value, tuple) and len(input_call.result_types) != 1:
            values = list(value)  # pyright: ignore[reportUnknownArgumentType]
        else:
            values = [value]
        sys.stdout.write(format_results(args.entry, values, input_call.result_types))
        sys.stdout.flush()
        return 0
    if params or llvm_result != RESULT_TYPES[args.result]:
        raise RunnerError(
            f"entry point @{args.entry} has the LLVM type {llvm_result} "
            f"({', '.join(params)}) after lowering; --entry-point-result={args.result} "
            "needs a function without arguments"
        )
    sys.stdout.flush()
    value = program.call(args.entry)
    program.close()
    if args.result != "void":
        print(format_result(value, args.result), flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``xdsl-gpu-run`` console script."""
    args = argument_parser().parse_args(argv)
    try:
        return run(args)
    except (DiagnosticException, ParseError) as e:
        if os.environ.get("XDSL_GPU_TRACEBACK"):
            raise
        sys.stdout.flush()
        print(
            user_error_text(TOOL, e, inputs=[args.input]), file=sys.stderr, flush=True
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
