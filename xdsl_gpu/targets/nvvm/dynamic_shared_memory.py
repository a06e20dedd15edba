"""Dynamic shared memory in the PTX of a ``gpu.module``.

A zero-length array in shared memory (``gpu.dynamic_shared_memory``'s
``@__dynamic_shmem__0``, a ``memref.global`` of ``memref<0xf16, 3>``) stands for the
block's dynamic shared memory: the program indexes past its end into what the
launch's ``dynamic_shared_memory_size`` gave. Upstream's sm90 GEMM takes two such
globals and ``gpu.dynamic_shared_memory`` as the same bytes (TMA writes the tiles
through one, ``wgmma`` descriptors read them through the other). Two things stand
between that and PTX that runs:

* LLVM's NVPTX back end (the one llvmlite carries) makes an ``internal`` or
  ``private`` zero-length shared array a one-byte *static* variable, which the other
  static shared variables follow: the dynamic memory overlaps them. PTX's dynamic
  shared memory is an ``.extern .shared`` array, so
  :func:`declare_dynamic_shared_memory` makes each zero-length shared array of the
  LLVM IR one external declaration (all of them one symbol, as CUDA's
  ``extern __shared__`` arrays are one address, and so that LLVM cannot take two of
  them for distinct objects).
* TMA with a 128-byte swizzle and ``wgmma`` descriptors need tiles on 1024-byte
  boundaries; dynamic shared memory starts right after the static variables. The
  PTX declaration asks for 1024 bytes (:data:`DYNAMIC_ALIGNMENT`,
  :func:`align_dynamic_shared_memory`), which ``ptxas`` honours (measured on an
  H200: ``.extern .shared .align 1024`` after a 16-byte mbarrier starts at 0x800,
  with ``.align 16`` at 0x410; the driver's JIT, for the fatbin's PTX, was not
  measured). nvJitLink of CUDA 13.0 does not (0x410 for both; the cubin of 13.5's
  has a 1024-aligned section, not run on a GPU), so
  :func:`pad_static_shared_memory` grows a static variable of each kernel whose
  static shared memory, as the linked cubin gives it, does not end on that
  boundary, and the PTX is linked again (measured: a 16-byte mbarrier grown to
  1024 bytes puts dynamic memory at 0x800 with both).
"""

from __future__ import annotations

import re
import struct

from xdsl_gpu.targets.nvvm.shared_alignment import (
    SharedDeclaration,
    shared_declarations,
)

DYNAMIC_ALIGNMENT = 1024
"""Where dynamic shared memory starts: a 128-byte-swizzled TMA tile's alignment."""

_ZERO_LENGTH_SHARED = re.compile(
    r"^(?P<name>@(?:[-\w.$]+|\"[^\"]*\")) = (?P<words>[^\n]*?)addrspace\(3\) "
    r"(?P<kind>global|constant) (?P<type>\[0 x [^\]\n]+\])"
    r"(?P<init>[^,\n]*)(?P<rest>[^\n]*)$",
    re.MULTILINE,
)
_LINKAGES = {
    "private",
    "internal",
    "available_externally",
    "linkonce",
    "weak",
    "common",
    "appending",
    "extern_weak",
    "linkonce_odr",
    "weak_odr",
    "external",
}


def declare_dynamic_shared_memory(ir_text: str) -> str:
    """``ir_text`` with its zero-length shared arrays made one external declaration
    (the first one's name, the others' uses renamed to it; the largest alignment
    any of them asks for). Unchanged when there is none."""
    found = list(_ZERO_LENGTH_SHARED.finditer(ir_text))
    if not found:
        return ir_text
    first = found[0]
    alignment = 1
    for match in found:
        if align := re.search(r", align (\d+)", match.group("rest")):
            alignment = max(alignment, int(align.group(1)))
    words = [w for w in first.group("words").split() if w not in _LINKAGES]
    declaration = " ".join(
        [first.group("name"), "=", "external", *words, "addrspace(3) global"]
    )
    declaration += f" {first.group('type')}, align {alignment}"
    pieces: list[str] = []
    end = 0
    for match in found:
        pieces.append(ir_text[end : match.start()])
        pieces.append(declaration if match is first else "")
        end = match.end()
        if match is not first and ir_text.startswith("\n", end):
            end += 1  # the whole line goes
    pieces.append(ir_text[end:])
    text = "".join(pieces)
    for match in found[1:]:
        name = re.escape(match.group("name"))
        text = re.sub(rf"{name}(?![-\w.$])", lambda _: first.group("name"), text)
    return text


_EXTERN_SHARED = re.compile(
    r"^(?P<lead>[ \t]*\.extern[ \t]+\.shared[ \t]+\.align[ \t]+)(?P<align>\d+)", re.M
)


def align_dynamic_shared_memory(ptx: str) -> str:
    """``ptx`` with its ``.extern .shared`` arrays aligned to at least
    :data:`DYNAMIC_ALIGNMENT`. Done on the PTX, not the LLVM IR: LLVM would use the
    larger alignment to fold address arithmetic (a kernel that rounds the dynamic
    memory's address up itself), and the PTX would no longer be mlir-opt's."""

    def widen(match: re.Match[str]) -> str:
        alignment = max(int(match.group("align")), DYNAMIC_ALIGNMENT)
        return f"{match.group('lead')}{alignment}"

    return _EXTERN_SHARED.sub(widen, ptx)


def static_shared_sizes(cubin: bytes) -> dict[str, int]:
    """Each kernel's static shared memory in a cubin (a 64-bit little-endian ELF),
    as the size of its ``.nv.shared.<kernel>`` section: the reserved 1 KiB and the
    kernel's variables as the linker laid them out. Kernels without static shared
    memory are absent."""
    if len(cubin) < 0x40 or cubin[:4] != b"\x7fELF" or cubin[4:6] != b"\x02\x01":
        return {}
    (shoff,) = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    headers = [
        struct.unpack_from("<IIQQQQ", cubin, shoff + i * shentsize)
        for i in range(shnum)
    ]
    names = headers[shstrndx][4]
    sizes: dict[str, int] = {}
    for header in headers:
        start = names + header[0]
        name = cubin[start : cubin.index(b"\0", start)].decode(errors="replace")
        if name.startswith(".nv.shared.") and not name.startswith(
            ".nv.shared.reserved"
        ):
            sizes[name.removeprefix(".nv.shared.")] = header[5]
    return sizes


_ENTRY = re.compile(r"^[ \t]*(?:\.(?:visible|weak)[ \t]+)?\.entry[ \t]+([\w$]+)", re.M)


def _kernel_variables(ptx: str) -> dict[str, list[SharedDeclaration]]:
    """Each kernel's sized shared variables: those declared in its body, and the
    module's that its body names."""
    declarations = [d for d in shared_declarations(ptx) if not d.external]
    entries = list(_ENTRY.finditer(ptx))
    kernels: dict[str, list[SharedDeclaration]] = {}
    for i, entry in enumerate(entries):
        end = entries[i + 1].start() if i + 1 < len(entries) else len(ptx)
        body = ptx[entry.end() : end]
        kernels[entry.group(1)] = [
            d
            for d in declarations
            if entry.end() <= d.start < end
            or (
                d.start < entries[0].start()
                and re.search(rf"(?<![\w$.]){re.escape(d.name)}(?![\w$])", body)
            )
        ]
    return kernels


def pad_static_shared_memory(ptx: str, cubin: bytes) -> str:
    """``ptx`` with, in each kernel of ``cubin`` whose static shared memory does
    not end on a multiple of the dynamic memory's alignment, one variable grown by
    what is missing: the one with the smallest alignment (the last declared of
    those), which the linker places last. ``ptx`` itself when nothing needs it (no
    dynamic shared memory aligned above 16, or every kernel ends on the
    boundary)."""
    alignment = max(
        (d.alignment for d in shared_declarations(ptx) if d.external), default=0
    )
    if alignment <= 16:
        return ptx
    sizes = static_shared_sizes(cubin)
    growth: dict[int, tuple[SharedDeclaration, int]] = {}
    for kernel, variables in _kernel_variables(ptx).items():
        pad = -sizes.get(kernel, 0) % alignment
        if not pad or not variables:
            continue
        last = min(reversed(variables), key=lambda d: d.alignment)
        _, grown = growth.get(last.start, (last, 0))
        growth[last.start] = (last, max(grown, pad))
    pieces: list[str] = []
    end = 0
    for start in sorted(growth):
        declaration, pad = growth[start]
        pieces.append(ptx[end:start])
        pieces.append(
            f"{declaration.lead}.align {declaration.alignment} .b8 "
            f"{declaration.name}[{declaration.size + pad}];"
        )
        end = declaration.end
    pieces.append(ptx[end:])
    return "".join(pieces)
