"""What the differential tests against mlir-opt-22 share: running it, the cases of a
split lit file, and the PTX of a lowered program compared instruction by instruction."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

MLIR_OPT = shutil.which("mlir-opt-22")


def mlir_opt(text: str, *args: str) -> str:
    """mlir-opt-22's output for ``text`` (the test fails if mlir-opt-22 does)."""
    assert MLIR_OPT is not None
    done = subprocess.run(
        [MLIR_OPT, *args], input=text, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def split_cases(path: Path) -> list[str]:
    """The chunks of a ``// -----`` split file that define a function."""
    return [c for c in path.read_text().split("// -----") if "func.func" in c]


def case_id(case: str) -> str:
    found = re.search(r"func\.func @(\w+)", case)
    assert found is not None
    return found.group(1)


def ptx_of(lowered: str) -> str:
    """The PTX text in the ``gpu.binary`` of a program lowered with
    ``cubin-format=isa``, unescaped."""
    found = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', lowered)
    assert found is not None, "no PTX in the gpu.binary"
    return re.sub(
        r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), found.group(1)
    )


def ptx_instructions(ptx: str) -> tuple[list[str], list[str]]:
    """The PTX's lines in order (comments and blank lines dropped), and its
    declarations of shared buffers sorted (their order may differ)."""
    kept: list[str] = []
    shared: list[str] = []
    for line in ptx.splitlines():
        line = line.split("//", 1)[0].strip()
        if not line:
            continue
        (shared if line.startswith(".shared") else kept).append(line)
    return kept, sorted(shared)


DYNAMIC_SHMEM = "__dynamic_shmem__0"


def split_dynamic_shmem(ptx: str) -> tuple[str, list[str]]:
    """``ptx`` without the lines that declare ``gpu.dynamic_shared_memory``'s
    symbol (and the ``// demoted variable`` comment of MLIR 22's), and those lines.
    The one documented difference from mlir-opt-22's PTX: ours is ``.extern``
    dynamic shared memory aligned to 1024, MLIR 22's a static byte (the IR is the
    same; our NVVM serializer declares it so, docs/beyond-mlir.md)."""
    lines = ptx.splitlines()
    kept: list[str] = []
    declarations: list[str] = []
    for i, line in enumerate(lines):
        text = line.strip()
        if DYNAMIC_SHMEM in text and (
            text.startswith((".shared", ".extern")) or "demoted" in text
        ):
            declarations.append(line.strip())
        elif not (
            line.strip() == "// demoted variable"
            and i + 1 < len(lines)
            and DYNAMIC_SHMEM in lines[i + 1]
        ):
            kept.append(line)
    return "\n".join(kept), declarations


def compare_ptx(ours: str, upstream: str) -> str:
    """How our PTX compares with MLIR 22's, in words for a benchmark's report: ours
    declares the dynamic shared memory ``.extern`` aligned to 1024 where MLIR 22's is
    a 16-byte aligned static variable (docs/beyond-mlir.md); everything else is
    expected to be the same."""
    if ours == upstream:
        return "identical to"
    if split_dynamic_shmem(ours)[0] == split_dynamic_shmem(upstream)[0]:
        return "identical, but for the dynamic shared memory declaration, to"
    return "DIFFERENT from"
