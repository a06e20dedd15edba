"""Host memory that kernels can reach, on devices that cannot reach ``malloc``'s.

A program's ``memref.alloc`` on the host is a ``malloc`` call. On a device with
``CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS`` (HMM or ATS) a kernel may read and
write it; elsewhere (most H100/H200 hosts) it must be registered first
(``gpu.host_register``), or the kernel stops with an illegal address. Upstream's
``TensorCore/wmma-matmul-f64.mlir`` registers three of its four buffers and writes
the fourth from the GPU: it needs pageable memory access.

On such devices the runtime gives JIT-compiled programs a ``malloc``,
``aligned_alloc`` and ``free`` of their own: memory from ``cuMemHostAlloc`` (pinned
and mapped into the device's address space; with unified addressing the kernel
uses the host pointer as it is). Registering it again is skipped, as is
unregistering it; ``free`` of memory that did not come from here goes to the C
library. An allocation that CUDA refuses (pinned memory is a limited resource)
comes from the C library instead.
"""

from __future__ import annotations

import bisect
import ctypes
import ctypes.util
from typing import Any

_PAGE = 4096
"""cuMemHostAlloc's memory starts on a page."""


class MappedHostMemory:
    """The allocator, and which host ranges came from it."""

    def __init__(self) -> None:
        import cuda.bindings.driver as cu

        self._cu = cu
        self._flags = (
            cu.CU_MEMHOSTALLOC_PORTABLE | cu.CU_MEMHOSTALLOC_DEVICEMAP  # pyright: ignore
        )
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        self._libc_malloc = libc.malloc
        self._libc_malloc.restype = ctypes.c_void_p
        self._libc_malloc.argtypes = [ctypes.c_size_t]
        self._libc_aligned_alloc = libc.aligned_alloc
        self._libc_aligned_alloc.restype = ctypes.c_void_p
        self._libc_aligned_alloc.argtypes = [ctypes.c_size_t, ctypes.c_size_t]
        self._libc_free = libc.free
        self._libc_free.restype = None
        self._libc_free.argtypes = [ctypes.c_void_p]
        self._starts: list[int] = []
        self._sizes: dict[int, int] = {}

    # -- the C functions -------------------------------------------------------------

    def malloc(self, size: int) -> int:
        result, address = self._cu.cuMemHostAlloc(max(size, 1), self._flags)
        if result != self._cu.CUresult.CUDA_SUCCESS:
            return self._libc_malloc(size) or 0
        address = int(address)
        bisect.insort(self._starts, address)
        self._sizes[address] = max(size, 1)
        return address

    def aligned_alloc(self, alignment: int, size: int) -> int:
        if alignment > _PAGE:
            return self._libc_aligned_alloc(alignment, size) or 0
        return self.malloc(size)

    def free(self, address: int | None) -> None:
        if not address:
            return
        if self._sizes.pop(address, None) is None:
            self._libc_free(address)
            return
        del self._starts[bisect.bisect_left(self._starts, address)]
        self._cu.cuMemFreeHost(address)

    # -- queries ---------------------------------------------------------------------

    def holds(self, address: int, size: int) -> bool:
        """Whether ``[address, address + size)`` lies in one allocation of ours."""
        i = bisect.bisect_right(self._starts, address) - 1
        if i < 0:
            return False
        start = self._starts[i]
        return address + size <= start + self._sizes[start]

    def c_functions(self) -> dict[str, Any]:
        """``malloc``, ``aligned_alloc`` and ``free`` as C function pointers (keep
        them alive while code may call them)."""
        return {
            "malloc": ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_size_t)(self.malloc),
            "aligned_alloc": ctypes.CFUNCTYPE(
                ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t
            )(self.aligned_alloc),
            "free": ctypes.CFUNCTYPE(None, ctypes.c_void_p)(self.free),
        }
