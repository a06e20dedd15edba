"""The enums of the nvgpu dialect: the tensor map's swizzle, L2 promotion,
out-of-bounds fill and interleave kinds (parameters of ``!nvgpu.tensormap.descriptor``,
printed as bare keywords there), and ``rcp``'s rounding mode
(``#nvgpu<rcp_rounding_mode approx>``, a bare ``approx`` inside ``nvgpu.rcp``).
"""

from __future__ import annotations

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.str_enum import StrEnum


class TensorMapSwizzleKind(StrEnum):
    SWIZZLE_NONE = "none"
    SWIZZLE_32B = "swizzle_32b"
    SWIZZLE_64B = "swizzle_64b"
    SWIZZLE_128B = "swizzle_128b"


SWIZZLE_BYTES: dict[TensorMapSwizzleKind, int] = {
    TensorMapSwizzleKind.SWIZZLE_NONE: 0,
    TensorMapSwizzleKind.SWIZZLE_32B: 32,
    TensorMapSwizzleKind.SWIZZLE_64B: 64,
    TensorMapSwizzleKind.SWIZZLE_128B: 128,
}
"""The width of a swizzle pattern in bytes (0: no swizzling)."""


class TensorMapL2PromoKind(StrEnum):
    L2PROMO_NONE = "none"
    L2PROMO_64B = "l2promo_64b"
    L2PROMO_128B = "l2promo_128b"
    L2PROMO_256B = "l2promo_256b"


class TensorMapOOBKind(StrEnum):
    OOB_ZERO = "zero"
    OOB_NAN = "nan"


class TensorMapInterleaveKind(StrEnum):
    INTERLEAVE_NONE = "none"
    INTERLEAVE_16B = "interleave_16b"
    INTERLEAVE_32B = "interleave_32b"


class RcpRoundingMode(StrEnum):
    APPROX = "approx"
    RN = "rn"
    RZ = "rz"
    RM = "rm"
    RP = "rp"


ENUM_VALUES: dict[type[StrEnum], list[str]] = {
    enum: [member.value for member in enum]
    for enum in (
        TensorMapSwizzleKind,
        TensorMapL2PromoKind,
        TensorMapOOBKind,
        TensorMapInterleaveKind,
        RcpRoundingMode,
    )
}
"""Each enum's values in declaration order: their position is the integer that
upstream's ``I32EnumAttr`` stores (the CUDA driver's ``CUtensorMap*`` values)."""


@irdl_attr_definition
class RcpRoundingModeAttr(EnumAttribute[RcpRoundingMode], SpacedOpaqueSyntaxAttribute):
    name = "nvgpu.rcp_rounding_mode"


ATTRIBUTES: tuple[type[Attribute], ...] = (RcpRoundingModeAttr,)

__all__ = [
    "ATTRIBUTES",
    "ENUM_VALUES",
    "SWIZZLE_BYTES",
    "RcpRoundingMode",
    "RcpRoundingModeAttr",
    "TensorMapInterleaveKind",
    "TensorMapL2PromoKind",
    "TensorMapOOBKind",
    "TensorMapSwizzleKind",
]
