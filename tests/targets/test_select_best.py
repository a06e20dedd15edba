"""``#xgpu.select_best``: reading objects, choosing one per device (with made-up
devices), the translation's object table, and on a real GPU the seed-000 sample."""

from __future__ import annotations

import ctypes
import logging
import re
import shutil
import subprocess
from pathlib import Path

import llvmlite.binding as llvm
import numpy as np
import pytest
from xdsl.dialects.builtin import StringAttr

from tests.support.xdsl_tools import make_context, parse
from xdsl_gpu.objects.object_info import (
    Chip,
    ParamKind,
    inspect_object,
    parse_cubin,
)
from xdsl_gpu.passes.xgpu_embed_object_files import XgpuEmbedObjectFilesPass
from xdsl_gpu.targets.nvrtc import NvrtcOptions, compile_file
from xdsl_gpu.targets.offloading.target import host_llvm_ir
from xdsl_gpu.targets.runtime.load_best import read_table
from xdsl_gpu.targets.runtime.object_selection import (
    Candidate,
    DeviceInfo,
    NoObjectFitsError,
    choose,
    ignore_matching,
)

EXAMPLE = Path(__file__).parents[2] / "examples" / "custom_dispatch"
KERNELS = EXAMPLE / "kernels.cu"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """kernels.cu built with NVRTC: PTX and cubin for sm_80, sm_86, sm_90, sm_90a."""
    out = tmp_path_factory.mktemp("kernels")
    options = NvrtcOptions(
        archs=("sm_80", "sm_86", "sm_90", "sm_90a"), emit=("ptx", "cubin")
    )
    compile_file(KERNELS, options, out)
    return out


def _candidate(built: Path, index: int, name: str) -> Candidate:
    path = built / name
    fmt = {"ptx": "assembly", "cubin": "bin", "fatbin": "fatbin"}[path.suffix[1:]]
    return Candidate.from_bytes(index, fmt, path.read_bytes(), name)


def _choice(built: Path, names: list[str], device: DeviceInfo) -> str:
    candidates = [_candidate(built, i, n) for i, n in enumerate(names)]
    best = choose(candidates, device)[0]
    return f"{best.candidate.label}: {best.how}"


H200 = DeviceInfo((9, 0), "H200", driver_max_ptx=90)
A100 = DeviceInfo((8, 0), "A100", driver_max_ptx=90)
L4 = DeviceInfo((8, 9), "L4", driver_max_ptx=90)
B200 = DeviceInfo((10, 0), "B200", driver_max_ptx=90)
T4 = DeviceInfo((7, 5), "T4", driver_max_ptx=90)
ALL = ["kernels_sm_80.cubin", "kernels_sm_90.cubin", "kernels_sm_80.ptx"]


# -- object reading ---------------------------------------------------------------


def test_ptx_and_cubin_parameters_agree(built: Path) -> None:
    ptx = inspect_object((built / "kernels_sm_80.ptx").read_bytes(), "assembly").images[
        0
    ]
    cubin = parse_cubin((built / "kernels_sm_80.cubin").read_bytes())
    assert ptx.chip == Chip(80)
    assert cubin.chip == Chip(80)
    assert ptx.kernels is not None
    assert cubin.kernels is not None
    assert [p.size for p in ptx.kernels["simple_mul"]] == [8, 8, 8, 4]
    assert [p.size for p in cubin.kernels["simple_mul"]] == [8, 8, 8, 4]
    assert [p.kind for p in ptx.kernels["simple_mul"]] == [
        ParamKind.INT_OR_POINTER
    ] * 3 + [ParamKind.INTEGER]
    assert ptx.ptx_version is not None
    assert ptx.ptx_version >= 78


def test_arch_specific_cubin_is_recognized(built: Path) -> None:
    assert parse_cubin((built / "kernels_sm_90a.cubin").read_bytes()).chip == Chip(
        90, "a"
    )
    assert parse_cubin((built / "kernels_sm_90.cubin").read_bytes()).chip == Chip(90)


def test_fatbin_images(built: Path) -> None:
    from cuda.bindings import nvfatbin

    handle = nvfatbin.create(["-64"], 1)
    for arch in ("80", "90"):
        cubin = (built / f"kernels_sm_{arch}.cubin").read_bytes()
        nvfatbin.add_cubin(handle, cubin, len(cubin), arch, "k")
    ptx = (built / "kernels_sm_80.ptx").read_bytes() + b"\0"
    nvfatbin.add_ptx(handle, ptx, len(ptx), "80", "k", "")
    data = bytearray(nvfatbin.size(handle))
    nvfatbin.get(handle, data)
    nvfatbin.destroy(handle)
    (built / "kernels.fatbin").write_bytes(bytes(data))
    images = inspect_object(bytes(data), "fatbin").images
    assert [(i.kind, i.chip.sm) for i in images] == [
        ("elf", 80),
        ("elf", 90),
        ("ptx", 80),
    ]
    for image in images:
        assert image.kernels is None or [
            p.size for p in image.kernels["simple_mul"]
        ] == [8, 8, 8, 4]


# -- the choice -------------------------------------------------------------------


def test_exact_cubin_first(built: Path) -> None:
    assert _choice(built, ALL, H200) == "kernels_sm_90.cubin: exact sm_90 cubin"
    assert _choice(built, ALL, A100) == "kernels_sm_80.cubin: exact sm_80 cubin"


def test_newest_compatible_cubin(built: Path) -> None:
    names = ["kernels_sm_80.cubin", "kernels_sm_86.cubin", "kernels_sm_90.cubin"]
    assert _choice(built, names, L4) == "kernels_sm_86.cubin: compatible sm_86 cubin"


def test_ptx_when_no_cubin_fits(built: Path) -> None:
    names = ["kernels_sm_80.cubin", "kernels_sm_80.ptx"]
    # The driver JITs PTX ISA <= 9.0; NVRTC 13.x writes newer, assembled by nvJitLink.
    assert _choice(built, names, H200).startswith(
        "kernels_sm_80.ptx: sm_80 PTX, JIT-compiled"
    )
    assert "sm_80 PTX" in _choice(built, names, B200)
    modern = DeviceInfo((9, 0), driver_max_ptx=999)
    assert _choice(built, names, modern).endswith("JIT-compiled by the driver")


def test_newest_ptx_not_newer_than_device(built: Path) -> None:
    names = ["kernels_sm_80.ptx", "kernels_sm_90.ptx"]
    assert _choice(built, names, H200).startswith("kernels_sm_90.ptx")
    assert _choice(built, names, L4).startswith("kernels_sm_80.ptx")


def test_arch_specific_rules(built: Path) -> None:
    names = ["kernels_sm_90.cubin", "kernels_sm_90a.cubin"]
    assert _choice(built, names, H200) == "kernels_sm_90a.cubin: exact sm_90a cubin"
    with pytest.raises(
        NoObjectFitsError, match="arch-specific sm_90a code runs only on sm_90"
    ):
        choose([_candidate(built, 0, "kernels_sm_90a.cubin")], B200)
    with pytest.raises(NoObjectFitsError, match="arch-specific sm_90a PTX"):
        choose([_candidate(built, 0, "kernels_sm_90a.ptx")], B200)


def test_fatbin_ranks_by_its_best_image(built: Path) -> None:
    test_fatbin_images(built)
    fat = ["kernels.fatbin"]
    assert _choice(built, fat, H200).startswith(
        "kernels.fatbin: exact sm_90 cubin (in a fatbin"
    )
    assert _choice(built, fat, L4).startswith("kernels.fatbin: compatible sm_80 cubin")
    # PTX too new for the driver cannot be handed over inside a fatbin.
    version = (
        inspect_object((built / "kernels_sm_80.ptx").read_bytes(), "assembly")
        .images[0]
        .ptx_version
    )
    assert version is not None
    old_driver = DeviceInfo((10, 0), "B200", driver_max_ptx=version - 1)
    with pytest.raises(
        NoObjectFitsError, match="in a fatbin is newer than the driver JITs"
    ):
        choose([_candidate(built, 0, "kernels.fatbin")], old_driver)
    new_driver = DeviceInfo((10, 0), "B200", driver_max_ptx=version)
    assert _choice(built, fat, new_driver).startswith(
        "kernels.fatbin: sm_80 PTX, JIT-compiled by the driver"
    )


def test_nothing_fits_lists_every_object(built: Path) -> None:
    candidates = [_candidate(built, i, n) for i, n in enumerate(ALL)]
    with pytest.raises(NoObjectFitsError) as info:
        choose(candidates, T4, "executable")
    message = str(info.value)
    assert "gpu.binary @executable has no object that runs on sm_75 (T4)" in message
    assert (
        "kernels_sm_80.cubin: a sm_80 cubin runs only on compute capability 8.x"
        in message
    )
    assert (
        "kernels_sm_90.cubin: a sm_90 cubin runs only on compute capability 9.x"
        in message
    )
    assert "kernels_sm_80.ptx: sm_80 PTX is newer than the device" in message
    assert "xdsl-gpu-nvrtc -arch=sm_75" in message


def test_cubin_for_a_newer_minor_does_not_fit(built: Path) -> None:
    with pytest.raises(
        NoObjectFitsError, match=re.escape("a sm_86 cubin needs compute capability 8.6")
    ):
        choose([_candidate(built, 0, "kernels_sm_86.cubin")], A100)


def test_ptx_too_new_without_nvjitlink(built: Path) -> None:
    old_driver = DeviceInfo((9, 0), driver_max_ptx=80, nvjitlink=False)
    with pytest.raises(NoObjectFitsError, match=r"newer than the driver JITs \(8.0\)"):
        choose([_candidate(built, 0, "kernels_sm_80.ptx")], old_driver)


def test_unreadable_object_is_never_chosen() -> None:
    bad = Candidate.from_bytes(0, "bin", b"not an elf", "bad.cubin")
    with pytest.raises(NoObjectFitsError, match=re.escape("bad.cubin: unreadable")):
        choose([bad], H200)


def test_ignored_objects_are_never_chosen(built: Path) -> None:
    """$XDSL_GPU_IGNORE_OBJECTS: patterns on the label, the file, or chip and format."""
    labels = [
        '@executable[0] sm_80 bin "kernels_sm_80.cubin"',
        '@executable[1] sm_90 bin "kernels_sm_90.cubin"',
        '@executable[2] sm_80 assembly "kernels_sm_80.ptx"',
    ]

    def candidates() -> list[Candidate]:
        return [_candidate(built, i, n) for i, n in enumerate(ALL)]

    for pattern in (
        "kernels_sm_90.cubin",
        "sm_90 bin",
        "*sm_90*",
        "x.ptx, kernels_sm_90.*",
    ):
        cands = candidates()
        for c, label in zip(cands, labels, strict=True):
            c.label = label
        assert [c.index for c in ignore_matching(cands, pattern)] == [1], pattern
        best = choose(cands, H200)[0]
        assert best.candidate.index == 2
        assert best.how.startswith("sm_80 PTX, JIT-compiled")
    cands = candidates()
    for c, label in zip(cands, labels, strict=True):
        c.label = label
    assert len(ignore_matching(cands, "sm_90 bin,*.ptx")) == 2
    with pytest.raises(NoObjectFitsError) as info:
        choose(cands, H200, "executable")
    assert (
        "kernels_sm_90.cubin\": ignored ($XDSL_GPU_IGNORE_OBJECTS has 'sm_90 bin')"
        in str(info.value)
    )
    assert "kernels_sm_80.ptx\": ignored ($XDSL_GPU_IGNORE_OBJECTS has '*.ptx')" in str(
        info.value
    )
    assert ignore_matching(candidates(), " , ") == []


# -- the translation's table, read back by the runtime (no GPU: a CPU JIT) ----------

BINARY = """
module attributes {{gpu.container_module}} {{
  gpu.binary @executable <#xgpu.select_best> [
    #xgpu.object_file<#nvvm.target<chip = "sm_80">, "kernels_sm_80.cubin">,
    #xgpu.object_file<#nvvm.target<chip = "sm_90">, properties = {{section = "{section}"}}, "kernels_sm_90.cubin">,
    #xgpu.object_file<#nvvm.target<chip = "sm_80">, "kernels_sm_80.ptx">
  ]
}}
"""


def _embedded(built: Path, names: list[str] | None = None, section: str = ".nv_fatbin"):
    module = parse(BINARY.format(section=section))
    XgpuEmbedObjectFilesPass(search_path=(str(built),)).apply(make_context(), module)
    if names is not None:
        binary = next(op for op in module.ops if op.name == "gpu.binary")
        keep = [
            o for o in binary.objects.data if o.get_property("xgpu.file").data in names
        ]
        from xdsl.dialects.builtin import ArrayAttr

        binary.objects = ArrayAttr(keep)
    return module


def test_host_ir_embeds_every_object(built: Path) -> None:
    text = host_llvm_ir(_embedded(built))
    for i in range(3):
        assert f"@executable_binary_{i} = internal constant" in text
    assert 'section ".nv_fatbin"' in text
    assert "call ptr @mgpuModuleLoadBest(ptr %" in text
    assert ", i64 3)" in text
    assert "{ i32 123, ptr @executable_load, ptr null }" in text
    assert "@executable_label_2 = private unnamed_addr constant" in text


def test_two_binaries_share_one_constructor_list(built: Path) -> None:
    """Each binary adds its own llvm.mlir.global_ctors; they append to one global,
    as in mlir-translate (LLVM refuses two definitions)."""
    module = _embedded(built)
    second = next(op for op in module.ops if op.name == "gpu.binary").clone()
    second.properties["sym_name"] = StringAttr("other")
    module.body.block.add_op(second)
    text = host_llvm_ir(module)
    assert text.count("@llvm.global_ctors = appending global [2 x") == 1
    assert "ptr @executable_load" in text
    assert "ptr @other_load" in text


def test_unembedded_files_are_refused_by_the_translation() -> None:
    from xdsl_gpu.diagnostics import UserError

    with pytest.raises(
        UserError,
        match=re.escape('object 0 is the file "kernels_sm_80.cubin", not embedded yet'),
    ):
        host_llvm_ir(parse(BINARY.format(section="s")))


_KEEP_ALIVE: list[object] = []


def _loaded_table(text: str, binary: str) -> list[tuple[Candidate, int]]:
    """Run ``@<binary>_load`` of host LLVM IR on the CPU with a stand-in
    mgpuModuleLoadBest that reads the table as the real runtime does."""
    seen: list[tuple[Candidate, int]] = []

    @ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
    def load_best(table: int, count: int) -> int:
        seen.extend((c, e.opt_level) for c, e in read_table(table, count))
        return 1234

    @ctypes.CFUNCTYPE(None, ctypes.c_void_p)
    def unload(module: int) -> None:
        pass

    _KEEP_ALIVE.extend([load_best, unload])
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    llvm.add_symbol("mgpuModuleLoadBest", ctypes.cast(load_best, ctypes.c_void_p).value)
    llvm.add_symbol("mgpuModuleUnload", ctypes.cast(unload, ctypes.c_void_p).value)
    module = llvm.parse_assembly(text)
    machine = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    engine.run_static_constructors()
    _KEEP_ALIVE.append(engine)  # its destructors would call the module unload
    assert all(c.label.startswith(f"@{binary}[") for c, _ in seen)
    return seen


def test_table_layout_matches_the_runtime(built: Path) -> None:
    """Run @executable_load on the CPU with a stand-in mgpuModuleLoadBest that reads
    the table as the real runtime does."""
    text = host_llvm_ir(_embedded(built))
    seen: list[tuple[str, str, int, bytes]] = []

    @ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
    def load_best(table: int, count: int) -> int:
        for candidate, entry in read_table(table, count):
            seen.append(
                (candidate.label, candidate.format, entry.opt_level, candidate.data)
            )
        return 1234

    @ctypes.CFUNCTYPE(None, ctypes.c_void_p)
    def unload(module: int) -> None:
        assert module == 1234

    _KEEP_ALIVE.extend([load_best, unload])  # the symbol table outlives this test
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    llvm.add_symbol("mgpuModuleLoadBest", ctypes.cast(load_best, ctypes.c_void_p).value)
    llvm.add_symbol("mgpuModuleUnload", ctypes.cast(unload, ctypes.c_void_p).value)
    module = llvm.parse_assembly(text)
    machine = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    engine.run_static_constructors()
    engine.run_static_destructors()
    assert [(label, fmt, level) for label, fmt, level, _ in seen] == [
        ('@executable[0] sm_80 bin "kernels_sm_80.cubin"', "bin", 0),
        ('@executable[1] sm_90 bin "kernels_sm_90.cubin"', "bin", 0),
        ('@executable[2] sm_80 assembly "kernels_sm_80.ptx"', "assembly", 3),
    ]
    assert seen[1][3] == (built / "kernels_sm_90.cubin").read_bytes()
    assert seen[2][3] == (built / "kernels_sm_80.ptx").read_bytes() + b"\0"


# -- on the GPU -------------------------------------------------------------------


def _device_sm() -> int:
    from xdsl_gpu.targets.runtime.driver import device

    return device(0).sm


def _sample(built: Path, keep: list[str] | None = None):
    """example.mlir with its objects from ``built`` (only ``keep`` if given), loaded."""
    from tests.support.xdsl_tools import parse as parse_text
    from xdsl_gpu.targets.runtime import load

    module = parse_text((EXAMPLE / "example.mlir").read_text())
    XgpuEmbedObjectFilesPass(
        search_path=(str(built),), use_bare_pointers_for_kernels=True
    ).apply(make_context(), module)
    if keep is not None:
        from xdsl.dialects.builtin import ArrayAttr

        binary = next(op for op in module.ops if op.name == "gpu.binary")
        binary.objects = ArrayAttr(
            [o for o in binary.objects.data if o.get_property("xgpu.file").data in keep]
        )
    return load(module, pipeline_options="kernel-bare-ptr-calling-convention=1")


def _run_sample(program) -> np.ndarray:
    a = np.full(8, 2, dtype=np.float32)
    b = np.full(8, 4, dtype=np.float32)
    return program.call("mixed_invocation", a, b)


@pytest.mark.gpu
def test_sample_runs(built: Path, caplog: pytest.LogCaptureFixture) -> None:
    sm = _device_sm()
    if sm not in (80, 86, 90):
        compile_file(KERNELS, NvrtcOptions(archs=(f"sm_{sm}",), emit=("cubin",)), built)
    caplog.set_level(logging.DEBUG, logger="xdsl_gpu.runtime")
    with _sample(built) as program:
        np.testing.assert_array_equal(_run_sample(program), np.full(8, 12, np.float32))
        assert program.call("main") == pytest.approx(96.0)
    if sm == 90:
        assert (
            'loading @executable[1] sm_90 bin "kernels_sm_90.cubin": exact sm_90 cubin'
            in caplog.text
        )


@pytest.mark.gpu
def test_sample_without_a_matching_cubin_jits_the_ptx(
    built: Path, caplog: pytest.LogCaptureFixture
) -> None:
    if _device_sm() // 10 == 8:
        pytest.skip("the sm_80 cubin runs on this device")
    caplog.set_level(logging.DEBUG, logger="xdsl_gpu.runtime")
    with _sample(built, keep=["kernels_sm_80.cubin", "kernels_sm_80.ptx"]) as program:
        np.testing.assert_array_equal(_run_sample(program), np.full(8, 12, np.float32))
    assert (
        'loading @executable[1] sm_80 assembly "kernels_sm_80.ptx": sm_80 PTX, JIT-compiled'
        in caplog.text
    )


@pytest.mark.gpu
def test_sample_with_nothing_that_fits_fails_clearly(built: Path) -> None:
    from xdsl_gpu.targets.runtime.driver import CudaError

    if _device_sm() // 10 == 8:
        pytest.skip("the sm_80 cubin runs on this device")
    with pytest.raises(CudaError) as info:
        _sample(built, keep=["kernels_sm_80.cubin"])
    message = str(info.value)
    assert "gpu.binary @executable has no object that runs on sm_" in message
    assert (
        'kernels_sm_80.cubin": a sm_80 cubin runs only on compute capability 8.x'
        in message
    )


@pytest.mark.gpu
def test_sample_through_the_command_line(
    built: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The documented commands: xdsl-opt (embed + pipeline), then xdsl-gpu-run."""
    import subprocess
    import sys

    lowered = tmp_path / "example.ll.mlir"
    pipeline = (
        f'xgpu-embed-object-files{{search-path="{built}" use-bare-pointers-for-kernels=true}},'
        "gpu-lower-to-nvvm-pipeline{kernel-bare-ptr-calling-convention=1}"
    )
    xdsl_opt = shutil.which("xdsl-opt")
    assert xdsl_opt is not None
    subprocess.run(
        [xdsl_opt, str(EXAMPLE / "example.mlir"), "-p", pipeline, "-o", str(lowered)],
        check=True,
    )
    done = subprocess.run(
        [sys.executable, "-m", "xdsl_gpu.driver.gpu_run", str(lowered), "-e", "main",
         "--entry-point-result=f32"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "9.600000e+01"


@pytest.mark.gpu
def test_ptx_too_new_for_the_driver_is_assembled_with_nvjitlink(
    built: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A driver that JITs only old PTX (made up here): nvJitLink assembles it."""
    import dataclasses

    from xdsl_gpu.targets.runtime import load_best

    if _device_sm() // 10 == 8:
        pytest.skip("the sm_80 cubin runs on this device")
    real = load_best.device_info
    monkeypatch.setattr(
        load_best,
        "device_info",
        lambda d: dataclasses.replace(real(d), driver_max_ptx=60),
    )
    caplog.set_level(logging.DEBUG, logger="xdsl_gpu.runtime")
    with _sample(built, keep=["kernels_sm_80.cubin", "kernels_sm_80.ptx"]) as program:
        np.testing.assert_array_equal(_run_sample(program), np.full(8, 12, np.float32))
    assert "sm_80 PTX, JIT-compiled by nvJitLink" in caplog.text


# -- a gpu.module with several #nvvm.targets: generated kernels, one binary ----------

MULTI_TARGET = """
module attributes {gpu.container_module} {
  gpu.module @kernels <#xgpu.select_best> [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90">] {
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


def _multi_target_host_ir(options: str, binary_only: bool = False) -> str:
    """The host LLVM IR of MULTI_TARGET (``binary_only``: of its gpu.binary alone,
    which a CPU JIT can run: no launch sites)."""
    from xdsl_gpu.targets.runtime.api import (
        parse_program,
        pipeline_pass,
        program_context,
    )

    module = parse_program(MULTI_TARGET)
    pipeline_pass(options).apply(program_context(), module)
    if binary_only:
        for op in list(module.ops):
            if op.name != "gpu.binary":
                op.detach()
                op.erase()
    return host_llvm_ir(module)


@pytest.mark.parametrize("fmt", ["bin", "fatbin", "isa"])
def test_multi_target_gpu_module_is_one_binary_with_an_object_per_target(
    fmt: str,
) -> None:
    """gpu-module-to-binary compiles the module once per #nvvm.target; the handler on
    the gpu.module reaches the gpu.binary, which embeds them all and chooses at load."""
    text = _multi_target_host_ir(f"cubin-chip=sm_90 cubin-format={fmt}")
    assert text.count("call ptr @mgpuModuleLoadBest(") == 1
    assert "@kernels_binary_1 = internal constant" in text
    assert "@kernels_binary_2" not in text  # cubin-chip=sm_90 is one of the targets
    assert "call void @mgpuLaunchKernel(" in text
    table = _loaded_table(
        _multi_target_host_ir(f"cubin-chip=sm_90 cubin-format={fmt}", True), "kernels"
    )
    label = {"bin": "bin", "fatbin": "fatbin", "isa": "assembly"}[fmt]
    assert [c.label for c, _ in table] == [
        f"@kernels[0] sm_80 {label}",
        f"@kernels[1] sm_90 {label}",
    ]
    candidates = [c for c, _ in table]

    def best(device: DeviceInfo) -> str:
        choice = choose(candidates, device, "kernels")[0]
        return f"{choice.candidate.label}: {choice.how}"

    chosen = {
        d.name: best(d) for d in (H200, A100, L4) + ((B200,) if fmt != "bin" else ())
    }
    if fmt == "bin":
        assert chosen["H200"] == "@kernels[1] sm_90 bin: exact sm_90 cubin"
        assert chosen["A100"] == "@kernels[0] sm_80 bin: exact sm_80 cubin"
        assert chosen["L4"] == "@kernels[0] sm_80 bin: compatible sm_80 cubin"
        with pytest.raises(
            NoObjectFitsError,
            match=re.escape(
                "sm_90 bin: a sm_90 cubin runs only on compute capability 9.x"
            ),
        ):
            choose(candidates, B200, "kernels")
    elif fmt == "fatbin":  # cubin and PTX in each
        assert chosen["H200"].startswith(
            "@kernels[1] sm_90 fatbin: exact sm_90 cubin (in a fatbin"
        )
        assert chosen["L4"].startswith(
            "@kernels[0] sm_80 fatbin: compatible sm_80 cubin"
        )
        assert chosen["B200"].startswith(
            "@kernels[1] sm_90 fatbin: sm_90 PTX, JIT-compiled by the driver"
        )
    else:  # PTX only: the newest not newer than the GPU
        assert (
            chosen["H200"]
            == "@kernels[1] sm_90 assembly: sm_90 PTX, JIT-compiled by the driver"
        )
        assert (
            chosen["L4"]
            == "@kernels[0] sm_80 assembly: sm_80 PTX, JIT-compiled by the driver"
        )
        assert (
            chosen["B200"]
            == "@kernels[1] sm_90 assembly: sm_90 PTX, JIT-compiled by the driver"
        )


@pytest.mark.gpu
def test_multi_target_gpu_module_on_the_gpu(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One binary (sm_80 and sm_90 fatbins); the GPU's own object is loaded, and with
    it ignored the other's PTX is JIT-compiled, without rebuilding."""
    from xdsl_gpu.targets.runtime.api import GpuProgram, _function_infos, parse_program  # pyright: ignore[reportPrivateUsage]

    sm = _device_sm()
    text = _multi_target_host_ir(f"cubin-chip=sm_{sm}")
    functions = _function_infos(parse_program(MULTI_TARGET))
    caplog.set_level(logging.DEBUG, logger="xdsl_gpu.runtime")
    with GpuProgram(text, functions) as program:
        a = np.arange(8, dtype=np.float32)
        program.call("run", a)
        np.testing.assert_array_equal(a, 2 * np.arange(8, dtype=np.float32))
    if sm == 90:
        assert (
            "loading @kernels[1] sm_90 fatbin: exact sm_90 cubin (in a fatbin"
            in caplog.text
        )
        caplog.clear()
        monkeypatch.setenv("XDSL_GPU_IGNORE_OBJECTS", "sm_90 fatbin")
        with GpuProgram(text, functions) as program:
            a = np.arange(8, dtype=np.float32)
            program.call("run", a)
            np.testing.assert_array_equal(a, 2 * np.arange(8, dtype=np.float32))
        assert "ignoring @kernels[1] sm_90 fatbin" in caplog.text
        assert (
            "loading @kernels[0] sm_80 fatbin: sm_80 PTX, JIT-compiled by the driver"
            in caplog.text
        )


# -- the sample exactly as docs/custom-kernels.md runs it ---------------------------

DOC = Path(__file__).parents[2] / "docs" / "custom-kernels.md"
DOC_BUILD = "xdsl-gpu-nvrtc kernels.cu -arch=sm_80,sm_90 --emit=ptx,cubin -o build"
DOC_EMBED = (
    'xdsl-opt example.mlir -p \'xgpu-embed-object-files{search-path="build" '
    "use-bare-pointers-for-kernels=true}' -o example.embedded.mlir"
)
DOC_RUN = (
    "xdsl-gpu-run example.embedded.mlir --pipeline-options=kernel-bare-ptr-calling-convention=1 "
    "--function=mixed_invocation --input=8xf32=2 --input=8xf32=4"
)
DOC_LOWER = (
    'xdsl-opt example.mlir -p \'xgpu-embed-object-files{search-path="build" '
    "use-bare-pointers-for-kernels=true},gpu-lower-to-nvvm-pipeline"
    "{kernel-bare-ptr-calling-convention=1}' -o example.ll.mlir"
)
DOC_RUN_MAIN = "xdsl-gpu-run example.ll.mlir -e main --entry-point-result=f32"
SAMPLE_OUTPUT = (
    "EXEC @mixed_invocation\nresult[0]: memref<8xf32>\n8xf32=12 12 12 12 12 12 12 12\n"
)


def _shell(command: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    import os
    import subprocess

    environment = {k: v for k, v in os.environ.items() if not k.startswith("XDSL_GPU_")}
    environment.update(env)
    return subprocess.run(
        command, shell=True, cwd=cwd, env=environment, capture_output=True, text=True,
        timeout=600, check=False,
    )  # fmt: skip


@pytest.fixture(scope="module")
def sample_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of examples/custom_dispatch after the documented build commands."""
    folder = tmp_path_factory.mktemp("sample") / "custom_dispatch"
    shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns("build", "*.*.mlir"))
    for command in (DOC_BUILD, DOC_EMBED, DOC_LOWER):
        done = _shell(command, folder)
        assert done.returncode == 0, f"{command}\n{done.stderr}"
    return folder


def test_documented_commands_are_the_tested_ones() -> None:
    text = DOC.read_text()
    for command in (DOC_BUILD, DOC_EMBED, DOC_RUN, DOC_LOWER, DOC_RUN_MAIN):
        assert command in text, command
    assert SAMPLE_OUTPUT in text


def test_documented_build_steps_run_without_a_gpu(sample_dir: Path) -> None:
    for name in (
        "kernels_sm_80.ptx",
        "kernels_sm_80.cubin",
        "kernels_sm_90.ptx",
        "kernels_sm_90.cubin",
    ):
        assert (sample_dir / "build" / name).is_file()
    embedded = (sample_dir / "example.embedded.mlir").read_text()
    assert embedded.count('xgpu.file = "kernels_sm_') == 3
    assert "gpu.binary @executable <#xgpu.select_best>" in embedded
    lowered = (sample_dir / "example.ll.mlir").read_text()
    assert "gpu.binary @executable <#xgpu.select_best>" in lowered
    # The run's checks and compilation need no GPU either.
    done = _shell(DOC_RUN + " --print-host-llvm", sample_dir)
    assert done.returncode == 0, done.stderr
    assert "call ptr @mgpuModuleLoadBest(" in done.stdout


@pytest.mark.gpu
def test_sample_with_iree_style_inputs(sample_dir: Path) -> None:
    """docs/custom-kernels.md step 3: --input=8xf32=2 --input=8xf32=4 gives 8xf32=12."""
    done = _shell(DOC_RUN, sample_dir, XDSL_GPU_LOG="debug")
    assert done.returncode == 0, done.stderr
    assert done.stdout == SAMPLE_OUTPUT
    if _device_sm() == 90:
        assert (
            'loading @executable[1] sm_90 bin "kernels_sm_90.cubin": exact sm_90 cubin'
            in done.stderr
        )


@pytest.mark.gpu
def test_one_binary_for_sm80_sm90_and_ptx(sample_dir: Path) -> None:
    """The same lowered file (sm_80 cubin, sm_90 cubin, sm_80 PTX embedded once): the
    sm_90 cubin is chosen on an sm_90 GPU (debug log), and with the sm_90 object
    ignored at load time the PTX is JIT-compiled and the result is unchanged."""
    import hashlib

    binary = sample_dir / "example.ll.mlir"
    digest = hashlib.sha256(binary.read_bytes()).hexdigest()
    if _device_sm() != 90:
        pytest.skip("the choice asserted here is an sm_90 GPU's")
    done = _shell(DOC_RUN_MAIN, sample_dir, XDSL_GPU_LOG="debug")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "9.600000e+01"
    assert "DEBUG:xdsl_gpu.runtime:gpu.binary @executable on sm_90" in done.stderr
    assert (
        'loading @executable[1] sm_90 bin "kernels_sm_90.cubin": exact sm_90 cubin'
        in done.stderr
    )
    done = _shell(
        DOC_RUN_MAIN,
        sample_dir,
        XDSL_GPU_LOG="debug",
        XDSL_GPU_IGNORE_OBJECTS="kernels_sm_90.cubin",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "9.600000e+01"
    assert 'ignoring @executable[1] sm_90 bin "kernels_sm_90.cubin"' in done.stderr
    assert (
        'loading @executable[2] sm_80 assembly "kernels_sm_80.ptx": sm_80 PTX, JIT-compiled'
        in done.stderr
    )
    assert "exact sm_90 cubin" not in done.stderr
    done = _shell(
        DOC_RUN_MAIN, sample_dir, XDSL_GPU_IGNORE_OBJECTS="kernels_sm_90.cubin,*.ptx"
    )
    assert done.returncode == 1
    assert "gpu.binary @executable has no object that runs on sm_90" in done.stderr
    assert hashlib.sha256(binary.read_bytes()).hexdigest() == digest
