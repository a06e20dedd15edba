"""``mgpuTensorMapEncodeTiledMemref``'s arguments to ``cuTensorMapEncodeTiled``, with
the driver call replaced (no GPU needed), and the real call on a GPU."""

from __future__ import annotations

import ctypes
from typing import Any

import pytest

from xdsl_gpu.targets.runtime.tensor_map import TENSOR_MAP_BYTES, TensorMapEncoder

FLOAT16, FLOAT32 = 6, 7
SWIZZLE_128B = 3


def _descriptor(data: int, sizes: list[int], strides: list[int]) -> Any:
    """A ranked memref descriptor: allocated, aligned, offset, sizes, strides."""
    rank = len(sizes)
    return (ctypes.c_int64 * (3 + 2 * rank))(data, data, 0, *sizes, *strides)


class _Recorder:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.failures: list[tuple[int, bytes]] = []

    def encode(self, *args: Any) -> int:
        map_address, data_type, rank, address, dims, strides, box, ones = args[:8]
        self.calls.append(
            {
                "aligned": map_address % 64 == 0,
                "type": data_type,
                "rank": rank,
                "address": address,
                "dims": [dims[i] for i in range(rank)],
                "strides": [strides[i] for i in range(rank - 1)],
                "box": [box[i] for i in range(rank)],
                "element_strides": [ones[i] for i in range(rank)],
                "enums": args[8:],
            }
        )
        return 0

    def fail(self, code: int, what: bytes) -> None:
        self.failures.append((code, what))


def _encoder(recorder: _Recorder) -> TensorMapEncoder:
    encoder = TensorMapEncoder(recorder.fail, lambda: False)
    encoder._encode = recorder.encode  # pyright: ignore[reportPrivateUsage]
    encoder._to_device = lambda host_map: 0xD0  # type: ignore[method-assign]
    return encoder


def test_memref_dimensions_go_innermost_first_with_byte_strides() -> None:
    recorder = _Recorder()
    descriptor = _descriptor(0x1000, [64, 128], [128, 1])
    box = (ctypes.c_int64 * 2)(64, 32)
    result = _encoder(recorder).encode_tiled_memref(
        2, ctypes.addressof(descriptor), FLOAT16, 0, SWIZZLE_128B, 1, 0,
        ctypes.addressof(box),
    )  # fmt: skip
    assert result == 0xD0
    (call,) = recorder.calls
    assert call == {
        "aligned": True,
        "type": FLOAT16,
        "rank": 2,
        "address": 0x1000,
        "dims": [128, 64],
        "strides": [256],
        "box": [32, 64],
        "element_strides": [1, 1],
        "enums": (0, SWIZZLE_128B, 1, 0),
    }
    assert not recorder.failures


def test_three_dimensions() -> None:
    recorder = _Recorder()
    descriptor = _descriptor(0x2000, [4, 8, 16], [128, 16, 1])
    box = (ctypes.c_int64 * 3)(2, 8, 16)
    _encoder(recorder).encode_tiled_memref(
        3, ctypes.addressof(descriptor), FLOAT32, 0, 0, 0, 1, ctypes.addressof(box)
    )
    (call,) = recorder.calls
    assert call["dims"] == [16, 8, 4]
    assert call["strides"] == [64, 512]
    assert call["box"] == [16, 8, 2]


def test_a_driver_error_is_reported_and_nothing_is_copied() -> None:
    recorder = _Recorder()
    encoder = _encoder(recorder)
    encoder._encode = lambda *args: 1  # pyright: ignore[reportPrivateUsage]
    descriptor = _descriptor(0x1000, [8], [1])
    box = (ctypes.c_int64 * 1)(8)
    result = encoder.encode_tiled_memref(
        1, ctypes.addressof(descriptor), FLOAT32, 0, 0, 0, 0, ctypes.addressof(box)
    )
    assert result is None
    assert recorder.failures == [(1, b"cuTensorMapEncodeTiled")]


def test_a_bad_rank_is_reported() -> None:
    recorder = _Recorder()
    result = _encoder(recorder).encode_tiled_memref(6, 0, FLOAT32, 0, 0, 0, 0, 0)
    assert result is None
    assert recorder.failures
    assert not recorder.calls


@pytest.mark.gpu
def test_the_driver_encodes_a_map_into_device_memory() -> None:
    import cuda.bindings.driver as cu

    from xdsl_gpu.targets.runtime.runtime import CudaRuntime

    runtime = CudaRuntime.get()
    result, data = cu.cuMemAlloc(64 * 64 * 2)
    assert result == cu.CUresult.CUDA_SUCCESS
    descriptor = _descriptor(int(data), [64, 64], [64, 1])
    box = (ctypes.c_int64 * 2)(64, 64)
    failures: list[tuple[int, bytes]] = []
    encoder = TensorMapEncoder(lambda c, w: failures.append((c, w)), lambda: False)
    device_map = encoder.encode_tiled_memref(
        2, ctypes.addressof(descriptor), FLOAT16, 0, SWIZZLE_128B, 0, 0,
        ctypes.addressof(box),
    )  # fmt: skip
    assert not failures
    assert device_map
    copy = ctypes.create_string_buffer(TENSOR_MAP_BYTES)
    (result,) = cu.cuMemcpyDtoH(copy, device_map, TENSOR_MAP_BYTES)
    assert result == cu.CUresult.CUDA_SUCCESS
    assert any(copy.raw), "the map's bytes reached device memory"
    del runtime
