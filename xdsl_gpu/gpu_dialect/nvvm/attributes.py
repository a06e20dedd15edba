"""Attributes used by the nvvm ops: the kind enums (and ``ConstantRangeAttr``,
re-exported from :mod:`xdsl_gpu.gpu_dialect.llvm`).

Two printed shapes, as upstream's ``NVVMOps.td`` declares them:

* plain ``EnumAttr`` (shuffle, vote and redux kinds): ``#nvvm<shfl_kind bfly>`` in the
  generic form, a bare keyword (``bfly``) inside an op's custom syntax;
* enums with ``assemblyFormat = "`<` $value `>`"`` (memory scope, proxy kind, shared
  space, memory order): ``#nvvm.mem_scope<cta>``, stripped to ``<cta>`` inside an op's
  custom syntax, where upstream also accepts the full form.

``#llvm.constant_range<i32, 0, 64>``, the ``range`` of the special-register ops, is an
attribute of the llvm dialect, as upstream: :mod:`xdsl_gpu.gpu_dialect.llvm` defines and
registers it; it is imported here so that ``xdsl_gpu.gpu_dialect.nvvm`` still exports it.
"""

from __future__ import annotations

from enum import auto
from typing import ClassVar

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Data, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.llvm import ConstantRangeAttr  # re-exported (see __all__)


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


ATTRIBUTES: tuple[type[Attribute], ...] = (
    ShflKindAttr,
    VoteSyncKindAttr,
    ReduxKindAttr,
    MemScopeKindAttr,
    ProxyKindAttr,
    SharedSpaceAttr,
    MemOrderKindAttr,
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
