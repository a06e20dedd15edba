"""Attributes used by the nvvm ops: the kind enums and ``#llvm.constant_range``.

Two printed shapes, as upstream's ``NVVMOps.td`` declares them:

* plain ``EnumAttr`` (shuffle, vote and redux kinds): ``#nvvm<shfl_kind bfly>`` in the
  generic form, a bare keyword (``bfly``) inside an op's custom syntax;
* enums with ``assemblyFormat = "`<` $value `>`"`` (memory scope, proxy kind, shared
  space, memory order): ``#nvvm.mem_scope<cta>``, stripped to ``<cta>`` inside an op's
  custom syntax, where upstream also accepts the full form.

``#llvm.constant_range<i32, 0, 64>`` belongs to the llvm dialect upstream; xDSL 0.74
has no such attribute, so it is defined here (and registered with the nvvm dialect,
whose special-register ops are its users).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import auto
from typing import ClassVar

from xdsl.dialects.builtin import IntAttr, IntegerType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Data, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum


class ShflKind(StrEnum):
    BFLY = auto()
    UP = auto()
    DOWN = auto()
    IDX = auto()


class VoteSyncKind(StrEnum):
    ANY = auto()
    ALL = auto()
    BALLOT = auto()
    UNI = auto()


class ReduxKind(StrEnum):
    ADD = auto()
    AND = auto()
    MAX = auto()
    MIN = auto()
    OR = auto()
    UMAX = auto()
    UMIN = auto()
    XOR = auto()
    FMIN = auto()
    FMAX = auto()


class MemScopeKind(StrEnum):
    CTA = auto()
    CLUSTER = auto()
    GPU = auto()
    SYS = auto()


class ProxyKind(StrEnum):
    ALIAS = "alias"
    ASYNC = "async"
    ASYNC_GLOBAL = "async.global"
    ASYNC_SHARED = "async.shared"
    TENSORMAP = "tensormap"
    GENERIC = "generic"


class SharedSpace(StrEnum):
    CTA = auto()
    CLUSTER = auto()


class MemOrderKind(StrEnum):
    WEAK = auto()
    RELAXED = auto()
    ACQUIRE = auto()
    RELEASE = auto()
    ACQ_REL = auto()
    SC = auto()
    MMIO = auto()
    VOLATILE = auto()


@irdl_attr_definition
class ShflKindAttr(EnumAttribute[ShflKind], SpacedOpaqueSyntaxAttribute):
    name = "nvvm.shfl_kind"


@irdl_attr_definition
class VoteSyncKindAttr(EnumAttribute[VoteSyncKind], SpacedOpaqueSyntaxAttribute):
    name = "nvvm.vote_sync_kind"


@irdl_attr_definition
class ReduxKindAttr(EnumAttribute[ReduxKind], SpacedOpaqueSyntaxAttribute):
    name = "nvvm.redux_kind"


class AngleBracketSyntax(Data[StrEnum]):
    """Mixin for enum attributes printed ``#nvvm.<name><value>``.

    Inside an op's custom syntax xDSL parses and prints only the parameter (``<cta>``),
    as upstream prints it; upstream also accepts the full ``#nvvm.mem_scope<cta>``
    there, so the parameter parser takes that form too.
    """

    enum_type: ClassVar[type[StrEnum]]

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_identifier_or_string_literal(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> StrEnum:
        start = parser.pos
        if (attr := parser.parse_optional_attribute()) is not None:
            # The full form inside an op's custom syntax: `#nvvm.mem_scope<cta>`.
            if not isinstance(attr, cls):
                parser.raise_error(f"expected #{cls.name}<...>", start, parser.pos)
            return attr.data
        with parser.in_angle_brackets():
            return parser.parse_str_enum(cls.enum_type)


@irdl_attr_definition
class MemScopeKindAttr(AngleBracketSyntax, EnumAttribute[MemScopeKind]):
    name = "nvvm.mem_scope"


@irdl_attr_definition
class ProxyKindAttr(AngleBracketSyntax, EnumAttribute[ProxyKind]):
    name = "nvvm.proxy_kind"


@irdl_attr_definition
class SharedSpaceAttr(AngleBracketSyntax, EnumAttribute[SharedSpace]):
    name = "nvvm.shared_space"


@irdl_attr_definition
class MemOrderKindAttr(AngleBracketSyntax, EnumAttribute[MemOrderKind]):
    name = "nvvm.mem_order"


def _wrap_signed(value: int, width: int) -> int:
    """``value`` modulo 2**width, read as a two's-complement number (as APInt)."""
    value &= (1 << width) - 1
    return value - (1 << width) if width and value >> (width - 1) else value


@irdl_attr_definition
class ConstantRangeAttr(ParametrizedAttribute):
    """``#llvm.constant_range<i32, lower, upper>``: the half-open range
    ``[lower, upper)`` of an integer, wrapping around like LLVM's ``ConstantRange``.

    Bounds are kept as two's-complement values of the type's width, so they print
    signed, as upstream prints them (``<i32, 0, 4294967295>`` reads back as
    ``<i32, 0, -1>``).
    """

    name = "llvm.constant_range"

    int_type: IntegerType
    lower_attr: IntAttr
    upper_attr: IntAttr

    def __init__(self, int_type: IntegerType | int, lower: int, upper: int):
        if isinstance(int_type, int):
            int_type = IntegerType(int_type)
        width = int_type.width.data
        super().__init__(
            int_type,
            IntAttr(_wrap_signed(lower, width)),
            IntAttr(_wrap_signed(upper, width)),
        )

    @property
    def width(self) -> int:
        return self.int_type.width.data

    @property
    def lower(self) -> int:
        return self.lower_attr.data

    @property
    def upper(self) -> int:
        return self.upper_attr.data

    def verify(self) -> None:
        for bound in (self.lower, self.upper):
            if _wrap_signed(bound, self.width) != bound:
                raise VerifyException(
                    f"constant range bound {bound} does not fit in {self.int_type}"
                )

    def invalid_reason(self) -> str | None:
        """Why LLVM's ``ConstantRange`` would reject these bounds, in upstream's
        words; ``None`` when they are valid."""
        unsigned_max = (1 << self.width) - 1
        if self.lower == self.upper and self.lower % (1 << self.width) not in (
            0,
            unsigned_max,
        ):
            return (
                "Lower == Upper, but they aren't min (0) or max "
                f"({unsigned_max}) value! This is an invalid constant range."
            )
        return None

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            start = parser.pos
            int_type = parser.parse_type()
            if not isinstance(int_type, IntegerType):
                parser.raise_error(
                    "invalid kind of type specified: expected builtin.integer, "
                    f"but found '{int_type}'",
                    start,
                    parser.pos,
                )
            parser.parse_punctuation(",")
            lower = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(",")
            upper = parser.parse_integer(allow_boolean=False)
        width = int_type.width.data
        return (
            int_type,
            IntAttr(_wrap_signed(lower, width)),
            IntAttr(_wrap_signed(upper, width)),
        )

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.int_type)
            printer.print_string(f", {self.lower}, {self.upper}")


ATTRIBUTES: tuple[type[Attribute], ...] = (
    ShflKindAttr,
    VoteSyncKindAttr,
    ReduxKindAttr,
    MemScopeKindAttr,
    ProxyKindAttr,
    SharedSpaceAttr,
    MemOrderKindAttr,
    ConstantRangeAttr,
)

__all__ = [
    "ATTRIBUTES",
    "ConstantRangeAttr",
    "MemOrderKind",
    "MemOrderKindAttr",
    "MemScopeKind",
    "MemScopeKindAttr",
    "ProxyKind",
    "ProxyKindAttr",
    "ReduxKind",
    "ReduxKindAttr",
    "SharedSpace",
    "SharedSpaceAttr",
    "ShflKind",
    "ShflKindAttr",
    "VoteSyncKind",
    "VoteSyncKindAttr",
]
