"""``compat.on_import.when_imported``: a patch of a module runs when the module is
first imported, before its importer sees it; at once for a module already
imported. And the patches that use it leave a GPU compile's imports alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from xdsl_gpu.compat.on_import import when_imported


@pytest.fixture
def module_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_patch_waits_for_the_import(module_folder: Path) -> None:
    (module_folder / "waits_for_import.py").write_text("VALUE = 1\n")
    seen: list[int] = []

    def patch() -> None:
        module = sys.modules["waits_for_import"]
        seen.append(module.VALUE)
        setattr(module, "VALUE", 2)

    when_imported("waits_for_import", patch)
    assert seen == []
    try:
        import waits_for_import  # pyright: ignore[reportMissingImports]

        assert seen == [1]
        assert waits_for_import.VALUE == 2  # patched before the import returned
    finally:
        sys.modules.pop("waits_for_import", None)


def test_a_module_already_imported_is_patched_at_once(module_folder: Path) -> None:
    (module_folder / "imported_before.py").write_text("VALUE = 1\n")
    import imported_before  # pyright: ignore[reportMissingImports]

    try:
        when_imported("imported_before", lambda: setattr(imported_before, "VALUE", 3))
        assert imported_before.VALUE == 3
    finally:
        sys.modules.pop("imported_before", None)


def test_a_package_keeps_its_submodules(module_folder: Path) -> None:
    package = module_folder / "patched_package"
    package.mkdir()
    (package / "__init__.py").write_text("from patched_package import part\n")
    (package / "part.py").write_text("VALUE = 1\n")
    seen: list[int] = []
    when_imported("patched_package", lambda: seen.append(1))
    try:
        from patched_package import part  # pyright: ignore[reportMissingImports]

        assert part.VALUE == 1
        assert seen == [1]
    finally:
        for name in ("patched_package", "patched_package.part"):
            sys.modules.pop(name, None)


def test_gpu_compile_leaves_the_patched_modules_unimported(tmp_path: Path) -> None:
    # xdsl-run's interpreter, the -t llvm backend and xDSL's linalg dialect are
    # patched only where something imports them (a GPU compile does not).
    program = Path(__file__).parents[2] / "examples" / "async_matmul" / "matmul.mlir"
    script = (
        "import sys\n"
        "from xdsl.tools.xdsl_opt import main\n"
        f"sys.argv = ['xdsl-opt', {str(program)!r}, '-p', "
        "'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa}', "
        "'-o', '/dev/null']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "names = ('xdsl.interpreter', 'xdsl.backend.llvm.convert_op', "
        "'xdsl.dialects.linalg')\n"
        "print(sorted(n for n in names if n in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "XDSL_GPU_CACHE": "0"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
