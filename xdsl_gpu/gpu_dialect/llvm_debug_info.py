"""The debug-info attributes of MLIR 22's ``llvm`` dialect: ``#llvm.di_file``,
``di_compile_unit``, ``di_subprogram``, ``di_subroutine_type``, ``di_basic_type``,
``di_derived_type``, ``di_lexical_block``, ``di_lexical_block_file``,
``di_local_variable``, ``di_namespace``, ``di_label`` and ``di_null_type``.

They reach the GPU flow as the metadata of fused locations
(``loc(fused<#di_subprogram>[...])``, what a front end attaches to its ops); the
passes carry them along and the LLVM IR translation does not emit them.

Printed forms (MLIR 22)::

    #llvm.di_file<"foo.mlir" in "/tmp/">
    #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C,
        file = #di_file, producer = "MLIR", isOptimized = true, emissionKind = Full>
    #llvm.di_subprogram<compileUnit = #di_compile_unit, scope = #di_file,
        name = "f", file = #di_file, subprogramFlags = Definition>

All but ``di_file`` are MLIR's ``struct(params)``: ``key = value`` pairs in any order
when read, printed in the order of the parameters, without the absent optional
ones. A parameter whose type is one attribute class (``file``, ``compileUnit``,
``type``) is printed without its ``#llvm.name`` (``file = <"a" in "b">``), one typed
by an interface (``scope``, ``baseType``, ``types``) in full, as MLIR prints them;
both forms are read. An array parameter (``types``) is a comma-separated list.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    IntAttr,
    IntegerAttr,
    NoneAttr,
    StringAttr,
)
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xdsl_gpu.compat.debug_info import printed_alias
from xdsl_gpu.gpu_dialect.distinct_attr import DistinctAttr

# The kinds of parameter values (the second element of a field).
STRING, UINT, BOOL, ATTR, ATTRS, DISTINCT, FLAGS = (
    "string",
    "uint",
    "bool",
    "attr",
    "attrs",
    "distinct",
    "flags",
)
DWARF = "dwarf:"
"""``dwarf:DW_LANG_``: a DWARF constant's name with that prefix."""
ENUM = "enum:"
"""``enum:None|Full``: one of those keywords."""
CLASS = "class:"
"""``class:llvm.di_file``: an attribute of that class, printed without its name."""

_OPTIONAL, _REQUIRED = False, True


def _is_next_key(parser: AttrParser) -> bool:
    """Whether the parser is at the name of the next parameter (a bare identifier),
    rather than at one more element of an array parameter."""
    token = parser._current_token  # pyright: ignore[reportPrivateUsage]
    return token.kind == MLIRTokenKind.BARE_IDENT


class DIStructAttr(ParametrizedAttribute, ABC):
    """A debug-info attribute written ``<key = value, ...>``; ``FIELDS`` lists its
    parameters (name, kind, required) in MLIR 22's order; ``values`` holds them in
    that order, ``NoneAttr`` for an absent optional one."""

    FIELDS: ClassVar[tuple[tuple[str, str, bool], ...]]

    values: ArrayAttr[Attribute]

    @classmethod
    def make(cls, **fields: Attribute) -> Any:
        """The attribute with ``fields`` (the others absent)."""
        names = [f[0] for f in cls.FIELDS]
        unknown = set(fields) - set(names)
        assert not unknown, unknown
        return cls(ArrayAttr([fields.get(name, NoneAttr()) for name in names]))

    def field(self, name: str) -> Attribute | None:
        """The value of parameter ``name``; None when absent."""
        index = [f[0] for f in self.FIELDS].index(name)
        value = self.values.data[index]
        return None if isinstance(value, NoneAttr) else value

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        kinds = {name: (kind, required) for name, kind, required in cls.FIELDS}
        found: dict[str, Attribute] = {}
        with parser.in_angle_brackets():
            if not _is_next_key(parser):
                return [ArrayAttr([NoneAttr()] * len(cls.FIELDS))]
            while True:
                start = parser.pos
                key = parser.parse_identifier()
                if key not in kinds or key in found:
                    parser.raise_error(
                        f"duplicate or unknown struct parameter name: {key}",
                        start,
                        parser.pos,
                    )
                parser.parse_punctuation("=")
                found[key], more = _parse_value(parser, kinds[key][0])
                if not more and parser.parse_optional_punctuation(",") is None:
                    break
        for name, _, required in cls.FIELDS:
            if required and name not in found:
                parser.raise_error(f"struct is missing required parameter: {name}")
        return [ArrayAttr([found.get(f[0], NoneAttr()) for f in cls.FIELDS])]

    def print_parameters(self, printer: Printer) -> None:
        present = [
            (name, kind, value)
            for (name, kind, _), value in zip(self.FIELDS, self.values.data)
            if not isinstance(value, NoneAttr)
        ]
        with printer.in_angle_brackets():
            for i, (name, kind, value) in enumerate(present):
                if i:
                    printer.print_string(", ")
                printer.print_string(f"{name} = ")
                _print_value(printer, kind, value)


def _parse_value(parser: AttrParser, kind: str) -> tuple[Attribute, bool]:
    """One parameter value of ``kind``, and whether the ``,`` after it (before the
    next key) was taken already (by an array parameter)."""
    start = parser.pos
    if kind == STRING:
        return StringAttr(parser.parse_str_literal()), False
    if kind == UINT:
        return IntAttr(parser.parse_integer(allow_negative=False)), False
    if kind == BOOL:
        word = parser.parse_identifier()
        if word not in ("true", "false"):
            parser.raise_error("expected 'true' or 'false'", start, parser.pos)
        return BoolAttr.from_bool(word == "true"), False
    if kind.startswith(DWARF):
        word = parser.parse_identifier()
        prefix = kind.removeprefix(DWARF)
        if not word.startswith(prefix) or word == prefix:
            what = _DWARF_KINDS.get(prefix, "constant")
            # Upstream's words, "debug info" twice (its parameter summary has it).
            parser.raise_error(
                f"invalid debug info debug info {what} name: {word}",
                start,
                parser.pos,
            )
        return StringAttr(word), False
    if kind.startswith(ENUM):
        word = parser.parse_identifier()
        allowed = kind.removeprefix(ENUM).split("|")
        if word not in allowed:
            parser.raise_error(
                f"expected one of [{', '.join(allowed)}], got: {word}",
                start,
                parser.pos,
            )
        return StringAttr(word), False
    if kind == FLAGS:
        text = parser.parse_optional_str_literal()
        if text is None:
            text = parser.parse_identifier()
        return StringAttr(text), False
    if kind == DISTINCT:
        value = parser.parse_attribute()
        if not isinstance(value, DistinctAttr):
            parser.raise_error("expected a distinct[N]<> attribute", start, parser.pos)
        return value, False
    if kind.startswith(CLASS):
        return _parse_class_value(parser, kind.removeprefix(CLASS)), False
    if kind == ATTRS:
        elements = [parser.parse_attribute()]
        while parser.parse_optional_punctuation(",") is not None:
            if _is_next_key(parser):
                return ArrayAttr(elements), True
            elements.append(parser.parse_attribute())
        return ArrayAttr(elements), False
    return parser.parse_attribute(), False


def _parse_class_value(parser: AttrParser, name: str) -> Attribute:
    """An attribute of class ``name``: ``<...>`` (its parameters) or in full."""
    cls = _BY_NAME[name]
    start = parser.pos
    token = parser._current_token  # pyright: ignore[reportPrivateUsage]
    if token.kind == MLIRTokenKind.LESS:
        return cls.new(cls.parse_parameters(parser))
    value = parser.parse_attribute()
    if not isinstance(value, cls):
        parser.raise_error(f"expected #{name}<...>", start, parser.pos)
    return value


def _print_value(printer: Printer, kind: str, value: Attribute) -> None:
    if kind == STRING and isinstance(value, StringAttr):
        printer.print_string_literal(value.data)
    elif kind == UINT and isinstance(value, IntAttr):
        printer.print_string(str(value.data))
    elif kind == BOOL and isinstance(value, IntegerAttr):
        printer.print_string("true" if value.value.data else "false")
    elif kind == FLAGS and isinstance(value, StringAttr):
        if "|" in value.data:
            printer.print_string_literal(value.data)
        else:
            printer.print_string(value.data)
    elif isinstance(value, StringAttr) and kind.startswith((DWARF, ENUM)):
        printer.print_string(value.data)
    elif kind.startswith(CLASS) and isinstance(value, ParametrizedAttribute):
        alias = printed_alias(printer, value)
        if alias is not None:
            printer.print_string(alias)
        else:
            value.print_parameters(printer)
    elif kind == ATTRS and isinstance(value, ArrayAttr):
        printer.print_list(value.data, printer.print_attribute)
    else:
        printer.print_attribute(value)


_DWARF_KINDS = {
    "DW_LANG_": "language",
    "DW_TAG_": "tag",
    "DW_ATE_": "encoding",
    "DW_CC_": "calling convention",
}

_EMISSION_KINDS = ENUM + "None|Full|LineTablesOnly|DebugDirectivesOnly"
_NAME_TABLE_KINDS = ENUM + "Default|GNU|None|Apple"


@irdl_attr_definition
class DIFileAttr(ParametrizedAttribute):
    """``#llvm.di_file<"name" in "directory">``."""

    name = "llvm.di_file"

    file_name: StringAttr
    directory: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            file_name = parser.parse_str_literal()
            parser.parse_keyword("in")
            directory = parser.parse_str_literal()
        return [StringAttr(file_name), StringAttr(directory)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.file_name.data)
            printer.print_string(" in ")
            printer.print_string_literal(self.directory.data)


@irdl_attr_definition
class DINullTypeAttr(ParametrizedAttribute):
    """``#llvm.di_null_type``: no type (a ``void`` result)."""

    name = "llvm.di_null_type"


@irdl_attr_definition
class DICompileUnitAttr(DIStructAttr):
    name = "llvm.di_compile_unit"
    FIELDS = (
        ("id", DISTINCT, _REQUIRED),
        ("sourceLanguage", DWARF + "DW_LANG_", _REQUIRED),
        ("file", CLASS + "llvm.di_file", _REQUIRED),
        ("producer", STRING, _OPTIONAL),
        ("isOptimized", BOOL, _REQUIRED),
        ("emissionKind", _EMISSION_KINDS, _REQUIRED),
        ("nameTableKind", _NAME_TABLE_KINDS, _OPTIONAL),
        ("splitDebugFilename", STRING, _OPTIONAL),
    )


@irdl_attr_definition
class DISubprogramAttr(DIStructAttr):
    name = "llvm.di_subprogram"
    FIELDS = (
        ("recId", DISTINCT, _OPTIONAL),
        ("isRecSelf", BOOL, _OPTIONAL),
        ("id", DISTINCT, _OPTIONAL),
        ("compileUnit", CLASS + "llvm.di_compile_unit", _OPTIONAL),
        ("scope", ATTR, _OPTIONAL),
        ("name", STRING, _OPTIONAL),
        ("linkageName", STRING, _OPTIONAL),
        ("file", CLASS + "llvm.di_file", _OPTIONAL),
        ("line", UINT, _OPTIONAL),
        ("scopeLine", UINT, _OPTIONAL),
        ("subprogramFlags", FLAGS, _OPTIONAL),
        ("type", CLASS + "llvm.di_subroutine_type", _OPTIONAL),
        ("retainedNodes", ATTRS, _OPTIONAL),
        ("annotations", ATTRS, _OPTIONAL),
    )


@irdl_attr_definition
class DISubroutineTypeAttr(DIStructAttr):
    name = "llvm.di_subroutine_type"
    FIELDS = (
        ("callingConvention", DWARF + "DW_CC_", _OPTIONAL),
        ("types", ATTRS, _OPTIONAL),
    )


@irdl_attr_definition
class DIBasicTypeAttr(DIStructAttr):
    name = "llvm.di_basic_type"
    FIELDS = (
        ("tag", DWARF + "DW_TAG_", _OPTIONAL),
        ("name", STRING, _REQUIRED),
        ("sizeInBits", UINT, _OPTIONAL),
        ("encoding", DWARF + "DW_ATE_", _OPTIONAL),
    )


@irdl_attr_definition
class DIDerivedTypeAttr(DIStructAttr):
    name = "llvm.di_derived_type"
    FIELDS = (
        ("tag", DWARF + "DW_TAG_", _OPTIONAL),
        ("name", STRING, _OPTIONAL),
        ("baseType", ATTR, _OPTIONAL),
        ("sizeInBits", UINT, _OPTIONAL),
        ("alignInBits", UINT, _OPTIONAL),
        ("offsetInBits", UINT, _OPTIONAL),
        ("dwarfAddressSpace", UINT, _OPTIONAL),
        ("extraData", ATTR, _OPTIONAL),
    )


@irdl_attr_definition
class DILexicalBlockAttr(DIStructAttr):
    name = "llvm.di_lexical_block"
    FIELDS = (
        ("scope", ATTR, _REQUIRED),
        ("file", CLASS + "llvm.di_file", _OPTIONAL),
        ("line", UINT, _OPTIONAL),
        ("column", UINT, _OPTIONAL),
    )


@irdl_attr_definition
class DILexicalBlockFileAttr(DIStructAttr):
    name = "llvm.di_lexical_block_file"
    FIELDS = (
        ("scope", ATTR, _REQUIRED),
        ("file", CLASS + "llvm.di_file", _OPTIONAL),
        ("discriminator", UINT, _REQUIRED),
    )


@irdl_attr_definition
class DILocalVariableAttr(DIStructAttr):
    name = "llvm.di_local_variable"
    FIELDS = (
        ("scope", ATTR, _REQUIRED),
        ("name", STRING, _OPTIONAL),
        ("file", CLASS + "llvm.di_file", _OPTIONAL),
        ("line", UINT, _OPTIONAL),
        ("arg", UINT, _OPTIONAL),
        ("alignInBits", UINT, _OPTIONAL),
        ("type", ATTR, _OPTIONAL),
        ("flags", FLAGS, _OPTIONAL),
    )


@irdl_attr_definition
class DINamespaceAttr(DIStructAttr):
    name = "llvm.di_namespace"
    FIELDS = (
        ("name", STRING, _OPTIONAL),
        ("scope", ATTR, _OPTIONAL),
        ("exportSymbols", BOOL, _REQUIRED),
    )


@irdl_attr_definition
class DILabelAttr(DIStructAttr):
    name = "llvm.di_label"
    FIELDS = (
        ("scope", ATTR, _REQUIRED),
        ("name", STRING, _OPTIONAL),
        ("file", CLASS + "llvm.di_file", _OPTIONAL),
        ("line", UINT, _OPTIONAL),
    )


DEBUG_INFO_ATTRIBUTES: tuple[type[ParametrizedAttribute], ...] = (
    DIFileAttr,
    DINullTypeAttr,
    DICompileUnitAttr,
    DISubprogramAttr,
    DISubroutineTypeAttr,
    DIBasicTypeAttr,
    DIDerivedTypeAttr,
    DILexicalBlockAttr,
    DILexicalBlockFileAttr,
    DILocalVariableAttr,
    DINamespaceAttr,
    DILabelAttr,
)
"""Registered with our ``llvm`` dialect (:mod:`xdsl_gpu.gpu_dialect.llvm`)."""

_BY_NAME: dict[str, type[ParametrizedAttribute]] = {
    cls.name: cls for cls in DEBUG_INFO_ATTRIBUTES
}


def is_debug_info(attr: Attribute) -> bool:
    """Whether ``attr`` is one of these (printed as an alias ``#di_...`` in a
    location when locations are aliased)."""
    return isinstance(attr, DEBUG_INFO_ATTRIBUTES)


__all__ = [
    "DEBUG_INFO_ATTRIBUTES",
    "DIBasicTypeAttr",
    "DICompileUnitAttr",
    "DIDerivedTypeAttr",
    "DIFileAttr",
    "DILabelAttr",
    "DILexicalBlockAttr",
    "DILexicalBlockFileAttr",
    "DILocalVariableAttr",
    "DINamespaceAttr",
    "DINullTypeAttr",
    "DIStructAttr",
    "DISubprogramAttr",
    "DISubroutineTypeAttr",
    "is_debug_info",
]
