"""An illegal address on a GPU that cannot reach pageable host memory says what the
likely cause is: a kernel using host memory that nobody registered.

MLIR's ``TensorCore/wmma-matmul-f64.mlir`` (before its ``sm80/`` copy) registers
three of its four host buffers and stores into the fourth: it runs where the GPU
reaches pageable memory (HMM) and stops with ``CUDA_ERROR_ILLEGAL_ADDRESS`` on the
H200 here (``CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS`` is 0), with upstream's
runtime. Ours gives such programs mapped host memory for their own allocations
(``host_memory.py``), so the note is left for memory passed in from outside.
Without a GPU: when the note is added. On the GPU (marker ``gpu``): the program
that stored into unregistered memory runs, by ``xdsl-gpu-run``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from xdsl_gpu.targets.runtime.runtime import HOST_MEMORY_NOTE, access_note

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("error", "pageable", "noted"),
    [
        ("CUDA_ERROR_ILLEGAL_ADDRESS", False, True),
        ("CUDA_ERROR_ILLEGAL_ADDRESS", True, False),
        ("CUDA_ERROR_MISALIGNED_ADDRESS", False, False),
        ("CUDA_ERROR_LAUNCH_FAILED", False, False),
    ],
)
def test_when_the_note_is_added(error: str, pageable: bool, noted: bool) -> None:
    assert (access_note(error, pageable) == HOST_MEMORY_NOTE) is noted
    assert noted or access_note(error, pageable) == ""


# Host memory from memref.alloc, written by a kernel, never registered; next to it a
# buffer the program registers (and unregisters), which the kernel reads.
_UNREGISTERED = """
module attributes {gpu.container_module} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant 1.0 : f32
    %host = memref.alloc() : memref<32xf32>
    %ones = memref.alloc() : memref<1xf32>
    memref.store %one, %ones[%c0] : memref<1xf32>
    %r = memref.cast %ones : memref<1xf32> to memref<*xf32>
    gpu.host_register %r : memref<*xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %v = memref.load %ones[%k0] : memref<1xf32>
      memref.store %v, %host[%tx] : memref<32xf32>
      gpu.terminator
    }
    gpu.host_unregister %r : memref<*xf32>
    %p = memref.cast %host : memref<32xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
"""


@pytest.mark.gpu
def test_unregistered_host_memory_of_the_program_in_a_kernel(tmp_path: Path) -> None:
    program = tmp_path / "unregistered.mlir"
    program.write_text(_UNREGISTERED)
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "xdsl_gpu.driver.gpu_run", str(program), "-e", "main",
         "--entry-point-result=void"],
        capture_output=True, text=True, timeout=300, check=False,
        env=dict(os.environ, PYTHONPATH=path), cwd=ROOT,
    )  # fmt: skip
    # Where the GPU cannot reach pageable memory, the program's own allocations are
    # mapped host memory (host_memory.py): it runs either way.
    assert done.returncode == 0, done.stderr
    assert "sizes = [32]" in done.stdout
    assert "[" + ",  ".join(["1"] * 32) + "]" in done.stdout
