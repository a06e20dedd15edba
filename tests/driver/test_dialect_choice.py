"""Stock xdsl-opt uses xDSL's own dialects for programs that do not use xdsl-gpu, and
ours for those that do (xdsl_gpu/driver/dialect_choice.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from xdsl_gpu.driver.dialect_choice import why_xdsl_gpu

LLVM_ADD = """llvm.func @f(%a: i32) -> i32 {
  %0 = llvm.add %a, %a overflow<nsw, nuw> : i32
  llvm.return %0 : i32
}
"""


def _why(program: str | None = "", **kwargs: object) -> str | None:
    options: dict[str, object] = {"forced": False, "pipeline": "", "target": ""}
    options.update(kwargs)
    return why_xdsl_gpu(program=program, **options)  # type: ignore[arg-type]


def _opt(*args: str, source: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["xdsl-opt", *args], input=source, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(
    "program",
    [
        LLVM_ADD,
        '"gpu.alloc"() : () -> memref<4xf32>\n',
        "%0 = arith.constant 1 : i32\n",
        # Op names in comments and string operands are not ops of the program.
        '// CHECK: nvvm.barrier0\n// CHECK: "gpu.binary"() \n',
        '%0 = llvm.call_intrinsic "llvm.fma.v4f32"(%a) : (f32) -> f32\n',
        "%0 = memref.load %m[%i] : memref<4xf32>\n",
    ],
)
def test_programs_xdsl_reads_alone_stay_with_xdsl(program: str) -> None:
    assert _why(program) is None


@pytest.mark.parametrize(
    ("program", "reason"),
    [
        ("nvvm.barrier0\n", "nvvm.b"),
        ('"nvgpu.rcp"(%x) : (vector<2xf32>) -> vector<2xf32>\n', "nvgpu.r"),
        ('gpu.module @m [#nvvm.target<chip = "sm_90">] {\n}\n', "#nvvm."),
        ("%0 = gpu.wait async\n", "gpu.wait' in custom form"),
        ("memref.copy %a, %b : memref<4xf32> to memref<4xf32>\n", "memref.copy"),
        ('"gpu.binary"() : () -> ()\n', "no 'gpu.binary'"),
        (
            "%0 = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>\n",
            "#gpu",
        ),
    ],
)
def test_programs_that_use_xdsl_gpu_get_ours(program: str, reason: str) -> None:
    why = _why(program)
    assert why is not None
    assert reason in why


def test_pipelines_forced_runs_and_targets_choose_ours() -> None:
    assert _why(pipeline="gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90}") is not None
    assert _why(pipeline="builtin.module(gpu.module(convert-gpu-to-nvvm))")
    assert _why(target="llvmir") is not None
    assert _why(forced=True) == "--xdsl-gpu was given"
    # Passes that xDSL defines too (ours replace them only in runs that use xdsl-gpu).
    assert _why(pipeline="lower-affine,cse,convert-scf-to-cf") is None
    assert _why(target="mlir") is None


def test_unknown_generic_ops_are_xdsls_with_allow_unregistered_dialect() -> None:
    program = '%0 = "arith.remf"(%a, %b) : (f32, f32) -> f32\n'
    assert _why(program) is not None
    assert _why(program, allow_unregistered=True) is None


def test_stock_xdsl_opt_prints_xdsls_form_unless_the_run_uses_xdsl_gpu() -> None:
    stock = _opt(source=LLVM_ADD)
    assert stock.returncode == 0, stock.stderr
    assert "overflow<nsw,nuw>" in stock.stdout
    ours = _opt("--xdsl-gpu", source=LLVM_ADD)
    assert ours.returncode == 0, ours.stderr
    assert "overflow<nsw, nuw>" in ours.stdout
    # A pass only xdsl-gpu defines makes the run ours, without the flag.
    lowered = _opt("-p", "convert-func-to-llvm", source=LLVM_ADD)
    assert lowered.returncode == 0, lowered.stderr
    assert "overflow<nsw, nuw>" in lowered.stdout


def test_the_program_is_read_from_stdin_once_and_kept(tmp_path: Path) -> None:
    source = "%0 = gpu.wait async\ngpu.wait [%0]\n"
    done = _opt(source=source)
    assert done.returncode == 0, done.stderr
    assert "%0 = gpu.wait async" in done.stdout
    path = tmp_path / "in.mlir"
    path.write_text(source)
    from_file = subprocess.run(
        ["xdsl-opt", str(path)], capture_output=True, text=True, check=False
    )
    assert from_file.stdout == done.stdout


def test_an_unreadable_input_is_still_diagnosed(tmp_path: Path) -> None:
    done = subprocess.run(
        ["xdsl-opt", str(tmp_path / "missing.mlir")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "missing.mlir" in done.stderr


def test_an_error_in_a_run_with_xdsls_dialects_says_how_to_get_ours() -> None:
    source = '"gpu.alloc"() : () -> i32\n'
    done = _opt(source=source)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "note: this run used xDSL's own gpu dialect" in done.stderr
    assert "--xdsl-gpu" in done.stderr
    ours = _opt("--xdsl-gpu", source=source)
    assert ours.returncode == 1
    assert "note: this run used" not in ours.stderr


def test_xdsls_passes_feed_ours_in_one_pipeline() -> None:
    """memref-to-gpu (xDSL's) builds xDSL's gpu.alloc; gpu-to-llvm (ours) lowers it."""
    source = (
        "func.func @f() {\n"
        "  %0 = memref.alloc() : memref<4xf32>\n"
        "  memref.dealloc %0 : memref<4xf32>\n"
        "  func.return\n}\n"
    )
    done = _opt("-p", "memref-to-gpu,gpu-to-llvm", source=source)
    assert done.returncode == 0, done.stderr
    assert "llvm.call @mgpuMemAlloc" in done.stdout
    assert "llvm.call @mgpuMemFree" in done.stdout


def test_xdsls_llvm_backend_serves_a_program_without_xdsl_gpu() -> None:
    done = _opt("-t", "llvm", source=LLVM_ADD.replace(" overflow<nsw, nuw>", ""))
    assert done.returncode == 0, done.stderr
    assert "add i32" in done.stdout


def test_our_dialects_load_with_fewer_collections_and_stay_frozen(
    tmp_path: Path,
) -> None:
    # The collector's thresholds are raised before the dialects are defined, and
    # what they define is frozen out of later collections.
    program = tmp_path / "empty.mlir"
    program.write_text("")
    script = (
        "import gc, sys\n"
        "from xdsl_gpu.driver import dialect_choice\n"
        "seen = []\n"
        "hooks = dialect_choice.install_hooks\n"
        "def install_hooks():\n"
        "    seen.append(gc.get_threshold()[0])\n"
        "    hooks()\n"
        "dialect_choice.install_hooks = install_hooks\n"
        "from xdsl.tools.xdsl_opt import main\n"
        f"sys.argv = ['xdsl-opt', '--xdsl-gpu', {str(program)!r}, '-o', '/dev/null']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(seen, gc.get_freeze_count() > 10000)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[50000] True"
