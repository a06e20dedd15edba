"""The built-in runner utilities (``xdsl_gpu/targets/runtime/runner_utils.py``):
``printMemref*``, ``printF32``... print exactly what MLIR's libraries print.

Differential: each program is lowered by ``mlir-opt-22``, run by ``mlir-runner-22``
with Debian's ``libmlir_runner_utils``/``libmlir_c_runner_utils``, and through the
package's CPU JIT with nothing but ours; the outputs must be the same bytes, up to the
``base@`` addresses."""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess

import llvmlite.binding as llvm
import pytest

from xdsl_gpu.targets.cpu_jit import CpuJit, mlir_opt, runner_utils_libraries
from xdsl_gpu.targets.runtime import runner_utils
from xdsl_gpu.targets.runtime.runner_utils import format_float, format_memref

needs_runner = pytest.mark.skipif(
    shutil.which("mlir-runner-22") is None or shutil.which("mlir-opt-22") is None,
    reason="mlir-22-tools (mlir-runner-22) not installed",
)

LOWER = [
    "--convert-scf-to-cf",
    "--expand-strided-metadata",
    "--finalize-memref-to-llvm",
    "--convert-complex-to-llvm",
    "--convert-to-llvm",
    "--reconcile-unrealized-casts",
]

DECLARATIONS = """
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefBF16(memref<*xbf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI8(memref<*xi8>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI16(memref<*xi16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}
func.func private @printMemrefInd(memref<*xindex>) attributes {llvm.emit_c_interface}
func.func private @printMemrefC32(memref<*xcomplex<f32>>) attributes {llvm.emit_c_interface}
"""


def global_program(
    name: str, shape: str, element: str, values: str, suffix: str
) -> str:
    """Print a constant memref (``memref.get_global``) with ``printMemref<suffix>``."""
    t = f"memref<{shape}{element}>"
    return f"""
{DECLARATIONS}
memref.global "private" constant @{name} : {t} = dense<{values}>
func.func @main() {{
  %m = memref.get_global @{name} : {t}
  %u = memref.cast %m : {t} to memref<*x{element}>
  call @printMemref{suffix}(%u) : (memref<*x{element}>) -> ()
  return
}}
"""


GLOBALS = {
    "f32_2x3": (
        "2x3x",
        "f32",
        "[[0.0, 3.7e6, 7.4e6], [1.11e7, 1.48e7, 1.85e7]]",
        "F32",
    ),
    "f32_rank0": ("", "f32", "1.5", "F32"),
    "f32_1": ("1x", "f32", "[2.5]", "F32"),
    "f32_2x1x3": ("2x1x3x", "f32", "[[[0.0, 0.5, 1.0]], [[1.5, 2.0, 2.5]]]", "F32"),
    "f32_3x2x2": (
        "3x2x2x",
        "f32",
        "[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]], "
        "[[9.0, 10.0], [11.0, 12.0]]]",
        "F32",
    ),
    "f32_2x2x2x2": ("2x2x2x2x", "f32", "0.125", "F32"),
    "f64": ("2x2x", "f64", "[[0.37, 1.0e20], [1.25e8, -2.5e-7]]", "F64"),
    "f16": ("2x3x", "f16", "[[0.0, 0.37, 0.74], [1.11, 1.48, 65504.0]]", "F16"),
    "bf16": ("3x", "bf16", "[3.14159, -1.0, 1.0e10]", "BF16"),
    "i8": ("2x3x", "i8", "[[-3, -2, -1], [0, 65, 122]]", "I8"),
    "i16": ("2x", "i16", "[-7, 32767]", "I16"),
    "i32": ("2x3x", "i32", "[[-3, -2, -1], [0, 1, 2147483647]]", "I32"),
    "i64": ("3x", "i64", "[-9223372036854775808, 0, 42]", "I64"),
    "index": ("2x", "index", "[2, 1]", "Ind"),
    "i32_wide": ("1x40x", "i32", "7", "I32"),
}

SCALARS = """
func.func private @printF32(f32)
func.func private @printF64(f64)
func.func private @printI64(i64)
func.func private @printU64(i64)
func.func private @printNewline()
func.func private @printComma()
func.func private @printOpen()
func.func private @printClose()
func.func @main() {
  %f = arith.constant 0.1 : f32
  %nan = arith.constant 0xFFC00000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %nz = arith.constant -0.0 : f32
  %g = arith.constant 1.0e20 : f64
  %h = arith.constant 123456789.0 : f64
  %n = arith.constant -5 : i64
  call @printOpen() : () -> ()
  call @printF32(%f) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%nan) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%inf) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF32(%nz) : (f32) -> ()
  call @printClose() : () -> ()
  call @printNewline() : () -> ()
  call @printF64(%g) : (f64) -> ()
  call @printComma() : () -> ()
  call @printF64(%h) : (f64) -> ()
  call @printNewline() : () -> ()
  call @printI64(%n) : (i64) -> ()
  call @printComma() : () -> ()
  call @printU64(%n) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
"""

# An unranked memref passed expanded (no llvm.emit_c_interface: printMemrefF32(i64,
# ptr)), a strided subview with an offset, ranked descriptors (printMemref1dF32...),
# complex elements, a loop-filled buffer.
VIEWS = """
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemref1dF32(memref<?xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemref2dF32(memref<?x?xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefC32(memref<*xcomplex<f32>>) attributes {llvm.emit_c_interface}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %t = memref.alloc() : memref<3x2x2xf32>
  scf.for %a = %c0 to %c3 step %c1 {
    scf.for %b = %c0 to %c2 step %c1 {
      scf.for %d = %c0 to %c2 step %c1 {
        %ab = arith.muli %a, %c2 : index
        %abb = arith.addi %ab, %b : index
        %abb2 = arith.muli %abb, %c2 : index
        %k = arith.addi %abb2, %d : index
        %ki = arith.index_cast %k : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        memref.store %kf, %t[%a, %b, %d] : memref<3x2x2xf32>
      }
    }
  }
  %ut = memref.cast %t : memref<3x2x2xf32> to memref<*xf32>
  call @printMemrefF32(%ut) : (memref<*xf32>) -> ()
  %sv = memref.subview %t[1, 0, 1][2, 2, 1][1, 1, 1]
      : memref<3x2x2xf32> to memref<2x2xf32, strided<[4, 2], offset: 5>>
  %usv = memref.cast %sv
      : memref<2x2xf32, strided<[4, 2], offset: 5>> to memref<*xf32>
  call @printMemrefF32(%usv) : (memref<*xf32>) -> ()
  %flat = memref.alloc() : memref<3xf32>
  %x = arith.constant 2.25 : f32
  memref.store %x, %flat[%c0] : memref<3xf32>
  memref.store %x, %flat[%c1] : memref<3xf32>
  memref.store %x, %flat[%c2] : memref<3xf32>
  %d1 = memref.cast %flat : memref<3xf32> to memref<?xf32>
  call @printMemref1dF32(%d1) : (memref<?xf32>) -> ()
  %two = memref.alloc() : memref<1x2xf32>
  memref.store %x, %two[%c0, %c0] : memref<1x2xf32>
  memref.store %x, %two[%c0, %c1] : memref<1x2xf32>
  %d2 = memref.cast %two : memref<1x2xf32> to memref<?x?xf32>
  call @printMemref2dF32(%d2) : (memref<?x?xf32>) -> ()
  %cc = memref.alloc() : memref<2xcomplex<f32>>
  %re = arith.constant 1.5 : f32
  %im = arith.constant -2.0 : f32
  %cv = complex.create %re, %im : complex<f32>
  memref.store %cv, %cc[%c0] : memref<2xcomplex<f32>>
  memref.store %cv, %cc[%c1] : memref<2xcomplex<f32>>
  %uc = memref.cast %cc : memref<2xcomplex<f32>> to memref<*xcomplex<f32>>
  call @printMemrefC32(%uc) : (memref<*xcomplex<f32>>) -> ()
  return
}
"""

# NaN, infinities, -0 (stored from arith constants: xDSL reads the hex float
# literals of a dense<...> as integers, so a global cannot hold them).
SPECIALS = f"""
{DECLARATIONS}
func.func @main() {{
  %m = memref.alloc() : memref<7xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %nan = arith.constant 0x7FC00000 : f32
  %nnan = arith.constant 0xFFC00000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %nz = arith.constant -0.0 : f32
  %small = arith.constant 1.0e-5 : f32
  %third = arith.constant 0.333333343 : f32
  memref.store %nan, %m[%c0] : memref<7xf32>
  memref.store %nnan, %m[%c1] : memref<7xf32>
  memref.store %inf, %m[%c2] : memref<7xf32>
  memref.store %ninf, %m[%c3] : memref<7xf32>
  memref.store %nz, %m[%c4] : memref<7xf32>
  memref.store %small, %m[%c5] : memref<7xf32>
  memref.store %third, %m[%c6] : memref<7xf32>
  %u = memref.cast %m : memref<7xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}}
"""

PROGRAMS = {
    **{name: global_program(name, *spec) for name, spec in GLOBALS.items()},
    "f32_specials": SPECIALS,
    "scalars": SCALARS,
    "views": VIEWS,
}


def _normalize(out: bytes) -> bytes:
    return re.sub(rb"base@ = 0x[0-9a-f]+", b"base@ = 0x...", out)


def _mlir_runner(lowered: str) -> bytes:
    libs = runner_utils_libraries()
    if len(libs) < 2:
        pytest.skip("Debian's libmlir_runner_utils/libmlir_c_runner_utils missing")
    done = subprocess.run(
        ["mlir-runner-22", "-e", "main", "-entry-point-result=void"]
        + [f"-shared-libs={lib}" for lib in libs],
        input=lowered.encode(),
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout


def _ours(lowered: str, capfdbinary: pytest.CaptureFixture[bytes]) -> bytes:
    capfdbinary.readouterr()
    CpuJit(lowered).call("main")
    runner_utils.flush_c_stdout()
    return capfdbinary.readouterr().out


@needs_runner
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_output_as_mlir_runner(
    name: str, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    lowered = mlir_opt(PROGRAMS[name], LOWER)
    theirs = _mlir_runner(lowered)
    ours = _ours(lowered, capfdbinary)
    assert theirs, "mlir-runner-22 printed nothing"
    assert _normalize(ours) == _normalize(theirs)


@needs_runner
def test_the_documented_format(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    lowered = mlir_opt(
        global_program("g", "2x3x", "f32", "[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]", "F32"),
        LOWER,
    )
    ours = _normalize(_ours(lowered, capfdbinary)).decode()
    assert ours == (
        "Unranked Memref base@ = 0x... rank = 2 offset = 0 sizes = [2, 3] "
        "strides = [3, 1] data = \n[[1,   2,   3], \n [4,   5,   6]]\n"
    )


@needs_runner
def test_mlir_libraries_win_when_given() -> None:
    """``shared_libs=`` (``--shared-libs``) that define a utility are used instead of
    ours; without them ours are bound."""
    libs = runner_utils_libraries()
    if len(libs) < 2:
        pytest.skip("Debian's runner utility libraries missing")
    names = ["printF32", "printMemrefF32", "_mlir_ciface_printMemrefF16", "malloc"]
    assert runner_utils.bind(names) == names[:3]
    assert llvm.address_of_symbol("printF32") == runner_utils.builtin_address(
        "printF32"
    )
    assert runner_utils.bind(names, libs) == []
    expected = runner_utils.library_address(libs[0], "printF32")
    assert expected is not None
    assert llvm.address_of_symbol("printF32") == expected
    # Ours again for the next module that names no library.
    runner_utils.bind(names)
    assert llvm.address_of_symbol("printF32") == runner_utils.builtin_address(
        "printF32"
    )


def test_runs_without_mlir_installed(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    """No mlir tool or library: an llvm-dialect program calling the utilities."""
    program = """
    llvm.func @printF32(f32)
    llvm.func @printNewline()
    llvm.func @printI64(i64)
    llvm.func @printComma()
    llvm.func @main() {
      %x = llvm.mlir.constant(2.5 : f32) : f32
      %n = llvm.mlir.constant(-3 : i64) : i64
      llvm.call @printF32(%x) : (f32) -> ()
      llvm.call @printComma() : () -> ()
      llvm.call @printI64(%n) : (i64) -> ()
      llvm.call @printNewline() : () -> ()
      llvm.return
    }
    """
    capfdbinary.readouterr()
    CpuJit(program).call("main")
    runner_utils.flush_c_stdout()
    assert capfdbinary.readouterr().out == b"2.5, -3\n"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.0, "0"),
        (-0.0, "-0"),
        (1.5, "1.5"),
        (3.7e6, "3.7e+06"),
        (1e-5, "1e-05"),
        (float("inf"), "inf"),
        (float("-inf"), "-inf"),
        (float("nan"), "nan"),
        (-float("nan"), "-nan"),
        (0.1, "0.1"),
        (123456789.0, "1.23457e+08"),
    ],
)
def test_format_float(value: float, text: str) -> None:
    assert format_float(value) == text


def test_format_memref_of_a_numpy_array() -> None:
    import numpy as np

    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    text = format_memref(a.ctypes.data, 0, [2, 3], [3, 1], "F32").decode()
    assert text.endswith("data = \n[[0,   1,   2], \n [3,   4,   5]]\n")
    assert text.startswith(f"Unranked Memref base@ = {hex(a.ctypes.data)} rank = 2")


def test_every_utility_has_a_callback() -> None:
    for name in sorted(runner_utils.RUNNER_UTILITIES):
        assert runner_utils.builtin_address(name)
    assert ctypes.sizeof(ctypes.c_void_p) == 8
