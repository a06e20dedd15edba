"""Which embedded object of a ``gpu.binary`` to load on the GPU at hand
(``#xgpu.select_best``), by CUDA's binary compatibility rules:

* a cubin for ``sm_XY`` runs on a GPU of compute capability X.Z with Z >= Y (same
  major, equal or newer minor); an arch-specific cubin (``sm_90a``) runs only on
  exactly X.Y;
* PTX for ``sm_XY`` JIT-compiles for any GPU of capability >= X.Y; arch-specific PTX
  (``sm_90a``) only for X.Y, family PTX (``sm_100f``) only within the major;
* the driver JITs PTX only up to the PTX ISA version it knows (CUDA 13.0: 9.0); newer
  PTX (NVRTC 13.5 writes 9.5) is assembled with nvJitLink from PyPI instead;
* a fatbin is handed to the driver, which takes its best image: it ranks as that
  image would.

Preference: the exact cubin, then the newest compatible cubin, then the newest PTX
not newer than the GPU; among equals the arch-specific one, then the first declared.
This module is pure logic (no CUDA), tested with made-up devices; the runtime
(``runtime.py``, ``mgpuModuleLoadBest``) feeds it the embedded objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.objects.object_info import (
    Chip,
    FatbinImage,
    ImageInfo,
    ObjectInfoError,
    decompress,
    fatbin_images,
    parse_cubin,
    parse_ptx,
    ptx_version_of,
)

FORMAT_NAMES = {1: "offload", 2: "assembly", 3: "bin", 4: "fatbin"}
"""``#gpu.object`` format numbers (upstream's ``CompilationTarget`` values)."""

EXACT, COMPATIBLE, JIT = 0, 1, 2


class NoObjectFitsError(UserError):
    """No embedded object can run on the device."""


@dataclass(frozen=True)
class DeviceInfo:
    """What the choice depends on: the GPU and the PTX the driver can JIT."""

    compute_capability: tuple[int, int]
    name: str = "GPU"
    driver_max_ptx: int | None = None
    """Newest PTX ISA (major*10 + minor) the driver JITs; None: no limit known."""
    nvjitlink: bool = True
    """Whether PTX too new for the driver can be assembled with nvJitLink."""

    @property
    def sm(self) -> int:
        major, minor = self.compute_capability
        return major * 10 + minor

    @property
    def label(self) -> str:
        return f"sm_{self.sm} ({self.name})"


@dataclass
class Candidate:
    """One embedded object."""

    index: int
    format: str
    label: str
    data: bytes = b""
    images: list[ImageInfo] = field(default_factory=list[ImageInfo])
    problem: str = ""
    """Why the bytes could not be read (then it is never chosen)."""

    @staticmethod
    def from_bytes(index: int, fmt: str, data: bytes, label: str) -> Candidate:
        """Read the images of an object of format ``fmt`` from its bytes."""
        candidate = Candidate(index, fmt, label, data)
        try:
            if fmt == "bin":
                candidate.images = [parse_cubin(data)]
            elif fmt == "assembly":
                info = parse_ptx(data.rstrip(b"\0").decode("latin-1"))
                candidate.images = [ImageInfo("ptx", info.chip, info.ptx_version)]
            elif fmt == "fatbin":
                candidate.images = [
                    ImageInfo(i.kind, i.chip, _fatbin_ptx_version(i))
                    for i in fatbin_images(data)
                ]
            else:
                candidate.problem = "LLVM bitcode cannot be loaded by the CUDA driver"
        except ObjectInfoError as e:
            candidate.problem = f"unreadable: {e}"
        return candidate


def _fatbin_ptx_version(image: FatbinImage) -> int | None:
    if image.kind != "ptx":
        return None
    payload = decompress(image)
    return None if payload is None else ptx_version_of(payload)


@dataclass(frozen=True)
class Choice:
    """The object to load and how."""

    candidate: Candidate
    rank: int
    image: ImageInfo
    jit: str = ""
    """``""`` (machine code), ``"driver"`` or ``"nvjitlink"`` for PTX."""

    @property
    def how(self) -> str:
        if self.rank == EXACT:
            what = f"exact {self.image.chip.name} cubin"
        elif self.rank == COMPATIBLE:
            what = f"compatible {self.image.chip.name} cubin"
        else:
            what = f"{self.image.chip.name} PTX, JIT-compiled by " + (
                "the driver" if self.jit == "driver" else "nvJitLink"
            )
        if self.candidate.format == "fatbin":
            what += " (in a fatbin; the driver picks the image)"
        return what


def _cubin_fit(chip: Chip, device: DeviceInfo) -> tuple[int | None, str]:
    if chip.variant == "a":
        if chip.sm == device.sm:
            return EXACT, ""
        return None, f"arch-specific {chip.name} code runs only on sm_{chip.sm}"
    if chip.sm == device.sm:
        return EXACT, ""
    if chip.major != device.sm // 10:
        return None, (
            f"a {chip.name} cubin runs only on compute capability {chip.major}.x "
            "(same major version)"
        )
    if chip.minor > device.sm % 10:
        return (
            None,
            f"a {chip.name} cubin needs compute capability {chip.major}.{chip.minor} or newer",
        )
    return COMPATIBLE, ""


def _ptx_fit(image: ImageInfo, device: DeviceInfo) -> tuple[str | None, str]:
    chip = image.chip
    if chip.variant == "a" and chip.sm != device.sm:
        return None, f"arch-specific {chip.name} PTX compiles only for sm_{chip.sm}"
    if chip.variant == "f" and chip.major != device.sm // 10:
        return (
            None,
            f"family {chip.name} PTX compiles only for compute capability {chip.major}.x",
        )
    if chip.sm > device.sm:
        return None, f"{chip.name} PTX is newer than the device"
    version = image.ptx_version
    limit = device.driver_max_ptx
    if version is None or limit is None or version <= limit:
        return "driver", ""
    if device.nvjitlink:
        return "nvjitlink", ""
    return None, (
        f"PTX ISA {version // 10}.{version % 10} is newer than the driver JITs "
        f"({limit // 10}.{limit % 10}) and nvJitLink is not installed"
    )


def rank(candidate: Candidate, device: DeviceInfo) -> tuple[Choice | None, str]:
    """The best way to use ``candidate`` on ``device``, or None and why not."""
    if candidate.problem:
        return None, candidate.problem
    best: Choice | None = None
    reasons: list[str] = []
    for image in candidate.images:
        if image.kind == "elf":
            level, why = _cubin_fit(image.chip, device)
            choice = None if level is None else Choice(candidate, level, image)
        else:
            jit, why = _ptx_fit(image, device)
            if jit == "nvjitlink" and candidate.format == "fatbin":
                jit, why = (
                    None,
                    (
                        f"{image.chip.name} PTX in a fatbin is newer than the driver JITs"
                    ),
                )
            choice = None if jit is None else Choice(candidate, JIT, image, jit)
        if choice is None:
            reasons.append(why)
        elif best is None or _order(choice) < _order(best):
            best = choice
    return best, "; ".join(dict.fromkeys(reasons)) or "no code in it"


def _order(choice: Choice) -> tuple[int, int, int, int]:
    chip = choice.image.chip
    return (
        choice.rank,
        -chip.sm,
        0 if chip.variant == "a" else 1,
        choice.candidate.index,
    )


def ranked(
    candidates: Sequence[Candidate], device: DeviceInfo
) -> tuple[list[Choice], list[str]]:
    """Usable choices, best first, and a line per object that cannot be used."""
    choices: list[Choice] = []
    rejected: list[str] = []
    for candidate in candidates:
        choice, why = rank(candidate, device)
        if choice is None:
            rejected.append(f"{candidate.label}: {why}")
        else:
            choices.append(choice)
    choices.sort(key=_order)
    return choices, rejected


def describe_candidate(candidate: Candidate) -> str:
    parts = [
        f"{i.chip.name} {'cubin' if i.kind == 'elf' else 'PTX'}"
        + (f" {i.ptx_version // 10}.{i.ptx_version % 10}" if i.ptx_version else "")
        for i in candidate.images
    ]
    return f"{candidate.label} [{', '.join(parts) or candidate.format}]"


IGNORE_VARIABLE = "XDSL_GPU_IGNORE_OBJECTS"
"""Environment variable: comma-separated patterns of embedded objects the runtime
must not load (to try the fallbacks of a binary without rebuilding it)."""


def ignore_matching(candidates: Sequence[Candidate], patterns: str) -> list[Candidate]:
    """Mark the candidates that a pattern of ``patterns`` (comma-separated, ``*`` and
    ``?`` wildcards, as :envvar:`XDSL_GPU_IGNORE_OBJECTS`) matches as unusable; returns
    them. A pattern matches an object's whole label (``@kernels[1] sm_90 bin
    "kernels_sm_90.cubin"``), its file (``kernels_sm_90.cubin``) or its chip and
    format (``sm_90 bin``, ``sm_80 assembly``)."""
    from fnmatch import fnmatchcase

    wanted = [p.strip() for p in patterns.split(",") if p.strip()]
    ignored: list[Candidate] = []
    for candidate in candidates:
        label = candidate.label
        names = [label]
        if '"' in label:
            names.append(label.split('"')[1])
        fields = label.split()
        if len(fields) >= 3:
            names.append(" ".join(fields[1:3]))
        match = next((p for p in wanted if any(fnmatchcase(n, p) for n in names)), None)
        if match is not None and not candidate.problem:
            candidate.problem = f"ignored (${IGNORE_VARIABLE} has '{match}')"
            ignored.append(candidate)
    return ignored


def choose(
    candidates: Sequence[Candidate], device: DeviceInfo, binary: str = ""
) -> list[Choice]:
    """The usable choices, best first; raises :class:`NoObjectFitsError` listing
    every embedded object when none fits."""
    choices, rejected = ranked(candidates, device)
    if choices:
        return choices
    name = f"gpu.binary @{binary}" if binary else "the gpu.binary"
    raise NoObjectFitsError(
        f"{name} has no object that runs on {device.label}; embedded:\n  "
        + "\n  ".join(rejected or ["nothing"])
        + f"\nadd a cubin for sm_{device.sm} or PTX for sm_{device.sm} or older "
        f"(e.g. xdsl-gpu-nvrtc -arch=sm_{device.sm} --emit=ptx,cubin)"
    )
