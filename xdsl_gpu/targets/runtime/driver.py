"""The CUDA driver, reached through cuda-python.

Two kinds of access: ordinary Python calls for the rare, slow-path work (init, module
load with JIT logs, error names), and raw entry-point addresses (``cuGetProcAddress``)
that the JIT-compiled runtime calls directly, so that a kernel launch from generated
code costs what it costs from C.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from typing import Any

from xdsl_gpu.diagnostics import UserError


class CudaError(UserError):
    """A CUDA driver call failed."""


class CudaUnavailableError(CudaError):
    """No CUDA driver or no device on this machine."""


def _driver() -> Any:
    try:
        import cuda.bindings.driver as driver
    except ImportError as e:  # pragma: no cover - cuda-python is a dependency
        raise CudaUnavailableError(
            "cuda-python is not installed: `pip install cuda-python`"
        ) from e
    return driver


def error_name(code: int) -> str:
    driver = _driver()
    try:
        result, name = driver.cuGetErrorName(driver.CUresult(code))
    except ValueError:
        return f"CUDA error {code}"
    if result != driver.CUresult.CUDA_SUCCESS or name is None:
        return f"CUDA error {code}"
    return name.decode()


def error_string(code: int) -> str:
    driver = _driver()
    try:
        result, text = driver.cuGetErrorString(driver.CUresult(code))
    except ValueError:
        return ""
    if result != driver.CUresult.CUDA_SUCCESS or text is None:
        return ""
    return text.decode()


def check(result: Any, what: str) -> None:
    driver = _driver()
    if result != driver.CUresult.CUDA_SUCCESS:
        code = int(result)
        raise CudaError(f"{what} failed with {error_name(code)}: {error_string(code)}")


@dataclass(frozen=True)
class Device:
    """A CUDA device with its primary context made current on this thread."""

    ordinal: int
    handle: Any
    context: Any
    compute_capability: tuple[int, int]
    name: str
    driver_version: int

    @property
    def sm(self) -> int:
        major, minor = self.compute_capability
        return major * 10 + minor


@cache
def initialize() -> int:
    """``cuInit``; returns the driver's CUDA version (e.g. 13000).

    Kernels are loaded eagerly unless the user chose otherwise
    (``CUDA_MODULE_LOADING``): with CUDA's default lazy loading, a kernel's code is
    loaded at its first launch, which waits for the kernels already running, so a
    program whose kernels wait for each other on two streams (a producer launched
    after its spinning consumer) would hang. The modules are loaded once, at program
    start, so the cost is paid once too."""
    os.environ.setdefault("CUDA_MODULE_LOADING", "EAGER")
    driver = _driver()
    try:
        (result,) = driver.cuInit(0)
    except RuntimeError as e:  # libcuda.so is missing
        raise CudaUnavailableError(f"no CUDA driver: {e}") from e
    if result != driver.CUresult.CUDA_SUCCESS:
        raise CudaUnavailableError(
            f"cuInit failed with {error_name(int(result))}: no usable NVIDIA GPU"
        )
    result, version = driver.cuDriverGetVersion()
    check(result, "cuDriverGetVersion")
    return int(version)


@cache
def device(ordinal: int = 0) -> Device:
    """The device ``ordinal``, its primary context retained and made current."""
    driver = _driver()
    version = initialize()
    result, count = driver.cuDeviceGetCount()
    check(result, "cuDeviceGetCount")
    if not 0 <= ordinal < count:
        raise CudaError(f"device {ordinal} does not exist ({count} CUDA devices)")
    result, handle = driver.cuDeviceGet(ordinal)
    check(result, "cuDeviceGet")
    result, context = driver.cuDevicePrimaryCtxRetain(handle)
    check(result, "cuDevicePrimaryCtxRetain")
    (result,) = driver.cuCtxSetCurrent(context)
    check(result, "cuCtxSetCurrent")
    attribute = driver.CUdevice_attribute
    result, major = driver.cuDeviceGetAttribute(
        attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, handle
    )
    check(result, "cuDeviceGetAttribute")
    result, minor = driver.cuDeviceGetAttribute(
        attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, handle
    )
    check(result, "cuDeviceGetAttribute")
    result, raw_name = driver.cuDeviceGetName(256, handle)
    check(result, "cuDeviceGetName")
    name = bytes(raw_name).split(b"\0", 1)[0].decode()
    return Device(ordinal, handle, context, (major, minor), name, version)


@cache
def pageable_memory_access(ordinal: int) -> bool:
    """Whether kernels on device ``ordinal`` can reach pageable host memory (``malloc``'d,
    never registered): ``CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS`` (HMM or ATS);
    False when the driver does not say."""
    driver = _driver()
    result, value = driver.cuDeviceGetAttribute(
        driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS,
        device(ordinal).handle,
    )
    return result == driver.CUresult.CUDA_SUCCESS and bool(value)


def make_current(dev: Device) -> None:
    driver = _driver()
    (result,) = driver.cuCtxSetCurrent(dev.context)
    check(result, "cuCtxSetCurrent")


def proc_address(symbol: str) -> int:
    """The address of the driver entry point ``symbol`` (the versioned one that the
    running driver's ``cuda.h`` means by that name)."""
    driver = _driver()
    version = initialize()
    result, address, status = driver.cuGetProcAddress(
        symbol.encode(),
        version,
        driver.CUdriverProcAddress_flags.CU_GET_PROC_ADDRESS_DEFAULT,
    )
    check(result, f"cuGetProcAddress({symbol})")
    if not address:
        raise CudaUnavailableError(
            f"the CUDA driver has no entry point {symbol} ({status}); update it"
        )
    return int(address)


def gpu_available() -> bool:
    """Whether a CUDA device can be used here (for skipping GPU tests)."""
    try:
        device(0)
    except CudaError:
        return False
    return True
