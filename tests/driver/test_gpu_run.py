"""``xdsl-gpu-run`` and the Python API (``xdsl_gpu.targets.runtime.load``).

Without a GPU: argument parsing, the diagnostics (one line, exit status 1), the result
format against ``mlir-runner-22``, host LLVM IR without running. With a GPU (marker
``gpu``): seeds 001 and 002 end to end, output order, errors, module loads."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from xdsl_gpu.driver.gpu_run import (
    argument_parser,
    format_result,
    split_shared_libs,
)

ROOT = Path(__file__).resolve().parents[2]
INPUTS = ROOT / "tests" / "runtime" / "Inputs"
HELLO = ROOT / "examples" / "hello" / "hello.mlir"
MATMUL = ROOT / "examples" / "async_matmul" / "matmul.mlir"
SEED_002_OPTIONS = (
    "host-bare-ptr-calling-convention=1 kernel-bare-ptr-calling-convention=1 "
    "cubin-chip=sm_90 cubin-format=fatbin"
)


def runner(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``xdsl-gpu-run`` (the console script when installed, else the module)."""
    script = shutil.which("xdsl-gpu-run")
    command = [script] if script else [sys.executable, "-m", "xdsl_gpu.driver.gpu_run"]
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONPATH=path)
    env.pop("XDSL_GPU_TRACEBACK", None)
    return subprocess.run(
        [*command, *args], input=stdin, capture_output=True, text=True, env=env,
        cwd=ROOT, timeout=300, check=False,
    )  # fmt: skip


def _gpu() -> bool:
    from xdsl_gpu.targets.runtime.driver import gpu_available

    return gpu_available()


def assert_one_diagnostic(done: subprocess.CompletedProcess[str], text: str) -> None:
    assert done.returncode == 1, done
    # MLIR's form: the location first where there is one, else the tool's name.
    assert re.match(r"(xdsl-gpu-run|\S+:\d+:\d+): error: ", done.stderr), done.stderr
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
    from xdsl_gpu.targets.runtime.api import needs_gpu_lowering, parse_program

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
    from xdsl_gpu.targets.runtime.api import GpuProgramError, pipeline_pass

    assert pipeline_pass(SEED_002_OPTIONS).kernel_bare_ptr_calling_convention is True
    assert pipeline_pass({"cubin_format": "isa"}, chip="sm_80").cubin_chip == "sm_80"
    assert pipeline_pass("cubin-chip=sm_90", chip="sm_80").cubin_chip == "sm_90"
    # Upstream's bare values, as xdsl-opt and mlir-opt read them.
    assert pipeline_pass("cubin-features=+ptx80").cubin_features == "+ptx80"
    assert pipeline_pass('cubin-features="+ptx80"').cubin_features == "+ptx80"
    with pytest.raises(GpuProgramError, match="cannot parse the pipeline options"):
        pipeline_pass("=sm_90")


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
    from xdsl_gpu.targets.runtime import load

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
    from xdsl_gpu.targets.runtime import load
    from xdsl_gpu.targets.runtime.runtime import CudaRuntime

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
    from xdsl_gpu.targets.runtime import load

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


# -- --input: arguments as iree-run-module writes them ---------------------------------

INPUTS_PROGRAM = """
module attributes {gpu.container_module} {
  // out[i][j] = a[i][j] * s, on the GPU (one thread per element).
  func.func @scale(%a: memref<2x2xf32>, %s: f32) -> memref<2x2xf32> {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %out = gpu.alloc host_shared () : memref<2x2xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c2, %sz = %c1) {
      %v = memref.load %a[%tx, %ty] : memref<2x2xf32>
      %p = arith.mulf %v, %s : f32
      memref.store %p, %out[%tx, %ty] : memref<2x2xf32>
      gpu.terminator
    }
    return %out : memref<2x2xf32>
  }

  // x[i] += 1 in place (GPU) on a dynamically sized vector; returns n and x[0].
  func.func @increment(%x: memref<?xi32>, %n: index) -> (index, i32) {
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %v = memref.load %x[%tx] : memref<?xi32>
      %w = arith.addi %v, %one : i32
      memref.store %w, %x[%tx] : memref<?xi32>
      gpu.terminator
    }
    %c0 = arith.constant 0 : index
    %first = memref.load %x[%c0] : memref<?xi32>
    return %n, %first : index, i32
  }
}
"""


@pytest.fixture
def inputs_program(tmp_path: Path) -> Path:
    path = tmp_path / "inputs.mlir"
    path.write_text(INPUTS_PROGRAM)
    return path


@pytest.mark.parametrize(
    ("spec", "expected", "notation", "scalar"),
    [
        ("8xf32=2", [2.0] * 8, "8xf32", False),  # one value fills every element
        ("2x2xi32=1 2 3 4", [[1, 2], [3, 4]], "2x2xi32", False),
        ("2x2xi32=[1 2][3 4]", [[1, 2], [3, 4]], "2x2xi32", False),
        ("4xi8=1,2,-3,4", [1, 2, -3, 4], "4xi8", False),
        ("3xf32", [0.0] * 3, "3xf32", False),  # no values: zeros
        ("3xi1=1 0 true", [True, False, True], "3xi1", False),
        ("2xindex=7 8", [7, 8], "2xindex", False),
        ("0xf32", [], "0xf32", False),
        ("f32=0.5", 0.5, "f32", True),
        ("i32=-8", -8, "i32", True),
        ("index=5", 5, "index", True),
        ("i64=0x10", 16, "i64", True),
    ],
)
def test_input_notation(
    spec: str, expected: object, notation: str, scalar: bool
) -> None:
    from xdsl_gpu.driver.gpu_run import parse_input

    value = parse_input(spec)
    assert value.array.tolist() == expected
    assert (value.notation, value.scalar) == (notation, scalar)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("8xf32=1 2", "8xf32 holds 8 elements but 2 values were given"),
        ("8xf31=2", "unknown element type 'f31'"),
        ("8xaxf32=1", "bad dimension 'a' in '8xaxf32'"),
        ("i32=x", "'x' is not an integer (i32)"),
        ("3xi32=1.5", "'1.5' is not an integer (i32)"),
        ("i8=300", "300 does not fit in i8 (-128..127)"),
        ("f32=two", "'two' is not a number (f32)"),
        ("i32=", "no value given for the i32 scalar"),
        ("@/no/such.npy", "cannot read the NumPy file /no/such.npy"),
    ],
)
def test_bad_input_notation(spec: str, message: str) -> None:
    from xdsl_gpu.driver.gpu_run import RunnerError, parse_input

    with pytest.raises(RunnerError, match=r"^--input=") as info:
        parse_input(spec)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        # Shapes: every dimension ASCII digits, each and the product within the limit.
        ("9999999999999999999999xf32=1",
         "dimension 9999999999999999999999 in '9999999999999999999999xf32' is larger "
         "than the limit of 1073741824 elements per input"),
        ("1" * 5000 + "xf32", "is larger than the limit of 1073741824 elements"),
        ("0x99999999999999999999xf32", "dimension 99999999999999999999 in"),
        ("100000x100000x100000xf32=1",
         "100000x100000x100000xf32 holds 1000000000000000 elements, more than the limit "
         "of 1073741824 per input"),
        ("1073741825xi8", "dimension 1073741825 in '1073741825xi8' is larger than the limit"),
        ("65536x65536xi8", "holds 4294967296 elements, more than the limit of 1073741824"),
        ("1x-1xf32", "bad dimension '-1'"),
        ("\u00b2xf32=1", "bad dimension '\u00b2'"),  # str.isdigit() but not int()
        ("\uff18xf32=1", "bad dimension '\uff18'"),  # a full-width 8
        ("xf32", "bad dimension ''"),
        # Element types.
        ("8xbf16=1", "unknown element type 'bf16'"),
        ("", "unknown element type ''"),
        ("8x", "unknown element type ''"),
        # Value counts and values.
        ("f32=1 2", "f32 holds 1 element but 2 values were given"),
        ("0xf32=1 2", "0xf32 holds 0 elements but 2 values were given"),
        ("2x2xi32=[1 2][3]", "2x2xi32 holds 4 elements but 3 values were given"),
        ("f32=[]", "no value given for the f32 scalar"),
        ("8xf32==1", "'=1' is not a number (f32)"),
        ("i1=2", "'2' is not an integer (i1)"),
        ("ui8=-1", "-1 does not fit in ui8 (0..255)"),
        ("index=1.0", "'1.0' is not an integer (i64)"),
        ("f32=1e999", "1e999 is out of range for f32 (largest finite value"),
        ("f16=1e10", "1e10 is out of range for f16 (largest finite value 65504.0)"),
        ("f64=1e999", "1e999 is out of range for f64"),
        # NumPy files.
        ("@", "cannot read the NumPy file"),
        ("@/dev/null", "cannot read the NumPy file /dev/null"),
    ],
)  # fmt: skip
def test_bad_input_is_one_error(spec: str, message: str) -> None:
    """Each of these once raised an OverflowError, MemoryError or ValueError, or gave
    a warning, instead of a RunnerError naming the input."""
    from xdsl_gpu.driver.gpu_run import RunnerError, parse_input

    with pytest.raises(RunnerError) as info:
        parse_input(spec)
    assert str(info.value).startswith(f"--input={spec}: ")
    assert message in str(info.value)


def test_infinities_and_nan_are_values() -> None:
    from xdsl_gpu.driver.gpu_run import parse_input

    assert parse_input("f16=-inf").array.tolist() == float("-inf")
    assert parse_input("2xf32=inf,Infinity").array.tolist() == [float("inf")] * 2
    assert np.isnan(parse_input("f64=nan").array)


def test_big_splat_is_not_a_python_list() -> None:
    """One value (or none) fills the array without a list of ``count`` items."""
    from xdsl_gpu.driver.gpu_run import parse_input

    value = parse_input("1024x1024xi8=3")
    assert value.array.shape == (1024, 1024)
    assert int(value.array.sum()) == 3 << 20


def test_bad_numpy_files(tmp_path: Path) -> None:
    from xdsl_gpu.driver.gpu_run import (
        MAX_INPUT_ELEMENTS,
        RunnerError,
        parse_input,
    )

    np.savez(tmp_path / "z.npz", a=np.zeros(3))
    (tmp_path / "text.npy").write_text("not an array")
    (tmp_path / "folder.npy").mkdir()
    np.save(tmp_path / "complex.npy", np.array([1j]))
    np.save(tmp_path / "big_endian.npy", np.arange(3, dtype=">i4"))
    np.save(tmp_path / "ten.npy", np.zeros(10, np.float32))
    ten = (tmp_path / "ten.npy").read_bytes()
    (tmp_path / "truncated.npy").write_bytes(ten[:-8])
    # A lying header: refused for the file's size.
    (tmp_path / "lying.npy").write_bytes(
        ten.replace(b"'shape': (10,)", f"'shape': ({MAX_INPUT_ELEMENTS + 1},)".encode())
    )
    # A (sparse) file over the limit: refused from its header, before anything is read.
    with open(tmp_path / "huge.npy", "wb") as f:
        np.lib.format.write_array_header_1_0(
            f,
            {
                "descr": "|i1",
                "fortran_order": False,
                "shape": (MAX_INPUT_ELEMENTS + 1,),
            },
        )
        f.truncate(f.tell() + MAX_INPUT_ELEMENTS + 1)
    cases = [
        ("@missing.npy", "cannot read the NumPy file"),
        ("@z.npz", "is not a NumPy .npy array file (an .npz archive holds several arrays"),
        ("@text.npy", "cannot read the NumPy file"),
        ("@folder.npy", "cannot read the NumPy file"),
        ("@complex.npy", "holds complex128, which no MLIR element type here matches"),
        ("@big_endian.npy", "holds >i4, which no MLIR element type here matches"),
        ("@truncated.npy", "cannot read the NumPy file"),
        ("@lying.npy", "cannot read the NumPy file"),
        ("@huge.npy", f"has shape {MAX_INPUT_ELEMENTS + 1}, more than the limit of "
         f"{MAX_INPUT_ELEMENTS} elements per input"),
    ]  # fmt: skip
    for spec, message in cases:
        with pytest.raises(RunnerError) as info:
            parse_input(spec, base=tmp_path)
        assert str(info.value).startswith(f"--input={spec}: "), spec
        assert message in str(info.value), (spec, str(info.value))


def test_numpy_file_is_a_writable_copy(tmp_path: Path) -> None:
    """The file is mapped to check its shape, but the argument is a plain copy (the
    kernel may write to it); a 0-d array is passed as one element, as before."""
    from xdsl_gpu.driver.gpu_run import parse_input

    np.save(tmp_path / "f.npy", np.asfortranarray(np.arange(6.0).reshape(2, 3)))
    np.save(tmp_path / "s.npy", np.float32(3))
    value = parse_input("@f.npy", base=tmp_path)
    assert type(value.array) is np.ndarray
    assert value.array.flags.writeable
    assert value.array.flags.c_contiguous
    assert value.array.tolist() == [
        [0, 1, 2],
        [3, 4, 5],
    ]
    assert parse_input("@s.npy", base=tmp_path).notation == "1xf32"


def test_bad_inputs_on_the_command_line(inputs_program: Path, tmp_path: Path) -> None:
    """Through ``xdsl-gpu-run`` itself: one line on stderr, exit 1, no traceback (the
    inputs are checked before a GPU is looked for)."""
    np.savez(tmp_path / "z.npz", a=np.zeros(3))
    path = str(inputs_program)
    cases = [
        ("9999999999999999999999xf32=1",
         "--input=9999999999999999999999xf32=1: dimension 9999999999999999999999 in "
         "'9999999999999999999999xf32' is larger than the limit of 1073741824"),
        ("100000x100000x100000xf32=1", "more than the limit of 1073741824 per input"),
        ("2x2xf16=1", "is 2x2xf16, but the parameter is memref<2x2xf32>"),
        ("2x2xq32=1", "--input=2x2xq32=1: unknown element type 'q32'"),
        ("2x2xf32=a", "--input=2x2xf32=a: 'a' is not a number (f32)"),
        ("2x2xf32=1e99", "--input=2x2xf32=1e99: 1e99 is out of range for f32"),
        (f"@{tmp_path / 'none.npy'}", "cannot read the NumPy file"),
        (f"@{tmp_path / 'z.npz'}", "is not a NumPy .npy array file"),
    ]  # fmt: skip
    for spec, message in cases:
        done = runner(path, "--function=scale", f"--input={spec}", "--input=f32=2")
        assert_one_diagnostic(done, message)
        assert done.stderr.count("\n") == 1, done.stderr


def test_input_from_a_numpy_file(tmp_path: Path) -> None:
    from xdsl_gpu.driver.gpu_run import parse_input

    np.save(tmp_path / "a.npy", np.arange(6, dtype=np.float64).reshape(2, 3))
    value = parse_input("@a.npy", base=tmp_path)
    assert value.notation == "2x3xf64"
    assert value.array.tolist() == [[0, 1, 2], [3, 4, 5]]


def test_inputs_checked_against_the_function_type() -> None:
    from xdsl.dialects.builtin import (
        DYNAMIC_INDEX,
        Float32Type,
        IndexType,
        MemRefType,
        i32,
    )

    from xdsl_gpu.driver.gpu_run import RunnerError, arguments_for, parse_input

    vector = MemRefType(i32, [DYNAMIC_INDEX])
    matrix = MemRefType(Float32Type(), [2, 2])
    a, n = arguments_for(
        "f", [parse_input("3xi32=1 2 3"), parse_input("index=3")], [vector, IndexType()]
    )
    assert a.dtype == np.int32
    assert a.tolist() == [1, 2, 3]
    assert int(n) == 3
    (m,) = arguments_for("f", [parse_input("2x2xf32=1")], [matrix])
    assert m.shape == (2, 2)
    cases = [
        ([parse_input("4xf32")], [matrix], "is 4xf32, but the parameter is memref<2x2xf32>"),
        ([parse_input("2x2xf64")], [matrix], "is 2x2xf64, but the parameter is memref<2x2xf32>"),
        ([parse_input("f32=1")], [matrix], "is f32, but the parameter is memref<2x2xf32>"),
        ([parse_input("3xi32")], [i32], "is 3xi32, but the parameter is the scalar i32 (write it as i32=<value>)"),
        ([parse_input("f32=1")], [i32], "is f32, but the parameter is the scalar i32"),
        ([], [vector, i32], "@f takes 2 arguments (memref<?xi32>, i32) but 0 --input were given; pass --input=Nxi32=... --input=i32=..."),
        ([parse_input("i32=1")], [], "@f takes 0 arguments (none) but 1 --input was given; pass no --input"),
    ]  # fmt: skip
    for inputs, types, message in cases:
        with pytest.raises(RunnerError) as info:
            arguments_for("f", inputs, types)
        assert message in str(info.value)


def test_results_printed_like_iree_run_module() -> None:
    from xdsl.dialects.builtin import Float32Type, IndexType, MemRefType, i1, i32

    from xdsl_gpu.driver.gpu_run import format_results

    f32 = Float32Type()
    values = [
        np.full(8, 12, np.float32),
        np.arange(4, dtype=np.int32).reshape(2, 2),
        np.float32(96),
        np.float32(0.1),
        5,
        True,
    ]
    types = [MemRefType(f32, [8]), MemRefType(i32, [2, 2]), f32, f32, IndexType(), i1]
    assert format_results("f", values, types) == (
        "EXEC @f\n"
        "result[0]: memref<8xf32>\n"
        "8xf32=12 12 12 12 12 12 12 12\n"
        "result[1]: memref<2x2xi32>\n"
        "2x2xi32=[0 1][2 3]\n"
        "result[2]: f32=96\n"
        "result[3]: f32=0.1\n"
        "result[4]: index=5\n"
        "result[5]: i1=1\n"
    )
    assert format_results("g", [], []) == "EXEC @g\n"


def test_function_and_input_options() -> None:
    args = argument_parser().parse_args(
        [
            "p.mlir",
            "--function=mixed_invocation",
            "--input=8xf32=2",
            "--input",
            "8xf32=4",
        ]
    )
    assert (args.entry, args.inputs, args.result_given) == (
        "mixed_invocation",
        ["8xf32=2", "8xf32=4"],
        False,
    )
    assert argument_parser().parse_args(["--entry-point-result=i32"]).result_given


def test_input_errors_on_the_command_line(inputs_program: Path) -> None:
    path = str(inputs_program)
    cases = [
        (["--function=scale", "--input=2x2xf32=1"],
         "@scale takes 2 arguments (memref<2x2xf32>, f32) but 1 --input was given; "
         "pass --input=2x2xf32=... --input=f32=..."),
        (["--function=scale", "--input=4xf32=1", "--input=f32=2"],
         "--input=4xf32=1 (argument 0 of @scale) is 4xf32, but the parameter is memref<2x2xf32>"),
        (["--function=scale", "--input=2x2xf32=1 2 3", "--input=f32=2"],
         "--input=2x2xf32=1 2 3: 2x2xf32 holds 4 elements but 3 values were given"),
        (["--function=scale", "--input=2x2xf32=1", "--input=f32=2", "--entry-point-result=f32"],
         "@scale returns memref<2x2xf32>, but --entry-point-result=f32; with --input the "
         "results are printed from the function's type"),
        (["--function=increment"],  # an entry with arguments needs --input
         "@increment takes 2 arguments (memref<?xi32>, index) but 0 --input were given"),
        (["--function=nope", "--input=i32=1"], "entry point @nope not found in the module"),
    ]  # fmt: skip
    for args, message in cases:
        assert_one_diagnostic(runner(path, *args), message)


def test_input_on_a_lowered_memref_result_is_refused() -> None:
    lowered = (
        "llvm.func @f(%a: !llvm.ptr, %b: !llvm.ptr, %o: i64, %s: i64, %t: i64) -> "
        "!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> {\n"
        "  %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>\n"
        "  llvm.return %0 : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>\n"
        "}\n"
    )
    done = runner("--function=f", "--input=8xf32=1", stdin=lowered)
    assert_one_diagnostic(done, "@f is already lowered to the llvm dialect and returns")
    assert "run the program from before gpu-lower-to-nvvm-pipeline" in done.stderr


def test_input_checks_come_before_the_gpu(inputs_program: Path) -> None:
    """Without a GPU the inputs are still checked, and --print-host-llvm compiles."""
    done = runner(
        str(inputs_program), "--function=increment", "--input=5xi32=[1 2 3 4 5]",
        "--input=index=5", "--print-host-llvm", "--pipeline-options=cubin-chip=sm_90",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "define { i64, i32 } @increment(" in done.stdout


@pytest.mark.gpu
def test_run_with_inputs_prints_results_like_iree_run_module(
    inputs_program: Path,
) -> None:
    done = runner(
        str(inputs_program),
        "--function=scale",
        "--input=2x2xf32=1 2 3 4",
        "--input=f32=0.5",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "EXEC @scale\nresult[0]: memref<2x2xf32>\n2x2xf32=[0.5 1][1.5 2]\n"
    )
    done = runner(
        str(inputs_program),
        "-e",
        "increment",
        "--input=5xi32=[1 2 3 4 5]",
        "--input=index=5",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "EXEC @increment\nresult[0]: index=5\nresult[1]: i32=2\n"
