"""TMA descriptors for generated host code: ``mgpuTensorMapEncodeTiled`` and
``mgpuTensorMapEncodeTiledMemref``, with the arguments of upstream's
CudaRuntimeWrappers (MLIR 22).

* ``mgpuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, u32 rank,
  void *address, const u64 *dims, const u64 *strides, const u32 *box,
  const u32 *element_strides, interleave, swizzle, l2promo, oob)`` forwards to the
  driver's ``cuTensorMapEncodeTiled``.
* ``mgpuTensorMapEncodeTiledMemref(i64 rank, descriptor, type, interleave, swizzle,
  l2promo, oob, const i64 *box)`` is what ``nvgpu.tma.create.descriptor`` calls: it
  takes the data pointer, sizes and strides of a ranked memref descriptor (innermost
  dimension first for the driver, strides in bytes, the innermost stride implied),
  encodes the map on the host and copies its 128 bytes to new device memory, whose
  address it returns: the kernel reads the map from global memory, as upstream's.

Both are rare host calls (one per descriptor), so they are Python callbacks of the
runtime (``runtime.py``, signatures in ``mgpu_ir.CALLBACKS``); a driver error is reported and sticky like any other.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable

from xdsl_gpu.targets.runtime import driver

TENSOR_MAP_BYTES = 128
TENSOR_MAP_ALIGNMENT = 64
MAX_RANK = 5

ELEMENT_BYTES = (1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4)
"""Bytes of an element of each ``CUtensorMapDataType`` (UINT8 ... TFLOAT32_FTZ)."""

_U64 = ctypes.POINTER(ctypes.c_uint64)
_U32 = ctypes.POINTER(ctypes.c_uint32)
_ENCODE = ctypes.CFUNCTYPE(
    ctypes.c_int,  # CUresult
    ctypes.c_void_p,
    ctypes.c_int,
    ctypes.c_uint32,
    ctypes.c_void_p,
    _U64,
    _U64,
    _U32,
    _U32,
    ctypes.c_int,
    ctypes.c_int,
    ctypes.c_int,
    ctypes.c_int,
)

Fail = Callable[[int, bytes], None]
"""The runtime's error report: (CUresult, name of the failing call)."""


class TensorMapEncoder:
    """The two entry points, reporting driver errors through ``fail``."""

    def __init__(self, fail: Fail, stopped: Callable[[], bool]):
        self._fail = fail
        self._stopped = stopped
        self._encode: Callable[..., int] | None = None

    def _encoder(self) -> Callable[..., int]:
        if self._encode is None:
            self._encode = _ENCODE(driver.proc_address("cuTensorMapEncodeTiled"))
        return self._encode

    def encode_tiled(
        self,
        tensor_map: int,
        data_type: int,
        rank: int,
        address: int,
        dims: int,
        strides: int,
        box: int,
        element_strides: int,
        interleave: int,
        swizzle: int,
        l2_promotion: int,
        oob_fill: int,
    ) -> None:
        """``mgpuTensorMapEncodeTiled``: the driver call, arguments as they are."""
        if self._stopped():
            return
        result = self._encoder()(
            tensor_map,
            data_type,
            rank,
            address,
            ctypes.cast(dims, _U64),
            ctypes.cast(strides, _U64),
            ctypes.cast(box, _U32),
            ctypes.cast(element_strides, _U32),
            interleave,
            swizzle,
            l2_promotion,
            oob_fill,
        )
        if result != 0:
            self._fail(result, b"cuTensorMapEncodeTiled")

    def encode_tiled_memref(
        self,
        rank: int,
        descriptor: int,
        data_type: int,
        interleave: int,
        swizzle: int,
        l2_promotion: int,
        oob_fill: int,
        box_dims: int,
    ) -> int | None:
        """``mgpuTensorMapEncodeTiledMemref``: the device address of a new tensor
        map over the memref ``descriptor`` (module docstring)."""
        if self._stopped():
            return None
        if not 1 <= rank <= MAX_RANK or not 0 <= data_type < len(ELEMENT_BYTES):
            self._fail(1, b"mgpuTensorMapEncodeTiledMemref (rank or data type)")
            return None
        words = (ctypes.c_int64 * (3 + 2 * rank)).from_address(descriptor)
        data = words[1]
        sizes = list(words[3 : 3 + rank])
        strides = list(words[3 + rank : 3 + 2 * rank])
        element_bytes = ELEMENT_BYTES[data_type]
        requested = (ctypes.c_int64 * rank).from_address(box_dims)
        dims = (ctypes.c_uint64 * MAX_RANK)(*reversed(sizes))
        byte_strides = (ctypes.c_uint64 * (MAX_RANK - 1))(
            *(strides[rank - i - 2] * element_bytes for i in range(rank - 1))
        )
        box = (ctypes.c_uint32 * MAX_RANK)(*reversed(list(requested)))
        ones = (ctypes.c_uint32 * MAX_RANK)(*([1] * MAX_RANK))
        # The driver wants the map 64-byte aligned.
        storage = ctypes.create_string_buffer(TENSOR_MAP_BYTES + TENSOR_MAP_ALIGNMENT)
        base = ctypes.addressof(storage)
        aligned = (base + TENSOR_MAP_ALIGNMENT - 1) // TENSOR_MAP_ALIGNMENT
        host_map = aligned * TENSOR_MAP_ALIGNMENT
        result = self._encoder()(
            host_map,
            data_type,
            rank,
            data,
            dims,
            byte_strides,
            box,
            ones,
            interleave,
            swizzle,
            l2_promotion,
            oob_fill,
        )
        if result != 0:
            self._fail(result, b"cuTensorMapEncodeTiled")
            return None
        return self._to_device(host_map)

    def _to_device(self, host_map: int) -> int | None:
        import cuda.bindings.driver as cu

        result, device_map = cu.cuMemAlloc(TENSOR_MAP_BYTES)
        if result != cu.CUresult.CUDA_SUCCESS:
            self._fail(int(result), b"cuMemAlloc")
            return None
        (result,) = cu.cuMemcpyHtoD(device_map, host_map, TENSOR_MAP_BYTES)
        if result != cu.CUresult.CUDA_SUCCESS:
            self._fail(int(result), b"cuMemcpyHtoD")
            return None
        return int(device_map)


__all__ = ["TensorMapEncoder"]
