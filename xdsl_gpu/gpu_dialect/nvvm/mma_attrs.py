"""Attributes of the nvvm matrix and async-copy ops (``nvvm.mma.sync``,
``nvvm.ldmatrix``, ``nvvm.cp.async.shared.global``), printed as upstream prints them::

    #nvvm.mma_layout<row>            #nvvm.mma_type<f16>
    #nvvm.shape<m = 16, n = 8, k = 16>
    #nvvm.ld_st_matrix_shape<m = 8, n = 8>
    #nvvm.ld_st_matrix_elt_type<b16>
    #nvvm.mma_int_overflow<satfinite> #nvvm.mma_b1op<xor_popc>
    #nvvm<load_cache_modifier cg>
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.nvvm.attributes import AngleBracketSyntax


class MMALayout(StrEnum):
    ROW = "row"
    COL = "col"


class MMATypes(StrEnum):
    F16 = "f16"
    F32 = "f32"
    TF32 = "tf32"
    BF16 = "bf16"
    S8 = "s8"
    U8 = "u8"
    S32 = "s32"
    S4 = "s4"
    U4 = "u4"
    B1 = "b1"
    F64 = "f64"
    E4M3 = "e4m3"
    E5M2 = "e5m2"
    # The fp6/fp4 formats of the block-scaled mma (mma_block_scale_ops).
    E3M2 = "e3m2"
    E2M3 = "e2m3"
    E2M1 = "e2m1"


class MMAIntOverflow(StrEnum):
    WRAPPED = "wrapped"
    SATFINITE = "satfinite"


class MMAB1Op(StrEnum):
    NONE = "none"
    XOR_POPC = "xor_popc"
    AND_POPC = "and_popc"


class LdStMatrixEltType(StrEnum):
    B16 = "b16"
    B8 = "b8"
    B8X16_B6X16_P32 = "b8x16.b6x16_p32"
    B8X16_B4X16_P64 = "b8x16.b4x16_p64"


class LoadCacheModifier(StrEnum):
    CA = "ca"
    CG = "cg"
    CS = "cs"
    LU = "lu"
    CV = "cv"


@irdl_attr_definition
class MMALayoutAttr(AngleBracketSyntax, EnumAttribute[MMALayout]):
    name = "nvvm.mma_layout"


@irdl_attr_definition
class MMATypesAttr(AngleBracketSyntax, EnumAttribute[MMATypes]):
    name = "nvvm.mma_type"


@irdl_attr_definition
class MMAIntOverflowAttr(AngleBracketSyntax, EnumAttribute[MMAIntOverflow]):
    name = "nvvm.mma_int_overflow"


@irdl_attr_definition
class MMAB1OpAttr(AngleBracketSyntax, EnumAttribute[MMAB1Op]):
    name = "nvvm.mma_b1op"


@irdl_attr_definition
class LdStMatrixEltTypeAttr(AngleBracketSyntax, EnumAttribute[LdStMatrixEltType]):
    name = "nvvm.ld_st_matrix_elt_type"


@irdl_attr_definition
class LoadCacheModifierAttr(
    EnumAttribute[LoadCacheModifier], SpacedOpaqueSyntaxAttribute
):
    name = "nvvm.load_cache_modifier"


def _parse_dims(parser: AttrParser, names: tuple[str, ...]) -> list[IntAttr]:
    dims: list[IntAttr] = []
    with parser.in_angle_brackets():
        for i, key in enumerate(names):
            if i:
                parser.parse_punctuation(",")
            parser.parse_keyword(key)
            parser.parse_punctuation("=")
            dims.append(IntAttr(parser.parse_integer(False)))
    return dims


def _print_dims(printer: Printer, names: tuple[str, ...], dims: list[int]) -> None:
    text = ", ".join(f"{k} = {v}" for k, v in zip(names, dims, strict=True))
    printer.print_string(f"<{text}>")


@irdl_attr_definition
class MMAShapeAttr(ParametrizedAttribute):
    """``#nvvm.shape<m = M, n = N, k = K>``."""

    name = "nvvm.shape"

    m: IntAttr = param_def(converter=IntAttr.get)
    n: IntAttr = param_def(converter=IntAttr.get)
    k: IntAttr = param_def(converter=IntAttr.get)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[IntAttr]:
        return _parse_dims(parser, ("m", "n", "k"))

    def print_parameters(self, printer: Printer) -> None:
        _print_dims(printer, ("m", "n", "k"), [self.m.data, self.n.data, self.k.data])


@irdl_attr_definition
class LdStMatrixShapeAttr(ParametrizedAttribute):
    """``#nvvm.ld_st_matrix_shape<m = M, n = N>``."""

    name = "nvvm.ld_st_matrix_shape"

    m: IntAttr = param_def(converter=IntAttr.get)
    n: IntAttr = param_def(converter=IntAttr.get)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[IntAttr]:
        return _parse_dims(parser, ("m", "n"))

    def print_parameters(self, printer: Printer) -> None:
        _print_dims(printer, ("m", "n"), [self.m.data, self.n.data])


ATTRIBUTES: tuple[type[Attribute], ...] = (
    MMALayoutAttr,
    MMATypesAttr,
    MMAIntOverflowAttr,
    MMAB1OpAttr,
    LdStMatrixEltTypeAttr,
    LoadCacheModifierAttr,
    MMAShapeAttr,
    LdStMatrixShapeAttr,
)

__all__ = [
    "LdStMatrixEltType",
    "LdStMatrixEltTypeAttr",
    "LdStMatrixShapeAttr",
    "LoadCacheModifier",
    "LoadCacheModifierAttr",
    "MMAB1Op",
    "MMAB1OpAttr",
    "MMAIntOverflow",
    "MMAIntOverflowAttr",
    "MMALayout",
    "MMALayoutAttr",
    "MMAShapeAttr",
    "MMATypes",
    "MMATypesAttr",
]
