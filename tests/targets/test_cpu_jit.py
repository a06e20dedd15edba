"""CpuJit: calling JIT-compiled llvm-dialect functions with NumPy arrays and scalars,
by the three memref calling conventions that upstream's convert-func-to-llvm gives."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from xdsl_gpu.targets.cpu_jit import (
    CpuJit,
    CpuJitError,
    mlir_opt,
    runner_utils_libraries,
)

needs_mlir = pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="mlir-22-tools not installed"
)

LOWER = ["--convert-scf-to-cf", "--convert-to-llvm", "--reconcile-unrealized-casts"]

PROGRAM = """
func.func @scale(%a: f32, %x: memref<?x?xf32, strided<[?, ?], offset: ?>>)
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %x, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %c = memref.dim %x, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %w = arith.mulf %a, %v : f32
      memref.store %w, %x[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
    }
  }
  return
}
func.func @iota(%n: index) -> (memref<?xi64>, i32, f64)
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc(%n) : memref<?xi64>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i64
    %w = arith.muli %v, %v : i64
    memref.store %w, %m[%i] : memref<?xi64>
  }
  %k = arith.constant -7 : i32
  %h = arith.constant 0.5 : f64
  return %m, %k, %h : memref<?xi64>, i32, f64
}
func.func @scalars(%a: i8, %b: i16, %c: i64, %d: f16, %e: i1, %f: f64) -> f64 {
  %a1 = arith.extsi %a : i8 to i64
  %b1 = arith.extui %b : i16 to i64
  %s = arith.addi %a1, %b1 : i64
  %t = arith.addi %s, %c : i64
  %tf = arith.sitofp %t : i64 to f64
  %df = arith.extf %d : f16 to f64
  %u = arith.addf %tf, %df : f64
  %z = arith.constant 0.0 : f64
  %g = arith.select %e, %f, %z : f64
  %r = arith.addf %u, %g : f64
  return %r : f64
}
func.func @zero_d(%m: memref<f32>) -> f32 {
  %v = memref.load %m[] : memref<f32>
  %two = arith.constant 2.0 : f32
  %w = arith.mulf %v, %two : f32
  memref.store %w, %m[] : memref<f32>
  return %v : f32
}
"""

STATIC = """
func.func @add(%x: memref<8xf32>, %y: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %a = memref.load %x[%i] : memref<8xf32>
    %b = memref.load %y[%i] : memref<8xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %out[%i] : memref<8xf32>
  }
  return
}
"""


@pytest.fixture(scope="module")
def jit() -> CpuJit:
    if shutil.which("mlir-opt-22") is None:
        pytest.skip("mlir-22-tools not installed")
    return CpuJit(mlir_opt(PROGRAM, ["--finalize-memref-to-llvm", *LOWER]))


def test_descriptor_convention_with_a_strided_view(jit: CpuJit) -> None:
    base = np.arange(48, dtype=np.float32).reshape(6, 8)
    view = base[1:6:2, 7:0:-3]  # negative stride, offset into the buffer
    expected = base.copy()
    expected[1:6:2, 7:0:-3] *= 3.0
    jit.call("scale", 3.0, view)
    np.testing.assert_array_equal(base, expected)


def test_ciface_convention(jit: CpuJit) -> None:
    x = np.ones((2, 3), np.float32)
    jit.call("scale", 2.5, x, convention="ciface")
    np.testing.assert_array_equal(x, np.full((2, 3), 2.5, np.float32))


def test_returned_memref_and_scalars(jit: CpuJit) -> None:
    array, k, h = jit.call("iota", 5, results=[np.int64, None, None])
    np.testing.assert_array_equal(array, np.arange(5) ** 2)
    assert (k, h) == (-7, 0.5)
    assert isinstance(k, np.int32)


def test_returned_memref_through_ciface(jit: CpuJit) -> None:
    results = [np.int64, None, None]
    array, k, _ = jit.call("iota", 3, convention="ciface", results=results)
    np.testing.assert_array_equal(array, [0, 1, 4])
    assert k == -7


def test_view_of_a_returned_memref(jit: CpuJit) -> None:
    array, _, _ = jit.call("iota", 4, results=[np.int64, None, None], copy=False)
    assert not array.flags.owndata
    np.testing.assert_array_equal(array, [0, 1, 4, 9])


def test_scalar_types(jit: CpuJit) -> None:
    r = jit.call("scalars", -3, 65535, -10, 1.5, True, 0.25)
    assert r == pytest.approx(-3 + 65535 - 10 + 1.5 + 0.25)
    assert isinstance(r, np.float64)
    assert jit.call("scalars", 0, 0, 0, 0.0, False, 9.0) == 0.0


def test_zero_dimensional_memref(jit: CpuJit) -> None:
    m = np.array(4.0, np.float32)
    assert jit.call("zero_d", m) == 4.0
    assert m == 8.0


@needs_mlir
def test_bare_pointer_convention() -> None:
    lowered = mlir_opt(
        STATIC,
        [
            "--convert-scf-to-cf",
            "--convert-to-llvm=filter-dialects=arith,cf,memref",
            "--convert-func-to-llvm=use-bare-ptr-memref-call-conv=1",
            "--reconcile-unrealized-casts",
        ],
    )
    jit = CpuJit(lowered)
    x = np.arange(8, dtype=np.float32)
    y = np.full(8, 10, np.float32)
    out = np.zeros(8, np.float32)
    jit.call("add", x, y, out, convention="bare")
    np.testing.assert_array_equal(out, x + y)


def test_wrong_argument_count_is_explained(jit: CpuJit) -> None:
    with pytest.raises(CpuJitError, match=r"takes 8 LLVM arguments .* gives 6"):
        jit.call("scale", 1.0, np.ones(3, np.float32))


def test_unknown_function_lists_the_known_ones(jit: CpuJit) -> None:
    with pytest.raises(CpuJitError, match=r"no function @nope .*scale"):
        jit.call("nope")


def test_unknown_convention(jit: CpuJit) -> None:
    with pytest.raises(CpuJitError, match="unknown memref convention"):
        jit.call("scale", 1.0, np.ones((1, 1), np.float32), convention="fancy")


def test_call_of_an_unresolved_external_function_raises() -> None:
    jit = CpuJit(
        """
        llvm.func @missing_everywhere(i32)
        llvm.func @f(%x: i32) -> i32 {
          llvm.call @missing_everywhere(%x) : (i32) -> ()
          llvm.return %x : i32
        }
        llvm.func @g(%x: i32) -> i32 {
          llvm.return %x : i32
        }
        """
    )
    assert jit.call("g", 5) == 5  # the rest of the module still runs
    with pytest.raises(CpuJitError, match="called @missing_everywhere"):
        jit.call("f", 1)


def test_an_unresolved_function_stays_unresolved_for_the_next_module() -> None:
    """LLVM's symbol table is process-wide: the first module's stub stayed bound to
    the name, freed with its CpuJit, and the second module called freed memory (no
    error, or a crash) instead of reporting the call."""
    import ctypes
    import gc

    source = """
    declare void @missing_for_two(i32)
    define i32 @f(i32 %x) {
      call void @missing_for_two(i32 %x)
      ret i32 %x
    }
    """
    first = CpuJit.from_llvm_ir(source)
    with pytest.raises(CpuJitError, match="called @missing_for_two"):
        first.call("f", 1)
    del first
    gc.collect()
    # Reuse freed callback memory, as a busy process would.
    others = [ctypes.CFUNCTYPE(None)(lambda: None) for _ in range(256)]
    second = CpuJit.from_llvm_ir(source)
    with pytest.raises(CpuJitError, match="called @missing_for_two"):
        second.call("f", 2)
    del others


@needs_mlir
def test_shared_libs_resolve_runtime_functions(
    capfd: pytest.CaptureFixture[str],
) -> None:
    if not runner_utils_libraries():
        pytest.skip("libmlir_c_runner_utils not installed")
    source = """
    func.func private @printF32(f32)
    func.func private @printNewline()
    func.func @show(%x: f32) {
      call @printF32(%x) : (f32) -> ()
      call @printNewline() : () -> ()
      return
    }
    """
    jit = CpuJit(mlir_opt(source, LOWER), shared_libs=runner_utils_libraries())
    jit.call("show", 2.5)
    assert "2.5" in capfd.readouterr().out


def test_from_llvm_ir() -> None:
    jit = CpuJit.from_llvm_ir(
        "define { i32, double } @pair(i32 %x) {\n"
        "  %a = insertvalue { i32, double } poison, i32 %x, 0\n"
        "  %b = insertvalue { i32, double } %a, double 1.5, 1\n"
        "  ret { i32, double } %b\n}\n"
    )
    assert jit.call("pair", 9) == (9, 1.5)


_EDGE_CASES = """
func.func @fill(%m: memref<4xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %m[%c0] : memref<4xf32>
  return
}
func.func @ints(%a: i32, %b: i64, %c: i1, %d: i8) -> (i32, i64, i1, i8) {
  return %a, %b, %c, %d : i32, i64, i1, i8
}
"""


@pytest.fixture(scope="module")
def edge_jit() -> CpuJit:
    return CpuJit(mlir_opt(_EDGE_CASES, ["--finalize-memref-to-llvm", *LOWER]))


def test_ciface_of_a_void_function_taking_a_memref_first(edge_jit: CpuJit) -> None:
    """The first parameter of _mlir_ciface_fill is a pointer, but @fill returns
    nothing: it is the memref argument, not a result slot."""
    x = np.zeros(4, np.float32)
    assert edge_jit.call("fill", x, convention="ciface") is None
    np.testing.assert_array_equal(x, [1, 0, 0, 0])


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((-1, -(2**63), True, -128), (-1, -(2**63), 1, -128)),
        ((2**32 - 1, 2**64 - 1, np.bool_(True), 255), (-1, -1, 1, -1)),
        ((np.int32(7), np.int64(-5), False, np.int8(3)), (7, -5, 0, 3)),
    ],
)
def test_integer_arguments_wrap_like_llvm(edge_jit: CpuJit, args, expected) -> None:
    assert edge_jit.call("ints", *args) == expected
