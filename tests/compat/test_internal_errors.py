"""Input that once ended xdsl-opt in a traceback (issue 13's list): now one located
diagnostic and exit status 1 (``compat.diagnose_internal_errors`` and the fixes it
led to)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

CASES = {
    "gep_index_out_of_range": (
        "llvm.func @f(%p: !llvm.ptr) {\n"
        "  %0 = llvm.getelementptr %p[-9223372036854775809] : (!llvm.ptr) -> !llvm.ptr, i8\n"
        "  llvm.return\n}\n",
        "",
        "case.mlir:2:3: error: Integer value -9223372036854775809 is out of range",
    ),
    "hex_float_too_wide": (
        "func.func @f() {\n  %0 = arith.constant 0x7FC00000 : bf16\n  return\n}\n",
        "",
        "case.mlir:2:3: error: a number does not fit its type",
    ),
    "constant_out_of_range": (
        "llvm.func @f() -> i8 {\n  %0 = llvm.mlir.constant(300 : i8) : i8\n"
        "  llvm.return %0 : i8\n}\n",
        "",
        "case.mlir:2:3: error: Integer value 300 is out of range for type i8",
    ),
    "duplicate_block_label": (
        "func.func @f() {\n^bb0:\n  cf.br ^bb0\n^bb0:\n  return\n}\n",
        "",
        "case.mlir:4:1: error: re-declaration of block 'bb0'",
    ),
    "load_with_too_few_indices": (
        "func.func @f(%m: memref<4x4xf32>, %i: index) {\n"
        "  %0 = memref.load %m[%i] : memref<4x4xf32>\n  return\n}\n",
        "convert-arith-to-llvm",
        "case.mlir:2:8: error: 'memref.load' op",
    ),
    "string_memory_space": (
        'func.func @f(%m: memref<f32, "shared">) {\n'
        '  %0 = memref.load %m[] : memref<f32, "shared">\n  return\n}\n',
        "finalize-memref-to-llvm",
        "case.mlir:2:8: error: finalize-memref-to-llvm: 'memref.load' op in @f uses memory "
        'space "shared"',
    ),
    "unknown_fcmp_predicate": (
        'llvm.func @f(%a: f32) -> i1 {\n  %0 = llvm.fcmp "bogus" %a, %a : f32\n'
        "  llvm.return %0 : i1\n}\n",
        "",
        "case.mlir:2:3: error: 'bogus' is not a valid FCmpPredicateFlag",
    ),
    "dense_global_of_vectors": (
        'memref.global "private" @y : memref<vector<2xf32>> = dense<2.5>\n',
        "",
        "case.mlir:1:54: error: a dense initial value holds integers or floats",
    ),
}


@pytest.mark.parametrize("forced", [[], ["--xdsl-gpu"]])
def test_a_symbol_defined_twice_is_reported_at_the_second(
    tmp_path: Path, forced: list[str]
) -> None:
    """xDSL's symbol table check names the (implicit, unlocated) module; the error
    is placed at the second definition, in xDSL's runs and in ours (where the
    module's error carries it as its failing op)."""
    (tmp_path / "case.mlir").write_text(
        "llvm.mlir.global external @g(1 : i32) : i32\n"
        "llvm.mlir.global external @g(2 : i32) : i32\n"
    )
    done = subprocess.run(
        ["xdsl-opt", *forced, "case.mlir"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith(
        "case.mlir:2:1: error: 'llvm.mlir.global' op redefinition of symbol named 'g'"
    ), done.stderr


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_diagnostic_not_a_traceback(tmp_path: Path, name: str) -> None:
    source, pipeline, message = CASES[name]
    (tmp_path / "case.mlir").write_text(source)
    done = subprocess.run(
        ["xdsl-opt", "case.mlir", *(["-p", pipeline] if pipeline else [])],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(message), done.stderr


def test_a_target_fault_is_a_diagnostic(tmp_path: Path) -> None:
    """A fault in a -t target is reported as one (and counted by the fuzzer)."""
    (tmp_path / "case.mlir").write_text(
        "llvm.func @f(%a: i32, %b: i64) {\n"
        "  llvm.switch %a : i32, ^bb1(%b : i64) [\n    1: ^bb1\n  ]\n"
        "^bb1(%x: i64):\n  llvm.return\n}\n"
    )
    done = subprocess.run(
        ["xdsl-opt", "case.mlir", "-t", "llvmir"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("xdsl-opt: error: ")
