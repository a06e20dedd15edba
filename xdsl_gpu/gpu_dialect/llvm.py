"""The ``llvm`` dialect: xDSL's, extended with what the GPU flow needs.

Every name of ``xdsl.dialects.llvm`` is available from this module, so lowering code
imports one module (``from gpu_dialect import llvm``). What xDSL 0.74 lacks is defined
here with upstream MLIR 22's names, properties and printed syntax:

* casts: ``fptosi``, ``fptoui``, ``uitofp`` (``nneg``), ``addrspacecast``;
* control flow: ``llvm.switch``;
* atomics: ``atomicrmw``, ``cmpxchg``, ``fence``; ``load``/``store`` with
  ``volatile``, ``atomic [syncscope(...)] <ordering>``, ``invariant``;
* attributes: ``#llvm.zero``, ``#llvm.constant_range<i32, 0, 64>`` (the
  ``range`` of the nvvm special-register ops);
* constants and module level: ``llvm.mlir.poison``,
  ``llvm.mlir.global_ctors``/``global_dtors``, ``llvm.mlir.global`` with visibility
  and ``externally_initialized``;
* intrinsics (``llvm.intr.*``), one base class per family: unary, binary and ternary
  float (with fastmath flags), ``powi``, bit counting (``ctlz``/``cttz`` with
  ``is_zero_poison``), ``ctpop``/``bitreverse``/``bswap``, ``abs``, integer min/max,
  ``*.with.overflow``, ``memcpy``/``memmove``/``memset``, ``is.fpclass``, ``assume``,
  ``trap``.

Where xDSL has an op but prints or keeps it unlike upstream, ours replaces it under the
same class name (``FCmpOp`` dropped fastmath flags it had parsed; the float intrinsics
are regrouped into families). ``LLVM`` is xDSL's dialect with these replaced and added,
and ``xdsl_gpu/gpu_dialect/registration.py`` makes stock ``xdsl-opt`` load it.

Properties that are enums upstream (atomic orderings, ``atomicrmw`` operations) are kept
as ``i64`` integers, as upstream's generic form has them.
"""

from __future__ import annotations

import functools
from abc import ABC
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import llvm as _xllvm
from xdsl.dialects.builtin import (
    I1,
    I32,
    I64,
    AnyFloat,
    AnyFloatConstr,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    SignlessIntegerConstraint,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.dialects.llvm import *  # noqa: F403  # pyright: ignore[reportAssignmentType, reportWildcardImportFromLibrary]  (re-export xDSL's llvm dialect; same-name classes below extend xDSL's)
from xdsl.dialects.llvm import (
    GEP_USE_SSA_VAL,
    FastMathAttr,
    FCmpPredicateFlag,
    GenericCastOp,
    LinkageAttr,
    LLVMPointerType,
    LLVMStructType,
)
from xdsl.dialects.utils import (
    FastMathFlag,
    parse_dynamic_index_list_without_types,
    parse_func_op_like,
    print_dynamic_index_list,
    print_func_op_like,
)
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypedAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    OptionalDef,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_successor_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    IsolatedFromAbove,
    IsTerminator,
    NoMemoryEffect,
    Pure,
    SymbolOpInterface,
    SymbolTable,
    SymbolUserOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xdsl_gpu.gpu_dialect.llvm_debug_info import DEBUG_INFO_ATTRIBUTES
from xdsl_gpu.gpu_dialect.llvm_matrix import MATRIX_OPS
from xdsl_gpu.gpu_dialect.llvm_vector import VECTOR_LLVM_OPS
from xdsl_gpu.gpu_dialect.llvm_vp import VP_REDUCE_OPS

# --------------------------------------------------------------------------------------
# Enums kept as integers (upstream's generic form)
# --------------------------------------------------------------------------------------

ATOMIC_ORDERINGS: dict[str, int] = {
    "not_atomic": 0,
    "unordered": 1,
    "monotonic": 2,
    "acquire": 4,
    "release": 5,
    "acq_rel": 6,
    "seq_cst": 7,
}
"""``LLVM::AtomicOrdering``: keyword to the integer of the generic form."""

ATOMIC_ORDERING_NAMES: dict[int, str] = {v: k for k, v in ATOMIC_ORDERINGS.items()}

ATOMIC_BIN_OPS: tuple[str, ...] = (
    "xchg",
    "add",
    "sub",
    "_and",
    "nand",
    "_or",
    "_xor",
    "max",
    "min",
    "umax",
    "umin",
    "fadd",
    "fsub",
    "fmax",
    "fmin",
    "uinc_wrap",
    "udec_wrap",
    "usub_cond",
    "usub_sat",
    "fmaximum",
    "fminimum",
)
"""``LLVM::AtomicBinOp`` keywords, in the order of their integer values."""

_FLOAT_ATOMIC_BIN_OPS = frozenset(
    {"fadd", "fsub", "fmax", "fmin", "fmaximum", "fminimum"}
)

LINKAGES: tuple[str, ...] = (
    "private",
    "internal",
    "available_externally",
    "linkonce",
    "weak",
    "common",
    "appending",
    "extern_weak",
    "linkonce_odr",
    "weak_odr",
    "external",
)

VISIBILITIES: dict[int, str] = {0: "", 1: "hidden", 2: "protected"}
UNNAMED_ADDRS: dict[int, str] = {0: "", 1: "local_unnamed_addr", 2: "unnamed_addr"}


def _ordering_attr(ordering: str | int) -> IntegerAttr:
    value = ATOMIC_ORDERINGS[ordering] if isinstance(ordering, str) else ordering
    return IntegerAttr(value, i64)


def _parse_ordering(parser: Parser) -> IntegerAttr:
    pos = parser.pos
    kw = parser.parse_optional_keyword_in(ATOMIC_ORDERINGS)
    if kw is None:
        parser.raise_error(
            "expected an atomic ordering, one of " + ", ".join(ATOMIC_ORDERINGS), pos
        )
    return _ordering_attr(kw)


def _ordering_name(attr: IntegerAttr) -> str:
    return ATOMIC_ORDERING_NAMES[attr.value.data]


def _parse_optional_syncscope(parser: Parser) -> StringAttr | None:
    if parser.parse_optional_keyword("syncscope") is None:
        return None
    parser.parse_punctuation("(")
    scope = parser.parse_str_literal()
    parser.parse_punctuation(")")
    return StringAttr(scope)


def _print_optional_syncscope(printer: Printer, scope: StringAttr | None) -> None:
    if scope is not None:
        printer.print_string(" syncscope(")
        printer.print_string_literal(scope.data)
        printer.print_string(")")


def _verify_ordering(op: Operation, attr: IntegerAttr, what: str = "ordering") -> None:
    if attr.value.data not in ATOMIC_ORDERING_NAMES:
        raise VerifyException(f"'{op.name}' op has an invalid {what} {attr.value.data}")


def _fastmath(flags: FastMathAttr | FastMathFlag | str | None) -> FastMathAttr:
    if isinstance(flags, FastMathAttr):
        return flags
    if isinstance(flags, FastMathFlag):
        return FastMathAttr((flags,))
    return FastMathAttr(flags)


def _float_like(t: Attribute) -> bool:
    if isa(t, VectorType):
        t = t.element_type
    return isinstance(t, AnyFloat)


_FloatLike = AnyFloatConstr | VectorType.constr(AnyFloatConstr)
_IntLike = SignlessIntegerConstraint | VectorType.constr(SignlessIntegerConstraint)


# --------------------------------------------------------------------------------------
# Attributes
# --------------------------------------------------------------------------------------


@irdl_attr_definition
class ZeroAttr(ParametrizedAttribute):
    """``#llvm.zero``: a zero-initialized value (as in ``global_ctors`` data)."""

    name = "llvm.zero"


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


# --------------------------------------------------------------------------------------
# Casts
# --------------------------------------------------------------------------------------


class _ExtendsXdsl(IRDLOperation):
    """Base of an op that subclasses xDSL's op of the same name (so that xDSL's
    backends, passes and patterns, which test ``isinstance`` or match ``case
    llvm.FooOp()``, accept it) while keeping only its own definition:

    * ``irdl_op_definition`` gave xDSL's class the ``parse``/``print`` of its
      assembly format, which a subclass with its own format must not inherit;
    * xDSL's generated ``verify_`` checks xDSL's field definitions; the no-op here
      makes the generated ``verify_`` of the subclass check only the subclass's.
    """

    print = Operation.print
    parse = Operation.__dict__["parse"]

    def verify_(self) -> None:
        pass


@irdl_op_definition
class FPToSIOp(GenericCastOp):
    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(GenericCastOp):
    name = "llvm.fptoui"


@irdl_op_definition
class UIToFPOp(IRDLOperation):
    """``llvm.uitofp``, with upstream's ``nneg`` flag."""

    name = "llvm.uitofp"

    arg = operand_def(_IntLike)
    result = result_def(_FloatLike)
    non_neg = opt_prop_def(UnitAttr, prop_name="nonNeg")

    traits = traits_def(NoMemoryEffect())

    assembly_format = (
        "(`nneg` $nonNeg^)? $arg attr-dict `:` type($arg) `to` type($result)"
    )

    def __init__(
        self, val: Operation | SSAValue, res_type: Attribute, *, non_neg: bool = False
    ):
        super().__init__(
            operands=[val],
            result_types=[res_type],
            properties={"nonNeg": UnitAttr() if non_neg else None},
        )


@irdl_op_definition
class AddrSpaceCastOp(IRDLOperation):
    name = "llvm.addrspacecast"

    arg = operand_def(base(LLVMPointerType) | VectorType.constr(base(LLVMPointerType)))
    result = result_def(
        base(LLVMPointerType) | VectorType.constr(base(LLVMPointerType))
    )

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$arg attr-dict `:` type($arg) `to` type($result)"

    def __init__(self, val: Operation | SSAValue, res_type: Attribute):
        super().__init__(operands=[val], result_types=[res_type])


# --------------------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------------------


@irdl_op_definition
class PoisonOp(IRDLOperation):
    name = "llvm.mlir.poison"

    res = result_def()

    traits = traits_def(Pure())

    assembly_format = "attr-dict `:` type($res)"

    def __init__(self, res_type: Attribute):
        super().__init__(result_types=[res_type])


# --------------------------------------------------------------------------------------
# Control flow
# --------------------------------------------------------------------------------------


@irdl_op_definition
class SwitchOp(IRDLOperation):
    """``llvm.switch``: multi-way branch on an integer.

    Printed as upstream prints it::

        llvm.switch %x : i32, ^default(%a : i32) [
          0: ^bb1,
          5: ^bb2(%b : i32)
        ]
    """

    name = "llvm.switch"

    value = operand_def(SignlessIntegerConstraint)
    default_operands = var_operand_def()
    case_operands = var_operand_def()

    case_values = opt_prop_def(DenseIntOrFPElementsAttr)
    case_operand_segments = prop_def(DenseArrayBase.constr(i32))
    branch_weights = opt_prop_def(DenseArrayBase.constr(i32))

    default_destination = successor_def()
    case_destinations = var_successor_def()

    traits = traits_def(IsTerminator(), Pure())

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        value: Operation | SSAValue,
        default_destination: Block,
        default_operands: Sequence[Operation | SSAValue] = (),
        case_values: Sequence[int] = (),
        case_destinations: Sequence[Block] = (),
        case_operands: Sequence[Sequence[Operation | SSAValue]] | None = None,
        branch_weights: Sequence[int] | None = None,
    ):
        value = SSAValue.get(value)
        if case_operands is None:
            case_operands = [()] * len(case_values)
        if not (len(case_values) == len(case_destinations) == len(case_operands)):
            raise ValueError("llvm.switch needs as many case values as destinations")
        props: dict[str, Attribute | None] = {
            "case_operand_segments": DenseArrayBase.from_list(
                i32, [len(ops) for ops in case_operands]
            ),
            "branch_weights": (
                None
                if branch_weights is None
                else DenseArrayBase.from_list(i32, branch_weights)
            ),
        }
        if case_values:
            assert isa(value.type, IntegerType)
            props["case_values"] = DenseIntOrFPElementsAttr.from_list(
                VectorType(value.type, [len(case_values)]), case_values
            )
        super().__init__(
            operands=[
                value,
                default_operands,
                [o for ops in case_operands for o in ops],
            ],
            successors=[default_destination, case_destinations],
            properties=props,
        )

    def case_value_list(self) -> tuple[int, ...]:
        if self.case_values is None:
            return ()
        return tuple(int(v) for v in self.case_values.iter_values())  # pyright: ignore

    def case_operand_groups(self) -> list[tuple[SSAValue, ...]]:
        groups: list[tuple[SSAValue, ...]] = []
        start = 0
        for size in self.case_operand_segments.get_values():
            assert isinstance(size, int)
            groups.append(tuple(self.case_operands[start : start + size]))
            start += size
        return groups

    def verify_(self) -> None:
        n = len(self.case_value_list())
        if n != len(self.case_destinations):
            raise VerifyException(
                "'llvm.switch' op expects number of case values to match number of "
                f"case destinations: {n} vs {len(self.case_destinations)}"
            )
        sizes = self.case_operand_segments.get_values()
        if len(sizes) != n or sum(int(s) for s in sizes) != len(self.case_operands):
            raise VerifyException(
                "'llvm.switch' op case_operand_segments does not match the case "
                "operands"
            )
        if self.case_values is not None:
            elt = self.case_values.get_element_type()
            if elt != self.value.type:
                raise VerifyException(
                    f"'llvm.switch' op case values have type {elt}, "
                    f"expected {self.value.type}"
                )
        if self.branch_weights is not None:
            nw = len(self.branch_weights.get_values())
            if nw != n + 1:
                raise VerifyException(
                    "'llvm.switch' op expects number of branch weights to match "
                    f"number of successors: {nw} vs {n + 1}"
                )

    @staticmethod
    def _print_dest(printer: Printer, dest: Block, args: Sequence[SSAValue]) -> None:
        printer.print_block_name(dest)
        if args:
            printer.print_string("(")
            printer.print_list(args, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list([a.type for a in args], printer.print_attribute)
            printer.print_string(")")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        self._print_dest(printer, self.default_destination, self.default_operands)
        printer.print_string(" [")
        cases = list(
            zip(
                self.case_value_list(),
                self.case_destinations,
                self.case_operand_groups(),
            )
        )
        with printer.indented():
            for i, (value, dest, args) in enumerate(cases):
                printer.print_string("\n")
                printer.print_string(f"{value}: ")
                self._print_dest(printer, dest, args)
                if i + 1 < len(cases):
                    printer.print_string(",")
        printer.print_string("\n]")
        printer.print_op_attributes(
            self.attributes
            | (
                {"branch_weights": self.branch_weights}
                if self.branch_weights is not None
                else {}
            )
        )

    @staticmethod
    def _parse_dest(
        parser: Parser,
    ) -> tuple[Block, list[UnresolvedOperand], list[Attribute]]:
        dest = parser.parse_successor()
        operands: list[UnresolvedOperand] = []
        types: list[Attribute] = []
        if parser.parse_optional_punctuation("(") is not None:
            operands = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
            parser.parse_punctuation(")")
        return dest, operands, types

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        default, default_ops, default_types = cls._parse_dest(parser)

        def parse_case() -> tuple[int, Block, list[SSAValue]]:
            case_value = parser.parse_integer()
            parser.parse_punctuation(":")
            dest, ops, types = cls._parse_dest(parser)
            return (
                case_value,
                dest,
                list(parser.resolve_operands(ops, types, parser.pos)),
            )

        cases = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_case)
        attrs = parser.parse_optional_attr_dict()
        weights = attrs.pop("branch_weights", None)
        op = cls(
            parser.resolve_operand(value, value_type),
            default,
            parser.resolve_operands(default_ops, default_types, parser.pos),
            [c[0] for c in cases],
            [c[1] for c in cases],
            [c[2] for c in cases],
        )
        if weights is not None:
            op.properties["branch_weights"] = weights
        op.attributes |= attrs
        return op


# --------------------------------------------------------------------------------------
# getelementptr with upstream's no-wrap flags
# --------------------------------------------------------------------------------------

GEP_NO_WRAP_FLAGS: dict[str, int] = {
    "inbounds": 3,
    "inbounds_flag": 1,
    "nusw": 2,
    "nuw": 4,
}
"""``LLVM::GEPNoWrapFlags`` bits; ``inbounds`` implies ``nusw``."""


def _gep_flags_keyword(flags: int) -> str:
    words: list[str] = []
    if flags & 3 == 3:
        words.append("inbounds")
    elif flags & 2:
        words.append("nusw")
    elif flags & 1:
        words.append("inbounds_flag")
    if flags & 4:
        words.append("nuw")
    return "|".join(words)


_GEP_KINDS = {
    LLVMPointerType: "LLVM pointer type",
    IntegerType: "signless integer",
}


def _check_scalar_or_vector(t: Attribute, kind: type[Attribute], what: str) -> None:
    """Upstream's ``LLVM_ScalarOrVectorOf``: a ``kind`` or a 1-D vector of them."""
    element = t.element_type if isa(t, VectorType) else t
    ok = isinstance(element, kind) and (not isa(t, VectorType) or t.get_num_dims() == 1)
    if not ok:
        name = _GEP_KINDS[kind]
        raise VerifyException(
            f"'llvm.getelementptr' op {what} must be {name} or LLVM dialect-compatible "
            f"vector of {name}, but got '{t}'"
        )


@irdl_op_definition
class GEPOp(_xllvm.GEPOp):
    """``llvm.getelementptr [inbounds|nusw|nuw...] %p[%i, 2] : (...) -> !llvm.ptr, T``.

    Replaces xDSL's, which kept ``inbounds`` as a separate unit property upstream does
    not have and could not parse ``inbounds|nuw`` (what ``finalize-memref-to-llvm``
    prints). ``inbounds=True`` in the constructor sets the ``inbounds`` flags.
    """

    name = "llvm.getelementptr"

    ptr = operand_def(base(LLVMPointerType) | base(VectorType))
    ssa_indices = var_operand_def(base(IntegerType) | base(VectorType))
    elem_type = prop_def()
    rawConstantIndices = prop_def(DenseArrayBase.constr(i32))
    noWrapFlags = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, i32))
    inbounds = opt_prop_def(UnitAttr)
    """xDSL's field (a subclass must redefine every field of its base); upstream has
    no such property (``inbounds`` is a bit of ``noWrapFlags``), so it is rejected.
    After the class is defined, ``GEPOp.inbounds`` is the bool of that bit again."""

    result = result_def(base(LLVMPointerType) | base(VectorType))
    """A pointer, or a vector of pointers when the base or an index is a vector (one
    address per lane, as vector.gather/scatter lower)."""

    traits = traits_def(NoMemoryEffect())

    def __init__(
        self,
        ptr: SSAValue | Operation,
        indices: Sequence[int],
        pointee_type: Attribute,
        ssa_indices: Sequence[SSAValue | Operation] | None = None,
        result_type: LLVMPointerType | VectorType = LLVMPointerType(),
        inbounds: bool = False,
        *,
        no_wrap_flags: int = 0,
    ):
        if inbounds:
            no_wrap_flags |= GEP_NO_WRAP_FLAGS["inbounds"]
        IRDLOperation.__init__(
            self,
            operands=[ptr, ssa_indices or []],
            result_types=[result_type],
            properties={
                "rawConstantIndices": DenseArrayBase.from_list(i32, indices),
                "elem_type": pointee_type,
                "noWrapFlags": IntegerAttr(no_wrap_flags, 32),
            },
        )

    @staticmethod
    def from_mixed_indices(
        ptr: SSAValue | Operation,
        indices: Sequence[int | SSAValue | Operation],
        pointee_type: Attribute,
        result_type: LLVMPointerType | VectorType = LLVMPointerType(),
        inbounds: bool = False,
        *,
        no_wrap_flags: int = 0,
    ) -> GEPOp:
        """Constant indices as ints, dynamic ones as SSA values, in one list."""
        ssa_indices: list[SSAValue] = []
        const_indices: list[int] = []
        for idx in indices:
            if isinstance(idx, int):
                const_indices.append(idx)
            else:
                const_indices.append(GEP_USE_SSA_VAL)
                ssa_indices.append(SSAValue.get(idx))
        return GEPOp(
            ptr,
            const_indices,
            pointee_type,
            ssa_indices,
            result_type,
            inbounds,
            no_wrap_flags=no_wrap_flags,
        )

    def _has_inbounds_flag(self) -> bool:
        return self.noWrapFlags.value.data & 1 != 0

    def verify_(self) -> None:
        if "inbounds" in self.properties:
            raise VerifyException(
                "'inbounds' is not a property of upstream's llvm.getelementptr; "
                "use noWrapFlags"
            )
        _check_scalar_or_vector(self.ptr.type, LLVMPointerType, "operand #0")
        for i, index in enumerate(self.ssa_indices, start=1):
            _check_scalar_or_vector(index.type, IntegerType, f"operand #{i}")
        _check_scalar_or_vector(self.result.type, LLVMPointerType, "result #0")
        indices = tuple(self.rawConstantIndices.iter_values())
        n_dynamic = sum(1 for i in indices if i == GEP_USE_SSA_VAL)
        if n_dynamic != len(self.ssa_indices):
            raise VerifyException(
                f"'llvm.getelementptr' op has {n_dynamic} dynamic index markers but "
                f"{len(self.ssa_indices)} index operands"
            )
        current: Attribute = self.elem_type
        for i, idx in enumerate(indices[1:], start=1):
            if isinstance(current, _xllvm.LLVMArrayType):
                current = current.type
            elif isa(current, VectorType):
                current = current.element_type
            elif isinstance(current, LLVMStructType):
                if idx == GEP_USE_SSA_VAL:
                    raise VerifyException(
                        f"'llvm.getelementptr' op index {i} indexing a struct must be "
                        "a constant"
                    )
                if not 0 <= idx < len(current.types):
                    raise VerifyException(
                        f"'llvm.getelementptr' op index {i} indexing a struct is out "
                        "of bounds"
                    )
                current = current.types.data[idx]
            else:
                raise VerifyException(
                    f"'llvm.getelementptr' op type {current} cannot be indexed "
                    f"(index #{i})"
                )

    def print(self, printer: Printer) -> None:
        if kw := _gep_flags_keyword(self.noWrapFlags.value.data):
            printer.print_string(f" {kw}")
        printer.print_string(" ")
        printer.print_ssa_value(self.ptr)
        print_dynamic_index_list(
            printer,
            GEP_USE_SSA_VAL,
            self.ssa_indices,
            self.rawConstantIndices.iter_values(),
        )
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(
            [self.ptr.type, *(v.type for v in self.ssa_indices)], [self.result.type]
        )
        printer.print_string(", ")
        printer.print_attribute(self.elem_type)

    @classmethod
    def parse(cls, parser: Parser) -> GEPOp:
        flags = 0
        while (kw := parser.parse_optional_keyword_in(GEP_NO_WRAP_FLAGS)) is not None:
            flags |= GEP_NO_WRAP_FLAGS[kw]
            if parser.parse_optional_punctuation("|") is None:
                break
        ptr = parser.parse_unresolved_operand()
        ssa_refs, const_indices = parse_dynamic_index_list_without_types(
            parser, GEP_USE_SSA_VAL
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ft = parser.parse_function_type()
        parser.parse_punctuation(",")
        elem_type = parser.parse_type()
        resolved = parser.resolve_operands([ptr, *ssa_refs], ft.inputs.data, parser.pos)
        result_type = ft.outputs.data[0]
        if not isinstance(result_type, LLVMPointerType) and not (
            isa(result_type, VectorType)
            and isinstance(result_type.element_type, LLVMPointerType)
        ):
            parser.raise_error(
                "expected an !llvm.ptr or vector of !llvm.ptr result, got "
                f"{result_type}"
            )
        op = cls(
            resolved[0],
            list(const_indices),
            elem_type,
            resolved[1:],
            result_type,
            no_wrap_flags=flags,
        )
        op.attributes |= attrs
        return op


# --------------------------------------------------------------------------------------
# Memory: load/store with upstream's full syntax, atomics, fence
# --------------------------------------------------------------------------------------


# The IRDL field ``inbounds`` above only keeps xDSL's definition out; the Python
# attribute is the ``inbounds`` bit of ``noWrapFlags``, as before.
GEPOp.inbounds = property(GEPOp._has_inbounds_flag)  # type: ignore[assignment]


@irdl_op_definition
class LoadOp(_xllvm.LoadOp):
    """``llvm.load`` with upstream's ``volatile``,
    ``atomic [syncscope(...)] <ordering>``, ``invariant`` and ``invariant_group``
    keywords (xDSL's has only ``atomic``).

    Field names are xDSL's (``ptr``, ``dereferenced_value``).
    """

    name = "llvm.load"

    ptr = operand_def(LLVMPointerType)

    alignment = opt_prop_def(IntegerAttr[IntegerType])
    ordering = prop_def(IntegerAttr[IntegerType], default_value=IntegerAttr(0, i64))
    volatile_ = opt_prop_def(UnitAttr)
    nontemporal = opt_prop_def(UnitAttr)
    invariant = opt_prop_def(UnitAttr)
    invariantGroup = opt_prop_def(UnitAttr)
    syncscope = opt_prop_def(StringAttr)

    dereferenced_value = result_def()

    def __init__(
        self,
        ptr: SSAValue | Operation,
        result_type: Attribute,
        alignment: int | None = None,
        ordering: int | str = 0,
        *,
        volatile: bool = False,
        nontemporal: bool = False,
        invariant: bool = False,
        syncscope: str | None = None,
    ):
        IRDLOperation.__init__(
            self,
            operands=[ptr],
            result_types=[result_type],
            properties={
                "ordering": _ordering_attr(ordering),
                "alignment": None if alignment is None else IntegerAttr(alignment, i64),
                "volatile_": UnitAttr() if volatile else None,
                "nontemporal": UnitAttr() if nontemporal else None,
                "invariant": UnitAttr() if invariant else None,
                "syncscope": None if syncscope is None else StringAttr(syncscope),
            },
        )

    def verify_(self) -> None:
        _verify_ordering(self, self.ordering)
        if self.ordering.value.data and self.alignment is None:
            raise VerifyException("'llvm.load' op expected alignment for atomic access")
        if _ordering_name(self.ordering) in ("release", "acq_rel"):
            raise VerifyException(
                f"'llvm.load' op unsupported ordering '{_ordering_name(self.ordering)}'"
            )

    def print(self, printer: Printer) -> None:
        if self.volatile_ is not None:
            printer.print_string(" volatile")
        printer.print_string(" ")
        printer.print_ssa_value(self.ptr)
        if self.ordering.value.data != 0:
            printer.print_string(" atomic")
            _print_optional_syncscope(printer, self.syncscope)
            printer.print_string(f" {_ordering_name(self.ordering)}")
        if self.invariant is not None:
            printer.print_string(" invariant")
        if self.invariantGroup is not None:
            printer.print_string(" invariant_group")
        attrs: dict[str, Attribute] = {}
        if self.alignment is not None:
            attrs["alignment"] = self.alignment
        if self.nontemporal is not None:
            attrs["nontemporal"] = self.nontemporal
        printer.print_op_attributes(attrs | self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dereferenced_value.type)

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        volatile = parser.parse_optional_keyword("volatile") is not None
        ptr = parser.parse_unresolved_operand()
        ordering = IntegerAttr(0, i64)
        syncscope = None
        if parser.parse_optional_keyword("atomic") is not None:
            syncscope = _parse_optional_syncscope(parser)
            ordering = _parse_ordering(parser)
        invariant = parser.parse_optional_keyword("invariant") is not None
        invariant_group = parser.parse_optional_keyword("invariant_group") is not None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        props: dict[str, Attribute] = {"ordering": ordering}
        for key in ("alignment", "nontemporal"):
            if (a := attrs.pop(key, None)) is not None:
                props[key] = a
        for key, flag in (
            ("volatile_", volatile),
            ("invariant", invariant),
            ("invariantGroup", invariant_group),
        ):
            if flag:
                props[key] = UnitAttr()
        if syncscope is not None:
            props["syncscope"] = syncscope
        return cls.create(
            operands=[parser.resolve_operand(ptr, ptr_type)],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )


@irdl_op_definition
class StoreOp(_xllvm.StoreOp):
    """``llvm.store`` with upstream's ``volatile`` and
    ``atomic [syncscope(...)] <ordering>`` keywords. Field names are xDSL's."""

    name = "llvm.store"

    value = operand_def()
    ptr = operand_def(LLVMPointerType)

    alignment = opt_prop_def(IntegerAttr[IntegerType])
    ordering = prop_def(IntegerAttr[IntegerType], default_value=IntegerAttr(0, i64))
    volatile_ = opt_prop_def(UnitAttr)
    nontemporal = opt_prop_def(UnitAttr)
    invariantGroup = opt_prop_def(UnitAttr)
    syncscope = opt_prop_def(StringAttr)

    def __init__(
        self,
        value: SSAValue | Operation,
        ptr: SSAValue | Operation,
        alignment: int | None = None,
        ordering: int | str = 0,
        volatile: bool = False,
        nontemporal: bool = False,
        *,
        syncscope: str | None = None,
    ):
        IRDLOperation.__init__(
            self,
            operands=[value, ptr],
            properties={
                "ordering": _ordering_attr(ordering),
                "alignment": None if alignment is None else IntegerAttr(alignment, i64),
                "volatile_": UnitAttr() if volatile else None,
                "nontemporal": UnitAttr() if nontemporal else None,
                "syncscope": None if syncscope is None else StringAttr(syncscope),
            },
        )

    def verify_(self) -> None:
        _verify_ordering(self, self.ordering)
        if self.ordering.value.data and self.alignment is None:
            raise VerifyException(
                "'llvm.store' op expected alignment for atomic access"
            )
        if _ordering_name(self.ordering) in ("acquire", "acq_rel"):
            raise VerifyException(
                "'llvm.store' op unsupported ordering "
                f"'{_ordering_name(self.ordering)}'"
            )

    def print(self, printer: Printer) -> None:
        if self.volatile_ is not None:
            printer.print_string(" volatile")
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        printer.print_ssa_value(self.ptr)
        if self.ordering.value.data != 0:
            printer.print_string(" atomic")
            _print_optional_syncscope(printer, self.syncscope)
            printer.print_string(f" {_ordering_name(self.ordering)}")
        if self.invariantGroup is not None:
            printer.print_string(" invariant_group")
        attrs: dict[str, Attribute] = {}
        if self.alignment is not None:
            attrs["alignment"] = self.alignment
        if self.nontemporal is not None:
            attrs["nontemporal"] = self.nontemporal
        printer.print_op_attributes(attrs | self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        printer.print_attribute(self.ptr.type)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        volatile = parser.parse_optional_keyword("volatile") is not None
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        ptr = parser.parse_unresolved_operand()
        ordering = IntegerAttr(0, i64)
        syncscope = None
        if parser.parse_optional_keyword("atomic") is not None:
            syncscope = _parse_optional_syncscope(parser)
            ordering = _parse_ordering(parser)
        invariant_group = parser.parse_optional_keyword("invariant_group") is not None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        ptr_type = parser.parse_type()
        props: dict[str, Attribute] = {"ordering": ordering}
        for key in ("alignment", "nontemporal"):
            if (a := attrs.pop(key, None)) is not None:
                props[key] = a
        if volatile:
            props["volatile_"] = UnitAttr()
        if invariant_group:
            props["invariantGroup"] = UnitAttr()
        if syncscope is not None:
            props["syncscope"] = syncscope
        return cls.create(
            operands=[
                parser.resolve_operand(value, value_type),
                parser.resolve_operand(ptr, ptr_type),
            ],
            properties=props,
            attributes=attrs,
        )


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """``llvm.atomicrmw``:
    ``%old = llvm.atomicrmw add %ptr, %val acq_rel : !llvm.ptr, i32``."""

    name = "llvm.atomicrmw"

    T: ClassVar = VarConstraint("T", AnyAttr())

    ptr = operand_def(LLVMPointerType)
    val = operand_def(T)
    res = result_def(T)

    bin_op = prop_def(IntegerAttr[I64])
    ordering = prop_def(IntegerAttr[I64])
    syncscope = opt_prop_def(StringAttr)
    alignment = opt_prop_def(IntegerAttr[I64])
    volatile_ = opt_prop_def(UnitAttr)

    def __init__(
        self,
        bin_op: str | int,
        ptr: Operation | SSAValue,
        val: Operation | SSAValue,
        ordering: str | int,
        *,
        syncscope: str | None = None,
        alignment: int | None = None,
        volatile: bool = False,
    ):
        if isinstance(bin_op, str):
            bin_op = ATOMIC_BIN_OPS.index(bin_op)
        super().__init__(
            operands=[ptr, val],
            result_types=[SSAValue.get(val).type],
            properties={
                "bin_op": IntegerAttr(bin_op, i64),
                "ordering": _ordering_attr(ordering),
                "syncscope": None if syncscope is None else StringAttr(syncscope),
                "alignment": None if alignment is None else IntegerAttr(alignment, i64),
                "volatile_": UnitAttr() if volatile else None,
            },
        )

    @property
    def bin_op_name(self) -> str:
        return ATOMIC_BIN_OPS[self.bin_op.value.data]

    def verify_(self) -> None:
        if not 0 <= self.bin_op.value.data < len(ATOMIC_BIN_OPS):
            raise VerifyException(
                f"'llvm.atomicrmw' op has an invalid bin_op {self.bin_op.value.data}"
            )
        _verify_ordering(self, self.ordering)
        kind = self.bin_op_name
        val_type = self.val.type
        if kind in _FLOAT_ATOMIC_BIN_OPS:
            if not _float_like(val_type):
                raise VerifyException(
                    "'llvm.atomicrmw' op expected LLVM IR floating point type: "
                    f"'{kind}' operates on floats, got {val_type}"
                )
        elif kind == "xchg":
            if not (
                isinstance(val_type, IntegerType | LLVMPointerType)
                or _float_like(val_type)
            ):
                raise VerifyException(
                    f"'llvm.atomicrmw' op unexpected LLVM IR type for 'xchg' "
                    f"bin_op: {val_type}"
                )
        elif not isinstance(val_type, IntegerType):
            raise VerifyException(
                "'llvm.atomicrmw' op expected LLVM IR integer type: "
                f"'{kind}' operates on integers, got {val_type}"
            )
        if _ordering_name(self.ordering) in ("not_atomic", "unordered"):
            raise VerifyException(
                "'llvm.atomicrmw' op expected at least 'monotonic' ordering"
            )

    def print(self, printer: Printer) -> None:
        if self.volatile_ is not None:
            printer.print_string(" volatile")
        printer.print_string(f" {self.bin_op_name} ")
        printer.print_ssa_value(self.ptr)
        printer.print_string(", ")
        printer.print_ssa_value(self.val)
        _print_optional_syncscope(printer, self.syncscope)
        printer.print_string(f" {_ordering_name(self.ordering)}")
        attrs: dict[str, Attribute] = {}
        if self.alignment is not None:
            attrs["alignment"] = self.alignment
        printer.print_op_attributes(attrs | self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(", ")
        printer.print_attribute(self.val.type)

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        volatile = parser.parse_optional_keyword("volatile") is not None
        pos = parser.pos
        kind = parser.parse_optional_keyword_in(ATOMIC_BIN_OPS)
        if kind is None:
            parser.raise_error(
                "expected an atomicrmw operation, one of " + ", ".join(ATOMIC_BIN_OPS),
                pos,
            )
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        val = parser.parse_unresolved_operand()
        syncscope = _parse_optional_syncscope(parser)
        ordering = _parse_ordering(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        parser.parse_punctuation(",")
        val_type = parser.parse_type()
        props: dict[str, Attribute] = {
            "bin_op": IntegerAttr(ATOMIC_BIN_OPS.index(kind), i64),
            "ordering": ordering,
        }
        if (a := attrs.pop("alignment", None)) is not None:
            props["alignment"] = a
        if volatile:
            props["volatile_"] = UnitAttr()
        if syncscope is not None:
            props["syncscope"] = syncscope
        return cls.create(
            operands=[
                parser.resolve_operand(ptr, ptr_type),
                parser.resolve_operand(val, val_type),
            ],
            result_types=[val_type],
            properties=props,
            attributes=attrs,
        )


@irdl_op_definition
class AtomicCmpXchgOp(IRDLOperation):
    """``llvm.cmpxchg``: the result is ``!llvm.struct<(T, i1)>`` (old value, flag)."""

    name = "llvm.cmpxchg"

    T: ClassVar = VarConstraint("T", AnyAttr())

    ptr = operand_def(LLVMPointerType)
    cmp = operand_def(T)
    val = operand_def(T)
    res = result_def(LLVMStructType)

    success_ordering = prop_def(IntegerAttr[I64])
    failure_ordering = prop_def(IntegerAttr[I64])
    syncscope = opt_prop_def(StringAttr)
    alignment = opt_prop_def(IntegerAttr[I64])
    weak = opt_prop_def(UnitAttr)
    volatile_ = opt_prop_def(UnitAttr)

    def __init__(
        self,
        ptr: Operation | SSAValue,
        cmp: Operation | SSAValue,
        val: Operation | SSAValue,
        success_ordering: str | int,
        failure_ordering: str | int,
        *,
        syncscope: str | None = None,
        alignment: int | None = None,
        weak: bool = False,
        volatile: bool = False,
    ):
        val_type = SSAValue.get(val).type
        super().__init__(
            operands=[ptr, cmp, val],
            result_types=[LLVMStructType.from_type_list([val_type, i1])],
            properties={
                "success_ordering": _ordering_attr(success_ordering),
                "failure_ordering": _ordering_attr(failure_ordering),
                "syncscope": None if syncscope is None else StringAttr(syncscope),
                "alignment": None if alignment is None else IntegerAttr(alignment, i64),
                "weak": UnitAttr() if weak else None,
                "volatile_": UnitAttr() if volatile else None,
            },
        )

    def verify_(self) -> None:
        _verify_ordering(self, self.success_ordering, "success ordering")
        _verify_ordering(self, self.failure_ordering, "failure ordering")
        expected = LLVMStructType.from_type_list([self.val.type, i1])
        if self.res.type != expected:
            raise VerifyException(
                "'llvm.cmpxchg' op failed to verify that result #0 has an LLVM struct "
                "type consisting of the type of operand #2 and a bool: expected "
                f"{expected}, got {self.res.type}"
            )
        success = _ordering_name(self.success_ordering)
        failure = _ordering_name(self.failure_ordering)
        if success in ("not_atomic", "unordered") or failure in (
            "not_atomic",
            "unordered",
        ):
            raise VerifyException(
                "'llvm.cmpxchg' op ordering must be at least 'monotonic'"
            )
        if failure in ("release", "acq_rel"):
            raise VerifyException(
                "'llvm.cmpxchg' op failure ordering cannot be 'release' or 'acq_rel'"
            )

    def print(self, printer: Printer) -> None:
        if self.weak is not None:
            printer.print_string(" weak")
        if self.volatile_ is not None:
            printer.print_string(" volatile")
        printer.print_string(" ")
        printer.print_list((self.ptr, self.cmp, self.val), printer.print_ssa_value)
        _print_optional_syncscope(printer, self.syncscope)
        printer.print_string(
            f" {_ordering_name(self.success_ordering)}"
            f" {_ordering_name(self.failure_ordering)}"
        )
        attrs: dict[str, Attribute] = {}
        if self.alignment is not None:
            attrs["alignment"] = self.alignment
        printer.print_op_attributes(attrs | self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(", ")
        printer.print_attribute(self.val.type)

    @classmethod
    def parse(cls, parser: Parser) -> AtomicCmpXchgOp:
        weak = parser.parse_optional_keyword("weak") is not None
        volatile = parser.parse_optional_keyword("volatile") is not None
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        cmp = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        val = parser.parse_unresolved_operand()
        syncscope = _parse_optional_syncscope(parser)
        success = _parse_ordering(parser)
        failure = _parse_ordering(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        parser.parse_punctuation(",")
        val_type = parser.parse_type()
        props: dict[str, Attribute] = {
            "success_ordering": success,
            "failure_ordering": failure,
        }
        if (a := attrs.pop("alignment", None)) is not None:
            props["alignment"] = a
        if weak:
            props["weak"] = UnitAttr()
        if volatile:
            props["volatile_"] = UnitAttr()
        if syncscope is not None:
            props["syncscope"] = syncscope
        return cls.create(
            operands=[
                parser.resolve_operand(ptr, ptr_type),
                parser.resolve_operand(cmp, val_type),
                parser.resolve_operand(val, val_type),
            ],
            result_types=[LLVMStructType.from_type_list([val_type, i1])],
            properties=props,
            attributes=attrs,
        )


@irdl_op_definition
class FenceOp(IRDLOperation):
    """``llvm.fence [syncscope("...")] <ordering>``."""

    name = "llvm.fence"

    ordering = prop_def(IntegerAttr[I64])
    syncscope = opt_prop_def(StringAttr)

    def __init__(self, ordering: str | int, *, syncscope: str | None = None):
        super().__init__(
            properties={
                "ordering": _ordering_attr(ordering),
                "syncscope": None if syncscope is None else StringAttr(syncscope),
            }
        )

    def verify_(self) -> None:
        _verify_ordering(self, self.ordering)
        if _ordering_name(self.ordering) not in (
            "acquire",
            "release",
            "acq_rel",
            "seq_cst",
        ):
            raise VerifyException(
                "'llvm.fence' op can be given only acquire, release, acq_rel, and "
                "seq_cst orderings"
            )

    def print(self, printer: Printer) -> None:
        _print_optional_syncscope(printer, self.syncscope)
        printer.print_string(f" {_ordering_name(self.ordering)}")
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> FenceOp:
        syncscope = _parse_optional_syncscope(parser)
        props: dict[str, Attribute] = {"ordering": _parse_ordering(parser)}
        if syncscope is not None:
            props["syncscope"] = syncscope
        attrs = parser.parse_optional_attr_dict()
        return cls.create(properties=props, attributes=attrs)


# --------------------------------------------------------------------------------------
# Comparison (replaces xDSL's, which parsed fastmath flags into a discardable attribute
# and never printed the property)
# --------------------------------------------------------------------------------------


@irdl_op_definition
class FCmpOp(_ExtendsXdsl, _xllvm.FCmpOp):
    name = "llvm.fcmp"

    T: ClassVar = VarConstraint("T", _FloatLike)

    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(I1 | VectorType[I1])
    predicate = prop_def(IntegerAttr[I64])
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: Operation | SSAValue,
        rhs: Operation | SSAValue,
        predicate: str | IntegerAttr[IntegerType],
        attributes: dict[str, Attribute] | None = None,
        fast_math: FastMathAttr | FastMathFlag | str | None = None,
    ):
        if isinstance(predicate, str):
            predicate = IntegerAttr(FCmpPredicateFlag(predicate).to_int(), i64)
        lhs_type = SSAValue.get(lhs).type
        res_type = VectorType(i1, lhs_type.shape) if isa(lhs_type, VectorType) else i1
        IRDLOperation.__init__(
            self,
            operands=[lhs, rhs],
            result_types=[res_type],
            attributes=attributes or {},
            properties={"predicate": predicate, "fastmathFlags": _fastmath(fast_math)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> FCmpOp:
        predicate = parser.parse_str_literal()
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type = parser.parse_type()
        fm = attrs.pop("fastmathFlags", None)
        lhs_v, rhs_v = parser.resolve_operands([lhs, rhs], [type, type], parser.pos)
        assert fm is None or isinstance(fm, FastMathAttr)
        return cls(lhs_v, rhs_v, predicate, attrs, fm)

    def print(self, printer: Printer) -> None:
        flag = FCmpPredicateFlag.from_int(self.predicate.value.data)
        printer.print_string(f' "{flag}" ')
        printer.print_ssa_value(self.lhs)
        printer.print_string(", ")
        printer.print_ssa_value(self.rhs)
        attrs = dict(self.attributes)
        if self.fastmathFlags.data:
            attrs["fastmathFlags"] = self.fastmathFlags
        printer.print_op_attributes(attrs)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)


@irdl_op_definition
class SelectOp(_xllvm.SelectOp):
    """``llvm.select %c, %a, %b : i1, T`` or, elementwise,
    ``llvm.select %c, %a, %b : vector<4xi1>, vector<4xi32>`` (xDSL's takes an
    ``i1`` condition only)."""

    T: ClassVar = VarConstraint("T", AnyAttr())

    cond = operand_def(I1 | VectorType[I1])
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    parse = classmethod(Operation.parse.__func__)  # pyright: ignore
    print = Operation.print

    def verify_(self) -> None:
        cond = self.cond.type
        if isinstance(cond, VectorType) and not (
            isinstance(t := self.res.type, VectorType)
            and t.get_shape() == cond.get_shape()
            and t.get_scalable_dims() == cond.get_scalable_dims()
        ):
            raise VerifyException(
                f"'llvm.select' op a vector condition ({cond}) needs a result "
                f"vector of the same shape, got {self.res.type}"
            )


# --------------------------------------------------------------------------------------
# Intrinsics: one base class per family
# --------------------------------------------------------------------------------------


class UnaryFloatIntrinsic(_ExtendsXdsl, ABC):
    """``llvm.intr.<f>(%x) [{fastmathFlags = ...}] : (T) -> T`` on floats or vectors."""

    T: ClassVar = VarConstraint("T", _FloatLike)

    arg = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        arg: Operation | SSAValue,
        fast_math: FastMathAttr | FastMathFlag | str | None = None,
    ):
        IRDLOperation.__init__(
            self,
            operands=[arg],
            result_types=[SSAValue.get(arg).type],
            properties={"fastmathFlags": _fastmath(fast_math)},
        )


class BinaryFloatIntrinsic(_ExtendsXdsl, ABC):
    """``llvm.intr.<f>(%a, %b) : (T, T) -> T`` on floats or vectors."""

    T: ClassVar = VarConstraint("T", _FloatLike)

    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        lhs: Operation | SSAValue,
        rhs: Operation | SSAValue,
        fast_math: FastMathAttr | FastMathFlag | str | None = None,
    ):
        IRDLOperation.__init__(
            self,
            operands=[lhs, rhs],
            result_types=[SSAValue.get(lhs).type],
            properties={"fastmathFlags": _fastmath(fast_math)},
        )


class TernaryFloatIntrinsic(_ExtendsXdsl, ABC):
    """``llvm.intr.<f>(%a, %b, %c) : (T, T, T) -> T`` on floats or vectors."""

    T: ClassVar = VarConstraint("T", _FloatLike)

    a = operand_def(T)
    b = operand_def(T)
    c = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        a: Operation | SSAValue,
        b: Operation | SSAValue,
        c: Operation | SSAValue,
        fast_math: FastMathAttr | FastMathFlag | str | None = None,
    ):
        IRDLOperation.__init__(
            self,
            operands=[a, b, c],
            result_types=[SSAValue.get(a).type],
            properties={"fastmathFlags": _fastmath(fast_math)},
        )


class UnaryIntIntrinsic(IRDLOperation, ABC):
    """``llvm.intr.<f>(%x) : (T) -> T`` on signless integers or vectors."""

    T: ClassVar = VarConstraint("T", _IntLike)

    arg = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )

    def __init__(self, arg: Operation | SSAValue):
        IRDLOperation.__init__(
            self, operands=[arg], result_types=[SSAValue.get(arg).type]
        )


class BinaryIntIntrinsic(IRDLOperation, ABC):
    """``llvm.intr.<f>(%a, %b) : (T, T) -> T`` on signless integers or vectors."""

    T: ClassVar = VarConstraint("T", _IntLike)

    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )

    def __init__(self, lhs: Operation | SSAValue, rhs: Operation | SSAValue):
        IRDLOperation.__init__(
            self, operands=[lhs, rhs], result_types=[SSAValue.get(lhs).type]
        )


class TernaryIntIntrinsic(IRDLOperation, ABC):
    """``llvm.intr.<f>(%a, %b, %c) : (T, T, T) -> T`` on signless integers (funnel
    shifts)."""

    T: ClassVar = VarConstraint("T", _IntLike)

    a = operand_def(T)
    b = operand_def(T)
    c = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self, a: Operation | SSAValue, b: Operation | SSAValue, c: Operation | SSAValue
    ):
        IRDLOperation.__init__(
            self, operands=[a, b, c], result_types=[SSAValue.get(a).type]
        )


class FloatToIntIntrinsic(IRDLOperation, ABC):
    """``llvm.intr.<f>(%x) : (f32) -> i64``: rounding float-to-int conversions."""

    arg = operand_def(_FloatLike)
    res = result_def(_IntLike)

    traits = traits_def(Pure())
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )

    def __init__(self, arg: Operation | SSAValue, res_type: Attribute):
        super().__init__(operands=[arg], result_types=[res_type])


class BitCountIntrinsic(IRDLOperation, ABC):
    """``ctlz``/``cttz``; printed generically, as upstream does:
    ``"llvm.intr.ctlz"(%x) <{is_zero_poison = false}> : (i32) -> i32``."""

    T: ClassVar = VarConstraint("T", _IntLike)

    arg = operand_def(T)
    res = result_def(T)
    is_zero_poison = prop_def(IntegerAttr[I1])

    traits = traits_def(Pure())

    def __init__(self, arg: Operation | SSAValue, is_zero_poison: bool = False):
        super().__init__(
            operands=[arg],
            result_types=[SSAValue.get(arg).type],
            properties={"is_zero_poison": IntegerAttr.from_bool(is_zero_poison)},
        )


class IntWithOverflowIntrinsic(IRDLOperation, ABC):
    """``llvm.intr.{s,u}{add,sub,mul}.with.overflow``: ``(T, T) -> struct<(T, i1)>``;
    printed generically, as upstream does."""

    T: ClassVar = VarConstraint("T", _IntLike)

    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(LLVMStructType)

    traits = traits_def(Pure())

    def __init__(self, lhs: Operation | SSAValue, rhs: Operation | SSAValue):
        t = SSAValue.get(lhs).type
        flag = VectorType(i1, t.shape) if isa(t, VectorType) else i1
        super().__init__(
            operands=[lhs, rhs],
            result_types=[LLVMStructType.from_type_list([t, flag])],
        )


class MemTransferIntrinsic(IRDLOperation, ABC):
    """``memcpy``/``memmove``: ``"llvm.intr.memcpy"(%dst, %src, %len) <{isVolatile =
    false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()``."""

    dst = operand_def(LLVMPointerType)
    src = operand_def(LLVMPointerType)
    len = operand_def(SignlessIntegerConstraint)
    isVolatile = prop_def(IntegerAttr[I1])

    def __init__(
        self,
        dst: Operation | SSAValue,
        src: Operation | SSAValue,
        len: Operation | SSAValue,
        is_volatile: bool = False,
    ):
        super().__init__(
            operands=[dst, src, len],
            properties={"isVolatile": IntegerAttr.from_bool(is_volatile)},
        )


# -- unary float ----------------------------------------------------------------------


@irdl_op_definition
class FAbsOp(UnaryFloatIntrinsic):
    name = "llvm.intr.fabs"


@irdl_op_definition
class FSqrtOp(UnaryFloatIntrinsic, _xllvm.FSqrtOp):
    name = "llvm.intr.sqrt"


@irdl_op_definition
class FSinOp(UnaryFloatIntrinsic, _xllvm.FSinOp):
    name = "llvm.intr.sin"


@irdl_op_definition
class FCosOp(UnaryFloatIntrinsic, _xllvm.FCosOp):
    name = "llvm.intr.cos"


@irdl_op_definition
class FTanOp(UnaryFloatIntrinsic):
    name = "llvm.intr.tan"


@irdl_op_definition
class FAsinOp(UnaryFloatIntrinsic):
    name = "llvm.intr.asin"


@irdl_op_definition
class FAcosOp(UnaryFloatIntrinsic):
    name = "llvm.intr.acos"


@irdl_op_definition
class FAtanOp(UnaryFloatIntrinsic):
    name = "llvm.intr.atan"


@irdl_op_definition
class FSinhOp(UnaryFloatIntrinsic):
    name = "llvm.intr.sinh"


@irdl_op_definition
class FCoshOp(UnaryFloatIntrinsic):
    name = "llvm.intr.cosh"


@irdl_op_definition
class FTanhOp(UnaryFloatIntrinsic):
    name = "llvm.intr.tanh"


@irdl_op_definition
class FSinCosOp(IRDLOperation):
    """``llvm.intr.sincos(%x) : (f32) -> !llvm.struct<(f32, f32)>``: sine and
    cosine at once (``math.sincos``)."""

    name = "llvm.intr.sincos"

    T: ClassVar = VarConstraint("T", _FloatLike)

    val = operand_def(T)
    res = result_def(LLVMStructType)
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        val: Operation | SSAValue,
        fast_math: FastMathAttr | FastMathFlag | str | None = None,
    ):
        t = SSAValue.get(val).type
        super().__init__(
            operands=[val],
            result_types=[LLVMStructType.from_type_list([t, t])],
            properties={"fastmathFlags": _fastmath(fast_math)},
        )

    def verify_(self) -> None:
        t = self.val.type
        if tuple(self.res.type.types.data) != (t, t):
            raise VerifyException(
                f"'llvm.intr.sincos' op result must be !llvm.struct<({t}, {t})>, "
                f"got {self.res.type}"
            )


@irdl_op_definition
class FExpOp(UnaryFloatIntrinsic, _xllvm.FExpOp):
    name = "llvm.intr.exp"


@irdl_op_definition
class FExp2Op(UnaryFloatIntrinsic, _xllvm.FExp2Op):
    name = "llvm.intr.exp2"


@irdl_op_definition
class FExp10Op(UnaryFloatIntrinsic):
    name = "llvm.intr.exp10"


@irdl_op_definition
class FLogOp(UnaryFloatIntrinsic, _xllvm.FLogOp):
    name = "llvm.intr.log"


@irdl_op_definition
class FLog2Op(UnaryFloatIntrinsic, _xllvm.FLog2Op):
    name = "llvm.intr.log2"


@irdl_op_definition
class FLog10Op(UnaryFloatIntrinsic):
    name = "llvm.intr.log10"


@irdl_op_definition
class FFloorOp(UnaryFloatIntrinsic, _xllvm.FFloorOp):
    name = "llvm.intr.floor"


@irdl_op_definition
class FCeilOp(UnaryFloatIntrinsic, _xllvm.FCeilOp):
    name = "llvm.intr.ceil"


@irdl_op_definition
class FTruncOp(UnaryFloatIntrinsic):
    name = "llvm.intr.trunc"


@irdl_op_definition
class FRoundOp(UnaryFloatIntrinsic):
    name = "llvm.intr.round"


@irdl_op_definition
class FRoundEvenOp(UnaryFloatIntrinsic):
    name = "llvm.intr.roundeven"


@irdl_op_definition
class FRintOp(UnaryFloatIntrinsic):
    name = "llvm.intr.rint"


@irdl_op_definition
class FNearbyintOp(UnaryFloatIntrinsic):
    name = "llvm.intr.nearbyint"


# -- binary float ---------------------------------------------------------------------


@irdl_op_definition
class FPowOp(BinaryFloatIntrinsic, _xllvm.FPowOp):
    name = "llvm.intr.pow"


@irdl_op_definition
class FCopySignOp(BinaryFloatIntrinsic, _xllvm.FCopySignOp):
    name = "llvm.intr.copysign"


@irdl_op_definition
class MinNumOp(BinaryFloatIntrinsic, _xllvm.VectorFMinOp):
    name = "llvm.intr.minnum"


@irdl_op_definition
class MaxNumOp(BinaryFloatIntrinsic, _xllvm.VectorFMaxOp):
    name = "llvm.intr.maxnum"


@irdl_op_definition
class MinimumOp(BinaryFloatIntrinsic):
    name = "llvm.intr.minimum"


@irdl_op_definition
class MaximumOp(BinaryFloatIntrinsic):
    name = "llvm.intr.maximum"


@irdl_op_definition
class FAtan2Op(BinaryFloatIntrinsic):
    name = "llvm.intr.atan2"


VectorFMinOp = MinNumOp
"""xDSL's name for ``llvm.intr.minnum``."""
VectorFMaxOp = MaxNumOp
"""xDSL's name for ``llvm.intr.maxnum``."""


# -- ternary float --------------------------------------------------------------------


@irdl_op_definition
class FMAOp(TernaryFloatIntrinsic, _xllvm.FMAOp):
    name = "llvm.intr.fma"


@irdl_op_definition
class FMulAddOp(TernaryFloatIntrinsic):
    name = "llvm.intr.fmuladd"


# -- float with integer exponent ------------------------------------------------------


@irdl_op_definition
class PowIOp(IRDLOperation):
    """``llvm.intr.powi(%x, %n) : (f32, i32) -> f32``."""

    name = "llvm.intr.powi"

    T: ClassVar = VarConstraint("T", _FloatLike)

    val = operand_def(T)
    power = operand_def(SignlessIntegerConstraint)
    res = result_def(T)
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        val: Operation | SSAValue,
        power: Operation | SSAValue,
        fast_math: FastMathAttr | FastMathFlag | str | None = None,
    ):
        super().__init__(
            operands=[val, power],
            result_types=[SSAValue.get(val).type],
            properties={"fastmathFlags": _fastmath(fast_math)},
        )


@irdl_op_definition
class IsFPClassOp(IRDLOperation):
    """``"llvm.intr.is.fpclass"(%x) <{bit = 3 : i32}> : (f32) -> i1`` (generic form)."""

    name = "llvm.intr.is.fpclass"

    in_ = operand_def(_FloatLike)
    res = result_def(I1 | VectorType[I1])
    bit = prop_def(IntegerAttr[I32])

    traits = traits_def(Pure())

    def __init__(self, arg: Operation | SSAValue, bit: int):
        t = SSAValue.get(arg).type
        res = VectorType(i1, t.shape) if isa(t, VectorType) else i1
        super().__init__(
            operands=[arg],
            result_types=[res],
            properties={"bit": IntegerAttr(bit, i32)},
        )


# -- integer --------------------------------------------------------------------------


@irdl_op_definition
class CountLeadingZerosOp(BitCountIntrinsic):
    name = "llvm.intr.ctlz"


@irdl_op_definition
class CountTrailingZerosOp(BitCountIntrinsic):
    name = "llvm.intr.cttz"


@irdl_op_definition
class CtPopOp(UnaryIntIntrinsic):
    name = "llvm.intr.ctpop"


@irdl_op_definition
class BitReverseOp(UnaryIntIntrinsic):
    name = "llvm.intr.bitreverse"


@irdl_op_definition
class ByteSwapOp(UnaryIntIntrinsic):
    name = "llvm.intr.bswap"


@irdl_op_definition
class AbsOp(IRDLOperation):
    """``"llvm.intr.abs"(%x) <{is_int_min_poison = false}> : (i32) -> i32``."""

    name = "llvm.intr.abs"

    T: ClassVar = VarConstraint("T", _IntLike)

    arg = operand_def(T)
    res = result_def(T)
    is_int_min_poison = prop_def(IntegerAttr[I1])

    traits = traits_def(Pure())

    def __init__(self, arg: Operation | SSAValue, is_int_min_poison: bool = False):
        super().__init__(
            operands=[arg],
            result_types=[SSAValue.get(arg).type],
            properties={"is_int_min_poison": IntegerAttr.from_bool(is_int_min_poison)},
        )


@irdl_op_definition
class SMinOp(BinaryIntIntrinsic):
    name = "llvm.intr.smin"


@irdl_op_definition
class SMaxOp(BinaryIntIntrinsic):
    name = "llvm.intr.smax"


@irdl_op_definition
class UMinOp(BinaryIntIntrinsic):
    name = "llvm.intr.umin"


@irdl_op_definition
class UMaxOp(BinaryIntIntrinsic):
    name = "llvm.intr.umax"


@irdl_op_definition
class FshlOp(TernaryIntIntrinsic):
    name = "llvm.intr.fshl"


@irdl_op_definition
class FshrOp(TernaryIntIntrinsic):
    name = "llvm.intr.fshr"


@irdl_op_definition
class LroundOp(FloatToIntIntrinsic):
    name = "llvm.intr.lround"


@irdl_op_definition
class LlroundOp(FloatToIntIntrinsic):
    name = "llvm.intr.llround"


@irdl_op_definition
class LrintOp(FloatToIntIntrinsic):
    name = "llvm.intr.lrint"


@irdl_op_definition
class LlrintOp(FloatToIntIntrinsic):
    name = "llvm.intr.llrint"


@irdl_op_definition
class SAddWithOverflowOp(IntWithOverflowIntrinsic):
    name = "llvm.intr.sadd.with.overflow"


@irdl_op_definition
class UAddWithOverflowOp(IntWithOverflowIntrinsic):
    name = "llvm.intr.uadd.with.overflow"


@irdl_op_definition
class SSubWithOverflowOp(IntWithOverflowIntrinsic):
    name = "llvm.intr.ssub.with.overflow"


@irdl_op_definition
class USubWithOverflowOp(IntWithOverflowIntrinsic):
    name = "llvm.intr.usub.with.overflow"


@irdl_op_definition
class SMulWithOverflowOp(IntWithOverflowIntrinsic):
    name = "llvm.intr.smul.with.overflow"


@irdl_op_definition
class UMulWithOverflowOp(IntWithOverflowIntrinsic):
    name = "llvm.intr.umul.with.overflow"


# -- memory ---------------------------------------------------------------------------


@irdl_op_definition
class MemcpyOp(MemTransferIntrinsic):
    name = "llvm.intr.memcpy"


@irdl_op_definition
class MemmoveOp(MemTransferIntrinsic):
    name = "llvm.intr.memmove"


@irdl_op_definition
class MemsetOp(IRDLOperation):
    """``"llvm.intr.memset"(%dst, %val, %len) <{isVolatile = false}> :
    (!llvm.ptr, i8, i64) -> ()``."""

    name = "llvm.intr.memset"

    dst = operand_def(LLVMPointerType)
    val = operand_def(IntegerType(8))
    len = operand_def(SignlessIntegerConstraint)
    isVolatile = prop_def(IntegerAttr[I1])

    def __init__(
        self,
        dst: Operation | SSAValue,
        val: Operation | SSAValue,
        len: Operation | SSAValue,
        is_volatile: bool = False,
    ):
        super().__init__(
            operands=[dst, val, len],
            properties={"isVolatile": IntegerAttr.from_bool(is_volatile)},
        )


# -- miscellaneous --------------------------------------------------------------------


@irdl_op_definition
class AssumeOp(IRDLOperation):
    """``llvm.intr.assume %cond ["align"(%ptr, %n : !llvm.ptr, i64)] : i1``."""

    name = "llvm.intr.assume"

    cond = operand_def(I1)
    op_bundle_operands = var_operand_def()
    op_bundle_sizes = prop_def(
        DenseArrayBase.constr(i32), default_value=DenseArrayBase.from_list(i32, ())
    )
    op_bundle_tags = opt_prop_def(ArrayAttr[StringAttr])

    def __init__(
        self,
        cond: Operation | SSAValue,
        bundles: Sequence[tuple[str, Sequence[Operation | SSAValue]]] = (),
    ):
        super().__init__(
            operands=[cond, [o for _, ops in bundles for o in ops]],
            properties={
                "op_bundle_sizes": DenseArrayBase.from_list(
                    i32, [len(ops) for _, ops in bundles]
                ),
                "op_bundle_tags": (
                    ArrayAttr([StringAttr(t) for t, _ in bundles]) if bundles else None
                ),
            },
        )

    def bundles(self) -> list[tuple[str, tuple[SSAValue, ...]]]:
        tags = [t.data for t in self.op_bundle_tags] if self.op_bundle_tags else []
        out: list[tuple[str, tuple[SSAValue, ...]]] = []
        start = 0
        for tag, size in zip(tags, self.op_bundle_sizes.get_values(), strict=True):
            assert isinstance(size, int)
            out.append((tag, tuple(self.op_bundle_operands[start : start + size])))
            start += size
        return out

    def verify_(self) -> None:
        sizes = self.op_bundle_sizes.get_values()
        ntags = len(self.op_bundle_tags) if self.op_bundle_tags else 0
        if len(sizes) != ntags:
            raise VerifyException(
                f"'llvm.intr.assume' op has {len(sizes)} operand bundle sizes but "
                f"{ntags} bundle tags"
            )
        if sum(int(s) for s in sizes) != len(self.op_bundle_operands):
            raise VerifyException(
                "'llvm.intr.assume' op operand bundle sizes do not match its operands"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.cond)
        if self.op_bundle_tags:
            printer.print_string(" [")
            for i, (tag, ops) in enumerate(self.bundles()):
                if i:
                    printer.print_string(", ")
                printer.print_string_literal(tag)
                printer.print_string("(")
                if ops:
                    printer.print_list(ops, printer.print_ssa_value)
                    printer.print_string(" : ")
                    printer.print_list([o.type for o in ops], printer.print_attribute)
                printer.print_string(")")
            printer.print_string("]")
        printer.print_string(" : ")
        printer.print_attribute(self.cond.type)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> AssumeOp:
        cond = parser.parse_unresolved_operand()

        def parse_bundle() -> tuple[str, list[SSAValue]]:
            tag = parser.parse_str_literal()
            parser.parse_punctuation("(")
            ops: list[SSAValue] = []
            if parser.parse_optional_punctuation(")") is None:
                names = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, parser.parse_unresolved_operand
                )
                parser.parse_punctuation(":")
                types = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, parser.parse_type
                )
                parser.parse_punctuation(")")
                ops = list(parser.resolve_operands(names, types, parser.pos))
            return tag, ops

        bundles = (
            parser.parse_optional_comma_separated_list(
                parser.Delimiter.SQUARE, parse_bundle
            )
            or []
        )
        parser.parse_punctuation(":")
        cond_type = parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        op = cls(parser.resolve_operand(cond, cond_type), bundles)
        op.attributes |= attrs
        return op


@irdl_op_definition
class TrapOp(IRDLOperation):
    name = "llvm.intr.trap"

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


# --------------------------------------------------------------------------------------
# Vectors, freeze, constrained fptrunc
# --------------------------------------------------------------------------------------


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """``%e = llvm.extractelement %v[%i : i32] : vector<4xf32>``."""

    name = "llvm.extractelement"

    vector = operand_def(VectorType)
    position = operand_def(SignlessIntegerConstraint)
    res = result_def()

    traits = traits_def(Pure())

    def __init__(self, vector: Operation | SSAValue, position: Operation | SSAValue):
        vector_type = SSAValue.get(vector).type
        assert isa(vector_type, VectorType)
        super().__init__(
            operands=[vector, position], result_types=[vector_type.element_type]
        )

    def verify_(self) -> None:
        assert isa(self.vector.type, VectorType)
        if self.res.type != self.vector.type.element_type:
            raise VerifyException(
                "'llvm.extractelement' op failed to verify that result type matches "
                "vector element type"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.vector)
        printer.print_string("[")
        printer.print_ssa_value(self.position)
        printer.print_string(" : ")
        printer.print_attribute(self.position.type)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.vector.type)

    @classmethod
    def parse(cls, parser: Parser) -> ExtractElementOp:
        vector = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        position = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        position_type = parser.parse_type()
        parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        vector_type = parser.parse_type()
        if not isa(vector_type, VectorType):
            parser.raise_error(f"expected a vector type, got {vector_type}")
        op = cls(
            parser.resolve_operand(vector, vector_type),
            parser.resolve_operand(position, position_type),
        )
        op.attributes |= attrs
        return op


@irdl_op_definition
class FreezeOp(IRDLOperation):
    """``%y = llvm.freeze %x : i32``."""

    name = "llvm.freeze"

    T: ClassVar = VarConstraint("T", AnyAttr())

    val = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$val attr-dict `:` type($val)"

    def __init__(self, val: Operation | SSAValue):
        super().__init__(operands=[val], result_types=[SSAValue.get(val).type])


ROUNDING_MODES: dict[str, int] = {
    "towardzero": 0,
    "tonearest": 1,
    "upward": 2,
    "downward": 3,
    "tonearestaway": 4,
    "dynamic": 7,
}
"""``LLVM::RoundingMode`` keywords (``llvm::RoundingMode`` values)."""

FP_EXCEPTION_BEHAVIORS: dict[str, int] = {"ignore": 0, "maytrap": 1, "strict": 2}


@irdl_op_definition
class ConstrainedFPTruncOp(IRDLOperation):
    """``llvm.intr.experimental.constrained.fptrunc %x tonearest ignore : f32 to f16``
    (what ``arith.truncf`` with a rounding mode lowers to)."""

    name = "llvm.intr.experimental.constrained.fptrunc"

    arg_0 = operand_def(_FloatLike)
    res = result_def(_FloatLike)
    roundingmode = prop_def(IntegerAttr[I64])
    fpExceptionBehavior = prop_def(IntegerAttr[I64])

    def __init__(
        self,
        arg: Operation | SSAValue,
        res_type: Attribute,
        rounding: str = "tonearest",
        exceptions: str = "ignore",
    ):
        super().__init__(
            operands=[arg],
            result_types=[res_type],
            properties={
                "roundingmode": IntegerAttr(ROUNDING_MODES[rounding], i64),
                "fpExceptionBehavior": IntegerAttr(
                    FP_EXCEPTION_BEHAVIORS[exceptions], i64
                ),
            },
        )

    @property
    def rounding(self) -> str:
        return {v: k for k, v in ROUNDING_MODES.items()}[self.roundingmode.value.data]

    @property
    def exceptions(self) -> str:
        return {v: k for k, v in FP_EXCEPTION_BEHAVIORS.items()}[
            self.fpExceptionBehavior.value.data
        ]

    def verify_(self) -> None:
        if self.roundingmode.value.data not in ROUNDING_MODES.values():
            raise VerifyException(
                f"'{self.name}' op invalid rounding mode {self.roundingmode.value.data}"
            )
        if self.fpExceptionBehavior.value.data not in FP_EXCEPTION_BEHAVIORS.values():
            raise VerifyException(
                f"'{self.name}' op invalid exception behavior "
                f"{self.fpExceptionBehavior.value.data}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.arg_0)
        printer.print_string(f" {self.rounding} {self.exceptions}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.arg_0.type)
        printer.print_string(" to ")
        printer.print_attribute(self.res.type)

    @classmethod
    def parse(cls, parser: Parser) -> ConstrainedFPTruncOp:
        arg = parser.parse_unresolved_operand()
        rounding = parser.parse_optional_keyword_in(ROUNDING_MODES)
        if rounding is None:
            parser.raise_error(
                "expected a rounding mode, one of " + ", ".join(ROUNDING_MODES)
            )
        exceptions = parser.parse_optional_keyword_in(FP_EXCEPTION_BEHAVIORS)
        if exceptions is None:
            parser.raise_error(
                "expected an exception behavior, one of "
                + ", ".join(FP_EXCEPTION_BEHAVIORS)
            )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        arg_type = parser.parse_type()
        parser.parse_keyword("to")
        res_type = parser.parse_type()
        op = cls(parser.resolve_operand(arg, arg_type), res_type, rounding, exceptions)
        op.attributes |= attrs
        return op


# --------------------------------------------------------------------------------------
# Functions
# --------------------------------------------------------------------------------------

_FUNC_RESERVED = (
    "sym_name",
    "function_type",
    "arg_attrs",
    "res_attrs",
    "linkage",
    "CConv",
    "visibility_",
    "unnamed_addr",
)

_FUNC_UNIT_PROPERTIES = (
    "no_inline",
    "always_inline",
    "inline_hint",
    "no_unwind",
    "will_return",
    "optimize_none",
    "convergent",
    "dso_local",
)


@irdl_op_definition
class FuncOp(_xllvm.FuncOp):
    """``llvm.func``, printed with upstream's keyword order::

        llvm.func [linkage] [hidden|protected] [unnamed_addr|local_unnamed_addr]
            [cconv] @name(...) -> T [attributes {...}] [{ body }]

    Replaces xDSL's, which printed and parsed the calling convention before the
    visibility (``internal fastcc hidden``), which mlir-opt-22 rejects. The
    constructor and field names are xDSL's; function attributes that upstream keeps
    as properties (``no_inline``, ``passthrough``, ``target_cpu``...) are properties
    here too, so passes can set them.
    """

    name = "llvm.func"

    body = region_def()
    sym_name = prop_def(StringAttr)
    function_type = prop_def(_xllvm.LLVMFunctionType)
    CConv = prop_def(
        _xllvm.CallingConventionAttr,
        default_value=_xllvm.CallingConventionAttr("ccc"),
    )
    linkage = prop_def(LinkageAttr, default_value=LinkageAttr("external"))
    sym_visibility = opt_prop_def(StringAttr)
    visibility_ = prop_def(IntegerAttr[IntegerType], default_value=IntegerAttr(0, 64))
    unnamed_addr = opt_prop_def(IntegerAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    frame_pointer = opt_prop_def(_xllvm.FramePointerKindAttr)
    no_inline = opt_prop_def(UnitAttr)
    always_inline = opt_prop_def(UnitAttr)
    inline_hint = opt_prop_def(UnitAttr)
    no_unwind = opt_prop_def(UnitAttr)
    will_return = opt_prop_def(UnitAttr)
    optimize_none = opt_prop_def(UnitAttr)
    convergent = opt_prop_def(UnitAttr)
    dso_local = opt_prop_def(UnitAttr)
    passthrough = opt_prop_def(ArrayAttr[Attribute])
    target_cpu = opt_prop_def(StringAttr)
    target_features = opt_prop_def(_xllvm.TargetFeaturesAttr)
    tune_cpu = opt_prop_def(StringAttr)
    section = opt_prop_def(StringAttr)
    alignment = opt_prop_def(IntegerAttr)

    # IsolatedFromAbove as in MLIR: value names restart in each function when printed,
    # and constants are hoisted to its entry block, not past it.
    traits = traits_def(SymbolOpInterface(), IsolatedFromAbove())

    def __init__(
        self,
        sym_name: str | StringAttr,
        function_type: _xllvm.LLVMFunctionType,
        linkage: LinkageAttr = LinkageAttr("internal"),
        cconv: _xllvm.CallingConventionAttr = _xllvm.CallingConventionAttr("ccc"),
        visibility: int | IntegerAttr[IntegerType] = 0,
        sym_visibility: str | StringAttr | None = None,
        body: Region | None = None,
        other_props: dict[str, Attribute | None] | None = None,
        extra_attrs: dict[str, Attribute] | None = None,
    ):
        props: dict[str, Attribute | None] = dict(other_props or {})
        props.update(
            {
                "sym_name": StringAttr(sym_name)
                if isinstance(sym_name, str)
                else sym_name,
                "function_type": function_type,
                "CConv": cconv,
                "linkage": linkage,
                "visibility_": (
                    IntegerAttr(visibility, 64)
                    if isinstance(visibility, int)
                    else visibility
                ),
                "sym_visibility": (
                    StringAttr(sym_visibility)
                    if isinstance(sym_visibility, str)
                    else sym_visibility
                ),
            }
        )
        IRDLOperation.__init__(
            self,
            regions=[body if body is not None else Region()],
            properties=props,
            attributes=extra_attrs or {},
        )

    def verify_(self) -> None:
        if self.arg_attrs is not None:
            if len(self.arg_attrs) != len(self.function_type.inputs):
                raise VerifyException(
                    f"'llvm.func' op expects {len(self.function_type.inputs)} argument "
                    f"attribute dictionaries, got {len(self.arg_attrs)}"
                )
            for i, attrs in enumerate(self.arg_attrs):
                if "llvm.elementtype" in attrs.data:
                    raise VerifyException(
                        f"'llvm.elementtype' on parameter {i} is invalid: "
                        "elementtype can only be applied to intrinsic callsites"
                    )
        if self.body.blocks:
            args = self.body.blocks[0].arg_types
            if tuple(args) != tuple(self.function_type.inputs.data):
                raise VerifyException(
                    "'llvm.func' op the entry block's argument types must match the "
                    "function type"
                )

    def print(self, printer: Printer) -> None:
        if self.linkage.linkage.data != "external":
            printer.print_string(f" {self.linkage.linkage.data}")
        if vis := VISIBILITIES.get(self.visibility_.value.data):
            printer.print_string(f" {vis}")
        if self.unnamed_addr is not None and (
            kw := UNNAMED_ADDRS.get(self.unnamed_addr.value.data)
        ):
            printer.print_string(f" {kw}")
        if self.CConv.convention.data != "ccc":
            printer.print_string(f" {self.CConv.convention.data}")
        outputs = (
            []
            if isinstance(self.function_type.output, _xllvm.LLVMVoidType)
            else [self.function_type.output]
        )
        print_func_op_like(
            printer,
            self.sym_name,
            FunctionType.from_lists(self.function_type.inputs.data, outputs),
            self.body,
            {**self.attributes, **self.properties},
            arg_attrs=self.arg_attrs,
            res_attrs=self.res_attrs,
            reserved_attr_names=_FUNC_RESERVED,
            is_variadic=self.function_type.is_variadic,
            print_empty_outputs=False,
        )

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        linkage = parser.parse_optional_keyword_in(LINKAGES) or "external"
        visibility = 0
        if (
            kw := parser.parse_optional_keyword_in(("hidden", "protected"))
        ) is not None:
            visibility = 1 if kw == "hidden" else 2
        unnamed = 0
        if (
            kw := parser.parse_optional_keyword_in(
                ("unnamed_addr", "local_unnamed_addr")
            )
        ) is not None:
            unnamed = 2 if kw == "unnamed_addr" else 1
        cconv = "ccc"
        for conv in sorted(_xllvm.LLVM_CALLING_CONVS, key=len, reverse=True):
            if parser.parse_optional_characters(conv) is not None:
                cconv = conv
                break
        (
            name,
            inputs,
            outputs,
            region,
            extra_attrs,
            arg_attrs,
            res_attrs,
            is_variadic,
        ) = parse_func_op_like(
            parser, reserved_attr_names=_FUNC_RESERVED, allow_variadic=True
        )
        if len(outputs) > 1:
            parser.raise_error("llvm.func only supports a single return type (or void)")
        props: dict[str, Attribute | None] = {
            "unnamed_addr": IntegerAttr(unnamed, 64),
            "arg_attrs": arg_attrs,
            "res_attrs": res_attrs,
        }
        attrs = dict(extra_attrs.data) if extra_attrs else {}
        for key in list(attrs):
            if key in cls.get_irdl_definition().properties:
                props[key] = attrs.pop(key)
        sym_visibility = props.pop("sym_visibility", None)
        assert sym_visibility is None or isinstance(sym_visibility, StringAttr)
        return cls(
            name,
            _xllvm.LLVMFunctionType(
                inputs, outputs[0] if outputs else None, is_variadic
            ),
            LinkageAttr(linkage),
            _xllvm.CallingConventionAttr(cconv),
            visibility,
            sym_visibility,
            body=region,
            other_props=props,
            extra_attrs=attrs,
        )


class _CallSymbolUser(SymbolUserOpInterface):
    """A direct ``llvm.call`` must name an ``llvm.func`` (ours or xDSL's class)."""

    def verify(self, op: Operation) -> None:
        callee = op.properties.get("callee")
        if not isinstance(callee, SymbolRefAttr):
            return
        found = SymbolTable.lookup_symbol(op, callee)
        if found is None:
            raise VerifyException(f"'{callee}' could not be found in symbol table")
        if found.name != "llvm.func":
            raise VerifyException(
                f"'{callee}' must reference an 'llvm.func', but found '{found.name}'"
            )


_NO_BUNDLES = DenseArrayBase.from_list(i32, ())
_CCC = _xllvm.CallingConventionAttr("ccc")
_NO_FASTMATH = FastMathAttr(None)


@functools.lru_cache(maxsize=4096)
def _symbol_ref(name: str) -> SymbolRefAttr:
    """``@name`` (one attribute per name: calls of one function share it)."""
    return SymbolRefAttr(name)


@functools.lru_cache(maxsize=256)
def _segment_sizes(args: int, bundle_operands: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, (args, bundle_operands))


@irdl_op_definition
class CallOp(_ExtendsXdsl, _xllvm.CallOp):
    """``llvm.call``: xDSL's fields, syntax and constructor; replaces xDSL's only so
    that its symbol check accepts this module's ``FuncOp``."""

    name = "llvm.call"

    args = var_operand_def()
    op_bundle_operands = var_operand_def()

    callee = opt_prop_def(SymbolRefAttr)
    var_callee_type = opt_prop_def(_xllvm.LLVMFunctionType)
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr("none"))
    CConv = prop_def(
        _xllvm.CallingConventionAttr, default_value=_xllvm.CallingConventionAttr("ccc")
    )
    op_bundle_sizes = prop_def(
        DenseArrayBase.constr(i32), default_value=DenseArrayBase.from_list(i32, ())
    )
    op_bundle_tags = opt_prop_def(ArrayAttr[StringAttr])
    TailCallKind = prop_def(
        _xllvm.TailCallKindAttr,
        default_value=_xllvm.TailCallKindAttr(_xllvm.TailCallKind.NONE),
    )
    returned = opt_result_def()

    traits = traits_def(_CallSymbolUser())
    # irdl_options (AttrSizedOperandSegments as a property) come from xDSL's class.

    def __init__(
        self,
        callee: str | SymbolRefAttr | StringAttr,
        *args: SSAValue | Operation,
        op_bundle_sizes: DenseArrayBase = _NO_BUNDLES,
        op_bundle_operands: tuple[SSAValue, ...] = (),
        return_type: Attribute | None = None,
        calling_convention: _xllvm.CallingConventionAttr = _CCC,
        fastmath: FastMathAttr = _NO_FASTMATH,
        variadic_args: int = 0,
        var_callee_type: _xllvm.LLVMFunctionType | None = None,
    ):
        # What ``IRDLOperation.__init__`` builds, built directly: a kernel calls
        # hundreds of libdevice functions, and the generic builder (with a new
        # ``SymbolRefAttr`` and segment sizes per call) was most of their lowering.
        # Attributes are immutable: the ones a call always carries are shared.
        if isinstance(callee, str):
            callee = _symbol_ref(callee)
        elif isinstance(callee, StringAttr):
            callee = _symbol_ref(callee.data)
        values = [SSAValue.get(a) for a in args]
        if var_callee_type is None and variadic_args:
            var_callee_type = _xllvm.LLVMFunctionType(
                [a.type for a in values[: len(values) - variadic_args]],
                return_type,
                is_variadic=True,
            )
        properties: dict[str, Attribute] = {"callee": callee}
        if var_callee_type is not None:
            properties["var_callee_type"] = var_callee_type
        properties["fastmathFlags"] = fastmath
        properties["CConv"] = calling_convention
        properties["op_bundle_sizes"] = op_bundle_sizes
        properties["operandSegmentSizes"] = _segment_sizes(
            len(values), len(op_bundle_operands)
        )
        Operation.__init__(
            self,
            operands=[*values, *(SSAValue.get(o) for o in op_bundle_operands)],
            result_types=() if return_type is None else (return_type,),
            properties=properties,
        )

    print = _xllvm.CallOp.print
    parse = classmethod(_xllvm.CallOp.parse.__func__)  # pyright: ignore


_CALL_DEFAULTS = [
    (name, definition.default_value)
    for name, definition in CallOp.get_irdl_definition().properties.items()
    if not isinstance(definition, OptionalDef) and definition.default_value is not None
]


def direct_call_properties(callee: str, arg_count: int) -> dict[str, Attribute]:
    """The properties of ``CallOp(callee, *args)`` with ``arg_count`` arguments and
    every option left as it defaults, in its order, the defaults that
    ``IRDLOperation.__post_init__`` adds included (for an op turned into that call
    in place)."""
    properties: dict[str, Attribute] = {
        "callee": _symbol_ref(callee),
        "fastmathFlags": _NO_FASTMATH,
        "CConv": _CCC,
        "op_bundle_sizes": _NO_BUNDLES,
        "operandSegmentSizes": _segment_sizes(arg_count, 0),
    }
    for name, default in _CALL_DEFAULTS:
        if name not in properties:
            properties[name] = default
    return properties


# --------------------------------------------------------------------------------------
# Module level: globals, ctors/dtors
# --------------------------------------------------------------------------------------


class _XtorsOp(IRDLOperation, ABC):
    """``llvm.mlir.global_ctors``/``global_dtors`` (MLIR 22 syntax)::

    llvm.mlir.global_ctors ctors = [@f], priorities = [123 : i32], data = [#llvm.zero]
    """

    priorities = prop_def(ArrayAttr[IntegerAttr[I32]])
    data = prop_def(ArrayAttr[Attribute])

    def functions(self) -> ArrayAttr[SymbolRefAttr]:
        raise NotImplementedError

    def entries(self) -> list[tuple[SymbolRefAttr, int, Attribute]]:
        """(function, priority, data) for each entry."""
        return [
            (f, p.value.data, d)
            for f, p, d in zip(
                self.functions(), self.priorities, self.data, strict=True
            )
        ]

    def verify_(self) -> None:
        n = len(self.functions())
        if len(self.priorities) != n or len(self.data) != n:
            kind = self.name.rsplit("_", 1)[1]
            raise VerifyException(
                f"'{self.name}' op {kind}, priorities, and data must have the same "
                f"number of elements: {n}, {len(self.priorities)}, {len(self.data)}"
            )


@irdl_op_definition
class GlobalCtorsOp(_XtorsOp):
    name = "llvm.mlir.global_ctors"

    ctors = prop_def(ArrayAttr[SymbolRefAttr])

    assembly_format = (
        "`ctors` `=` $ctors `,` `priorities` `=` $priorities `,` `data` `=` $data "
        "attr-dict"
    )

    def __init__(
        self,
        ctors: Sequence[str | SymbolRefAttr],
        priorities: Sequence[int],
        data: Sequence[Attribute] | None = None,
    ):
        super().__init__(properties=_xtor_props("ctors", ctors, priorities, data))

    def functions(self) -> ArrayAttr[SymbolRefAttr]:
        return self.ctors


@irdl_op_definition
class GlobalDtorsOp(_XtorsOp):
    name = "llvm.mlir.global_dtors"

    dtors = prop_def(ArrayAttr[SymbolRefAttr])

    assembly_format = (
        "`dtors` `=` $dtors `,` `priorities` `=` $priorities `,` `data` `=` $data "
        "attr-dict"
    )

    def __init__(
        self,
        dtors: Sequence[str | SymbolRefAttr],
        priorities: Sequence[int],
        data: Sequence[Attribute] | None = None,
    ):
        super().__init__(properties=_xtor_props("dtors", dtors, priorities, data))

    def functions(self) -> ArrayAttr[SymbolRefAttr]:
        return self.dtors


def _xtor_props(
    key: str,
    funcs: Sequence[str | SymbolRefAttr],
    priorities: Sequence[int],
    data: Sequence[Attribute] | None,
) -> dict[str, Attribute]:
    refs = [f if isinstance(f, SymbolRefAttr) else SymbolRefAttr(f) for f in funcs]
    return {
        key: ArrayAttr(refs),
        "priorities": ArrayAttr([IntegerAttr(p, i32) for p in priorities]),
        "data": ArrayAttr(data if data is not None else [ZeroAttr()] * len(refs)),
    }


@irdl_op_definition
class GlobalOp(_xllvm.GlobalOp):
    """``llvm.mlir.global``, printed as upstream::

        llvm.mlir.global <linkage> [hidden|protected] [thread_local]
            [unnamed_addr|local_unnamed_addr] [constant] @name(<value>?)
            {addr_space = N : i32, alignment = A : i64, section = "...", dso_local,
             externally_initialized} : <type> [initializer region]

    Replaces xDSL's, which lost the visibility keyword and ``externally_initialized``.
    The constructor takes xDSL's arguments.
    """

    name = "llvm.mlir.global"

    global_type = prop_def()
    constant = opt_prop_def(UnitAttr)
    sym_name = prop_def(StringAttr)
    linkage = prop_def(LinkageAttr)
    dso_local = opt_prop_def(UnitAttr)
    thread_local_ = opt_prop_def(UnitAttr)
    externally_initialized = opt_prop_def(UnitAttr)
    visibility_ = prop_def(IntegerAttr[I64], default_value=IntegerAttr(0, i64))
    value = opt_prop_def()
    alignment = opt_prop_def(IntegerAttr)
    addr_space = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, i32))
    unnamed_addr = opt_prop_def(IntegerAttr)
    section = opt_prop_def(StringAttr)

    body = region_def()

    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        global_type: Attribute,
        sym_name: str | StringAttr,
        linkage: str | LinkageAttr,
        addr_space: int = 0,
        constant: bool | None = None,
        dso_local: bool | None = None,
        thread_local_: bool | None = None,
        value: Attribute | None = None,
        alignment: int | None = None,
        unnamed_addr: int | None = None,
        section: str | StringAttr | None = None,
        body: Region | None = None,
        *,
        visibility: int = 0,
        externally_initialized: bool = False,
    ):
        IRDLOperation.__init__(
            self,
            properties={
                "global_type": global_type,
                "sym_name": StringAttr(sym_name)
                if isinstance(sym_name, str)
                else sym_name,
                "linkage": LinkageAttr(linkage)
                if isinstance(linkage, str)
                else linkage,
                "addr_space": IntegerAttr(addr_space, 32),
                "constant": UnitAttr() if constant else None,
                "dso_local": UnitAttr() if dso_local else None,
                "thread_local_": UnitAttr() if thread_local_ else None,
                "externally_initialized": UnitAttr()
                if externally_initialized
                else None,
                "value": value,
                "alignment": None if alignment is None else IntegerAttr(alignment, 64),
                "unnamed_addr": (
                    None if unnamed_addr is None else IntegerAttr(unnamed_addr, 64)
                ),
                "section": StringAttr(section) if isinstance(section, str) else section,
                "visibility_": IntegerAttr(visibility, 64),
            },
            regions=[body if body is not None else Region()],
        )

    def verify_(self) -> None:
        if self.value is not None and self.body.blocks:
            raise VerifyException(
                "'llvm.mlir.global' op cannot have both initializer value and region"
            )
        if self.linkage.linkage.data == "common" and self.value is not None:
            raise VerifyException(
                "'llvm.mlir.global' op expected zero value for 'common' linkage"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.linkage.linkage.data}")
        if vis := VISIBILITIES.get(self.visibility_.value.data):
            printer.print_string(f" {vis}")
        if self.thread_local_ is not None:
            printer.print_string(" thread_local")
        if self.unnamed_addr is not None and (
            kw := UNNAMED_ADDRS.get(self.unnamed_addr.value.data)
        ):
            printer.print_string(f" {kw}")
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string("(")
        if self.value is not None:
            printer.print_attribute(self.value)
        printer.print_string(")")
        attrs: dict[str, Attribute] = {"addr_space": self.addr_space}
        for key in ("alignment", "section", "dso_local", "externally_initialized"):
            if (a := self.properties.get(key)) is not None:
                attrs[key] = a
        printer.print_op_attributes(attrs | self.attributes)
        # Upstream leaves out the type when the value is a string of that type.
        if not (
            isinstance(self.value, StringAttr)
            and self.global_type
            == _xllvm.LLVMArrayType(
                len(self.value.data.encode("latin-1")), IntegerType(8)
            )
        ):
            printer.print_string(" : ")
            printer.print_attribute(self.global_type)
        if self.body.blocks:
            printer.print_string(" ")
            printer.print_region(self.body)

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        linkage = parser.parse_optional_keyword_in(LINKAGES) or "external"
        visibility = 0
        if (
            kw := parser.parse_optional_keyword_in(("hidden", "protected"))
        ) is not None:
            visibility = 1 if kw == "hidden" else 2
        thread_local = parser.parse_optional_keyword("thread_local") is not None
        unnamed_addr = None
        if (
            kw := parser.parse_optional_keyword_in(
                ("unnamed_addr", "local_unnamed_addr")
            )
        ) is not None:
            unnamed_addr = 2 if kw == "unnamed_addr" else 1
        constant = parser.parse_optional_keyword("constant") is not None
        sym_name = parser.parse_symbol_name()
        parser.parse_punctuation("(")
        value = None
        if parser.parse_optional_punctuation(")") is None:
            value = parser.parse_attribute()
            parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        if parser.parse_optional_punctuation(":") is not None:
            global_type = parser.parse_type()
        elif isinstance(value, StringAttr):
            global_type = _xllvm.LLVMArrayType(
                len(value.data.encode("latin-1")), IntegerType(8)
            )
        elif isinstance(value, TypedAttribute):
            global_type = value.get_type()
        else:
            parser.raise_error("expected `:` followed by the global's type")
        props: dict[str, Attribute] = {
            "global_type": global_type,
            "sym_name": sym_name,
            "linkage": LinkageAttr(linkage),
            "visibility_": IntegerAttr(visibility, 64),
            "addr_space": attrs.pop("addr_space", IntegerAttr(0, 32)),
        }
        for key in ("alignment", "section", "dso_local", "externally_initialized"):
            if (a := attrs.pop(key, None)) is not None:
                props[key] = a
        if thread_local:
            props["thread_local_"] = UnitAttr()
        if constant:
            props["constant"] = UnitAttr()
        if unnamed_addr is not None:
            props["unnamed_addr"] = IntegerAttr(unnamed_addr, 64)
        if value is not None:
            props["value"] = value
        region = parser.parse_optional_region() or Region()
        return cls.create(properties=props, attributes=attrs, regions=[region])


# --------------------------------------------------------------------------------------
# The dialect
# --------------------------------------------------------------------------------------

_OUR_OPS: list[type[IRDLOperation]] = [
    SelectOp,
    FSinCosOp,
    FPToSIOp,
    FPToUIOp,
    UIToFPOp,
    AddrSpaceCastOp,
    PoisonOp,
    SwitchOp,
    GEPOp,
    LoadOp,
    StoreOp,
    AtomicRMWOp,
    AtomicCmpXchgOp,
    FenceOp,
    FCmpOp,
    FAbsOp,
    FSqrtOp,
    FSinOp,
    FCosOp,
    FTanOp,
    FAsinOp,
    FAcosOp,
    FAtanOp,
    FSinhOp,
    FCoshOp,
    FTanhOp,
    FExpOp,
    FExp2Op,
    FExp10Op,
    FLogOp,
    FLog2Op,
    FLog10Op,
    FFloorOp,
    FCeilOp,
    FTruncOp,
    FRoundOp,
    FRoundEvenOp,
    FRintOp,
    FNearbyintOp,
    FPowOp,
    FCopySignOp,
    MinNumOp,
    MaxNumOp,
    MinimumOp,
    MaximumOp,
    FAtan2Op,
    FMAOp,
    FMulAddOp,
    PowIOp,
    IsFPClassOp,
    CountLeadingZerosOp,
    CountTrailingZerosOp,
    CtPopOp,
    BitReverseOp,
    ByteSwapOp,
    AbsOp,
    SMinOp,
    SMaxOp,
    UMinOp,
    UMaxOp,
    FshlOp,
    FshrOp,
    LroundOp,
    LlroundOp,
    LrintOp,
    LlrintOp,
    SAddWithOverflowOp,
    UAddWithOverflowOp,
    SSubWithOverflowOp,
    USubWithOverflowOp,
    SMulWithOverflowOp,
    UMulWithOverflowOp,
    MemcpyOp,
    MemmoveOp,
    MemsetOp,
    AssumeOp,
    TrapOp,
    ExtractElementOp,
    FreezeOp,
    ConstrainedFPTruncOp,
    GlobalCtorsOp,
    GlobalDtorsOp,
    GlobalOp,
    FuncOp,
    CallOp,
    *VECTOR_LLVM_OPS,
    *VP_REDUCE_OPS.values(),
    *MATRIX_OPS,
]

_OUR_ATTRS: list[type[Attribute]] = [
    ZeroAttr,
    ConstantRangeAttr,
    *DEBUG_INFO_ATTRIBUTES,
]


def _merge(
    xdsl: Sequence[type[Operation]] | Sequence[type[Attribute]],
    ours: Sequence[type[Operation]] | Sequence[type[Attribute]],
) -> list[type]:
    by_name: dict[str, type] = {c.name: c for c in xdsl}
    by_name.update({c.name: c for c in ours})
    return list(by_name.values())


LLVM = Dialect(
    "llvm",
    _merge(list(_xllvm.LLVM.operations), _OUR_OPS),
    _merge(list(_xllvm.LLVM.attributes), _OUR_ATTRS),
)
"""xDSL's ``llvm`` dialect with the ops above added or put in place of xDSL's."""
