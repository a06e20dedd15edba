"""MLIR's runner utilities, built in: ``printMemrefF32``, ``printF32``,
``printNewline``... in Python, bound into the llvmlite JIT as ctypes callbacks.

Upstream's GPU integration programs (``mlir/test/Integration/GPU/CUDA``) print their
results with the functions of ``libmlir_runner_utils`` and ``libmlir_c_runner_utils``,
and ``vector.print`` lowers to them. These are the same functions, with the same C
signatures and exactly the same output (checked against ``mlir-runner-22`` with
Debian's libraries, ``tests/targets/test_runner_utils.py``), so that such programs run
with nothing of MLIR installed:

* ``printMemref<T>(i64 rank, ptr descriptor)`` (an unranked memref passed expanded)
  and ``_mlir_ciface_printMemref<T>(ptr)`` (a pointer to ``{rank, descriptor}``,
  ``llvm.emit_c_interface``): ``Unranked Memref base@ = 0x... rank = 2 offset = 0
  sizes = [2, 3] strides = [3, 1] data = `` then the nested rows, for ``T`` in
  ``F16 BF16 F32 F64 I8 I16 I32 I64 Ind C32 C64``;
* ``_mlir_ciface_printMemref<N>d<T>(ptr)`` for a ranked descriptor (``Memref base@``);
* ``printF16 printBF16 printF32 printF64 printI64 printU64 printString printNewline
  printComma printOpen printClose printFlops rtclock``.

Output goes through C's ``stdout`` (``fwrite``), as upstream's does, so it keeps its
place among host and device ``printf`` lines; ``printMemref*`` flushes it (upstream
ends with ``std::flush``).

Resolution (:func:`bind`): a runner utility that the module declares is bound to the
definition in the first library the user named (``--shared-libs``, ``shared_libs=``,
or :func:`prefer_libraries`) that defines it, else to ours. The binding is made per
JIT, right before its object is finalized, so each module gets what its own libraries
define.
"""

from __future__ import annotations

import ctypes
import math
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "RUNNER_UTILITIES",
    "bind",
    "library_address",
    "prefer_libraries",
    "preferred_libraries",
]


# -- C stdout -------------------------------------------------------------------------


@cache
def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None)
    libc.fwrite.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t]
    libc.fwrite.argtypes += [ctypes.c_void_p]
    libc.fwrite.restype = ctypes.c_size_t
    libc.fflush.argtypes = [ctypes.c_void_p]
    return libc


def _stream(name: str) -> int | None:
    try:
        return ctypes.c_void_p.in_dll(_libc(), name).value
    except ValueError:  # pragma: no cover - not glibc
        return None


def _write(data: bytes, stream: str = "stdout") -> None:
    handle = _stream(stream)
    if handle is None:  # pragma: no cover - not glibc
        out = sys.stdout if stream == "stdout" else sys.stderr
        out.buffer.write(data)
        return
    _libc().fwrite(data, 1, len(data), handle)


def flush_c_stdout() -> None:
    """``fflush(stdout)``."""
    _libc().fflush(_stream("stdout"))


# -- number formatting (C's %g, as std::ostream and printf print them) -----------------


def format_float(value: float) -> str:
    """``printf("%g")``: ``1.5``, ``3.7e+06``, ``-0``, ``inf``, ``nan``, ``-nan``."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    return f"{value:g}"


def _float(value: Any) -> str:
    return format_float(float(value))


def _int(value: Any) -> str:
    return str(int(value))


def _char(value: Any) -> str:
    # std::ostream << int8_t writes the byte itself (encoded as latin-1 below).
    return chr(int(value) & 0xFF)


def _complex(value: Any) -> str:
    # std::ostream << std::complex<T>: "(re,im)".
    return f"({format_float(float(value.real))},{format_float(float(value.imag))})"


def _bf16_to_float(bits: Any) -> float:
    return float(np.array([int(bits) << 16], np.uint32).view(np.float32)[0])


def _bf16(value: Any) -> str:
    return format_float(_bf16_to_float(value))


ELEMENT_TYPES: dict[str, tuple[Any, Callable[[Any], str]]] = {
    "F16": (np.float16, _float),
    "BF16": (np.uint16, _bf16),
    "F32": (np.float32, _float),
    "F64": (np.float64, _float),
    "I8": (np.int8, _char),
    "I16": (np.int16, _int),
    "I32": (np.int32, _int),
    "I64": (np.int64, _int),
    "Ind": (np.int64, _int),
    "C32": (np.complex64, _complex),
    "C64": (np.complex128, _complex),
}
"""The ``printMemref<T>`` suffixes: NumPy type of an element, and its printed form."""


# -- printMemref ----------------------------------------------------------------------


def _pointer(value: int) -> str:
    # libstdc++ prints a void* as 0x<hex>, and a null pointer as 0.
    return hex(value) if value else "0"


def _read_descriptor(address: int, rank: int) -> tuple[int, int, list[int], list[int]]:
    """(aligned pointer, offset, sizes, strides) of a ranked descriptor."""
    fields = (ctypes.c_int64 * (3 + 2 * rank)).from_address(address)
    values = list(fields)
    aligned = values[1] & 0xFFFFFFFFFFFFFFFF
    return aligned, values[2], values[3 : 3 + rank], values[3 + rank :]


def _elements(
    aligned: int, dtype: Any, offset: int, sizes: list[int], strides: list[int]
) -> Callable[[int], Any]:
    """A reader of the element at a linear index, over every index that upstream's
    printer reads (for a dimension of size 0 it still reads its first element)."""
    item = np.dtype(dtype).itemsize
    lo = hi = offset
    for n, s in zip(sizes, strides, strict=True):
        reach = max(n - 1, 0) * s
        lo += min(0, reach)
        hi += max(0, reach)
    if not aligned:
        return lambda index: 0
    buffer = (ctypes.c_char * ((hi - lo + 1) * item)).from_address(aligned + lo * item)
    flat = np.frombuffer(memoryview(buffer), dtype)
    return lambda index: flat[index - lo]


def format_memref(
    aligned: int,
    offset: int,
    sizes: Sequence[int],
    strides: Sequence[int],
    element: str,
    *,
    unranked: bool = True,
) -> bytes:
    """What ``printMemref<element>`` prints for this descriptor (``impl::printMemRef``
    of MLIR's ``RunnerUtils.h``)."""
    dtype, fmt = ELEMENT_TYPES[element]
    rank = len(sizes)
    sizes, strides = list(sizes), list(strides)
    get = _elements(aligned, dtype, offset, sizes, strides)
    out: list[str] = [
        "Unranked Memref " if unranked else "Memref ",
        f"base@ = {_pointer(aligned)} rank = {rank} offset = {offset}",
        f" sizes = [{', '.join(map(str, sizes))}]",
        f" strides = [{', '.join(map(str, strides))}] data = \n",
    ]
    if rank == 0:
        out.append("[" + fmt(get(offset)) + "]")
    else:
        _print_data(out, get, fmt, rank, rank, offset, sizes, strides)
    out.append("\n")
    return "".join(out).encode("latin-1")


def _print_data(
    out: list[str],
    get: Callable[[int], Any],
    fmt: Callable[[Any], str],
    dim: int,
    rank: int,
    offset: int,
    sizes: list[int],
    strides: list[int],
) -> None:
    """``MemRefDataPrinter<T>::print``: rows separated by ``, `` and a newline,
    elements by ``, `` and ``rank - dim + 1`` spaces."""
    if dim == 0:
        out.append(fmt(get(offset)))
        return
    n, stride = sizes[0], strides[0]
    pad = " " * (rank - dim + 1)
    if dim == 1 and n > 1:
        items = (fmt(get(offset + i * stride)) for i in range(n))
        out.append("[" + (", " + pad).join(items) + "]")
        return
    inner_sizes, inner_strides = sizes[1:], strides[1:]
    separator = ", \n" if dim > 1 else ", "
    out.append("[")
    _print_data(out, get, fmt, dim - 1, rank, offset, inner_sizes, inner_strides)
    if n <= 1:
        out.append("]")
        return
    out.append(separator)
    for i in range(1, n - 1):
        out.append(pad)
        _print_data(
            out,
            get,
            fmt,
            dim - 1,
            rank,
            offset + i * stride,
            inner_sizes,
            inner_strides,
        )
        out.append(separator)
    out.append(pad)
    _print_data(
        out,
        get,
        fmt,
        dim - 1,
        rank,
        offset + (n - 1) * stride,
        inner_sizes,
        inner_strides,
    )
    out.append("]")


def _print_ranked(descriptor: int, rank: int, element: str, unranked: bool) -> None:
    if not descriptor:
        return
    aligned, offset, sizes, strides = _read_descriptor(descriptor, rank)
    _write(format_memref(aligned, offset, sizes, strides, element, unranked=unranked))
    flush_c_stdout()


def _print_unranked_expanded(element: str) -> Callable[[int, int | None], None]:
    def print_memref(rank: int, descriptor: int | None) -> None:
        _print_ranked(descriptor or 0, rank, element, unranked=True)

    return print_memref


def _print_unranked_ciface(element: str) -> Callable[[int | None], None]:
    def print_memref(unranked: int | None) -> None:
        if not unranked:
            return
        rank = ctypes.c_int64.from_address(unranked).value
        descriptor = ctypes.c_void_p.from_address(unranked + 8).value or 0
        _print_ranked(descriptor, rank, element, unranked=True)

    return print_memref


def _print_ranked_ciface(rank: int, element: str) -> Callable[[int | None], None]:
    def print_memref(descriptor: int | None) -> None:
        _print_ranked(descriptor or 0, rank, element, unranked=False)

    return print_memref


# -- scalars (libmlir_c_runner_utils) -------------------------------------------------


def _print_text(text: str) -> Callable[[], None]:
    data = text.encode()
    return lambda: _write(data)


def _print_f16(bits: int) -> None:
    value = np.array([bits & 0xFFFF], np.uint16).view(np.float16)[0]
    _write(format_float(float(value)).encode())


def _print_string(pointer: int | None) -> None:
    if pointer:
        _write(ctypes.string_at(pointer))


def _print_flops(flops: float) -> None:
    _write((f"{flops / 1.0e9:f} GFLOPS\n").encode(), "stderr")


_VOID = ctypes.CFUNCTYPE(None)
_PTR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

_SCALAR_UTILITIES: dict[str, tuple[Any, Callable[..., Any]]] = {
    "printF16": (ctypes.CFUNCTYPE(None, ctypes.c_uint16), _print_f16),
    "printBF16": (
        ctypes.CFUNCTYPE(None, ctypes.c_uint16),
        lambda bits: _write(_bf16(bits).encode()),  # pyright: ignore[reportUnknownLambdaType]
    ),
    "printF32": (
        ctypes.CFUNCTYPE(None, ctypes.c_float),
        lambda v: _write(format_float(v).encode()),  # pyright: ignore[reportUnknownLambdaType]
    ),
    "printF64": (
        ctypes.CFUNCTYPE(None, ctypes.c_double),
        lambda v: _write(format_float(v).encode()),  # pyright: ignore[reportUnknownLambdaType]
    ),
    "printI64": (
        ctypes.CFUNCTYPE(None, ctypes.c_int64),
        lambda v: _write(str(v).encode()),  # pyright: ignore[reportUnknownLambdaType]
    ),
    "printU64": (
        ctypes.CFUNCTYPE(None, ctypes.c_uint64),
        lambda v: _write(str(v).encode()),  # pyright: ignore[reportUnknownLambdaType]
    ),
    "printString": (_PTR, _print_string),
    "printNewline": (_VOID, _print_text("\n")),
    "printComma": (_VOID, _print_text(", ")),
    "printOpen": (_VOID, _print_text("( ")),
    "printClose": (_VOID, _print_text(" )")),
    "printFlops": (ctypes.CFUNCTYPE(None, ctypes.c_double), _print_flops),
    "rtclock": (ctypes.CFUNCTYPE(ctypes.c_double), time.time),
}


def _utilities() -> dict[str, tuple[Any, Callable[..., Any]]]:
    table = dict(_SCALAR_UTILITIES)
    expanded = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_void_p)
    for element in ELEMENT_TYPES:
        table[f"printMemref{element}"] = (expanded, _print_unranked_expanded(element))
        table[f"_mlir_ciface_printMemref{element}"] = (
            _PTR,
            _print_unranked_ciface(element),
        )
        for rank in range(5):
            table[f"_mlir_ciface_printMemref{rank}d{element}"] = (
                _PTR,
                _print_ranked_ciface(rank, element),
            )
    return table


_TABLE = _utilities()

RUNNER_UTILITIES: frozenset[str] = frozenset(_TABLE)
"""The names of every built-in runner utility."""

_callbacks: dict[str, Any] = {}  # kept alive for as long as the process runs


def builtin_address(name: str) -> int:
    """The address of our ``name`` (a ctypes callback, made once)."""
    callback = _callbacks.get(name)
    if callback is None:
        prototype, implementation = _TABLE[name]
        callback = _callbacks[name] = prototype(implementation)
    address = ctypes.cast(callback, ctypes.c_void_p).value
    assert address is not None
    return address


# -- resolution -----------------------------------------------------------------------

_preferred: list[str] = []


def prefer_libraries(libraries: Iterable[str | Path]) -> None:
    """Libraries whose runner utilities win over ours for the rest of the process
    (``xdsl-gpu-run --shared-libs``)."""
    for lib in libraries:
        if str(lib) not in _preferred:
            _preferred.append(str(lib))


def preferred_libraries() -> list[str]:
    return list(_preferred)


@cache
def _open(library: str) -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL(library)
    except OSError:
        return None


def library_address(library: str | Path, name: str) -> int | None:
    """The address of ``name`` in ``library``, or ``None`` if it does not define it
    (or cannot be opened)."""
    handle = _open(str(library))
    if handle is None:
        return None
    try:
        function = getattr(handle, name)
    except AttributeError:
        return None
    return ctypes.cast(function, ctypes.c_void_p).value


def bind(names: Iterable[str], libraries: Sequence[str | Path] = ()) -> list[str]:
    """Bind each runner utility among ``names`` (the module's external functions) in
    the JIT's symbol table: to the definition of the first of ``libraries``, then of
    :func:`preferred_libraries`, that has one, else to ours. Returns the names bound
    to ours."""
    import llvmlite.binding as llvm

    search = [str(lib) for lib in libraries] + [
        lib for lib in _preferred if lib not in map(str, libraries)
    ]
    ours: list[str] = []
    for name in names:
        if name not in _TABLE:
            continue
        address = next(
            (a for lib in search if (a := library_address(lib, name)) is not None),
            None,
        )
        if address is None:
            address = builtin_address(name)
            ours.append(name)
        llvm.add_symbol(name, address)
    return ours
