"""The ``memref`` dialect: xDSL's, with MLIR 22's custom syntax where xDSL lacks it.

xDSL 0.74 prints several memref ops only in the generic form, and cannot parse what
``mlir-opt`` prints for them. Replaced here (each class subclasses xDSL's, so that
``isinstance(op, xmemref.CastOp)`` and every pattern written against xDSL's classes
still match what is parsed):

* ``memref.cast %m : memref<4xf32> to memref<*xf32>``, verified as upstream's
  ``areCastCompatible``;
* ``memref.memory_space_cast %m : memref<4xf32> to memref<4xf32, 1>`` (ranked or
  unranked, which xDSL's verifier could not take);
* ``memref.rank %m : memref<*xf32>`` (xDSL's takes ranked memrefs only);
* ``memref.copy %a, %b : memref<4xf32> to memref<*xf32>`` (ranked or unranked);
* ``memref.extract_aligned_pointer_as_index %m : memref<*xf32> -> index``;
* ``memref.atomic_rmw addf %v, %m[%i] : (f32, memref<10xf32>) -> f32``;
* ``memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>``,
  ``= uninitialized`` or no initial value (external), with an optional visibility
  (xDSL requires ``sym_visibility`` and ``initial_value``);
* ``memref.alloca_scope -> (f32) { ... }`` and ``memref.alloca_scope.return``
  (implicit when the scope has no results).

Added (xDSL has no such ops):

* ``memref.generic_atomic_rmw %m[%i] : memref<10xf32> { ^bb0(%current: f32): ...
  memref.atomic_yield %v : f32 }`` and ``memref.atomic_yield``;
* ``memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x8xf32> to
  memref<8x4xf32, strided<[1, 8]>>``;
* ``memref.prefetch %m[%i], read, locality<3>, data : memref<10xf32>``.

Everything else is xDSL's own class, whose syntax already agrees with MLIR 22.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I32,
    I64,
    AffineMapAttr,
    AnyFloat,
    AnyFloatConstr,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    Signedness,
    SignlessIntegerConstraint,
    StridedLayoutAttr,
    StringAttr,
    SymbolNameConstraint,
    TensorType,
    UnitAttr,
    UnrankedMemRefType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    MemoryAllocEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    SingleBlockImplicitTerminator,
    SymbolOpInterface,
    get_effects,
)
from xdsl.utils.bitwise_casts import is_power_of_two
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.gpu.constraints import TypeConstraint
from xdsl_gpu.gpu_dialect.xdsl_format import RESET_FORMAT

_ANY_MEMREF = base(MemRefType) | base(UnrankedMemRefType)

ATOMIC_RMW_KINDS: tuple[str, ...] = (
    "addf",
    "addi",
    "andi",
    "assign",
    "maximumf",
    "maxnumf",
    "maxs",
    "maxu",
    "minimumf",
    "minnumf",
    "mins",
    "minu",
    "mulf",
    "muli",
    "ori",
    "xori",
)
"""``arith::AtomicRMWKind`` keywords by their ``i64`` value (``kind`` of atomic_rmw)."""

_FLOAT_KINDS = frozenset({"addf", "maximumf", "maxnumf", "minimumf", "minnumf", "mulf"})
_INTEGER_KINDS = frozenset(
    {"addi", "andi", "maxs", "maxu", "mins", "minu", "muli", "ori", "xori"}
)


def _layout_strides(t: MemRefType) -> tuple[tuple[int | None, ...], int | None] | None:
    """(strides, offset) of a ranked memref, None strides meaning dynamic; None when
    its layout is not strided."""
    try:
        strides = t.get_strides()
        offset = t.get_offset()
    except Exception:  # a layout that is not strided
        return None
    if strides is None:
        return None
    return tuple(strides), offset


def _memory_space(t: MemRefType | UnrankedMemRefType) -> Attribute:
    """The memory space of ``t`` as MLIR sees it: ``0`` (an integer of any width) is
    the default space, which MLIR's types do not keep (``memref<4xf32, 0>`` is
    ``memref<4xf32>`` upstream), so it reads as no memory space."""
    space = t.memory_space
    if isinstance(space, IntegerAttr) and space.value.data == 0:
        return NoneAttr()
    return space


def _cast_compatible(a: Attribute, b: Attribute) -> bool:
    """MLIR's ``CastOp::areCastCompatible`` for one input and one output."""
    if isinstance(a, UnrankedMemRefType) and isinstance(b, UnrankedMemRefType):
        return False
    if isinstance(a, MemRefType) and isinstance(b, MemRefType):
        if a.element_type != b.element_type or _memory_space(a) != _memory_space(b):
            return False
        if a.get_num_dims() != b.get_num_dims():
            return False
        if a.layout != b.layout:
            sa, sb = _layout_strides(a), _layout_strides(b)
            if sa is None or sb is None:
                return False
            (strides_a, offset_a), (strides_b, offset_b) = sa, sb
            if None not in (offset_a, offset_b) and offset_a != offset_b:
                return False
            for x, y in zip(strides_a, strides_b, strict=True):
                if None not in (x, y) and x != y:
                    return False
        for x, y in zip(a.get_shape(), b.get_shape(), strict=True):
            if DYNAMIC_INDEX not in (x, y) and x != y:
                return False
        return True
    if isinstance(a, MemRefType | UnrankedMemRefType) and isinstance(
        b, MemRefType | UnrankedMemRefType
    ):
        return a.element_type == b.element_type and _memory_space(a) == _memory_space(b)
    return False


def _cast_incompatible(a: Attribute, b: Attribute) -> VerifyException:
    return VerifyException(
        f"operand type '{a}' and result type '{b}' are cast incompatible"
    )


# --------------------------------------------------------------------------------------
# Casts, rank, copy, pointers
# --------------------------------------------------------------------------------------


class _OwnChecksOnly(IRDLOperation):
    """For a redefined op with no checks beyond its definition's: without a
    ``verify_`` of its own, irdl_op_definition would keep the one generated for
    xDSL's class, which checks the op against xDSL's definition (a ranked memref
    only, for instance)."""

    def verify_(self) -> None:
        pass


@irdl_op_definition
class CastOp(xmemref.CastOp):
    """``memref.cast %m : memref<4xf32> to memref<*xf32>``: the same buffer under a
    cast-compatible type (ranked to unranked and back, static to dynamic sizes)."""

    source = operand_def(_ANY_MEMREF)
    dest = result_def(_ANY_MEMREF)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        if not _cast_compatible(self.source.type, self.dest.type):
            raise _cast_incompatible(self.source.type, self.dest.type)


@irdl_op_definition
class MemorySpaceCastOp(xmemref.MemorySpaceCastOp):
    """``memref.memory_space_cast %m : memref<4xf32> to memref<4xf32, 1>``: the same
    memref in another memory space."""

    source = operand_def(_ANY_MEMREF)
    dest = result_def(_ANY_MEMREF)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        a, b = self.source.type, self.dest.type
        if isinstance(a, MemRefType) and isinstance(b, MemRefType):
            ok = (
                a.element_type == b.element_type
                and a.get_shape() == b.get_shape()
                and a.layout == b.layout
            )
        elif isinstance(a, UnrankedMemRefType) and isinstance(b, UnrankedMemRefType):
            ok = a.element_type == b.element_type
        else:
            ok = False
        if not ok:
            raise _cast_incompatible(a, b)


@irdl_op_definition
class RankOp(_OwnChecksOnly, xmemref.RankOp):
    """``memref.rank %m : memref<*xf32>``: the rank of a ranked or unranked memref."""

    source = operand_def(_ANY_MEMREF)
    rank = result_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$source attr-dict `:` type($source)"
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]


@irdl_op_definition
class CopyOp(xmemref.CopyOp):
    """``memref.copy %a, %b : memref<4xf32> to memref<4xf32>``: copies the elements
    (ranked or unranked memrefs of the same element type and shape)."""

    source = operand_def(_ANY_MEMREF)
    destination = operand_def(_ANY_MEMREF)
    traits = traits_def(MemoryWriteEffect(), MemoryReadEffect())
    assembly_format = (
        "$source `,` $destination attr-dict `:` type($source) `to` type($destination)"
    )
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        a, b = self.source.type, self.destination.type
        assert isinstance(a, MemRefType | UnrankedMemRefType)
        assert isinstance(b, MemRefType | UnrankedMemRefType)
        if a.element_type != b.element_type:
            raise VerifyException("requires the same element type for all operands")
        if (
            isinstance(a, MemRefType)
            and isinstance(b, MemRefType)
            and a.get_shape() != b.get_shape()
        ):
            raise VerifyException("requires the same shape for all operands")


@irdl_op_definition
class ExtractAlignedPointerAsIndexOp(
    _OwnChecksOnly, xmemref.ExtractAlignedPointerAsIndexOp
):
    """``memref.extract_aligned_pointer_as_index %m : memref<4xf32> -> index``."""

    source = operand_def(_ANY_MEMREF)
    aligned_pointer = result_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$source `:` type($source) `->` type(results) attr-dict"
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]


# --------------------------------------------------------------------------------------
# Atomics
# --------------------------------------------------------------------------------------


@irdl_op_definition
class AtomicRMWOp(xmemref.AtomicRMWOp):
    """``memref.atomic_rmw addf %v, %m[%i] : (f32, memref<10xf32>) -> f32``: an
    atomic read-modify-write of one element; the result is the old value."""

    T: ClassVar = VarConstraint("T", AnyFloatConstr | SignlessIntegerConstraint)
    value = operand_def(T)
    memref = operand_def(MemRefType.constr(T))
    indices = var_operand_def(IndexType)
    kind = prop_def(IntegerAttr[I64])
    result = result_def(T)
    traits = traits_def(MemoryWriteEffect(), MemoryReadEffect())

    @property
    def kind_name(self) -> str | None:
        value = self.kind.value.data
        return ATOMIC_RMW_KINDS[value] if 0 <= value < len(ATOMIC_RMW_KINDS) else None

    def verify_(self) -> None:
        memref_type = self.memref.type
        assert isinstance(memref_type, MemRefType)
        if memref_type.get_num_dims() != len(self.indices):
            raise VerifyException(
                "expects the number of subscripts to be equal to memref rank"
            )
        kind = self.kind_name
        if kind is None:
            raise VerifyException(
                f"attribute 'kind' failed to satisfy constraint: allowed 64-bit "
                f"signless integer cases: 0 to {len(ATOMIC_RMW_KINDS) - 1}"
            )
        value_type = self.value.type
        if kind in _FLOAT_KINDS and not isinstance(value_type, AnyFloat):
            raise VerifyException(f"with kind '{kind}' expects a floating-point type")
        if kind in _INTEGER_KINDS and not isinstance(value_type, IntegerType):
            raise VerifyException(f"with kind '{kind}' expects an integer type")

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        where = parser.pos
        kind = parser.parse_optional_keyword_in(ATOMIC_RMW_KINDS)
        if kind is None:
            kind = parser.parse_optional_str_literal()
        if kind not in ATOMIC_RMW_KINDS:
            parser.raise_error(
                "expected string or keyword containing one of the following enum "
                f"values for attribute 'kind' [{', '.join(ATOMIC_RMW_KINDS)}]",
                where,
            )
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        memref = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        memref_type = parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        index = IndexType()
        op = cls.build(
            operands=[
                parser.resolve_operand(value, value_type),
                parser.resolve_operand(memref, memref_type),
                [parser.resolve_operand(i, index) for i in indices],
            ],
            result_types=[result_type],
            properties={"kind": IntegerAttr(ATOMIC_RMW_KINDS.index(kind), i64)},
            attributes=attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        kind = self.kind_name
        printer.print_string(" ")
        printer.print_string(kind if kind is not None else str(self.kind.value.data))
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.memref)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        printer.print_attribute(self.memref.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)


def _is_signless_integer_or_float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat) or (
        isinstance(t, IntegerType) and t.signedness.data == Signedness.SIGNLESS
    )


_ATOMIC_MEMREF = TypeConstraint(
    "memref of signless integer or floating-point values",
    lambda t: (
        isinstance(t, MemRefType) and _is_signless_integer_or_float(t.element_type)
    ),
)
_ATOMIC_VALUE = TypeConstraint(
    "signless integer or floating-point", _is_signless_integer_or_float
)


@irdl_op_definition
class GenericAtomicRMWOp(IRDLOperation):
    """``memref.generic_atomic_rmw %m[%i] : memref<10xf32> { ^bb0(%current: f32): ...
    memref.atomic_yield %new : f32 }``: an atomic read-modify-write whose body computes
    the new value from the current one; the result is the old value."""

    name = "memref.generic_atomic_rmw"

    memref = operand_def(_ATOMIC_MEMREF)
    indices = var_operand_def(IndexType)
    result = result_def(_ATOMIC_VALUE)
    atomic_body = region_def("single_block")

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        memref: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        body: Region,
        attributes: dict[str, Attribute] | None = None,
    ):
        memref = SSAValue.get(memref)
        assert isinstance(memref.type, MemRefType)
        super().__init__(
            operands=[memref, indices],
            result_types=[memref.type.element_type],
            regions=[body],
            attributes=attributes,
        )

    def verify_(self) -> None:
        memref_type = self.memref.type
        assert isinstance(memref_type, MemRefType)
        if self.result.type != memref_type.element_type:
            raise VerifyException(
                "failed to verify that result type matches element type of memref"
            )
        block = self.atomic_body.block
        if len(block.args) != 1:
            raise VerifyException("expected single number of entry block arguments")
        if block.args[0].type != self.result.type:
            raise VerifyException(
                "expected block argument of the same type result type"
            )
        for op in block.walk():
            if op is block.last_op:
                continue
            effects = get_effects(op)
            if effects is None or effects:
                raise VerifyException(
                    "body of 'memref.generic_atomic_rmw' should contain only "
                    "operations with no side effects"
                )

    @classmethod
    def parse(cls, parser: Parser) -> GenericAtomicRMWOp:
        memref = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        where = parser.pos
        memref_type = parser.parse_type()
        if not _ATOMIC_MEMREF.accepts(memref_type):
            # Upstream's verifier says so; xDSL's op needs the element type first.
            parser.raise_error(
                f"operand #0 must be {_ATOMIC_MEMREF.summary}, but got '{memref_type}'",
                where,
            )
        body = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        index = IndexType()
        return cls(
            parser.resolve_operand(memref, memref_type),
            [parser.resolve_operand(i, index) for i in indices],
            body,
            attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.memref)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("] : ")
        printer.print_attribute(self.memref.type)
        printer.print_string(" ")
        printer.print_region(self.atomic_body)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class AtomicYieldOp(IRDLOperation):
    """``memref.atomic_yield %new : f32``: the new value of a
    ``memref.generic_atomic_rmw``."""

    name = "memref.atomic_yield"

    result = operand_def()

    traits = traits_def(IsTerminator(), HasParent(GenericAtomicRMWOp), NoMemoryEffect())

    assembly_format = "$result attr-dict `:` type($result)"

    def __init__(self, value: SSAValue | Operation):
        super().__init__(operands=[value])

    def verify_(self) -> None:
        parent = self.parent_op()
        assert isinstance(parent, GenericAtomicRMWOp)
        if parent.result.type != self.result.type:
            raise VerifyException(
                f"types mismatch between yield op: '{self.result.type}' and its "
                f"parent: '{parent.result.type}'"
            )


# --------------------------------------------------------------------------------------
# Globals
# --------------------------------------------------------------------------------------


def _initial_value_type(memref_type: MemRefType) -> TensorType:
    return TensorType(memref_type.element_type, memref_type.get_shape())


@irdl_op_definition
class GlobalOp(xmemref.GlobalOp):
    """``memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
    {alignment = 64 : i64}``; ``= uninitialized``, or no initial value for an external
    global. The visibility is optional (public), as upstream."""

    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    type = prop_def(MemRefType)
    initial_value = opt_prop_def(UnitAttr | DenseIntOrFPElementsAttr)
    constant = opt_prop_def(UnitAttr)
    alignment = opt_prop_def(IntegerAttr[I64])

    traits = traits_def(SymbolOpInterface(), MemoryAllocEffect())

    _KNOWN: ClassVar[tuple[str, ...]] = (
        "sym_name",
        "sym_visibility",
        "type",
        "initial_value",
        "constant",
        "alignment",
    )

    def verify_(self) -> None:
        memref_type = self.type
        if not memref_type.has_static_shape():
            raise VerifyException(
                f"type should be static shaped memref, but got '{memref_type}'"
            )
        initial = self.initial_value
        if isinstance(initial, DenseIntOrFPElementsAttr):
            actual = cast(MemRefType | TensorType, initial.get_type())
            shape, actual_shape = memref_type.get_shape(), actual.get_shape()
            if tuple(shape) != tuple(actual_shape):
                raise VerifyException(
                    "initial value shape expected to be "
                    f"{', '.join(map(str, shape))} but was "
                    f"{', '.join(map(str, actual_shape))}"
                )
            if actual.element_type != memref_type.element_type:
                raise VerifyException(
                    "initial value element expected to be of type "
                    f"'{memref_type.element_type}', but was of type "
                    f"'{actual.element_type}'"
                )
        if self.alignment is not None:
            value = self.alignment.value.data
            if value <= 0 or not is_power_of_two(value):
                raise VerifyException(
                    "attribute 'alignment' failed to satisfy constraint: 64-bit "
                    "signless integer attribute whose value is positive and whose "
                    "value is a power of two > 0"
                )

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        props: dict[str, Attribute] = {}
        visibility = parser.parse_optional_str_literal()
        if visibility is not None:
            props["sym_visibility"] = StringAttr(visibility)
        if parser.parse_optional_keyword("constant") is not None:
            props["constant"] = UnitAttr()
        props["sym_name"] = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        where = parser.pos
        memref_type = parser.parse_type()
        if not isinstance(memref_type, MemRefType):
            parser.raise_error(
                f"type should be static shaped memref, but got '{memref_type}'", where
            )
        props["type"] = memref_type
        if parser.parse_optional_punctuation("=") is not None:
            if parser.parse_optional_keyword("uninitialized") is not None:
                props["initial_value"] = UnitAttr()
            else:
                if not memref_type.has_static_shape():
                    parser.raise_error(
                        f"type should be static shaped memref, but got '{memref_type}'",
                        where,
                    )
                tensor = _initial_value_type(memref_type)
                if parser._current_token.text == "dense":  # pyright: ignore
                    element = memref_type.get_element_type()
                    if not isinstance(element, IntegerType | IndexType | AnyFloat):
                        # dense<...> holds numbers only (MLIR: "expected string
                        # token"; a memref of such elements is rare but valid)
                        parser.raise_error(
                            f"a dense initial value holds integers or floats, not "
                            f"'{element}' elements; give the value as an attribute "
                            "of that type or declare the global uninitialized"
                        )
                    parser.parse_keyword("dense")
                    props["initial_value"] = parser.parse_dense_int_or_fp_elements_attr(
                        tensor  # pyright: ignore[reportArgumentType]
                    )
                else:
                    props["initial_value"] = parser.parse_attribute()
        attrs = parser.parse_optional_attr_dict()
        for name in cls._KNOWN:
            if name in attrs:
                props[name] = attrs.pop(name)
        return cls.create(properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.sym_visibility is not None:
            printer.print_string_literal(self.sym_visibility.data)
            printer.print_string(" ")
        if self.constant is not None:
            printer.print_string("constant ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        initial = self.initial_value
        if isinstance(initial, UnitAttr):
            printer.print_string(" = uninitialized")
        elif (
            isinstance(initial, DenseIntOrFPElementsAttr)
            and isinstance(initial.get_type(), TensorType)
            and initial.get_type() == _initial_value_type(self.type)
        ):
            printer.print_string(" = ")
            initial.print_without_type(printer)
        elif initial is not None:
            printer.print_string(" = ")
            printer.print_attribute(initial)
        extra = dict(self.attributes)
        if self.alignment is not None:
            extra = {"alignment": self.alignment, **extra}
        printer.print_op_attributes(extra)

    @staticmethod
    def get(
        sym_name: StringAttr,
        sym_type: Attribute,
        initial_value: Attribute | None,
        sym_visibility: StringAttr | None = StringAttr("private"),
        constant: UnitAttr | None = None,
        alignment: int | IntegerAttr[IntegerType] | None = None,
    ) -> GlobalOp:
        if isinstance(alignment, int):
            alignment = IntegerAttr(alignment, 64)
        return GlobalOp.build(
            properties={
                "sym_name": sym_name,
                "type": sym_type,
                "initial_value": initial_value,
                "sym_visibility": sym_visibility,
                "constant": constant,
                "alignment": alignment,
            }
        )


# --------------------------------------------------------------------------------------
# alloca_scope
# --------------------------------------------------------------------------------------


@irdl_op_definition
class AllocaScopeReturnOp(xmemref.AllocaScopeReturnOp):
    """``memref.alloca_scope.return %v : f32`` (implicit when the scope returns
    nothing)."""

    ops = var_operand_def()
    assembly_format = "attr-dict ($ops^ `:` type($ops))?"
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    traits = traits_def(
        IsTerminator(), HasParent(xmemref.AllocaScopeOp), NoMemoryEffect()
    )

    def verify_(self) -> None:
        parent = self.parent_op()
        assert parent is not None
        if self.ops.types != parent.result_types:
            n, m = len(self.ops), len(parent.results)
            if n != m:
                raise VerifyException(
                    f"along control flow edge from Operation memref.alloca_scope.return"
                    f" to parent: region branch point has {n} operands, but region "
                    f"successor needs {m} inputs"
                )
            raise VerifyException(
                "Expected operand types to match parent's return types."
            )


@irdl_op_definition
class AllocaScopeOp(_OwnChecksOnly, xmemref.AllocaScopeOp):
    """``memref.alloca_scope -> (f32) { ... memref.alloca_scope.return %v : f32 }``:
    a scope whose ``memref.alloca``s are freed when it ends."""

    res = var_result_def()
    scope = region_def()
    traits = traits_def(SingleBlockImplicitTerminator(AllocaScopeReturnOp))

    @classmethod
    def parse(cls, parser: Parser) -> AllocaScopeOp:
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                if parser.parse_optional_punctuation(")") is None:
                    result_types = parser.parse_comma_separated_list(
                        parser.Delimiter.NONE, parser.parse_type
                    )
                    parser.parse_punctuation(")")
            else:
                result_types = [parser.parse_type()]
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        block = body.blocks[-1]
        if block.last_op is None or not block.last_op.has_trait(IsTerminator):
            block.add_op(AllocaScopeReturnOp.create())
        attrs = parser.parse_optional_attr_dict()
        return cls.create(result_types=result_types, regions=[body], attributes=attrs)

    def print(self, printer: Printer) -> None:
        # Upstream prints a space, then " -> (types)" when there are results.
        printer.print_string(" ")
        if self.res:
            printer.print_string(" -> (")
            printer.print_list(self.res.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.scope, print_block_terminators=bool(self.res))
        printer.print_op_attributes(self.attributes)


# --------------------------------------------------------------------------------------
# transpose, prefetch
# --------------------------------------------------------------------------------------


_Polynomial = dict[tuple[str, ...], int]
"""An affine (or semi-affine) expression as a sum of products: for each product of
``d<i>``/``s<j>`` (sorted names; ``()`` for the constant), its coefficient."""


def _polynomial(e: AffineExpr) -> _Polynomial | None:
    """``e`` as a polynomial; None when it divides (``mod``, ``floordiv``, ...)."""
    if isinstance(e, AffineConstantExpr):
        return {(): e.value} if e.value else {}
    if isinstance(e, AffineDimExpr):
        return {(f"d{e.position}",): 1}
    if isinstance(e, AffineSymExpr):
        return {(f"s{e.position}",): 1}
    if not isinstance(e, AffineBinaryOpExpr):
        return None
    lhs, rhs = _polynomial(e.lhs), _polynomial(e.rhs)
    if lhs is None or rhs is None:
        return None
    out: _Polynomial = {}
    if e.kind == AffineBinaryOpKind.Add:
        for p in (lhs, rhs):
            for k, v in p.items():
                out[k] = out.get(k, 0) + v
    elif e.kind == AffineBinaryOpKind.Mul:
        for k1, v1 in lhs.items():
            for k2, v2 in rhs.items():
                k = tuple(sorted(k1 + k2))
                out[k] = out.get(k, 0) + v1 * v2
    else:
        return None
    return {k: v for k, v in out.items() if v}


def _polynomial_expr(p: _Polynomial) -> AffineExpr:
    """The expression of ``p``: terms with a dimension first, then the symbols, then
    the constant (as MLIR's ``simplifyAffineExpr`` orders a strided layout)."""

    def order(k: tuple[str, ...]) -> tuple[int, tuple[tuple[str, int], ...]]:
        group = 0 if any(v[0] == "d" for v in k) else 1 if k else 2
        return group, tuple((v[0], int(v[1:])) for v in k)

    result: AffineExpr | None = None
    for k in sorted(p, key=order):
        term: AffineExpr | None = None
        for v in k:
            var = (
                AffineDimExpr(int(v[1:])) if v[0] == "d" else AffineSymExpr(int(v[1:]))
            )
            term = var if term is None else term * var
        coefficient = p[k]
        if term is None:
            term = AffineConstantExpr(coefficient)
        elif coefficient != 1:
            term = term * coefficient
        result = term if result is None else result + term
    return result if result is not None else AffineConstantExpr(0)


def _canonical_layout_polynomial(shape: Sequence[int]) -> _Polynomial | None:
    """MLIR's ``makeCanonicalStridedLayoutExpr`` (the row-major layout of ``shape``)
    as a polynomial; None where it needs a symbol (a dynamic size that is not the
    first), which MLIR 22 never finds equal to a layout."""
    p: _Polynomial = {}
    running = 1
    for dim in reversed(range(len(shape))):
        if running is None:
            return None
        p[(f"d{dim}",)] = running
        running = running * shape[dim] if shape[dim] > 0 else None
    return {k: v for k, v in p.items() if v}


def _canonicalize_strided_layout(t: MemRefType) -> MemRefType:
    """MLIR 22's ``canonicalizeStridedLayout``: the layout dropped where it is the
    row-major one, simplified otherwise; an identity map is kept as it is (so
    ``strided<[1]>`` stays, unlike ``strided<[8, 1]>`` of ``memref<4x8xf32>``).
    The memory space ``0`` is dropped too, as MLIR's types do."""
    layout = t.layout
    shape = t.get_shape()

    def with_layout(new: Attribute) -> MemRefType:
        return MemRefType(t.element_type, shape, new, _memory_space(t))  # pyright: ignore

    if isinstance(layout, AffineMapAttr):
        m = layout.data
    elif isinstance(layout, StridedLayoutAttr):
        m = layout.get_affine_map()
    else:
        return with_layout(layout)
    if m.num_symbols == 0 and m == AffineMap.identity(m.num_dims):
        return with_layout(NoneAttr() if isinstance(layout, AffineMapAttr) else layout)
    if len(m.results) != 1:
        return with_layout(layout)
    if m.num_dims == 0 and m.num_symbols == 0:
        constant = m.results[0]
        zero = isinstance(constant, AffineConstantExpr) and constant.value == 0
        return with_layout(NoneAttr() if zero else layout)
    if not shape:
        return with_layout(layout)
    p = _polynomial(m.results[0])
    if p is None:
        return with_layout(layout)
    if p == _canonical_layout_polynomial(shape):
        return with_layout(NoneAttr())
    return with_layout(
        AffineMapAttr(AffineMap(m.num_dims, m.num_symbols, (_polynomial_expr(p),)))
    )


def _is_permutation(m: AffineMap) -> bool:
    if m.num_symbols != 0 or len(m.results) != m.num_dims:
        return False
    positions = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
    return sorted(positions) == list(range(m.num_dims))


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """``memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x8xf32> to
    memref<8x4xf32, strided<[1, 8]>>``: a view with the dimensions permuted."""

    name = "memref.transpose"

    source = operand_def(MemRefType)
    permutation = prop_def(AffineMapAttr)
    result = result_def(MemRefType)

    traits = traits_def(NoMemoryEffect())

    def __init__(
        self,
        source: SSAValue | Operation,
        permutation: AffineMap | AffineMapAttr,
        result_type: Attribute,
    ):
        if isinstance(permutation, AffineMap):
            permutation = AffineMapAttr(permutation)
        super().__init__(
            operands=[source],
            result_types=[result_type],
            properties={"permutation": permutation},
        )

    def verify_(self) -> None:
        perm = self.permutation.data
        if not _is_permutation(perm):
            raise VerifyException("expected a permutation map")
        source_type = self.source.type
        result_type = self.result.type
        assert isinstance(source_type, MemRefType)
        assert isinstance(result_type, MemRefType)
        if perm.num_dims != source_type.get_num_dims():
            raise VerifyException(
                "expected a permutation map of same rank as the input"
            )
        positions = [e.position for e in perm.results if isinstance(e, AffineDimExpr)]
        layout = _layout_strides(source_type)
        if layout is None:
            raise VerifyException(
                "operand #0 must be strided memref of any type values, but got "
                f"'{source_type}'"
            )
        strides, offset = layout
        shape = source_type.get_shape()
        transposed = MemRefType(
            source_type.element_type,
            tuple(shape[p] for p in positions),
            StridedLayoutAttr(tuple(strides[p] for p in positions), offset),
            source_type.memory_space,
        )
        expected = _canonicalize_strided_layout(transposed)
        if _canonicalize_strided_layout(result_type) != expected:
            raise VerifyException(
                f"result type '{result_type}' is not equivalent to the canonical "
                f"transposed input type '{expected}'"
            )

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        source = parser.parse_unresolved_operand()
        permutation = parser.parse_affine_map()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        result_type = parser.parse_type()
        op = cls(parser.resolve_operand(source, source_type), permutation, result_type)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(f" {self.permutation.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class PrefetchOp(IRDLOperation):
    """``memref.prefetch %m[%i], read, locality<3>, data : memref<10xf32>``: a hint
    to prefetch one element (for reading or writing, locality 0 to 3, into the data or
    the instruction cache)."""

    name = "memref.prefetch"

    memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    isWrite = prop_def(BoolAttr)
    localityHint = prop_def(IntegerAttr[I32])
    isDataCache = prop_def(BoolAttr)

    def __init__(
        self,
        memref: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        is_write: bool,
        locality_hint: int,
        is_data_cache: bool,
    ):
        super().__init__(
            operands=[memref, indices],
            properties={
                "isWrite": BoolAttr.from_bool(is_write),
                "localityHint": IntegerAttr(locality_hint, i32),
                "isDataCache": BoolAttr.from_bool(is_data_cache),
            },
        )

    def verify_(self) -> None:
        hint = self.localityHint.value.data
        if not 0 <= hint <= 3:
            raise VerifyException(
                "attribute 'localityHint' failed to satisfy constraint: 32-bit "
                "signless integer attribute whose minimum value is 0 whose maximum "
                "value is 3"
            )
        memref_type = self.memref.type
        assert isinstance(memref_type, MemRefType)
        if len(self.indices) != memref_type.get_num_dims():
            raise VerifyException("too few indices")

    @classmethod
    def parse(cls, parser: Parser) -> PrefetchOp:
        memref = parser.parse_unresolved_operand()
        indices: list[UnresolvedOperand] = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(",")
        where = parser.pos
        rw = parser.parse_identifier()
        if rw not in ("read", "write"):
            parser.raise_error("rw specifier has to be 'read' or 'write'", where)
        parser.parse_punctuation(",")
        parser.parse_keyword("locality")
        parser.parse_punctuation("<")
        hint = parser.parse_integer()
        parser.parse_punctuation(">")
        parser.parse_punctuation(",")
        where = parser.pos
        cache = parser.parse_identifier()
        if cache not in ("data", "instr"):
            parser.raise_error("cache type has to be 'data' or 'instr'", where)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        memref_type = parser.parse_type()
        index = IndexType()
        op = cls(
            parser.resolve_operand(memref, memref_type),
            [parser.resolve_operand(i, index) for i in indices],
            rw == "write",
            hint,
            cache == "data",
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.memref)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        printer.print_string(", write" if self.isWrite.value.data else ", read")
        printer.print_string(f", locality<{self.localityHint.value.data}>")
        printer.print_string(", data" if self.isDataCache.value.data else ", instr")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)


# --------------------------------------------------------------------------------------
# expand_shape, collapse_shape: the reassociation printed as upstream ([[0, 1]])
# --------------------------------------------------------------------------------------


def _print_reassociation(printer: Printer, reassociation: ArrayAttr) -> None:
    groups = [
        "["
        + ", ".join(
            str(cast(IntegerAttr, i).value.data) for i in cast(ArrayAttr, group).data
        )
        + "]"
        for group in reassociation.data
    ]
    printer.print_string(" [" + ", ".join(groups) + "]")


def _parse_reassociation(parser: Parser) -> ArrayAttr:
    def group() -> ArrayAttr:
        return ArrayAttr(
            parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE,
                lambda: IntegerAttr(parser.parse_integer(), i64),
            )
        )

    return ArrayAttr(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, group))


def _reassociation_groups(reassociation: ArrayAttr) -> list[list[int]]:
    return [[i.value.data for i in group.data] for group in reassociation.data]  # pyright: ignore


def _verify_collapsed_shape(
    collapsed: Sequence[int], expanded: Sequence[int], reassociation: ArrayAttr
) -> None:
    """MLIR's ``verifyCollapsedShape`` (several dynamic sizes in a group allowed):
    one group per collapsed dimension, the expanded dimensions in order, each
    collapsed size the product of its group's."""
    groups = _reassociation_groups(reassociation)
    if len(groups) != len(collapsed):
        raise VerifyException(
            f"invalid number of reassociation groups: found {len(groups)}, "
            f"expected {len(collapsed)}"
        )
    next_dim = 0
    for collapsed_dim, group in enumerate(groups):
        dynamic = False
        for expanded_dim in group:
            if expanded_dim != next_dim:
                raise VerifyException("reassociation indices must be contiguous")
            next_dim += 1
            if expanded_dim >= len(expanded):
                raise VerifyException(
                    f"reassociation index {expanded_dim} is out of bounds"
                )
            dynamic = dynamic or expanded[expanded_dim] == DYNAMIC_INDEX
        if (collapsed[collapsed_dim] == DYNAMIC_INDEX) != dynamic:
            raise VerifyException(
                f"collapsed dim ({collapsed_dim}) must be dynamic if and only if "
                "reassociation group is dynamic"
            )
        if not dynamic:
            size = 1
            for expanded_dim in group:
                size *= expanded[expanded_dim]
            if size != collapsed[collapsed_dim]:
                raise VerifyException(
                    f"collapsed dim size ({collapsed[collapsed_dim]}) must equal "
                    f"reassociation group size ({size})"
                )
    if not collapsed:
        if any(d != 1 for d in expanded):
            raise VerifyException(
                "rank 0 memrefs can only be extended/collapsed with/from ones"
            )
    elif next_dim != len(expanded):
        raise VerifyException(
            f"expanded rank ({len(expanded)}) inconsistent with number of "
            f"reassociation indices ({next_dim})"
        )


def _verify_reshaped_type(source: MemRefType, result: MemRefType, what: str) -> None:
    """The result type that MLIR computes from an identity-layout source (the same
    element type and memory space, no layout). Sources with a layout are not
    checked (MLIR derives the result's strides from theirs)."""
    if not isinstance(source.layout, NoneAttr):
        return
    expected = MemRefType(
        source.element_type, result.get_shape(), NoneAttr(), _memory_space(source)
    )
    if _canonicalize_strided_layout(result) != expected:
        raise VerifyException(
            f"expected {what} type to be '{expected}' but found '{result}'"
        )


_REASSOCIATION = ArrayAttr[ArrayAttr[IntegerAttr]]


@irdl_op_definition
class CollapseShapeOp(xmemref.CollapseShapeOp):
    """``memref.collapse_shape %m [[0, 1]] : memref<4x8xf32> into memref<32xf32>``."""

    src = operand_def(MemRefType)
    result = result_def(MemRefType)
    reassociation = prop_def(_REASSOCIATION)
    traits = traits_def(NoMemoryEffect())
    assembly_format = None

    def verify_(self) -> None:
        source, result = self.src.type, self.result.type
        assert isinstance(source, MemRefType)
        assert isinstance(result, MemRefType)
        r0, r1 = source.get_num_dims(), result.get_num_dims()
        if r0 < r1:
            raise VerifyException(
                f"has source rank {r0} and result rank {r1}. This is not a collapse "
                f"({r0} < {r1})."
            )
        _verify_collapsed_shape(
            result.get_shape(), source.get_shape(), self.reassociation
        )
        _verify_reshaped_type(source, result, "collapsed")

    @classmethod
    def parse(cls, parser: Parser) -> CollapseShapeOp:
        src = parser.parse_unresolved_operand()
        reassociation = _parse_reassociation(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_keyword("into")
        result_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(src, src_type)],
            result_types=[result_type],
            properties={"reassociation": reassociation},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        _print_reassociation(printer, self.reassociation)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" into ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class ExpandShapeOp(xmemref.ExpandShapeOp):
    """``memref.expand_shape %m [[0, 1]] output_shape [%n, 4] : memref<?xf32> into
    memref<?x4xf32>``."""

    src = operand_def(MemRefType)
    output_shape = var_operand_def(IndexType)
    static_output_shape = prop_def(DenseArrayBase.constr(i64))
    result = result_def(MemRefType)
    reassociation = prop_def(_REASSOCIATION)
    traits = traits_def(NoMemoryEffect())
    assembly_format = None

    def verify_(self) -> None:
        source, result = self.src.type, self.result.type
        assert isinstance(source, MemRefType)
        assert isinstance(result, MemRefType)
        r0, r1 = source.get_num_dims(), result.get_num_dims()
        if r0 > r1:
            raise VerifyException(
                f"has source rank {r0} and result rank {r1}. This is not an "
                f"expansion ({r0} > {r1})."
            )
        _verify_collapsed_shape(
            source.get_shape(), result.get_shape(), self.reassociation
        )
        _verify_reshaped_type(source, result, "expanded")
        static = self.static_output_shape.get_values()
        if len(static) != r1:
            raise VerifyException(
                "expected number of static shape bounds to be equal to the output "
                f"rank ({r1}) but found {len(static)} inputs instead"
            )
        dynamic = sum(1 for v in static if v == DYNAMIC_INDEX)
        if dynamic != len(self.output_shape):
            raise VerifyException(
                "mismatch in dynamic dims in output_shape and static_output_shape: "
                f"static_output_shape has {dynamic} dynamic dims while output_shape "
                f"has {len(self.output_shape)} values"
            )
        for pos, (size, bound) in enumerate(zip(result.get_shape(), static)):
            if size != DYNAMIC_INDEX and size != bound:
                raise VerifyException(f"invalid output shape provided at pos {pos}")

    @classmethod
    def parse(cls, parser: Parser) -> ExpandShapeOp:
        src = parser.parse_unresolved_operand()
        reassociation = _parse_reassociation(parser)
        parser.parse_keyword("output_shape")
        static: list[int] = []
        dynamic: list[UnresolvedOperand] = []

        def entry() -> None:
            operand = parser.parse_optional_unresolved_operand()
            if operand is not None:
                dynamic.append(operand)
                static.append(DYNAMIC_INDEX)
            else:
                static.append(parser.parse_integer())

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_keyword("into")
        result_type = parser.parse_type()
        index = IndexType()
        return cls.create(
            operands=[
                parser.resolve_operand(src, src_type),
                *(parser.resolve_operand(d, index) for d in dynamic),
            ],
            result_types=[result_type],
            properties={
                "reassociation": reassociation,
                "static_output_shape": DenseArrayBase.from_list(i64, static),
            },
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        _print_reassociation(printer, self.reassociation)
        printer.print_string(" output_shape [")
        dynamic = iter(self.output_shape)
        entries: list[str | SSAValue] = [
            next(dynamic) if v == DYNAMIC_INDEX else str(v)
            for v in self.static_output_shape.get_values()
        ]
        printer.print_list(
            entries,
            lambda e: (
                printer.print_string(e)
                if isinstance(e, str)
                else printer.print_operand(e)
            ),
        )
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" into ")
        printer.print_attribute(self.result.type)


_NEW_CLASSES: tuple[type[IRDLOperation], ...] = (
    AllocaScopeOp,
    AllocaScopeReturnOp,
    AtomicRMWOp,
    CastOp,
    CollapseShapeOp,
    CopyOp,
    ExpandShapeOp,
    ExtractAlignedPointerAsIndexOp,
    GlobalOp,
    MemorySpaceCastOp,
    RankOp,
)
_REPLACED = {op.name for op in _NEW_CLASSES}

MEMREF = Dialect(
    "memref",
    [
        *(op for op in xmemref.MemRef.operations if op.name not in _REPLACED),
        *_NEW_CLASSES,
        GenericAtomicRMWOp,
        AtomicYieldOp,
        TransposeOp,
        PrefetchOp,
    ],
    list(xmemref.MemRef.attributes),
    list(xmemref.MemRef._interfaces),  # pyright: ignore[reportPrivateUsage]
)

__all__ = [
    "ATOMIC_RMW_KINDS",
    "MEMREF",
    "AllocaScopeOp",
    "AllocaScopeReturnOp",
    "AtomicRMWOp",
    "AtomicYieldOp",
    "CastOp",
    "CollapseShapeOp",
    "CopyOp",
    "ExpandShapeOp",
    "ExtractAlignedPointerAsIndexOp",
    "GenericAtomicRMWOp",
    "GlobalOp",
    "MemorySpaceCastOp",
    "PrefetchOp",
    "RankOp",
    "TransposeOp",
]
