"""``mgpuModuleLoadBest(ptr table, i64 count)``: load the object of a ``gpu.binary``
that fits the current GPU best (``#xgpu.select_best``).

The table is what ``xdsl_gpu/targets/offloading/select_best.py`` builds in ``@<binary>_load``:
``count`` entries of :class:`TableEntry` (data, size, format, JIT level, label). The
choice follows ``object_selection.py``; it is logged at debug level on the
``xdsl_gpu.runtime`` logger. If loading the chosen object fails (a driver that refuses
it), the next one is tried; when nothing fits or loads, the runtime stops with an
error that lists every embedded object and why it was not used.

``$XDSL_GPU_IGNORE_OBJECTS`` (comma-separated patterns, see
:func:`object_selection.ignore_matching`) makes the runtime skip matching objects, so
that a binary's fallbacks can be tried without rebuilding it:
``XDSL_GPU_IGNORE_OBJECTS='sm_90 bin'`` on an H100 loads the next best object.
``$XDSL_GPU_LOG=debug`` prints the choice on stderr for programs that do not configure
Python's logging themselves (``xdsl-gpu-run``).
"""

from __future__ import annotations

import ctypes
import logging
import os
from typing import Any

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.targets.nvvm import ptx_isa
from xdsl_gpu.targets.runtime import driver
from xdsl_gpu.targets.runtime.driver import CudaError, Device
from xdsl_gpu.targets.runtime.object_selection import (
    FORMAT_NAMES,
    IGNORE_VARIABLE,
    Candidate,
    Choice,
    DeviceInfo,
    NoObjectFitsError,
    choose,
    describe_candidate,
    ignore_matching,
)

LOGGER = logging.getLogger("xdsl_gpu.runtime")
LOG_VARIABLE = "XDSL_GPU_LOG"


def _log_from_environment() -> None:
    """``$XDSL_GPU_LOG=debug``: show the debug messages on stderr (once)."""
    if os.environ.get(LOG_VARIABLE, "").strip().lower() != "debug":
        return
    if getattr(_log_from_environment, "done", False):
        return
    _log_from_environment.done = True  # type: ignore[attr-defined]
    if LOGGER.getEffectiveLevel() > logging.DEBUG:
        LOGGER.setLevel(logging.DEBUG)
    if not LOGGER.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
        LOGGER.addHandler(handler)


class TableEntry(ctypes.Structure):
    """One embedded object: LLVM type ``{ ptr, i64, i32, i32, ptr }``."""

    _fields_ = [
        ("data", ctypes.c_void_p),
        ("size", ctypes.c_int64),
        ("format", ctypes.c_int32),
        ("opt_level", ctypes.c_int32),
        ("label", ctypes.c_void_p),
    ]


def read_table(table: int, count: int) -> list[tuple[Candidate, TableEntry]]:
    """The candidates a table describes, each with its raw entry."""
    entries = (TableEntry * count).from_address(table)
    out: list[tuple[Candidate, TableEntry]] = []
    for index, entry in enumerate(entries):
        label = (
            ctypes.string_at(entry.label).decode(errors="replace")
            if entry.label
            else f"object {index}"
        )
        data = ctypes.string_at(entry.data, entry.size) if entry.data else b""
        fmt = FORMAT_NAMES.get(entry.format, f"format {entry.format}")
        out.append((Candidate.from_bytes(index, fmt, data, label), entry))
    return out


def device_info(device: Device) -> DeviceInfo:
    from xdsl_gpu.targets.nvvm.serializer import assembler_cuda_version

    version = driver.initialize()
    cuda = (version // 1000, version % 1000 // 10)
    return DeviceInfo(
        device.compute_capability,
        device.name,
        driver_max_ptx=ptx_isa.max_ptx_for_cuda(cuda),
        nvjitlink=assembler_cuda_version() is not None,
    )


def _load_image(data: Any) -> tuple[int, Any]:
    import cuda.bindings.driver as cu

    result, module = cu.cuModuleLoadData(data)
    return int(result), module


def _load_ptx(address: int, opt_level: int) -> tuple[int, Any, str]:
    import cuda.bindings.driver as cu

    log = bytearray(8192)
    jit = cu.CUjit_option
    options = [
        jit.CU_JIT_ERROR_LOG_BUFFER,
        jit.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        jit.CU_JIT_OPTIMIZATION_LEVEL,
    ]
    values = [log, len(log), max(0, min(4, opt_level))]
    result, module = cu.cuModuleLoadDataEx(address, len(options), options, values)
    return int(result), module, bytes(log).split(b"\0", 1)[0].decode(errors="replace")


def _assemble(choice: Choice, device: DeviceInfo, opt_level: int) -> bytes:
    """PTX → cubin for the device with nvJitLink (PTX too new for the driver)."""
    from xdsl_gpu.targets.nvvm.serializer import NVVMOptions, assemble_cubin

    variant = "a" if choice.image.chip.variant == "a" else ""
    ptx = choice.candidate.data.rstrip(b"\0").decode("latin-1")
    options = NVVMOptions(
        chip=f"sm_{device.sm}{variant}",
        opt_level=max(0, min(3, opt_level)),
        module_name=choice.candidate.label,
    )
    return assemble_cubin(ptx, options)


def _try_load(choice: Choice, entry: TableEntry, device: DeviceInfo) -> tuple[Any, str]:
    """(module, "") when loaded, else (None, why)."""
    if choice.jit == "driver" and choice.candidate.format == "assembly":
        code, module, log = _load_ptx(entry.data, entry.opt_level)
    elif choice.jit == "nvjitlink":
        try:
            cubin = _assemble(choice, device, entry.opt_level)
        except UserError as e:  # the assembler's log
            return None, f"nvJitLink: {e}"
        buffer = ctypes.create_string_buffer(cubin, len(cubin))
        code, module = _load_image(ctypes.addressof(buffer))
        log = ""
    else:
        code, module = _load_image(entry.data)
        log = ""
    if code != 0:
        why = f"{driver.error_name(code)}: {driver.error_string(code)}"
        return None, why + (f"\n{log}" if log.strip() else "")
    return module, ""


def load_best(device: Device, table: int, count: int) -> Any:
    """Choose and load an object; returns the ``CUmodule``. Raises
    :class:`CudaError` listing every embedded object when none fits or loads."""
    pairs = read_table(table, count)
    candidates = [c for c, _ in pairs]
    binary = candidates[0].label.split("[", 1)[0].lstrip("@") if candidates else ""
    _log_from_environment()
    info = device_info(device)
    patterns = os.environ.get(IGNORE_VARIABLE, "")
    if patterns:
        for candidate in ignore_matching(candidates, patterns):
            LOGGER.debug(
                "gpu.binary @%s: ignoring %s (%s=%s)",
                binary, candidate.label, IGNORE_VARIABLE, patterns,
            )  # fmt: skip
    try:
        choices = choose(candidates, info, binary)
    except NoObjectFitsError as e:
        raise CudaError(str(e)) from None
    failures: list[str] = []
    for choice in choices:
        LOGGER.debug(
            "gpu.binary @%s on %s: loading %s: %s",
            binary, info.label, choice.candidate.label, choice.how,
        )  # fmt: skip
        module, why = _try_load(choice, pairs[choice.candidate.index][1], info)
        if module is not None:
            return module
        LOGGER.debug("loading %s failed: %s", choice.candidate.label, why)
        failures.append(f"{describe_candidate(choice.candidate)} ({choice.how}): {why}")
    raise CudaError(
        f"gpu.binary @{binary}: no embedded object loaded on {info.label}:\n  "
        + "\n  ".join(failures)
    )
