"""Which PTX ISA version to emit for a chip, and which the installed tools accept.

Upstream leaves ``features`` empty to let LLVM pick a version, or takes ``+ptxNN``
verbatim; a version the assembler does not know then fails late, with a message about
``.version``. Here the choice is explicit: the lowest version that supports the chip
(so the PTX also JITs on the oldest driver that knows the chip), checked against what
LLVM's NVPTX back end and the installed nvJitLink accept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl_gpu.diagnostics import UserError

# Lowest PTX ISA version (major*10 + minor) that supports each SM, from NVIDIA's PTX
# ISA release notes.
MIN_PTX_FOR_SM: dict[int, int] = {
    50: 40, 52: 41, 53: 42, 60: 50, 61: 50, 62: 50, 70: 60, 72: 61, 75: 63,
    80: 70, 86: 71, 87: 74, 88: 90, 89: 78, 90: 78, 100: 86, 101: 86, 103: 88,
    110: 90, 120: 87, 121: 88,
}  # fmt: skip
# Architecture-specific ("a") and family ("f") variants need newer versions.
MIN_PTX_FOR_SUFFIXED_SM: dict[str, int] = {
    "90a": 80, "100a": 86, "101a": 86, "103a": 88, "110a": 90, "120a": 87,
    "121a": 88, "100f": 88, "101f": 88, "103f": 88, "110f": 90, "120f": 88,
    "121f": 88,
}  # fmt: skip

# Newest PTX ISA each CUDA release's assembler (ptxas/nvJitLink) accepts.
MAX_PTX_FOR_CUDA: dict[tuple[int, int], int] = {
    (11, 8): 78, (12, 0): 80, (12, 1): 81, (12, 2): 82, (12, 3): 83, (12, 4): 84,
    (12, 5): 85, (12, 6): 85, (12, 8): 87, (12, 9): 88, (13, 0): 90,
}  # fmt: skip
# Versions LLVM 22's NVPTX back end can emit.
LLVM_PTX_VERSIONS = frozenset(
    {32, 40, 41, 42, 43, 50, 60, 61, 62, 63, 64, 65, 70, 71, 72, 73, 74, 75, 76, 77,
     78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90}
)  # fmt: skip
# Oldest SM that CUDA 13's assembler still targets.
OLDEST_SM_FOR_CUDA_13 = 75

_CHIP = re.compile(r"^sm_(\d+)([af]?)$")
_PTX_FEATURE = re.compile(r"^\+ptx(\d+)$")


@dataclass(frozen=True)
class Chip:
    """A parsed ``sm_XY[a|f]`` chip name."""

    name: str
    sm: int
    suffix: str

    @staticmethod
    def parse(name: str) -> Chip:
        match = _CHIP.match(name)
        if match is None:
            raise UserError(
                f"unknown NVVM chip '{name}': expected sm_<major><minor> with an "
                "optional 'a' or 'f' suffix, e.g. chip = \"sm_90\""
            )
        return Chip(name, int(match.group(1)), match.group(2))

    @property
    def arch_number(self) -> str:
        """The architecture as nvFatbin and nvJitLink write it: ``90a``."""
        return f"{self.sm}{self.suffix}"

    @property
    def min_ptx(self) -> int:
        if self.suffix:
            key = self.arch_number
            if key in MIN_PTX_FOR_SUFFIXED_SM:
                return MIN_PTX_FOR_SUFFIXED_SM[key]
        if self.sm in MIN_PTX_FOR_SM:
            return MIN_PTX_FOR_SM[self.sm]
        raise UserError(f"no PTX ISA version is known to support {self.name}")


def max_ptx_for_cuda(version: tuple[int, int]) -> int:
    """Newest PTX version the assembler of CUDA ``version`` accepts (newer releases
    than this table accept at least what its newest entry does)."""
    known = [v for v in MAX_PTX_FOR_CUDA if v <= version]
    return MAX_PTX_FOR_CUDA[max(known)] if known else 0


def format_ptx(version: int) -> str:
    return f"{version // 10}.{version % 10}"


def split_features(features: str) -> tuple[int | None, list[str]]:
    """Split a target's ``features`` string into its ``+ptxNN`` and the rest."""
    ptx: int | None = None
    rest: list[str] = []
    for feature in filter(None, (f.strip() for f in features.split(","))):
        if (match := _PTX_FEATURE.match(feature)) is not None:
            ptx = int(match.group(1))
        elif _NVPTX_FEATURE.fullmatch(feature):
            rest.append(feature)
        else:
            # LLVM aborts on a feature without its sign and warns on an unknown one.
            raise UserError(
                f"features '{features}': '{feature}' is not an NVPTX feature; they "
                "are written +ptxNN (the PTX ISA version, e.g. +ptx80) or +sm_NN (a "
                "chip, e.g. +sm_90a), comma-separated"
            )
    return ptx, rest


_NVPTX_FEATURE = re.compile(r"[+-](ptx\d+|sm_\d+[af]?)")


def choose_ptx_version(
    chip: Chip, features: str, assembler_cuda: tuple[int, int] | None
) -> int:
    """The PTX ISA version for ``chip``: the one ``features`` names, checked, or the
    lowest that supports the chip."""
    requested, _ = split_features(features)
    newest = max(LLVM_PTX_VERSIONS)
    if assembler_cuda is not None:
        newest = min(newest, max_ptx_for_cuda(assembler_cuda))
    if requested is None:
        version = max(chip.min_ptx, min(LLVM_PTX_VERSIONS))
        if version > newest:
            raise UserError(
                f"{chip.name} needs PTX ISA {format_ptx(version)}, but the installed "
                f"assembler (CUDA {assembler_cuda[0]}.{assembler_cuda[1]}) accepts at "
                f"most {format_ptx(newest)}; upgrade nvidia-nvjitlink"
                if assembler_cuda
                else f"{chip.name} needs PTX ISA {format_ptx(version)}, newer than "
                f"LLVM's NVPTX back end emits ({format_ptx(newest)})"
            )
        return version
    if requested not in LLVM_PTX_VERSIONS:
        raise UserError(
            f"features '+ptx{requested}': LLVM's NVPTX back end does not know PTX ISA "
            f"{format_ptx(requested)}; leave features empty to choose automatically"
        )
    if requested < chip.min_ptx:
        raise UserError(
            f"features '+ptx{requested}' is too old for {chip.name}, which needs PTX "
            f"ISA {format_ptx(chip.min_ptx)} or newer (+ptx{chip.min_ptx}); leave "
            "features empty to choose automatically"
        )
    if requested > newest:
        raise UserError(
            f"features '+ptx{requested}' is newer than the installed assembler "
            f"accepts (PTX ISA {format_ptx(newest)}); use +ptx{newest} or older, or "
            "leave features empty to choose automatically"
        )
    return requested
