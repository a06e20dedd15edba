"""Differential tests of ``gpu-kernel-outlining``, ``gpu-launch-sink-index-computations``
and ``gpu-async-region`` against ``mlir-opt-22``.

Each case runs our passes in-process and upstream's passes in ``mlir-opt-22`` on the
same input; both outputs are then printed again by ``mlir-opt-22`` (so that SSA names
and spacing do not matter) and must be equal line for line. That mlir-opt-22 reads
our output back is part of the check.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass

import pytest
from xdsl.passes import PassPipeline
from xdsl.transforms import get_all_passes as xdsl_passes

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.passes import get_all_passes

MLIR_OPT = shutil.which("mlir-opt-22")

if MLIR_OPT is None and os.environ.get("CI"):
    raise RuntimeError("CI needs mlir-opt-22 (Debian package mlir-22-tools)")

pytestmark = pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")

OUTLINE = ("gpu-kernel-outlining", "builtin.module(gpu-kernel-outlining)")
SINK = (
    "gpu-launch-sink-index-computations",
    "builtin.module(gpu-launch-sink-index-computations)",
)
SINK_OUTLINE = (
    "gpu-launch-sink-index-computations,gpu-kernel-outlining",
    "builtin.module(gpu-launch-sink-index-computations,gpu-kernel-outlining)",
)
ASYNC = ("gpu-async-region", "builtin.module(func.func(gpu-async-region))")
OUTLINE_ASYNC = (
    "gpu-kernel-outlining,gpu-async-region",
    "builtin.module(gpu-kernel-outlining,func.func(gpu-async-region))",
)


@dataclass(frozen=True)
class Case:
    name: str
    source: str
    pipelines: tuple[str, str]
    """(our ``-p`` spec, mlir-opt-22's ``--pass-pipeline``)."""


_LAUNCH_1 = "blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)"

CASES = [
    Case(
        "seed_001_printf",
        """
func.func @main() {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  gpu.launch
    blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1)
    threads(%6, %7, %8) in (%9 = %c2, %10 = %c1, %11 = %c1) {
    gpu.printf "Hello from %d\\n", %6 : index
    gpu.terminator
  }
  return
}
""",
        OUTLINE,
    ),
    Case(
        "memrefs_constants_three_launches_and_a_second_function",
        """
func.func @main(%m: memref<?xf32>, %f: f32) {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %d = memref.dim %m, %c0 : memref<?xf32>
  gpu.launch blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1) threads(%6, %7, %8) in (%9 = %c2, %10 = %c1, %11 = %c1) {
    %x = arith.addi %d, %c2 : index
    %y = arith.addi %x, %9 : index
    memref.store %f, %m[%y] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%0, %1, %2) in (%3 = %d, %4 = %c1, %5 = %c1) threads(%6, %7, %8) in (%9 = %c2, %10 = %c1, %11 = %c1) {
    memref.store %f, %m[%0] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1) threads(%6, %7, %8) in (%9 = %c2, %10 = %c1, %11 = %c1) {
    gpu.terminator
  }
  return
}
func.func @g() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1) threads(%6, %7, %8) in (%9 = %c1, %10 = %c1, %11 = %c1) {
    gpu.terminator
  }
  gpu.launch blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1) threads(%6, %7, %8) in (%9 = %c1, %10 = %c1, %11 = %c1) {
    gpu.terminator
  }
  return
}
func.func @main_kernel_0() {
  return
}
""",
        OUTLINE,
    ),
    Case(
        "nested_regions_and_captured_loop_values",
        """
func.func @nested(%m: memref<?x?xf32>, %n: index, %f: f32, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c4, %sz = %c1) {
      scf.if %flag {
        scf.for %j = %c0 to %n step %c4 {
          memref.store %f, %m[%i, %j] : memref<?x?xf32>
        }
      }
      %v = memref.load %m[%tx, %ty] : memref<?x?xf32>
      %w = arith.addf %v, %f : f32
      memref.store %w, %m[%bx, %i] : memref<?x?xf32>
      gpu.terminator
    }
  }
  return
}
""",
        OUTLINE,
    ),
    Case(
        "several_blocks",
        """
func.func @blocks(%m: memref<8xi32>, %k: i32) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %small = arith.cmpi ult, %tx, %sx : index
    cf.cond_br %small, ^then(%k : i32), ^done
  ^then(%v: i32):
    memref.store %v, %m[%tx] : memref<8xi32>
    cf.br ^done
  ^done:
    gpu.terminator
  }
  return
}
""",
        OUTLINE,
    ),
    Case(
        "async_dependencies_token_and_dynamic_shared_memory",
        """
func.func @async_launch(%m: memref<16xf32>, %t0: !gpu.async.token, %smem: i32) {
  %c1 = arith.constant 1 : index
  %t = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) dynamic_shared_memory_size %smem {
    %f = memref.load %m[%tx] : memref<16xf32>
    memref.store %f, %m[%bx] : memref<16xf32>
    gpu.terminator
  }
  %u = gpu.launch async blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  gpu.wait [%t, %u]
  return
}
""",
        OUTLINE,
    ),
    Case(
        "module_and_function_overrides",
        """
gpu.module @existing {
  gpu.func @k() kernel {
    gpu.return
  }
}
func.func @helper(%x: index) -> index {
  return %x : index
}
func.func @f(%m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) module(@existing) function(@k) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) module(@mine) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) function(@named) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) module(@helper) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) module(@existing) function(@extra) {
    gpu.terminator
  }
  return
}
""",
        OUTLINE,
    ),
    Case(
        "referenced_functions_and_globals_are_copied",
        """
"memref.global"() <{constant, initial_value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>, sym_name = "table", sym_visibility = "private", type = memref<4xf32>}> : () -> ()
func.func private @leaf(%x: f32) -> f32
func.func @middle(%x: f32) -> f32 {
  %y = func.call @leaf(%x) : (f32) -> f32
  return %y : f32
}
func.func @unused() {
  return
}
func.func @calls(%m: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %g = memref.get_global @table : memref<4xf32>
    %v = memref.load %g[%tx] : memref<4xf32>
    %w = func.call @middle(%v) : (f32) -> f32
    memref.store %w, %m[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}
""",
        OUTLINE,
    ),
    Case(
        "clusters_and_attributions",
        """
func.func @cluster(%m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c2, %ncy = %c1, %ncz = %c1) blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1)
      workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>, %w2 : memref<4xi32, #gpu.address_space<workgroup>>)
      private(%p : memref<1xf32, #gpu.address_space<private>>) {
    %i = arith.addi %cx, %ncx : index
    %v = memref.load %w[%i] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %v, %p[%ty] : memref<1xf32, #gpu.address_space<private>>
    memref.store %v, %m[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}
""",
        OUTLINE,
    ),
    Case(
        "known_sizes_only_when_constant_and_small",
        """
func.func @sizes(%n: index) {
  %c1 = arith.constant 1 : index
  %big = arith.constant 4294967296 : index
  %max = arith.constant 4294967295 : index
  %neg = arith.constant -1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %big, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %max, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %neg, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
""",
        OUTLINE,
    ),
    Case(
        "no_launch_leaves_the_module_alone",
        """
func.func @host(%x: index) -> index {
  return %x : index
}
""",
        OUTLINE,
    ),
    Case(
        "data_layout_string",
        f"""
func.func @dl() {{
  %c1 = arith.constant 1 : index
  gpu.launch {_LAUNCH_1} {{
    gpu.terminator
  }}
  return
}}
""",
        (
            'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<index = 32 : i64>"}',
            'builtin.module(gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<index = 32 : i64>"})',
        ),
    ),
    Case(
        "data_layout_string_old_entry_syntax",
        f"""
func.func @dl() {{
  %c1 = arith.constant 1 : index
  gpu.launch {_LAUNCH_1} {{
    gpu.terminator
  }}
  return
}}
""",
        (
            'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<#dlti.dl_entry<index, 32 : i64>, #dlti.dl_entry<i64, dense<[64, 64]> : vector<2xi64>>>"}',
            'builtin.module(gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<#dlti.dl_entry<index, 32 : i64>, #dlti.dl_entry<i64, dense<[64, 64]> : vector<2xi64>>>"})',
        ),
    ),
    # gpu-launch-sink-index-computations ------------------------------------------
    Case(
        "sink_constants_dims_selects_and_partial_chains",
        """
func.func @f(%m: memref<?xf32>, %n: memref<?x?xf32>, %f: f32, %i: index) {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %d = memref.dim %m, %c0 : memref<?xf32>
  %e = memref.dim %n, %c1 : memref<?x?xf32>
  %cmp = arith.cmpi slt, %d, %i : index
  %sel = arith.select %cmp, %d, %c2 : index
  %add = arith.addi %c2, %c1 : index
  %cf = arith.constant 1.0 : f32
  gpu.launch blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1) threads(%6, %7, %8) in (%9 = %c2, %10 = %c1, %11 = %c1) {
    %x = arith.addi %sel, %c2 : index
    %y = arith.addi %e, %add : index
    scf.for %k = %c0 to %x step %c1 {
      memref.store %cf, %m[%k] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}
""",
        SINK,
    ),
    Case(
        "sink_select_when_its_inputs_are_available",
        """
func.func @g(%m: memref<?xf32>, %b: i1, %i: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %d = memref.dim %m, %c0 : memref<?xf32>
  %cmp = arith.cmpi ult, %d, %c1 : index
  %sel = arith.select %cmp, %d, %c1 : index
  %other = arith.select %b, %i, %c0 : index
  gpu.launch blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1) threads(%6, %7, %8) in (%9 = %c1, %10 = %c1, %11 = %c1) {
    %v = arith.addi %sel, %other : index
    %z = memref.load %m[%v] : memref<?xf32>
    memref.store %z, %m[%i] : memref<?xf32>
    gpu.terminator
  }
  return
}
""",
        SINK,
    ),
    Case(
        "sink_then_outline",
        """
func.func @main(%m: memref<?xf32>, %f: f32) {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %d = memref.dim %m, %c0 : memref<?xf32>
  gpu.launch blocks(%0, %1, %2) in (%3 = %c1, %4 = %c1, %5 = %c1) threads(%6, %7, %8) in (%9 = %c2, %10 = %c1, %11 = %c1) {
    %x = arith.addi %d, %c2 : index
    memref.store %f, %m[%x] : memref<?xf32>
    gpu.terminator
  }
  return
}
""",
        SINK_OUTLINE,
    ),
    # gpu-async-region ------------------------------------------------------------
    Case(
        "async_chain_host_syncs_and_loops",
        """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @ext()
  func.func @f(%h: memref<16xf32>, %c1: index, %n: index) {
    %d = gpu.alloc () : memref<16xf32>
    gpu.memcpy %d, %h : memref<16xf32>, memref<16xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32>)
    %x = arith.addi %c1, %c1 : index
    func.call @ext() : () -> ()
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32>)
    %v = memref.load %h[%c1] : memref<16xf32>
    scf.for %i = %c1 to %n step %c1 {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<16xf32>)
    }
    %t = gpu.wait async
    %t2 = gpu.memset async [%t] %d, %v : memref<16xf32>, f32
    gpu.memset %d, %v : memref<16xf32>, f32
    gpu.wait
    gpu.dealloc %d : memref<16xf32>
    return
  }
}
""",
        ASYNC,
    ),
    Case(
        "async_blocks_branches_and_pure_ops",
        """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @g(%n: index, %b: i1, %h: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %d = gpu.alloc (%n) : memref<?xf32>
    %dim = memref.dim %d, %c0 : memref<?xf32>
    %sub = memref.subview %d[0] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1]>>
    scf.if %b {
      gpu.memcpy %d, %h : memref<?xf32>, memref<?xf32>
    } else {
      gpu.launch_func @kernels::@k blocks in (%dim, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<?xf32>)
    }
    cf.br ^next
  ^next:
    gpu.launch_func @kernels::@k blocks in (%dim, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<?xf32>)
    %t = gpu.wait async
    gpu.wait [%t]
    gpu.dealloc %d : memref<?xf32>
    return
  }
}
""",
        ASYNC,
    ),
    Case(
        "outline_then_async_region",
        """
func.func @main(%h: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %d = gpu.alloc () : memref<16xf32>
  gpu.memcpy %d, %h : memref<16xf32>, memref<16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %v = memref.load %d[%tx] : memref<16xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %d[%tx] : memref<16xf32>
    gpu.terminator
  }
  gpu.memcpy %h, %d : memref<16xf32>, memref<16xf32>
  gpu.dealloc %d : memref<16xf32>
  return
}
""",
        OUTLINE_ASYNC,
    ),
]


def mlir_opt(text: str, *args: str) -> str:
    assert MLIR_OPT is not None
    done = subprocess.run(
        [MLIR_OPT, *args], input=text, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"mlir-opt-22 {' '.join(args)} failed:\n{done.stderr}"
    return done.stdout


def ours(case: Case) -> str:
    module = parse(case.source)
    available = {**xdsl_passes(), **get_all_passes()}
    PassPipeline.parse_spec(available, case.pipelines[0]).apply(make_context(), module)
    module.verify()
    return print_module(module)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_same_as_mlir_opt(case: Case) -> None:
    theirs = mlir_opt(case.source, f"--pass-pipeline={case.pipelines[1]}")
    expected = mlir_opt(theirs)
    actual = mlir_opt(ours(case))
    assert actual == expected


def test_cases_change_something() -> None:
    """Each case (but the one meant to be a no-op) is transformed, so that an
    equality cannot come from both tools doing nothing."""
    for case in CASES:
        before = mlir_opt(case.source)
        after = mlir_opt(ours(case))
        if case.name == "no_launch_leaves_the_module_alone":
            assert after == before
        else:
            assert after != before, case.name


def test_host_shared_alloc_stays_sync() -> None:
    """Deliberately unlike mlir-opt 22, whose async host-shared allocation
    gpu-to-llvm then rejects: the allocation stays synchronous and off the chain."""
    source = """
func.func @f(%n: index) {
  %s = gpu.alloc host_shared (%n) : memref<?xf32>
  %d = gpu.alloc (%n) : memref<?xf32>
  gpu.dealloc %d : memref<?xf32>
  return
}
"""
    case = Case("host_shared", source, ASYNC)
    out = ours(case)
    assert "gpu.alloc host_shared" in out
    assert "gpu.alloc async" in out
    theirs = mlir_opt(source, f"--pass-pipeline={ASYNC[1]}")
    assert "gpu.alloc async [%0] host_shared" in theirs
