"""Kernels lowered by ``convert-gpu-to-nvvm`` run on a real GPU and match NumPy.

Each kernel (most from :mod:`tests.passes.gpu_to_nvvm_corpus`) is lowered by our pass,
translated to LLVM IR (``xdsl_gpu/targets/llvm_ir``) and compiled by
``xdsl_gpu/targets/nvvm/serializer.py`` to a cubin, a fatbin and PTX; each of the three is
loaded through the ``mgpu*`` runtime (``xdsl_gpu/targets/runtime``) by a small host module
(:func:`host_ir`) and launched with fresh random inputs in managed memory and outputs
poisoned before the run. Device printf output is captured from the process's stdout.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    VectorType,
)
from xdsl.ir import Attribute
from xdsl.parser import Parser

from tests.passes import gpu_to_nvvm_corpus as corpus
from tests.support.host_ir import llvm_bytes
from tests.support.xdsl_tools import make_context
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget
from xdsl_gpu.passes.convert_gpu_to_nvvm import ConvertGpuToNVVMPass
from xdsl_gpu.passes.reconcile_unrealized_casts import ReconcileUnrealizedCastsPass
from xdsl_gpu.targets.llvm_ir import NVPTX_DATA_LAYOUT, NVPTX_TRIPLE, convert_module
from xdsl_gpu.targets.nvvm.serializer import NVVMOptions, serialize

pytestmark = pytest.mark.gpu

FORMATS = (
    CompilationTarget.Binary,
    CompilationTarget.Fatbin,
    CompilationTarget.Assembly,
)

# -- compilation -----------------------------------------------------------------------


@dataclass
class Compiled:
    """A lowered ``gpu.module``: its binary and the kernels' original signatures."""

    binary: bytes
    fmt: CompilationTarget
    signatures: dict[str, tuple[Attribute, ...]]


def compile_kernels(text: str, fmt: CompilationTarget, options: str = "") -> Compiled:
    from xdsl_gpu.targets.runtime.driver import device

    ctx = make_context()
    module = Parser(ctx, text).parse_module()
    gpu_module = next(op for op in module.walk() if isinstance(op, kernel_ops.ModuleOp))
    signatures = {
        op.sym_name.data: tuple(op.function_type.inputs.data)
        for op in gpu_module.body.block.ops
        if isinstance(op, kernel_ops.FuncOp)
    }
    kwargs: dict[str, Any] = {}
    for item in options.split():
        key, value = item.split("=")
        kwargs[key.replace("-", "_")] = value == "true"
    ConvertGpuToNVVMPass(**kwargs).apply(ctx, module)
    ReconcileUnrealizedCastsPass().apply(ctx, module)
    ir = convert_module(gpu_module, triple=NVPTX_TRIPLE, data_layout=NVPTX_DATA_LAYOUT)
    chip = f"sm_{device().sm}"
    obj = serialize(ir, NVVMOptions(chip=chip, opt_level=3), fmt)
    return Compiled(obj.data, fmt, signatures)


# -- the host side ---------------------------------------------------------------------


def host_ir(compiled: Compiled) -> str:
    """Host LLVM IR: load the binary in a constructor (priority 123, as upstream),
    ``launch`` a kernel by name with a parameter array, ``alloc``/``free`` managed
    memory."""
    data = compiled.binary
    if compiled.fmt is CompilationTarget.Assembly:
        data += b"\0"
        load = "call ptr @mgpuModuleLoadJIT(ptr @bin, i32 3)"
    else:
        load = f"call ptr @mgpuModuleLoad(ptr @bin, i64 {len(data)})"
    site = b"gpu.launch_func from test_gpu_to_nvvm_kernels.py\0"
    return f"""
@bin = internal constant [{len(data)} x i8] {llvm_bytes(data)}, align 8
@mod = internal global ptr null
@site = private unnamed_addr constant [{len(site)} x i8] {llvm_bytes(site)}
@__xdsl_gpu_launch_site = external global ptr
@llvm.global_ctors = appending global [1 x {{ i32, ptr, ptr }}] [{{ i32, ptr, ptr }} {{ i32 123, ptr @load, ptr null }}]
@llvm.global_dtors = appending global [1 x {{ i32, ptr, ptr }}] [{{ i32, ptr, ptr }} {{ i32 123, ptr @unload, ptr null }}]
declare ptr @mgpuModuleLoad(ptr, i64)
declare ptr @mgpuModuleLoadJIT(ptr, i32)
declare void @mgpuModuleUnload(ptr)
declare ptr @mgpuModuleGetFunction(ptr, ptr)
declare void @mgpuLaunchKernel(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)
declare ptr @mgpuStreamCreate()
declare void @mgpuStreamDestroy(ptr)
declare void @mgpuStreamSynchronize(ptr)
declare ptr @mgpuMemAlloc(i64, ptr, i8)
declare void @mgpuMemFree(ptr, ptr)

define internal void @load() {{
  %m = {load}
  store ptr %m, ptr @mod, align 8
  ret void
}}
define internal void @unload() {{
  %m = load ptr, ptr @mod, align 8
  call void @mgpuModuleUnload(ptr %m)
  ret void
}}
define void @launch(ptr %name, i64 %gx, i64 %gy, i64 %gz, i64 %bx, i64 %by, i64 %bz, i32 %smem, ptr %params, i64 %count) {{
  %m = load ptr, ptr @mod
  %f = call ptr @mgpuModuleGetFunction(ptr %m, ptr %name)
  %s = call ptr @mgpuStreamCreate()
  store ptr @site, ptr @__xdsl_gpu_launch_site
  call void @mgpuLaunchKernel(ptr %f, i64 %gx, i64 %gy, i64 %gz, i64 %bx, i64 %by, i64 %bz, i32 %smem, ptr %s, ptr %params, ptr null, i64 %count)
  call void @mgpuStreamSynchronize(ptr %s)
  call void @mgpuStreamDestroy(ptr %s)
  ret void
}}
define ptr @alloc(i64 %bytes) {{
  %p = call ptr @mgpuMemAlloc(i64 %bytes, ptr null, i8 1)
  ret ptr %p
}}
define void @free(ptr %p) {{
  call void @mgpuMemFree(ptr %p, ptr null)
  ret void
}}
"""


_SCALARS: dict[type, Any] = {
    Float32Type: ctypes.c_float,
    Float64Type: ctypes.c_double,
    IndexType: ctypes.c_int64,
}


def _scalar(t: Attribute, value: Any) -> Any:
    if isinstance(t, IntegerType):
        width = t.width.data
        ctype = {1: ctypes.c_bool, 8: ctypes.c_int8, 16: ctypes.c_int16}.get(
            width, ctypes.c_int32 if width == 32 else ctypes.c_int64
        )
        return ctype(value)
    if isinstance(t, Float16Type):
        return ctypes.c_uint16(int(np.float16(value).view(np.uint16)))
    if isinstance(t, BFloat16Type):  # the high half of the f32 bits
        return ctypes.c_uint16(int(np.float32(value).view(np.uint32)) >> 16)
    return _SCALARS[type(t)](value)


class Device:
    """The host module of one compiled ``gpu.module``, and managed buffers."""

    def __init__(self, compiled: Compiled):
        from xdsl_gpu.targets.runtime.jit import JitModule

        self.compiled = compiled
        self.jit = JitModule(host_ir(compiled))
        self._launch = self.jit.function(
            "launch", None, ctypes.c_char_p, *[ctypes.c_int64] * 6, ctypes.c_int32,
            ctypes.c_void_p, ctypes.c_int64,
        )  # fmt: skip
        self._alloc = self.jit.function("alloc", ctypes.c_void_p, ctypes.c_int64)
        self._free = self.jit.function("free", None, ctypes.c_void_p)
        self._buffers: list[int] = []

    def array(self, source: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """A managed-memory copy of ``source`` (a NumPy view of device memory)."""
        nbytes = max(source.nbytes, 1)
        pointer = self._alloc(nbytes)
        self._buffers.append(pointer)
        raw = memoryview((ctypes.c_uint8 * nbytes).from_address(pointer)).cast("B")
        view = np.frombuffer(raw, dtype=source.dtype, count=source.size)
        view = view.reshape(source.shape)
        view[...] = source
        return view

    def poisoned(self, shape: Sequence[int] | int, dtype: Any) -> np.ndarray[Any, Any]:
        """An output buffer filled with 0xFF bytes (NaN for floats, -1 for ints)."""
        buffer = self.array(np.zeros(shape, dtype=dtype))
        buffer.view(np.uint8)[...] = 0xFF
        return buffer

    def launch(
        self,
        kernel: str,
        args: Sequence[Any],
        grid: Sequence[int],
        block: Sequence[int],
        shared_memory: int = 0,
    ) -> None:
        values = list(self._marshal(self.compiled.signatures[kernel], args))
        params = (ctypes.c_void_p * max(len(values), 1))(
            *[ctypes.addressof(v) for v in values]
        )
        gx, gy, gz = (*grid, 1, 1)[:3]
        bx, by, bz = (*block, 1, 1)[:3]
        self._launch(
            kernel.encode(), gx, gy, gz, bx, by, bz, shared_memory,
            ctypes.addressof(params), len(values),
        )  # fmt: skip

    def _marshal(
        self, types: Sequence[Attribute], args: Sequence[Any]
    ) -> Iterator[Any]:
        """Kernel parameters under the descriptor convention: a memref expands to
        (allocated, aligned, offset, sizes..., strides...)."""
        assert len(types) == len(args)
        for t, arg in zip(types, args, strict=True):
            if isinstance(t, MemRefType):
                assert isinstance(arg, np.ndarray)
                pointer = arg.ctypes.data
                element_shape = (
                    t.element_type.get_shape()
                    if isinstance(t.element_type, VectorType)
                    else ()
                )
                shape = arg.shape[: arg.ndim - len(element_shape)]
                yield ctypes.c_void_p(pointer)
                yield ctypes.c_void_p(pointer)
                yield ctypes.c_int64(0)
                strides = [1] * len(shape)
                for i in range(len(shape) - 2, -1, -1):
                    strides[i] = strides[i + 1] * shape[i + 1]
                for size in shape:
                    yield ctypes.c_int64(size)
                for stride in strides:
                    yield ctypes.c_int64(stride)
            else:
                yield _scalar(t, arg)

    def close(self) -> None:
        self.jit.close()
        for pointer in self._buffers:
            self._free(pointer)
        self._buffers.clear()


@pytest.fixture(params=FORMATS, ids=lambda f: f.value)
def fmt(request: pytest.FixtureRequest) -> CompilationTarget:
    return request.param


def run_module(text: str, fmt: CompilationTarget, options: str = "") -> Device:
    return Device(compile_kernels(text, fmt, options))


RNG = np.random.default_rng()

# -- the kernels -----------------------------------------------------------------------


def test_simple_mul(fmt: CompilationTarget) -> None:
    n = 1000
    dev = run_module(corpus.SIMPLE_MUL, fmt)
    try:
        a = dev.array(RNG.standard_normal(n, dtype=np.float32))
        b = dev.array(RNG.standard_normal(n, dtype=np.float32))
        c = dev.poisoned(n, np.float32)
        dev.launch("simple_mul", [a, b, c, n], grid=[(n + 63) // 64], block=[64])
        np.testing.assert_allclose(c, a * b, rtol=1e-6)
    finally:
        dev.close()


def test_seed_matmul(fmt: CompilationTarget) -> None:
    # The passes that upstream's pipeline runs before convert-gpu-to-nvvm.
    text = _pre_lowered(corpus.MATMUL, ("lower-affine", "convert-scf-to-cf"))
    dev = run_module(text, fmt)
    try:
        a = dev.array(RNG.standard_normal((256, 1024), dtype=np.float32))
        b = dev.array(RNG.standard_normal((1024, 256), dtype=np.float32))
        c = dev.poisoned((256, 256), np.float32)
        args = [32, 0, 32, 1, 0, a, b, 1024, 0.0, c]
        dev.launch("test_parallel_kernel", args, grid=[8, 8], block=[32, 32])
        np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-3)
    finally:
        dev.close()


def _pre_lowered(text: str, passes: Sequence[str]) -> str:
    from tests.support.xdsl_tools import available_passes, print_module

    ctx = make_context()
    module = Parser(ctx, text).parse_module()
    registry = available_passes()
    for name in passes:
        registry[name]()().apply(ctx, module)
    return print_module(module)


def test_all_reduce(fmt: CompilationTarget) -> None:
    threads = 96  # three warps: known_block_size
    dev = run_module(corpus.ALL_REDUCE, fmt)
    try:
        values = RNG.uniform(0.5, 1.5, threads).astype(np.float32)
        ints = RNG.integers(-1000, 1000, threads, dtype=np.int32)
        v, i = dev.array(values), dev.array(ints)
        out, iout = dev.poisoned(8, np.float32), dev.poisoned(8, np.int32)
        dev.launch("all_reduce", [v, i, out, iout], grid=[1], block=[threads])
        np.testing.assert_allclose(out[0], values.sum(), rtol=1e-5)
        assert out[1] == values.max()
        np.testing.assert_allclose(out[2], values.sum(), rtol=1e-5)
        assert iout[0] == ints.max()
        assert iout[1] == np.bitwise_xor.reduce(ints)
    finally:
        dev.close()


PARTIAL_ALL_REDUCE = corpus.module(
    """
  gpu.func @partial(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %nx = gpu.block_dim x
    %row = arith.muli %ty, %nx : index
    %tid = arith.addi %row, %tx : index
    %v = memref.load %in[%tid] : memref<?xf32>
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> f32
    %min = gpu.all_reduce minimumf %v uniform {} : (f32) -> f32
    %s = arith.addf %sum, %min : f32
    memref.store %s, %out[%tid] : memref<?xf32>
    gpu.return
  }"""
)


@pytest.mark.parametrize("block", [(50, 1), (5, 7), (1024, 1)], ids=str)
def test_all_reduce_with_partial_warps(
    fmt: CompilationTarget, block: tuple[int, int]
) -> None:
    """Blocks whose last warp is cut short take the shuffles that check `valid`."""
    threads = block[0] * block[1]
    dev = run_module(PARTIAL_ALL_REDUCE, fmt)
    try:
        values = RNG.uniform(-1, 1, threads).astype(np.float32)
        out = dev.poisoned(threads, np.float32)
        dev.launch("partial", [dev.array(values), out], grid=[1], block=list(block))
        expected = np.full(threads, values.sum() + values.min(), dtype=np.float32)
        np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)
    finally:
        dev.close()


def test_shuffles(fmt: CompilationTarget) -> None:
    dev = run_module(corpus.SHUFFLES, fmt)
    try:
        out = dev.poisoned(64, np.float32)
        iout = dev.poisoned(64, np.int32)
        dout = dev.poisoned(64, np.float64)
        lout = dev.poisoned(64, np.int64)
        vout = dev.poisoned(64, np.int32)
        dev.launch("shuffles", [out, iout, dout, lout, vout], grid=[1], block=[32])
        lanes = np.arange(32)
        np.testing.assert_array_equal(out[:32], (lanes ^ 1).astype(np.float32))
        up_valid = lanes >= 3
        np.testing.assert_array_equal(iout[:32], np.where(up_valid, lanes - 3, lanes))
        down_valid = lanes + 5 <= 31
        np.testing.assert_array_equal(dout[:32], np.where(down_valid, lanes + 5, lanes))
        np.testing.assert_array_equal(lout[:32], np.full(32, 3))
        expected = up_valid * 1 + down_valid * 2 + 1 * 8
        np.testing.assert_array_equal(vout[:32], expected)
    finally:
        dev.close()


def test_subgroup_reduce_shuffle_trees(fmt: CompilationTarget) -> None:
    n = 64
    dev = run_module(corpus.SUBGROUP_REDUCE, fmt)
    try:
        values = RNG.uniform(-1, 1, n).astype(np.float32)
        ints = RNG.integers(1, 4, n, dtype=np.int32)
        halves = RNG.uniform(0, 1, n).astype(np.float16)
        vectors = RNG.uniform(0, 1, (n, 2)).astype(np.float32)
        args = [
            dev.array(values), dev.array(ints), dev.array(halves),
            out := dev.poisoned(n, np.float32), iout := dev.poisoned(n, np.int32),
            hout := dev.poisoned(n, np.float16), dev.array(vectors),
            vout := dev.poisoned((n, 2), np.float32),
        ]  # fmt: skip
        dev.launch("subgroup_reduce", args, grid=[1], block=[n])
        lane = np.arange(n)
        warp = lane // 32
        warp_sum = np.array([values[warp == w].sum() for w in warp])
        cluster4 = np.array([values[(lane // 4) == (k // 4)].max() for k in lane])
        np.testing.assert_allclose(out, warp_sum + cluster4, rtol=1e-5, atol=1e-5)
        warp_prod = np.array(
            [np.prod(ints[warp == w].astype(np.int64)) for w in warp]
        ).astype(np.int64)
        warp_prod = ((warp_prod + 2**31) % 2**32 - 2**31).astype(np.int32)
        group8 = (lane & ~0b1110) | 0  # lanes l ^ 2, l ^ 4, l ^ 8 share this
        min8 = np.array([ints[group8 == g].astype(np.uint32).min() for g in group8])
        np.testing.assert_array_equal(iout, warp_prod + min8.astype(np.int32))
        half_sum = np.array([halves[warp == w].astype(np.float32).sum() for w in warp])
        np.testing.assert_allclose(hout.astype(np.float32), half_sum, rtol=2e-2)
        group16 = lane // 16
        vec_sum = np.array([vectors[group16 == g].sum(axis=0) for g in group16])
        np.testing.assert_allclose(vout, vec_sum, rtol=1e-5)
    finally:
        dev.close()


def test_redux(fmt: CompilationTarget) -> None:
    from xdsl_gpu.targets.runtime.driver import device

    if device().sm < 80:
        pytest.skip("redux.sync needs sm_80")
    n = 32
    dev = run_module(corpus.REDUX, fmt, "has-redux=true")
    try:
        ints = RNG.integers(-50, 50, n, dtype=np.int32)
        out = dev.poisoned(n, np.int32)
        dev.launch("redux", [dev.array(ints), out], grid=[1], block=[n])
        expected = (
            ints.sum()
            + np.bitwise_and.reduce(ints)
            + np.bitwise_or.reduce(ints)
            + np.bitwise_xor.reduce(ints)
            + ints.min()
            + ints.max()
        )
        np.testing.assert_array_equal(out, np.full(n, expected, dtype=np.int32))
    finally:
        dev.close()


def test_shared_memory_tile(fmt: CompilationTarget) -> None:
    dev = run_module(corpus.ATTRIBUTIONS, fmt)
    try:
        source = RNG.standard_normal(64).astype(np.float32)
        out = dev.poisoned(64, np.float32)
        dev.launch("tile", [dev.array(source), out], grid=[1], block=[8, 8])
        np.testing.assert_array_equal(out, source.reshape(8, 8).T.reshape(64))
    finally:
        dev.close()


def test_dynamic_shared_memory(fmt: CompilationTarget) -> None:
    n = 128
    dev = run_module(corpus.DYNAMIC_SHARED, fmt)
    try:
        source = RNG.standard_normal(n).astype(np.float32)
        out = dev.poisoned(n, np.float32)
        dev.launch(
            "reverse", [dev.array(source), out, n], grid=[1], block=[n],
            shared_memory=4 * n,
        )  # fmt: skip
        np.testing.assert_array_equal(out, source[::-1])
    finally:
        dev.close()


def test_math_f32_f64_f16(fmt: CompilationTarget) -> None:
    n = 256
    dev = run_module(corpus.MATH, fmt)
    try:
        x = RNG.uniform(0.1, 1.0, n).astype(np.float32)
        y = RNG.uniform(0.1, 4.0, n)
        h = RNG.uniform(-2.0, 2.0, n).astype(np.float16)
        y[7], y[8] = np.inf, np.nan
        args = [
            dev.array(x), dev.array(y), dev.array(h),
            f32 := dev.poisoned(n, np.float32), f64 := dev.poisoned(n, np.float64),
            f16 := dev.poisoned(n, np.float16), iout := dev.poisoned(n, np.int32),
        ]  # fmt: skip
        dev.launch("math", args, grid=[1], block=[n])

        xd = x.astype(np.float64)
        erf = np.vectorize(math.erf)(xd)
        e = np.exp(xd)
        p = xd**xd
        ref32 = (
            e + np.sin(xd) + np.cos(xd) + np.sqrt(xd) + np.tanh(xd) + np.log1p(xd)
            + p + np.arctan2(xd, e) + np.fmod(p, e) + 1 / np.sqrt(e) + erf + e
        )  # fmt: skip
        np.testing.assert_allclose(f32, ref32, rtol=1e-4)

        finite = np.isfinite(y)
        yf = np.where(finite, y, 1.0)
        ref64 = (
            np.exp(yf) + np.log(yf) + np.sin(yf) + np.cbrt(yf) + np.floor(yf)
            + np.rint(yf) + np.maximum(np.exp(yf), np.log(yf))
        )  # fmt: skip
        np.testing.assert_allclose(f64[finite], ref64[finite], rtol=1e-12)

        hf = h.astype(np.float32)
        e0 = np.exp(hf).astype(np.float16)
        e1 = np.abs(h)
        e2 = np.tanh(hf).astype(np.float16)
        ref16 = (e0 + e1) + e2
        np.testing.assert_allclose(f16.astype(np.float32), ref16, rtol=1e-2, atol=1e-2)

        expected = np.isnan(x) * 1 + np.isinf(y) * 1 + np.isfinite(x) * 1
        np.testing.assert_array_equal(iout, expected)
    finally:
        dev.close()


def test_printf_of_every_argument_type(
    fmt: CompilationTarget, capfd: pytest.CaptureFixture[str]
) -> None:
    dev = run_module(corpus.PRINTF, fmt)
    try:
        capfd.readouterr()
        dev.launch("printf", [1.5, -2.25, -7, 2**40, 123, 0.75], grid=[1], block=[2])
        dev.jit.runtime.synchronize()
        lines = capfd.readouterr().out.splitlines()
    finally:
        dev.close()
    expected = [
        f"thread {t}: f32 1.500000 f64 -2.250000 i32 -7 i64 {2**40} index 123 "
        "f16 0.750000"
        for t in range(2)
    ]
    assert sorted(line for line in lines if line.startswith("thread")) == expected
    assert lines.count("no arguments") == 2


SMALL_INTS_PRINTF = corpus.module(
    """
  gpu.func @small(%b: i1, %c: i8, %s: i16, %h: bf16) kernel {
    gpu.printf "i1 %d i8 %d i16 %d bf16 %f\\n", %b, %c, %s, %h : i1, i8, i16, bf16
    gpu.return
  }"""
)


def test_printf_promotes_small_integers(
    fmt: CompilationTarget, capfd: pytest.CaptureFixture[str]
) -> None:
    """Beyond MLIR 22: i1/i8/i16 are promoted to i32 as C varargs are."""
    dev = run_module(SMALL_INTS_PRINTF, fmt)
    try:
        capfd.readouterr()
        dev.launch("small", [True, -5, -300, 2.0], grid=[1], block=[1])
        dev.jit.runtime.synchronize()
        out = capfd.readouterr().out
    finally:
        dev.close()
    assert "i1 1 i8 -5 i16 -300 bf16 2.000000" in out


def test_beyond_mlir_22(fmt: CompilationTarget) -> None:
    n = 64
    dev = run_module(corpus.BEYOND, fmt)
    try:
        out = dev.poisoned(n, np.int32)
        fout = dev.poisoned(n, np.float32)
        hout = dev.poisoned(n, np.float16)
        dev.launch("beyond", [out, fout, hout], grid=[1], block=[n])
        t = np.arange(n)
        lane, warp = t % 32, t // 32
        rotated = warp * 32 + (lane + 3) % 32
        broadcast = warp * 32 + 2
        expected = 32 + warp + 2 + rotated + broadcast + (lane < 16)
        np.testing.assert_array_equal(out, expected)
        rotated16 = warp * 32 + (lane & ~15) + ((lane + 5) & 15)
        first = warp * 32
        low = lane < 16  # rotate of width 16: other lanes are poison
        np.testing.assert_array_equal(fout[low], (rotated16 + first)[low])
        np.testing.assert_array_equal(hout, (t ^ 1).astype(np.float16))
    finally:
        dev.close()
