"""``gpu-lower-to-nvvm-pipeline`` skips a step that converts one dialect only
(``DIALECT_PASSES``) when no op of that dialect can exist, and convert-gpu-to-nvvm
takes no vector patterns then: neither imports the vector dialect for a program
without vector ops (``passes/dialect_presence.py``), nor convert-nvgpu-to-nvvm the
nvgpu dialect and its patterns for one without nvgpu ops; a program with math,
index, vector and nvgpu ops is lowered completely."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PIPELINE = "gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=isa}"

WITH_DIALECTS = """
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    gpu.func @f(%m: memref<4xf32>, %i: index) kernel {
      %x = memref.load %m[%i] : memref<4xf32>
      %s = math.sqrt %x : f32
      %j = index.add %i, %i
      %v = vector.broadcast %s : f32 to vector<4xf32>
      %r = nvgpu.rcp %v {rounding = approx, ftz} : vector<4xf32>
      %e = vector.extract %r[0] : f32 from vector<4xf32>
      memref.store %e, %m[%j] : memref<4xf32>
      gpu.return
    }
  }
}
"""

_PROBE = """
import sys
from xdsl.tools.xdsl_opt import main
sys.argv = ["xdsl-opt", sys.argv[1], "-p", sys.argv[2], "-o", sys.argv[3]]
try:
    main()
finally:
    loaded = [m for m in ("xdsl_gpu.passes.convert_vector_to_scf",
                          "xdsl_gpu.passes.convert_vector_to_llvm",
                          "xdsl_gpu.gpu_dialect.vector", "xdsl.dialects.vector",
                          "xdsl_gpu.gpu_dialect.nvgpu",
                          "xdsl_gpu.passes.nvgpu_to_nvvm_patterns.ampere")
              if m in sys.modules]
    print("LOADED:" + " ".join(loaded), file=sys.stderr)
"""


def _loaded_modules(path: Path) -> list[str]:
    output = path.with_suffix(".out.mlir")
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path), PIPELINE, str(output)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("LOADED:")]
    return line.removeprefix("LOADED:").split()


def test_seed_002_needs_no_vector_pass(tmp_path: Path) -> None:
    seed = tmp_path / "matmul.mlir"
    seed.write_text((ROOT / "examples" / "async_matmul" / "matmul.mlir").read_text())
    assert _loaded_modules(seed) == []


def test_the_steps_run_when_their_dialect_is_used(tmp_path: Path) -> None:
    source = tmp_path / "k.mlir"
    source.write_text(WITH_DIALECTS)
    loaded = _loaded_modules(source)
    assert "xdsl_gpu.passes.convert_vector_to_llvm" in loaded
    assert "xdsl_gpu.passes.nvgpu_to_nvvm_patterns.ampere" in loaded
    done = subprocess.run(
        ["xdsl-opt", str(source), "-p", PIPELINE],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "math." not in done.stdout
    assert "index.add" not in done.stdout
    assert "nvgpu." not in done.stdout
    assert "sqrt.approx" in done.stdout or "sqrt.rn" in done.stdout
