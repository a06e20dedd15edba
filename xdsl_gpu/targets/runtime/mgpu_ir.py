"""The hot half of the ``mgpu*`` runtime, as LLVM IR that calls the CUDA driver.

Generated host code calls ``mgpuLaunchKernel`` & co. on every launch, so these entry
points are JIT-compiled native code that calls the driver's entry points directly
(their addresses come from ``cuGetProcAddress``, see ``driver.py``): a launch costs
what it costs from C. Rare calls (module load and unload, device selection, memref
host registration) are Python callbacks (``runtime.py``).

Errors are sticky: the first failing driver call records its status in
``@__xdsl_gpu_status`` and reports it through ``@__xdsl_gpu_fail``; from then on every
``mgpu*`` entry point returns at once, so nothing runs on the GPU after an error. The
offloading translation stores a description of each launch site (kernel and MLIR
location) in ``@__xdsl_gpu_launch_site`` before the launch, for the report.
"""

from __future__ import annotations

from dataclasses import dataclass

# Driver entry points the IR calls: IR name suffix → (cuGetProcAddress symbol,
# LLVM signature). CUdeviceptr is a 64-bit integer.
DRIVER_FUNCTIONS: dict[str, tuple[str, str]] = {
    "ModuleGetFunction": ("cuModuleGetFunction", "i32 (ptr, ptr, ptr)"),
    "LaunchKernel": (
        "cuLaunchKernel",
        "i32 (ptr, i32, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr)",
    ),
    "LaunchKernelEx": ("cuLaunchKernelEx", "i32 (ptr, ptr, ptr, ptr)"),
    "FuncSetAttribute": ("cuFuncSetAttribute", "i32 (ptr, i32, i32)"),
    "StreamCreate": ("cuStreamCreate", "i32 (ptr, i32)"),
    "StreamDestroy": ("cuStreamDestroy", "i32 (ptr)"),
    "StreamSynchronize": ("cuStreamSynchronize", "i32 (ptr)"),
    "StreamWaitEvent": ("cuStreamWaitEvent", "i32 (ptr, ptr, i32)"),
    "EventCreate": ("cuEventCreate", "i32 (ptr, i32)"),
    "EventDestroy": ("cuEventDestroy", "i32 (ptr)"),
    "EventSynchronize": ("cuEventSynchronize", "i32 (ptr)"),
    "EventRecord": ("cuEventRecord", "i32 (ptr, ptr)"),
    "MemAlloc": ("cuMemAlloc", "i32 (ptr, i64)"),
    "MemAllocManaged": ("cuMemAllocManaged", "i32 (ptr, i64, i32)"),
    "MemFree": ("cuMemFree", "i32 (i64)"),
    "MemcpyAsync": ("cuMemcpyAsync", "i32 (i64, i64, i64, ptr)"),
    "MemsetD32Async": ("cuMemsetD32Async", "i32 (i64, i32, i64, ptr)"),
    "MemsetD16Async": ("cuMemsetD16Async", "i32 (i64, i16, i64, ptr)"),
    "MemHostRegister": ("cuMemHostRegister", "i32 (ptr, i64, i32)"),
    "MemHostUnregister": ("cuMemHostUnregister", "i32 (ptr)"),
    # CUDA 13's signature: (devptr, bytes, CUmemLocation {i32 type, i32 id} by
    # value, which the x86-64 ABI passes as one i64, flags, stream).
    "MemPrefetchAsync": ("cuMemPrefetchAsync", "i32 (i64, i64, i64, i32, ptr)"),
}

# Python callbacks: IR name → LLVM signature.
CALLBACKS: dict[str, str] = {
    "__xdsl_gpu_fail": "void (i32, ptr)",
    "mgpuModuleLoad": "ptr (ptr, i64)",
    "mgpuModuleLoadJIT": "ptr (ptr, i32)",
    "mgpuModuleLoadBest": "ptr (ptr, i64)",
    "mgpuModuleUnload": "void (ptr)",
    "mgpuSetDefaultDevice": "void (i32)",
    "mgpuMemHostRegisterMemRef": "void (i64, ptr, i64)",
    "mgpuMemHostUnregisterMemRef": "void (i64, ptr, i64)",
    "mgpuTensorMapEncodeTiled": (
        "void (ptr, i32, i32, ptr, ptr, ptr, ptr, ptr, i32, i32, i32, i32)"
    ),
    "mgpuTensorMapEncodeTiledMemref": "ptr (i64, ptr, i64, i64, i64, i64, i64, ptr)",
}

# Compiled entry points and globals that generated host code links against.
EXPORTED_FUNCTIONS = (
    "mgpuModuleGetFunction", "mgpuLaunchKernel", "mgpuLaunchClusterKernel",
    "mgpuStreamCreate", "mgpuStreamDestroy", "mgpuStreamSynchronize",
    "mgpuStreamWaitEvent", "mgpuEventCreate", "mgpuEventDestroy",
    "mgpuEventSynchronize", "mgpuEventRecord", "mgpuMemAlloc", "mgpuMemFree",
    "mgpuMemcpy", "mgpuMemset32", "mgpuMemset16", "mgpuMemHostRegister",
    "mgpuMemHostUnregister",
)  # fmt: skip
EXPORTED_GLOBALS = ("__xdsl_gpu_launch_site",)

PREFETCH_LOCATION = "__xdsl_gpu_prefetch_location"
"""Where ``mgpuMemAlloc`` prefetches new host-shared memory: a ``CUmemLocation``
packed as ``type | id << 32``, or 0 for no prefetch. Set by the runtime."""

# Indices into @__xdsl_gpu_counters.
COUNTER_MODULE_LOADS = 0
COUNTER_LIVE_STREAMS = 1
COUNTER_LIVE_EVENTS = 2
COUNTER_LIVE_ALLOCATIONS = 3
COUNTERS = 4

CU_STREAM_NON_BLOCKING = 1
CU_EVENT_DISABLE_TIMING = 2
CU_MEM_ATTACH_GLOBAL = 1
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4
CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5
CU_CLUSTER_SCHEDULING_POLICY_SPREAD = 1


def driver_symbol(suffix: str) -> str:
    """The IR name under which the driver entry point is bound."""
    return f"__xdsl_cu_{suffix}"


@dataclass
class _Function:
    """Builds one ``mgpu*`` entry point: sticky-error guard, checked driver calls."""

    name: str
    result: str
    params: str
    lines: list[str]
    checks: int = 0

    def call(self, suffix: str, args: str) -> None:
        """Call a driver function; on failure report it and leave the function."""
        n = self.checks
        self.checks += 1
        self.lines += [
            f"  %r{n} = call i32 @{driver_symbol(suffix)}({args})",
            f"  %ok{n} = icmp eq i32 %r{n}, 0",
            f"  br i1 %ok{n}, label %next{n}, label %fail{n}",
            f"fail{n}:",
            f"  call void @__xdsl_gpu_fail(i32 %r{n}, ptr @.what.{suffix})",
            "  br label %bail",
            f"next{n}:",
        ]

    def render(self, returned: str | None = None) -> str:
        zero = {"void": None, "ptr": "null", "i32": "0", "i64": "0"}[self.result]
        ret = "ret void" if self.result == "void" else f"ret {self.result} {returned}"
        bail = "ret void" if zero is None else f"ret {self.result} {zero}"
        return "\n".join(
            [
                f"define {self.result} @{self.name}({self.params}) {{",
                "entry:",
                "  %status = load i32, ptr @__xdsl_gpu_status",
                "  %clean = icmp eq i32 %status, 0",
                "  br i1 %clean, label %body, label %bail",
                "body:",
                *self.lines,
                f"  {ret}",
                "bail:",
                f"  {bail}",
                "}",
            ]
        )


def _count(counter: int, delta: int) -> list[str]:
    return [
        f"  %slot{counter}{'p' if delta > 0 else 'm'} = getelementptr [{COUNTERS} x i64], "
        f"ptr @__xdsl_gpu_counters, i64 0, i64 {counter}",
        f"  atomicrmw add ptr %slot{counter}{'p' if delta > 0 else 'm'}, i64 {delta} monotonic",
    ]


def _functions() -> list[str]:
    out: list[str] = []

    f = _Function("mgpuModuleGetFunction", "ptr", "ptr %module, ptr %name", [])
    f.lines.append("  %slot = alloca ptr")
    f.call("ModuleGetFunction", "ptr %slot, ptr %module, ptr %name")
    f.lines.append("  %fn = load ptr, ptr %slot")
    out.append(f.render("%fn"))

    params = (
        "ptr %f, i64 %gx, i64 %gy, i64 %gz, i64 %bx, i64 %by, i64 %bz, i32 %smem, "
        "ptr %stream, ptr %params, ptr %extra, i64 %count"
    )
    f = _Function("mgpuLaunchKernel", "void", params, [])
    f.lines += _truncate_dims("gx gy gz bx by bz")
    _opt_in_to_dynamic_shared_memory(f)
    f.call(
        "LaunchKernel",
        "ptr %f, i32 %gx.32, i32 %gy.32, i32 %gz.32, i32 %bx.32, i32 %by.32, "
        "i32 %bz.32, i32 %smem, ptr %stream, ptr %params, ptr %extra",
    )
    out.append(f.render())

    params = (
        "ptr %f, i64 %cx, i64 %cy, i64 %cz, i64 %gx, i64 %gy, i64 %gz, i64 %bx, "
        "i64 %by, i64 %bz, i32 %smem, ptr %stream, ptr %params, ptr %extra"
    )
    f = _Function("mgpuLaunchClusterKernel", "void", params, [])
    f.lines += _truncate_dims("cx cy cz gx gy gz bx by bz")
    _opt_in_to_dynamic_shared_memory(f)
    # CUlaunchConfig {6 x u32 dims, u32 smem, CUstream, CUlaunchAttribute*, u32 n}
    # and two CUlaunchAttribute {u32 id, pad, 64-byte value}: cluster shape and
    # the SPREAD scheduling policy, as upstream's runtime sets them.
    f.lines += [
        "  %attrs = alloca [2 x { i32, i32, [16 x i32] }], align 8",
        "  %config = alloca { i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }, align 8",
        "  %a0 = getelementptr [2 x { i32, i32, [16 x i32] }], ptr %attrs, i64 0, i64 0",
        "  %a1 = getelementptr [2 x { i32, i32, [16 x i32] }], ptr %attrs, i64 0, i64 1",
        f"  store i32 {CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION}, ptr %a0",
        "  %a0v = getelementptr { i32, i32, [16 x i32] }, ptr %a0, i64 0, i32 2",
        "  store i32 %cx.32, ptr %a0v",
        "  %a0y = getelementptr i32, ptr %a0v, i64 1",
        "  store i32 %cy.32, ptr %a0y",
        "  %a0z = getelementptr i32, ptr %a0v, i64 2",
        "  store i32 %cz.32, ptr %a0z",
        f"  store i32 {CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE}, ptr %a1",
        "  %a1v = getelementptr { i32, i32, [16 x i32] }, ptr %a1, i64 0, i32 2",
        f"  store i32 {CU_CLUSTER_SCHEDULING_POLICY_SPREAD}, ptr %a1v",
    ]
    for index, value in enumerate(
        ["%gx.32", "%gy.32", "%gz.32", "%bx.32", "%by.32", "%bz.32", "%smem"]
    ):
        f.lines += [
            f"  %c{index} = getelementptr {{ i32, i32, i32, i32, i32, i32, i32, ptr, "
            f"ptr, i32 }}, ptr %config, i64 0, i32 {index}",
            f"  store i32 {value}, ptr %c{index}",
        ]
    f.lines += [
        "  %c7 = getelementptr { i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }, "
        "ptr %config, i64 0, i32 7",
        "  store ptr %stream, ptr %c7",
        "  %c8 = getelementptr { i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }, "
        "ptr %config, i64 0, i32 8",
        "  store ptr %attrs, ptr %c8",
        "  %c9 = getelementptr { i32, i32, i32, i32, i32, i32, i32, ptr, ptr, i32 }, "
        "ptr %config, i64 0, i32 9",
        "  store i32 2, ptr %c9",
    ]
    f.call("LaunchKernelEx", "ptr %config, ptr %f, ptr %params, ptr %extra")
    out.append(f.render())

    f = _Function("mgpuStreamCreate", "ptr", "", ["  %slot = alloca ptr"])
    f.call("StreamCreate", f"ptr %slot, i32 {CU_STREAM_NON_BLOCKING}")
    f.lines += [*_count(COUNTER_LIVE_STREAMS, 1), "  %s = load ptr, ptr %slot"]
    out.append(f.render("%s"))

    f = _Function("mgpuStreamDestroy", "void", "ptr %s", [])
    f.call("StreamDestroy", "ptr %s")
    f.lines += _count(COUNTER_LIVE_STREAMS, -1)
    out.append(f.render())

    f = _Function("mgpuStreamSynchronize", "void", "ptr %s", [])
    f.call("StreamSynchronize", "ptr %s")
    out.append(f.render())

    f = _Function("mgpuStreamWaitEvent", "void", "ptr %s, ptr %e", [])
    f.call("StreamWaitEvent", "ptr %s, ptr %e, i32 0")
    out.append(f.render())

    f = _Function("mgpuEventCreate", "ptr", "", ["  %slot = alloca ptr"])
    f.call("EventCreate", f"ptr %slot, i32 {CU_EVENT_DISABLE_TIMING}")
    f.lines += [*_count(COUNTER_LIVE_EVENTS, 1), "  %e = load ptr, ptr %slot"]
    out.append(f.render("%e"))

    f = _Function("mgpuEventDestroy", "void", "ptr %e", [])
    f.call("EventDestroy", "ptr %e")
    f.lines += _count(COUNTER_LIVE_EVENTS, -1)
    out.append(f.render())

    f = _Function("mgpuEventSynchronize", "void", "ptr %e", [])
    f.call("EventSynchronize", "ptr %e")
    out.append(f.render())

    f = _Function("mgpuEventRecord", "void", "ptr %e, ptr %s", [])
    f.call("EventRecord", "ptr %e, ptr %s")
    out.append(f.render())

    # bytes == 0 gives null, as upstream; host-shared memory is managed memory.
    f = _Function(
        "mgpuMemAlloc", "ptr", "i64 %bytes, ptr %stream, i8 %shared",
        [
            "  %slot = alloca i64",
            "  store i64 0, ptr %slot",
            "  %empty = icmp eq i64 %bytes, 0",
            "  br i1 %empty, label %zero, label %nonzero",
            "zero:",
            "  ret ptr null",
            "nonzero:",
            "  %is_shared = icmp ne i8 %shared, 0",
            "  br i1 %is_shared, label %managed, label %device",
            "managed:",
        ],
    )  # fmt: skip
    f.call("MemAllocManaged", f"ptr %slot, i64 %bytes, i32 {CU_MEM_ATTACH_GLOBAL}")
    # New managed memory is populated by the first access; a GPU that touches it
    # first pays a page fault for each chunk, inside the kernel. Prefetching it to the
    # device, on the allocation's stream, populates it there without faults. The
    # prefetch is a hint: its status is ignored, never sticky.
    f.lines += [
        f"  %location = load i64, ptr @{PREFETCH_LOCATION}",
        "  %prefetch = icmp ne i64 %location, 0",
        "  br i1 %prefetch, label %prefetching, label %allocated",
        "prefetching:",
        "  %new = load i64, ptr %slot",
        f"  %hint = call i32 @{driver_symbol('MemPrefetchAsync')}(i64 %new, i64 %bytes, "
        "i64 %location, i32 0, ptr %stream)",
        "  br label %allocated",
        "device:",
    ]
    f.call("MemAlloc", "ptr %slot, i64 %bytes")
    f.lines += [
        "  br label %allocated",
        "allocated:",
        *_count(COUNTER_LIVE_ALLOCATIONS, 1),
        "  %address = load i64, ptr %slot",
        "  %p = inttoptr i64 %address to ptr",
    ]
    out.append(f.render("%p"))

    f = _Function(
        "mgpuMemFree", "void", "ptr %p, ptr %stream",
        [
            "  %null = icmp eq ptr %p, null",
            "  br i1 %null, label %freed, label %free",
            "free:",
            "  %address = ptrtoint ptr %p to i64",
        ],
    )  # fmt: skip
    f.call("MemFree", "i64 %address")
    f.lines += [*_count(COUNTER_LIVE_ALLOCATIONS, -1), "  br label %freed", "freed:"]
    out.append(f.render())

    f = _Function(
        "mgpuMemcpy", "void", "ptr %dst, ptr %src, i64 %bytes, ptr %stream",
        ["  %d = ptrtoint ptr %dst to i64", "  %s = ptrtoint ptr %src to i64"],
    )  # fmt: skip
    f.call("MemcpyAsync", "i64 %d, i64 %s, i64 %bytes, ptr %stream")
    out.append(f.render())

    for bits, value_type in ((32, "i32"), (16, "i16")):
        f = _Function(
            f"mgpuMemset{bits}", "void",
            f"ptr %dst, {value_type} %value, i64 %count, ptr %stream",
            ["  %d = ptrtoint ptr %dst to i64"],
        )  # fmt: skip
        f.call(
            f"MemsetD{bits}Async",
            f"i64 %d, {value_type} %value, i64 %count, ptr %stream",
        )
        out.append(f.render())

    f = _Function("mgpuMemHostRegister", "void", "ptr %p, i64 %bytes", [])
    f.call("MemHostRegister", "ptr %p, i64 %bytes, i32 0")
    out.append(f.render())

    f = _Function("mgpuMemHostUnregister", "void", "ptr %p", [])
    f.call("MemHostUnregister", "ptr %p")
    out.append(f.render())
    return out


def _truncate_dims(names: str) -> list[str]:
    return [f"  %{n}.32 = trunc i64 %{n} to i32" for n in names.split()]


def _opt_in_to_dynamic_shared_memory(f: _Function) -> None:
    """Opt the kernel in to ``smem`` bytes of dynamic shared memory, as upstream's
    runtime does for any non-zero size: without it the driver refuses a launch whose
    static plus dynamic shared memory exceed its default (even 48 KiB of dynamic
    memory alone fails on an H200)."""
    f.lines += [
        "  %big = icmp sgt i32 %smem, 0",
        "  br i1 %big, label %optin, label %launch",
        "optin:",
    ]
    f.call(
        "FuncSetAttribute",
        f"ptr %f, i32 {CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES}, i32 %smem",
    )
    f.lines += ["  br label %launch", "launch:"]


def runtime_module_ir() -> str:
    """The whole runtime module, ready for ``llvmlite.binding.parse_assembly``."""
    what = [
        f"@.what.{suffix} = private unnamed_addr constant [{len(symbol) + 1} x i8] "
        f'c"{symbol}\\00"'
        for suffix, (symbol, _) in DRIVER_FUNCTIONS.items()
    ]
    declarations = [
        f"declare {signature.split(' ', 1)[0]} @{driver_symbol(suffix)}"
        f"{signature.split(' ', 1)[1]}"
        for suffix, (_, signature) in DRIVER_FUNCTIONS.items()
    ]
    declarations += [
        f"declare {signature.split(' ', 1)[0]} @{name}{signature.split(' ', 1)[1]}"
        for name, signature in CALLBACKS.items()
    ]
    return "\n".join(
        [
            "@__xdsl_gpu_status = global i32 0",
            "@__xdsl_gpu_launch_site = global ptr null",
            f"@{PREFETCH_LOCATION} = global i64 0",
            f"@__xdsl_gpu_counters = global [{COUNTERS} x i64] zeroinitializer",
            *what,
            *declarations,
            *_functions(),
        ]
    )
