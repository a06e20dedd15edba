"""``xdsl-gpu-nvrtc``, the command line (xdsl_gpu/driver/nvrtc.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from xdsl_gpu.driver.nvrtc import main

KERNELS = Path(__file__).parents[2] / "examples" / "custom_dispatch" / "kernels.cu"


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [str(KERNELS), "-arch=sm_80,sm_90", "--emit=cubin", "-O2", "-o", str(tmp_path)]
    )
    assert code == 0
    out = capsys.readouterr().out.split()
    assert out == [
        str(tmp_path / "kernels_sm_80.cubin"),
        str(tmp_path / "kernels_sm_90.cubin"),
    ]
    bad = tmp_path / "bad.cu"
    bad.write_text("this is not C++\n")
    assert main([str(bad), "-arch", "sm_80"]) == 1
    assert (
        f"xdsl-gpu-nvrtc: error: compiling {bad} for sm_80 failed:"
        in capsys.readouterr().err
    )
    assert main([str(tmp_path / "missing.cu"), "-arch=sm_80"]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_output_folder_that_is_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    existing = tmp_path / "existing"
    existing.write_text("keep")
    assert main([str(KERNELS), "-arch=sm_90", "-o", str(existing)]) == 1
    assert "a file of that name exists; -o names the folder" in capsys.readouterr().err
    assert existing.read_text() == "keep"
