"""The ``mgpu*`` runtime (upstream's CudaRuntimeWrappers ABI) for JIT-compiled code.

:class:`CudaRuntime` compiles the native half (``mgpu_ir.py``) into an llvmlite
execution engine, binds the driver entry points it calls, and implements the rare
entry points in Python. Errors stop the GPU program at the first failing call and
name the call, the CUDA error, and the launch site (kernel and MLIR location).
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable
from typing import Any

import llvmlite.binding as llvm

from xdsl_gpu.targets.runtime import driver, mgpu_ir
from xdsl_gpu.targets.runtime.driver import CudaError
from xdsl_gpu.targets.runtime.host_memory import MappedHostMemory
from xdsl_gpu.targets.runtime.tensor_map import TensorMapEncoder

CU_MEM_LOCATION_TYPE_DEVICE = 1

_C_TYPES: dict[str, Any] = {
    "void": None,
    "ptr": ctypes.c_void_p,
    "i8": ctypes.c_int8,
    "i16": ctypes.c_int16,
    "i32": ctypes.c_int32,
    "i64": ctypes.c_int64,
}


HOST_MEMORY_NOTE = (
    "\n  note: this GPU cannot reach pageable host memory; if the kernel uses host "
    "memory that the program did not allocate itself (arrays passed in), register "
    "it first (gpu.host_register) or copy it to device memory (gpu.alloc, gpu.memcpy)"
)


def access_note(error: str, pageable_memory_access: bool) -> str:
    """What an illegal-address error adds: on a GPU that cannot reach pageable host
    memory, the likely cause is a kernel using host memory nobody registered (a
    mistake some of MLIR's own integration programs make, and that runs on
    machines with HMM)."""
    if error == "CUDA_ERROR_ILLEGAL_ADDRESS" and not pageable_memory_access:
        return HOST_MEMORY_NOTE
    return ""


def c_function_type(signature: str) -> Any:
    """A ctypes function type for an LLVM signature such as ``ptr (ptr, i64)``."""
    result, params = signature.split(" ", 1)
    args = [_C_TYPES[p.strip()] for p in params.strip("()").split(",") if p.strip()]
    return ctypes.CFUNCTYPE(_C_TYPES[result], *args)


class CudaRuntime:
    """One process-wide runtime on one device; create it with :meth:`get`."""

    _instance: CudaRuntime | None = None

    def __init__(self, device_ordinal: int = 0) -> None:
        self.device = driver.device(device_ordinal)
        self.on_error: str = "raise"  # or "exit": print the diagnostic, exit 1
        self.error: CudaError | None = None
        self._modules: dict[int, Any] = {}
        self._callbacks: dict[str, Any] = {}
        self._tensor_maps = TensorMapEncoder(self._fail, self._stopped)
        # Kernels cannot reach malloc'd memory here: programs get mapped memory.
        self.host_memory = (
            None
            if driver.pageable_memory_access(device_ordinal)
            else MappedHostMemory()
        )
        self._bind_symbols()
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        self._module = llvm.parse_assembly(mgpu_ir.runtime_module_ir())
        machine = llvm.Target.from_default_triple().create_target_machine(opt=2)
        self.engine = llvm.create_mcjit_compiler(self._module, machine)
        self.engine.finalize_object()
        self._status = ctypes.c_int32.from_address(
            self.engine.get_global_value_address("__xdsl_gpu_status")
        )
        self._launch_site = ctypes.c_void_p.from_address(
            self.engine.get_global_value_address("__xdsl_gpu_launch_site")
        )
        self._counters = (ctypes.c_int64 * mgpu_ir.COUNTERS).from_address(
            self.engine.get_global_value_address("__xdsl_gpu_counters")
        )
        self._prefetch_location = ctypes.c_int64.from_address(
            self.engine.get_global_value_address(mgpu_ir.PREFETCH_LOCATION)
        )
        self._set_prefetch_location()
        self._export_entry_points()

    @classmethod
    def get(cls, device_ordinal: int = 0) -> CudaRuntime:
        """The runtime, its ``mgpu*`` symbols bound for the next program to link."""
        if cls._instance is None:
            cls._instance = CudaRuntime(device_ordinal)
        else:
            cls._instance.rebind_symbols()
        return cls._instance

    # -- symbols -------------------------------------------------------------------

    def _bind_symbols(self) -> None:
        for suffix, (symbol, _) in mgpu_ir.DRIVER_FUNCTIONS.items():
            llvm.add_symbol(mgpu_ir.driver_symbol(suffix), driver.proc_address(symbol))
        implementations: dict[str, Callable[..., Any]] = {
            "__xdsl_gpu_fail": self._fail,
            "mgpuModuleLoad": self._module_load,
            "mgpuModuleLoadJIT": self._module_load_jit,
            "mgpuModuleLoadBest": self._module_load_best,
            "mgpuModuleUnload": self._module_unload,
            "mgpuSetDefaultDevice": self._set_default_device,
            "mgpuMemHostRegisterMemRef": self._host_register_memref,
            "mgpuMemHostUnregisterMemRef": self._host_unregister_memref,
            "mgpuTensorMapEncodeTiled": self._tensor_maps.encode_tiled,
            "mgpuTensorMapEncodeTiledMemref": self._tensor_maps.encode_tiled_memref,
        }
        for name, signature in mgpu_ir.CALLBACKS.items():
            callback = c_function_type(signature)(implementations[name])
            self._callbacks[name] = callback  # keep it alive
            llvm.add_symbol(name, ctypes.cast(callback, ctypes.c_void_p).value)
        if self.host_memory is not None:
            for name, callback in self.host_memory.c_functions().items():
                self._callbacks[name] = callback
                llvm.add_symbol(name, ctypes.cast(callback, ctypes.c_void_p).value)

    def rebind_symbols(self) -> None:
        """Point the ``mgpu*`` names at this runtime again. LLVM's JIT symbol table
        is process-wide: anything else in the process that JIT-compiles code may
        have bound the same names (a stand-in ``mgpuModuleLoadBest`` returning a
        made-up module, a callback since freed), and a program linked against those
        would crash at its first launch."""
        for name, callback in self._callbacks.items():
            llvm.add_symbol(name, ctypes.cast(callback, ctypes.c_void_p).value)
        self._export_entry_points()

    def _set_prefetch_location(self) -> None:
        """Let ``mgpuMemAlloc`` prefetch host-shared memory to this device where that
        is valid: the device accesses managed memory concurrently with the host, and
        the driver's ``cuMemPrefetchAsync`` has CUDA 13's signature."""
        import cuda.bindings.driver as cu

        result, concurrent = cu.cuDeviceGetAttribute(
            cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
            self.device.handle,
        )
        usable = (
            result == cu.CUresult.CUDA_SUCCESS
            and bool(concurrent)
            and self.device.driver_version >= 13000
        )
        location = CU_MEM_LOCATION_TYPE_DEVICE | self.device.ordinal << 32
        self._prefetch_location.value = location if usable else 0

    def _export_entry_points(self) -> None:
        """Make the compiled ``mgpu*`` functions visible to other JIT engines."""
        for name in mgpu_ir.EXPORTED_FUNCTIONS:
            llvm.add_symbol(name, self.engine.get_function_address(name))
        for name in mgpu_ir.EXPORTED_GLOBALS:
            llvm.add_symbol(name, self.engine.get_global_value_address(name))

    # -- state seen from Python -------------------------------------------------------

    @property
    def module_loads(self) -> int:
        return self._counters[mgpu_ir.COUNTER_MODULE_LOADS]

    @property
    def live_streams(self) -> int:
        return self._counters[mgpu_ir.COUNTER_LIVE_STREAMS]

    @property
    def live_events(self) -> int:
        return self._counters[mgpu_ir.COUNTER_LIVE_EVENTS]

    @property
    def live_allocations(self) -> int:
        return self._counters[mgpu_ir.COUNTER_LIVE_ALLOCATIONS]

    def raise_pending_error(self) -> None:
        """Raise the error that stopped the GPU program, and clear it."""
        if (error := self.error) is not None:
            self.error = None
            self._status.value = 0
            raise error

    def synchronize(self) -> None:
        """Wait for all work (and flush device printf)."""
        import cuda.bindings.driver as cu

        (result,) = cu.cuCtxSynchronize()
        if result != cu.CUresult.CUDA_SUCCESS:
            self._fail(int(result), b"cuCtxSynchronize")
        sys.stdout.flush()

    # -- failure ------------------------------------------------------------------

    def _fail(self, code: int, what: bytes | int | None) -> None:
        call = (
            ctypes.string_at(what).decode()
            if isinstance(what, int)
            else (what.decode() if what else "CUDA call")
        )
        message = (
            f"{call} failed with {driver.error_name(code)}: {driver.error_string(code)}"
        )
        if self._launch_site.value:
            site = ctypes.string_at(self._launch_site.value).decode(errors="replace")
            message += f"\n  last kernel launched: {site}"
        message += access_note(
            driver.error_name(code), driver.pageable_memory_access(self.device.ordinal)
        )
        self._report(CudaError(message), code)

    def _report(self, error: CudaError, code: int = 1) -> None:
        self._status.value = code or 1
        if self.error is None:
            self.error = error
        if self.on_error == "exit":
            sys.stdout.flush()
            print(f"error: {error}", file=sys.stderr, flush=True)
            os._exit(1)

    def _stopped(self) -> bool:
        return self._status.value != 0

    # -- slow-path entry points ------------------------------------------------------

    def _module_load(self, data: int, size: int) -> int | None:
        import cuda.bindings.driver as cu

        if self._stopped():
            return None
        result, module = cu.cuModuleLoadData(data)
        if result != cu.CUresult.CUDA_SUCCESS:
            self._fail_module_load(int(result), "cuModuleLoadData")
            return None
        self._counters[mgpu_ir.COUNTER_MODULE_LOADS] += 1
        handle = int(module)
        self._modules[handle] = module
        return handle

    def _fail_module_load(self, code: int, call: str, log: str = "") -> None:
        hint = ""
        if driver.error_name(code) in (
            "CUDA_ERROR_NO_BINARY_FOR_GPU",
            "CUDA_ERROR_INVALID_PTX",
            "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
        ):
            hint = (
                f"\n  the device is sm_{self.device.sm} ({self.device.name}); compile "
                f'for chip = "sm_{self.device.sm}" or use format=fatbin/isa'
            )
        message = (
            f"{call} failed with {driver.error_name(code)}: {driver.error_string(code)}"
        )
        self._report(CudaError(message + hint + (f"\n{log}" if log else "")), code)

    def _module_load_jit(self, data: int, opt_level: int) -> int | None:
        import cuda.bindings.driver as cu

        if self._stopped():
            return None
        log = bytearray(8192)
        jit = cu.CUjit_option
        options = [
            jit.CU_JIT_ERROR_LOG_BUFFER,
            jit.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            jit.CU_JIT_OPTIMIZATION_LEVEL,
        ]
        values = [log, len(log), max(0, min(4, opt_level))]
        result, module = cu.cuModuleLoadDataEx(data, len(options), options, values)
        if result != cu.CUresult.CUDA_SUCCESS:
            text = bytes(log).split(b"\0", 1)[0].decode(errors="replace")
            self._fail_module_load(int(result), "cuModuleLoadDataEx (PTX JIT)", text)
            return None
        self._counters[mgpu_ir.COUNTER_MODULE_LOADS] += 1
        handle = int(module)
        self._modules[handle] = module
        return handle

    def _module_load_best(self, table: int, count: int) -> int | None:
        """``#xgpu.select_best``: load the embedded object that fits the device best
        (see load_best.py)."""
        from xdsl_gpu.targets.runtime.load_best import load_best

        if self._stopped():
            return None
        try:
            module = load_best(self.device, table, count)
        except CudaError as e:
            self._report(e)
            return None
        self._counters[mgpu_ir.COUNTER_MODULE_LOADS] += 1
        handle = int(module)
        self._modules[handle] = module
        return handle

    def _module_unload(self, handle: int | None) -> None:
        import cuda.bindings.driver as cu

        module = self._modules.pop(handle or 0, None)
        if module is None:
            return
        (result,) = cu.cuModuleUnload(module)
        # At exit the context may already be gone; that is not the user's error.
        if result not in (
            cu.CUresult.CUDA_SUCCESS,
            cu.CUresult.CUDA_ERROR_DEINITIALIZED,
        ):
            self._fail(int(result), b"cuModuleUnload")

    def _set_default_device(self, ordinal: int) -> None:
        try:
            self.device = driver.device(ordinal)
            driver.make_current(self.device)
            self._set_prefetch_location()
        except CudaError as e:
            self._report(e)

    def _memref_extent(
        self, rank: int, descriptor: int, element_bytes: int
    ) -> tuple[int, int]:
        """(address, bytes) of a dense ranked memref descriptor."""
        words = (ctypes.c_int64 * (3 + 2 * rank)).from_address(descriptor)
        aligned, offset = words[1], words[2]
        sizes = list(words[3 : 3 + rank])
        count = 1
        for size in sizes:
            count *= size
        return aligned + offset * element_bytes, count * element_bytes

    def _host_register_memref(
        self, rank: int, descriptor: int, element_bytes: int
    ) -> None:
        import cuda.bindings.driver as cu

        address, size = self._memref_extent(rank, descriptor, element_bytes)
        if self.host_memory is not None and self.host_memory.holds(address, size):
            return  # mapped already (host_memory.py)
        (result,) = cu.cuMemHostRegister(address, size, 0)
        if result != cu.CUresult.CUDA_SUCCESS:
            self._fail(int(result), b"cuMemHostRegister")

    def _host_unregister_memref(
        self, rank: int, descriptor: int, element_bytes: int
    ) -> None:
        import cuda.bindings.driver as cu

        address, size = self._memref_extent(rank, descriptor, element_bytes)
        if self.host_memory is not None and self.host_memory.holds(address, size):
            return
        (result,) = cu.cuMemHostUnregister(address)
        if result != cu.CUresult.CUDA_SUCCESS:
            self._fail(int(result), b"cuMemHostUnregister")
