"""What the install puts into site-packages, and that it does not collide with a
user's own top-level packages."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HELLO = ROOT / "examples" / "hello" / "hello.mlir"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
         "--no-build-isolation", "-w", str(out), str(ROOT)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    (found,) = out.glob("xdsl_gpu-*.whl")
    return found


def test_only_xdsl_gpu_lands_in_site_packages(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"xdsl_gpu"}
    with zipfile.ZipFile(wheel) as archive:
        entry_points = next(
            archive.read(n).decode()
            for n in archive.namelist()
            if n.endswith("entry_points.txt")
        )
    for line in entry_points.splitlines():
        if "=" in line:
            assert line.split("=", 1)[1].strip().startswith("xdsl_gpu."), line


def test_a_user_folder_with_its_own_passes_targets_gpu_dialect(tmp_path: Path) -> None:
    """A downstream compiler's repository with top-level packages named like the
    old layout: xdsl-opt run from there still finds xdsl-gpu's plugin, and the
    user's packages are theirs."""
    for name in ("passes", "targets", "gpu_dialect"):
        package = tmp_path / name
        package.mkdir()
        (package / "__init__.py").write_text(f"WHOSE = 'user {name}'\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c",
         "import sys; from xdsl.tools.xdsl_opt import main; "
         "sys.argv = ['xdsl-opt', sys.argv[1], '-p', 'gpu-kernel-outlining']; main()",
         str(HELLO)],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "gpu.module @main_kernel" in done.stdout
    mine = subprocess.run(
        [sys.executable, "-c",
         "import passes, targets, gpu_dialect, xdsl_gpu.passes; "
         "print(passes.WHOSE, targets.WHOSE, gpu_dialect.WHOSE)"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert mine.stdout.split() == [
        "user",
        "passes",
        "user",
        "targets",
        "user",
        "gpu_dialect",
    ]
