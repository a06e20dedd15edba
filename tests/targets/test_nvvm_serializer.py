"""The NVVM serializer: LLVM IR → PTX → cubin → fatbin, with no CUDA toolkit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget
from xdsl_gpu.targets.nvvm import ptx_isa, toolkit
from xdsl_gpu.targets.nvvm.serializer import (
    NVVMOptions,
    SerializationError,
    serialize,
)

KERNEL = """
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %p) {
  %v = load float, ptr addrspace(1) %p
  %w = call float @__nv_expf(float %v)
  store float %w, ptr addrspace(1) %p
  ret void
}
declare float @__nv_expf(float)
"""


@pytest.mark.parametrize(
    ("chip", "expected"),
    [("sm_75", 63), ("sm_80", 70), ("sm_90", 78), ("sm_90a", 80), ("sm_100a", 86)],
)
def test_lowest_ptx_version_that_supports_the_chip(chip: str, expected: int) -> None:
    assert ptx_isa.choose_ptx_version(ptx_isa.Chip.parse(chip), "", (13, 0)) == expected


def test_explicit_ptx_version_is_checked() -> None:
    sm90 = ptx_isa.Chip.parse("sm_90")
    assert ptx_isa.choose_ptx_version(sm90, "+ptx80", (13, 0)) == 80
    with pytest.raises(UserError, match=r"too old for sm_90.*\+ptx78"):
        ptx_isa.choose_ptx_version(sm90, "+ptx60", (13, 0))
    with pytest.raises(UserError, match="newer than the installed assembler"):
        ptx_isa.choose_ptx_version(sm90, "+ptx90", (12, 4))
    with pytest.raises(UserError, match=re.escape("does not know PTX ISA 9.9")):
        ptx_isa.choose_ptx_version(sm90, "+ptx99", (13, 0))


def test_bad_chip_name() -> None:
    with pytest.raises(UserError, match="unknown NVVM chip 'gfx90a'"):
        ptx_isa.Chip.parse("gfx90a")


def test_every_format_has_its_magic_and_properties() -> None:
    options = NVVMOptions(chip="sm_90", opt_level=3)
    bitcode = serialize(KERNEL, options, CompilationTarget.Offload)
    assert bitcode.data.startswith(b"BC\xc0\xde")
    ptx = serialize(KERNEL, options, CompilationTarget.Assembly)
    text = ptx.data.decode()
    assert ".version 7.8" in text
    assert ".target sm_90" in text
    assert ".entry k(" in text
    # libdevice was linked and inlined: no unresolved extern remains.
    assert "__nv_expf" not in text
    assert set(ptx.properties) == {"O", "LLVMIRToISATimeInMs"}
    cubin = serialize(KERNEL, options, CompilationTarget.Binary)
    assert cubin.data.startswith(b"\x7fELF")
    assert set(cubin.properties) == {"ISAToBinaryTimeInMs", "LLVMIRToISATimeInMs"}
    fatbin = serialize(KERNEL, options, CompilationTarget.Fatbin)
    assert fatbin.data.startswith(b"\x50\xed\x55\xba")  # fatbin magic 0xBA55ED50


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_every_optimisation_level_assembles(level: int) -> None:
    out = serialize(
        KERNEL, NVVMOptions(chip="sm_80", opt_level=level), CompilationTarget.Binary
    )
    assert out.data.startswith(b"\x7fELF")


def test_format_aliases() -> None:
    assert CompilationTarget.from_option("isa") is CompilationTarget.Assembly
    assert CompilationTarget.from_option("llvm") is CompilationTarget.Offload
    assert CompilationTarget.from_option("bin") is CompilationTarget.Binary
    assert CompilationTarget.from_option("fatbinary") is CompilationTarget.Fatbin
    with pytest.raises(UserError, match="Invalid format specified: 'elf'"):
        CompilationTarget.from_option("elf")


def test_assembler_errors_quote_the_ptx_line() -> None:
    bad = KERNEL.replace(
        "ret void", 'call void asm sideeffect "bogus.instr;", ""()\nret void'
    )
    with pytest.raises(SerializationError) as info:
        serialize(
            bad,
            NVVMOptions(chip="sm_90", module_name="kernels"),
            CompilationTarget.Binary,
        )
    message = str(info.value)
    assert "gpu.module @kernels" in message
    assert "bogus.instr;" in message
    assert "PTX line" in message


def test_chips_cuda_13_dropped_are_a_diagnostic() -> None:
    with pytest.raises(UserError, match=r"sm_50 is not supported by CUDA 1[3-9]"):
        serialize(KERNEL, NVVMOptions(chip="sm_50"), CompilationTarget.Binary)


def test_missing_libdevice_lists_the_places_probed(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    monkeypatch.setattr(toolkit, "_wheel_roots", lambda: [])
    monkeypatch.setattr(toolkit, "DEFAULT_TOOLKIT", tmp_path / "cuda")
    monkeypatch.setenv("CUDA_HOME", str(tmp_path))
    with pytest.raises(UserError) as info:
        toolkit.find_libdevice()
    message = str(info.value)
    assert str(tmp_path / "nvvm" / "libdevice" / "libdevice.10.bc") in message
    assert "$CUDA_HOME" in message
    assert "pip install nvidia-nvvm" in message


def test_a_toolkit_that_does_not_exist_is_an_error(tmp_path) -> None:
    with pytest.raises(UserError, match="does not exist or is not a directory"):
        toolkit.find_libdevice(str(tmp_path / "nope"))


def test_libdevice_comes_from_the_wheel_without_a_toolkit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for variable in toolkit.TOOLKIT_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    path = toolkit.find_libdevice()
    assert path.name == "libdevice.10.bc"
    assert "site-packages" in str(path)


@pytest.mark.parametrize(
    "features", ["junk", "+ptx80,junk", "ptx80", "+sm90", "+ptx80;+sm_90"]
)
def test_features_are_checked_before_they_reach_llvm(features: str) -> None:
    """LLVM aborts the process on a feature without a sign (an assertion in its
    subtarget code) and warns on an unknown one: both are diagnostics here."""
    with pytest.raises(UserError, match="is not an NVPTX feature"):
        ptx_isa.split_features(features)


def test_known_features_pass() -> None:
    assert ptx_isa.split_features("+ptx80,+sm_90a,-sm_80") == (
        80,
        ["+sm_90a", "-sm_80"],
    )


def test_an_llvm_abort_in_instruction_selection_is_a_diagnostic(tmp_path: Path) -> None:
    """A cluster register on sm_75: LLVM's NVPTX back end ends the process ("Cannot
    select"); the serializer runs instruction selection in a child and reports it."""
    import subprocess

    source = tmp_path / "cluster.mlir"
    source.write_text(
        "gpu.module @s {\n  gpu.func @s(%out: memref<8xindex>) kernel {\n"
        "    %z = gpu.cluster_id z\n    memref.store %z, %out[%z] : memref<8xindex>\n"
        "    gpu.return\n  }\n}\n"
    )
    done = subprocess.run(
        ["xdsl-opt", str(source), "-p",
         "gpu-lower-to-nvvm-pipeline{cubin-format=isa cubin-chip=sm_75}"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "LLVM cannot compile gpu.module @s for sm_75: LLVM ERROR: Cannot select" in (
        done.stderr
    )
    assert "a cluster op needs sm_90 or newer" in done.stderr
