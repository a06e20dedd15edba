"""The host-side gpu ops that ``gpu-to-llvm`` lowers to ``mgpu*`` calls, end to end.

Each program in ``Inputs/host_*.mlir`` is ordinary gpu-dialect MLIR (``gpu.launch``
bodies or ``gpu.module`` + ``gpu.launch_func``) exercising one op family:
``gpu.alloc``/``gpu.dealloc``, ``gpu.memcpy``, ``gpu.memset``,
``gpu.host_register``/``gpu.host_unregister``, ``gpu.set_default_device``,
``gpu.wait``, dynamically shaped memrefs and dynamic shared memory.

Without a GPU (no marker): each program goes through ``gpu-lower-to-nvvm-pipeline``
and the offloading translation to host LLVM IR with the binary embedded, and the
``mgpu*`` calls of each host function are checked in order (with the arguments that
matter: the stream, ``host_shared``, the 16-bit value, the shared memory size...);
every stream and event created is destroyed. ``mlir-opt-22`` runs the same program
through upstream's passes (up to ``gpu-to-llvm``): every runtime call it makes, ours
makes too (ours also lowers the synchronous ops upstream leaves behind).

On the GPU (marker ``gpu``): the same programs are loaded with
``xdsl_gpu.targets.runtime.load`` (``stage_arrays=False``: NumPy arrays are passed as they
are, so kernels can only reach host memory that the program registered) and called
with fresh random data, outputs poisoned with NaN (or random bytes) first; results
are checked against NumPy and the runtime's live allocation, stream and event
counters must be back where they were.
"""

from __future__ import annotations

import re
import secrets
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

INPUTS = Path(__file__).resolve().parent / "Inputs"
PROGRAMS = {
    "alloc": "host_alloc.mlir",
    "memcpy": "host_memcpy.mlir",
    "memset": "host_memset.mlir",
    "host_register": "host_register.mlir",
    "set_default_device": "host_set_default_device.mlir",
    "wait": "host_wait.mlir",
    "dynamic_memref": "host_dynamic_memref.mlir",
    "dynamic_shared_memory": "host_dynamic_shared_memory.mlir",
}
CHIP = "sm_90"  # for the host LLVM IR without a GPU (any chip CUDA 13 supports)
MLIR_OPT = shutil.which("mlir-opt-22")

# Upstream's gpu-lower-to-nvvm-pipeline up to gpu-to-llvm (gpu-module-to-binary
# needs ptxas, which this machine may lack) and the passes after it.
UPSTREAM_PIPELINE = (
    "builtin.module(gpu-kernel-outlining,convert-scf-to-cf,convert-func-to-llvm,"
    "expand-strided-metadata,nvvm-attach-target{chip=sm_90},lower-affine,"
    "convert-arith-to-llvm,convert-index-to-llvm,canonicalize,cse,"
    "gpu.module(convert-gpu-to-nvvm),gpu.module(canonicalize),gpu.module(cse),"
    "gpu.module(reconcile-unrealized-casts),gpu-to-llvm,convert-math-to-llvm,"
    "canonicalize,cse,reconcile-unrealized-casts)"
)


def source(name: str) -> str:
    return (INPUTS / PROGRAMS[name]).read_text()


# -- host LLVM IR, without a GPU --------------------------------------------------------

_STREAM = r"ptr %v\d+"  # a stream created by mgpuStreamCreate
_NULL = "ptr null"

# Per program and host function: the mgpu* calls, in order (each a regex that must
# match one call line, the lines between them free), read from the lowering rules of
# inventory §5 and §6.
EXPECTED: dict[str, dict[str, list[str]]] = {
    "alloc": {
        "allocs": [
            rf"@mgpuMemAlloc\(i64 %\w+, {_NULL}, i8 0\)",  # gpu.alloc ()
            r"@mgpuStreamCreate\(\)",  # sync memcpy: a temporary stream
            rf"@mgpuMemcpy\(ptr %\w+, ptr %arg1, i64 %\w+, {_STREAM}\)",  # H2D from %x
            r"@mgpuStreamSynchronize\(",
            r"@mgpuStreamDestroy\(",
            r"@mgpuStreamCreate\(\)",  # gpu.wait async
            rf"@mgpuMemAlloc\(i64 %\w+, {_STREAM}, i8 0\)",  # gpu.alloc async [%t0]
            rf"@mgpuLaunchKernel\(ptr %\w+, i64 4, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0, {_STREAM},",
            rf"@mgpuMemcpy\(ptr %arg6, ptr %\w+, i64 %\w+, {_STREAM}\)",  # D2H into %y
            rf"@mgpuMemFree\(ptr %\w+, {_STREAM}\)",  # gpu.dealloc async
            r"@mgpuStreamSynchronize\(",  # gpu.wait [%t4]
            r"@mgpuStreamDestroy\(",
            rf"@mgpuMemAlloc\(i64 %\w+, {_NULL}, i8 1\)",  # host_shared
            r"@mgpuStreamCreate\(\)",  # sync launch: the translation's stream
            r"@mgpuLaunchKernel\(",
            r"@mgpuStreamSynchronize\(",
            r"@mgpuStreamDestroy\(",
            rf"@mgpuMemFree\(ptr %\w+, {_NULL}\)",  # gpu.dealloc %s
            rf"@mgpuMemFree\(ptr %\w+, {_NULL}\)",  # gpu.dealloc %a
        ],
        "make_shared": [
            rf"@mgpuMemAlloc\(i64 %\w+, {_NULL}, i8 1\)",
            r"@mgpuLaunchKernel\(ptr %\w+, i64 %\w+, i64 1, i64 1, i64 128,",
            r"@mgpuStreamSynchronize\(",
        ],
        "release": [rf"@mgpuMemFree\(ptr %arg0, {_NULL}\)"],
    },
    "memcpy": {
        "copies": [
            rf"@mgpuMemAlloc\(i64 %\w+, {_NULL}, i8 0\)",
            rf"@mgpuMemAlloc\(i64 %\w+, {_NULL}, i8 0\)",
            r"@mgpuMemset32\(ptr %\w+, i32 %\w+, i64 2048, ",
            r"@mgpuMemset32\(ptr %\w+, i32 %\w+, i64 2048, ",
            rf"@mgpuMemcpy\(ptr %\w+, ptr %arg1, i64 %\w+, {_STREAM}\)",  # H2D sync
            r"@mgpuStreamSynchronize\(",
            r"@mgpuLaunchKernel\(ptr %\w+, i64 64, i64 1, i64 1, i64 32, i64 1, i64 1, i32 0,",
            r"@mgpuStreamSynchronize\(",
            rf"@mgpuMemcpy\(ptr %\w+, ptr %\w+, i64 %\w+, {_STREAM}\)",  # D2D sync
            r"@mgpuStreamSynchronize\(",
            rf"@mgpuMemcpy\(ptr %arg8, ptr %\w+, i64 %\w+, {_STREAM}\)",  # D2H sync
            r"@mgpuStreamSynchronize\(",
            r"@mgpuStreamCreate\(\)",  # the async chain
            rf"@mgpuMemAlloc\(i64 %\w+, {_STREAM}, i8 0\)",
            rf"@mgpuMemcpy\(ptr %\w+, ptr %arg1, i64 %\w+, {_STREAM}\)",  # H2D async
            rf"@mgpuMemAlloc\(i64 %\w+, {_STREAM}, i8 0\)",
            rf"@mgpuMemset32\(ptr %\w+, i32 %\w+, i64 2048, {_STREAM}\)",
            rf"@mgpuMemcpy\(ptr %\w+, ptr %\w+, i64 %\w+, {_STREAM}\)",  # D2D async
            rf"@mgpuLaunchKernel\(ptr %\w+, i64 64, i64 1, i64 1, i64 32, i64 1, i64 1, i32 0, {_STREAM},",
            rf"@mgpuMemcpy\(ptr %arg15, ptr %\w+, i64 %\w+, {_STREAM}\)",  # D2H async
            rf"@mgpuMemFree\(ptr %\w+, {_STREAM}\)",
            rf"@mgpuMemFree\(ptr %\w+, {_STREAM}\)",
            r"@mgpuStreamSynchronize\(",
            r"@mgpuStreamDestroy\(",
            rf"@mgpuMemFree\(ptr %\w+, {_NULL}\)",
            rf"@mgpuMemFree\(ptr %\w+, {_NULL}\)",
        ],
    },
    "memset": {
        "memsets": [
            rf"@mgpuMemAlloc\(i64 %\w+, {_NULL}, i8 0\)",
            # f32: the value's bits as i32, 1024 elements (not bytes)
            r"@mgpuMemset32\(ptr %\w+, i32 %\w+, i64 1024, ",
            r"@mgpuMemset32\(ptr %\w+, i32 %\w+, i64 1024, ",
            r"@mgpuMemset16\(ptr %\w+, i16 %\w+, i64 1024, ",  # f16
            r"@mgpuMemset16\(ptr %\w+, i16 %\w+, i64 1024, ",
            r"@mgpuStreamCreate\(\)",
            rf"@mgpuMemset32\(ptr %\w+, i32 %arg5, i64 1024, {_STREAM}\)",  # i32, async
            rf"@mgpuMemset32\(ptr %\w+, i32 %arg1, i64 1024, {_STREAM}\)",
            rf"@mgpuMemset16\(ptr %\w+, i16 %arg7, i64 1024, {_STREAM}\)",  # i16, async
            rf"@mgpuMemset16\(ptr %\w+, i16 %arg3, i64 1024, {_STREAM}\)",
            r"@mgpuStreamSynchronize\(",
            r"@mgpuStreamDestroy\(",
            rf"@mgpuMemcpy\(ptr %arg9, ptr %\w+, i64 %\w+, {_STREAM}\)",
            rf"@mgpuMemFree\(ptr %\w+, {_NULL}\)",
        ],
    },
    "host_register": {
        "registered": [
            # rank 2, the descriptor on the stack, sizeof(f32)
            r"@mgpuMemHostRegisterMemRef\(i64 2, ptr %\w+, i64 %\w+\)",
            r"@mgpuLaunchKernel\(ptr %\w+, i64 64, i64 1, i64 1, i64 32, i64 1, i64 1, i32 0,",
            r"@mgpuStreamSynchronize\(",
            r"@mgpuMemHostUnregisterMemRef\(i64 2, ptr %\w+, i64 %\w+\)",
        ],
    },
    "set_default_device": {
        "on_device": [
            r"@mgpuSetDefaultDevice\(i32 %arg0\)",
            rf"@mgpuMemAlloc\(i64 %\w+, {_NULL}, i8 0\)",
            r"@mgpuMemcpy\(",
            r"@mgpuLaunchKernel\(ptr %\w+, i64 1, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0,",
            r"@mgpuMemcpy\(",
            r"@mgpuMemFree\(",
        ],
    },
    "wait": {
        "waits": [
            r"@mgpuMemset32\(",
            r"@mgpuMemset32\(",
            r"(?P<a>%v\d+) = call ptr @mgpuStreamCreate\(\)",  # %a0 = gpu.wait async
            r"@mgpuLaunchKernel\(.*, ptr (?P=a), ",
            r"@mgpuEventRecord\(ptr %\w+, ptr (?P=a)\)",  # for the join, after %a3
            r"(?P<b>%v\d+) = call ptr @mgpuStreamCreate\(\)",  # %b0 = gpu.wait async
            r"@mgpuLaunchKernel\(.*, ptr (?P=b), ",
            r"@mgpuEventRecord\(ptr %\w+, ptr (?P=b)\)",
            # the launch with two dependencies: on %a's stream, after an event of %b's
            r"@mgpuEventRecord\(ptr (?P<e>%v\d+), ptr (?P=b)\)",
            r"@mgpuStreamWaitEvent\(ptr (?P=a), ptr (?P=e)\)",
            r"@mgpuEventDestroy\(ptr (?P=e)\)",
            r"@mgpuLaunchKernel\(.*, ptr (?P=a), ",
            # gpu.wait async [%a3, %b3]: a new stream waiting for an event of each
            r"(?P<j>%v\d+) = call ptr @mgpuStreamCreate\(\)",
            r"@mgpuStreamWaitEvent\(ptr (?P=j), ",
            r"@mgpuStreamWaitEvent\(ptr (?P=j), ",
            r"@mgpuEventDestroy\(",
            r"@mgpuEventDestroy\(",
            r"@mgpuLaunchKernel\(.*, ptr (?P=j), ",
            r"@mgpuStreamSynchronize\(ptr (?P=a)\)",  # gpu.wait [%l]
            r"@mgpuStreamDestroy\(ptr (?P=a)\)",
            r"@mgpuMemcpy\(ptr %arg16, ptr %\w+, i64 %\w+, ptr (?P=j)\)",  # diff
            r"@mgpuStreamSynchronize\(ptr (?P=j)\)",  # gpu.wait [%j2]
            r"@mgpuStreamDestroy\(ptr (?P=j)\)",
            r"@mgpuMemcpy\(ptr %arg11, ",  # the sum, synchronously
            r"@mgpuMemFree\(",
            r"@mgpuMemFree\(",
            r"@mgpuMemFree\(",
            r"@mgpuMemFree\(",
        ],
    },
    "dynamic_memref": {
        "dynamic": [
            # the byte size comes from the dynamic size %n
            rf"@mgpuMemAlloc\(i64 %\w+, {_NULL}, i8 0\)",
            r"@mgpuMemcpy\(ptr %\w+, ptr %arg1, i64 %\w+, ",
            r"@mgpuLaunchKernel\(ptr %\w+, i64 %\w+, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0,",
            r"@mgpuMemcpy\(ptr %arg6, ptr %\w+, i64 %\w+, ",
            rf"@mgpuMemAlloc\(i64 %\w+, {_STREAM}, i8 0\)",
            rf"@mgpuMemset32\(ptr %\w+, i32 %\w+, i64 %\w+, {_STREAM}\)",  # count: %n
            rf"@mgpuMemcpy\(ptr %arg11, ptr %\w+, i64 %\w+, {_STREAM}\)",
            rf"@mgpuMemFree\(ptr %\w+, {_STREAM}\)",
            r"@mgpuStreamSynchronize\(",
            rf"@mgpuMemFree\(ptr %\w+, {_NULL}\)",
        ],
    },
    "dynamic_shared_memory": {
        "reverse_launch": [
            r"@mgpuMemcpy\(",
            r"@mgpuLaunchKernel\(ptr %\w+, i64 %\w+, i64 1, i64 1, i64 256, i64 1, i64 1, i32 %arg10, ",
            r"@mgpuMemcpy\(",
        ],
        "reverse_func": [
            r"@mgpuMemcpy\(",
            rf"@mgpuLaunchKernel\(ptr %\w+, i64 %\w+, i64 1, i64 1, i64 256, i64 1, i64 1, i32 %arg10, {_STREAM},",
            r"@mgpuMemcpy\(",
            r"@mgpuStreamSynchronize\(",
        ],
    },
}

# Host functions that free everything they allocate.
BALANCED = {
    "allocs", "copies", "memsets", "registered", "on_device", "waits", "dynamic",
    "reverse_launch", "reverse_func",
}  # fmt: skip


@pytest.fixture(scope="module")
def host_llvm_ir() -> dict[str, str]:
    """Each program's host LLVM IR, through our pipeline and translation."""
    from xdsl_gpu.targets.runtime.api import compile_host_llvm_ir, parse_program

    return {
        name: compile_host_llvm_ir(parse_program(source(name), name), chip=CHIP)
        for name in PROGRAMS
    }


_INSERT = re.compile(
    r"(%v\d+) = insertvalue .*?\}+ (%\w+|poison), \w+ (%\w+), ([\d, ]+)$"
)
_EXTRACT = re.compile(r"(%v\d+) = extractvalue .*?\}+ (%\w+), ([\d, ]+)$")


def runtime_calls(llvm_ir: str) -> dict[str, list[str]]:
    """Per defined function: its ``mgpu*`` call lines, in order, with each operand
    that is a descriptor field of a function argument written as that argument
    (``%vN = extractvalue %d, 1`` of a descriptor built from ``%arg1`` becomes
    ``%arg1``)."""
    calls: dict[str, list[str]] = {}
    current: list[str] | None = None
    inserts: dict[
        str, tuple[str, str, str]
    ] = {}  # result: (container, value, position)
    origin: dict[str, str] = {}
    for line in llvm_ir.splitlines():
        text = line.strip()
        if match := re.match(r"define [^@]*@([\w.$]+)\(", line):
            current = calls.setdefault(match.group(1), [])
            inserts, origin = {}, {}
        elif line.startswith("}"):
            current = None
        elif current is None:
            continue
        elif match := _INSERT.match(text):
            inserts[match.group(1)] = (match.group(2), match.group(3), match.group(4))
        elif match := _EXTRACT.match(text):
            container, position = match.group(2), match.group(3)
            while container in inserts:
                inner, value, at = inserts[container]
                if at == position:
                    if value.startswith("%arg"):
                        origin[match.group(1)] = value
                    break
                container = inner
        elif re.search(r"call \w+ @mgpu\w+\(", text):
            current.append(
                re.sub(r"%v\d+\b", lambda m: origin.get(m.group(0), m.group(0)), text)
            )
    return calls


def callee(line: str) -> str:
    match = re.search(r"@(mgpu\w+)\(", line)
    assert match is not None
    return match.group(1)


def assert_calls_in_order(lines: list[str], patterns: list[str], where: str) -> None:
    """Each pattern matches a call line, in order (other calls may come between);
    ``(?P<name>...)`` groups bind for later ``(?P=name)`` references."""
    bound: dict[str, str] = {}
    position = 0
    for pattern in patterns:
        for name, value in bound.items():
            pattern = pattern.replace(f"(?P={name})", re.escape(value))
        regex = re.compile(pattern)
        while position < len(lines):
            match = regex.search(lines[position])
            position += 1
            if match:
                bound.update({k: v for k, v in match.groupdict().items() if v})
                break
        else:
            listing = "\n  ".join(lines)
            raise AssertionError(
                f"{where}: no call matching {pattern!r} in order; the calls are:\n  {listing}"
            )


@pytest.mark.parametrize("name", PROGRAMS)
def test_host_llvm_makes_the_runtime_calls(
    name: str, host_llvm_ir: dict[str, str]
) -> None:
    llvm_ir = host_llvm_ir[name]
    calls = runtime_calls(llvm_ir)
    # The binary is embedded and loaded by a constructor of priority 123.
    if "gpu.launch" in source(name):
        assert re.search(r"@\w+_binary = internal constant \[\d+ x i8\]", llvm_ir)
        assert "i32 123" in llvm_ir
        assert any("@mgpuModuleLoad(" in c for lines in calls.values() for c in lines)
    for function, patterns in EXPECTED[name].items():
        assert function in calls, f"no host function @{function} in the LLVM IR"
        assert_calls_in_order(calls[function], patterns, f"@{function}")
        counts = Counter(callee(line) for line in calls[function])
        # Nothing leaks: every stream and event created is destroyed.
        assert counts["mgpuStreamCreate"] == counts["mgpuStreamDestroy"], function
        assert counts["mgpuEventCreate"] == counts["mgpuEventDestroy"], function
        assert counts["mgpuEventCreate"] == counts["mgpuEventRecord"], function
        if function in BALANCED:
            assert counts["mgpuMemAlloc"] == counts["mgpuMemFree"], function


def test_memset_widths_and_bit_patterns(host_llvm_ir: dict[str, str]) -> None:
    """f32 and f16 values are passed by their bits (bitcast), i32 and i16 as they are;
    nothing but mgpuMemset16/32 sets memory."""
    llvm_ir = host_llvm_ir["memset"]
    body = llvm_ir[llvm_ir.index("define void @memsets(") :]
    body = body[: body.index("\n}")]
    assert (
        "define void @memsets(float %arg0, i32 %arg1, half %arg2, i16 %arg3, float %arg4, i32 %arg5, half %arg6, i16 %arg7,"
        in llvm_ir
    )
    for arg, bits in (
        ("%arg0", "i32"),
        ("%arg4", "i32"),
        ("%arg2", "i16"),
        ("%arg6", "i16"),
    ):
        cast = re.search(rf"(%v\d+) = bitcast \w+ {arg} to {bits}", body)
        assert cast is not None, f"{arg} is not bitcast to {bits}"
        assert re.search(
            rf"@mgpuMemset{bits[1:]}\(ptr %\w+, {bits} {cast.group(1)}, i64 1024,", body
        )
    assert "llvm.memset" not in body


def test_host_shared_alloc_is_managed_and_not_async(
    host_llvm_ir: dict[str, str],
) -> None:
    calls = runtime_calls(host_llvm_ir["alloc"])
    shared = [c for c in calls["allocs"] + calls["make_shared"] if ", i8 1)" in c]
    assert len(shared) == 2
    assert all(f", {_NULL}, i8 1)" in c for c in shared)  # no stream


def test_dynamic_shared_memory_reaches_the_kernel(host_llvm_ir: dict[str, str]) -> None:
    """The kernels take their shared memory from the extern dynamic array, and the
    launches pass the size the host computed."""
    llvm_ir = host_llvm_ir["dynamic_shared_memory"]
    assert (
        "define void @reverse_launch(ptr %arg0, ptr %arg1, i64 %arg2, i64 %arg3, i64 %arg4, ptr %arg5, ptr %arg6, i64 %arg7, i64 %arg8, i64 %arg9, i32 %arg10)"
        in llvm_ir
    )
    launches = [
        c
        for lines in runtime_calls(llvm_ir).values()
        for c in lines
        if "@mgpuLaunchKernel(" in c
    ]
    assert len(launches) == 2
    assert all(", i32 %arg10, " in c for c in launches)


def test_pipeline_keeps_copies_into_host_arguments(
    host_llvm_ir: dict[str, str],
) -> None:
    """Regression: the pipeline's canonicalize erased ``gpu.memcpy`` into a host
    function argument (its ``unrealized_conversion_cast`` after convert-func-to-llvm
    has no memory effect, which xDSL's ``only_has_effect`` took for an allocation)."""
    copies = [
        c for c in runtime_calls(host_llvm_ir["alloc"])["allocs"] if "@mgpuMemcpy(" in c
    ]
    assert len(copies) == 2
    assert "ptr %arg6," in copies[1]  # into %y's aligned pointer


# -- against upstream -------------------------------------------------------------------


def _upstream_lowered(name: str) -> subprocess.CompletedProcess[str]:
    assert MLIR_OPT is not None
    return subprocess.run(
        [MLIR_OPT, f"--pass-pipeline={UPSTREAM_PIPELINE}"],
        input=source(name), capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip


def _ours_lowered(name: str) -> str:
    from tests.support.xdsl_tools import make_context, print_module
    from xdsl_gpu.targets.runtime.api import parse_program, pipeline_pass

    module = parse_program(source(name), name)
    pipeline_pass(None, chip=CHIP).apply(make_context(), module)
    return print_module(module)


def _mlir_calls(text: str) -> Counter[str]:
    return Counter(re.findall(r"llvm\.call @(mgpu\w+)\(", text))


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
@pytest.mark.parametrize("name", [n for n in PROGRAMS if n != "wait"])
def test_upstream_runtime_calls_are_ours_too(name: str) -> None:
    """Every runtime call that mlir-opt-22 makes for the program, ours makes as often
    or more (ours also lowers the synchronous alloc/memcpy/memset/dealloc that upstream
    leaves as gpu ops); ours leaves no gpu op but the binaries and launches."""
    upstream = _upstream_lowered(name)
    assert upstream.returncode == 0, upstream.stderr
    ours = _ours_lowered(name)
    theirs, mine = _mlir_calls(upstream.stdout), _mlir_calls(ours)
    assert theirs, "upstream made no runtime call"
    missing = theirs - mine
    assert not missing, f"upstream calls {dict(missing)} more often than ours"
    left_upstream = set(
        re.findall(r"\b(gpu\.(?:alloc|dealloc|memcpy|memset))\b", upstream.stdout)
    )
    for op in left_upstream:
        assert op not in ours
    ops = set(re.findall(r"^\s*(?:%[\w#:, ]+ = )?(gpu\.\w+)", ours, re.MULTILINE))
    assert ops <= {"gpu.binary", "gpu.launch_func"}, ops


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
def test_two_dependency_launch_fails_upstream_runs_here() -> None:
    """Upstream cannot lower the launch with two dependencies; ours waits for the
    second through an event (docs: beyond MLIR)."""
    upstream = _upstream_lowered("wait")
    assert upstream.returncode != 0
    assert "failed to legalize operation 'gpu.launch_func'" in upstream.stderr
    assert "gpu.wait" not in _ours_lowered("wait")


# -- on the GPU -------------------------------------------------------------------------


def _counters() -> tuple[int, int, int]:
    from xdsl_gpu.targets.runtime.runtime import CudaRuntime

    runtime = CudaRuntime.get()
    return runtime.live_allocations, runtime.live_streams, runtime.live_events


@contextmanager
def loaded(name: str) -> Iterator[Any]:
    """The program on this GPU; NumPy arrays are passed as they are (not staged)."""
    from xdsl_gpu.targets.runtime import load

    with load(source(name), stage_arrays=False) as program:
        yield program


def _rng() -> tuple[np.random.Generator, int]:
    seed = secrets.randbits(32)
    return np.random.default_rng(seed), seed


def _poisoned(shape: Any, dtype: Any = np.float32) -> np.ndarray:
    return np.full(shape, np.nan, dtype=dtype)


@pytest.mark.gpu
def test_alloc_and_dealloc_on_the_gpu() -> None:
    rng, seed = _rng()
    before = _counters()
    with loaded("alloc") as program:
        for _ in range(3):
            x = rng.standard_normal(1024, dtype=np.float32)
            y, z = _poisoned(1024), _poisoned(1024)
            program.call("allocs", x, y, z)
            np.testing.assert_allclose(y, 2 * x + 1, rtol=1e-6, err_msg=f"seed {seed}")
            np.testing.assert_allclose(z, 3 * x, rtol=1e-6, err_msg=f"seed {seed}")
            assert _counters() == before

        # host_shared memory returned to the caller, then freed by the caller.
        n, start = 1000, np.float32(rng.standard_normal())
        shared = program.call("make_shared", n, start, copy=False)
        assert _counters()[0] == before[0] + 1
        assert shared.shape == (n,)
        assert not shared.flags.owndata
        np.testing.assert_array_equal(shared, np.arange(n, dtype=np.float32) + start)
        program.call("release", shared)
        assert _counters() == before


@pytest.mark.gpu
def test_memcpy_all_directions_on_the_gpu() -> None:
    rng, seed = _rng()
    before = _counters()
    with loaded("memcpy") as program:
        for _ in range(3):
            x = rng.standard_normal((64, 32), dtype=np.float32)
            y_sync, y_async = _poisoned((64, 32)), _poisoned((64, 32))
            program.call("copies", x, y_sync, y_async)
            np.testing.assert_array_equal(y_sync, 2 * x, err_msg=f"seed {seed}")
            np.testing.assert_array_equal(y_async, x + 1, err_msg=f"seed {seed}")
            assert _counters() == before


@pytest.mark.gpu
def test_memset_16_and_32_bit_on_the_gpu() -> None:
    rng, seed = _rng()
    before = _counters()
    poison = (
        np.float32(np.nan),
        np.int32(0x7FC00000),
        np.float16(np.nan),
        np.int16(0x7E00),
    )
    with loaded("memset") as program:
        for _ in range(3):
            vf = np.float32(rng.standard_normal())
            vi = np.int32(rng.integers(-(2**31), 2**31 - 1))
            vh = np.float16(rng.standard_normal())
            vs = np.int16(rng.integers(-(2**15), 2**15 - 1))
            if vi == poison[1] or vs == poison[3]:
                continue
            out = rng.integers(0, 256, 24576, dtype=np.uint8).view(np.int8)
            program.call("memsets", vf, vi, vh, vs, *poison, out)
            raw = out.view(np.uint8)
            regions = [  # (byte offset, dtype, expected value)
                (0, np.float32, vf), (4096, np.float32, poison[0]),
                (8192, np.int32, vi), (12288, np.int32, poison[1]),
                (16384, np.float16, vh), (18432, np.float16, poison[2]),
                (20480, np.int16, vs), (22528, np.int16, poison[3]),
            ]  # fmt: skip
            for offset, dtype, value in regions:
                size = 1024 * np.dtype(dtype).itemsize
                got = raw[offset : offset + size].view(f"u{np.dtype(dtype).itemsize}")
                want = np.array(value, dtype=dtype).view(f"u{np.dtype(dtype).itemsize}")
                assert (got == want).all(), (
                    f"seed {seed}: bytes {offset}..{offset + size} ({dtype.__name__}) "
                    f"should all be {value!r}"
                )
            assert _counters() == before


@pytest.mark.gpu
def test_host_register_lets_a_kernel_use_host_memory() -> None:
    """The kernel reads and writes the caller's (unstaged) array in place; called
    twice, so the first call's host_unregister must have happened."""
    rng, seed = _rng()
    before = _counters()
    with loaded("host_register") as program:
        h = rng.standard_normal((64, 32), dtype=np.float32)
        expected = h.astype(np.float64)
        for _ in range(2):
            s = np.float32(rng.standard_normal())
            program.call("registered", h, s)
            # The kernel may fuse the multiply-add: compare in float64, loosely.
            expected = expected * np.float64(s) + 1
            np.testing.assert_allclose(
                h, expected, rtol=1e-5, atol=1e-4, err_msg=f"seed {seed}"
            )
        assert _counters() == before


@pytest.mark.gpu
def test_set_default_device_zero() -> None:
    from xdsl_gpu.targets.runtime.runtime import CudaRuntime

    rng, seed = _rng()
    before = _counters()
    with loaded("set_default_device") as program:
        x = rng.standard_normal(256, dtype=np.float32)
        y = _poisoned(256)
        program.call("on_device", 0, x, y)
        np.testing.assert_array_equal(y, x * x, err_msg=f"seed {seed}")
        assert CudaRuntime.get().device.ordinal == 0
        assert _counters() == before


@pytest.mark.gpu
def test_wait_forms_and_two_dependency_launch() -> None:
    """Two streams, a launch depending on both, a gpu.wait async joining both, and
    the synchronous waits; repeated, so that a missing dependency shows as a race."""
    rng, seed = _rng()
    before = _counters()
    with loaded("wait") as program:
        for _ in range(20):
            x = rng.standard_normal(4096, dtype=np.float32)
            y = rng.standard_normal(4096, dtype=np.float32)
            total, diff = _poisoned(4096), _poisoned(4096)
            program.call("waits", x, y, total, diff)
            np.testing.assert_allclose(
                total, 2 * x + (y + 1), rtol=1e-6, atol=1e-6, err_msg=f"seed {seed}"
            )
            np.testing.assert_allclose(
                diff, 2 * x - (y + 1), rtol=1e-6, atol=1e-6, err_msg=f"seed {seed}"
            )
            assert _counters() == before


@pytest.mark.gpu
@pytest.mark.parametrize("n", [1, 255, 1000, 4097])
def test_dynamic_memref_on_the_gpu(n: int) -> None:
    rng, seed = _rng()
    before = _counters()
    with loaded("dynamic_memref") as program:
        x = rng.standard_normal(n, dtype=np.float32)
        y, z = _poisoned(n), _poisoned(n)
        s, fill = np.float32(rng.standard_normal()), np.float32(rng.standard_normal())
        program.call("dynamic", x, y, z, s, fill)
        np.testing.assert_array_equal(y, x * s, err_msg=f"seed {seed}")
        np.testing.assert_array_equal(z, np.full(n, fill), err_msg=f"seed {seed}")
        assert _counters() == before


@pytest.mark.gpu
@pytest.mark.parametrize("smem", [1024, 49152, 100 * 1024])
@pytest.mark.parametrize("function", ["reverse_launch", "reverse_func"])
def test_dynamic_shared_memory_on_the_gpu(function: str, smem: int) -> None:
    """The kernel uses the last KiB of ``smem`` bytes of dynamic shared memory (above
    48 KiB the runtime must opt the kernel in first)."""
    from cuda.bindings import driver as cu

    from xdsl_gpu.targets.runtime.runtime import CudaRuntime

    runtime = CudaRuntime.get()
    result, optin = cu.cuDeviceGetAttribute(
        cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
        runtime.device.handle,
    )
    assert result == cu.CUresult.CUDA_SUCCESS
    if smem > optin:
        pytest.skip(f"the GPU allows {optin} bytes of shared memory per block")
    rng, seed = _rng()
    before = _counters()
    with loaded("dynamic_shared_memory") as program:
        x = rng.standard_normal(256 * 8, dtype=np.float32)
        y = _poisoned(256 * 8)
        program.call(function, x, y, smem)
        expected = x.reshape(-1, 256)[:, ::-1].ravel()
        np.testing.assert_array_equal(y, expected, err_msg=f"seed {seed}")
        assert _counters() == before
