"""Differential tests of ``convert-vector-to-llvm`` against upstream MLIR 22.

Each kernel is a ``func.func @kernel`` of scalars that builds vectors, moves their
elements and reduces them. It is lowered two ways, by our passes (in-process) and by
``mlir-opt-22`` with the same pass names; both results go through
``mlir-translate-22 --mlir-to-llvmir`` and are JIT-compiled on the CPU
(:class:`xdsl_gpu.targets.cpu_jit.CpuJit`); every input set must give the same bits.
(Our own LLVM IR emission, ``xdsl_gpu/targets/llvm_ir``, does not yet translate the
integer and min/max ``llvm.intr.vector.reduce.*`` ops, hence mlir-translate-22 on
both sides.)
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess

import pytest

from tests.support.xdsl_tools import parse, print_module
from xdsl_gpu.passes import get_all_passes
from xdsl_gpu.passes.registration import REPLACED_PASSES
from xdsl_gpu.targets.runtime.api import program_context

MLIR_OPT = shutil.which("mlir-opt-22")
MLIR_TRANSLATE = shutil.which("mlir-translate-22")
requires_mlir = pytest.mark.skipif(
    None in (MLIR_OPT, MLIR_TRANSLATE), reason="mlir-opt-22/mlir-translate-22 missing"
)

PIPELINE = (
    "convert-vector-to-llvm",
    "convert-arith-to-llvm",
    "convert-func-to-llvm",
    "reconcile-unrealized-casts",
)

KERNELS = {
    "float": """
func.func @kernel(%a: f32, %b: f32, %c: f32, %i: index) -> f32 {
  %v = vector.from_elements %a, %b, %c, %a : vector<4xf32>
  %s = vector.broadcast %b : f32 to vector<4xf32>
  %w = vector.insert %c, %v [2] : f32 into vector<4xf32>
  %f = vector.fma %v, %s, %w : vector<4xf32>
  %sh = vector.shuffle %f, %v [7, 0, 3, 4] : vector<4xf32>, vector<4xf32>
  %r = vector.reduction <add>, %sh, %a : vector<4xf32> into f32
  %m = vector.reduction <maxnumf>, %f, %r : vector<4xf32> into f32
  %e = vector.extract %sh[%i] : f32 from vector<4xf32>
  %p = vector.reduction <mul>, %v : vector<4xf32> into f32
  %x = arith.addf %m, %e : f32
  %y = arith.addf %x, %p : f32
  return %y : f32
}
""",
    "int": """
func.func @kernel(%a: i32, %b: i32, %c: i32, %i: index) -> i32 {
  %v = vector.from_elements %a, %b, %c, %a : vector<4xi32>
  %s = vector.broadcast %c : i32 to vector<4xi32>
  %w = vector.insert %b, %s [%i] : i32 into vector<4xi32>
  %x = vector.reduction <maxsi>, %v, %b : vector<4xi32> into i32
  %y = vector.reduction <add>, %w, %x : vector<4xi32> into i32
  %z = vector.reduction <xor>, %v : vector<4xi32> into i32
  %u = vector.reduction <minui>, %w, %a : vector<4xi32> into i32
  %e = vector.extract %w[1] : i32 from vector<4xi32>
  %t0 = arith.addi %y, %z : i32
  %t1 = arith.muli %t0, %u : i32
  %t2 = arith.subi %t1, %e : i32
  return %t2 : i32
}
""",
}

INPUTS = {
    "float": [(1.5, -2.0, 3.25, 0), (0.0, 7.0, -1.0, 3), (-4.5, 0.5, 2.0, 2)],
    "int": [(1, -2, 3, 0), (7, 100, -5, 3), (-9, 4, 2147483647, 2)],
}


def _ours(source: str) -> str:
    # Our vector dialect explicitly: stock xdsl-opt's choice per run would pick
    # xDSL's, which lacks from_elements.
    ctx = program_context()
    module = parse(source, ctx)
    passes = {**get_all_passes(), **REPLACED_PASSES}
    for name in PIPELINE:
        passes[name]()().apply(ctx, module)
    return print_module(module)


def _run(tool: str | None, text: str, *args: str) -> str:
    assert tool is not None
    done = subprocess.run(
        [tool, *args], input=text, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _bits(value: float | int, kind: str) -> int:
    if kind == "float":
        return struct.unpack("<I", struct.pack("<f", value))[0]
    return int(value) & 0xFFFFFFFF


@requires_mlir
@pytest.mark.parametrize("kind", sorted(KERNELS))
def test_results_match_upstream(kind: str) -> None:
    from xdsl_gpu.targets.cpu_jit import CpuJit

    source = KERNELS[kind]
    ours = _run(MLIR_TRANSLATE, _ours(source), "--mlir-to-llvmir")
    upstream_llvm = _run(
        MLIR_OPT, source, f"--pass-pipeline=builtin.module({','.join(PIPELINE)})"
    )
    upstream = _run(MLIR_TRANSLATE, upstream_llvm, "--mlir-to-llvmir")
    jit_ours, jit_up = CpuJit.from_llvm_ir(ours), CpuJit.from_llvm_ir(upstream)
    for args in INPUTS[kind]:
        a = _bits(jit_ours.call("kernel", *args), kind)
        b = _bits(jit_up.call("kernel", *args), kind)
        assert a == b, (kind, args)


def test_no_vector_op_is_left_for_one_d_kernels() -> None:
    for source in KERNELS.values():
        assert re.search(r"(?<![\w.])vector\.", _ours(source)) is None


@requires_mlir
def test_print_lowers_to_upstreams_calls() -> None:
    source = """
func.func @f(%x: f32, %n: i32) {
  vector.print %x : f32
  vector.print %n : i32 punctuation <comma>
  return
}
"""
    ours = _ours(source)
    upstream = _run(
        MLIR_OPT, source, f"--pass-pipeline=builtin.module({','.join(PIPELINE)})"
    )
    for callee in ("printF32", "printNewline", "printI64", "printComma"):
        assert f"llvm.call @{callee}(" in ours
        assert f"llvm.call @{callee}(" in upstream
