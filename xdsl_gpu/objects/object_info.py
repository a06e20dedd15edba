"""What a GPU object says about itself: its architecture and its kernels' parameters.

Three containers are read, without any CUDA library:

* PTX text: ``.version``, ``.target`` and each ``.entry`` with its ``.param`` list
  (size and kind of every parameter: pointer, integer, float, "64-bit integer or
  pointer" when the compiler did not write ``.ptr``, or an aggregate ``.b8 [N]``);
* cubin (ELF): the SM from ``e_flags``, arch-specific (``sm_90a``) from the
  ``.nv.compat`` attributes, every kernel (entry symbol) with its parameters from the
  ``EIATTR_KPARAM_INFO`` records of ``.nv.info.<kernel>``. Those records give
  ordinal, offset and size only, so kinds are unknown: keep a PTX object next to a
  cubin when kinds should be checked;
* fatbin: every image (ELF or PTX, SM, arch-specific, compressed) and its payload,
  decompressed when the system has ``libzstd``/``liblz4`` (nvFatbin compresses PTX
  with zstd by default).

The encodings were read off objects produced by NVRTC, nvJitLink and nvFatbin 13.x;
``tests/targets/test_select_best.py`` checks them against freshly built objects.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import re
import struct
from dataclasses import dataclass, field
from enum import Enum
from functools import cache

from xdsl_gpu.diagnostics import UserError


class ObjectInfoError(UserError):
    """An object whose bytes cannot be read as what its format says."""


class ParamKind(Enum):
    """What a kernel parameter holds, as far as the object tells."""

    POINTER = "pointer"
    INTEGER = "integer"
    FLOAT = "float"
    INT_OR_POINTER = "integer or pointer"
    """A 64-bit ``.u64``/``.b64``/``.s64`` without ``.ptr``: PTX does not say which."""
    AGGREGATE = "aggregate"
    """``.b8 name[N]``: a struct, a vector, or a ``half`` (LLVM passes it so)."""
    UNKNOWN = "unknown"
    """A cubin parameter: only its size is recorded."""


@dataclass(frozen=True)
class KernelParam:
    """One kernel parameter: its size in bytes, its kind and its declaration."""

    size: int
    kind: ParamKind
    text: str
    """How the object spells it: ``.u64 .ptr``, ``.f32``, ``.b8[16]``, ``8 bytes``."""


@dataclass(frozen=True)
class Chip:
    """A compute capability as objects name it: ``sm`` = major*10 + minor."""

    sm: int
    variant: str = ""
    """``"a"`` for arch-specific code (runs on exactly this SM), ``"f"`` for
    family-specific, ``""`` otherwise."""

    @property
    def major(self) -> int:
        return self.sm // 10

    @property
    def minor(self) -> int:
        return self.sm % 10

    @property
    def name(self) -> str:
        return f"sm_{self.sm}{self.variant}"

    @staticmethod
    def parse(name: str) -> Chip:
        match = re.fullmatch(r"(?:sm|compute)_(\d+)([af]?)", name.strip())
        if match is None:
            raise ObjectInfoError(
                f"'{name}' is not a CUDA architecture; write sm_<major><minor> with an "
                "optional 'a' or 'f' suffix, e.g. sm_90"
            )
        return Chip(int(match.group(1)), match.group(2))


@dataclass
class ImageInfo:
    """One piece of device code: a PTX module or a cubin."""

    kind: str
    """``"ptx"`` or ``"elf"`` (a cubin)."""
    chip: Chip
    ptx_version: int | None = None
    """PTX ISA version as major*10 + minor (PTX only)."""
    kernels: dict[str, list[KernelParam]] | None = None
    """Kernel name → parameters; None when the payload could not be read."""
    note: str = ""
    """Why ``kernels`` is None (compressed without a decompressor, ...)."""


@dataclass
class ObjectInfo:
    """Everything one object holds: one image, or several for a fatbin."""

    images: list[ImageInfo] = field(default_factory=list[ImageInfo])

    def kernel_signatures(self) -> list[tuple[ImageInfo, dict[str, list[KernelParam]]]]:
        """The readable images, PTX first (its parameters carry kinds)."""
        readable = [i for i in self.images if i.kernels is not None]
        readable.sort(key=lambda i: i.kind != "ptx")
        return [(i, i.kernels) for i in readable if i.kernels is not None]


# ---------------------------------------------------------------------------------
# PTX
# ---------------------------------------------------------------------------------

_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_VERSION = re.compile(r"^\s*\.version\s+(\d+)\.(\d+)", re.MULTILINE)
_TARGET = re.compile(r"^\s*\.target\s+([^\n;]+)", re.MULTILINE)
# The parameter list is optional in PTX (``.entry k { ... }``).
_ENTRY = re.compile(r"\.entry\s+([\w$.%]+)\s*(?:\(([^)]*)\))?", re.DOTALL)
_SCALAR = re.compile(r"^\.(b|u|s|f|bf)(\d+)(?:x(\d+))?$")
_ARRAY = re.compile(r"\[(\d+)\]\s*$")


def _ptx_param(declaration: str) -> KernelParam:
    """``.param .u64 .ptr .global .align 1 k_param_0`` → a :class:`KernelParam`."""
    tokens = declaration.split()
    if not tokens or tokens[0] != ".param":
        raise ObjectInfoError(
            f"unexpected PTX kernel parameter '{declaration.strip()}'"
        )
    name = tokens[-1]
    base: tuple[str, int] | None = None
    is_pointer = False
    for token in tokens[1:-1]:
        if token == ".ptr":
            is_pointer = True
        elif (match := _SCALAR.match(token)) is not None:
            lanes = int(match.group(3) or 1)
            base = (match.group(1), int(match.group(2)) // 8 * lanes)
    if base is None:
        raise ObjectInfoError(
            f"PTX kernel parameter without a type: '{declaration.strip()}'"
        )
    letter, size = base
    spelled = next(t for t in tokens[1:-1] if _SCALAR.match(t))
    if (array := _ARRAY.search(name)) is not None:
        total = size * int(array.group(1))
        return KernelParam(total, ParamKind.AGGREGATE, f"{spelled}[{array.group(1)}]")
    if is_pointer:
        return KernelParam(size, ParamKind.POINTER, f"{spelled} .ptr")
    if letter in ("f", "bf"):
        return KernelParam(size, ParamKind.FLOAT, spelled)
    if size == 8:
        return KernelParam(size, ParamKind.INT_OR_POINTER, spelled)
    return KernelParam(size, ParamKind.INTEGER, spelled)


def parse_ptx(text: str) -> ImageInfo:
    """The version, target and kernels of a PTX module."""
    code = _COMMENTS.sub("", text.rstrip("\0"))
    version = _VERSION.search(code)
    target = _TARGET.search(code)
    if version is None or target is None:
        raise ObjectInfoError(
            "not a PTX module: no .version or .target directive (is the file PTX?)"
        )
    chips = [t.strip() for t in target.group(1).split(",")]
    chip = next((Chip.parse(c) for c in chips if c.startswith("sm_")), None)
    if chip is None:
        raise ObjectInfoError(f"PTX .target '{target.group(1).strip()}' names no sm_XX")
    kernels: dict[str, list[KernelParam]] = {}
    for match in _ENTRY.finditer(code):
        params = [p for p in (match.group(2) or "").split(",") if p.strip()]
        kernels[match.group(1)] = [_ptx_param(p) for p in params]
    return ImageInfo(
        "ptx",
        chip,
        ptx_version=int(version.group(1)) * 10 + int(version.group(2)),
        kernels=kernels,
    )


def ptx_version_of(text: bytes | str) -> int | None:
    """The ``.version`` of a PTX module (major*10 + minor), or None."""
    if isinstance(text, bytes):
        text = text[:4096].decode("latin-1")
    match = _VERSION.search(_COMMENTS.sub("", text))
    return None if match is None else int(match.group(1)) * 10 + int(match.group(2))


# ---------------------------------------------------------------------------------
# cubin (ELF)
# ---------------------------------------------------------------------------------

_ELF_MAGIC = b"\x7fELF"
_OSABI_CUDA_V7 = 0x33
_OSABI_CUDA_V8 = 0x41
_SHT_SYMTAB = 2
_STT_FUNC = 2
_STO_CUDA_ENTRY = 0x10
_EIATTR_KPARAM_INFO = 0x17
_COMPAT_ARCH_SPECIFIC = 0x09


def _attributes(data: bytes) -> list[tuple[int, bytes]]:
    """The (attribute, value) records of an ``.nv.info*``/``.nv.compat`` section."""
    records: list[tuple[int, bytes]] = []
    offset = 0
    while offset + 2 <= len(data):
        fmt, attribute = data[offset], data[offset + 1]
        if fmt == 0x04:  # EIFMT_SVAL: u16 size, then the value
            (size,) = struct.unpack_from("<H", data, offset + 2)
            records.append((attribute, data[offset + 4 : offset + 4 + size]))
            offset += 4 + size
        elif fmt in (0x02, 0x03):  # EIFMT_BVAL / EIFMT_HVAL: a 2-byte value
            records.append((attribute, data[offset + 2 : offset + 4]))
            offset += 4
        elif fmt == 0x01:  # EIFMT_NVAL: no value, padded to 4 bytes
            records.append((attribute, b""))
            offset += 4
        else:
            break  # an encoding this reader does not know: stop, keep what was read
    return records


def parse_cubin(data: bytes) -> ImageInfo:
    """The SM and the kernels (parameter sizes in ordinal order) of a cubin."""
    if data[:4] != _ELF_MAGIC or len(data) < 64 or data[4] != 2:
        raise ObjectInfoError("not a cubin: no 64-bit ELF header")
    osabi = data[7]
    (flags,) = struct.unpack_from("<I", data, 48)
    if osabi == _OSABI_CUDA_V8:
        sm = (flags >> 8) & 0xFF
    elif osabi == _OSABI_CUDA_V7:
        sm = flags & 0xFF
    else:
        raise ObjectInfoError(f"not a CUDA ELF (OS ABI {osabi:#x})")
    (section_offset,) = struct.unpack_from("<Q", data, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)
    sections = [
        struct.unpack_from("<IIQQQQIIQQ", data, section_offset + i * entry_size)
        for i in range(count)
    ]

    def string(table: int, offset: int) -> str:
        start = sections[table][4] + offset
        return data[start : data.index(b"\0", start)].decode("latin-1")

    def body(index: int) -> bytes:
        _, _, _, _, offset, size, *_ = sections[index]
        return data[offset : offset + size]

    named = {string(names_index, s[0]): i for i, s in enumerate(sections)}
    variant = ""
    if ".nv.compat" in named:
        for attribute, value in _attributes(body(named[".nv.compat"])):
            if attribute == _COMPAT_ARCH_SPECIFIC and value[:1] not in (b"", b"\0"):
                variant = "a"
    kernels: dict[str, list[KernelParam]] = {}
    for index, section in enumerate(sections):
        if section[1] != _SHT_SYMTAB:
            continue
        symbols = body(index)
        for at in range(0, len(symbols) - 23, 24):
            name, info, other, *_ = struct.unpack_from("<IBBHQQ", symbols, at)
            if info & 0xF == _STT_FUNC and other & _STO_CUDA_ENTRY:
                kernels[string(section[6], name)] = []
    for kernel in kernels:
        info_section = named.get(f".nv.info.{kernel}")
        if info_section is None:
            continue
        params: list[tuple[int, int]] = []
        for attribute, value in _attributes(body(info_section)):
            if attribute == _EIATTR_KPARAM_INFO and len(value) >= 12:
                _, ordinal, _, word = struct.unpack_from("<IHHI", value)
                params.append((ordinal, (word >> 18) & 0x3FFF))
        kernels[kernel] = [
            KernelParam(size, ParamKind.UNKNOWN, f"{size} bytes")
            for _, size in sorted(params)
        ]
    return ImageInfo("elf", Chip(sm, variant), kernels=kernels)


# ---------------------------------------------------------------------------------
# fatbin
# ---------------------------------------------------------------------------------

FATBIN_MAGIC = 0xBA55ED50
_FATBIN_KIND_PTX = 1
_FATBIN_KIND_ELF = 2
_FLAG_COMPRESSED_LZ4 = 0x2000
_FLAG_COMPRESSED_ZSTD = 0x8000
_FLAG_ARCH_SPECIFIC = 0x100000


@dataclass
class FatbinImage:
    """One image of a fatbin, as its header describes it."""

    kind: str
    chip: Chip
    payload: bytes
    compression: str = ""
    """``""``, ``"zstd"`` or ``"lz4"``."""
    uncompressed_size: int = 0


def is_fatbin(data: bytes) -> bool:
    return len(data) >= 16 and struct.unpack_from("<I", data)[0] == FATBIN_MAGIC


def fatbin_images(data: bytes) -> list[FatbinImage]:
    """The images of a fatbin (several fatbins back to back are read in turn)."""
    images: list[FatbinImage] = []
    offset = 0
    while offset + 16 <= len(data):
        magic, _, header_size, fat_size = struct.unpack_from("<IHHQ", data, offset)
        if magic != FATBIN_MAGIC:
            break
        at, end = offset + header_size, offset + header_size + fat_size
        while at + 64 <= end:
            kind, _, entry_header, payload_size = struct.unpack_from("<HHIQ", data, at)
            (sm,) = struct.unpack_from("<I", data, at + 28)
            (flags,) = struct.unpack_from("<Q", data, at + 40)
            (uncompressed,) = struct.unpack_from("<Q", data, at + 56)
            payload = data[at + entry_header : at + entry_header + payload_size]
            compression = (
                "zstd" if flags & _FLAG_COMPRESSED_ZSTD
                else "lz4" if flags & _FLAG_COMPRESSED_LZ4
                else ""
            )  # fmt: skip
            if kind in (_FATBIN_KIND_PTX, _FATBIN_KIND_ELF):
                images.append(
                    FatbinImage(
                        "ptx" if kind == _FATBIN_KIND_PTX else "elf",
                        Chip(sm, "a" if flags & _FLAG_ARCH_SPECIFIC else ""),
                        payload,
                        compression,
                        uncompressed,
                    )
                )
            if entry_header == 0:
                break
            at += entry_header + payload_size
        offset = (end + 7) & ~7
    if not images:
        raise ObjectInfoError("not a fatbin: no image found")
    return images


@cache
def _library(name: str) -> ctypes.CDLL | None:
    path = ctypes.util.find_library(name)
    if path is None:
        return None
    try:
        return ctypes.CDLL(path)
    except OSError:
        return None


def decompress(image: FatbinImage) -> bytes | None:
    """The image's payload uncompressed, or None without the system library."""
    if not image.compression:
        return image.payload
    size = image.uncompressed_size
    out = ctypes.create_string_buffer(size)
    if image.compression == "zstd" and (lib := _library("zstd")) is not None:
        lib.ZSTD_decompress.restype = ctypes.c_size_t
        lib.ZSTD_findFrameCompressedSize.restype = ctypes.c_size_t
        lib.ZSTD_isError.restype = ctypes.c_uint
        # The payload is padded after the frame; zstd wants the frame's exact size.
        frame = lib.ZSTD_findFrameCompressedSize(
            image.payload, ctypes.c_size_t(len(image.payload))
        )
        if lib.ZSTD_isError(ctypes.c_size_t(frame)):
            return None
        got = lib.ZSTD_decompress(out, ctypes.c_size_t(size), image.payload,
                                  ctypes.c_size_t(frame))  # fmt: skip
        if lib.ZSTD_isError(ctypes.c_size_t(got)):
            return None
        return out.raw[:got]
    if image.compression == "lz4" and (lib := _library("lz4")) is not None:
        got = lib.LZ4_decompress_safe(image.payload, out, len(image.payload), size)
        return None if got < 0 else out.raw[:got]
    return None


def _image_info(image: FatbinImage) -> ImageInfo:
    payload = decompress(image)
    if payload is None:
        library = "libzstd" if image.compression == "zstd" else "liblz4"
        return ImageInfo(
            image.kind, image.chip,
            note=f"{image.compression}-compressed and {library} is not available",
        )  # fmt: skip
    if image.kind == "ptx":
        info = parse_ptx(payload.decode("latin-1"))
        return ImageInfo("ptx", image.chip, info.ptx_version, info.kernels)
    info = parse_cubin(payload)
    return ImageInfo("elf", Chip(image.chip.sm, image.chip.variant or info.chip.variant),
                     kernels=info.kernels)  # fmt: skip


# ---------------------------------------------------------------------------------
# Any object
# ---------------------------------------------------------------------------------


def inspect_object(data: bytes, fmt: str) -> ObjectInfo:
    """Read an object of ``#gpu.object`` format ``fmt`` (``assembly``, ``bin``,
    ``fatbin``; ``offload`` has no machine code to read)."""
    if fmt == "assembly":
        try:
            text = data.decode()
        except UnicodeDecodeError:
            raise ObjectInfoError("not PTX: the bytes are not text") from None
        return ObjectInfo([parse_ptx(text)])
    if fmt == "bin":
        return ObjectInfo([parse_cubin(data)])
    if fmt == "fatbin":
        return ObjectInfo([_image_info(image) for image in fatbin_images(data)])
    raise ObjectInfoError(f"objects of format '{fmt}' hold no machine code to read")


def sniff_format(data: bytes) -> str | None:
    """``assembly``, ``bin`` or ``fatbin`` from the bytes themselves, or None."""
    if data[:4] == _ELF_MAGIC:
        return "bin"
    if is_fatbin(data):
        return "fatbin"
    if data[:2] == b"BC" or data[:4] == b"\xde\xc0\x17\x0b":
        return "offload"
    if ptx_version_of(data) is not None:
        return "assembly"
    return None
