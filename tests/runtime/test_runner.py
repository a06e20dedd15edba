"""``xdsl-gpu-run`` and the Python API (``targets.runtime.load``).

Without a GPU: argument parsing, the diagnostics (one line, exit status 1), the result
format against ``mlir-runner-22``, host LLVM IR without running. With a GPU (marker
``gpu``): seeds 001 and 002 end to end, output order, errors, module loads."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from targets.runtime.runner import (
    argument_parser,
    format_result,
    split_shared_libs,
)

ROOT = Path(__file__).resolve().parents[2]
INPUTS = Path(__file__).resolve().parent / "Inputs"
HELLO = ROOT / "examples" / "hello" / "hello.mlir"
MATMUL = ROOT / "examples" / "async_matmul" / "matmul.mlir"
SEED_002_OPTIONS = (
    "host-bare-ptr-calling-convention=1 kernel-bare-ptr-calling-convention=1 "
    "cubin-chip=sm_90 cubin-format=fatbin"
)


def runner(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``xdsl-gpu-run`` (the console script when installed, else the module)."""
    script = shutil.which("xdsl-gpu-run")
    command = [script] if script else [sys.executable, "-m", "targets.runtime.runner"]
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONPATH=path)
    env.pop("XDSL_GPU_TRACEBACK", None)
    return subprocess.run(
        [*command, *args], input=stdin, capture_output=True, text=True, env=env,
        cwd=ROOT, timeout=300, check=False,
    )  # fmt: skip


def _gpu() -> bool:
    from targets.runtime.driver import gpu_available

    return gpu_available()


def assert_one_diagnostic(done: subprocess.CompletedProcess[str], text: str) -> None:
    assert done.returncode == 1, done
    assert done.stderr.startswith("xdsl-gpu-run: error: "), done.stderr
    assert text in done.stderr
    assert "Traceback" not in done.stderr


# -- arguments ---------------------------------------------------------------------


def test_arguments_like_mlir_runner() -> None:
    args = argument_parser().parse_args(
        [
            "f.mlir",
            "-e",
            "entry",
            "--entry-point-result=void",
            "-O3",
            "--shared-libs=a.so,b.so",
        ]
    )
    assert (args.input, args.entry, args.result, args.opt_level) == (
        "f.mlir",
        "entry",
        "void",
        3,
    )
    assert args.shared_libs == ["a.so,b.so"]
    defaults = argument_parser().parse_args([])
    # mlir-runner's defaults: @main returning f32, from stdin.
    assert (defaults.input, defaults.entry, defaults.result, defaults.opt_level) == (
        "-",
        "main",
        "f32",
        2,
    )
    single_dash = argument_parser().parse_args(["-entry-point-result=i64", "--O0"])
    assert (single_dash.result, single_dash.opt_level) == ("i64", 0)


def test_bad_arguments_exit_with_usage() -> None:
    done = runner("--entry-point-result=f64", str(HELLO))
    assert done.returncode == 2
    assert "invalid choice: 'f64'" in done.stderr


def test_shared_libs_split_and_cuda_runtime_replaced() -> None:
    load, replaced = split_shared_libs(
        [
            "/x/libmlir_cuda_runtime.so,/x/libmlir_runner_utils.so",
            "/y/libmlir_c_runner_utils.so",
        ]
    )
    assert replaced == ["/x/libmlir_cuda_runtime.so"]
    assert load == ["/x/libmlir_runner_utils.so", "/y/libmlir_c_runner_utils.so"]


@pytest.mark.parametrize(
    ("kind", "value"),
    [("f32", 4.25), ("f32", -0.5), ("i32", -42), ("i64", 1234567890123)],
)
def test_results_printed_like_mlir_runner(kind: str, value: float) -> None:
    if shutil.which("mlir-runner-22") is None:
        pytest.skip("needs mlir-runner-22")
    llvm_type = {"f32": "f32", "i32": "i32", "i64": "i64"}[kind]
    source = f"""
    llvm.func @main() -> {llvm_type} {{
      %0 = llvm.mlir.constant({value} : {llvm_type}) : {llvm_type}
      llvm.return %0 : {llvm_type}
    }}
    """
    upstream = subprocess.run(
        ["mlir-runner-22", "-e", "main", f"--entry-point-result={kind}"],
        input=source, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert (
        format_result(np.float32(value) if kind == "f32" else value, kind) + "\n"
        == upstream
    )


# -- diagnostics without running -----------------------------------------------------


def test_missing_file() -> None:
    assert_one_diagnostic(
        runner("no/such.mlir", "--entry-point-result=void"), "cannot read no/such.mlir"
    )


def test_parse_error_names_the_place() -> None:
    done = runner(
        "--entry-point-result=void", stdin="func.func @main() {\n  %0 = arith.nope\n}\n"
    )
    assert_one_diagnostic(done, "<stdin>:")
    assert "arith.nope is not registered" in done.stderr


def test_missing_entry() -> None:
    done = runner(str(HELLO), "-e", "nope", "--entry-point-result=void")
    assert_one_diagnostic(
        done, "entry point @nope not found in the module (functions: main)"
    )


def test_wrong_result_type() -> None:
    done = runner(str(HELLO), "--entry-point-result=i32")
    assert_one_diagnostic(
        done, "entry point @main returns nothing, but --entry-point-result=i32"
    )


def test_entry_with_arguments() -> None:
    done = runner(str(MATMUL), "-e", "test_parallel", "--entry-point-result=void")
    assert_one_diagnostic(done, "takes 2 arguments")


def test_missing_shared_library() -> None:
    done = runner(
        str(HELLO), "--entry-point-result=void", "--shared-libs=/no/libfoo.so"
    )
    assert_one_diagnostic(done, "/no/libfoo.so does not exist")


def test_pipeline_options_on_lowered_input() -> None:
    done = runner(
        "-e", "main", "--entry-point-result=void",
        "--pipeline-options=cubin-chip=sm_90",
        stdin="llvm.func @main() {\n  llvm.return\n}\n",
    )  # fmt: skip
    assert_one_diagnostic(
        done, "--pipeline-options given, but the input is already lowered"
    )


def test_no_gpu_is_a_clear_error() -> None:
    if _gpu():
        pytest.skip("a GPU is present")
    done = runner(str(HELLO), "-e", "main", "--entry-point-result=void")
    assert_one_diagnostic(done, "no usable NVIDIA GPU here")
    assert done.stdout == ""


def test_print_host_llvm_needs_no_gpu() -> None:
    done = runner(
        str(HELLO), "-e", "main", "--entry-point-result=void", "--print-host-llvm",
        "--pipeline-options=cubin-chip=sm_90",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    llvm_ir = done.stdout
    assert "@main_kernel_binary = internal constant" in llvm_ir
    assert "@llvm.global_ctors = appending global" in llvm_ir
    assert "i32 123" in llvm_ir
    assert "call void @mgpuLaunchKernel(" in llvm_ir
    assert "define void @main()" in llvm_ir


def test_needs_gpu_lowering() -> None:
    from targets.runtime.api import needs_gpu_lowering, parse_program

    assert needs_gpu_lowering(parse_program(HELLO.read_text()))
    assert not needs_gpu_lowering(
        parse_program((INPUTS / "hello_llvm.mlir").read_text())
    )  # serialized only
    lowered = parse_program(
        "module attributes {gpu.container_module} {\n"
        '  gpu.binary @k [#gpu.object<#nvvm.target, "">]\n'
        "  llvm.func @main() {\n    llvm.return\n  }\n}\n"
    )
    assert not needs_gpu_lowering(lowered)


def test_pipeline_options_parsing() -> None:
    from targets.runtime.api import GpuProgramError, pipeline_pass

    assert pipeline_pass(SEED_002_OPTIONS).kernel_bare_ptr_calling_convention is True
    assert pipeline_pass({"cubin_format": "isa"}, chip="sm_80").cubin_chip == "sm_80"
    assert pipeline_pass("cubin-chip=sm_90", chip="sm_80").cubin_chip == "sm_90"
    with pytest.raises(GpuProgramError, match="cannot parse the pipeline options"):
        pipeline_pass("cubin-features=+ptx80")


# -- on the GPU -----------------------------------------------------------------------


@pytest.mark.gpu
def test_seed_001_prints_hello_from_each_thread() -> None:
    done = runner(str(HELLO), "-e", "main", "--entry-point-result=void")
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == ["Hello from 0", "Hello from 1"]


@pytest.mark.gpu
def test_device_printf_comes_before_later_host_output() -> None:
    """Kernel printf lines, then the host's printf after the launch, then the result."""
    done = runner(
        str(INPUTS / "hello_llvm.mlir"), "-e", "main", "--entry-point-result=i32"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert sorted(lines[:2]) == ["Hello from 0", "Hello from 1"]
    assert lines[2:] == ["host done", "42"]


@pytest.mark.gpu
def test_cuda_error_stops_with_the_kernel_and_exit_1() -> None:
    done = runner(str(INPUTS / "fault.mlir"), "-e", "main", "--entry-point-result=void")
    assert done.returncode == 1
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in done.stderr
    assert "@fault_kernel" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.gpu
def test_seed_002_returns_the_sum_of_both_matmuls() -> None:
    from targets.runtime import load

    rng = np.random.default_rng(0)
    a = rng.standard_normal((256, 1024), dtype=np.float32)
    b = rng.standard_normal((1024, 256), dtype=np.float32)
    with load(MATMUL.read_text(), pipeline_options=SEED_002_OPTIONS) as program:
        c = program.call("test_parallel", a, b)
        c_ciface = program["test_parallel"](a, b, convention="ciface")
    expected = 2 * (a.astype(np.float64) @ b.astype(np.float64))
    assert c.shape == (256, 256)
    assert c.dtype == np.float32
    np.testing.assert_allclose(c, expected, rtol=1e-4, atol=1e-3)
    np.testing.assert_array_equal(c, c_ciface)
    assert c.flags.owndata  # a copy: the program's host_shared buffer stays its own


@pytest.mark.gpu
def test_bare_pointer_functions_and_one_module_load() -> None:
    """Hand-lowered host code taking pointers (convention="bare"); the module is
    loaded once, by the constructor, however often its function is called."""
    from targets.runtime import load
    from targets.runtime.runtime import CudaRuntime

    runtime = CudaRuntime.get()
    before = runtime.module_loads
    program = load((INPUTS / "axpy_bare.mlir").read_text())
    assert runtime.module_loads == before + 1
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    for _ in range(1000):
        program.call("axpy", np.float32(2.0), x, y, 1000, convention="bare")
    assert runtime.module_loads == before + 1
    np.testing.assert_allclose(y, 1 + 1000 * 2 * x)
    program.close()


@pytest.mark.gpu
def test_result_aliasing_an_argument_is_copied_before_staging_ends() -> None:
    from targets.runtime import load

    source = """
    func.func @same(%m: memref<4xf32>) -> memref<4xf32> {
      return %m : memref<4xf32>
    }
    func.func @scaled(%m: memref<4xf32>, %s: f32) -> f32 {
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0] : memref<4xf32>
      %r = arith.mulf %v, %s : f32
      return %r : f32
    }
    """
    x = np.arange(4, dtype=np.float32)
    with load(source) as program:
        same = program.call("same", x)
        scaled = program["scaled"](np.arange(1, 9, dtype=np.float32)[::2], 3)
    np.testing.assert_array_equal(same, x)
    assert same.ctypes.data != x.ctypes.data
    assert scaled == np.float32(3.0)
