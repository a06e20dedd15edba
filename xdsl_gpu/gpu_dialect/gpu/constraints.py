"""Constraints and syntax pieces whose failures read like MLIR's generated code.

MLIR's ODS generates, for every operand, result and property of an op, a check
with a fixed wording; its generated parsers word their errors too. xDSL words the
same failures its own way ("i64 should be of base attribute index"). The pieces
here give the gpu ops upstream's words, so that ``xdsl-opt`` and ``mlir-opt-22``
agree on what is wrong:

* :class:`TypeConstraint`: ``must be <summary>, but got '<type>'`` (ODS type
  constraints; xDSL adds which operand or result it is in front);
* :func:`variadic`: the same for each element of a variadic (``variadic of ...``);
* :class:`PropertyOf`: ``Invalid attribute `name` in property conversion: <attr>``
  (a property of the wrong kind, as upstream's ``setPropertiesFromAttr``), and
  :func:`required_prop_def`: ``requires attribute 'name'`` when it is missing;
* :class:`UpstreamEnumSyntax`: ``expected ::mlir::gpu::X to be one of: a, b, c``
  (the generated enum parsers);
* ``custom<MemRefKind>`` / ``custom<UnrankedMemRefKind>``: ``invalid kind of type
  specified: expected builtin.memref, but found '...'`` (the generated op parsers,
  which read a memref or unranked memref type as that C++ class).

Shared by ``compute_ops``, ``mma_ops``, ``memory_ops`` and ``sparse_ops``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import ClassVar

from typing_extensions import TypeVar
from xdsl.dialects.builtin import (
    IndexType,
    MemRefType,
    UnrankedMemRefType,
    i1,
    i32,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    AttrConstraint,
    IntConstraint,
    IRDLOperation,
    VarConstraint,
    base,
    opt_prop_def,
)
from xdsl.irdl.constraints import InferenceContext, VerificationContext
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.gpu.attributes import parse_upstream_enum

# ===----------------------------------------------------------------------=== #
# Diagnostics
# ===----------------------------------------------------------------------=== #


def op_error(op: Operation, message: str) -> VerifyException:
    """An error as upstream's ``emitOpError`` words it: ``'gpu.x' op <message>``."""
    return VerifyException(f"'{op.name}' op {message}")


def quoted(attr: Attribute) -> str:
    """A type or attribute as MLIR diagnostics print it: ``'f32'``."""
    return f"'{attr}'"


# ===----------------------------------------------------------------------=== #
# Operand and result types
# ===----------------------------------------------------------------------=== #


@dataclass(frozen=True)
class TypeConstraint(AttrConstraint):
    """A type constraint that fails with ODS's wording: ``must be <summary>, but got
    '<type>'``; xDSL puts the operand or result it concerns in front.

    ``inferred``: the one type that satisfies it, which assembly formats then need
    not spell out (``index``, ``i32``, ...).
    """

    summary: str
    accepts: Callable[[Attribute], bool]
    inferred: Attribute | None = None

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not self.accepts(attr):
            raise VerifyException(f"must be {self.summary}, but got {quoted(attr)}")

    def can_infer(self, var_constraint_names: AbstractSet[str]) -> bool:
        return self.inferred is not None

    def infer(self, context: InferenceContext) -> Attribute:
        assert self.inferred is not None
        return self.inferred

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]
    ) -> TypeConstraint:
        return self


def exactly(type_: Attribute, summary: str) -> TypeConstraint:
    """The single type ``type_``, which ODS calls ``summary``."""
    return TypeConstraint(summary, lambda t: t == type_, type_)


def instance_of(
    type_class: type[Attribute], summary: str, inferred: Attribute | None = None
) -> TypeConstraint:
    """Any type of the class ``type_class``, which ODS calls ``summary``."""
    return TypeConstraint(summary, lambda t: isinstance(t, type_class), inferred)


def variadic(element: TypeConstraint) -> TypeConstraint:
    """ODS ``Variadic<element>``, as its elements are checked: the summary gets
    ``variadic of`` in front (an ``Optional<...>`` keeps the element's summary)."""
    return TypeConstraint(
        f"variadic of {element.summary}", element.accepts, element.inferred
    )


ODSIndex = exactly(IndexType(), "index")
ODSI1 = exactly(i1, "1-bit signless integer")
ODSI32 = exactly(i32, "32-bit signless integer")

AnyMemRef = instance_of(MemRefType, "memref of any type values")
"""ODS ``AnyMemRef``: a ranked memref (``memref<*x...>`` is not one)."""

AnyUnrankedMemRef = instance_of(
    UnrankedMemRefType, "unranked.memref of any type values"
)
"""ODS ``AnyUnrankedMemRef``."""


class SameTypeMismatch(VerifyException):
    """A :class:`SameType` mismatch, which upstream reports for the op as a whole
    (``'gpu.x' op failed to verify that ...``), where xDSL names the operand or
    result it was found at (see ``verify_order.verify_ods_on_entrance``)."""


@dataclass(frozen=True)
class SameType(VarConstraint[Attribute]):
    """A :class:`VarConstraint` (the same type wherever it appears) whose mismatch
    reads like ODS's ``AllTypesMatch``/``TypesMatchWith``/``SameOperandsAndResultType``
    message, given as ``mismatch``."""

    mismatch: str = ""

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        bound = constraint_context.get_variable(self.name)
        if bound is not None and bound != attr:
            raise SameTypeMismatch(self.mismatch)
        super().verify(attr, constraint_context)

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]
    ) -> SameType:
        return self


# ===----------------------------------------------------------------------=== #
# Properties
# ===----------------------------------------------------------------------=== #


@dataclass(frozen=True)
class PropertyOf(AttrConstraint):
    """A property that must be an attribute of class ``kind``; otherwise the error is
    upstream's ``Invalid attribute `<name>` in property conversion: <attr>``.

    Assembly formats see the same base as ``prop_def(kind)`` would give them (an
    enum still parses as its bare keyword).
    """

    name: str
    kind: type[Attribute]

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not isinstance(attr, self.kind):
            raise VerifyException(
                f"Invalid attribute `{self.name}` in property conversion: {attr}"
            )

    def get_bases(self) -> set[type[Attribute]] | None:
        return base(self.kind).get_bases()

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]
    ) -> PropertyOf:
        return self


@dataclass(frozen=True)
class RequiredPropertyOf(PropertyOf):
    """A :class:`PropertyOf` that the op must have; see :func:`required_prop_def`."""


def required_prop_def(name: str, kind: type[Attribute]):
    """A property without default that the op must have. xDSL would report its
    absence as "property 'x' expected in operation ..."; declared optional, it is
    left to :func:`verify_required_properties`, which words it as upstream:
    ``requires attribute 'x'``. (Its accessor is typed ``... | None``.)"""
    return opt_prop_def(RequiredPropertyOf(name, kind), prop_name=name)


def verify_required_properties(op: IRDLOperation) -> None:
    """Fail with upstream's ``requires attribute '<name>'`` for the first property
    of ``op`` declared by :func:`required_prop_def` that it lacks."""
    for name, prop in op.get_irdl_definition().properties.items():
        if isinstance(prop.constr, RequiredPropertyOf) and name not in op.properties:
            raise VerifyException(f"requires attribute '{name}'")


# ===----------------------------------------------------------------------=== #
# Syntax: enum keywords and memref kinds
# ===----------------------------------------------------------------------=== #


class UpstreamEnumSyntax:
    """Mixin, *before* ``EnumAttribute[...]`` in the bases, for an enum attribute
    whose unknown keyword fails as upstream's generated parser words it: ``expected
    <cpp_name> to be one of: <keywords>`` (in the attribute and in op formats)."""

    cpp_name: ClassVar[str]
    enum_type: ClassVar[type[StrEnum]]

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> StrEnum:
        return parse_upstream_enum(parser, cls.enum_type, cls.cpp_name)


class _TypeOfKind(CustomDirective):
    """``custom<...Kind>(type($x))``: the type of one operand or result, which must
    be of class ``kind`` (upstream's generated parsers read it as that class and
    fail with ``invalid kind of type specified: expected <kind_name>, but found
    '<type>'`` at the type)."""

    kind: ClassVar[type[Attribute]]
    kind_name: ClassVar[str]
    type_: TypeDirective  # each subclass declares it again (xDSL reads own fields)

    def parse(self, parser: Parser, state: ParsingState) -> None:
        start = parser.pos
        parsed = parser.parse_type()
        if not isinstance(parsed, self.kind):
            parser.raise_error(
                f"invalid kind of type specified: expected {self.kind_name}, "
                f"but found {quoted(parsed)}",
                start,
                parser.pos,
            )
        self.type_.set(state, (parsed,))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        self.type_.print(printer, state, op)

    def is_present(self, op: IRDLOperation) -> bool:
        return self.type_.is_present(op)


@irdl_custom_directive
class MemRefKind(_TypeOfKind):
    """``custom<MemRefKind>(type($x))``: a ranked memref type."""

    type_: TypeDirective
    kind = MemRefType
    kind_name = "builtin.memref"


@irdl_custom_directive
class UnrankedMemRefKind(_TypeOfKind):
    """``custom<UnrankedMemRefKind>(type($x))``: an unranked memref type."""

    type_: TypeDirective
    kind = UnrankedMemRefType
    kind_name = "builtin.unranked_memref"
