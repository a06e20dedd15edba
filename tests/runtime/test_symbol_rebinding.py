"""The runtime binds its ``mgpu*`` names again before each program links.

LLVM's JIT symbol table is process-wide. ``tests/targets/test_select_best.py`` binds
stand-ins for ``mgpuModuleLoadBest``/``mgpuModuleUnload`` (one returns the made-up
module 1234) to read a binary's table on the CPU; every program loaded after that
in the same process linked against the stand-ins and crashed (a segmentation fault
in ``test_multi_target_gpu_module_on_the_gpu`` when the file ran as a whole on the
H200; each test passed alone). ``CudaRuntime.get`` now rebinds the runtime's names.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

_PROGRAM = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @double(%a: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<8xf32>
      %s = arith.addf %v, %v : f32
      memref.store %s, %a[%t] : memref<8xf32>
      gpu.return
    }
  }
  func.func @run(%a: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@double blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xf32>)
    return
  }
}
"""

_KEEP_ALIVE: list[object] = []


@pytest.mark.gpu
def test_programs_link_against_the_runtime_after_a_stand_in() -> None:
    import llvmlite.binding as llvm

    from xdsl_gpu.targets.runtime import driver, load
    from xdsl_gpu.targets.runtime.runtime import CudaRuntime

    CudaRuntime.get()  # the runtime exists and has bound its names
    made_up: list[str] = []

    @ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
    def module_load(data: int, size: int) -> int:
        made_up.append("mgpuModuleLoad")
        return 1234

    @ctypes.CFUNCTYPE(None, ctypes.c_void_p)
    def module_unload(module: int) -> None:
        made_up.append("mgpuModuleUnload")

    _KEEP_ALIVE.extend([module_load, module_unload])
    llvm.add_symbol("mgpuModuleLoad", ctypes.cast(module_load, ctypes.c_void_p).value)
    llvm.add_symbol(
        "mgpuModuleUnload", ctypes.cast(module_unload, ctypes.c_void_p).value
    )
    a = np.arange(8, dtype=np.float32)
    chip = f"cubin-chip=sm_{driver.device(0).sm}"
    with load(_PROGRAM, pipeline_options=chip, stage_arrays=True) as program:
        program.call("run", a)
    np.testing.assert_array_equal(a, 2 * np.arange(8, dtype=np.float32))
    assert made_up == []
