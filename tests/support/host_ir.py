"""Hand-written host LLVM IR for runtime tests, independent of the lowering passes."""

from __future__ import annotations


def llvm_bytes(data: bytes) -> str:
    """An LLVM IR ``c"..."`` literal for arbitrary bytes."""
    return 'c"' + "".join(f"\\{b:02X}" for b in data) + '"'


AXPY_KERNEL = """
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
define ptx_kernel void @axpy(float %a, ptr %x, ptr %y, i64 %n) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bd = mul i32 %b, %d
  %i32 = add i32 %bd, %t
  %i = zext i32 %i32 to i64
  %in = icmp slt i64 %i, %n
  br i1 %in, label %body, label %end
body:
  %px = getelementptr float, ptr %x, i64 %i
  %py = getelementptr float, ptr %y, i64 %i
  %vx = load float, ptr %px
  %vy = load float, ptr %py
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  store float %s, ptr %py
  br label %end
end:
  ret void
}
define ptx_kernel void @empty() {
  ret void
}
"""


def axpy_host(binary: bytes, loader: str = "mgpuModuleLoad", load_arg: str = "") -> str:
    """Host IR: loads ``binary`` in a constructor (priority 123, as upstream), and
    defines ``run(a, x, y, n, blocks, threads)`` and ``launch_empty(count)``."""
    size = len(binary)
    load_arg = load_arg or f"i64 {size}"
    return f"""
@bin = internal constant [{size} x i8] {llvm_bytes(binary)}, align 8
@mod = internal global ptr null
@axpy_name = private unnamed_addr constant [5 x i8] c"axpy\\00"
@empty_name = private unnamed_addr constant [6 x i8] c"empty\\00"
@site = private unnamed_addr constant [36 x i8] c"gpu.launch_func @k::@axpy at t:1:1\\00\\00"
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
declare void @mgpuMemcpy(ptr, ptr, i64, ptr)

define internal void @load() section ".text.startup" {{
  %m = call ptr @{loader}(ptr @bin, {load_arg})
  store ptr %m, ptr @mod, align 8
  ret void
}}
define internal void @unload() section ".text.startup" {{
  %m = load ptr, ptr @mod, align 8
  call void @mgpuModuleUnload(ptr %m)
  ret void
}}
define void @run(float %a, ptr %hx, ptr %hy, i64 %n, i64 %blocks, i64 %threads) {{
  %bytes = mul i64 %n, 4
  %s = call ptr @mgpuStreamCreate()
  %dx = call ptr @mgpuMemAlloc(i64 %bytes, ptr %s, i8 0)
  %dy = call ptr @mgpuMemAlloc(i64 %bytes, ptr %s, i8 0)
  call void @mgpuMemcpy(ptr %dx, ptr %hx, i64 %bytes, ptr %s)
  call void @mgpuMemcpy(ptr %dy, ptr %hy, i64 %bytes, ptr %s)
  %pa = alloca float
  store float %a, ptr %pa
  %px = alloca ptr
  store ptr %dx, ptr %px
  %py = alloca ptr
  store ptr %dy, ptr %py
  %pn = alloca i64
  store i64 %n, ptr %pn
  %arr = alloca [4 x ptr]
  %a0 = getelementptr [4 x ptr], ptr %arr, i64 0, i64 0
  store ptr %pa, ptr %a0
  %a1 = getelementptr [4 x ptr], ptr %arr, i64 0, i64 1
  store ptr %px, ptr %a1
  %a2 = getelementptr [4 x ptr], ptr %arr, i64 0, i64 2
  store ptr %py, ptr %a2
  %a3 = getelementptr [4 x ptr], ptr %arr, i64 0, i64 3
  store ptr %pn, ptr %a3
  %m = load ptr, ptr @mod
  %f = call ptr @mgpuModuleGetFunction(ptr %m, ptr @axpy_name)
  store ptr @site, ptr @__xdsl_gpu_launch_site
  call void @mgpuLaunchKernel(ptr %f, i64 %blocks, i64 1, i64 1, i64 %threads, i64 1, i64 1, i32 0, ptr %s, ptr %arr, ptr null, i64 4)
  call void @mgpuMemcpy(ptr %hy, ptr %dy, i64 %bytes, ptr %s)
  call void @mgpuStreamSynchronize(ptr %s)
  call void @mgpuMemFree(ptr %dx, ptr %s)
  call void @mgpuMemFree(ptr %dy, ptr %s)
  call void @mgpuStreamDestroy(ptr %s)
  ret void
}}
define void @launch_empty(i64 %count) {{
entry:
  %s = call ptr @mgpuStreamCreate()
  %m = load ptr, ptr @mod
  %f = call ptr @mgpuModuleGetFunction(ptr %m, ptr @empty_name)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  call void @mgpuLaunchKernel(ptr %f, i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, i32 0, ptr %s, ptr null, ptr null, i64 0)
  %next = add i64 %i, 1
  %more = icmp slt i64 %next, %count
  br i1 %more, label %loop, label %done
done:
  call void @mgpuStreamSynchronize(ptr %s)
  call void @mgpuStreamDestroy(ptr %s)
  ret void
}}
"""
