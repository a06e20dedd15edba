"""TMA into shared-memory tiles that ask for no alignment, assembled by nvJitLink.

``memref.global`` tiles without an ``alignment`` come out of LLVM as
``.shared .align 4``; nvJitLink's linker sorts shared variables by declared
alignment, so the 8-byte mbarrier went first and the tiles landed at 0x408 and
0xc08: the first bulk tensor copy stopped with ``CUDA_ERROR_MISALIGNED_ADDRESS``
(ptxas, which keeps the declaration order, happened to place them at 0x400). The
serializer now aligns sized shared variables before nvJitLink sees the PTX
(``xdsl_gpu/targets/nvvm/shared_alignment.py``; the rewrite itself is tested without
a GPU in ``tests/targets/test_shared_alignment.py``).

On the GPU (marker ``gpu``): the offsets nvJitLink's cubin gives such variables are
read back from a kernel, and a whole program (tensor maps made on the host, a plain
and a 128-byte-swizzled tile, an mbarrier) runs through the pipeline and the runtime,
its tiles compared with NumPy.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

OPTIONS = 'cubin-chip=sm_90 cubin-features="+ptx80"'  # xDSL's option syntax

# Two tiles declared 4-byte aligned, then an mbarrier-sized variable (8-byte
# aligned): the order and alignments of the failing programs. Then two zero-length
# arrays declared 16-byte aligned and a 16-byte mbarrier group, as upstream's sm90
# GEMMs declare their handles on dynamic shared memory. The kernel writes each one's
# shared-window offset.
_OFFSETS_IR = """
@tile_a = internal addrspace(3) global [512 x float] undef, align 4
@tile_b = internal addrspace(3) global [1024 x float] undef, align 4
@barrier = internal addrspace(3) global [1 x i64] undef, align 8
@handle = internal addrspace(3) global [0 x half] undef, align 16
@barriers = internal addrspace(3) global [2 x i64] undef, align 8
@acc = internal addrspace(3) global [0 x float] undef, align 16

define ptx_kernel void @offsets(ptr %out) {
  store volatile float 1.0, ptr addrspace(3) @tile_a
  store volatile float 2.0, ptr addrspace(3) @tile_b
  store volatile i64 3, ptr addrspace(3) @barrier
  store volatile i8 4, ptr addrspace(3) @handle
  store volatile i64 5, ptr addrspace(3) @barriers
  store volatile i8 6, ptr addrspace(3) @acc
  %a = ptrtoint ptr addrspace(3) @tile_a to i64
  %b = ptrtoint ptr addrspace(3) @tile_b to i64
  %c = ptrtoint ptr addrspace(3) @barrier to i64
  %d = ptrtoint ptr addrspace(3) @handle to i64
  %e = ptrtoint ptr addrspace(3) @barriers to i64
  %f = ptrtoint ptr addrspace(3) @acc to i64
  store i64 %a, ptr %out
  %o1 = getelementptr i64, ptr %out, i32 1
  store i64 %b, ptr %o1
  %o2 = getelementptr i64, ptr %out, i32 2
  store i64 %c, ptr %o2
  %o3 = getelementptr i64, ptr %out, i32 3
  store i64 %d, ptr %o3
  %o4 = getelementptr i64, ptr %out, i32 4
  store i64 %e, ptr %o4
  %o5 = getelementptr i64, ptr %out, i32 5
  store i64 %f, ptr %o5
  ret void
}
"""
_COUNT = 6


def _check(result: object, what: str) -> None:
    import cuda.bindings.driver as cu

    assert result == cu.CUresult.CUDA_SUCCESS, f"{what}: {result}"


@pytest.mark.gpu
def test_nvjitlink_cubin_puts_tiles_and_dynamic_memory_on_1024_byte_boundaries() -> (
    None
):
    import cuda.bindings.driver as cu

    from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget
    from xdsl_gpu.targets.nvvm import serializer
    from xdsl_gpu.targets.runtime import driver

    dev = driver.device(0)
    options = serializer.NVVMOptions(
        chip=f"sm_{dev.sm}", features="+ptx80", opt_level=3, module_name="offsets"
    )
    cubin = serializer.serialize(_OFFSETS_IR, options, CompilationTarget.Binary).data
    result, module = cu.cuModuleLoadData(cubin)
    _check(result, "cuModuleLoadData")
    try:
        result, kernel = cu.cuModuleGetFunction(module, b"offsets")
        _check(result, "cuModuleGetFunction")
        result, out = cu.cuMemAlloc(8 * _COUNT)
        _check(result, "cuMemAlloc")
        argument = ctypes.c_uint64(int(out))
        params = (ctypes.c_void_p * 1)(ctypes.addressof(argument))
        (result,) = cu.cuLaunchKernel(  # 1 KiB of dynamic shared memory
            kernel, 1, 1, 1, 1, 1, 1, 1024, 0, ctypes.addressof(params), 0
        )
        _check(result, "cuLaunchKernel")
        (result,) = cu.cuCtxSynchronize()
        _check(result, "cuCtxSynchronize")
        offsets = (ctypes.c_uint64 * _COUNT)()
        (result,) = cu.cuMemcpyDtoH(ctypes.addressof(offsets), out, 8 * _COUNT)
        _check(result, "cuMemcpyDtoH")
        cu.cuMemFree(out)
    finally:
        cu.cuModuleUnload(module)
    tile_a, tile_b, barrier, handle, barriers, acc = list(offsets)
    where = [hex(o) for o in offsets]
    assert tile_a % 1024 == 0, where
    assert tile_b % 1024 == 0, where
    assert barrier % 8 == 0, where
    assert barriers % 8 == 0, where
    assert len({tile_a, tile_b, barrier, barriers, handle}) == 5, where
    # Both zero-length arrays are the dynamic shared memory: one address, after
    # every static variable, on a 1024-byte boundary (nvJitLink of CUDA 13.0 put it
    # at the end of the static ones, 16-byte aligned: dynamic_shared_memory.py).
    assert handle == acc, where
    assert handle >= max(tile_a + 2048, tile_b + 4096, barrier + 8, barriers + 16)
    assert handle % 1024 == 0, where


_PROGRAM = """
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!plain = !nvgpu.tensormap.descriptor<tensor = memref<16x32xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!swizzled = !nvgpu.tensormap.descriptor<tensor = memref<8x32xf32, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

module attributes {gpu.container_module} {
  memref.global "private" @plain_tile : memref<16x32xf32, 3>
  memref.global "private" @swizzled_tile : memref<8x32xf32, 3>

  func.func @tiles(%a: memref<64x64xf32>, %out1: memref<16x32xf32>, %out2: memref<8x32xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %u = memref.cast %a : memref<64x64xf32> to memref<*xf32>
    %plain_map = nvgpu.tma.create.descriptor %u box[%c16, %c32] : memref<*xf32> -> !plain
    %swizzled_map = nvgpu.tma.create.descriptor %u box[%c8, %c32] : memref<*xf32> -> !swizzled
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k8 = arith.constant 8 : index
      %k16 = arith.constant 16 : index
      %k32 = arith.constant 32 : index
      %k40 = arith.constant 40 : index
      %k128 = arith.constant 128 : index
      %k256 = arith.constant 256 : index
      %k512 = arith.constant 512 : index
      %bytes = arith.constant 3072 : index
      %ticks = arith.constant 10000000 : index
      %parity = arith.constant false
      %plain_tile = memref.get_global @plain_tile : memref<16x32xf32, 3>
      %swizzled_tile = memref.get_global @swizzled_tile : memref<8x32xf32, 3>
      %barrier = nvgpu.mbarrier.create -> !bar
      %first = arith.cmpi eq, %tx, %k0 : index
      scf.if %first {
        nvgpu.mbarrier.init %barrier[%k0], %k1 : !bar
      }
      gpu.barrier
      scf.if %first {
        nvgpu.mbarrier.arrive.expect_tx %barrier[%k0], %bytes : !bar
        nvgpu.tma.async.load %plain_map[%k8, %k16], %barrier[%k0] to %plain_tile : !plain, !bar -> memref<16x32xf32, 3>
        nvgpu.tma.async.load %swizzled_map[%k32, %k40], %barrier[%k0] to %swizzled_tile : !swizzled, !bar -> memref<8x32xf32, 3>
      }
      nvgpu.mbarrier.try_wait.parity %barrier[%k0], %parity, %ticks : !bar
      scf.for %e = %tx to %k512 step %k128 {
        %r = arith.divui %e, %k32 : index
        %c = arith.remui %e, %k32 : index
        %v = memref.load %plain_tile[%r, %c] : memref<16x32xf32, 3>
        memref.store %v, %out1[%r, %c] : memref<16x32xf32>
      }
      scf.for %e = %tx to %k256 step %k128 {
        %r = arith.divui %e, %k32 : index
        %c = arith.remui %e, %k32 : index
        %v = memref.load %swizzled_tile[%r, %c] : memref<8x32xf32, 3>
        memref.store %v, %out2[%r, %c] : memref<8x32xf32>
      }
      gpu.terminator
    }
    return
  }
}
"""


def test_the_program_declares_its_tiles_4_byte_aligned() -> None:
    """What the GPU test relies on: LLVM's PTX asks for no more than 4 bytes."""
    from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import ObjectAttr
    from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp
    from xdsl_gpu.targets.runtime.api import (
        parse_program,
        pipeline_pass,
        program_context,
    )

    module = parse_program(_PROGRAM, "tiles")
    pipeline_pass(f"{OPTIONS} cubin-format=isa").apply(program_context(), module)
    (binary,) = [op for op in module.walk() if isinstance(op, BinaryOp)]
    (obj,) = binary.objects.data
    assert isinstance(obj, ObjectAttr)
    ptx = obj.object.data.decode()
    assert ".shared .align 4 .b8 plain_tile[2048];" in ptx
    assert ".shared .align 4 .b8 swizzled_tile[1024];" in ptx
    assert ".shared .align 8 .b8 __mbarrier[8];" in ptx


@pytest.mark.gpu
def test_tma_into_tiles_declared_without_alignment() -> None:
    from xdsl_gpu.targets.runtime import load

    a = np.arange(64 * 64, dtype=np.float32).reshape(64, 64)
    out1 = np.full((16, 32), np.nan, dtype=np.float32)
    out2 = np.full((8, 32), np.nan, dtype=np.float32)
    # Staged in managed memory: TMA reads device-visible memory.
    with load(_PROGRAM, pipeline_options=OPTIONS, stage_arrays=True) as p:
        p.call("tiles", a, out1, out2)
    np.testing.assert_array_equal(out1, a[16:32, 8:40])
    # 128-byte swizzle: the 16-byte chunk c of row r lies at chunk c xor (r mod 8),
    # which holds only for a tile on a 1024-byte boundary.
    source = a[40:48, 32:64].reshape(8, 8, 4)
    swizzled = np.empty_like(source)
    for r in range(8):
        for c in range(8):
            swizzled[r, c ^ r] = source[r, c]
    np.testing.assert_array_equal(out2, swizzled.reshape(8, 32))
