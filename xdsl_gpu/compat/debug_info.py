"""Debug information as MLIR reads and prints it: ``distinct[N]<...>`` attributes and
location aliases (``loc(#loc3)`` in the IR, ``#loc3 = loc(...)`` after it)."""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from typing import Any, cast

from xdsl.dialects.builtin import (
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    NameLoc,
    UnknownLoc,
)
from xdsl.ir import Attribute

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched

PRINT_LOCAL_SCOPE: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "xdsl_gpu_print_local_scope", default=False
)
"""mlir-opt's ``-mlir-print-local-scope``: locations printed in place, no aliases."""


def debug_info_syntax(parse_distinct: Callable[[Any], Attribute | None]) -> None:
    """Read what debug information adds to MLIR's text and xDSL's parser refuses:
    builtin ``distinct[N]<attr>`` attributes (the ``id`` of a debug-info compile
    unit: "attribute expected"), which ``parse_distinct(parser)`` reads at the
    keyword ``distinct`` (:mod:`xdsl_gpu.gpu_dialect.distinct_attr`), and fused
    locations with metadata, ``loc(fused<#di_subprogram>[...])`` ("'[' expected";
    xDSL's ``FusedLoc`` has the parameter but its parser never fills it)."""
    from xdsl.dialects.builtin import FusedLoc, NameLoc, NoneAttr, StringAttr
    from xdsl.parser import Parser
    from xdsl.parser.attribute_parser import AttrParser
    from xdsl.utils.exceptions import ParseError
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    builtin_attr = AttrParser.__dict__.get("_parse_optional_builtin_attr")
    location = AttrParser.__dict__.get("_parse_location")
    parse_module_ = Parser.__dict__.get("parse_module")
    if (
        not callable(builtin_attr)
        or not callable(location)
        or not callable(parse_module_)
    ):
        raise XdslChangedError(
            "AttrParser._parse_optional_builtin_attr, _parse_location or "
            "Parser.parse_module is gone"
        )
    if is_patched(builtin_attr, "xdsl_gpu_debug_info"):
        return

    def _parse_optional_builtin_attr(self: Any) -> Attribute | None:
        if self._current_token.text == "distinct":
            return parse_distinct(self)
        return cast(Attribute | None, builtin_attr(self))

    def _parse_location(self: Any) -> Any:
        token = self._current_token
        if token.kind == MLIRTokenKind.HASH_IDENT:
            if token.text not in self.attribute_aliases:
                # A location alias defined after the module, as MLIR prints them.
                self._consume_token()
                forward = self.__dict__.setdefault(_FORWARD, {})
                forward.setdefault(token.text, token.span)
                return NameLoc(StringAttr(_FORWARD_PREFIX + token.text), NoneAttr())
        if self.parse_optional_keyword("fused") is None:
            return location(self)
        metadata: Attribute = NoneAttr()
        if self.parse_optional_punctuation("<") is not None:
            metadata = self.parse_attribute()
            self.parse_punctuation(">")
        locations = self.parse_comma_separated_list(
            self.Delimiter.SQUARE, lambda: _parse_location(self)
        )
        return FusedLoc(tuple(locations), metadata)

    def parse_module(self: Any, *args: Any, **kwargs: Any) -> Any:
        module = parse_module_(self, *args, **kwargs)
        forward: dict[str, Any] = self.__dict__.get(_FORWARD, {})
        if forward:
            for name, span in forward.items():
                if not isinstance(self.attribute_aliases.get(name), _LOCATIONS):
                    raise ParseError(span, "operation location alias was never defined")
            _resolve_forward_locations(module, self.attribute_aliases)
        return module

    _mark(_parse_optional_builtin_attr, "xdsl_gpu_debug_info", builtin_attr)
    _mark(_parse_location, "xdsl_gpu_debug_info", location)
    _mark(parse_module, "xdsl_gpu_debug_info", parse_module_)
    AttrParser._parse_optional_builtin_attr = _parse_optional_builtin_attr  # type: ignore[method-assign]
    AttrParser._parse_location = _parse_location  # type: ignore[method-assign]
    Parser.parse_module = parse_module  # type: ignore[method-assign]


_FORWARD = "_xdsl_gpu_forward_locations"
"""On a parser: the location aliases used before their definition, and where."""
_FORWARD_PREFIX = "\0xdsl-gpu forward location "
"""The name of the placeholder ``NameLoc`` of a location alias not yet defined."""


def _resolve_forward_locations(module: Any, aliases: dict[str, Attribute]) -> None:
    """Put the definitions of the location aliases in place of their placeholders,
    in every op's and block argument's location."""
    from xdsl.dialects.builtin import ArrayAttr, StringAttr

    def resolve(loc: Any) -> Any:
        if isinstance(loc, NameLoc) and isinstance(loc.desc, StringAttr):
            if loc.desc.data.startswith(_FORWARD_PREFIX):
                return resolve(aliases[loc.desc.data.removeprefix(_FORWARD_PREFIX)])
            return NameLoc(loc.desc, resolve(loc.location))
        if isinstance(loc, FusedLoc):
            inner = cast(ArrayAttr[Attribute], loc.locations).data
            return FusedLoc(tuple(resolve(x) for x in inner), loc.metadata)
        if isinstance(loc, CallSiteLoc):
            return CallSiteLoc(resolve(loc.callee), resolve(loc.caller))
        return loc

    for op in module.walk():
        op.location = resolve(op.location)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    arg.location = resolve(arg.location)


def location_aliases(alias_name: Callable[[Attribute], str | None]) -> None:
    """Print locations as MLIR's ``-mlir-print-debuginfo`` does: each op's location
    as an alias (``loc(#loc3)``), the aliases defined after the module (``#loc3 =
    loc("a.mlir":3:5)``), the locations nested in one as aliases too, and the
    attributes in them that ``alias_name`` names (debug-info metadata: ``#di_file``)
    likewise; xDSL prints every location in place, which upstream's CHECK lines
    (``[[LOC:#loc[0-9]*]] = loc(...)``) cannot match. ``-mlir-print-local-scope``
    keeps them in place (:data:`PRINT_LOCAL_SCOPE`). Block arguments keep theirs in
    place, as MLIR prints them. Only in runs that use xdsl-gpu."""
    from xdsl.printer import Printer
    from xdsl.targets.mlir import MLIRTarget

    emit = MLIRTarget.__dict__.get("emit")
    print_attribute = Printer.__dict__.get("print_attribute")
    print_block_argument = Printer.__dict__.get("print_block_argument")
    if not callable(emit) or not callable(print_attribute):
        raise XdslChangedError("MLIRTarget.emit or Printer.print_attribute is gone")
    if not callable(print_block_argument):
        raise XdslChangedError("Printer.print_block_argument is gone")
    if is_patched(emit, "xdsl_gpu_location_aliases"):
        return

    def print_aliased(self: Any, attribute: Attribute) -> None:
        name = printed_alias(self, attribute)
        if name is not None:
            top = _is_location(attribute) and not self.printing_location
            self.print_string(f"loc({name})" if top else name)
            return
        print_attribute(self, attribute)

    def emit_aliased(self: Any, ctx: Any, module: Any, output: Any) -> None:
        if not self.print_debuginfo or PRINT_LOCAL_SCOPE.get():
            emit(self, ctx, module, output)
            return
        aliases = _collect_aliases(module, alias_name)
        printer = Printer(
            stream=output,
            print_generic_format=self.print_generic_format,
            print_properties_as_attributes=self.print_properties_as_attributes,
            print_debuginfo=True,
        )
        printer.__dict__[_ALIASES] = aliases
        printer.print_op(module)
        printer.print_metadata(ctx.loaded_dialects)
        for attribute, name in aliases.items():
            printer.print_string(f"\n{name} = ")
            printer.__dict__[_DEFINING] = attribute
            if _is_location(attribute):
                printer.printing_location = False
            print_aliased(printer, attribute)
            printer.__dict__[_DEFINING] = None
        print("\n", file=output)

    def print_block_argument_in_place(self: Any, *args: Any, **kwargs: Any) -> None:
        aliases = self.__dict__.pop(_ALIASES, None)
        try:
            print_block_argument(self, *args, **kwargs)
        finally:
            if aliases is not None:
                self.__dict__[_ALIASES] = aliases

    _mark(print_aliased, "xdsl_gpu_location_aliases", print_attribute)
    _mark(
        print_block_argument_in_place,
        "xdsl_gpu_location_aliases",
        print_block_argument,
    )
    Printer.print_block_argument = print_block_argument_in_place  # type: ignore[method-assign]
    _mark(emit_aliased, "xdsl_gpu_location_aliases", emit)
    Printer.print_attribute = print_aliased  # type: ignore[method-assign]
    MLIRTarget.emit = emit_aliased  # type: ignore[method-assign]


def printed_alias(printer: Any, attribute: Attribute) -> str | None:
    """The alias ``printer`` writes for ``attribute`` here (None: print it): a
    location's anywhere, another aliased attribute's inside a location or an alias
    definition; never in the definition of that alias itself."""
    aliases: dict[Attribute, str] | None = printer.__dict__.get(_ALIASES)
    defining = printer.__dict__.get(_DEFINING)
    if not aliases or defining is attribute:
        return None
    name = aliases.get(attribute)
    if name is None:
        return None
    if _is_location(attribute) or printer.printing_location or defining is not None:
        return name
    return None


_LOCATIONS = (UnknownLoc, FileLineColLoc, CallSiteLoc, FusedLoc, NameLoc)

_ALIASES = "_xdsl_gpu_location_aliases"
"""On a printer: the aliased attributes, in the order their definitions print."""
_DEFINING = "_xdsl_gpu_alias_being_defined"
"""On a printer: the attribute whose alias definition is being printed."""


def _is_location(attribute: Attribute) -> bool:
    return isinstance(attribute, _LOCATIONS)


def _collect_aliases(
    module: Any, alias_name: Callable[[Attribute], str | None]
) -> dict[Attribute, str]:
    """The locations of ``module``'s ops (the module's first, then in the order the
    ops are walked) and the locations and named attributes in them, each after what
    it refers to: ``#loc``, ``#loc1``, ... and ``#di_file``, ``#di_file1``, ..."""
    order: list[Attribute] = []
    seen: set[Attribute] = set()

    def visit(attribute: Attribute) -> None:
        if attribute in seen:
            return
        aliased = _is_location(attribute) or alias_name(attribute) is not None
        for child in _children(attribute):
            visit(child)
        if aliased:
            seen.add(attribute)
            order.append(attribute)

    for op in module.walk():
        visit(op.location)
    names: dict[Attribute, str] = {}
    counts: dict[str, int] = {}
    for attribute in order:
        base = "loc" if _is_location(attribute) else alias_name(attribute) or ""
        count = counts.get(base, 0)
        counts[base] = count + 1
        names[attribute] = f"#{base}{count or ''}"
    return names


def _children(attribute: Attribute) -> Iterator[Attribute]:
    """The attributes an attribute holds (parameters, array elements)."""
    from xdsl.dialects.builtin import ArrayAttr
    from xdsl.ir import ParametrizedAttribute

    if isinstance(attribute, ArrayAttr):
        yield from attribute.data
    elif isinstance(attribute, ParametrizedAttribute):
        yield from attribute.parameters
