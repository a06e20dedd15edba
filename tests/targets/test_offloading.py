"""The offloading translation against mlir-translate-22, and on the GPU."""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess

import numpy as np
import pytest
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, i32, i64

from tests.support.host_ir import AXPY_KERNEL
from tests.support.xdsl_tools import parse, print_module
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget, ObjectAttr
from xdsl_gpu.targets.nvvm.serializer import NVVMOptions, serialize
from xdsl_gpu.targets.offloading.target import host_llvm_ir

HOST = """
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "">]
  llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
  llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
  llvm.func @run(%a: f32, %hx: !llvm.ptr, %hy: !llvm.ptr, %n: i64, %blocks: i64, %threads: i64) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c4 = llvm.mlir.constant(4 : i64) : i64
    %false = llvm.mlir.constant(0 : i8) : i8
    %bytes = llvm.mul %n, %c4 : i64
    %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %dx = llvm.call @mgpuMemAlloc(%bytes, %s, %false) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    %dy = llvm.call @mgpuMemAlloc(%bytes, %s, %false) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    llvm.call @mgpuMemcpy(%dx, %hx, %bytes, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuMemcpy(%dy, %hy, %bytes, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    gpu.launch_func <%s : !llvm.ptr> @kernels::@axpy blocks in (%blocks, %c1, %c1) threads in (%threads, %c1, %c1) : i64 args(%a : f32, %dx : !llvm.ptr, %dy : !llvm.ptr, %n : i64)
    llvm.call @mgpuMemcpy(%hy, %dy, %bytes, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    llvm.call @mgpuMemFree(%dx, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuMemFree(%dy, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%s) : (!llvm.ptr) -> ()
    llvm.return
  }
}
"""


def _properties(values: dict[str, int]) -> DictionaryAttr:
    return DictionaryAttr(
        {k: IntegerAttr(v, i32 if k == "O" else i64) for k, v in values.items()}
    )


def _module(chip: str = "sm_90", fmt: CompilationTarget = CompilationTarget.Binary):
    module = parse(HOST)
    binary = next(op for op in module.ops if op.name == "gpu.binary")
    obj = serialize(AXPY_KERNEL, NVVMOptions(chip=chip, opt_level=3), fmt)
    target = binary.objects.data[0].target
    binary.objects = ArrayAttr(
        [
            ObjectAttr(
                target,
                obj.data,
                format=fmt.value,
                properties=_properties(obj.properties),
            )
        ]
    )
    return module


def _calls(llvm_ir: str, function: str) -> list[str]:
    body = llvm_ir.split(f"@{function}(", 1)[1].split("\n}", 1)[0]
    return re.findall(r"call \w+ @(\w+)", body)


@pytest.mark.skipif(
    shutil.which("mlir-translate-22") is None, reason="needs mlir-translate-22"
)
def test_same_runtime_calls_and_symbols_as_mlir_translate() -> None:
    module = _module()
    ours = host_llvm_ir(module)
    upstream = subprocess.run(
        ["mlir-translate-22", "--mlir-to-llvmir"],
        input=print_module(module), capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert _calls(ours, "run") == _calls(upstream, "run")
    assert _calls(ours, "kernels_load") == _calls(upstream, "kernels_load")
    for symbol in (
        "kernels_binary",
        "kernels_module",
        "kernels_axpy_name",
        "llvm.global_ctors",
    ):
        assert f"@{symbol} =" in ours
        assert f"@{symbol} =" in upstream
    launch = re.compile(r"call void @mgpuLaunchKernel\((.*)\)")
    arity = [len(m.split(",")) for m in launch.findall(ours)]
    assert arity == [len(m.split(",")) for m in launch.findall(upstream)] == [12]


@pytest.mark.gpu
@pytest.mark.parametrize(
    "fmt",
    [CompilationTarget.Binary, CompilationTarget.Fatbin, CompilationTarget.Assembly],
)
def test_translated_host_code_runs(fmt: CompilationTarget) -> None:
    from xdsl_gpu.targets.runtime.driver import device
    from xdsl_gpu.targets.runtime.jit import JitModule

    module = _module(f"sm_{device().sm}", fmt)
    rng = np.random.default_rng()
    x = rng.standard_normal(5000, dtype=np.float32)
    y = rng.standard_normal(5000, dtype=np.float32)
    expected = -1.5 * x + y
    with JitModule(host_llvm_ir(module)) as jit:
        run = jit.function(
            "run", None, ctypes.c_float, ctypes.c_void_p, ctypes.c_void_p,
            ctypes.c_int64, ctypes.c_int64, ctypes.c_int64,
        )  # fmt: skip
        run(-1.5, x.ctypes.data, y.ctypes.data, x.size, (x.size + 127) // 128, 128)
    np.testing.assert_allclose(y, expected, rtol=1e-6)
