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

A zero-length array (dynamic shared memory) is an ``.extern`` declaration without a
size by the time PTX is assembled (``dynamic_shared_memory.py``) and is left alone.
Only the assembler's input changes: the PTX that ``format=isa`` prints and the
fatbin carries (JIT-compiled by the driver, which lays out like ``ptxas``) stay what
LLVM emitted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

MAX_ALIGNMENT = 1024
"""The alignment a 128-byte-swizzled TMA tile or a wgmma operand needs."""

_TYPE_BYTES = {"8": 1, "16": 2, "32": 4, "64": 8, "128": 16}

_DECLARATION = re.compile(
    r"^(?P<lead>[ \t]*(?:\.(?P<linkage>visible|weak|common|extern)[ \t]+)?"
    r"\.shared[ \t]+)\.align[ \t]+(?P<align>\d+)"
    r"(?P<rest>[ \t]+(?:\.v(?P<lanes>[248])[ \t]*)?\.[bsuf](?P<bits>8|16|32|64|128)"
    r"[ \t]+(?P<name>[\w$%.]+)(?P<dims>(?:\[\d*\])*)[ \t]*;)",
    re.MULTILINE,
)


def wanted_alignment(size: int, declared: int) -> int:
    """The alignment a shared variable of ``size`` bytes gets (never less than
    ``declared``)."""
    if size <= 0:
        return declared
    natural = 1 << (min(size, MAX_ALIGNMENT).bit_length() - 1)
    return max(declared, natural)


def _size(match: re.Match[str]) -> int:
    count = int(match.group("lanes") or 1) * _TYPE_BYTES[match.group("bits")]
    for dim in re.findall(r"\d+", match.group("dims")):
        count *= int(dim)
    return count


@dataclass(frozen=True)
class SharedDeclaration:
    """One ``.shared`` variable declared in PTX, and where its text is."""

    lead: str
    """What precedes ``.align``: indentation, linkage, ``.shared``."""
    name: str
    alignment: int
    size: int
    """In bytes; 0 for ``.extern`` (dynamic) memory."""
    external: bool
    start: int
    end: int


def shared_declarations(ptx: str) -> Iterator[SharedDeclaration]:
    """The ``.shared`` declarations of ``ptx`` that name an alignment, in order."""
    for match in _DECLARATION.finditer(ptx):
        external = match.group("linkage") == "extern" or "[]" in match.group("dims")
        yield SharedDeclaration(
            match.group("lead"),
            match.group("name"),
            int(match.group("align")),
            0 if external else _size(match),
            external,
            match.start(),
            match.end(),
        )


def align_shared_variables(ptx: str) -> str:
    """``ptx`` with every sized ``.shared`` declaration aligned as
    :func:`wanted_alignment` says; everything else unchanged."""

    def widen(match: re.Match[str]) -> str:
        if match.group("linkage") == "extern" or "[]" in match.group("dims"):
            return match.group(0)
        declared = int(match.group("align"))
        alignment = wanted_alignment(_size(match), declared)
        return f"{match.group('lead')}.align {alignment}{match.group('rest')}"

    return _DECLARATION.sub(widen, ptx)
