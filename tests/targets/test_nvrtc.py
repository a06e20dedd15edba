"""xdsl-gpu-nvrtc: CUDA C++ to PTX/cubin with NVRTC from PyPI (no GPU needed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xdsl_gpu.objects.object_info import Chip, ParamKind, parse_cubin, parse_ptx
from xdsl_gpu.targets.nvrtc import (
    NvrtcError,
    NvrtcOptions,
    _out_buffer,  # pyright: ignore[reportPrivateUsage]
    compile_file,
    compile_source,
    readable_log,
)

KERNELS = Path(__file__).parents[2] / "examples" / "custom_dispatch" / "kernels.cu"


def test_ptx_and_cubin_per_architecture(tmp_path: Path) -> None:
    options = NvrtcOptions(archs=("sm_80", "sm_90"), emit=("ptx", "cubin"))
    written = compile_file(KERNELS, options, tmp_path)
    assert [p.name for p in written] == [
        "kernels_sm_80.ptx",
        "kernels_sm_80.cubin",
        "kernels_sm_90.ptx",
        "kernels_sm_90.cubin",
    ]
    ptx = parse_ptx((tmp_path / "kernels_sm_90.ptx").read_text())
    assert ptx.chip == Chip(90)
    assert ptx.kernels is not None
    params = ptx.kernels["simple_mul"]
    assert [(p.size, p.kind) for p in params] == [(8, ParamKind.INT_OR_POINTER)] * 3 + [
        (4, ParamKind.INTEGER)
    ]
    cubin = parse_cubin((tmp_path / "kernels_sm_80.cubin").read_bytes())
    assert cubin.chip == Chip(80)


def test_outputs_next_to_the_source_by_default(tmp_path: Path) -> None:
    source = tmp_path / "k.cu"
    source.write_text(KERNELS.read_text())
    assert compile_file(source, NvrtcOptions(archs=("sm_86",))) == [
        tmp_path / "k_sm_86.ptx"
    ]


def test_includes_defines_and_the_source_folder(tmp_path: Path) -> None:
    (tmp_path / "local.h").write_text("#define FROM_SOURCE_DIR 1\n")
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "other.h").write_text("#define FROM_INCLUDE_DIR 2\n")
    source = tmp_path / "k.cu"
    source.write_text(
        '#include "local.h"\n#include "other.h"\n'
        'extern "C" __global__ void k(int* out) {\n'
        "  out[0] = FROM_SOURCE_DIR + FROM_INCLUDE_DIR + SCALE;\n}\n"
    )
    options = NvrtcOptions(
        archs=("sm_80",), include_dirs=(str(tmp_path / "inc"),), defines=("SCALE=40",)
    )
    (ptx,) = compile_file(source, options, tmp_path / "out")
    assert "43" in ptx.read_text()  # 1 + 2 + 40, folded by the compiler


def test_compile_errors_show_file_and_line(tmp_path: Path) -> None:
    source = tmp_path / "bad.cu"
    source.write_text(
        'extern "C" __global__ void k(float* a) {\n  a[0] = missing;\n}\n'
    )
    with pytest.raises(NvrtcError) as info:
        compile_file(source, NvrtcOptions(archs=("sm_80",)), tmp_path)
    message = str(info.value)
    assert f"compiling {source} for sm_80 failed:" in message
    assert f'{source}:2: error: identifier "missing" is undefined' in message


def test_readable_log() -> None:
    assert readable_log("k.cu(12): warning: x\n") == "k.cu:12: warning: x"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (NvrtcOptions(archs=("sm_52",)), "-arch=sm_52: NVRTC 1"),
        (NvrtcOptions(archs=("gfx90a",)), "'gfx90a' is not a CUDA architecture"),
        (NvrtcOptions(archs=()), "no architecture given"),
        (NvrtcOptions(emit=("elf",)), "--emit=elf: choose from ptx, cubin"),
        (NvrtcOptions(opt_level=5), "-O5: the level must be 0 to 3"),
        (NvrtcOptions(ptx_version="9"), "--ptx-version=9: write X.Y"),
    ],
)
def test_bad_options(tmp_path: Path, options: NvrtcOptions, message: str) -> None:
    with pytest.raises(NvrtcError, match=message.replace("(", r"\(")):
        compile_file(KERNELS, options, tmp_path)


def test_unknown_nvrtc_option(tmp_path: Path) -> None:
    with pytest.raises(NvrtcError, match=r"NVRTC rejected an option: .*--no-such-flag"):
        compile_file(KERNELS, NvrtcOptions(extra=("--no-such-flag",)), tmp_path)


def test_lower_ptx_version_is_checked(tmp_path: Path) -> None:
    options = NvrtcOptions(archs=("sm_80",), ptx_version="7.0")
    (ptx,) = compile_file(KERNELS, options, tmp_path)
    assert parse_ptx(ptx.read_text()).ptx_version == 70
    # sm_90 needs PTX ISA 7.8: the assembler refuses 7.0 and says so.
    with pytest.raises(
        NvrtcError, match=re.escape("the PTX for sm_90 needs a newer PTX ISA than 7.0")
    ):
        compile_file(
            KERNELS, NvrtcOptions(archs=("sm_90",), ptx_version="7.0"), tmp_path
        )
    with pytest.raises(NvrtcError, match="can only be lowered"):
        compile_file(
            KERNELS, NvrtcOptions(archs=("sm_80",), ptx_version="99.0"), tmp_path
        )


def test_output_buffers_do_not_clobber_shared_bytes() -> None:
    """NVRTC writes its (empty, 1-byte) log into the buffer it is given: that must
    never be CPython's shared ``b" "``."""
    shared = bytes([0x20])  # CPython's one shared b" "
    for size in (0, 1, 2, 100):
        buffer = _out_buffer(size)
        assert len(buffer) >= size
        assert buffer is not shared
    compile_source(KERNELS.read_text(), "k.cu", Chip(80), NvrtcOptions(emit=("ptx",)))
    assert shared == b"\x20"
    assert f"a {1}" == "a 1"
