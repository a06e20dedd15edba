"""SM versions: parsing ``sm_90a`` and the per-op requirement trait.

Upstream (``NVVMRequiresSMTraits.h``) gives ops one of two traits, which
``#nvvm.target``'s ``verifyTarget`` checks against the target chip:

* ``NVVMRequiresSM<N>``: the chip's SM version must be at least N;
* ``NVVMRequiresSMa<[N, ...]>``: the chip must be one of the listed versions with the
  architecture-accelerated suffix (``sm_90a``).

Both are :class:`RequiresSM` here. As in MLIR 22, only an ``a`` suffix makes a chip
architecture-accelerated; ``sm_100f`` counts as plain ``sm_100``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.ir import Operation
from xdsl.traits import OpTrait

_CHIP = re.compile(r"sm_(\d+)([af]?)")


@dataclass(frozen=True)
class SMVersion:
    """A target chip such as ``sm_90a``: its number and whether it is
    architecture-accelerated (the ``a`` suffix)."""

    number: int
    arch_accelerated: bool = False

    @staticmethod
    def from_chip(chip: str) -> SMVersion | None:
        """Parse ``sm_<N>``, ``sm_<N>a`` or ``sm_<N>f``; ``None`` for anything else."""
        if (match := _CHIP.fullmatch(chip)) is None:
            return None
        return SMVersion(int(match.group(1)), match.group(2) == "a")


INVALID_CHIP_MESSAGE = 'invalid NVVM target chip "{chip}", expected sm_<version>[a|f]'
"""Upstream main's wording (MLIR 22 reads such a chip as an undefined number)."""


@dataclass(frozen=True)
class RequiresSM(OpTrait):
    """The op needs SM ``versions[0]`` or newer, or, with ``arch_accelerated``, exactly
    one of ``versions`` with the ``a`` suffix."""

    versions: tuple[int, ...]
    arch_accelerated: bool = False

    def __init__(self, *versions: int, arch_accelerated: bool = False):
        if not versions or (not arch_accelerated and len(versions) != 1):
            raise ValueError(
                "RequiresSM takes one minimum version, or with "
                "arch_accelerated=True the accepted versions"
            )
        object.__setattr__(self, "versions", versions)
        object.__setattr__(self, "arch_accelerated", arch_accelerated)

    def is_compatible_with(self, target: SMVersion) -> bool:
        if self.arch_accelerated:
            return target.arch_accelerated and target.number in self.versions
        return target.number >= self.versions[0]

    def verify(self, op: Operation) -> None:
        # Checked against a target by NVVMTargetAttr.verify_target, not on its own.
        return


__all__ = ["INVALID_CHIP_MESSAGE", "RequiresSM", "SMVersion"]
