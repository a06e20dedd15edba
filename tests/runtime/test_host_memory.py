"""Host memory that kernels can reach (``xdsl_gpu/targets/runtime/host_memory.py``).

Without a GPU: the allocator's bookkeeping (which ranges are its own, where ``free``
goes), with the driver's two calls standing in (``cuMemHostAlloc`` handing out C
heap memory). On the GPU (marker ``gpu``):
``tests/runtime/test_host_memory_note.py`` runs a program whose kernel writes into a
``memref.alloc`` it never registered, and upstream's ``wmma-matmul-f64`` does the same
next to registered buffers.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from types import SimpleNamespace
from typing import Any

import pytest

from xdsl_gpu.targets.runtime.host_memory import MappedHostMemory

_LIBC = ctypes.CDLL(ctypes.util.find_library("c"))
_LIBC.malloc.restype = ctypes.c_void_p
_LIBC.malloc.argtypes = [ctypes.c_size_t]
_LIBC.free.argtypes = [ctypes.c_void_p]


class _Driver:
    """cuMemHostAlloc / cuMemFreeHost over the C heap; refuses above a limit."""

    CUresult = SimpleNamespace(CUDA_SUCCESS=0, CUDA_ERROR_OUT_OF_MEMORY=2)
    CU_MEMHOSTALLOC_PORTABLE = 1
    CU_MEMHOSTALLOC_DEVICEMAP = 2

    def __init__(self) -> None:
        self.freed: list[int] = []

    def cuMemHostAlloc(self, size: int, flags: int) -> tuple[int, int]:
        assert flags == 3
        if size > 1 << 20:
            return self.CUresult.CUDA_ERROR_OUT_OF_MEMORY, 0
        return self.CUresult.CUDA_SUCCESS, _LIBC.malloc(size)

    def cuMemFreeHost(self, address: int) -> tuple[int]:
        self.freed.append(address)
        _LIBC.free(address)
        return (self.CUresult.CUDA_SUCCESS,)


@pytest.fixture
def memory(monkeypatch: pytest.MonkeyPatch) -> tuple[MappedHostMemory, _Driver]:
    import cuda.bindings.driver as cu

    fake = _Driver()
    for name in ("cuMemHostAlloc", "cuMemFreeHost", "CUresult"):
        monkeypatch.setattr(cu, name, getattr(fake, name))
    return MappedHostMemory(), fake


def test_ranges_of_its_own_allocations_are_known(memory: Any) -> None:
    allocator, fake = memory
    a = allocator.malloc(256)
    b = allocator.aligned_alloc(64, 100)
    assert allocator.holds(a, 256)
    assert allocator.holds(a + 128, 128)
    assert not allocator.holds(a + 128, 129)  # runs past the end
    assert not allocator.holds(a - 1, 1)
    assert allocator.holds(b, 100)
    allocator.free(a)
    assert fake.freed == [a]
    assert not allocator.holds(a, 1)
    assert allocator.holds(b, 1)
    allocator.free(b)
    assert fake.freed == [a, b]


def test_what_cuda_refuses_comes_from_the_c_library(memory: Any) -> None:
    allocator, fake = memory
    big = allocator.malloc(2 << 20)
    assert big
    assert not allocator.holds(big, 1)
    allocator.free(big)  # the C library's free: not cuMemFreeHost
    assert fake.freed == []
    allocator.free(None)  # free(NULL) does nothing
    huge = allocator.aligned_alloc(1 << 16, 4096)  # above a page: the C library's
    assert huge % (1 << 16) == 0
    assert not allocator.holds(huge, 1)
    allocator.free(huge)
    assert fake.freed == []
