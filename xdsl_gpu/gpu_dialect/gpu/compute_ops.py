"""In-kernel compute ops of the ``gpu`` dialect (``GPUOps.td``), with upstream's syntax.

* index ops: ``gpu.thread_id x (upper_bound N)?`` and friends, ``gpu.lane_id``,
  ``gpu.subgroup_id``/``num_subgroups``/``subgroup_size`` (``... : index``);
* ``gpu.printf``, ``gpu.barrier``, ``gpu.yield``, ``gpu.dynamic_shared_memory``;
* lane exchange: ``gpu.shuffle``, ``gpu.rotate``, ``gpu.subgroup_broadcast``;
* reductions: ``gpu.all_reduce`` (op or region form), ``gpu.subgroup_reduce``;
* ``gpu.warp_execute_on_lane_0``.

Verifier messages are upstream's (``GPUDialect.cpp`` and the ODS constraints of
``GPUOps.td``), with the ``'gpu.<op>' op`` prefix where upstream uses ``emitOpError``,
so a diagnostic reads the same from ``xdsl-opt`` and from ``mlir-opt``.

Results get upstream's default names where ``mlir-opt`` prints them:
``%thread_id_x = gpu.thread_id x``, ``%shuffleResult, %valid = gpu.shuffle ...``.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import ClassVar

from typing_extensions import TypeVar
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I32,
    I64,
    AnyFloatConstr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    Signedness,
    StringAttr,
    UnitAttr,
    VectorType,
    i1,
    i8,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import (
    Attribute,
    Block,
    Operation,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.printer import Printer
from xdsl.traits import (
    HasCanonicalizationPatternsTrait,
    IsolatedFromAbove,
    IsTerminator,
    MemoryWriteEffect,
    NoMemoryEffect,
    Pure,
    RecursiveMemoryEffect,
    ReturnLike,
    SameOperandsAndResultType,
    SingleBlockImplicitTerminator,
    SymbolTable,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.gpu.attributes import AddressSpace, AddressSpaceAttr
from xdsl_gpu.gpu_dialect.gpu.constraints import (
    ODSI1,
    ODSI32,
    ODSIndex,
    SameType,
    TypeConstraint,
    op_error,
    quoted,
)
from xdsl_gpu.gpu_dialect.gpu.constraints import (
    exactly as exactly,  # re-exported: mma_ops takes it from here
)
from xdsl_gpu.gpu_dialect.gpu.verify_order import VerifiedOnEntrance, verify_ods

# ===----------------------------------------------------------------------=== #
# Diagnostics and type constraints worded like upstream (the generic pieces are in
# constraints.py, shared with the other gpu ops)
# ===----------------------------------------------------------------------=== #


SAME_OPERANDS_AND_RESULT_TYPE = "requires the same type for all operands and results"


def is_signless_integer(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.signedness.data == Signedness.SIGNLESS


def is_float(t: Attribute) -> bool:
    return AnyFloatConstr.verifies(t)


def is_integer_or_float(t: Attribute) -> bool:
    """ODS ``AnyIntegerOrFloat``: a signless integer or a float."""
    return is_signless_integer(t) or is_float(t)


def is_integer_or_float_or_1d_vector(t: Attribute) -> bool:
    """ODS ``AnyIntegerOrFloatOr1DVector``: also a fixed-length 1-D vector of those."""
    if isinstance(t, VectorType):
        return (
            t.get_num_dims() == 1
            and t.get_num_scalable_dims() == 0
            and is_integer_or_float(t.get_element_type())
        )
    return is_integer_or_float(t)


IntegerOrFloat = TypeConstraint("Integer or Float", is_integer_or_float)
IntegerOrFloatOr1DVector = TypeConstraint(
    "Integer or Float or fixed-length vector of Integer or Float values of ranks 1",
    is_integer_or_float_or_1d_vector,
)


def is_power_of_2(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


# ===----------------------------------------------------------------------=== #
# Enums: `#gpu<dim x>`, `#gpu<all_reduce_op add>`, `#gpu<shuffle_mode xor>`,
# `#gpu<broadcast specific_lane>` (bare keywords inside op formats)
# ===----------------------------------------------------------------------=== #


class Dimension(StrEnum):
    X = "x"
    Y = "y"
    Z = "z"


@irdl_attr_definition
class DimensionAttr(EnumAttribute[Dimension], SpacedOpaqueSyntaxAttribute):
    """``#gpu<dim x>``: a dimension, either 'x', 'y', or 'z'."""

    name = "gpu.dim"


class AllReduceOperation(StrEnum):
    """Built-in reduction operations of ``gpu.all_reduce``/``gpu.subgroup_reduce``
    (the order is upstream's, values 0..12)."""

    ADD = "add"
    MUL = "mul"
    MINUI = "minui"
    MINSI = "minsi"
    MINNUMF = "minnumf"
    MAXUI = "maxui"
    MAXSI = "maxsi"
    MAXNUMF = "maxnumf"
    AND = "and"
    OR = "or"
    XOR = "xor"
    MINIMUMF = "minimumf"
    MAXIMUMF = "maximumf"


FLOAT_REDUCTIONS = frozenset(
    {
        AllReduceOperation.MINNUMF,
        AllReduceOperation.MAXNUMF,
        AllReduceOperation.MINIMUMF,
        AllReduceOperation.MAXIMUMF,
    }
)
"""Reductions that need a float type."""

INTEGER_REDUCTIONS = frozenset(
    {
        AllReduceOperation.MINSI,
        AllReduceOperation.MINUI,
        AllReduceOperation.MAXSI,
        AllReduceOperation.MAXUI,
        AllReduceOperation.AND,
        AllReduceOperation.OR,
        AllReduceOperation.XOR,
    }
)
"""Reductions that need an integer type (``add`` and ``mul`` take either)."""


@irdl_attr_definition
class AllReduceOperationAttr(
    EnumAttribute[AllReduceOperation], SpacedOpaqueSyntaxAttribute
):
    """``#gpu<all_reduce_op add>``."""

    name = "gpu.all_reduce_op"


class ShuffleMode(StrEnum):
    XOR = "xor"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShuffleModeAttr(EnumAttribute[ShuffleMode], SpacedOpaqueSyntaxAttribute):
    """``#gpu<shuffle_mode xor>``."""

    name = "gpu.shuffle_mode"


class BroadcastType(StrEnum):
    FIRST_ACTIVE_LANE = "first_active_lane"
    SPECIFIC_LANE = "specific_lane"


@irdl_attr_definition
class BroadcastTypeAttr(EnumAttribute[BroadcastType], SpacedOpaqueSyntaxAttribute):
    """``#gpu<broadcast specific_lane>``."""

    name = "gpu.broadcast"


_EnumT = TypeVar("_EnumT", bound=StrEnum)


def enum_attr(
    attr_type: type[EnumAttribute[_EnumT]], value: EnumAttribute[_EnumT] | _EnumT | str
) -> EnumAttribute[_EnumT]:
    """``value`` as an ``attr_type``: an attribute, an enum member or its keyword."""
    if isinstance(value, attr_type):
        return value
    return attr_type(attr_type.enum_type(value))  # pyright: ignore[reportArgumentType]


def index_attr(value: int | IntegerAttr | None) -> IntegerAttr | None:
    if value is None or isinstance(value, IntegerAttr):
        return value
    return IntegerAttr(value, IndexType())


# ===----------------------------------------------------------------------=== #
# Default result names (upstream's getAsmResultNames and ODS result names)
# ===----------------------------------------------------------------------=== #


class DefaultResultNames(IRDLOperation, abc.ABC):
    """Gives results the names ``mlir-opt`` prints, unless they have one already.

    ``Operation.__init__`` calls ``__post_init__``, so this covers builders, both
    parsers and cloning; a name written in the input (``%tid = ...``) wins.
    """

    def default_result_names(self) -> Sequence[str | None]:
        return ()

    def __post_init__(self):
        super().__post_init__()
        for result, name in zip(self.results, self.default_result_names()):
            if name is not None and result.name_hint is None:
                result.name_hint = name


# ===----------------------------------------------------------------------=== #
# Index ops
# ===----------------------------------------------------------------------=== #


class GPUIndexOp(DefaultResultNames, abc.ABC):
    """Base of ``gpu.thread_id``, ``gpu.block_id``, ...: ``gpu.<op> x (upper_bound
    N)?`` returning an ``index``, named ``%<op>_<dim>``.

    ``upper_bound``: executions where the value would reach it are undefined.
    """

    dimension = prop_def(DimensionAttr)
    upper_bound = opt_prop_def(IntegerAttr[IndexType])
    result = result_def(ODSIndex)

    traits = traits_def(Pure())

    assembly_format = "$dimension (`upper_bound` $upper_bound^)? attr-dict"

    def __init__(
        self,
        dimension: DimensionAttr | Dimension | str,
        upper_bound: int | IntegerAttr | None = None,
    ):
        super().__init__(
            result_types=[IndexType()],
            properties={
                "dimension": enum_attr(DimensionAttr, dimension),
                "upper_bound": index_attr(upper_bound),
            },
        )

    def default_result_names(self) -> Sequence[str | None]:
        dimension = self.properties.get("dimension")
        if not isinstance(dimension, DimensionAttr):
            return ()
        return (f"{self.name.removeprefix('gpu.')}_{dimension.data}",)


@irdl_op_definition
class ClusterDimOp(GPUIndexOp):
    """Number of cluster identifiers per grid along a dimension."""

    name = "gpu.cluster_dim"


@irdl_op_definition
class ClusterDimBlocksOp(GPUIndexOp):
    """Number of thread blocks per cluster along a dimension."""

    name = "gpu.cluster_dim_blocks"


@irdl_op_definition
class ClusterIdOp(GPUIndexOp):
    """Cluster identifier along a dimension."""

    name = "gpu.cluster_id"


@irdl_op_definition
class ClusterBlockIdOp(GPUIndexOp):
    """Block identifier within its cluster along a dimension."""

    name = "gpu.cluster_block_id"


@irdl_op_definition
class BlockDimOp(GPUIndexOp):
    """Number of threads per block along a dimension."""

    name = "gpu.block_dim"


@irdl_op_definition
class BlockIdOp(GPUIndexOp):
    """Block identifier along a dimension."""

    name = "gpu.block_id"


@irdl_op_definition
class GridDimOp(GPUIndexOp):
    """Number of blocks per grid along a dimension."""

    name = "gpu.grid_dim"


@irdl_op_definition
class ThreadIdOp(GPUIndexOp):
    """Thread identifier within its block along a dimension."""

    name = "gpu.thread_id"


@irdl_op_definition
class GlobalIdOp(GPUIndexOp):
    """Thread identifier within the whole grid along a dimension."""

    name = "gpu.global_id"


class SubgroupQueryOp(IRDLOperation, abc.ABC):
    """Base of the subgroup queries: an optional ``upper_bound`` and an ``index``."""

    upper_bound = opt_prop_def(IntegerAttr[IndexType])
    result = result_def(ODSIndex)

    traits = traits_def(Pure())

    assembly_format = "(`upper_bound` $upper_bound^)? attr-dict `:` type($result)"

    def __init__(self, upper_bound: int | IntegerAttr | None = None):
        super().__init__(
            result_types=[IndexType()],
            properties={"upper_bound": index_attr(upper_bound)},
        )


@irdl_op_definition
class LaneIdOp(SubgroupQueryOp):
    """``gpu.lane_id (upper_bound N)?``: the lane within the subgroup (no type)."""

    name = "gpu.lane_id"

    assembly_format = "(`upper_bound` $upper_bound^)? attr-dict"


@irdl_op_definition
class SubgroupIdOp(SubgroupQueryOp):
    """``gpu.subgroup_id : index``: the subgroup within the workgroup."""

    name = "gpu.subgroup_id"


@irdl_op_definition
class NumSubgroupsOp(SubgroupQueryOp):
    """``gpu.num_subgroups : index``: the number of subgroups in the workgroup."""

    name = "gpu.num_subgroups"


@irdl_op_definition
class SubgroupSizeOp(SubgroupQueryOp):
    """``gpu.subgroup_size : index``: the number of threads in a subgroup."""

    name = "gpu.subgroup_size"


# ===----------------------------------------------------------------------=== #
# printf, barrier, yield, dynamic_shared_memory
# ===----------------------------------------------------------------------=== #


def is_printf_argument(t: Attribute) -> bool:
    return isinstance(t, IntegerType | IndexType) or is_float(t)


@irdl_op_definition
class PrintfOp(IRDLOperation):
    """``gpu.printf "fmt" (, %a, %b : T1, T2)?``: device-side printf of integers,
    indices and floats."""

    name = "gpu.printf"

    format = prop_def(StringAttr)
    args = var_operand_def(
        TypeConstraint(
            "variadic of integer or index or floating-point", is_printf_argument
        )
    )

    traits = traits_def(MemoryWriteEffect())

    def __init__(
        self, format: str | StringAttr, args: Sequence[SSAValue | Operation] = ()
    ):
        if isinstance(format, str):
            format = StringAttr(format)
        super().__init__(operands=[args], properties={"format": format})

    # Upstream's format is `$format attr-dict (`,` $args^ `:` type($args))?`. The
    # GPU dialect's own documentation (and seed 001) writes the arguments without
    # the comma, `gpu.printf "Hello from %d\n" %6 : index`, which MLIR 22 rejects;
    # we accept both and print upstream's form.
    @classmethod
    def parse(cls, parser: Parser) -> PrintfOp:
        format = parser.parse_str_literal("format string")
        attributes = parser.parse_optional_attr_dict()
        args: list[SSAValue] = []
        has_comma = parser.parse_optional_punctuation(",") is not None
        if has_comma or parser._current_token.kind == MLIRTokenKind.PERCENT_IDENT:
            operands = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
            if len(types) != len(operands):
                parser.raise_error(
                    f"{len(operands)} operands present, but expected {len(types)}"
                )
            args = [parser.resolve_operand(o, t) for o, t in zip(operands, types)]
        op = cls(format, args)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.format.data)
        printer.print_op_attributes(self.attributes)
        if self.args:
            printer.print_string(", ")
            printer.print_list(self.args, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list((a.type for a in self.args), printer.print_attribute)


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """``gpu.barrier``: synchronizes all work items of a workgroup."""

    name = "gpu.barrier"

    traits = lazy_traits_def(lambda: (BarrierCanonicalization(),))

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class YieldOp(IRDLOperation):
    """``gpu.yield %v : T``: terminator of the regions of gpu ops."""

    name = "gpu.yield"

    values = var_operand_def()

    traits = traits_def(Pure(), ReturnLike(), IsTerminator())

    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


def is_1d_i8_memref(t: Attribute) -> bool:
    return isinstance(t, MemRefType) and t.get_num_dims() == 1 and t.element_type == i8


def is_workgroup_address_space(memory_space: Attribute) -> bool:
    """Whether a memref memory space is ``#gpu.address_space<workgroup>``."""
    return (
        isinstance(memory_space, AddressSpaceAttr)
        and memory_space.data == AddressSpace.Workgroup
    )


@irdl_op_definition
class DynamicSharedMemoryOp(IRDLOperation):
    """``gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>``:
    the base of the dynamic shared memory of the kernel launch."""

    name = "gpu.dynamic_shared_memory"

    resultMemref = result_def(
        TypeConstraint("1D memref of 8-bit signless integer values", is_1d_i8_memref)
    )

    traits = traits_def(Pure())

    # Written out rather than an assembly format, whose parser would check the type
    # as it reads it; upstream's reads any type and its verifier words the error
    # (``'gpu.dynamic_shared_memory' op result #0 must be ...``).

    @classmethod
    def parse(cls, parser: Parser) -> DynamicSharedMemoryOp:
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls.create(result_types=[parser.parse_type()], attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.resultMemref.type)

    def __init__(self, result_type: MemRefType | None = None):
        """``result_type`` defaults to the only valid one, ``memref<?xi8,
        #gpu.address_space<workgroup>>``."""
        if result_type is None:
            result_type = MemRefType(
                i8, [DYNAMIC_INDEX], memory_space=AddressSpaceAttr("workgroup")
            )
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        parent = self.parent_op()
        while parent is not None and not parent.has_trait(SymbolTable):
            parent = parent.parent_op()
        if parent is None:
            raise op_error(self, "must be inside an op with symbol table")
        memref_type = self.resultMemref.type
        assert isinstance(memref_type, MemRefType)
        if not is_workgroup_address_space(memref_type.memory_space):
            raise op_error(self, "address space must be address_space<workgroup>")
        if memref_type.has_static_shape():
            raise op_error(
                self,
                "result memref type must be "
                "memref<?xi8, #gpu.address_space<workgroup>>",
            )


# ===----------------------------------------------------------------------=== #
# Lane exchange: shuffle, rotate, subgroup_broadcast
# ===----------------------------------------------------------------------=== #


@irdl_op_definition
class ShuffleOp(VerifiedOnEntrance, DefaultResultNames):
    """``%r, %valid = gpu.shuffle xor|up|down|idx %v, %offset, %width : T``."""

    name = "gpu.shuffle"

    T: ClassVar = SameType(
        "T",
        IntegerOrFloatOr1DVector,
        "failed to verify that all of {value, shuffleResult} have same type",
    )

    value = operand_def(T)
    offset = operand_def(ODSI32)
    width = operand_def(ODSI32)
    mode = prop_def(ShuffleModeAttr)

    shuffleResult = result_def(T)
    valid = result_def(ODSI1)

    traits = traits_def(Pure())

    assembly_format = "$mode $value `,` $offset `,` $width attr-dict `:` type($value)"

    def __init__(
        self,
        value: SSAValue | Operation,
        offset: SSAValue | Operation,
        width: SSAValue | Operation,
        mode: ShuffleModeAttr | ShuffleMode | str,
    ):
        value = SSAValue.get(value)
        super().__init__(
            operands=[value, offset, width],
            result_types=[value.type, i1],
            properties={"mode": enum_attr(ShuffleModeAttr, mode)},
        )

    def default_result_names(self) -> Sequence[str | None]:
        return ("shuffleResult", "valid")


@irdl_op_definition
class RotateOp(VerifiedOnEntrance, DefaultResultNames):
    """``%r, %valid = gpu.rotate %v, offset, width : T``: width a power of two and
    ``0 <= offset < width``."""

    name = "gpu.rotate"

    T: ClassVar = SameType(
        "T",
        IntegerOrFloatOr1DVector,
        "failed to verify that all of {value, rotateResult} have same type",
    )

    value = operand_def(T)
    offset = prop_def(IntegerAttr[I32])
    width = prop_def(IntegerAttr[I32])

    rotateResult = result_def(T)
    valid = result_def(ODSI1)

    traits = traits_def(Pure())

    assembly_format = "$value `,` $offset `,` $width attr-dict `:` type($value)"

    def __init__(
        self,
        value: SSAValue | Operation,
        offset: int | IntegerAttr,
        width: int | IntegerAttr,
    ):
        value = SSAValue.get(value)
        if isinstance(offset, int):
            offset = IntegerAttr(offset, 32)
        if isinstance(width, int):
            width = IntegerAttr(width, 32)
        super().__init__(
            operands=[value],
            result_types=[value.type, i1],
            properties={"offset": offset, "width": width},
        )

    def default_result_names(self) -> Sequence[str | None]:
        return ("rotateResult", "valid")

    def verify_(self) -> None:
        offset = self.offset.value.data
        width = self.width.value.data
        if offset < 0:
            raise op_error(
                self,
                "attribute 'offset' failed to satisfy constraint: 32-bit signless "
                "integer attribute whose minimum value is 0",
            )
        if not is_power_of_2(width):
            raise op_error(
                self,
                "attribute 'width' failed to satisfy constraint: 32-bit signless "
                "integer attribute whose value is a power of two > 0",
            )
        if offset >= width:
            raise op_error(self, f"offset must be in the range [0, {width})")


@irdl_op_definition
class SubgroupBroadcastOp(VerifiedOnEntrance, IRDLOperation):
    """``gpu.subgroup_broadcast %v, first_active_lane : T`` or
    ``gpu.subgroup_broadcast %v, specific_lane %lane : T``."""

    name = "gpu.subgroup_broadcast"

    T: ClassVar = SameType(
        "T", AnyAttr(), "failed to verify that all of {result, src} have same type"
    )

    src = operand_def(T)
    lane = opt_operand_def(ODSI32)
    broadcast_type = prop_def(BroadcastTypeAttr)

    result = result_def(T)

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$src `,` $broadcast_type ($lane^)? attr-dict `:` type($result)"

    def __init__(
        self,
        src: SSAValue | Operation,
        broadcast_type: BroadcastTypeAttr | BroadcastType | str,
        lane: SSAValue | Operation | None = None,
    ):
        src = SSAValue.get(src)
        super().__init__(
            operands=[src, lane],
            result_types=[src.type],
            properties={"broadcast_type": enum_attr(BroadcastTypeAttr, broadcast_type)},
        )

    def verify_(self) -> None:
        if self.broadcast_type.data == BroadcastType.FIRST_ACTIVE_LANE:
            if self.lane is not None:
                raise op_error(
                    self, "lane can only be specified for `specific_lane` broadcast"
                )
        elif self.lane is None:
            raise op_error(self, "lane must be specified for `specific_lane` broadcast")


# ===----------------------------------------------------------------------=== #
# Reductions: all_reduce, subgroup_reduce
# ===----------------------------------------------------------------------=== #


def reduction_type_error(kind: AllReduceOperation, element: Attribute) -> bool:
    """Whether reduction ``kind`` cannot reduce values of type ``element``."""
    if kind in FLOAT_REDUCTIONS:
        return not is_float(element)
    if kind in INTEGER_REDUCTIONS:
        return not isinstance(element, IntegerType)
    return False


def reduction_type_message(kind: AllReduceOperation, value_type: Attribute) -> str:
    return (
        f"`{kind.value}` reduction operation is not compatible with type "
        f"{quoted(value_type)}"
    )


@irdl_custom_directive
class AllReduceOperationDirective(CustomDirective):
    """``custom<AllReduceOperation>($op)``: the reduction kind as a bare keyword,
    absent when the reduction is given as a region."""

    op: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        keyword = parser.parse_optional_identifier()
        if keyword is None:
            return
        if keyword not in AllReduceOperation.__members__.values():
            parser.raise_error("invalid op kind", pos, parser.pos)
        self.op.set(state, AllReduceOperationAttr(AllReduceOperation(keyword)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        kind = self.op.get(op)
        if isinstance(kind, AllReduceOperationAttr):
            state.print_whitespace(printer)
            printer.print_string(kind.data.value)


@irdl_op_definition
class AllReduceOp(VerifiedOnEntrance, IRDLOperation):
    """``gpu.all_reduce add %v uniform? {} : (f32) -> f32``, or the reduction as a
    region: ``gpu.all_reduce %v { ^bb0(%a: f32, %b: f32): ... gpu.yield %c : f32 }
    : (f32) -> f32``."""

    name = "gpu.all_reduce"

    T: ClassVar = SameType("T", IntegerOrFloat, SAME_OPERANDS_AND_RESULT_TYPE)

    value = operand_def(T)
    op = opt_prop_def(AllReduceOperationAttr)
    uniform = opt_prop_def(UnitAttr)
    result = result_def(T)
    body = region_def()

    traits = lazy_traits_def(
        lambda: (
            SameOperandsAndResultType(),
            IsolatedFromAbove(),
            GroupOpCanonicalization(),
        )
    )

    custom_directives = (AllReduceOperationDirective,)
    assembly_format = (
        "custom<AllReduceOperationDirective>($op) $value (`uniform` $uniform^)? "
        "$body attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        op: AllReduceOperationAttr | AllReduceOperation | str | None = None,
        body: Region | None = None,
        *,
        uniform: bool = False,
    ):
        """Either ``op`` or a non-empty ``body`` (two arguments of the value's type,
        ending in ``gpu.yield``)."""
        value = SSAValue.get(value)
        super().__init__(
            operands=[value],
            result_types=[value.type],
            properties={
                "op": None if op is None else enum_attr(AllReduceOperationAttr, op),
                "uniform": UnitAttr() if uniform else None,
            },
            regions=[Region() if body is None else body],
        )

    def verify_on_entrance_(self) -> None:
        verify_ods(self)  # the rest is upstream's verifyRegions, run after the body

    def verify_(self) -> None:
        # Upstream's verifyRegions, which words these without the op prefix.
        value_type = self.result.type
        if (not self.body.blocks) != (self.op is not None):
            raise VerifyException("expected either an op attribute or a non-empty body")
        if self.op is not None:
            if reduction_type_error(self.op.data, value_type):
                raise VerifyException(reduction_type_message(self.op.data, value_type))
            return
        entry = self.body.blocks.first
        assert entry is not None
        if len(entry.args) != 2:
            raise VerifyException("expected two region arguments")
        if any(arg.type != value_type for arg in entry.args):
            raise VerifyException("incorrect region argument type")
        yield_count = 0
        for block in self.body.blocks:
            if isinstance(yield_op := block.last_op, YieldOp):
                if len(yield_op.values) != 1:
                    raise VerifyException("expected one gpu.yield operand")
                if yield_op.values[0].type != value_type:
                    raise VerifyException("incorrect gpu.yield type")
                yield_count += 1
        if yield_count == 0:
            raise VerifyException("expected gpu.yield op in region")


@irdl_op_definition
class SubgroupReduceOp(VerifiedOnEntrance, IRDLOperation, HasFolderInterface):
    """``gpu.subgroup_reduce add %v uniform? cluster(size = 4, stride = 2)? :
    (T) -> T``: T an integer, a float or a 1-D vector of them; size and stride
    powers of two."""

    name = "gpu.subgroup_reduce"

    T: ClassVar = SameType("T", IntegerOrFloatOr1DVector, SAME_OPERANDS_AND_RESULT_TYPE)

    value = operand_def(T)
    op = prop_def(AllReduceOperationAttr)
    uniform = opt_prop_def(UnitAttr)
    cluster_size = opt_prop_def(IntegerAttr[I32])
    cluster_stride = prop_def(IntegerAttr[I32], default_value=IntegerAttr(1, 32))
    result = result_def(T)

    traits = lazy_traits_def(
        lambda: (SameOperandsAndResultType(), GroupOpCanonicalization())
    )

    custom_directives = (AllReduceOperationDirective,)
    assembly_format = (
        "custom<AllReduceOperationDirective>($op) $value (`uniform` $uniform^)? "
        "(`cluster` `(` `size` `=` $cluster_size^ "
        "(`,` `stride` `=` $cluster_stride^)? `)`)? "
        "attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        op: AllReduceOperationAttr | AllReduceOperation | str,
        *,
        uniform: bool = False,
        cluster_size: int | None = None,
        cluster_stride: int = 1,
    ):
        value = SSAValue.get(value)
        super().__init__(
            operands=[value],
            result_types=[value.type],
            properties={
                "op": enum_attr(AllReduceOperationAttr, op),
                "uniform": UnitAttr() if uniform else None,
                "cluster_size": None
                if cluster_size is None
                else IntegerAttr(cluster_size, 32),
                "cluster_stride": IntegerAttr(cluster_stride, 32),
            },
        )

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        """A reduction over clusters of one lane is the value itself."""
        if self.cluster_size is not None and self.cluster_size.value.data == 1:
            return (self.value,)
        return None

    def verify_(self) -> None:
        value_type = self.result.type
        element_type = (
            value_type.get_element_type()
            if isinstance(value_type, VectorType)
            else value_type
        )
        if reduction_type_error(self.op.data, element_type):
            raise VerifyException(reduction_type_message(self.op.data, value_type))
        # Upstream reads both as uint32_t.
        if self.cluster_size is not None:
            size = self.cluster_size.value.data & 0xFFFFFFFF
            if not is_power_of_2(size):
                raise op_error(self, f"cluster size {size} is not a power of two")
        stride = self.cluster_stride.value.data & 0xFFFFFFFF
        if stride != 1 and self.cluster_size is None:
            raise op_error(
                self,
                "cluster stride can only be specified if cluster size is specified",
            )
        if not is_power_of_2(stride):
            raise op_error(self, f"cluster stride {stride} is not a power of two")


# ===----------------------------------------------------------------------=== #
# Canonicalization (upstream GPUDialect.cpp)
# ===----------------------------------------------------------------------=== #


class EraseRedundantBarrier(RewritePattern):
    """A barrier right before another barrier goes: the threads are already
    synchronized (upstream ``eraseRedundantGpuBarrierOps``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BarrierOp, rewriter: PatternRewriter, /):
        if isinstance(op.next_op, BarrierOp):
            rewriter.erase(op)


class MakeGroupOpUniform(RewritePattern):
    """A ``gpu.all_reduce`` or ``gpu.subgroup_reduce`` in the entry block of a
    ``gpu.launch`` body runs in every work item, so it is ``uniform`` (upstream
    does this in the ops' folders, which xDSL does not let change an op)."""

    acts_on = (AllReduceOp, SubgroupReduceOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        from xdsl_gpu.gpu_dialect.gpu.kernel_ops import LaunchOp

        if not isinstance(op, AllReduceOp | SubgroupReduceOp) or op.uniform:
            return
        launch = op.parent_op()
        if not isinstance(launch, LaunchOp):
            return
        if op.parent_block() is not launch.body.blocks.first:
            return
        op.properties["uniform"] = UnitAttr()
        rewriter.notify_op_modified(op)


class BarrierCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (EraseRedundantBarrier(),)


class GroupOpCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (MakeGroupOpUniform(),)


# ===----------------------------------------------------------------------=== #
# warp_execute_on_lane_0
# ===----------------------------------------------------------------------=== #


@irdl_op_definition
class WarpExecuteOnLane0Op(IRDLOperation):
    """``%r = gpu.warp_execute_on_lane_0(%laneid)[32] args(%v : T) -> (R) {
    ^bb0(%a: T'): ... gpu.yield %x : R' }``.

    The region runs on lane 0 only. Each operand ``T`` is distributed over the warp
    and its block argument ``T'`` holds all lanes' values; likewise each yielded
    ``R'`` is distributed into the result ``R``. Distributed and expanded types are
    equal (a broadcast) or vectors of the same rank and element type whose dimension
    ratios multiply to the warp size.
    """

    name = "gpu.warp_execute_on_lane_0"

    laneid = operand_def(ODSIndex)
    warp_size = prop_def(IntegerAttr[I64])
    args = var_operand_def()
    distributed_results = var_result_def()
    warpRegion = region_def("single_block")

    traits = traits_def(SingleBlockImplicitTerminator(YieldOp), RecursiveMemoryEffect())

    def __init__(
        self,
        result_types: Sequence[Attribute],
        laneid: SSAValue | Operation,
        warp_size: int,
        args: Sequence[SSAValue | Operation] = (),
        block_arg_types: Sequence[Attribute] = (),
        region: Region | None = None,
    ):
        """Without ``region``, the region is one block with arguments of
        ``block_arg_types`` (the expanded types of ``args``) and no terminator yet."""
        if region is None:
            region = Region(Block(arg_types=block_arg_types))
        super().__init__(
            operands=[laneid, args],
            result_types=[result_types],
            properties={"warp_size": IntegerAttr(warp_size, 64)},
            regions=[region],
        )

    @property
    def terminator(self) -> YieldOp:
        last = self.warpRegion.block.last_op
        assert isinstance(last, YieldOp)
        return last

    def print(self, printer: Printer) -> None:
        with printer.in_parens():
            printer.print_operand(self.laneid)
        printer.print_string(f"[{self.warp_size.value.data}]")
        if self.args:
            printer.print_string(" args(")
            printer.print_list(self.args, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list(self.args.types, printer.print_attribute)
            printer.print_string(")")
        if self.results:
            printer.print_string(" -> (")
            printer.print_list(self.result_types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(
            self.warpRegion, print_block_terminators=bool(self.results)
        )
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> WarpExecuteOnLane0Op:
        parser.parse_punctuation("(")
        laneid = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        parser.parse_punctuation("[")
        warp_size = parser.parse_integer(allow_negative=False, allow_boolean=False)
        parser.parse_punctuation("]")
        args: Sequence[UnresolvedOperand] = ()
        arg_types: Sequence[Attribute] = ()
        if parser.parse_optional_keyword("args") is not None:
            parser.parse_punctuation("(")
            args = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            arg_types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
            parser.parse_punctuation(")")
            if len(args) != len(arg_types):
                parser.raise_error(
                    f"{len(args)} operands present, but expected {len(arg_types)}"
                )
        result_types: Sequence[Attribute] = ()
        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                if parser.parse_optional_punctuation(")") is None:
                    result_types = parser.parse_comma_separated_list(
                        parser.Delimiter.NONE, parser.parse_type
                    )
                    parser.parse_punctuation(")")
            else:
                result_types = (parser.parse_type(),)
        region = parser.parse_region()
        attributes = parser.parse_optional_attr_dict()
        op = cls.create(
            operands=[
                parser.resolve_operand(laneid, IndexType()),
                *parser.resolve_operands(args, arg_types, parser.pos),
            ],
            result_types=result_types,
            properties={"warp_size": IntegerAttr(warp_size, 64)},
            attributes=attributes,
            regions=[region],
        )
        ensure_terminator(op, SingleBlockImplicitTerminator(YieldOp))
        return op

    def verify_(self) -> None:
        block = self.warpRegion.block
        if len(self.args) != len(block.args):
            raise op_error(
                self, "expected same number op arguments and block arguments."
            )
        yield_op = self.terminator
        if len(yield_op.values) != len(self.results):
            raise op_error(
                self, "expected same number of yield operands and return values."
            )
        warp_size = self.warp_size.value.data
        for region_arg, arg in zip(block.args, self.args):
            self.verify_distributed_type(region_arg.type, arg.type, warp_size)
        for yielded, result in zip(yield_op.values, self.results):
            self.verify_distributed_type(yielded.type, result.type, warp_size)

    def verify_distributed_type(
        self, expanded: Attribute, distributed: Attribute, warp_size: int
    ) -> None:
        """Check that ``distributed`` is ``expanded`` spread over ``warp_size``
        lanes (or equal to it: a broadcast)."""
        if expanded == distributed:
            return
        if not isinstance(expanded, VectorType) or not isinstance(
            distributed, VectorType
        ):
            raise op_error(self, "expected vector type for distributed operands.")
        if (
            expanded.get_num_dims() != distributed.get_num_dims()
            or expanded.get_element_type() != distributed.get_element_type()
        ):
            raise op_error(
                self,
                "expected distributed vectors to have same rank and element type.",
            )
        scale = 1
        for i, (e_dim, d_dim) in enumerate(
            zip(expanded.get_shape(), distributed.get_shape())
        ):
            if e_dim == d_dim:
                continue
            if d_dim == 0 or e_dim % d_dim != 0:
                raise op_error(
                    self,
                    f"expected expanded vector dimension #{i} ({e_dim}) to be a "
                    f"multipler of the distributed vector dimension ({d_dim})",
                )
            scale *= e_dim // d_dim
        if scale != warp_size:
            raise op_error(
                self,
                f"incompatible distribution dimensions from {quoted(expanded)} to "
                f"{quoted(distributed)} with warp size = {warp_size}",
            )


OPERATIONS = (
    ThreadIdOp,
    BlockIdOp,
    BlockDimOp,
    GridDimOp,
    GlobalIdOp,
    ClusterIdOp,
    ClusterDimOp,
    ClusterBlockIdOp,
    ClusterDimBlocksOp,
    LaneIdOp,
    SubgroupIdOp,
    NumSubgroupsOp,
    SubgroupSizeOp,
    PrintfOp,
    ShuffleOp,
    RotateOp,
    SubgroupBroadcastOp,
    BarrierOp,
    AllReduceOp,
    SubgroupReduceOp,
    YieldOp,
    DynamicSharedMemoryOp,
    WarpExecuteOnLane0Op,
)

ATTRIBUTES = (
    DimensionAttr,
    AllReduceOperationAttr,
    ShuffleModeAttr,
    BroadcastTypeAttr,
)

__all__ = [
    "ATTRIBUTES",
    "OPERATIONS",
    "AllReduceOp",
    "AllReduceOperation",
    "AllReduceOperationAttr",
    "BarrierOp",
    "BlockDimOp",
    "BlockIdOp",
    "BroadcastType",
    "BroadcastTypeAttr",
    "ClusterBlockIdOp",
    "ClusterDimBlocksOp",
    "ClusterDimOp",
    "ClusterIdOp",
    "Dimension",
    "DimensionAttr",
    "DynamicSharedMemoryOp",
    "GPUIndexOp",
    "GlobalIdOp",
    "GridDimOp",
    "LaneIdOp",
    "NumSubgroupsOp",
    "PrintfOp",
    "RotateOp",
    "ShuffleMode",
    "ShuffleModeAttr",
    "ShuffleOp",
    "SubgroupBroadcastOp",
    "SubgroupIdOp",
    "SubgroupReduceOp",
    "SubgroupSizeOp",
    "ThreadIdOp",
    "WarpExecuteOnLane0Op",
    "YieldOp",
]
