"""Object files named by ``#xgpu.object_file`` are checked before they are read."""

from __future__ import annotations

import subprocess
from pathlib import Path

from xdsl_gpu.passes.xgpu_object_files import MAX_OBJECT_BYTES


def _binary(name: str) -> str:
    return (
        f'gpu.binary @big [#xgpu.object_file<#nvvm.target<chip = "sm_90">, "{name}">]\n'
    )


def test_an_oversized_object_file_is_refused_unread(tmp_path: Path) -> None:
    """A 2 GiB sparse file (no disk used) is refused from its size at once, where
    reading it took minutes and all memory."""
    big = tmp_path / "huge.ptx"
    with open(big, "wb") as f:
        f.truncate(2 * 2**30)
    (tmp_path / "in.mlir").write_text(_binary("huge.ptx"))
    done = subprocess.run(
        ["xdsl-opt", "in.mlir", "-p", f"xgpu-embed-object-files{{search-path={tmp_path}}}"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("in.mlir:1:1: error: ")
    assert f"has 2048 MiB, more than the {MAX_OBJECT_BYTES // 2**20} MiB" in (
        done.stderr
    )
    assert len(done.stderr.splitlines()) <= 6
    assert big.stat().st_size == 2 * 2**30  # left as it was
