"""The compile child that ``gpu-lower-to-nvvm-pipeline`` forks before lowering
(``xdsl_gpu/targets/nvvm/prestarted_compiler.py``): the same objects as a child
forked later, errors as they were, the usual path when it fails, never left
behind."""

from __future__ import annotations

import os
import re

import pytest

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget
from xdsl_gpu.passes.gpu_lower_to_nvvm_pipeline import GpuLowerToNVVMPipelinePass
from xdsl_gpu.targets.nvvm import prestarted_compiler
from xdsl_gpu.targets.nvvm.serializer import (
    NVVMOptions,
    SerializationError,
    SerializedObject,
    serialize,
)

pytestmark = pytest.mark.usefixtures("forking_is_safe")

KERNEL = """
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %p) {
  %v = load float, ptr addrspace(1) %p
  %w = fmul float %v, %v
  store float %w, ptr addrspace(1) %p
  ret void
}
"""

OPTIONS = NVVMOptions(chip="sm_90", features="+ptx80", module_name="k")


@pytest.fixture(autouse=True)
def _nothing_pending() -> object:
    prestarted_compiler.discard()
    yield
    assert prestarted_compiler.take() is None, "a compile child was left behind"


def test_objects_are_those_of_serialize() -> None:
    prestarted_compiler.prestart()
    child = prestarted_compiler.take()
    assert child is not None
    fmt = CompilationTarget.Assembly
    outcomes = child.compile([(KERNEL, OPTIONS, fmt), (KERNEL, OPTIONS, fmt)])
    assert outcomes is not None
    assert len(outcomes) == 2
    expected = serialize(KERNEL, OPTIONS, fmt, isolate=False)
    for outcome in outcomes:
        assert isinstance(outcome.value, SerializedObject)
        assert outcome.value.data == expected.data
        assert outcome.value.ptx == expected.ptx


def test_a_module_llvm_rejects_is_its_error() -> None:
    prestarted_compiler.prestart()
    child = prestarted_compiler.take()
    assert child is not None
    fmt = CompilationTarget.Assembly
    outcomes = child.compile([("not llvm ir", OPTIONS, fmt), (KERNEL, OPTIONS, fmt)])
    assert outcomes is not None
    assert isinstance(outcomes[0].error, SerializationError)
    with pytest.raises(SerializationError) as expected:
        serialize("not llvm ir", OPTIONS, fmt, isolate=False)
    assert str(outcomes[0].error) == str(expected.value)
    assert isinstance(outcomes[1].value, SerializedObject)


def test_a_child_that_dies_leaves_the_modules_to_the_caller(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def dies(*_: object, **__: object) -> SerializedObject:
        os._exit(3)

    monkeypatch.setattr(prestarted_compiler, "serialize", dies)
    prestarted_compiler.prestart()
    child = prestarted_compiler.take()
    assert child is not None
    assert child.compile([(KERNEL, OPTIONS, CompilationTarget.Assembly)]) is None


def test_one_child_at_a_time_and_discard_stops_it() -> None:
    prestarted_compiler.prestart()
    first = prestarted_compiler._pending  # pyright: ignore[reportPrivateUsage]
    prestarted_compiler.prestart()
    assert prestarted_compiler._pending is first  # pyright: ignore[reportPrivateUsage]
    prestarted_compiler.discard()
    assert prestarted_compiler.take() is None


TWO_KERNELS = """
module attributes {gpu.container_module} {
  func.func @main(%m: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
               threads(%t0, %t1, %t2) in (%s0 = %c8, %s1 = %c1, %s2 = %c1) {
      %v = memref.load %m[%t0] : memref<8xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %m[%t0] : memref<8xf32>
      gpu.terminator
    }
    gpu.launch blocks(%b0, %b1, %b2) in (%g0 = %c1, %g1 = %c1, %g2 = %c1)
               threads(%t0, %t1, %t2) in (%s0 = %c8, %s1 = %c1, %s2 = %c1) {
      %v = memref.load %m[%t0] : memref<8xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %m[%t0] : memref<8xf32>
      gpu.terminator
    }
    return
  }
}
"""


def _compile(monkeypatch: pytest.MonkeyPatch, cache: str) -> str:
    monkeypatch.setenv("XDSL_GPU_CACHE", cache)
    ctx = make_context()
    module = parse(TWO_KERNELS, ctx)
    GpuLowerToNVVMPipelinePass(
        cubin_chip="sm_90", cubin_features="+ptx80", cubin_format="isa"
    ).apply(ctx, module)
    return re.sub(r"TimeInMs = \d+", "TimeInMs = N", print_module(module))


def test_the_sequential_pipeline_compiles_in_the_early_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("XDSL_GPU_VERIFY_EACH", raising=False)
    monkeypatch.setenv("XDSL_GPU_JOBS", "1")
    usual = _compile(monkeypatch, "0")
    calls: list[int] = []
    compile_ = prestarted_compiler.PrestartedCompiler.compile

    def counted(self: prestarted_compiler.PrestartedCompiler, requests: list) -> object:
        calls.append(len(requests))
        return compile_(self, requests)

    monkeypatch.setattr(prestarted_compiler.PrestartedCompiler, "compile", counted)
    monkeypatch.setenv("XDSL_GPU_JOBS", "2")  # small: step after step all the same
    assert _compile(monkeypatch, "0") == usual
    assert calls == [2]


def test_unused_when_every_object_is_cached(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.delenv("XDSL_GPU_VERIFY_EACH", raising=False)
    monkeypatch.setenv("XDSL_GPU_CACHE_DIR", str(tmp_path))
    first = _compile(monkeypatch, "1")
    cancelled: list[bool] = []
    cancel = prestarted_compiler.PrestartedCompiler.cancel

    def counted(self: prestarted_compiler.PrestartedCompiler) -> None:
        cancelled.append(True)
        cancel(self)

    monkeypatch.setattr(prestarted_compiler.PrestartedCompiler, "cancel", counted)
    assert _compile(monkeypatch, "1") == first
    assert cancelled


MATH_KERNEL = """
target triple = "nvptx64-nvidia-cuda"
declare float @__nv_expf(float)
define ptx_kernel void @k(ptr addrspace(1) %p) {
  %v = load float, ptr addrspace(1) %p
  %w = call float @__nv_expf(float %v)
  store float %w, ptr addrspace(1) %p
  ret void
}
"""


MATH_PROGRAM = """
func.func @f(%x: f32) -> f32 {
  %y = math.exp %x : f32
  func.return %y : f32
}
"""

LIBDEVICE_CALL = """
llvm.func @__nv_expf(f32) -> f32
llvm.func @f(%x: f32) -> f32 {
  %y = llvm.call @__nv_expf(%x) : (f32) -> f32
  llvm.return %y : f32
}
"""

NO_MATH = """
func.func @f(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  func.return %y : f32
}
"""


def test_libdevice_is_parsed_ahead_for_programs_with_math_functions() -> None:
    """Only there: elsewhere the modules would wait for a parse they do not use."""
    ctx = make_context()
    assert prestarted_compiler.calls_math_functions(parse(MATH_PROGRAM, ctx))
    assert prestarted_compiler.calls_math_functions(parse(LIBDEVICE_CALL, ctx))
    assert not prestarted_compiler.calls_math_functions(parse(NO_MATH, ctx))


def test_libdevice_parsed_ahead_links_as_parsed_then(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The early child parses libdevice before the modules come; the first
    module that links it gets that copy, the same PTX as a fresh parse, and
    the next parses its own."""
    from xdsl_gpu.targets.nvvm import serializer

    fmt = CompilationTarget.Assembly
    expected = serialize(MATH_KERNEL, OPTIONS, fmt, isolate=False)
    assert expected.ptx is not None
    assert "ex2.approx" in expected.ptx  # libdevice's expf, inlined
    serializer.preparse_libdevice()
    path = serializer.toolkit.find_libdevice()
    taken = serializer._take_preparsed(path)  # pyright: ignore[reportPrivateUsage]
    assert taken is not None
    assert serializer._take_preparsed(path) is None  # pyright: ignore[reportPrivateUsage]
    # Another file, or the same one changed since: parsed anew.
    serializer.preparse_libdevice()
    assert serializer._take_preparsed(path.parent / "other.bc") is None  # pyright: ignore[reportPrivateUsage]
    serializer.preparse_libdevice()
    assert serializer._preparsed is not None  # pyright: ignore[reportPrivateUsage]
    _, (size, mtime), module = serializer._preparsed  # pyright: ignore[reportPrivateUsage]
    monkeypatch.setattr(serializer, "_preparsed", (path, (size, mtime - 1), module))
    assert serializer._take_preparsed(path) is None  # pyright: ignore[reportPrivateUsage]
    # In the child of a program with math functions: both modules link
    # libdevice, the first the preparsed one.
    program = parse(MATH_PROGRAM, make_context())
    assert prestarted_compiler.calls_math_functions(program)
    prestarted_compiler.prestart(program)
    child = prestarted_compiler.take()
    assert child is not None
    outcomes = child.compile([(MATH_KERNEL, OPTIONS, fmt), (MATH_KERNEL, OPTIONS, fmt)])
    assert outcomes is not None
    for outcome in outcomes:
        assert isinstance(outcome.value, SerializedObject)
        assert outcome.value.ptx == expected.ptx
