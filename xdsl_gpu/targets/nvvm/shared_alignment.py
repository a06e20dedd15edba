"""Alignment of the shared-memory variables in PTX that nvJitLink assembles.

A PTX ``.shared`` declaration promises only the alignment it names, and LLVM names
the element's (``.shared .align 4 .b8 tile[2048];`` for ``memref<64x8xf32, 3>``).
Bulk tensor copies (TMA, ``cp.async.bulk.tensor``) need a 128-byte aligned
destination, and a 128-byte swizzle or a ``wgmma`` descriptor assumes 1024 bytes.

``ptxas`` (what ``mlir-opt`` runs) lays a kernel's shared variables out in the order
they are declared, starting at the reserved 1 KiB, so large tiles declared before
the small ones happen to land on 1024-byte boundaries. nvJitLink links: its layout
sorts the variables by declared alignment, so an 8-byte mbarrier declared after two
4-byte-aligned tiles comes first and pushes them to offsets like 0x408
(``CUDA_ERROR_MISALIGNED_ADDRESS`` at the first TMA load). Measured on an H200 with
CUDA 13's nvJitLink: tiles at 0x408/0xc08 from nvJitLink, 0x400/0xc00 from ptxas;
with the alignment below, nvJitLink gives 0x400/0xc00 too.

So before nvJitLink sees the PTX, each shared variable of known size gets at least
the largest power of two not above its size, up to 1024 bytes (an 8-byte mbarrier
stays at 8, a 2 KiB tile gets 1024). The linker then sorts the large tiles first and
the padding stays small.

A variable smaller than its declared alignment is LLVM's one-byte stand-in for a
zero-length array (``memref.global "private" @dynamicShmem : memref<0xf16, 3>
{alignment = 16}`` gives ``.shared .align 16 .b8 dynamicShmem;``). Upstream's sm90
GEMMs use such a variable as a handle on the start of shared memory and load 64 KiB
of TMA tiles from it; declared first, ptxas puts it at 0x400, while nvJitLink put a
16-byte mbarrier group first and the tiles at 0x410 (misaligned). Such a stand-in
gets 1024 bytes, so it lands on a 1024-byte boundary too (measured: upstream's
``gemm_f32_f16_f16_128x128x128`` through our pipeline, 16384 of 16384 results
right on the H200). ``.extern`` (dynamic) shared memory has no size here and is
left alone. Only the assembler's input changes: the PTX that ``format=isa`` prints
and the fatbin carries (JIT-compiled by the driver, which lays out like ``ptxas``)
stay what LLVM emitted.
"""

from __future__ import annotations

import re

MAX_ALIGNMENT = 1024
"""The alignment a 128-byte-swizzled TMA tile or a wgmma operand needs."""

_TYPE_BYTES = {"8": 1, "16": 2, "32": 4, "64": 8, "128": 16}

_DECLARATION = re.compile(
    r"^(?P<lead>[ \t]*(?:\.(?:visible|weak|common)[ \t]+)?\.shared[ \t]+)"
    r"\.align[ \t]+(?P<align>\d+)"
    r"(?P<rest>[ \t]+(?:\.v(?P<lanes>[248])[ \t]*)?\.[bsuf](?P<bits>8|16|32|64|128)"
    r"[ \t]+[\w$%.]+(?P<dims>(?:\[\d+\])*)[ \t]*;)",
    re.MULTILINE,
)


def wanted_alignment(size: int, declared: int) -> int:
    """The alignment a shared variable of ``size`` bytes gets (never less than
    ``declared``)."""
    if size <= 0:
        return declared
    if size < declared:  # a zero-length array's stand-in (module docstring)
        return max(declared, MAX_ALIGNMENT)
    natural = 1 << (min(size, MAX_ALIGNMENT).bit_length() - 1)
    return max(declared, natural)


def _size(match: re.Match[str]) -> int:
    count = int(match.group("lanes") or 1) * _TYPE_BYTES[match.group("bits")]
    for dim in re.findall(r"\d+", match.group("dims")):
        count *= int(dim)
    return count


def align_shared_variables(ptx: str) -> str:
    """``ptx`` with every sized ``.shared`` declaration aligned as
    :func:`wanted_alignment` says; everything else unchanged."""

    def widen(match: re.Match[str]) -> str:
        declared = int(match.group("align"))
        alignment = wanted_alignment(_size(match), declared)
        return f"{match.group('lead')}.align {alignment}{match.group('rest')}"

    return _DECLARATION.sub(widen, ptx)
