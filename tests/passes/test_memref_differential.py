"""Differential tests of ``expand-strided-metadata`` and ``finalize-memref-to-llvm``.

Each case is a ``func.func @kernel`` over memrefs (strided views, subviews of subviews,
dynamic shapes, collapse/expand, reinterpret_cast, view, alloc/alloca/dealloc, globals,
copies, atomics, casts, metadata queries). The arguments are views into base buffers
filled with seeded random data. The case runs two ways:

* **ours**: our passes (the whole std → LLVM pipeline, ``PIPELINE``) in-process, the
  result JIT-compiled with llvmlite by :class:`xdsl_gpu.targets.cpu_jit.CpuJit` and called with
  descriptors of the NumPy base buffers (any offset, sizes and strides);
* **upstream**: the kernel plus a ``@main`` that builds the same views from
  ``memref.global`` constants, calls the kernel and prints every base buffer element
  by element (as bits: no rounding in the comparison), lowered by ``mlir-opt-22``
  and run by ``mlir-runner-22``.

Every base buffer must come out bit for bit the same. The IR our passes emit must also
be accepted by ``mlir-translate-22 --mlir-to-llvmir``.

Kernels use the generic form for the memref ops whose custom syntax xDSL 0.74 lacks
(``global``, ``cast``, ``copy``, ``atomic_rmw``, ``rank``, ``memory_space_cast``,
``extract_aligned_pointer_as_index``, ``alloca_scope``); both tools read it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, IndexType, MemRefType, ModuleOp
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.passes import PassPipeline
from xdsl.traits import IsTerminator
from xdsl.transforms import get_all_passes as xdsl_passes

from tests.support.xdsl_tools import make_context, print_module
from xdsl_gpu.passes import get_all_passes

MLIR_OPT = shutil.which("mlir-opt-22")
MLIR_RUNNER = shutil.which("mlir-runner-22")
MLIR_TRANSLATE = shutil.which("mlir-translate-22")

if MLIR_OPT is None and os.environ.get("CI"):
    raise RuntimeError("CI needs mlir-opt-22 (Debian package mlir-22-tools)")

requires_mlir = pytest.mark.skipif(
    None in (MLIR_OPT, MLIR_RUNNER, MLIR_TRANSLATE),
    reason="mlir-opt-22/mlir-runner-22/mlir-translate-22 not installed",
)

PIPELINE = (
    "expand-strided-metadata",
    "lower-affine",
    "convert-scf-to-cf",
    "finalize-memref-to-llvm",
    "convert-arith-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    "reconcile-unrealized-casts",
)
"""The pass order of upstream's usual CPU lowering, for both sides."""

_DTYPES = {
    "f32": np.float32,
    "f64": np.float64,
    "i32": np.int32,
    "i64": np.int64,
    "index": np.int64,
}


@dataclass(frozen=True)
class View:
    """A memref argument: a strided view into a fresh 1-D base buffer of ``base``
    elements, with the kernel parameter type ``param`` (the view type is cast to it)."""

    element: str
    base: int
    offset: int
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    param: str

    @property
    def view_type(self) -> str:
        shape = "".join(f"{s}x" for s in self.sizes)
        strides = ", ".join(str(s) for s in self.strides)
        return f"memref<{shape}{self.element}, strided<[{strides}], offset: {self.offset}>>"

    @property
    def base_type(self) -> str:
        return f"memref<{self.base}x{self.element}>"


@dataclass(frozen=True)
class Scalar:
    value: int | float
    type: str = "index"


@dataclass(frozen=True)
class Case:
    name: str
    kernel: str
    args: tuple[View | Scalar, ...]
    options: dict[str, str] = field(default_factory=dict[str, str])
    """Options for every pass of ``PIPELINE`` that takes them (e.g. index-bitwidth)."""
    upstream_pipeline: tuple[str, ...] = PIPELINE
    """The oracle's pass order, where upstream needs another one."""
    extra_ops: bool = False
    """Whether the kernel uses upstream memref ops xDSL 0.74 lacks (``transpose``,
    ``generic_atomic_rmw``): they are defined for this test only (:func:`_context`)."""
    verify: bool = True
    """Whether xDSL verifies the kernel: off where xDSL 0.74's memref ops reject
    unranked operands that upstream allows (``rank``, ``reinterpret_cast``,
    ``extract_aligned_pointer_as_index``, ``memory_space_cast``)."""


def dense(values: np.ndarray, element: str) -> str:
    if element in ("f32", "f64"):
        body = ", ".join(repr(float(v)) for v in values)
    else:
        body = ", ".join(str(int(v)) for v in values)
    return f"dense<[{body}]> : tensor<{len(values)}x{element}>"


def inputs(case: Case) -> list[np.ndarray]:
    """Seeded random base buffers for the case's views."""
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    buffers: list[np.ndarray] = []
    for arg in case.args:
        if not isinstance(arg, View):
            continue
        dtype = _DTYPES[arg.element]
        if arg.element in ("f32", "f64"):
            data = rng.uniform(-4.0, 4.0, arg.base).astype(dtype)
        else:
            data = rng.integers(-50, 50, arg.base).astype(dtype)
        buffers.append(data)
    return buffers


@irdl_op_definition
class _TransposeOp(IRDLOperation):
    """``memref.transpose`` as upstream defines it, for this test only."""

    name = "memref.transpose"
    source = operand_def(MemRefType)
    permutation = prop_def(AffineMapAttr)
    result = result_def(MemRefType)


@irdl_op_definition
class _GenericAtomicRMWOp(IRDLOperation):
    """``memref.generic_atomic_rmw`` as upstream defines it, for this test only."""

    name = "memref.generic_atomic_rmw"
    memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    result = result_def()
    body = region_def()


@irdl_op_definition
class _AtomicYieldOp(IRDLOperation):
    """``memref.atomic_yield``, for this test only."""

    name = "memref.atomic_yield"
    value = operand_def()
    traits = traits_def(IsTerminator())


def _context() -> Context:
    """A context that also knows the upstream memref ops xDSL 0.74 lacks, so that the
    lowerings of ``finalize-memref-to-llvm`` for them (matched by op name) run."""
    ctx = make_context()
    for op in (_TransposeOp, _GenericAtomicRMWOp, _AtomicYieldOp):
        # xdsl_gpu.gpu_dialect.memref defines them now; these stand in only without it.
        if ctx.get_optional_op(op.name) is None:
            ctx.load_op(op)
    return ctx


def c_runner_utils() -> str | None:
    """Debian's ``libmlir_c_runner_utils`` (``memrefCopy``, ``printI64``)."""
    for directory in (Path("/usr/lib/llvm-22/lib"), Path("/usr/lib")):
        for candidate in sorted(directory.glob("libmlir_c_runner_utils.so*")):
            return str(candidate)
    return None


def _to_i64(value: str, element: str) -> list[str]:
    """Ops turning ``value`` (of ``element`` type) into an i64 for printI64."""
    match element:
        case "f32":
            return [
                f"%bits = arith.bitcast {value} : f32 to i32",
                "%w = arith.extsi %bits : i32 to i64",
            ]
        case "f64":
            return [f"%w = arith.bitcast {value} : f64 to i64"]
        case "i32":
            return [f"%w = arith.extsi {value} : i32 to i64"]
        case "index":
            return [f"%w = arith.index_cast {value} : index to i64"]
        case _:
            return [f"%w = arith.addi {value}, %zero64 : i64"]


def driver(case: Case, buffers: list[np.ndarray]) -> str:
    """The kernel plus a ``@main`` that calls it on the views and prints the bases."""
    lines = [case.kernel]
    lines += [
        "func.func private @printI64(i64)",
        "func.func private @printNewline()",
    ]
    views = [a for a in case.args if isinstance(a, View)]
    for i, (view, data) in enumerate(zip(views, buffers, strict=True)):
        lines.append(
            f'"memref.global"() <{{sym_name = "__in{i}", sym_visibility = "private", '
            f"type = {view.base_type}, initial_value = {dense(data, view.element)}, "
            "constant}> : () -> ()"
        )
    lines.append("func.func @main() {")
    lines.append("  %c0 = arith.constant 0 : index")
    lines.append("  %c1 = arith.constant 1 : index")
    lines.append("  %zero64 = arith.constant 0 : i64")
    call_args: list[str] = []
    call_types: list[str] = []
    view_index = 0
    for j, arg in enumerate(case.args):
        if isinstance(arg, Scalar):
            lines.append(f"  %s{j} = arith.constant {arg.value} : {arg.type}")
            call_args.append(f"%s{j}")
            call_types.append(arg.type)
            continue
        i = view_index
        view_index += 1
        sizes = ", ".join(str(s) for s in arg.sizes)
        strides = ", ".join(str(s) for s in arg.strides)
        lines += [
            f'  %g{i} = "memref.get_global"() <{{name = @__in{i}}}> : () -> {arg.base_type}',
            f"  %b{i} = memref.alloc() : {arg.base_type}",
            f'  "memref.copy"(%g{i}, %b{i}) : ({arg.base_type}, {arg.base_type}) -> ()',
            f"  %v{i} = memref.reinterpret_cast %b{i} to offset: [{arg.offset}], "
            f"sizes: [{sizes}], strides: [{strides}] : {arg.base_type} to {arg.view_type}",
            f'  %p{i} = "memref.cast"(%v{i}) : ({arg.view_type}) -> {arg.param}',
        ]
        call_args.append(f"%p{i}")
        call_types.append(arg.param)
    lines.append(
        f"  func.call @kernel({', '.join(call_args)}) : ({', '.join(call_types)}) -> ()"
    )
    for i, view in enumerate(views):
        lines += [
            f"  %n{i} = arith.constant {view.base} : index",
            f"  scf.for %k = %c0 to %n{i} step %c1 {{",
            f"    %x = memref.load %b{i}[%k] : {view.base_type}",
            *[f"    {line}" for line in _to_i64("%x", view.element)],
            "    func.call @printI64(%w) : (i64) -> ()",
            "    func.call @printNewline() : () -> ()",
            "  }",
            f"  memref.dealloc %b{i} : {view.base_type}",
        ]
    lines += ["  return", "}"]
    return "\n".join(lines)


def _run(args: list[str], stdin: str) -> str:
    done = subprocess.run(
        args, input=stdin, capture_output=True, text=True, timeout=300
    )
    if done.returncode != 0:
        raise AssertionError(
            f"{' '.join(args)} failed:\n{done.stderr}\n--- input ---\n{stdin}"
        )
    return done.stdout


def _flags(case: Case) -> list[str]:
    flags: list[str] = []
    for name in case.upstream_pipeline:
        opts = _options_for(name, case)
        flags.append(f"--{name}" + (f"={opts}" if opts else ""))
    return flags


_OPTION_PASSES = {
    "index-bitwidth": (
        "finalize-memref-to-llvm",
        "convert-arith-to-llvm",
        "convert-func-to-llvm",
        "convert-cf-to-llvm",
    ),
    "use-aligned-alloc": ("finalize-memref-to-llvm",),
    "use-generic-functions": ("finalize-memref-to-llvm",),
}


def _options_for(name: str, case: Case) -> str:
    return " ".join(
        f"{k}={v}" for k, v in case.options.items() if name in _OPTION_PASSES[k]
    )


def upstream_results(case: Case, buffers: list[np.ndarray]) -> list[np.ndarray]:
    assert MLIR_OPT is not None
    assert MLIR_RUNNER is not None
    lowered = _run([MLIR_OPT, *_flags(case)], driver(case, buffers))
    libs = c_runner_utils()
    assert libs is not None, "libmlir_c_runner_utils (mlir-22-tools) is missing"
    out = _run(
        [MLIR_RUNNER, "-e=main", "-entry-point-result=void", f"-shared-libs={libs}"],
        lowered,
    )
    words = [int(w) for w in out.split()]
    results: list[np.ndarray] = []
    views = [a for a in case.args if isinstance(a, View)]
    for view in views:
        chunk, words = words[: view.base], words[view.base :]
        raw = np.array(chunk, dtype=np.int64)
        if view.element == "f32":
            results.append(raw.astype(np.int32).view(np.float32))
        elif view.element == "f64":
            results.append(raw.view(np.float64))
        elif view.element == "i32":
            results.append(raw.astype(np.int32))
        else:
            results.append(raw)
    assert not words, "the upstream run printed more than the buffers"
    return results


def lower_ours(case: Case) -> ModuleOp:
    """The kernel module through ``PIPELINE``, with our passes and xDSL's."""
    ctx = _context() if case.extra_ops else make_context()
    module = Parser(ctx, case.kernel).parse_module()
    if case.verify:
        module.verify()
    available = {**xdsl_passes(), **get_all_passes()}
    spec = ",".join(
        name + (f"{{{_options_for(name, case)}}}" if _options_for(name, case) else "")
        for name in PIPELINE
    )
    PassPipeline.parse_spec(available, spec).apply(make_context(), module)
    return module


def run_ours(
    case: Case, module: ModuleOp, buffers: list[np.ndarray]
) -> list[np.ndarray]:
    from xdsl_gpu.targets.cpu_jit import CpuJit

    libs = [lib] if (lib := c_runner_utils()) else []
    jit = CpuJit(module, shared_libs=libs)
    results = [b.copy() for b in buffers]
    args: list[int | float] = []
    view_index = 0
    for arg in case.args:
        if isinstance(arg, Scalar):
            args.append(arg.value)
            continue
        base = results[view_index]
        view_index += 1
        address = base.ctypes.data
        args += [address, address, arg.offset, *arg.sizes, *arg.strides]
    jit.call("kernel", *args)
    return results


# --------------------------------------------------------------------------------------
# The corpus
# --------------------------------------------------------------------------------------

F32_2D_DYN = "memref<?x?xf32, strided<[?, ?], offset: ?>>"

CASES: list[Case] = [
    Case(
        "strided_args_and_subview",
        """
func.func @kernel(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<4x8xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %sv = memref.subview %b[1, %i][2, 4][1, 2] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 2], offset: ?>>
  scf.for %r = %c0 to %c2 step %c1 {
    scf.for %c = %c0 to %c4 step %c1 {
      %x = memref.load %a[%r, %c] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %y = memref.load %sv[%r, %c] : memref<2x4xf32, strided<[8, 2], offset: ?>>
      %z = arith.addf %x, %y : f32
      memref.store %z, %sv[%r, %c] : memref<2x4xf32, strided<[8, 2], offset: ?>>
    }
  }
  return
}
""",
        (
            View("f32", 64, 5, (2, 4), (3, 7), F32_2D_DYN),
            View("f32", 32, 0, (4, 8), (8, 1), "memref<4x8xf32>"),
            Scalar(1),
        ),
    ),
    Case(
        "subview_of_subview_rank_reducing",
        """
func.func @kernel(%m: memref<8x8xi32>, %out: memref<?xi32, strided<[?], offset: ?>>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %s1 = memref.subview %m[1, 1][6, 6][1, 1] : memref<8x8xi32> to memref<6x6xi32, strided<[8, 1], offset: 9>>
  %s2 = memref.subview %s1[%i, 0][1, 3][1, 2] : memref<6x6xi32, strided<[8, 1], offset: 9>> to memref<3xi32, strided<[2], offset: ?>>
  %s3 = memref.subview %s1[0, %i][3, 1][2, 1] : memref<6x6xi32, strided<[8, 1], offset: 9>> to memref<3xi32, strided<[16], offset: ?>>
  scf.for %k = %c0 to %c3 step %c1 {
    %x = memref.load %s2[%k] : memref<3xi32, strided<[2], offset: ?>>
    %y = memref.load %out[%k] : memref<?xi32, strided<[?], offset: ?>>
    %z = memref.load %s3[%k] : memref<3xi32, strided<[16], offset: ?>>
    %p = arith.muli %x, %y : i32
    %q = arith.addi %p, %z : i32
    memref.store %q, %out[%k] : memref<?xi32, strided<[?], offset: ?>>
    memref.store %p, %s3[%k] : memref<3xi32, strided<[16], offset: ?>>
  }
  return
}
""",
        (
            View("i32", 64, 0, (8, 8), (8, 1), "memref<8x8xi32>"),
            View("i32", 20, 2, (3,), (5,), "memref<?xi32, strided<[?], offset: ?>>"),
            Scalar(2),
        ),
    ),
    Case(
        "dynamic_shapes_dim",
        """
func.func @kernel(%a: memref<?x?xf64>, %b: memref<?x?xf64, strided<[?, ?], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?x?xf64>
  %m = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %x = memref.load %a[%i, %j] : memref<?x?xf64>
      %y = memref.load %b[%i, %j] : memref<?x?xf64, strided<[?, ?], offset: ?>>
      %s = arith.addf %x, %y : f64
      %p = arith.mulf %x, %y : f64
      memref.store %s, %b[%i, %j] : memref<?x?xf64, strided<[?, ?], offset: ?>>
      memref.store %p, %a[%i, %j] : memref<?x?xf64>
    }
  }
  return
}
""",
        (
            View("f64", 15, 0, (3, 5), (5, 1), "memref<?x?xf64>"),
            View(
                "f64",
                80,
                3,
                (3, 5),
                (20, 3),
                "memref<?x?xf64, strided<[?, ?], offset: ?>>",
            ),
        ),
    ),
    Case(
        "dim_dynamic_index_rank_and_unranked",
        """
func.func @kernel(%a: memref<?x?x?xi64>, %out: memref<8xi64>, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d = memref.dim %a, %k : memref<?x?x?xi64>
  %d0 = memref.dim %a, %c0 : memref<?x?x?xi64>
  %r = "memref.rank"(%a) : (memref<?x?x?xi64>) -> index
  %u = "memref.cast"(%a) : (memref<?x?x?xi64>) -> memref<*xi64>
  %du = memref.dim %u, %k : memref<*xi64>
  %back = "memref.cast"(%u) : (memref<*xi64>) -> memref<?x?x?xi64>
  %x = memref.load %back[%c1, %c1, %c1] : memref<?x?x?xi64>
  %di = arith.index_cast %d : index to i64
  %d0i = arith.index_cast %d0 : index to i64
  %ri = arith.index_cast %r : index to i64
  %dui = arith.index_cast %du : index to i64
  memref.store %di, %out[%c0] : memref<8xi64>
  memref.store %d0i, %out[%c1] : memref<8xi64>
  memref.store %ri, %out[%c2] : memref<8xi64>
  memref.store %dui, %out[%c3] : memref<8xi64>
  %c4 = arith.constant 4 : index
  memref.store %x, %out[%c4] : memref<8xi64>
  return
}
""",
        (
            View("i64", 60, 0, (3, 4, 5), (20, 5, 1), "memref<?x?x?xi64>"),
            View("i64", 8, 0, (8,), (1,), "memref<8xi64>"),
            Scalar(2),
        ),
    ),
    Case(
        "collapse_and_expand",
        """
func.func @kernel(%a: memref<4x6xf32>, %b: memref<?x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c12 = arith.constant 12 : index
  %f = memref.collapse_shape %a [[0, 1]] : memref<4x6xf32> into memref<24xf32>
  %e = memref.expand_shape %f [[0, 1]] output_shape [2, 12] : memref<24xf32> into memref<2x12xf32>
  %bf = memref.collapse_shape %b [[0, 1]] : memref<?x4xf32> into memref<?xf32>
  %be = memref.expand_shape %bf [[0, 1, 2]] output_shape [%n, 2, 2] : memref<?xf32> into memref<?x2x2xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c12 step %c1 {
      %x = memref.load %e[%i, %j] : memref<2x12xf32>
      %k = arith.remui %j, %c2 : index
      %y = memref.load %be[%i, %k, %c1] : memref<?x2x2xf32>
      %z = arith.subf %x, %y : f32
      memref.store %z, %e[%i, %j] : memref<2x12xf32>
    }
  }
  %last = arith.subi %n, %c1 : index
  %v = memref.load %f[%c12] : memref<24xf32>
  memref.store %v, %be[%last, %c1, %c0] : memref<?x2x2xf32>
  return
}
""",
        (
            View("f32", 24, 0, (4, 6), (6, 1), "memref<4x6xf32>"),
            View("f32", 20, 0, (5, 4), (4, 1), "memref<?x4xf32>"),
            Scalar(5),
        ),
    ),
    Case(
        "collapse_and_expand_strided",
        """
func.func @kernel(%a: memref<4x3x2xf32, strided<[12, 2, 1], offset: ?>>, %b: memref<12xf32, strided<[2], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %g = memref.collapse_shape %a [[0], [1, 2]] : memref<4x3x2xf32, strided<[12, 2, 1], offset: ?>> into memref<4x6xf32, strided<[12, 1], offset: ?>>
  %h = memref.expand_shape %b [[0, 1]] output_shape [3, 4] : memref<12xf32, strided<[2], offset: ?>> into memref<3x4xf32, strided<[8, 2], offset: ?>>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %x = memref.load %h[%i, %j] : memref<3x4xf32, strided<[8, 2], offset: ?>>
      %y = memref.load %g[%j, %i] : memref<4x6xf32, strided<[12, 1], offset: ?>>
      %z = arith.mulf %x, %y : f32
      memref.store %z, %g[%j, %i] : memref<4x6xf32, strided<[12, 1], offset: ?>>
      %w = arith.addf %z, %x : f32
      memref.store %w, %h[%i, %j] : memref<3x4xf32, strided<[8, 2], offset: ?>>
    }
  }
  return
}
""",
        (
            View(
                "f32",
                64,
                7,
                (4, 3, 2),
                (12, 2, 1),
                "memref<4x3x2xf32, strided<[12, 2, 1], offset: ?>>",
            ),
            View("f32", 30, 3, (12,), (2,), "memref<12xf32, strided<[2], offset: ?>>"),
        ),
    ),
    Case(
        "alloc_alloca_dealloc",
        """
func.func @kernel(%in: memref<?xf32>, %out: memref<?xf32>, %align: memref<4xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  %t = memref.alloc(%n) : memref<?xf32>
  %a64 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
  %s = memref.alloca() : memref<4xf32>
  %sd = memref.alloca(%n) {alignment = 32 : i64} : memref<?xf32>
  %three = arith.constant 3.0 : f32
  scf.for %k = %c0 to %n step %c1 {
    %x = memref.load %in[%k] : memref<?xf32>
    %y = arith.mulf %x, %three : f32
    memref.store %y, %t[%k] : memref<?xf32>
    memref.store %x, %sd[%k] : memref<?xf32>
  }
  scf.for %k = %c0 to %n step %c1 {
    %y = memref.load %t[%k] : memref<?xf32>
    %x = memref.load %sd[%k] : memref<?xf32>
    %z = arith.addf %x, %y : f32
    memref.store %z, %out[%k] : memref<?xf32>
  }
  memref.store %three, %s[%c1] : memref<4xf32>
  %v = memref.load %s[%c1] : memref<4xf32>
  memref.store %v, %a64[%c2] : memref<8xf32>
  %w = memref.load %a64[%c2] : memref<8xf32>
  memref.store %w, %out[%c0] : memref<?xf32>
  %p = "memref.extract_aligned_pointer_as_index"(%a64) : (memref<8xf32>) -> index
  %c64 = arith.constant 64 : index
  %r = arith.remui %p, %c64 : index
  %ri = arith.index_cast %r : index to i64
  memref.store %ri, %align[%c0] : memref<4xi64>
  memref.dealloc %t : memref<?xf32>
  memref.dealloc %a64 : memref<8xf32>
  return
}
""",
        (
            View("f32", 9, 0, (9,), (1,), "memref<?xf32>"),
            View("f32", 9, 0, (9,), (1,), "memref<?xf32>"),
            View("i64", 4, 0, (4,), (1,), "memref<4xi64>"),
        ),
    ),
    Case(
        "globals",
        """
"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<2x3xf32>, initial_value = dense<[[1.5, 2.0, -3.0], [4.0, 0.5, 6.0]]> : tensor<2x3xf32>, constant}> : () -> ()
"memref.global"() <{sym_name = "acc", sym_visibility = "private", type = memref<4xi32>, initial_value}> : () -> ()
"memref.global"() <{sym_name = "scale", sym_visibility = "public", type = memref<f32>, initial_value = dense<2.5> : tensor<f32>, alignment = 16 : i64}> : () -> ()
func.func @kernel(%out: memref<2x3xf32>, %iout: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %t = memref.get_global @table : memref<2x3xf32>
  %sc = memref.get_global @scale : memref<f32>
  %acc = memref.get_global @acc : memref<4xi32>
  %s = memref.load %sc[] : memref<f32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %x = memref.load %t[%i, %j] : memref<2x3xf32>
      %y = memref.load %out[%i, %j] : memref<2x3xf32>
      %z = arith.mulf %x, %s : f32
      %w = arith.addf %z, %y : f32
      memref.store %w, %out[%i, %j] : memref<2x3xf32>
    }
  }
  scf.for %k = %c0 to %c4 step %c1 {
    %x = memref.load %iout[%k] : memref<4xi32>
    memref.store %x, %acc[%k] : memref<4xi32>
  }
  scf.for %k = %c0 to %c4 step %c1 {
    %x = memref.load %acc[%k] : memref<4xi32>
    %y = arith.muli %x, %x : i32
    memref.store %y, %iout[%k] : memref<4xi32>
  }
  return
}
""",
        (
            View("f32", 6, 0, (2, 3), (3, 1), "memref<2x3xf32>"),
            View("i32", 4, 0, (4,), (1,), "memref<4xi32>"),
        ),
    ),
    Case(
        "copies",
        """
func.func @kernel(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<8x8xf32>, %d: memref<4x4xf32, strided<[8, 2], offset: ?>>) {
  "memref.copy"(%a, %b) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %s = memref.subview %c[2, 0][4, 4][1, 2] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 2], offset: 16>>
  "memref.copy"(%s, %d) : (memref<4x4xf32, strided<[8, 2], offset: 16>>, memref<4x4xf32, strided<[8, 2], offset: ?>>) -> ()
  %s2 = memref.subview %c[1, 0][2, 8][1, 1] : memref<8x8xf32> to memref<2x8xf32, strided<[8, 1], offset: 8>>
  %t = memref.alloc() : memref<2x8xf32>
  "memref.copy"(%s2, %t) : (memref<2x8xf32, strided<[8, 1], offset: 8>>, memref<2x8xf32>) -> ()
  %s3 = memref.subview %c[5, 0][2, 8][1, 1] : memref<8x8xf32> to memref<2x8xf32, strided<[8, 1], offset: 40>>
  "memref.copy"(%t, %s3) : (memref<2x8xf32>, memref<2x8xf32, strided<[8, 1], offset: 40>>) -> ()
  memref.dealloc %t : memref<2x8xf32>
  return
}
""",
        (
            View("f32", 12, 0, (3, 4), (4, 1), "memref<?x?xf32>"),
            View("f32", 12, 0, (3, 4), (4, 1), "memref<?x?xf32>"),
            View("f32", 64, 0, (8, 8), (8, 1), "memref<8x8xf32>"),
            View(
                "f32",
                40,
                3,
                (4, 4),
                (8, 2),
                "memref<4x4xf32, strided<[8, 2], offset: ?>>",
            ),
        ),
    ),
    Case(
        "atomic_rmw",
        """
func.func @kernel(%f: memref<8xf32>, %i: memref<10xi32>, %fo: memref<8xf32>, %io: memref<10xi32>, %v: f32, %w: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %f0 = "memref.atomic_rmw"(%v, %f, %c0) <{kind = 0 : i64}> : (f32, memref<8xf32>, index) -> f32
  %f1 = "memref.atomic_rmw"(%v, %f, %c1) <{kind = 4 : i64}> : (f32, memref<8xf32>, index) -> f32
  %f2 = "memref.atomic_rmw"(%v, %f, %c2) <{kind = 8 : i64}> : (f32, memref<8xf32>, index) -> f32
  %f3 = "memref.atomic_rmw"(%v, %f, %c3) <{kind = 5 : i64}> : (f32, memref<8xf32>, index) -> f32
  %f4 = "memref.atomic_rmw"(%v, %f, %c4) <{kind = 9 : i64}> : (f32, memref<8xf32>, index) -> f32
  %f5 = "memref.atomic_rmw"(%v, %f, %c5) <{kind = 3 : i64}> : (f32, memref<8xf32>, index) -> f32
  memref.store %f0, %fo[%c0] : memref<8xf32>
  memref.store %f1, %fo[%c1] : memref<8xf32>
  memref.store %f2, %fo[%c2] : memref<8xf32>
  memref.store %f3, %fo[%c3] : memref<8xf32>
  memref.store %f4, %fo[%c4] : memref<8xf32>
  memref.store %f5, %fo[%c5] : memref<8xf32>
  %i0 = "memref.atomic_rmw"(%w, %i, %c0) <{kind = 1 : i64}> : (i32, memref<10xi32>, index) -> i32
  %i1 = "memref.atomic_rmw"(%w, %i, %c1) <{kind = 2 : i64}> : (i32, memref<10xi32>, index) -> i32
  %i2 = "memref.atomic_rmw"(%w, %i, %c2) <{kind = 6 : i64}> : (i32, memref<10xi32>, index) -> i32
  %i3 = "memref.atomic_rmw"(%w, %i, %c3) <{kind = 7 : i64}> : (i32, memref<10xi32>, index) -> i32
  %i4 = "memref.atomic_rmw"(%w, %i, %c4) <{kind = 10 : i64}> : (i32, memref<10xi32>, index) -> i32
  %i5 = "memref.atomic_rmw"(%w, %i, %c5) <{kind = 11 : i64}> : (i32, memref<10xi32>, index) -> i32
  %i6 = "memref.atomic_rmw"(%w, %i, %c6) <{kind = 14 : i64}> : (i32, memref<10xi32>, index) -> i32
  %i7 = "memref.atomic_rmw"(%w, %i, %c7) <{kind = 15 : i64}> : (i32, memref<10xi32>, index) -> i32
  %i8 = "memref.atomic_rmw"(%w, %i, %c8) <{kind = 3 : i64}> : (i32, memref<10xi32>, index) -> i32
  memref.store %i0, %io[%c0] : memref<10xi32>
  memref.store %i1, %io[%c1] : memref<10xi32>
  memref.store %i2, %io[%c2] : memref<10xi32>
  memref.store %i3, %io[%c3] : memref<10xi32>
  memref.store %i4, %io[%c4] : memref<10xi32>
  memref.store %i5, %io[%c5] : memref<10xi32>
  memref.store %i6, %io[%c6] : memref<10xi32>
  memref.store %i7, %io[%c7] : memref<10xi32>
  memref.store %i8, %io[%c8] : memref<10xi32>
  return
}
""",
        (
            View("f32", 8, 0, (8,), (1,), "memref<8xf32>"),
            View("i32", 10, 0, (10,), (1,), "memref<10xi32>"),
            View("f32", 8, 0, (8,), (1,), "memref<8xf32>"),
            View("i32", 10, 0, (10,), (1,), "memref<10xi32>"),
            Scalar(1.25, "f32"),
            Scalar(-7, "i32"),
        ),
    ),
    Case(
        "view_and_reinterpret_cast",
        """
func.func @kernel(%out: memref<6x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<256xi8>
  %v = memref.view %buf[%c16][%n] : memref<256xi8> to memref<?x4xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %x = memref.load %out[%i, %j] : memref<6x4xf32>
      memref.store %x, %v[%i, %j] : memref<?x4xf32>
    }
  }
  %t = memref.reinterpret_cast %out to offset: [0], sizes: [4, 6], strides: [1, 4] : memref<6x4xf32> to memref<4x6xf32, strided<[1, 4]>>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %x = memref.load %v[%i, %j] : memref<?x4xf32>
      %y = memref.load %t[%j, %i] : memref<4x6xf32, strided<[1, 4]>>
      %z = arith.mulf %x, %y : f32
      %w = arith.addf %z, %x : f32
      memref.store %w, %t[%j, %i] : memref<4x6xf32, strided<[1, 4]>>
    }
  }
  memref.dealloc %buf : memref<256xi8>
  return
}
""",
        (View("f32", 24, 0, (6, 4), (4, 1), "memref<6x4xf32>"), Scalar(6)),
    ),
    Case(
        "metadata_queries",
        """
func.func @kernel(%a: memref<?x?xi64, strided<[?, ?], offset: ?>>, %out: memref<8xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %base, %off, %s:2, %t:2 = memref.extract_strided_metadata %a : memref<?x?xi64, strided<[?, ?], offset: ?>> -> memref<i64>, index, index, index, index, index
  %offi = arith.index_cast %off : index to i64
  %s0 = arith.index_cast %s#0 : index to i64
  %s1 = arith.index_cast %s#1 : index to i64
  %t0 = arith.index_cast %t#0 : index to i64
  %t1 = arith.index_cast %t#1 : index to i64
  memref.store %offi, %out[%c0] : memref<8xi64>
  memref.store %s0, %out[%c1] : memref<8xi64>
  memref.store %s1, %out[%c2] : memref<8xi64>
  memref.store %t0, %out[%c3] : memref<8xi64>
  memref.store %t1, %out[%c4] : memref<8xi64>
  %sub = memref.subview %a[1, 1][1, 1][1, 1] : memref<?x?xi64, strided<[?, ?], offset: ?>> to memref<1x1xi64, strided<[?, ?], offset: ?>>
  %p = "memref.extract_aligned_pointer_as_index"(%a) : (memref<?x?xi64, strided<[?, ?], offset: ?>>) -> index
  %q = "memref.extract_aligned_pointer_as_index"(%sub) : (memref<1x1xi64, strided<[?, ?], offset: ?>>) -> index
  %d = arith.subi %q, %p : index
  %di = arith.index_cast %d : index to i64
  memref.store %di, %out[%c5] : memref<8xi64>
  %x = memref.load %base[] : memref<i64>
  memref.store %x, %out[%c6] : memref<8xi64>
  return
}
""",
        (
            View(
                "i64",
                50,
                6,
                (3, 4),
                (12, 2),
                "memref<?x?xi64, strided<[?, ?], offset: ?>>",
            ),
            View("i64", 8, 0, (8,), (1,), "memref<8xi64>"),
        ),
    ),
    Case(
        "memory_space_cast",
        """
func.func @kernel(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %g = "memref.memory_space_cast"(%a) : (memref<?xf32>) -> memref<?xf32, 1>
  %two = arith.constant 2.0 : f32
  scf.for %k = %c0 to %n step %c1 {
    %x = memref.load %g[%k] : memref<?xf32, 1>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %g[%k] : memref<?xf32, 1>
  }
  %h = "memref.memory_space_cast"(%g) : (memref<?xf32, 1>) -> memref<?xf32>
  %seven = arith.constant 7.0 : f32
  memref.store %seven, %h[%c1] : memref<?xf32>
  return
}
""",
        (View("f32", 6, 0, (6,), (1,), "memref<?xf32>"),),
    ),
    Case(
        "alloca_scope",
        """
func.func @kernel(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = "memref.alloca_scope"() ({
    %t = memref.alloca() : memref<4xf32>
    %x = memref.load %a[%c1] : memref<4xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %t[%c3] : memref<4xf32>
    %z = memref.load %t[%c3] : memref<4xf32>
    "memref.alloca_scope.return"(%z) : (f32) -> ()
  }) : () -> f32
  memref.store %r, %a[%c0] : memref<4xf32>
  "memref.alloca_scope"() ({
    %t = memref.alloca() : memref<2xf32>
    memref.store %r, %t[%c1] : memref<2xf32>
    %z = memref.load %t[%c1] : memref<2xf32>
    %w = arith.mulf %z, %z : f32
    memref.store %w, %a[%c3] : memref<4xf32>
    "memref.alloca_scope.return"() : () -> ()
  }) : () -> ()
  return
}
""",
        (View("f32", 4, 0, (4,), (1,), "memref<4xf32>"),),
    ),
    Case(
        "index_elements_and_zero_rank",
        """
func.func @kernel(%ix: memref<?xindex>, %z: memref<f32, strided<[], offset: ?>>, %m: memref<1x1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %ix, %c0 : memref<?xindex>
  scf.for %k = %c0 to %n step %c1 {
    %x = memref.load %ix[%k] : memref<?xindex>
    %y = arith.muli %x, %k : index
    %w = arith.addi %y, %n : index
    memref.store %w, %ix[%k] : memref<?xindex>
  }
  %zv = memref.load %z[] : memref<f32, strided<[], offset: ?>>
  %m0 = memref.collapse_shape %m [] : memref<1x1xf32> into memref<f32>
  %mv = memref.load %m0[] : memref<f32>
  %s = arith.addf %zv, %mv : f32
  memref.store %s, %z[] : memref<f32, strided<[], offset: ?>>
  %e = memref.expand_shape %m0 [] output_shape [1, 1] : memref<f32> into memref<1x1xf32>
  memref.store %zv, %e[%c0, %c0] : memref<1x1xf32>
  return
}
""",
        (
            View("index", 7, 0, (7,), (1,), "memref<?xindex>"),
            View("f32", 5, 3, (), (), "memref<f32, strided<[], offset: ?>>"),
            View("f32", 1, 0, (1, 1), (1, 1), "memref<1x1xf32>"),
        ),
    ),
    Case(
        "dynamic_subview_everything",
        """
func.func @kernel(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %o0: index, %o1: index, %sz0: index, %sz1: index, %st0: index, %st1: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = memref.subview %a[%o0, %o1][%sz0, %sz1][%st0, %st1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %w = memref.subview %v[1, 0][%sz1, 2][1, %st1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<?x2xf32, strided<[?, ?], offset: ?>>
  scf.for %i = %c0 to %sz0 step %c1 {
    scf.for %j = %c0 to %sz1 step %c1 {
      %x = memref.load %v[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %y = arith.addf %x, %fi : f32
      memref.store %y, %v[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
    }
  }
  %c2 = arith.constant 2 : index
  %l = arith.subi %sz1, %c1 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %w[%l, %c1] : memref<?x2xf32, strided<[?, ?], offset: ?>>
  return
}
""",
        (
            View("f32", 120, 4, (6, 10), (11, 1), F32_2D_DYN),
            Scalar(1),
            Scalar(2),
            Scalar(3),
            Scalar(3),
            Scalar(2),
            Scalar(2),
        ),
    ),
    Case(
        "aligned_alloc_option",
        """
func.func @kernel(%in: memref<?xf64>, %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf64>
  %t = memref.alloc(%n) : memref<?xf64>
  %u = memref.alloc() {alignment = 128 : i64} : memref<3xi32>
  scf.for %k = %c0 to %n step %c1 {
    %x = memref.load %in[%k] : memref<?xf64>
    %y = arith.negf %x : f64
    memref.store %y, %t[%k] : memref<?xf64>
  }
  "memref.copy"(%t, %out) : (memref<?xf64>, memref<?xf64>) -> ()
  memref.dealloc %t : memref<?xf64>
  memref.dealloc %u : memref<3xi32>
  return
}
""",
        (
            View("f64", 5, 0, (5,), (1,), "memref<?xf64>"),
            View("f64", 5, 0, (5,), (1,), "memref<?xf64>"),
        ),
        {"use-aligned-alloc": "true"},
    ),
    Case(
        "index_bitwidth_32",
        """
func.func @kernel(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %sv = memref.subview %a[%i, 1][2, 2][1, 1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    scf.for %c = %c0 to %c2 step %c1 {
      %x = memref.load %sv[%r, %c] : memref<2x2xf32, strided<[?, ?], offset: ?>>
      %y = arith.addf %x, %x : f32
      memref.store %y, %sv[%r, %c] : memref<2x2xf32, strided<[?, ?], offset: ?>>
    }
  }
  %f = memref.collapse_shape %sv [[0, 1]] : memref<2x2xf32, strided<[?, ?], offset: ?>> into memref<4xf32, strided<[?], offset: ?>>
  return
}
""",
        (View("f32", 40, 2, (4, 5), (6, 1), F32_2D_DYN), Scalar(1)),
        {"index-bitwidth": "32"},
    ),
    Case(
        "unranked",
        """
func.func @kernel(%a: memref<?x?xf32>, %out: memref<8xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %u = "memref.cast"(%a) : (memref<?x?xf32>) -> memref<*xf32>
  %u1 = "memref.memory_space_cast"(%u) : (memref<*xf32>) -> memref<*xf32, 1>
  %u2 = "memref.memory_space_cast"(%u1) : (memref<*xf32, 1>) -> memref<*xf32>
  %r = "memref.rank"(%u2) : (memref<*xf32>) -> index
  %d1 = memref.dim %u2, %c1 : memref<*xf32>
  %v = "memref.reinterpret_cast"(%u2, %d1) <{operandSegmentSizes = array<i32: 1, 0, 0, 1>, static_offsets = array<i64: 1>, static_sizes = array<i64: 2, 2>, static_strides = array<i64: -9223372036854775808, 1>}> : (memref<*xf32>, index) -> memref<2x2xf32, strided<[?, 1], offset: 1>>
  %x = memref.load %v[%c1, %c1] : memref<2x2xf32, strided<[?, 1], offset: 1>>
  %y = arith.addf %x, %x : f32
  memref.store %y, %v[%c0, %c1] : memref<2x2xf32, strided<[?, 1], offset: 1>>
  %p = "memref.extract_aligned_pointer_as_index"(%u2) : (memref<*xf32>) -> index
  %q = "memref.extract_aligned_pointer_as_index"(%a) : (memref<?x?xf32>) -> index
  %diff = arith.subi %p, %q : index
  %ri = arith.index_cast %r : index to i64
  %d1i = arith.index_cast %d1 : index to i64
  %diffi = arith.index_cast %diff : index to i64
  memref.store %ri, %out[%c0] : memref<8xi64>
  memref.store %d1i, %out[%c1] : memref<8xi64>
  memref.store %diffi, %out[%c2] : memref<8xi64>
  %t = memref.alloc() : memref<16xf32>
  %tu = "memref.cast"(%t) : (memref<16xf32>) -> memref<*xf32>
  memref.dealloc %tu : memref<*xf32>
  return
}
""",
        (
            View("f32", 12, 0, (3, 4), (4, 1), "memref<?x?xf32>"),
            View("i64", 8, 0, (8,), (1,), "memref<8xi64>"),
        ),
        verify=False,
    ),
    Case(
        "transpose",
        """
func.func @kernel(%m: memref<?x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = "memref.transpose"(%m) <{permutation = affine_map<(d0, d1) -> (d1, d0)>}> : (memref<?x4xf32>) -> memref<4x?xf32, strided<[1, 4]>>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %x = memref.load %t[%i, %j] : memref<4x?xf32, strided<[1, 4]>>
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %y = arith.mulf %x, %fi : f32
      memref.store %y, %t[%i, %j] : memref<4x?xf32, strided<[1, 4]>>
    }
  }
  %same = "memref.transpose"(%m) <{permutation = affine_map<(d0, d1) -> (d0, d1)>}> : (memref<?x4xf32>) -> memref<?x4xf32>
  %half = arith.constant 0.5 : f32
  memref.store %half, %same[%c1, %c0] : memref<?x4xf32>
  return
}
""",
        (View("f32", 12, 0, (3, 4), (4, 1), "memref<?x4xf32>"), Scalar(3)),
        extra_ops=True,
    ),
    Case(
        "generic_atomic_rmw",
        """
func.func @kernel(%i: memref<4xi32>, %w: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %iold = "memref.generic_atomic_rmw"(%i, %c0) ({
  ^bb0(%cur: i32):
    %m = arith.muli %cur, %w : i32
    %s = arith.addi %m, %w : i32
    "memref.atomic_yield"(%s) : (i32) -> ()
  }) : (memref<4xi32>, index) -> i32
  memref.store %iold, %i[%c1] : memref<4xi32>
  return
}
""",
        (View("i32", 4, 0, (4,), (1,), "memref<4xi32>"), Scalar(3, "i32")),
        # mlir-opt 22 lowers generic_atomic_rmw only once its body is llvm ops;
        # ours lowers it whatever its body.
        upstream_pipeline=(
            "expand-strided-metadata",
            "lower-affine",
            "convert-scf-to-cf",
            "convert-arith-to-llvm",
            "finalize-memref-to-llvm",
            "convert-cf-to-llvm",
            "convert-func-to-llvm",
            "reconcile-unrealized-casts",
        ),
        extra_ops=True,
    ),
]


@requires_mlir
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_same_results_as_upstream(case: Case) -> None:
    buffers = inputs(case)
    expected = upstream_results(case, buffers)
    module = lower_ours(case)
    got = run_ours(case, module, buffers)
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        np.testing.assert_array_equal(
            g.view(np.int64 if g.itemsize == 8 else np.int32),
            e.view(np.int64 if e.itemsize == 8 else np.int32),
            err_msg=f"base buffer {i} differs from mlir-runner-22's",
        )


@requires_mlir
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_mlir_translate_accepts_our_output(case: Case) -> None:
    assert MLIR_TRANSLATE is not None
    text = print_module(lower_ours(case))
    _run([MLIR_TRANSLATE, "--mlir-to-llvmir"], text)


def test_generic_atomic_rmw_on_floats() -> None:
    """On floats upstream passes the value to ``cmpxchg`` as is, which LLVM rejects
    (so there is no oracle): ours exchanges the bits; check against NumPy."""
    case = Case(
        "generic_atomic_rmw_f32",
        """
func.func @kernel(%f: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %old = "memref.generic_atomic_rmw"(%f, %c1) ({
  ^bb0(%cur: f32):
    %m = arith.mulf %cur, %v : f32
    %s = arith.addf %m, %v : f32
    "memref.atomic_yield"(%s) : (f32) -> ()
  }) : (memref<4xf32>, index) -> f32
  memref.store %old, %f[%c0] : memref<4xf32>
  return
}
""",
        (View("f32", 4, 0, (4,), (1,), "memref<4xf32>"), Scalar(1.5, "f32")),
        extra_ops=True,
    )
    (data,) = inputs(case)
    (got,) = run_ours(case, lower_ours(case), [data])
    expected = data.copy()
    expected[1] = data[1] * np.float32(1.5) + np.float32(1.5)
    expected[0] = data[1]
    np.testing.assert_array_equal(got, expected)


# --------------------------------------------------------------------------------------
# Failures: one line, exit status 1, no traceback
# --------------------------------------------------------------------------------------

_BAD_INPUTS = {
    "finalize-memref-to-llvm": (
        """
func.func @f(%m: memref<8x16xf32>) -> memref<4x4xf32, strided<[16, 1], offset: 2>> {
  %0 = memref.subview %m[0, 2][4, 4][1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 2>>
  return %0 : memref<4x4xf32, strided<[16, 1], offset: 2>>
}
""",
        "stdin:3:8: error: finalize-memref-to-llvm: 'memref.subview' op in @f "
        "must be "
        "expanded before this pass: run expand-strided-metadata",
    ),
    "expand-strided-metadata": (
        """
func.func @f(%m: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>) -> memref<16xf32> {
  %0 = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>> into memref<16xf32>
  return %0 : memref<16xf32>
}
""",
        "stdin:3:8: error: expand-strided-metadata: 'memref.collapse_shape' op "
        "in @f has "
        "an operand of type memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>> whose "
        "layout is not strided",
    ),
}


@pytest.mark.skipif(shutil.which("xdsl-opt") is None, reason="xdsl-opt not installed")
@pytest.mark.parametrize("pass_name", sorted(_BAD_INPUTS))
def test_command_line_failure_is_one_line(pass_name: str) -> None:
    source, message = _BAD_INPUTS[pass_name]
    done = subprocess.run(
        ["xdsl-opt", "-p", pass_name],
        input=source,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    # The error and the op: the source is stdin, so there is no line to quote.
    error, note = done.stderr.strip().splitlines()
    assert error.startswith(message), done.stderr
    where = message.split(" error: ")[0]
    assert note.startswith(f"{where} note: see current operation: "), note
