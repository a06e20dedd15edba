"""The mgpu* runtime on a real GPU, driven by hand-written host LLVM IR."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from tests.support.host_ir import AXPY_KERNEL, axpy_host
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget
from xdsl_gpu.targets.nvvm.serializer import NVVMOptions, serialize

pytestmark = pytest.mark.gpu


def _jit(fmt: CompilationTarget):
    from xdsl_gpu.targets.runtime.driver import device
    from xdsl_gpu.targets.runtime.jit import JitModule

    chip = f"sm_{device().sm}"
    binary = serialize(AXPY_KERNEL, NVVMOptions(chip=chip, opt_level=3), fmt)
    if fmt is CompilationTarget.Assembly:
        return JitModule(axpy_host(binary.data + b"\0", "mgpuModuleLoadJIT", "i32 3"))
    return JitModule(axpy_host(binary.data))


def _run(module, a: float, x: np.ndarray, y: np.ndarray, threads: int = 256) -> None:
    run = module.function(
        "run", None, ctypes.c_float, ctypes.c_void_p, ctypes.c_void_p,
        ctypes.c_int64, ctypes.c_int64, ctypes.c_int64,
    )  # fmt: skip
    blocks = (x.size + threads - 1) // threads
    run(a, x.ctypes.data, y.ctypes.data, x.size, blocks, threads)


@pytest.mark.parametrize(
    "fmt",
    [CompilationTarget.Fatbin, CompilationTarget.Binary, CompilationTarget.Assembly],
)
def test_axpy_runs_from_every_format(fmt: CompilationTarget) -> None:
    rng = np.random.default_rng()
    x = rng.standard_normal(10_000, dtype=np.float32)
    y = rng.standard_normal(10_000, dtype=np.float32)
    expected = 2.5 * x + y
    with _jit(fmt) as module:
        _run(module, 2.5, x, y)
    np.testing.assert_allclose(y, expected, rtol=1e-6)


def test_module_is_loaded_once_and_nothing_leaks() -> None:
    from xdsl_gpu.targets.runtime.runtime import CudaRuntime

    runtime = CudaRuntime.get()
    loads = runtime.module_loads
    # The counters are process-wide: compare with what earlier tests left.
    before = (runtime.live_streams, runtime.live_events, runtime.live_allocations)
    x = np.ones(64, dtype=np.float32)
    with _jit(CompilationTarget.Fatbin) as module:
        assert runtime.module_loads == loads + 1
        for _ in range(1000):
            y = np.zeros(64, dtype=np.float32)
            _run(module, 1.0, x, y, threads=64)
        assert runtime.module_loads == loads + 1
        np.testing.assert_array_equal(y, x)
        after = (runtime.live_streams, runtime.live_events, runtime.live_allocations)
        assert after == before


def test_a_failing_launch_stops_with_the_error_and_the_launch_site() -> None:
    from xdsl_gpu.targets.runtime.driver import CudaError

    x = np.ones(4, dtype=np.float32)
    y = np.ones(4, dtype=np.float32)
    with _jit(CompilationTarget.Fatbin) as module:
        with pytest.raises(CudaError) as info:
            _run(module, 1.0, x, y, threads=4096)  # over the 1024-thread limit
        message = str(info.value)
        assert "cuLaunchKernel failed with CUDA_ERROR_INVALID_VALUE" in message
        assert "gpu.launch_func @k::@axpy at t:1:1" in message
        # The runtime recovers for the next call once the error was raised.
        _run(module, 1.0, x, y, threads=4)
        np.testing.assert_array_equal(y, np.full(4, 2.0, dtype=np.float32))


def test_host_shared_memory_is_prefetched_to_the_device() -> None:
    """mgpuMemAlloc's prefetch hint (its status is ignored, so only the memory's state
    shows that it worked): new host-shared memory's last prefetch went to the GPU."""
    from cuda.bindings import driver as cu

    from xdsl_gpu.targets.runtime import load
    from xdsl_gpu.targets.runtime.runtime import CudaRuntime

    runtime = CudaRuntime.get()
    result, concurrent = cu.cuDeviceGetAttribute(
        cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
        runtime.device.handle,
    )
    assert result == cu.CUresult.CUDA_SUCCESS
    if not concurrent or runtime.device.driver_version < 13000:
        pytest.skip("the hint is off without concurrent managed access and CUDA 13")
    source = """
    func.func @shared() -> memref<65536xf32> {
      %m = gpu.alloc host_shared () : memref<65536xf32>
      return %m : memref<65536xf32>
    }
    """
    with load(source) as program:
        memory = program.call("shared", copy=False)
        result, where = cu.cuMemRangeGetAttribute(
            4,
            cu.CUmem_range_attribute.CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
            memory.ctypes.data,
            memory.nbytes,
        )
        assert result == cu.CUresult.CUDA_SUCCESS
        assert int(where) == runtime.device.ordinal  # not -1 (CPU) or -2 (never)
        (result,) = cu.cuMemFree(memory.ctypes.data)
        assert result == cu.CUresult.CUDA_SUCCESS
