"""Load a GPU program and call its functions with NumPy arrays.

::

    from xdsl_gpu.targets.runtime import load

    program = load(mlir_text)                       # lowered for this machine's GPU
    c = program.call("matmul", a, b)                # memrefs as NumPy arrays
    c = program["matmul"](a, b)                     # the same

What :func:`load` does: parse (text) or clone (an xDSL module) the program; if it still
has ops above the LLVM level (``gpu.launch``, ``gpu.module`` with ``gpu.func``,
``func``, ``arith``...), run ``gpu-lower-to-nvvm-pipeline`` with ``cubin-chip`` set to
the GPU in use; translate the host side with its binaries (the offloading translation,
``xdsl_gpu/targets/offloading``); JIT-compile it and run its global constructors, which load
the GPU modules (once, for the life of the program).

Calls marshal arguments as ``xdsl_gpu/targets/cpu_jit.py`` does (conventions ``descriptor``,
``bare`` and ``ciface``: see :meth:`GpuProgram.call`), synchronize the device after
the function returns (so results are complete and device ``printf`` output is
flushed), and raise the first CUDA error the program hit, naming the kernel and the
MLIR location of its launch.

Memory and ownership:

* NumPy arrays passed for memrefs are host memory, which kernels cannot always
  dereference. Unless the device reads pageable host memory itself (HMM,
  ``CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS``), each array is staged in managed
  memory for the call and copied back afterwards (``stage_arrays=`` overrides).
  Contiguous arrays from :func:`managed_array` (or other memory CUDA maps for the
  device) are passed as they are: no copy.
* Memref results are returned as NumPy copies, made after the synchronization; the
  memory the program returned (for example a ``gpu.alloc host_shared`` buffer) stays
  the program's: xdsl-gpu does not free it, exactly as a C caller of the same
  function would have to decide. ``copy=False`` returns views of that memory instead,
  valid as long as the program does not free it.
"""

from __future__ import annotations

import ctypes
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.arg_spec import ArgSpec, ParameterListType, parse_spec
from xdsl.utils.exceptions import ArgSpecParseError

from xdsl_gpu.compat import PassPipelineError, mlir_pipeline_to_xdsl
from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import ModuleOp as GPUModuleOp
from xdsl_gpu.passes.gpu_lower_to_nvvm_pipeline import (
    PIPELINE_NAME,
    GpuLowerToNVVMPipelinePass,
)

OptionValue = str | int | bool
PipelineOptions = str | Mapping[str, OptionValue] | None

# Besides llvm ops, what a lowered host module holds and the translation handles.
_LLVM_LEVEL_OPS = frozenset(
    {"builtin.module", "gpu.binary", "gpu.launch_func", "gpu.module"}
)


class GpuProgramError(UserError):
    """A program that cannot be loaded, or a call that does not fit its function."""


def needs_gpu_lowering(module: ModuleOp) -> bool:
    """Whether ``module`` still has ops above the LLVM level, so that the pipeline
    must run: anything but ``llvm`` ops, ``gpu.binary``, ``gpu.launch_func``, and
    ``gpu.module``s of ``llvm``/``nvvm`` ops (those only need serializing)."""
    for op in module.walk():
        if op.name in _LLVM_LEVEL_OPS or op.name.startswith("llvm."):
            continue
        if op.name.startswith("nvvm.") and _in_gpu_module(op):
            continue
        return True
    return False


def _in_gpu_module(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, GPUModuleOp):
            return True
        parent = parent.parent_op()
    return False


def _gpu_modules(module: ModuleOp) -> list[GPUModuleOp]:
    return [op for op in module.walk() if isinstance(op, GPUModuleOp)]


def pipeline_pass(
    options: PipelineOptions = None, *, chip: str | None = None
) -> GpuLowerToNVVMPipelinePass:
    """``gpu-lower-to-nvvm-pipeline`` with ``options`` (a ``"key=value key=value"``
    string as in ``xdsl-opt -p``, or a mapping with kebab- or snake-case keys);
    ``chip`` is the ``cubin-chip`` unless the options name one."""
    parameters: dict[str, ParameterListType] = {}
    if isinstance(options, str):
        if options.strip():
            try:
                # Upstream's option syntax, as xdsl-opt reads it: bare values
                # such as cubin-features=+ptx80 or features=+ptx80,+sm_90a.
                spec = mlir_pipeline_to_xdsl(f"{PIPELINE_NAME}{{{options.strip()}}}")
                parameters = dict(parse_spec(spec).parameters)
            except (ArgSpecParseError, PassPipelineError) as e:
                raise GpuProgramError(
                    f"cannot parse the pipeline options '{options}': {e}; write them "
                    "as in xdsl-opt, e.g. 'cubin-chip=sm_90 cubin-features=+ptx80'"
                ) from None
    elif options is not None:
        parameters = {k: (v,) for k, v in options.items()}
    parameters = {k.replace("_", "-"): v for k, v in parameters.items()}
    if chip is not None and "cubin-chip" not in parameters:
        parameters["cubin-chip"] = (chip,)
    try:
        return GpuLowerToNVVMPipelinePass.from_pass_spec(
            ArgSpec(PIPELINE_NAME, parameters)
        )
    except ValueError as e:
        raise GpuProgramError(f"{PIPELINE_NAME}: {e}") from None


def program_context() -> Context:
    """A context with every dialect ``xdsl-opt`` knows, and xdsl-gpu's dialects
    registered explicitly, so that a source checkout without the installed
    ``xdsl.universe`` entry point parses the same programs."""
    from xdsl.universe import Universe

    from xdsl_gpu.gpu_dialect import register_dialects
    from xdsl_gpu.targets import register_target_interfaces

    register_target_interfaces()  # gpu-module-to-binary serializes through them
    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    register_dialects(ctx)
    return ctx


def parse_program(text: str, name: str = "<program>") -> ModuleOp:
    """Parse and verify MLIR text with every dialect ``xdsl-opt`` knows."""
    from xdsl.parser import Parser

    module = Parser(program_context(), text, name).parse_module()
    module.verify()
    return module


@dataclass(frozen=True)
class FunctionInfo:
    """What the source program says about a function (before lowering)."""

    name: str
    argument_types: tuple[Attribute, ...]
    result_types: tuple[Attribute, ...]
    c_interface: bool

    def result_dtypes(self) -> list[Any] | None:
        """NumPy dtypes of memref results (``None`` for the other results)."""
        return [
            _dtype(t.element_type) if isinstance(t, MemRefType) else None
            for t in self.result_types
        ]


def _dtype(element: Attribute) -> Any:
    if isinstance(element, IntegerType):
        width = element.width.data
        if width == 1:
            return np.bool_
        return np.dtype(f"i{max(1, width // 8)}")
    if isinstance(element, AnyFloat):
        return {16: np.float16, 32: np.float32, 64: np.float64}.get(element.bitwidth)
    if isinstance(element, IndexType):
        return np.int64
    return None


def _function_infos(module: ModuleOp) -> dict[str, FunctionInfo]:
    infos: dict[str, FunctionInfo] = {}
    for op in module.ops:
        if isinstance(op, func.FuncOp):
            infos[op.sym_name.data] = FunctionInfo(
                op.sym_name.data,
                tuple(op.function_type.inputs.data),
                tuple(op.function_type.outputs.data),
                "llvm.emit_c_interface" in op.attributes,
            )
    return infos


def compile_host_llvm_ir(
    module: ModuleOp,
    *,
    pipeline_options: PipelineOptions = None,
    chip: str | None = None,
) -> str:
    """Lower ``module`` in place when it needs it (:func:`needs_gpu_lowering`) and
    return its host LLVM IR with the GPU binaries embedded."""
    from xdsl_gpu.targets.offloading.target import host_llvm_ir

    if needs_gpu_lowering(module):
        pipeline_pass(pipeline_options, chip=chip).apply(program_context(), module)
    elif gpu_modules := _gpu_modules(module):
        _serialize(module, gpu_modules, pipeline_pass(pipeline_options, chip=chip))
    elif pipeline_options:
        raise GpuProgramError(
            "pipeline options were given, but the program is already lowered to the "
            "llvm dialect and has no gpu.module; drop the options"
        )
    return host_llvm_ir(module)


def _serialize(
    module: ModuleOp,
    gpu_modules: list[GPUModuleOp],
    options: GpuLowerToNVVMPipelinePass,
) -> None:
    """The last steps of the pipeline for ``gpu.module``s that are already at the
    LLVM level: a target from the pipeline options where a module has none, then
    ``gpu-module-to-binary``."""
    from xdsl_gpu.passes.gpu_module_to_binary import GpuModuleToBinaryPass
    from xdsl_gpu.passes.nvvm_attach_target import NVVMAttachTargetPass

    target = NVVMAttachTargetPass(
        triple=options.cubin_triple,
        chip=options.cubin_chip,
        features=options.cubin_features,
        O=options.opt_level,
        ptxas_cmd_options=options.ptxas_cmd_options,
    ).target()
    for gpu_module in gpu_modules:
        if gpu_module.targets is None or not gpu_module.targets.data:
            gpu_module.targets = ArrayAttr([target])
    GpuModuleToBinaryPass(format=options.cubin_format).apply(program_context(), module)


def _pageable_memory_access(device: Any) -> bool:
    from xdsl_gpu.targets.runtime import driver

    return driver.pageable_memory_access(device.ordinal)


_MANAGED_OWNERS: set[int] = set()
"""``id`` of the memory of each live array that :func:`managed_array` made (ctypes
buffers cannot be hashed or weakly referenced in sets)."""


def _free_managed(pointer: Any, owner_id: int) -> None:
    import cuda.bindings.driver as cu

    _MANAGED_OWNERS.discard(owner_id)
    cu.cuMemFree(pointer)


def managed_array(
    shape: int | Sequence[int], dtype: Any = np.float32, *, fill: Any = None
) -> np.ndarray:
    """A NumPy array in CUDA managed memory: kernels dereference it where it is, so
    :meth:`GpuProgram.call` passes it without staging. Reuse it across calls to keep
    copies out of a hot loop. ``fill``: an initial value, or an array to copy.

    The memory is freed when the array (and every view of it) is garbage collected.
    """
    import cuda.bindings.driver as cu

    from xdsl_gpu.targets.runtime.driver import check
    from xdsl_gpu.targets.runtime.runtime import CudaRuntime

    CudaRuntime.get()  # the context managed memory belongs to
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    nbytes = max(1, count * dtype.itemsize)
    result, pointer = cu.cuMemAllocManaged(
        nbytes, cu.CUmemAttach_flags.CU_MEM_ATTACH_GLOBAL.value
    )
    check(result, f"cuMemAllocManaged ({nbytes} bytes)")
    owner = (ctypes.c_char * nbytes).from_address(int(pointer))
    weakref.finalize(owner, _free_managed, pointer, id(owner))
    _MANAGED_OWNERS.add(id(owner))
    array = np.frombuffer(memoryview(owner), dtype=dtype, count=count).reshape(shape)
    if fill is not None:
        array[...] = fill
    return array


def _device_accessible(array: np.ndarray) -> bool:
    """Whether kernels can dereference ``array``'s pointer as it is: managed memory,
    or host memory registered with CUDA (``cuMemHostRegister``)."""
    import cuda.bindings.driver as cu

    if array.size == 0:
        return True
    root: Any = array
    while isinstance(root, np.ndarray):
        root = root.base
    if id(root) in _MANAGED_OWNERS:  # from managed_array: no driver call needed
        return True
    result, device_pointer = cu.cuPointerGetAttribute(
        cu.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_POINTER, array.ctypes.data
    )
    return (
        result == cu.CUresult.CUDA_SUCCESS and int(device_pointer) == array.ctypes.data
    )


class _StagedArray:
    """A NumPy array's contents in managed memory, for one call."""

    def __init__(self, array: np.ndarray) -> None:
        import cuda.bindings.driver as cu

        from xdsl_gpu.targets.runtime.driver import check

        self.original = array
        self.nbytes = max(1, array.nbytes)
        result, pointer = cu.cuMemAllocManaged(
            self.nbytes, cu.CUmemAttach_flags.CU_MEM_ATTACH_GLOBAL.value
        )
        check(result, "cuMemAllocManaged (staging a NumPy argument)")
        self.pointer = int(pointer)
        buffer = memoryview((ctypes.c_char * self.nbytes).from_address(self.pointer))
        self.view = np.frombuffer(buffer, dtype=array.dtype, count=array.size).reshape(
            array.shape
        )
        self.view[...] = array

    def finish(self) -> None:
        """Copy the contents back (when the array is writable) and free them."""
        import cuda.bindings.driver as cu

        if self.original.flags.writeable and self.original.size:
            self.original[...] = self.view
        (result,) = cu.cuMemFree(self.pointer)
        self.view = None  # type: ignore[assignment]
        del result  # freeing staging memory cannot fail in a way the caller can fix


class GpuProgram:
    """A loaded program: its GPU modules are loaded, its functions callable."""

    def __init__(
        self,
        host_llvm_ir: str,
        functions: Mapping[str, FunctionInfo] | None = None,
        *,
        opt_level: int = 2,
        stage_arrays: bool | None = None,
    ) -> None:
        from xdsl_gpu.targets.cpu_jit import CpuJit
        from xdsl_gpu.targets.runtime.runtime import CudaRuntime

        # The runtime binds the mgpu* symbols, which the JIT must find.
        self.runtime = CudaRuntime.get()
        self.host_llvm_ir = host_llvm_ir
        self.functions: dict[str, FunctionInfo] = dict(functions or {})
        self.stage_arrays = (
            not _pageable_memory_access(self.runtime.device)
            if stage_arrays is None
            else stage_arrays
        )
        self._jit = CpuJit.from_llvm_ir(host_llvm_ir, opt_level=opt_level)
        self._closed = False
        self._jit.engine.run_static_constructors()
        self.runtime.raise_pending_error()

    # -- calling ----------------------------------------------------------------------

    def call(
        self,
        name: str,
        *args: Any,
        convention: str = "descriptor",
        results: Sequence[Any] | Any = None,
        copy: bool = True,
    ) -> Any:
        """Call ``@name`` and wait for the GPU.

        Args:
            args: NumPy arrays for memrefs (and for pointers with ``bare``), Python or
                NumPy scalars for the rest.
            convention: ``"descriptor"`` (default: a memref is its expanded
                descriptor, as ``convert-func-to-llvm`` lowers functions),
                ``"bare"`` (a memref is its data pointer) or ``"ciface"`` (call
                ``@_mlir_ciface_<name>`` of a function with ``llvm.emit_c_interface``:
                a memref is a pointer to its descriptor).
            results: the NumPy dtype of each memref result; taken from the source
                program's ``func.func`` when it had one.
            copy: return memref results as copies (default) or as views of the
                program's memory (a result that aliases a staged argument would then
                point at freed memory: keep ``copy=True`` for those).

        Returns:
            ``None``, one value, or a tuple for several results.
        """
        if self._closed:
            raise GpuProgramError(f"the program is closed; cannot call @{name}")
        if results is None and (info := self.functions.get(name)) is not None:
            dtypes = info.result_dtypes()
            if dtypes and any(d is not None for d in dtypes):
                results = dtypes
        staged: list[_StagedArray] = []
        try:
            call_args: list[Any] = []
            for a in args:
                # A managed array is passed as it is, but only when contiguous:
                # code for an identity-layout memref ignores a view's strides.
                if (
                    isinstance(a, np.ndarray)
                    and self.stage_arrays
                    and not (a.flags.c_contiguous and _device_accessible(a))
                ):
                    staged.append(_StagedArray(a))
                    call_args.append(staged[-1].view)
                else:
                    call_args.append(a)
            value = self._jit.call(
                name, *call_args, convention=convention, results=results, copy=False
            )
            self.runtime.raise_pending_error()
            self.runtime.synchronize()
            self.runtime.raise_pending_error()
            _flush_c_stdout()
            # Copy before the staging memory goes: a result may alias an argument.
            return _copy_arrays(value) if copy else value
        finally:
            for s in staged:
                s.finish()

    def __getitem__(self, name: str) -> Callable[..., Any]:
        """``program[name](*args, **options)`` is ``program.call(name, ...)``."""
        return lambda *args, **kwargs: self.call(name, *args, **kwargs)

    def address(self, symbol: str) -> int:
        """The machine-code address of ``@symbol``, to call it through ctypes or C
        without :meth:`call`'s marshalling (and without its synchronization and
        error check: call :meth:`check` afterwards)."""
        return self._jit.address(symbol)

    def check(self) -> None:
        """Raise the first CUDA error the program hit since the last check."""
        self.runtime.raise_pending_error()

    def signature(self, symbol: str) -> tuple[str, list[str]] | None:
        """The LLVM result and parameter types of ``@symbol`` in the host code."""
        return self._jit.signatures.get(symbol)

    # -- lifetime ---------------------------------------------------------------------

    def close(self) -> None:
        """Wait for the GPU and run the global destructors (unload the modules)."""
        if not self._closed:
            self._closed = True
            self.runtime.synchronize()
            self._jit.engine.run_static_destructors()
            _flush_c_stdout()
            self.runtime.raise_pending_error()

    def __enter__(self) -> GpuProgram:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _copy_arrays(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, tuple):
        return tuple(_copy_arrays(v) for v in value)
    return value


@cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None)


def _flush_c_stdout() -> None:
    """Flush C's ``stdout`` (device ``printf`` and host ``printf`` go through it)."""
    _libc().fflush(None)


def load(
    program: str | ModuleOp,
    *,
    pipeline_options: PipelineOptions = None,
    opt_level: int = 2,
    stage_arrays: bool | None = None,
) -> GpuProgram:
    """Compile ``program`` (MLIR text or an xDSL module, left untouched) for the GPU
    of this machine and load it.

    ``pipeline_options``: options of ``gpu-lower-to-nvvm-pipeline`` (string or
    mapping), used when the program still needs lowering; ``cubin-chip`` defaults to
    the GPU in use. ``opt_level``: the host JIT's optimization level.
    """
    from xdsl_gpu.targets.runtime.runtime import CudaRuntime

    module = parse_program(program) if isinstance(program, str) else program.clone()
    functions = _function_infos(module)
    runtime = CudaRuntime.get()
    llvm_ir = compile_host_llvm_ir(
        module, pipeline_options=pipeline_options, chip=f"sm_{runtime.device.sm}"
    )
    return GpuProgram(
        llvm_ir, functions, opt_level=opt_level, stage_arrays=stage_arrays
    )
