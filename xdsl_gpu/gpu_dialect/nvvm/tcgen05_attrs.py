"""The attributes of the ``tcgen05`` ops (5th-generation tensor cores, sm_100a).

Printed forms (MLIR 22)::

    #nvvm.cta_group<cta_1>            #nvvm.tcgen05_fence<before>
    #nvvm.tcgen05_wait<load>          #nvvm.tcgen05_cp_shape<shape_64x128b>
    #nvvm.tcgen05_cp_multicast<warpx4>
    #nvvm.tcgen05_cp_src_fmt<b6x16_p32>
    #nvvm.tcgen05_ldst_shape<shape_16x32bx2>
    #nvvm.tcgen05_mma_kind<f16>       #nvvm.tcgen05_mma_collectorop<lastuse>
    #nvvm.tcgen05_mma_collectorb<b1>  #nvvm.tcgen05_mma_block_scale<block32>

Inside an op's custom syntax (``nvvm.tcgen05.fence <before>``) only the ``<...>`` part
is printed, as upstream does.
"""

from __future__ import annotations

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.nvvm.attributes import AngleBracketSyntax


class CTAGroupKind(StrEnum):
    """How many CTAs (one, or the pair of a cluster) an op acts for."""

    CTA_1 = "cta_1"
    CTA_2 = "cta_2"


class Tcgen05FenceKind(StrEnum):
    BEFORE = "before"
    AFTER = "after"


class Tcgen05WaitKind(StrEnum):
    LOAD = "load"
    STORE = "store"


class Tcgen05CpShape(StrEnum):
    SHAPE_128x256b = "shape_128x256b"
    SHAPE_4x256b = "shape_4x256b"
    SHAPE_128x128b = "shape_128x128b"
    SHAPE_64x128b = "shape_64x128b"
    SHAPE_32x128b = "shape_32x128b"


class Tcgen05CpMulticast(StrEnum):
    NONE = "none"
    WARPX2_02_13 = "warpx2_02_13"
    WARPX2_01_23 = "warpx2_01_23"
    WARPX4 = "warpx4"


class Tcgen05CpSrcFormat(StrEnum):
    B6x16_P32 = "b6x16_p32"
    B4x16_P64 = "b4x16_p64"


class Tcgen05LdStShape(StrEnum):
    SHAPE_16X64B = "shape_16x64b"
    SHAPE_16X128B = "shape_16x128b"
    SHAPE_16X256B = "shape_16x256b"
    SHAPE_32X32B = "shape_32x32b"
    SHAPE_16X32BX2 = "shape_16x32bx2"


class Tcgen05MMAKind(StrEnum):
    """The operand types of ``tcgen05.mma`` (the intrinsics' ``kind`` immediate is
    the position here)."""

    F16 = "f16"
    TF32 = "tf32"
    F8F6F4 = "f8f6f4"
    I8 = "i8"


class Tcgen05MMACollectorOp(StrEnum):
    """What the collector buffer of A does (immediate: the position here)."""

    DISCARD = "discard"
    LASTUSE = "lastuse"
    FILL = "fill"
    USE = "use"


class Tcgen05MMACollectorBBuffer(StrEnum):
    B0 = "b0"
    B1 = "b1"
    B2 = "b2"
    B3 = "b3"


class Tcgen05MMABlockScale(StrEnum):
    DEFAULT = "default"
    BLOCK16 = "block16"
    BLOCK32 = "block32"


@irdl_attr_definition
class CTAGroupKindAttr(AngleBracketSyntax, EnumAttribute[CTAGroupKind]):
    """``#nvvm.cta_group<cta_1|cta_2>``: whether a tcgen05 op acts for one CTA or the CTA pair."""

    name = "nvvm.cta_group"


@irdl_attr_definition
class Tcgen05FenceKindAttr(AngleBracketSyntax, EnumAttribute[Tcgen05FenceKind]):
    """``#nvvm.tcgen05_fence<before|after>``: which side of a thread sync ``tcgen05.fence`` orders."""

    name = "nvvm.tcgen05_fence"


@irdl_attr_definition
class Tcgen05WaitKindAttr(AngleBracketSyntax, EnumAttribute[Tcgen05WaitKind]):
    """``#nvvm.tcgen05_wait<load|store>``: what ``tcgen05.wait`` waits for."""

    name = "nvvm.tcgen05_wait"


@irdl_attr_definition
class Tcgen05CpShapeAttr(AngleBracketSyntax, EnumAttribute[Tcgen05CpShape]):
    """``#nvvm.tcgen05_cp_shape<shape_128x256b>``: the shape ``tcgen05.cp`` copies."""

    name = "nvvm.tcgen05_cp_shape"


@irdl_attr_definition
class Tcgen05CpMulticastAttr(AngleBracketSyntax, EnumAttribute[Tcgen05CpMulticast]):
    """``#nvvm.tcgen05_cp_multicast<none|warpx2_02_13|warpx2_01_23|warpx4>``: the warps ``tcgen05.cp`` copies to."""

    name = "nvvm.tcgen05_cp_multicast"


@irdl_attr_definition
class Tcgen05CpSrcFormatAttr(AngleBracketSyntax, EnumAttribute[Tcgen05CpSrcFormat]):
    """``#nvvm.tcgen05_cp_src_fmt<b6x16_p32|b4x16_p64>``: the source format ``tcgen05.cp`` decompresses."""

    name = "nvvm.tcgen05_cp_src_fmt"


@irdl_attr_definition
class Tcgen05LdStShapeAttr(AngleBracketSyntax, EnumAttribute[Tcgen05LdStShape]):
    """``#nvvm.tcgen05_ldst_shape<shape_16x64b>``: the base shape of ``tcgen05.ld``/``st``."""

    name = "nvvm.tcgen05_ldst_shape"


@irdl_attr_definition
class Tcgen05MMAKindAttr(AngleBracketSyntax, EnumAttribute[Tcgen05MMAKind]):
    """``#nvvm.tcgen05_mma_kind<f16|tf32|f8f6f4|i8>``: the operand types of ``tcgen05.mma``."""

    name = "nvvm.tcgen05_mma_kind"


@irdl_attr_definition
class Tcgen05MMACollectorOpAttr(
    AngleBracketSyntax, EnumAttribute[Tcgen05MMACollectorOp]
):
    """``#nvvm.tcgen05_mma_collectorop<discard|lastuse|fill|use>``: what ``tcgen05.mma`` does with the A collector buffer."""

    name = "nvvm.tcgen05_mma_collectorop"


@irdl_attr_definition
class Tcgen05MMACollectorBBufferAttr(
    AngleBracketSyntax, EnumAttribute[Tcgen05MMACollectorBBuffer]
):
    """``#nvvm.tcgen05_mma_collectorb<b0..b3>``: the B collector buffer of ``tcgen05.mma.ws``."""

    name = "nvvm.tcgen05_mma_collectorb"


@irdl_attr_definition
class Tcgen05MMABlockScaleAttr(AngleBracketSyntax, EnumAttribute[Tcgen05MMABlockScale]):
    """``#nvvm.tcgen05_mma_block_scale<default|block16|block32>``: the scale block size of ``tcgen05.mma.block_scale``."""

    name = "nvvm.tcgen05_mma_block_scale"


ATTRIBUTES: tuple[type[Attribute], ...] = (
    CTAGroupKindAttr,
    Tcgen05FenceKindAttr,
    Tcgen05WaitKindAttr,
    Tcgen05CpShapeAttr,
    Tcgen05CpMulticastAttr,
    Tcgen05CpSrcFormatAttr,
    Tcgen05LdStShapeAttr,
    Tcgen05MMAKindAttr,
    Tcgen05MMACollectorOpAttr,
    Tcgen05MMACollectorBBufferAttr,
    Tcgen05MMABlockScaleAttr,
)

__all__ = [
    "CTAGroupKind",
    "CTAGroupKindAttr",
    "Tcgen05CpMulticast",
    "Tcgen05CpMulticastAttr",
    "Tcgen05CpShape",
    "Tcgen05CpShapeAttr",
    "Tcgen05CpSrcFormat",
    "Tcgen05CpSrcFormatAttr",
    "Tcgen05FenceKind",
    "Tcgen05FenceKindAttr",
    "Tcgen05LdStShape",
    "Tcgen05LdStShapeAttr",
    "Tcgen05MMABlockScale",
    "Tcgen05MMABlockScaleAttr",
    "Tcgen05MMACollectorBBuffer",
    "Tcgen05MMACollectorBBufferAttr",
    "Tcgen05MMACollectorOp",
    "Tcgen05MMACollectorOpAttr",
    "Tcgen05MMAKind",
    "Tcgen05MMAKindAttr",
    "Tcgen05WaitKind",
    "Tcgen05WaitKindAttr",
]
