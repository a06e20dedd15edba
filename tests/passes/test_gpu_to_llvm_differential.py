"""Differential tests of ``gpu-to-llvm`` against ``mlir-opt-22 -gpu-to-llvm``.

Each case runs through our pass (in-process) and through upstream's, and both outputs
are reduced to what the host program does: per function, the sequence of ``mgpu*``
calls and ``gpu.launch_func`` ops, each operand named by where it comes from (a
function argument, the n-th result of a runtime function, a constant, a descriptor
field of one of those, a byte size). The sequences must be equal: same calls in the
same order on the same streams, events and buffers, same ``launch_func`` operand
lists. The one expected difference is our leak fix: streams that upstream never
destroys are destroyed by ours (checked separately, then filtered out).

Cases where upstream fails or leaves ops behind (several dependencies, synchronous
ops) check that upstream indeed does, and that ours lowers everything. The end-to-end
test feeds our output to the offloading translation (``-t llvm-offload``), whose LLVM
IR llvmlite must verify. The GPU test (marker ``gpu``) runs a fork/join program on
the device and checks the result and that no stream, event or buffer is left.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any

import pytest
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import LaunchFuncOp
from xdsl_gpu.passes.gpu_to_llvm import GpuToLLVMPass

MLIR_OPT = shutil.which("mlir-opt-22")
needs_mlir = pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")

BINARY = 'gpu.binary @kernels [#gpu.object<#nvvm.target, "">]'


def _module(body: str) -> str:
    return f"module attributes {{gpu.container_module}} {{\n{BINARY}\n{body}\n}}\n"


ASYNC1 = _module("""
func.func @f(%h: memref<16xf32>, %c1: index) {
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
  %t2 = gpu.memcpy async [%t1] %d, %h : memref<16xf32>, memref<16xf32>
  %t3 = gpu.launch_func async [%t2] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32>)
  %t4 = gpu.dealloc async [%t3] %d : memref<16xf32>
  gpu.wait [%t4]
  return
}""")

FORK_JOIN = _module("""
func.func @fork_join(%n: index, %x: f32) {
  %t0 = gpu.wait async
  %t1 = gpu.wait async
  %t2 = gpu.wait async [%t0, %t1]
  %t3 = gpu.launch_func async [%t2] @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%x : f32)
  gpu.wait [%t3]
  return
}""")

RUNTIME_OPS = _module("""
func.func @ops(%d: memref<?xf32>, %v: f32, %h: memref<?x4xi16>, %w: i16, %g: memref<2x3x?xf32>, %k: memref<2x3x?xf32>) {
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %d, %v : memref<?xf32>, f32
  %t2 = gpu.memset async [%t1] %h, %w : memref<?x4xi16>, i16
  %t3 = gpu.memcpy async [%t2] %d, %d : memref<?xf32>, memref<?xf32>
  %t4 = gpu.memcpy async [%t3] %g, %k : memref<2x3x?xf32>, memref<2x3x?xf32>
  %t5 = gpu.dealloc async [%t4] %d : memref<?xf32>
  gpu.wait [%t5]
  return
}
func.func @shared(%n: index) -> memref<?x8xf32> {
  %m = gpu.alloc host_shared (%n) : memref<?x8xf32>
  return %m : memref<?x8xf32>
}
func.func @reg(%u: memref<*xf32>, %i: i32) {
  gpu.host_register %u : memref<*xf32>
  gpu.host_unregister %u : memref<*xf32>
  gpu.set_default_device %i
  return
}
func.func @event(%t: !gpu.async.token, %m: memref<4xf32>) -> !gpu.async.token {
  %m2, %t1 = gpu.alloc async [%t] () : memref<4xf32>
  %t2 = gpu.memcpy async [%t1] %m2, %m : memref<4xf32>, memref<4xf32>
  return %t2 : !gpu.async.token
}
func.func @event_wait(%t: !gpu.async.token) {
  gpu.wait [%t]
  return
}""")

LAUNCHES = _module("""
func.func @l(%a: memref<16xf32>, %b: memref<4x8xi32>, %u: memref<*xf32>, %n: index, %s: i32, %x: f32, %i: i32) {
  gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) dynamic_shared_memory_size %s args(%a : memref<16xf32>, %x : f32, %b : memref<4x8xi32>)
  %t = gpu.launch_func async @kernels::@k clusters in (%n, %n, %n) blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%a : memref<16xf32>, %b : memref<4x8xi32>)
  %t1 = gpu.launch_func async [%t] @kernels::@k blocks in (%i, %i, %i) threads in (%i, %i, %i) : i32 args(%u : memref<*xf32>)
  gpu.wait [%t1]
  return
}""")

STATIC_LAUNCH = _module("""
func.func @l(%a: memref<16xf32>, %b: memref<4x8xi32>, %n: index) {
  gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%a : memref<16xf32>, %b : memref<4x8xi32>)
  %t0 = gpu.wait async
  %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%b : memref<4x8xi32>, %a : memref<16xf32>)
  gpu.wait [%t1]
  return
}""")


def _seed_002() -> str:
    """The host function of seed 002 (its gpu.modules as binaries), from the copy
    bundled in examples/, so that the test runs in a plain clone."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "examples/async_matmul/matmul.mlir").read_text()
    function = text[
        text.index("func.func @test_parallel") : text.index(
            "gpu.module @test_parallel_kernel {"
        )
    ]
    binaries = "\n".join(
        f'gpu.binary @{name} [#gpu.object<#nvvm.target, "">]'
        for name in (
            "test_parallel_kernel",
            "test_parallel_kernel_0",
            "test_parallel_kernel_1",
        )
    )
    return f"module attributes {{gpu.container_module}} {{\n{binaries}\n{function}}}\n"


# -- reducing a lowered module to what it does ---------------------------------------


@dataclass
class _Namer:
    """Names values by their origin, identically for both tools' outputs."""

    counts: dict[str, int]
    names: dict[SSAValue, str]

    def name(self, value: SSAValue) -> str:
        if value in self.names:
            return self.names[value]
        name = self._name(value)
        self.names[value] = name
        return name

    def _name(self, value: SSAValue) -> str:
        if isinstance(value, BlockArgument):
            return f"arg{value.index}"
        op = value.owner
        assert isinstance(op, Operation)
        match op:
            case llvm.CallOp():
                return f"{op.callee.string_value()}#{self._next(op)}"
            case llvm.ConstantOp():
                attr = op.value
                return (
                    f"const({attr.value.data})"
                    if isinstance(attr, IntegerAttr)
                    else f"const({attr})"
                )
            case llvm.ZeroOp():
                return "null"
            case llvm.BitcastOp() | llvm.AddrSpaceCastOp():
                return self.name(op.operands[0])
            case llvm.ExtractValueOp():
                return self._field(op.container, tuple(op.position.get_values()))
            case llvm.MulOp():
                return f"mul({self.name(op.lhs)}, {self.name(op.rhs)})"
            case llvm.PtrToIntOp():
                return f"int({self.name(op.input)})"
            case llvm.GEPOp():
                dynamic = iter(op.ssa_indices)
                indices = [
                    self.name(next(dynamic))
                    if i == llvm.GEP_USE_SSA_VAL
                    else f"const({i})"
                    for i in op.rawConstantIndices.get_values()
                ]
                return f"gep({self.name(op.ptr)}, {indices}, {op.elem_type})"
            case _:
                return op.name

    def _next(self, call: Operation) -> int:
        callee = call.callee.string_value()  # pyright: ignore[reportAttributeAccessIssue]
        key = f"{callee}@{id(call)}"
        if key not in self.counts:
            self.counts[key] = self.counts.get(callee, 0)
            self.counts[callee] = self.counts[key] + 1
        return self.counts[key]

    def _field(self, container: SSAValue, position: tuple[int, ...]) -> str:
        """Follow ``insertvalue`` chains to the value stored at ``position``."""
        op = container.owner
        while isinstance(op, llvm.InsertValueOp):
            if tuple(op.position.get_values()) == position:
                return self.name(op.value)
            op = op.container.owner
        return f"{self.name(container)}{list(position)}"


def _trace(module: ModuleOp) -> dict[str, list[tuple[Any, ...]]]:
    """Per host function: its runtime calls and launches, operands named by origin."""
    traces: dict[str, list[tuple[Any, ...]]] = {}
    for function in module.ops:
        if not isinstance(function, llvm.FuncOp) or not function.body.blocks:
            continue
        namer = _Namer({}, {})
        events: list[tuple[Any, ...]] = []
        for op in function.walk():
            if isinstance(op, llvm.CallOp) and op.callee.string_value().startswith(
                "mgpu"
            ):
                result = (namer.name(op.results[0]),) if op.results else ()
                events.append(
                    (
                        "call",
                        *result,
                        op.callee.string_value(),
                        *map(namer.name, op.args),
                    )
                )
            elif isinstance(op, LaunchFuncOp):
                stream = op.async_object
                events.append(
                    (
                        "launch",
                        str(op.kernel),
                        None if stream is None else namer.name(stream),
                        tuple(
                            namer.name(v)
                            for v in (*op.grid_size_operands, *op.block_size_operands)
                        ),
                        tuple((namer.name(v), str(v.type)) for v in op.kernel_operands),
                        None
                        if op.dynamic_shared_memory_size is None
                        else namer.name(op.dynamic_shared_memory_size),
                        op.cluster_size_x is not None,
                    )
                )
        traces[function.sym_name.data] = events
    return traces


def ours(text: str, **options: bool) -> ModuleOp:
    module = parse(text)
    GpuToLLVMPass(**options).apply(make_context(), module)
    module.verify()
    return module


def upstream(text: str, **options: bool) -> ModuleOp:
    assert MLIR_OPT is not None
    flags = " ".join(f"{k.replace('_', '-')}={int(v)}" for k, v in options.items())
    result = subprocess.run(
        [MLIR_OPT, f"-gpu-to-llvm={flags}" if flags else "-gpu-to-llvm"],
        input=text, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return parse(result.stdout)


def _without_leak_fix(
    ours_trace: list[tuple[Any, ...]], upstream_trace: list[tuple[Any, ...]]
) -> list[tuple[Any, ...]]:
    """Our trace minus the ``mgpuStreamDestroy`` of streams upstream never destroys."""
    destroyed = {e[2] for e in upstream_trace if e[:2] == ("call", "mgpuStreamDestroy")}
    return [
        e for e in ours_trace
        if not (e[:2] == ("call", "mgpuStreamDestroy") and e[2] not in destroyed)
    ]  # fmt: skip


def _callees(trace: list[tuple[Any, ...]]) -> list[str]:
    """The runtime function of each call (``launch`` for a launch)."""
    return [
        "launch" if e[0] == "launch" else e[2] if "#" in e[1] else e[1] for e in trace
    ]


def _leaked_streams(trace: list[tuple[Any, ...]]) -> set[str]:
    created = {
        e[1] for e in trace if e[0] == "call" and e[2:3] == ("mgpuStreamCreate",)
    }
    destroyed = {e[2] for e in trace if e[:2] == ("call", "mgpuStreamDestroy")}
    return created - destroyed


CASES = {
    "async1": (ASYNC1, {}),
    "fork_join": (FORK_JOIN, {}),
    "runtime_ops": (RUNTIME_OPS, {}),
    "launches": (LAUNCHES, {}),
    "launches_bare": (
        LAUNCHES.replace(", %u : memref<*xf32>", "").replace(
            "args(%u : memref<*xf32>)", ""
        ),
        {"use_bare_pointers_for_kernels": True},
    ),
    "sizes": (
        STATIC_LAUNCH,
        {"use_bare_pointers_for_kernels": True, "intersperse_sizes_for_kernels": True},
    ),
    "bare_host": (STATIC_LAUNCH, {"use_bare_pointers_for_host": True}),
    "seed_002": (
        None,
        {"use_bare_pointers_for_host": True, "use_bare_pointers_for_kernels": True},
    ),
}


@needs_mlir
@pytest.mark.parametrize("case", CASES)
def test_same_runtime_calls_as_mlir_opt_22(case: str) -> None:
    text, options = CASES[case]
    text = text if text is not None else _seed_002()
    mine, theirs = _trace(ours(text, **options)), _trace(upstream(text, **options))
    assert mine.keys() == theirs.keys()
    for function in theirs:
        assert (
            _without_leak_fix(mine[function], theirs[function]) == theirs[function]
        ), function


@needs_mlir
@pytest.mark.parametrize("case", ["fork_join", "seed_002"])
def test_streams_that_upstream_leaks_are_destroyed(case: str) -> None:
    text, options = CASES[case]
    text = text if text is not None else _seed_002()
    mine, theirs = _trace(ours(text, **options)), _trace(upstream(text, **options))
    for function in theirs:
        assert len(_leaked_streams(theirs[function])) == 2
        assert _leaked_streams(mine[function]) == set()


def test_golden_fork_join() -> None:
    """Inventory §5's verbatim output, plus the two destroys of the leak fix."""
    trace = _trace(ours(FORK_JOIN))["fork_join"]
    s0, s1, s2 = "mgpuStreamCreate#0", "mgpuStreamCreate#1", "mgpuStreamCreate#2"
    e0, e1 = "mgpuEventCreate#0", "mgpuEventCreate#1"
    assert trace == [
        ("call", s0, "mgpuStreamCreate"),
        ("call", e0, "mgpuEventCreate"),
        ("call", "mgpuEventRecord", e0, s0),
        ("call", s1, "mgpuStreamCreate"),
        ("call", e1, "mgpuEventCreate"),
        ("call", "mgpuEventRecord", e1, s1),
        ("call", s2, "mgpuStreamCreate"),
        ("call", "mgpuStreamWaitEvent", s2, e0),
        ("call", "mgpuStreamWaitEvent", s2, e1),
        ("call", "mgpuEventDestroy", e0),
        ("call", "mgpuEventDestroy", e1),
        ("call", "mgpuStreamDestroy", s0),
        ("call", "mgpuStreamDestroy", s1),
        ("launch", "@kernels::@k", s2, ("arg0",) * 6, (("arg1", "f32"),), None, False),
        ("call", "mgpuStreamSynchronize", s2),
        ("call", "mgpuStreamDestroy", s2),
    ]


def test_golden_async1() -> None:
    """Inventory §5's verbatim output (after canonicalize/cse upstream)."""
    trace = _trace(ours(ASYNC1))["f"]
    s, d = "mgpuStreamCreate#0", "mgpuMemAlloc#0"
    size = "int(gep(null, ['const(16)'], f32))"
    assert trace == [
        ("call", s, "mgpuStreamCreate"),
        ("call", d, "mgpuMemAlloc", size, s, "const(0)"),
        ("call", "mgpuMemcpy", d, "arg1", size, s),
        ("launch", "@kernels::@k", s, ("arg5",) * 6,
         ((d, "!llvm.ptr"), (d, "!llvm.ptr"), ("const(0)", "i64"), ("const(16)", "i64"), ("const(1)", "i64")), None, False),
        ("call", "mgpuMemFree", d, s),
        ("call", "mgpuStreamSynchronize", s),
        ("call", "mgpuStreamDestroy", s),
    ]  # fmt: skip


# -- beyond upstream -----------------------------------------------------------------

MULTI_DEPS = _module("""
func.func @m(%n: index, %a: memref<8xf32>, %b: memref<8xf32>) {
  %t0 = gpu.wait async
  %t1 = gpu.wait async
  %t2 = gpu.launch_func async [%t0, %t1] @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%a : memref<8xf32>)
  %t3 = gpu.wait async
  %t4 = gpu.memcpy async [%t3, %t2] %a, %b : memref<8xf32>, memref<8xf32>
  gpu.wait [%t4]
  return
}""")

SYNC_OPS = _module("""
func.func @s(%a: memref<8xf32>, %b: memref<8xf32>, %v: f32, %n: index) {
  %m = gpu.alloc () : memref<8xf32>
  gpu.memcpy %m, %a : memref<8xf32>, memref<8xf32>
  gpu.memset %b, %v : memref<8xf32>, f32
  %t0 = gpu.wait async
  gpu.launch_func [%t0] @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<8xf32>)
  gpu.dealloc %m : memref<8xf32>
  return
}""")


def _upstream_status(text: str) -> tuple[int, str]:
    assert MLIR_OPT is not None
    result = subprocess.run(
        [MLIR_OPT, "-gpu-to-llvm"],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    return result.returncode, result.stdout + result.stderr


@needs_mlir
def test_several_dependencies_upstream_fails_ours_waits() -> None:
    code, message = _upstream_status(MULTI_DEPS)
    assert code != 0
    assert "failed to legalize operation 'gpu.launch_func'" in message
    trace = _trace(ours(MULTI_DEPS))["m"]
    s0, s1, s2 = (f"mgpuStreamCreate#{i}" for i in range(3))
    calls = [e[1:] if e[0] == "call" else ("launch", e[2]) for e in trace]
    assert calls == [
        (s0, "mgpuStreamCreate"),
        (s1, "mgpuStreamCreate"),
        ("mgpuEventCreate#0", "mgpuEventCreate"),
        ("mgpuEventRecord", "mgpuEventCreate#0", s1),
        ("mgpuStreamWaitEvent", s0, "mgpuEventCreate#0"),
        ("mgpuEventDestroy", "mgpuEventCreate#0"),
        ("launch", s0),
        ("mgpuStreamDestroy", s1),
        ("mgpuEventCreate#1", "mgpuEventCreate"),  # recorded right after the launch
        ("mgpuEventRecord", "mgpuEventCreate#1", s0),
        (s2, "mgpuStreamCreate"),
        ("mgpuStreamWaitEvent", s2, "mgpuEventCreate#1"),
        ("mgpuEventDestroy", "mgpuEventCreate#1"),
        ("mgpuMemcpy", "arg2", "arg7", "int(gep(null, ['const(8)'], f32))", s2),
        ("mgpuStreamDestroy", s0),  # after its last use, the memcpy that waits on it
        ("mgpuStreamSynchronize", s2),
        ("mgpuStreamDestroy", s2),
    ]
    assert _leaked_streams(trace) == set()


@needs_mlir
def test_synchronous_ops_upstream_leaves_them_ours_lowers() -> None:
    code, message = _upstream_status(SYNC_OPS)
    assert code != 0 or "gpu.memcpy" in message
    module = ours(SYNC_OPS)
    left = {op.name for op in module.walk() if op.name.startswith("gpu.")}
    assert left == {"gpu.binary", "gpu.launch_func"}
    trace = _trace(module)["s"]
    assert _leaked_streams(trace) == set()
    assert _callees(trace) == [
        "mgpuMemAlloc",
        "mgpuStreamCreate", "mgpuMemcpy", "mgpuStreamSynchronize", "mgpuStreamDestroy",
        "mgpuStreamCreate", "mgpuMemset32", "mgpuStreamSynchronize", "mgpuStreamDestroy",
        "mgpuStreamCreate", "launch", "mgpuStreamSynchronize", "mgpuStreamDestroy",
        "mgpuMemFree",
    ]  # fmt: skip


def test_our_output_is_accepted_by_mlir_opt_22() -> None:
    if MLIR_OPT is None:
        pytest.skip("mlir-opt-22 not installed")
    for text in (ASYNC1, FORK_JOIN, RUNTIME_OPS, LAUNCHES, MULTI_DEPS, SYNC_OPS):
        printed = print_module(ours(text))
        result = subprocess.run(
            [MLIR_OPT], input=printed, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stderr


E2E = {
    "async1": ASYNC1,
    "fork_join": FORK_JOIN,
    "runtime_ops": RUNTIME_OPS,
    "launches": LAUNCHES,
    "multi_deps": MULTI_DEPS,
    "sync_ops": SYNC_OPS,
}


@pytest.mark.parametrize("case", E2E)
def test_end_to_end_offloading_translation(case: str) -> None:
    """``gpu-to-llvm`` then ``-t llvm-offload``: LLVM IR that llvmlite verifies."""
    from xdsl_gpu.targets.offloading.target import host_llvm_ir

    ir = host_llvm_ir(ours(E2E[case]), verify=True)
    assert "call ptr @mgpuStreamCreate()" in ir
    if "launch_func" in E2E[case]:
        assert "call void @mgpuLaunchKernel" in ir


# -- on the GPU ----------------------------------------------------------------------

_GPU_PROGRAM = """
module attributes {{gpu.container_module}} {{
  gpu.module @kernels [#nvvm.target<chip = "{chip}">] {{
    llvm.func @twice(%p: !llvm.ptr) attributes {{gpu.kernel, nvvm.kernel}} {{
      %i = nvvm.read.ptx.sreg.tid.x : i32
      %a = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %a : !llvm.ptr -> f32
      %w = llvm.fadd %v, %v : f32
      llvm.store %w, %a : f32, !llvm.ptr
      llvm.return
    }}
    llvm.func @add(%p: !llvm.ptr, %q: !llvm.ptr) attributes {{gpu.kernel, nvvm.kernel}} {{
      %i = nvvm.read.ptx.sreg.tid.x : i32
      %a = llvm.getelementptr %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %b = llvm.getelementptr %q[%i] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %a : !llvm.ptr -> f32
      %w = llvm.load %b : !llvm.ptr -> f32
      %s = llvm.fadd %v, %w : f32
      llvm.store %s, %a : f32, !llvm.ptr
      llvm.return
    }}
  }}
  func.func @run(%x: memref<256xf32>, %y: memref<256xf32>) {{
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1.0 : f32
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %d, %ta = gpu.alloc async [%t0] () : memref<256xf32>
    %tb = gpu.memcpy async [%ta] %d, %x : memref<256xf32>, memref<256xf32>
    %tc = gpu.launch_func async [%tb] @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%d : memref<256xf32>)
    %e, %td = gpu.alloc async [%t1] () : memref<256xf32>
    %te = gpu.memset async [%td] %e, %one : memref<256xf32>, f32
    %tf = gpu.launch_func async [%tc, %te] @kernels::@add blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%d : memref<256xf32>, %e : memref<256xf32>)
    %j = gpu.wait async [%tf, %te]
    %tg = gpu.memcpy async [%j] %y, %d : memref<256xf32>, memref<256xf32>
    %th = gpu.dealloc async [%tg] %d : memref<256xf32>
    gpu.wait [%th]
    gpu.dealloc %e : memref<256xf32>
    return
  }}
}}
"""


@pytest.mark.gpu
def test_fork_join_runs_and_leaks_nothing() -> None:
    """y = 2x + 1 through two streams joined twice (a launch with two dependencies and
    a gpu.wait async), 10,000 times; afterwards no stream, event or buffer is live
    and the device has as much free memory as before."""
    import numpy as np

    from xdsl_gpu.passes.gpu_module_to_binary import GpuModuleToBinaryPass
    from xdsl_gpu.targets.offloading.target import host_llvm_ir
    from xdsl_gpu.targets.runtime.driver import device
    from xdsl_gpu.targets.runtime.jit import JitModule
    from xdsl_gpu.targets.runtime.runtime import CudaRuntime

    module = parse(_GPU_PROGRAM.format(chip=f"sm_{device().sm}"))
    ctx = make_context()
    GpuModuleToBinaryPass().apply(ctx, module)
    GpuToLLVMPass(use_bare_pointers_for_kernels=True).apply(ctx, module)
    runtime = CudaRuntime.get()
    streams, events, buffers = (
        runtime.live_streams,
        runtime.live_events,
        runtime.live_allocations,
    )
    x = np.arange(256, dtype=np.float32)
    descriptor = [
        ctypes.c_void_p,
        ctypes.c_void_p,
        ctypes.c_int64,
        ctypes.c_int64,
        ctypes.c_int64,
    ]
    from cuda.bindings import driver as cu

    with JitModule(host_llvm_ir(module)) as jit:
        run = jit.function("run", None, *descriptor, *descriptor)

        def run_once() -> None:
            y = np.zeros(256, dtype=np.float32)
            run(
                x.ctypes.data,
                x.ctypes.data,
                0,
                256,
                1,
                y.ctypes.data,
                y.ctypes.data,
                0,
                256,
                1,
            )
            np.testing.assert_array_equal(y, 2 * x + 1)

        # The driver loads a kernel's code on its first launch (lazy loading, the
        # default since CUDA 12.2): that one-time allocation is not a leak.
        run_once()
        cu.cuCtxSynchronize()
        free_before = cu.cuMemGetInfo()[1]
        for _ in range(10_000):
            run_once()
        cu.cuCtxSynchronize()
        assert cu.cuMemGetInfo()[1] == free_before
        assert runtime.live_streams == streams
        assert runtime.live_events == events
        assert runtime.live_allocations == buffers
