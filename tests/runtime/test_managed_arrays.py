"""``managed_array``: NumPy arrays in CUDA managed memory, passed to programs without
staging (GPU only: marker ``gpu``)."""

from __future__ import annotations

import gc

import numpy as np
import pytest

pytestmark = pytest.mark.gpu

SCALE = """
func.func @scale(%m: memref<?xf32>, %s: f32) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %m[%bx] : memref<?xf32>
    %r = arith.mulf %v, %s : f32
    memref.store %r, %m[%bx] : memref<?xf32>
    gpu.terminator
  }
  return %m : memref<?xf32>
}
"""


def test_kernels_write_a_managed_array_in_place() -> None:
    from xdsl_gpu.targets.runtime import load, managed_array

    rng = np.random.default_rng()
    values = rng.standard_normal(1000, dtype=np.float32)
    array = managed_array(1000, np.float32, fill=values)
    assert array.shape == (1000,)
    assert array.dtype == np.float32
    with load(SCALE) as program:
        view = program.call("scale", array, np.float32(3.0), copy=False)
        # Not staged: the function got (and returned) the managed array's own memory.
        assert view.ctypes.data == array.ctypes.data
        np.testing.assert_array_equal(array, values * np.float32(3.0))
        # A strided view is staged (the function's memref has the identity layout),
        # and what the program wrote is copied back into it.
        program.call("scale", array[::2], np.float32(2.0))
    expected = values * np.float32(3.0)
    expected[::2] *= np.float32(2.0)
    np.testing.assert_array_equal(array, expected)


def test_plain_numpy_arrays_are_still_staged() -> None:
    from xdsl_gpu.targets.runtime import load

    array = np.arange(8, dtype=np.float32)
    with load(SCALE) as program:
        # copy=False: the returned view is of the memory the function got (freed
        # staging memory here: only its address is looked at).
        result = program.call("scale", array, np.float32(2.0), copy=False)
        assert result.ctypes.data != array.ctypes.data
    np.testing.assert_array_equal(array, np.arange(8, dtype=np.float32) * 2)


def test_managed_memory_is_freed_with_the_array() -> None:
    from cuda.bindings import driver as cu

    from xdsl_gpu.targets.runtime import managed_array

    def is_managed(address: int) -> bool:
        result, value = cu.cuPointerGetAttribute(
            cu.CUpointer_attribute.CU_POINTER_ATTRIBUTE_IS_MANAGED, address
        )
        return result == cu.CUresult.CUDA_SUCCESS and bool(value)

    array = managed_array((256, 1024), np.float64, fill=1.0)
    view = array[10:, ::3]
    address = array.ctypes.data
    assert is_managed(address)
    del array
    gc.collect()
    assert is_managed(address)  # the view keeps the memory alive
    assert view.sum() == view.size
    del view
    gc.collect()
    assert not is_managed(address)
