"""``ConstantIntRanges``: what is known of an integer value of a given bit width, as
both an unsigned ``[umin, umax]`` and a signed ``[smin, smax]`` interval.

Each bound is kept as a Python int: the unsigned ones in ``[0, 2**width)``, the
signed ones in ``[-2**(width-1), 2**(width-1))``. The two intervals need not agree
(one may be tighter than the other); both always hold. ``index`` is 64 bits wide, as
in MLIR's analysis.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import IndexType, IntegerType, TensorType, VectorType
from xdsl.ir import Attribute

INDEX_WIDTH = 64
"""MLIR's ``IndexType::kInternalStorageBitWidth``."""


def storage_width(type: Attribute) -> int:
    """The width whose ranges describe values of ``type`` (of its elements for a
    vector or tensor, which share one range); 0 for non-integers."""
    if isinstance(type, VectorType | TensorType):
        type = type.element_type
    if isinstance(type, IndexType):
        return INDEX_WIDTH
    if isinstance(type, IntegerType):
        return type.width.data
    return 0


def umax_of(width: int) -> int:
    return (1 << width) - 1


def smin_of(width: int) -> int:
    return -(1 << (width - 1)) if width else 0


def smax_of(width: int) -> int:
    return (1 << (width - 1)) - 1 if width else 0


def to_unsigned(value: int, width: int) -> int:
    """``value`` (any int) as the unsigned number of its low ``width`` bits."""
    return value & umax_of(width)


def to_signed(value: int, width: int) -> int:
    """``value`` (any int) as the two's-complement number of its low ``width`` bits."""
    value &= umax_of(width)
    if width and value >> (width - 1):
        value -= 1 << width
    return value


@dataclass(frozen=True)
class ConstantIntRanges:
    """The unsigned and signed bounds of a ``width``-bit integer (see the module)."""

    width: int
    umin: int
    umax: int
    smin: int
    smax: int

    # Construction ------------------------------------------------------------------

    @staticmethod
    def from_unsigned(umin: int, umax: int, width: int) -> ConstantIntRanges:
        """``[umin, umax]`` unsigned; the signed interval follows where both ends
        have the same sign bit, else it is the whole signed range."""
        lo, hi = to_signed(umin, width), to_signed(umax, width)
        if (lo < 0) == (hi < 0):
            return ConstantIntRanges(width, umin, umax, min(lo, hi), max(lo, hi))
        return ConstantIntRanges(width, umin, umax, smin_of(width), smax_of(width))

    @staticmethod
    def from_signed(smin: int, smax: int, width: int) -> ConstantIntRanges:
        """``[smin, smax]`` signed; the unsigned interval follows where both ends
        have the same sign, else it is the whole unsigned range."""
        lo, hi = to_unsigned(smin, width), to_unsigned(smax, width)
        if (smin < 0) == (smax < 0):
            return ConstantIntRanges(width, min(lo, hi), max(lo, hi), smin, smax)
        return ConstantIntRanges(width, 0, umax_of(width), smin, smax)

    @staticmethod
    def range(lo: int, hi: int, width: int, signed: bool) -> ConstantIntRanges:
        if signed:
            return ConstantIntRanges.from_signed(lo, hi, width)
        return ConstantIntRanges.from_unsigned(lo, hi, width)

    @staticmethod
    def max_range(width: int) -> ConstantIntRanges:
        return ConstantIntRanges.from_unsigned(0, umax_of(width), width)

    @staticmethod
    def constant(value: int, width: int) -> ConstantIntRanges:
        u, s = to_unsigned(value, width), to_signed(value, width)
        return ConstantIntRanges(width, u, u, s, s)

    @staticmethod
    def from_bounds(
        umin: int, umax: int, smin: int, smax: int, width: int
    ) -> ConstantIntRanges:
        """Four bounds given as any ints (bit patterns), normalized to ``width``."""
        return ConstantIntRanges(
            width,
            to_unsigned(umin, width),
            to_unsigned(umax, width),
            to_signed(smin, width),
            to_signed(smax, width),
        )

    # Lattice -----------------------------------------------------------------------

    def union(self, other: ConstantIntRanges) -> ConstantIntRanges:
        """The smallest ranges that hold both (``rangeUnion``)."""
        if self.width == 0:
            return self
        if other.width == 0:
            return other
        return ConstantIntRanges(
            self.width,
            min(self.umin, other.umin),
            max(self.umax, other.umax),
            min(self.smin, other.smin),
            max(self.smax, other.smax),
        )

    def intersection(self, other: ConstantIntRanges) -> ConstantIntRanges:
        """Both facts at once, bound by bound (``intersection``)."""
        if self.width == 0:
            return self
        if other.width == 0:
            return other
        return ConstantIntRanges(
            self.width,
            max(self.umin, other.umin),
            min(self.umax, other.umax),
            max(self.smin, other.smin),
            min(self.smax, other.smax),
        )

    def constant_value(self) -> int | None:
        """The one value (as its unsigned bit pattern) if either interval is a
        single point (``getConstantValue``)."""
        if self.width == 0:
            return None
        if self.umin == self.umax:
            return self.umin
        if self.smin == self.smax:
            return to_unsigned(self.smin, self.width)
        return None

    def __str__(self) -> str:
        return (
            f"unsigned : [{self.umin}, {self.umax}] signed : [{self.smin}, {self.smax}]"
        )
