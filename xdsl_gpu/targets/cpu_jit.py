"""Run llvm-dialect modules on the CPU: JIT them with llvmlite's MCJIT and call their
functions with NumPy arrays and Python scalars.

The test side of the std → LLVM lowerings: the same program lowered by our passes and
by ``mlir-opt-22`` can be compiled and called the same way and the results compared::

    jit = CpuJit(lowered_module)                    # xDSL module or MLIR text
    out = jit.call("axpy", 2.0, x, y)               # memrefs as NumPy arrays
    ref = CpuJit.from_llvm_ir(upstream_llvm_ir(source, PIPELINE))
    np.testing.assert_allclose(y, ...)

Memref calling conventions (``convention=``), as upstream's ``convert-func-to-llvm``
produces them:

* ``"descriptor"`` (default): an array becomes ``allocated ptr, aligned ptr, offset,
  sizes..., strides...`` (strides in elements; any NumPy view works);
* ``"bare"`` (``use-bare-ptr-memref-call-conv``): an array becomes one pointer;
* ``"ciface"``: call ``_mlir_ciface_<name>`` (``llvm.emit_c_interface``): an array
  becomes a pointer to its descriptor struct; results come back through a pointer that
  is the first argument, as upstream does.

Scalars are converted to the parameter's LLVM type. Results: a scalar comes back as a
NumPy scalar; a memref descriptor comes back as a NumPy array when its element type is
named in ``results=`` (a copy by default: ``copy=False`` gives a view of JIT-allocated
memory, never freed); several results come back as a tuple.

Calls go through a generated ``void(ptr)`` wrapper per function (MLIR's
``invokePacked``), so any LLVM signature is called correctly, including aggregates
returned by value, which the C ABI (ctypes) would get wrong.
"""

from __future__ import annotations

import ctypes
import shutil
import struct
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import llvmlite.binding as llvm
import numpy as np
from xdsl.dialects.builtin import ModuleOp

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.targets.llvm_ir import convert_module, parse_module
from xdsl_gpu.targets.llvm_ir.convert_type import identifier

PACKED_PREFIX = "__cpujit_packed."

_SCALARS: dict[str, tuple[str, Any]] = {
    "i1": ("<B", np.bool_),
    "i8": ("<b", np.int8),
    "i16": ("<h", np.int16),
    "i32": ("<i", np.int32),
    "i64": ("<q", np.int64),
    "half": ("<e", np.float16),
    "float": ("<f", np.float32),
    "double": ("<d", np.float64),
    "ptr": ("<Q", np.uint64),
}


_STUBS: list[Any] = []
"""Every stub :meth:`CpuJit._stub_unresolved` made, kept for the life of the process:
LLVM's symbol table is process-wide and the code of a module linked against a stub
calls it for as long as the module lives (a stub freed with its CpuJit would leave
the name bound to freed memory for the next module that declares it)."""

_STUB_ADDRESSES: dict[str, int] = {}
"""Symbol → the address of the last stub bound to it."""


class CpuJitError(UserError):
    """A call that does not fit the function, or a module that does not compile."""


def parse_mlir(text: str) -> ModuleOp:
    """Parse and verify MLIR text with every dialect stock ``xdsl-opt`` knows."""
    from xdsl.context import Context
    from xdsl.parser import Parser
    from xdsl.universe import Universe

    from xdsl_gpu.gpu_dialect.registration import register_dialects

    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    register_dialects(ctx)  # also where xdsl-gpu's entry point is not installed
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


RUNTIME_LIBRARIES = ("libm.so.6", "libgcc_s.so.1")
"""Loaded into the JIT's symbol space: LLVM lowers math intrinsics to libm calls
(``tanhf``, ``fmodf``) and ``llvm.powi`` to libgcc's ``__powisf2``/``__powidf2``,
which an ordinary Python process does not export; an unresolved symbol would be a
call to address 0."""


@cache
def _init_native() -> None:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    for lib in RUNTIME_LIBRARIES:
        try:
            llvm.load_library_permanently(lib)
        except RuntimeError:  # pragma: no cover - not a glibc/libgcc system
            pass


def _signature(fn_type: Any) -> tuple[str, list[str], bool]:
    elements = [str(e) for e in fn_type.elements]
    return elements[0], elements[1:], bool(fn_type.is_function_vararg)


def _packed_wrapper(name: str, ret: str, params: Sequence[str]) -> str:
    lines = [f"define void {identifier(PACKED_PREFIX + name, '@')}(ptr %args) {{"]
    for i, t in enumerate(params):
        lines += [
            f"  %a{i}.pp = getelementptr ptr, ptr %args, i64 {i}",
            f"  %a{i}.p = load ptr, ptr %a{i}.pp",
            f"  %a{i} = load {t}, ptr %a{i}.p",
        ]
    call_args = ", ".join(f"{t} %a{i}" for i, t in enumerate(params))
    callee = identifier(name, "@")
    if ret == "void":
        lines.append(f"  call void {callee}({call_args})")
    else:
        lines += [
            f"  %r = call {ret} {callee}({call_args})",
            f"  %r.pp = getelementptr ptr, ptr %args, i64 {len(params)}",
            "  %r.p = load ptr, ptr %r.pp",
            f"  store {ret} %r, ptr %r.p",
        ]
    lines += ["  ret void", "}"]
    return "\n".join(lines)


@dataclass
class _Descriptor:
    """A memref descriptor read back from memory."""

    allocated: int
    aligned: int
    offset: int
    sizes: tuple[int, ...]
    strides: tuple[int, ...]


def _descriptor_struct(rank: int) -> type[ctypes.Structure]:
    fields: list[tuple[str, Any]] = [
        ("allocated", ctypes.c_void_p),
        ("aligned", ctypes.c_void_p),
        ("offset", ctypes.c_int64),
    ]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    return type(f"MemRefDescriptor{rank}D", (ctypes.Structure,), {"_fields_": fields})


def _is_descriptor_type(t: Any) -> bool:
    """``{ ptr, ptr, i64 [, [r x i64], [r x i64]] }``."""
    if not t.is_struct:
        return False
    elts = [str(e) for e in t.elements]
    if elts[:3] != ["ptr", "ptr", "i64"]:
        return False
    if len(elts) == 3:
        return True
    return len(elts) == 5 and elts[3] == elts[4] and elts[3].endswith("x i64]")


def _wrapping(ctype: Any, bits: int) -> Callable[[Any], Any]:
    return lambda v: ctype(int(v) % (1 << bits))


# The common argument types as ctypes scalars (a tenth of the cost of packing bytes);
# integers wrap around as LLVM's do.
_FAST_PACKERS: dict[str, Callable[[Any], Any]] = {
    "ptr": lambda v: ctypes.c_uint64(int(v or 0)),
    "i64": _wrapping(ctypes.c_uint64, 64),
    "i32": _wrapping(ctypes.c_uint32, 32),
    "float": lambda v: ctypes.c_float(float(v)),
    "double": lambda v: ctypes.c_double(float(v)),
}


@dataclass(frozen=True)
class _Layout:
    """How to read a value of one LLVM type back from its bytes. Computed once per
    function: each of llvmlite's type queries costs microseconds, which a GPU
    program's call would otherwise pay dozens of times."""

    name: str  # the type as LLVM writes it
    size: int  # ABI size in bytes
    is_struct: bool = False
    is_vector: bool = False
    descriptor_rank: int | None = None  # a memref descriptor of this rank
    fields: tuple[tuple[int, _Layout], ...] = ()  # (offset, layout) of struct fields


def _layout(t: Any, data: Any) -> _Layout:
    name = str(t)
    if name == "void":  # LLVM asserts (aborting the process) on its size
        raise CpuJitError("a void value has no layout")
    size = data.get_abi_size(t)
    if not t.is_struct:
        return _Layout(name, size, is_vector=t.is_vector)
    elements = list(t.elements)
    fields = tuple(
        (data.get_element_offset(t, i), _layout(e, data))
        for i, e in enumerate(elements)
    )
    rank = None
    if _is_descriptor_type(t):
        rank = (
            int(str(elements[3]).strip("[]").split(" x ")[0])
            if len(elements) == 5
            else 0
        )
    return _Layout(name, size, is_struct=True, descriptor_rank=rank, fields=fields)


def _scalar(raw: bytes, t: _Layout) -> Any:
    name = t.name
    if name in _SCALARS:
        fmt, dtype = _SCALARS[name]
        value = struct.unpack(fmt, raw[: struct.calcsize(fmt)])[0]
        if name == "ptr":
            return int(value)
        return dtype(value)
    if name == "bfloat":
        bits = struct.unpack("<H", raw[:2])[0] << 16
        return np.float32(struct.unpack("<f", struct.pack("<I", bits))[0])
    if name.startswith("i") and name[1:].isdigit():
        width = int(name[1:])
        value = int.from_bytes(raw[: (width + 7) // 8], "little") % (1 << width)
        return value - (1 << width) if value >> (width - 1) else value
    if t.is_struct:
        return tuple(_scalar(raw[offset:], field) for offset, field in t.fields)
    if t.is_vector:
        raise CpuJitError(f"vector results ({name}) are not decoded here")
    raise CpuJitError(f"cannot read back an LLVM '{name}' result")


def _descriptor(raw: bytes, rank: int) -> _Descriptor:
    words = struct.unpack(f"<{3 + 2 * rank}q", raw[: 8 * (3 + 2 * rank)])
    return _Descriptor(
        words[0], words[1], words[2], words[3 : 3 + rank], words[3 + rank :]
    )


@dataclass(frozen=True)
class _CallPlan:
    """What calling one function needs, resolved once."""

    invoke: Any  # the packed wrapper as a ctypes function of one pointer
    ret: str
    params: list[str]
    result: _Layout | None  # of the returned value, None for void
    # ciface with a result pointer: the layout of the result @name returns
    out_param: _Layout | None


class CpuJit:
    """One module compiled for the host; call its functions with :meth:`call`."""

    def __init__(
        self,
        module: ModuleOp | str,
        *,
        opt_level: int = 2,
        shared_libs: Sequence[str | Path] = (),
    ):
        """``module``: an xDSL module of llvm-dialect ops, or its MLIR text."""
        if isinstance(module, str):
            module = parse_mlir(module)
        llvm_ir = convert_module(module, triple=llvm.get_default_triple())
        self._init(llvm_ir, opt_level, shared_libs)

    @classmethod
    def from_llvm_ir(
        cls,
        llvm_ir: str,
        *,
        opt_level: int = 2,
        shared_libs: Sequence[str | Path] = (),
    ) -> CpuJit:
        """JIT LLVM IR text (for example ``mlir-translate-22 --mlir-to-llvmir``'s)."""
        jit = cls.__new__(cls)
        jit._init(llvm_ir, opt_level, shared_libs)
        return jit

    def _init(self, llvm_ir: str, opt_level: int, shared_libs: Sequence[str | Path]):
        _init_native()
        for lib in shared_libs:
            llvm.load_library_permanently(str(lib))
        ref = parse_module(llvm_ir)
        self.signatures: dict[str, tuple[str, list[str]]] = {}
        wrappers: list[str] = []
        for fn in ref.functions:
            if fn.is_declaration or fn.name.startswith(PACKED_PREFIX):
                continue
            ret, params, variadic = _signature(fn.global_value_type)
            if variadic:
                continue
            self.signatures[fn.name] = (ret, params)
            wrappers.append(_packed_wrapper(fn.name, ret, params))
        self.llvm_ir = llvm_ir + "\n" + "\n\n".join(wrappers) + "\n"
        self.module = parse_module(self.llvm_ir)
        machine = llvm.Target.from_default_triple().create_target_machine(opt=opt_level)
        self.module.triple = machine.triple
        self.module.data_layout = str(machine.target_data)
        self.target_data = machine.target_data
        self.engine = llvm.create_mcjit_compiler(self.module, machine)
        # MLIR's runner utilities (printMemrefF32, printF32...): from shared_libs
        # where one defines them, else xdsl-gpu's own (targets/runtime/runner_utils).
        from xdsl_gpu.targets.runtime.runner_utils import bind

        bind([f.name for f in self.module.functions if f.is_declaration], shared_libs)
        self._stub_unresolved()
        self.engine.finalize_object()
        self._types = {
            fn.name: fn.global_value_type
            for fn in self.module.functions
            if fn.name in self.signatures
        }
        self._plans: dict[str, _CallPlan] = {}

    def _stub_unresolved(self) -> None:
        """Bind each external function that no loaded library defines to a stub that
        records the call. Unresolved, MCJIT would leave every relocation of the
        object unapplied and any call would jump to address 0; with the stubs the
        module runs until it calls one, and :meth:`call` then raises."""
        self.unresolved_calls: list[str] = []
        calls = self.unresolved_calls
        for fn in self.module.functions:
            name = fn.name
            if not fn.is_declaration or name.startswith("llvm."):
                continue
            address = llvm.address_of_symbol(name)
            # A name bound to an earlier module's stub is unresolved here too: that
            # stub records into the earlier module's list.
            if address is not None and _STUB_ADDRESSES.get(name) != address:
                continue

            def stub(name: str = name, calls: list[str] = calls) -> None:
                calls.append(name)

            callback = ctypes.CFUNCTYPE(None)(stub)
            _STUBS.append(callback)
            address = ctypes.cast(callback, ctypes.c_void_p).value
            assert address is not None
            _STUB_ADDRESSES[name] = address
            llvm.add_symbol(name, address)
        for gv in self.module.global_variables:
            if gv.is_declaration and llvm.address_of_symbol(gv.name) is None:
                raise CpuJitError(
                    f"the module uses the external variable @{gv.name}, which no "
                    "loaded library defines; pass its library in shared_libs="
                )

    # -- calling ----------------------------------------------------------------------

    def call(
        self,
        name: str,
        *args: Any,
        convention: str = "descriptor",
        results: Sequence[Any] | Any = None,
        copy: bool = True,
    ) -> Any:
        """Call ``@name`` (``@_mlir_ciface_<name>`` with ``convention="ciface"``).

        Args:
            args: NumPy arrays for memrefs, Python or NumPy scalars for the rest.
            convention: ``"descriptor"``, ``"bare"`` or ``"ciface"`` (module doc).
            results: the NumPy dtype of each memref result (``None`` for a scalar
                result); needed only to turn returned descriptors into arrays.
            copy: return copies of memref results (``False``: views, leaked).

        Returns:
            ``None``, one value, or a tuple for several results.
        """
        if convention not in ("descriptor", "bare", "ciface"):
            raise CpuJitError(
                f"unknown memref convention '{convention}'; use descriptor, bare or "
                "ciface"
            )
        if results is not None and not isinstance(results, list | tuple):
            results = [results]
        symbol = f"_mlir_ciface_{name}" if convention == "ciface" else name
        if symbol not in self.signatures:
            known = ", ".join(sorted(n for n in self.signatures if "." not in n))
            raise CpuJitError(f"no function @{symbol} in the module (it has: {known})")
        plan = self._plan(symbol, name)
        keep: list[Any] = []
        flat: list[Any] = []
        for a in args:
            flat += self._flatten(a, convention, keep)
        result_buffer = None
        if (
            convention == "ciface"
            and plan.ret == "void"
            and len(plan.params) == len(flat) + 1
        ):
            if plan.out_param is None:
                raise CpuJitError(
                    f"@{symbol} takes a result pointer, but @{name} is not in the "
                    "module"
                )
            result_buffer = ctypes.create_string_buffer(plan.out_param.size)
            flat.insert(0, ctypes.addressof(result_buffer))
        if len(flat) != len(plan.params):
            raise CpuJitError(
                f"@{symbol} takes {len(plan.params)} LLVM arguments "
                f"({', '.join(plan.params)}); the call gives {len(flat)} after "
                f"expanding memrefs by the '{convention}' convention"
            )
        buffers = [
            _FAST_PACKERS[t](v) if t in _FAST_PACKERS else self._pack(v, t)
            for v, t in zip(flat, plan.params, strict=True)
        ]  # fmt: skip
        ret_buffer = None
        if plan.result is not None:
            ret_buffer = ctypes.create_string_buffer(max(1, plan.result.size))
            buffers.append(ret_buffer)
        pointers = (ctypes.c_void_p * max(1, len(buffers)))(
            *[ctypes.addressof(b) for b in buffers]
        )
        plan.invoke(ctypes.addressof(pointers))
        del keep
        if self.unresolved_calls:
            missing = ", ".join(f"@{n}" for n in dict.fromkeys(self.unresolved_calls))
            self.unresolved_calls.clear()
            raise CpuJitError(
                f"@{symbol} called {missing}, which neither the module nor a loaded "
                "library defines; pass its library in shared_libs="
            )
        if result_buffer is not None:
            assert plan.out_param is not None
            return self._decode(result_buffer.raw, plan.out_param, results, copy)
        if ret_buffer is None or plan.result is None:
            return None
        return self._decode(ret_buffer.raw, plan.result, results, copy)

    def _plan(self, symbol: str, name: str) -> _CallPlan:
        plan = self._plans.get(symbol)
        if plan is not None:
            return plan
        ret, params = self.signatures[symbol]
        ret_type = next(iter(self._types[symbol].elements))
        out_param = None
        if symbol != name and ret == "void" and params and params[0] == "ptr":
            # _mlir_ciface_<name> returns @name's result through its first argument.
            inner = self._types.get(name)
            inner_ret = None if inner is None else next(iter(inner.elements))
            if inner_ret is not None and str(inner_ret) != "void":
                out_param = _layout(inner_ret, self.target_data)
        address = self.engine.get_function_address(PACKED_PREFIX + symbol)
        plan = _CallPlan(
            invoke=ctypes.CFUNCTYPE(None, ctypes.c_void_p)(address),
            ret=ret,
            params=params,
            result=None if ret == "void" else _layout(ret_type, self.target_data),
            out_param=out_param,
        )
        self._plans[symbol] = plan
        return plan

    def function(self, name: str, **kwargs: Any) -> Any:
        """``call`` bound to one function and convention."""
        return lambda *args: self.call(name, *args, **kwargs)

    def address(self, name: str) -> int:
        """The address of ``@name``'s machine code."""
        return self.engine.get_function_address(name)

    # -- arguments --------------------------------------------------------------------

    @staticmethod
    def _flatten(value: Any, convention: str, keep: list[Any]) -> list[Any]:
        if not isinstance(value, np.ndarray):
            return [value]
        keep.append(value)
        base = value.ctypes.data
        if convention == "bare":
            return [base]
        item = value.itemsize
        sizes = list(value.shape)
        strides = [s // item for s in value.strides]
        if convention == "descriptor":
            return [base, base, 0, *sizes, *strides]
        desc = _descriptor_struct(value.ndim)()
        desc.allocated = base
        desc.aligned = base
        desc.offset = 0
        if value.ndim:
            desc.sizes[:] = sizes
            desc.strides[:] = strides
        keep.append(desc)
        return [ctypes.addressof(desc)]

    @staticmethod
    def _pack(value: Any, t: str) -> Any:
        if t in ("half", "float", "double"):
            data = struct.pack(_SCALARS[t][0], float(value))
        elif t == "bfloat":
            bits = struct.unpack("<I", struct.pack("<f", float(value)))[0]
            data = struct.pack("<H", bits >> 16)
        elif t == "ptr":
            data = struct.pack("<Q", int(value or 0))
        elif t.startswith("i") and t[1:].isdigit():
            width = int(t[1:])
            data = (int(value) % (1 << width)).to_bytes((width + 7) // 8, "little")
        else:
            raise CpuJitError(f"cannot pass {value!r} as an LLVM '{t}' argument")
        return ctypes.create_string_buffer(data, len(data))

    # -- results ----------------------------------------------------------------------

    def _decode(
        self, raw: bytes, t: _Layout, results: Sequence[Any] | None, copy: bool
    ) -> Any:
        if t.descriptor_rank is not None and results is not None and len(results) == 1:
            return self._array(_descriptor(raw, t.descriptor_rank), results[0], copy)
        if t.is_struct:
            hints = list(results) if results is not None else [None] * len(t.fields)
            if len(hints) != len(t.fields):
                raise CpuJitError(
                    f"the function returns {len(t.fields)} values; results= names "
                    f"{len(hints)}"
                )
            out = []
            for (offset, ft), hint in zip(t.fields, hints, strict=True):
                chunk = raw[offset : offset + ft.size]
                if ft.descriptor_rank is not None and hint is not None:
                    out.append(
                        self._array(_descriptor(chunk, ft.descriptor_rank), hint, copy)
                    )
                else:
                    out.append(_scalar(chunk, ft))
            return tuple(out)
        return _scalar(raw, t)

    @staticmethod
    def _array(d: _Descriptor, dtype: Any, copy: bool) -> np.ndarray:
        dtype = np.dtype(dtype)
        if any(s == 0 for s in d.sizes):
            return np.zeros(d.sizes, dtype)
        start = d.aligned + d.offset * dtype.itemsize
        lo = sum(min(0, (n - 1) * s) for n, s in zip(d.sizes, d.strides, strict=True))
        hi = sum(max(0, (n - 1) * s) for n, s in zip(d.sizes, d.strides, strict=True))
        count = hi - lo + 1
        buffer = (ctypes.c_char * (count * dtype.itemsize)).from_address(
            start + lo * dtype.itemsize
        )
        array = np.ndarray(
            d.sizes,
            dtype,
            buffer=buffer,
            offset=-lo * dtype.itemsize,
            strides=[s * dtype.itemsize for s in d.strides],
        )
        return array.copy() if copy else array


# --------------------------------------------------------------------------------------
# The upstream oracle
# --------------------------------------------------------------------------------------


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise CpuJitError(
            f"{name} is not installed; install Debian's mlir-22-tools for the "
            "upstream oracle"
        )
    return path


def mlir_opt(mlir: str, pipeline: str | Sequence[str] = ()) -> str:
    """Run ``mlir-opt-22`` on ``mlir``; ``pipeline`` is a ``--pass-pipeline`` string
    or a list of flags such as ``["--convert-to-llvm"]``."""
    if isinstance(pipeline, str):
        flags = [f"--pass-pipeline={pipeline}"] if pipeline else []
    else:
        flags = list(pipeline)
    return _run([_tool("mlir-opt-22"), *flags], mlir)


def upstream_llvm_ir(mlir: str, pipeline: str | Sequence[str] = ()) -> str:
    """Lower ``mlir`` with ``mlir-opt-22`` (see :func:`mlir_opt`) and translate it
    with ``mlir-translate-22 --mlir-to-llvmir``."""
    lowered = mlir_opt(mlir, pipeline)
    return _run([_tool("mlir-translate-22"), "--mlir-to-llvmir"], lowered)


def runner_utils_libraries() -> list[str]:
    """Debian's ``libmlir_c_runner_utils`` (``printF32``, ``printNewline``...) and
    ``libmlir_runner_utils`` (``printMemrefF32``...), those that are installed."""
    found: list[str] = []
    for name in ("libmlir_c_runner_utils", "libmlir_runner_utils"):
        for suffix in (".so", ".so.22.1"):
            path = Path("/usr/lib/llvm-22/lib") / f"{name}{suffix}"
            if path.exists():
                found.append(str(path))
                break
    return found


def mlir_runner(
    mlir: str,
    *,
    entry: str = "main",
    entry_result: str = "void",
    shared_libs: Sequence[str] = (),
) -> str:
    """Run lowered (llvm-dialect) MLIR with ``mlir-runner-22``; its stdout. By
    default the runner utility libraries are loaded (:func:`runner_utils_libraries`)."""
    libs = list(shared_libs) or runner_utils_libraries()
    args = [
        _tool("mlir-runner-22"),
        f"-e={entry}",
        f"-entry-point-result={entry_result}",
    ]
    args += [f"-shared-libs={lib}" for lib in libs]
    return _run(args, mlir)


def _run(args: list[str], stdin: str) -> str:
    done = subprocess.run(
        args, input=stdin, capture_output=True, text=True, timeout=120
    )
    if done.returncode != 0:
        raise CpuJitError(f"{Path(args[0]).name} failed:\n{done.stderr.strip()}")
    return done.stdout
