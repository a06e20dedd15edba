"""What ``#nvvm.target`` and ``#rocdl.target`` share: upstream's
``(`<` struct(...)^ `>`)?`` syntax, the common parameters and their checks.

Syntax: ``#nvvm.target`` alone, or ``#nvvm.target<key = value, ...>`` with the keys in
any order, each at most once. Printing skips every parameter equal to its default and
writes the rest in the declared order; with nothing left the attribute prints bare.
Defaults are stored, so ``#nvvm.target<O = 2>`` and ``#nvvm.target`` are the same
attribute, as upstream.

Verification errors found while parsing are reported as parse errors at the ``<``
(where mlir-opt reports them); built from Python they raise ``VerifyException``.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntAttr,
    IntegerAttr,
    NoneAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

ParamKind = Literal["int", "str", "bool", "dict", "array"]

_INT32_MAX = 2**31 - 1

FlagsLike = DictionaryAttr | Mapping[str, Attribute | bool | str | Sequence[str]]
"""Target flags, as an attribute or a mapping; in a mapping ``True`` stands for a unit
flag (``{fast}``), a string for a string and a list of strings for an array."""


@dataclass(frozen=True)
class TargetParam:
    """One key of the struct syntax."""

    keyword: str
    """The key as written, e.g. ``O`` or ``verifyTarget``."""
    field: str
    """The attribute's parameter field."""
    kind: ParamKind
    default: Attribute
    """Value when the key is absent (``NoneAttr()`` for the optional dict and array)."""


def flags_attr(flags: FlagsLike | None) -> DictionaryAttr | NoneAttr:
    """Build the ``flags`` parameter from an attribute or a plain mapping."""
    if flags is None:
        return NoneAttr()
    if isinstance(flags, DictionaryAttr):
        return flags
    entries: dict[str, Attribute] = {}
    for key, value in flags.items():
        if value is True:
            entries[key] = UnitAttr()
        elif isinstance(value, str):
            entries[key] = StringAttr(value)
        elif isinstance(value, Attribute):
            entries[key] = value
        elif isinstance(value, Sequence):
            entries[key] = ArrayAttr(StringAttr(v) for v in value)
        else:
            raise TypeError(f"unsupported value for target flag '{key}': {value!r}")
    return DictionaryAttr(entries)


def link_attr(link: ArrayAttr | Sequence[str] | None) -> ArrayAttr | NoneAttr:
    """Build the ``link`` parameter from an attribute or a list of file names."""
    if link is None:
        return NoneAttr()
    if isinstance(link, ArrayAttr):
        return link
    return ArrayAttr(StringAttr(f) for f in link)


class TargetAttrBase(ParametrizedAttribute, ABC):
    """A GPU target attribute with upstream's struct syntax.

    Subclasses declare their parameter fields and ``STRUCT``, one
    :class:`TargetParam` per key in upstream's order, and must have the fields
    ``opt_level_attr``, ``triple_attr``, ``chip_attr``, ``features_attr``,
    ``flags_attr`` and ``link_attr``.
    """

    STRUCT: ClassVar[tuple[TargetParam, ...]]

    if TYPE_CHECKING:  # declared by each subclass, in its own order
        opt_level_attr: IntAttr
        triple_attr: StringAttr
        chip_attr: StringAttr
        features_attr: StringAttr
        flags_attr: DictionaryAttr | NoneAttr
        link_attr: ArrayAttr | NoneAttr

    # Typed accessors.

    @property
    def opt_level(self) -> int:
        return self.opt_level_attr.data

    @property
    def triple(self) -> str:
        return self.triple_attr.data

    @property
    def chip(self) -> str:
        return self.chip_attr.data

    @property
    def features(self) -> str:
        return self.features_attr.data

    @property
    def flags(self) -> DictionaryAttr | None:
        return self.flags_attr if isinstance(self.flags_attr, DictionaryAttr) else None

    @property
    def flags_dict(self) -> dict[str, Attribute]:
        """The flags as a plain dict (empty when there are none)."""
        return dict(self.flags.data) if self.flags is not None else {}

    @property
    def link(self) -> ArrayAttr | None:
        return self.link_attr if isinstance(self.link_attr, ArrayAttr) else None

    @property
    def link_files(self) -> tuple[str, ...]:
        """The bitcode files to link, in order."""
        if self.link is None:
            return ()
        return tuple(f.data for f in self.link.data if isinstance(f, StringAttr))

    def has_flag(self, flag: str) -> bool:
        return flag in self.flags_dict

    # Verification.

    def verify(self) -> None:
        values = {p.keyword: getattr(self, p.field) for p in self.STRUCT}
        if (message := self.invalid_reason(values)) is not None:
            raise VerifyException(message)

    @classmethod
    def invalid_reason(cls, values: Mapping[str, Attribute]) -> str | None:
        """Upstream's verifier message for these parameter values (by keyword), or
        ``None`` when they are valid. Subclasses extend it."""
        opt_level = values["O"]
        if not isinstance(opt_level, IntAttr) or not 0 <= opt_level.data <= 3:
            return "The optimization level must be a number between 0 and 3."
        if values["triple"] == StringAttr(""):
            return "The target triple cannot be empty."
        if values["chip"] == StringAttr(""):
            return "The target chip cannot be empty."
        return None

    @staticmethod
    def invalid_link_reason(link: Attribute) -> str | None:
        if isinstance(link, ArrayAttr) and not all(
            isinstance(f, StringAttr) for f in link.data
        ):
            return "All the elements in the `link` array must be strings."
        return None

    # Syntax.

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values: dict[str, Attribute] = {p.keyword: p.default for p in cls.STRUCT}
        params = {p.keyword: p for p in cls.STRUCT}
        start = parser.pos
        if parser.parse_optional_punctuation("<") is not None:
            if parser.parse_optional_punctuation(">") is None:
                seen: set[str] = set()
                while True:
                    key_start = parser.pos
                    keyword = parser.parse_optional_identifier()
                    if keyword is None:
                        parser.raise_error("expected a parameter name in struct")
                    if keyword not in params or keyword in seen:
                        parser.raise_error(
                            f"duplicate or unknown struct parameter name: {keyword}",
                            key_start,
                            parser.pos,
                        )
                    seen.add(keyword)
                    parser.parse_punctuation("=")
                    values[keyword] = cls._parse_value(parser, params[keyword])
                    if parser.parse_optional_punctuation(",") is None:
                        break
                parser.parse_punctuation(">")
        if (message := cls.invalid_reason(values)) is not None:
            parser.raise_error(message, start, parser.pos)
        by_field = {p.field: values[p.keyword] for p in cls.STRUCT}
        return tuple(by_field[f] for f, _ in cls.get_irdl_definition().parameters)

    @classmethod
    def _parse_value(cls, parser: AttrParser, param: TargetParam) -> Attribute:
        start = parser.pos
        match param.kind:
            case "str":
                return StringAttr(parser.parse_str_literal())
            case "int" | "bool":
                value = parser.parse_integer(allow_boolean=param.kind == "bool")
                if abs(value) > _INT32_MAX or (param.kind == "bool" and value > 1):
                    parser.raise_error("integer value too large", start, parser.pos)
                if param.kind == "bool":
                    return IntegerAttr.from_bool(value == 1)
                return IntAttr(value)
            case "dict" | "array":
                expected = DictionaryAttr if param.kind == "dict" else ArrayAttr
                value = parser.parse_attribute()
                if not isinstance(value, expected):
                    parser.raise_error(
                        f"failed to parse {cls.name} parameter '{param.keyword}' which "
                        f"is to be a `{expected.__name__}`",
                        start,
                        parser.pos,
                    )
                return value

    def print_parameters(self, printer: Printer) -> None:
        present = [
            (p, value)
            for p in self.STRUCT
            if (value := getattr(self, p.field)) != p.default
        ]
        if not present:
            return
        with printer.in_angle_brackets():
            for i, (param, value) in enumerate(present):
                if i:
                    printer.print_string(", ")
                printer.print_string(f"{param.keyword} = ")
                match value:
                    case IntAttr():
                        printer.print_int(value.data)
                    case StringAttr():
                        printer.print_string_literal(value.data)
                    case IntegerAttr():
                        printer.print_string("true" if value.value.data else "false")
                    case _:
                        printer.print_attribute(value)
