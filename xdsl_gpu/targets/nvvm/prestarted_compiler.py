"""A compile child forked before the kernels are lowered, which loads LLVM meanwhile.

``serialize_to_objects`` compiles the modules it cannot take from the compile cache
in forked children (``xdsl_gpu/forked_jobs.py``), and each child first loads
llvmlite's LLVM and asks nvJitLink its version (~40 ms; the version picks the PTX
ISA), then parses libdevice for a kernel that calls math functions (~25 ms).
Forked only once the LLVM IR exists, the child spends that time while this process
waits for it. ``gpu-lower-to-nvvm-pipeline``, when it lowers a program step after
step, :func:`prestart`\\ s one child instead, before its first step: the child
loads the toolchain (and libdevice, for a program with math functions) on another
core while this process lowers, then waits for the modules (sent through a pipe as
LLVM IR text and options, which are all it needs).

The objects are the same bytes as from a child forked later: the same
``serializer.serialize`` runs on the same text with the same options. Whatever goes
wrong with the early child (it died, say, as LLVM ends the process on IR that its
back end cannot compile), the caller compiles the modules the usual way, which then
reports each module's failure as it always has.
"""

from __future__ import annotations

import os
import pickle
import struct
from collections.abc import Sequence

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Operation

from xdsl_gpu.forked_jobs import Outcome, RunningJobs, fork_is_safe, start_jobs
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget
from xdsl_gpu.targets.nvvm.serializer import (
    NVVMOptions,
    SerializedObject,
    assembler_cuda_version,
    serialize,
)

__all__ = [
    "PrestartedCompiler",
    "calls_math_functions",
    "discard",
    "prestart",
    "take",
]

Request = tuple[str, NVVMOptions, CompilationTarget]
"""One module to compile: its LLVM IR, its options and the format."""

_LENGTH = struct.Struct("<Q")
"""The requests go length first: another child forked meanwhile may hold the
pipe's writing end too, so its end is no sign that they are complete."""


class PrestartedCompiler:
    """One forked child that loads the toolchain now and compiles the requests
    that :meth:`compile` sends it later, one after the other."""

    def __init__(self, libdevice: bool = False) -> None:
        self._libdevice = libdevice
        self._requests, self._send = os.pipe()
        try:
            self._running: RunningJobs[list[SerializedObject | Exception]] = start_jobs(
                [self._serve], 1
            )
        finally:
            os.close(self._requests)  # the child has its copy

    def _serve(self) -> list[SerializedObject | Exception]:  # pragma: no cover
        """In the child: load the toolchain, then compile what the parent sends."""
        os.close(self._send)  # else the child would never see the end of the requests
        from xdsl_gpu.targets.nvvm.serializer import (
            _initialize_llvm,  # pyright: ignore[reportPrivateUsage]
            preparse_libdevice,
        )

        _initialize_llvm()
        assembler_cuda_version()
        if self._libdevice:  # else the modules would wait for it, in vain
            preparse_libdevice()
        (size,) = _LENGTH.unpack(_read_exactly(self._requests, _LENGTH.size))
        requests: list[Request] = pickle.loads(_read_exactly(self._requests, size))
        results: list[SerializedObject | Exception] = []
        for llvm_ir, options, fmt in requests:
            try:
                # The child of a forked job already: no child of its own.
                results.append(serialize(llvm_ir, options, fmt, isolate=False))
            except Exception as error:
                results.append(error)
        return results

    def compile(
        self, requests: Sequence[Request]
    ) -> list[Outcome[SerializedObject]] | None:
        """Each request's outcome, in order; None when the child could not give
        them (it died or failed): the caller then compiles them the usual way."""
        try:
            data = pickle.dumps(list(requests))
            view = memoryview(_LENGTH.pack(len(data)) + data)
            while view:
                view = view[os.write(self._send, view) :]
        except OSError:  # the child is gone (a broken pipe)
            self.cancel()
            return None
        self._close_send()
        (outcome,) = self._running.wait()
        if outcome.value is None or len(outcome.value) != len(requests):
            return None
        return [
            Outcome(error=result)
            if isinstance(result, Exception)
            else Outcome(value=result)
            for result in outcome.value
        ]

    def cancel(self) -> None:
        """Stop the child (nothing to compile, or the run ended)."""
        self._close_send()
        self._running.cancel()

    def _close_send(self) -> None:
        if self._send >= 0:
            os.close(self._send)
            self._send = -1


def _read_exactly(fd: int, size: int) -> bytes:  # pragma: no cover - in the child
    data = bytearray()
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            raise EOFError("the parent closed the pipe before its requests ended")
        data += chunk
    return bytes(data)


_pending: PrestartedCompiler | None = None


def prestart(program: Operation | None = None) -> None:
    """Fork the compile child now, for the next :func:`take`; nothing where forking
    is unsafe (several threads) or a child is already pending. For a ``program``
    that calls math functions (:func:`calls_math_functions`) the child also parses
    libdevice while it waits; for any other, that would only delay the modules."""
    global _pending
    if _pending is None and fork_is_safe():
        libdevice = program is not None and calls_math_functions(program)
        _pending = PrestartedCompiler(libdevice)


def calls_math_functions(program: Operation) -> bool:
    """Whether ``program`` has ``math`` ops or calls of libdevice's ``__nv_``
    functions: what links libdevice once lowered."""
    for op in program.walk():
        name = op.name
        if name.startswith("math."):
            return True
        if name == "llvm.call":
            callee = op.properties.get("callee")
            if isinstance(callee, SymbolRefAttr) and (
                callee.root_reference.data.startswith("__nv_")
            ):
                return True
    return False


def take() -> PrestartedCompiler | None:
    """The pending child, now the caller's to :meth:`~PrestartedCompiler.compile`
    with or to :meth:`~PrestartedCompiler.cancel`; None if there is none."""
    global _pending
    child, _pending = _pending, None
    return child


def discard() -> None:
    """Stop the pending child, if any (the run that started it is over)."""
    child = take()
    if child is not None:
        child.cancel()
