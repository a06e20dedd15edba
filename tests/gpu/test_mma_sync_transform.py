"""``transform.nvgpu.rewrite_matmul_as_mma_sync``: a one-warp ``linalg.matmul``
rewritten as ``nvgpu.mma.sync`` (16x8x16 f16, 16x8x4 f32 as tf32).

Without a GPU: every element of A, B and C is loaded (and every element of C
stored) by exactly one (lane, fragment slot) of the 32 lanes, the program compiles
through ``gpu-lower-to-nvvm-pipeline``, and the IR after the transform is
mlir-opt-22's (where installed). On the GPU (marker ``gpu``): the kernel runs on
NumPy arrays of small integers, so that every sum is exact in f16 and tf32, and C
must equal ``A @ B + C`` exactly.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter

import numpy as np
import pytest
from xdsl.dialects import affine, memref
from xdsl.dialects.builtin import ModuleOp

CASES = {
    # name: (M, N, K, element type, NumPy type)
    "f16": (16, 8, 16, "f16", np.float16),
    "tf32": (16, 8, 4, "f32", np.float32),
}


def _program(m: int, n: int, k: int, t: str) -> str:
    a, b, c = f"memref<{m}x{k}x{t}>", f"memref<{k}x{n}x{t}>", f"memref<{m}x{n}x{t}>"
    return f"""
func.func @matmul(%a: {a}, %b: {b}, %c: {c}) {{
  %one = arith.constant 1 : index
  %warp = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%sx = %warp, %sy = %one, %sz = %one) {{
    linalg.matmul ins(%a, %b : {a}, {b}) outs(%c : {c})
    gpu.terminator
  }}
  return
}}

module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %mm = transform.structured.match ops{{["linalg.matmul"]}} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }}
}}
"""


def _transformed(name: str) -> ModuleOp:
    """The program after the transform script, the script erased."""
    from xdsl.transforms.test_transform_dialect_erase_schedule import (
        TestTransformDialectEraseSchedulePass,
    )

    from xdsl_gpu.passes.transform_interpreter import TransformInterpreterPass
    from xdsl_gpu.targets.runtime.api import parse_program, program_context

    m, n, k, t, _ = CASES[name]
    module = parse_program(_program(m, n, k, t), name)
    ctx = program_context()
    TransformInterpreterPass().apply(ctx, module)
    TestTransformDialectEraseSchedulePass().apply(ctx, module)
    module.verify()
    return module


def _index(op: affine.ApplyOp, lane: int) -> int:
    return op.map.data.eval([], [lane])[0]


@pytest.mark.parametrize("name", CASES)
def test_each_element_has_one_lane(name: str) -> None:
    """The loads cover A, B and C once each over the warp, the stores C."""
    m, n, k, *_ = CASES[name]
    module = _transformed(name)
    func = next(op for op in module.walk() if op.name == "gpu.launch")
    a, b, c = (
        arg for op in module.walk() if op.name == "func.func" for arg in op.regions[0].block.args
    )  # fmt: skip
    loads: dict[object, Counter[tuple[int, int]]] = {
        a: Counter(),
        b: Counter(),
        c: Counter(),
    }
    stores: Counter[tuple[int, int]] = Counter()
    for op in func.walk():
        if isinstance(op, memref.LoadOp | memref.StoreOp):
            row, col = (i.owner for i in op.indices)
            assert isinstance(row, affine.ApplyOp)
            assert isinstance(col, affine.ApplyOp)
            for lane in range(32):
                at = (_index(row, lane), _index(col, lane))
                if isinstance(op, memref.LoadOp):
                    loads[op.memref][at] += 1
                else:
                    stores[at] += 1
    for value, (rows, cols) in ((a, (m, k)), (b, (k, n)), (c, (m, n))):
        expected = {(i, j): 1 for i in range(rows) for j in range(cols)}
        assert dict(loads[value]) == expected
    assert dict(stores) == {(i, j): 1 for i in range(m) for j in range(n)}


@pytest.mark.parametrize("name", CASES)
def test_compiles(name: str) -> None:
    from xdsl_gpu.targets.runtime.api import compile_host_llvm_ir

    llvm_ir = compile_host_llvm_ir(
        _transformed(name), pipeline_options="cubin-chip=sm_80", chip="sm_80"
    )
    assert "@matmul" in llvm_ir


def _canonical(text: str) -> str:
    """MLIR text as xdsl-opt prints it, SSA names left out."""
    done = subprocess.run(
        ["xdsl-opt", "--xdsl-gpu"], input=text, capture_output=True, text=True, check=True
    )  # fmt: skip
    return re.sub(r"%[\w]+", "%_", done.stdout)


@pytest.mark.parametrize("name", CASES)
def test_ir_is_mlir_opt_22s(name: str) -> None:
    if shutil.which("mlir-opt-22") is None:
        pytest.skip("no mlir-opt-22 to compare with")
    m, n, k, t, _ = CASES[name]
    program = _program(m, n, k, t)
    theirs = subprocess.run(
        ["mlir-opt-22", "-", "-transform-interpreter", "-test-transform-dialect-erase-schedule"],
        input=program, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    ours = subprocess.run(
        ["xdsl-opt", "--xdsl-gpu", "-p", "transform-interpreter,test-transform-dialect-erase-schedule"],
        input=program, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "nvgpu.mma.sync" in ours
    assert _canonical(ours) == _canonical(theirs)


@pytest.mark.gpu
@pytest.mark.parametrize("name", CASES)
def test_matmul_on_the_gpu(name: str) -> None:
    from xdsl_gpu.targets.runtime import load

    m, n, k, _, dtype = CASES[name]
    rng = np.random.default_rng(3)
    a = rng.integers(-3, 4, (m, k)).astype(dtype)
    b = rng.integers(-3, 4, (k, n)).astype(dtype)
    c = rng.integers(-8, 9, (m, n)).astype(dtype)
    expected = a.astype(np.float64) @ b.astype(np.float64) + c.astype(np.float64)
    with load(_transformed(name), stage_arrays=True) as program:
        program.call("matmul", a, b, c)
    np.testing.assert_array_equal(c.astype(np.float64), expected)
