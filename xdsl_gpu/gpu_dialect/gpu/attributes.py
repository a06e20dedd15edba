"""Attributes of the ``gpu`` dialect outside compilation (MLIR 22, upstream syntax).

* ``#gpu.address_space<global|workgroup|private>`` (:class:`AddressSpaceAttr`), the
  memory space of memrefs in kernels;
* ``#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>``
  (:class:`LoopDimMapAttr`), set as ``mapping = [...]`` on ``scf.parallel``;
* the device mapping attributes of the transform ops: ``#gpu.block<x>``,
  ``#gpu.thread<linear_dim_0>``, ``#gpu.warp<y>``, ``#gpu.warpgroup<z>``,
  ``#gpu.lane<x>``, ``#gpu.memory_space<workgroup>`` and ``#gpu.mask<5>``;
* the discardable attributes that the ``gpu`` dialect verifies on any op
  (``gpu.container_module``, ``gpu.kernel``, ``gpu.known_block_size``,
  ``gpu.known_grid_size``, ``gpu.known_cluster_size``).

xDSL has no dialect-level hook that verifies discardable attributes (upstream's
``GPUDialect::verifyOperationAttribute``): ops that own such attributes call
:func:`verify_discardable_gpu_attr`, and :func:`verify_discardable_gpu_attrs` checks a
whole tree. Error messages are upstream's words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import ClassVar, TypeVar, cast

from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseArrayBase,
    IntegerType,
    ModuleOp,
    Signedness,
    UnitAttr,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Data, Operation, ParametrizedAttribute
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

__all__ = [
    "ADDRESS_SPACE_VALUES",
    "ATTRIBUTES",
    "CONTAINER_MODULE_ATTR_NAME",
    "KERNEL_ATTR_NAME",
    "KNOWN_BLOCK_SIZE_ATTR_NAME",
    "KNOWN_CLUSTER_SIZE_ATTR_NAME",
    "KNOWN_GRID_SIZE_ATTR_NAME",
    "KNOWN_LAUNCH_SIZE_ATTR_NAMES",
    "MAPPING_ID_VALUES",
    "OPERATIONS",
    "PROCESSOR_VALUES",
    "AddressSpace",
    "AddressSpaceAttr",
    "GPUBlockMappingAttr",
    "GPULaneMappingAttr",
    "GPUMappingMaskAttr",
    "GPUMemorySpaceMappingAttr",
    "GPUThreadMappingAttr",
    "GPUWarpMappingAttr",
    "GPUWarpgroupMappingAttr",
    "LoopDimMapAttr",
    "MappingId",
    "ParallelLoopDimMappingAttr",
    "Processor",
    "ProcessorAttr",
    "format_affine_expr",
    "format_affine_map",
    "verify_discardable_gpu_attr",
    "verify_discardable_gpu_attrs",
]

_E = TypeVar("_E", bound=StrEnum)


# ---------------------------------------------------------------------------------
# Parsing helpers shared by the gpu attributes (also used by compilation_attrs.py and
# types.py): upstream's wording, and verifier errors reported at the attribute.
# ---------------------------------------------------------------------------------


def expect_punctuation(parser: AttrParser, punctuation: str) -> None:
    """Parse ``punctuation`` or fail with upstream's ``expected '<p>'``."""
    if parser.parse_optional_punctuation(punctuation) is None:  # type: ignore[arg-type]
        parser.raise_error(f"expected '{punctuation}'")


def parse_upstream_enum(parser: AttrParser, enum_type: type[_E], cpp_name: str) -> _E:
    """Parse a keyword (or string) naming a member of ``enum_type``.

    Errors read like MLIR's generated enum parsers, e.g. ``expected
    ::mlir::gpu::AddressSpace to be one of: global, workgroup, private``.
    """
    start = parser.pos
    value = parser.parse_optional_identifier_or_str_literal()
    if value is None:
        parser.raise_error("expected valid keyword or string")
    if value not in enum_type.__members__.values():
        parser.raise_error(
            f"expected {cpp_name} to be one of: "
            + ", ".join(e.value for e in enum_type),
            start,
            parser.pos,
        )
    return enum_type(value)


@contextmanager
def verified_at(parser: AttrParser, start: int) -> Iterator[None]:
    """Turn a ``VerifyException`` raised while building a parsed attribute into a
    parse error at ``start`` (where upstream reports attribute verifier errors)."""
    try:
        yield
    except VerifyException as e:
        parser.raise_error(str(e), start, max(parser.pos, start + 1))


def parse_struct(
    parser: AttrParser,
    fields: Mapping[str, Callable[[], Attribute]],
    *,
    all_required: bool,
) -> dict[str, Attribute]:
    """Upstream's ``struct(...)`` directive: ``name = value`` pairs in any order.

    With ``all_required`` exactly ``len(fields)`` pairs are parsed; otherwise any number
    (zero included) of distinct pairs, a comma always followed by one more. Unknown or
    repeated names fail with ``duplicate or unknown struct parameter name: <name>``.
    """
    result: dict[str, Attribute] = {}

    def parse_one(required: bool) -> bool:
        start = parser.pos
        name = parser.parse_optional_identifier()
        if name is None:
            if required:
                parser.raise_error("expected valid keyword")
            return False
        if name not in fields or name in result:
            parser.raise_error(
                f"duplicate or unknown struct parameter name: {name}", start, parser.pos
            )
        expect_punctuation(parser, "=")
        result[name] = fields[name]()
        return True

    if all_required:
        for i in range(len(fields)):
            parse_one(True)
            if i + 1 < len(fields):
                expect_punctuation(parser, ",")
    elif parse_one(False):
        while parser.parse_optional_punctuation(",") is not None:
            parse_one(True)
    return result


class _AngleEnumSyntax:
    """``#gpu.<name><value>``: an enum attribute printed like upstream's
    ``EnumAttr`` with ``assemblyFormat = "`<` $value `>`"``.

    Inside an op's declarative format the attribute prints stripped (``<value>``),
    as upstream does.
    """

    enum_type: ClassVar[type[StrEnum]]
    cpp_enum_name: ClassVar[str]
    data: StrEnum

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> StrEnum:
        expect_punctuation(parser, "<")
        value = parse_upstream_enum(parser, cls.enum_type, cls.cpp_enum_name)
        expect_punctuation(parser, ">")
        return value


# ---------------------------------------------------------------------------------
# #gpu.address_space
# ---------------------------------------------------------------------------------


class AddressSpace(StrEnum):
    """``gpu::AddressSpace``: where a memref of a kernel lives."""

    Global = "global"
    Workgroup = "workgroup"
    Private = "private"


ADDRESS_SPACE_VALUES: dict[AddressSpace, int] = {
    AddressSpace.Global: 1,
    AddressSpace.Workgroup: 2,
    AddressSpace.Private: 3,
}
"""Upstream's integer values of :class:`AddressSpace`."""


@irdl_attr_definition
class AddressSpaceAttr(_AngleEnumSyntax, EnumAttribute[AddressSpace]):
    """``#gpu.address_space<global|workgroup|private>``.

    The NVVM lowering maps global to address space 1, workgroup to 3 and private to
    allocas (0).
    """

    name = "gpu.address_space"
    cpp_enum_name = "::mlir::gpu::AddressSpace"

    def __init__(self, value: AddressSpace | str):
        super().__init__(AddressSpace(value))

    @property
    def value(self) -> AddressSpace:
        return cast(AddressSpace, self.data)

    @property
    def int_value(self) -> int:
        """Upstream's enum value: global 1, workgroup 2, private 3."""
        return ADDRESS_SPACE_VALUES[self.value]


# ---------------------------------------------------------------------------------
# Device mapping attributes (GPUDeviceMappingAttr.td)
# ---------------------------------------------------------------------------------


class MappingId(StrEnum):
    """``gpu::MappingId``: a 3-D dimension or one of ten linear dimensions."""

    DimX = "x"
    DimY = "y"
    DimZ = "z"
    LinearDim0 = "linear_dim_0"
    LinearDim1 = "linear_dim_1"
    LinearDim2 = "linear_dim_2"
    LinearDim3 = "linear_dim_3"
    LinearDim4 = "linear_dim_4"
    LinearDim5 = "linear_dim_5"
    LinearDim6 = "linear_dim_6"
    LinearDim7 = "linear_dim_7"
    LinearDim8 = "linear_dim_8"
    LinearDim9 = "linear_dim_9"


MAPPING_ID_VALUES: dict[MappingId, int] = {m: i for i, m in enumerate(MappingId)}
"""Upstream's values of :class:`MappingId` (x 0, y 1, z 2, linear_dim_0 3, ...)."""


class _MappingIdAccessors:
    data: MappingId

    def __init__(self, value: MappingId | str):
        super().__init__(MappingId(value))  # type: ignore[call-arg]

    @property
    def mapping_id(self) -> int:
        """Upstream ``getMappingId()``: the :data:`MAPPING_ID_VALUES` value."""
        return MAPPING_ID_VALUES[self.data]

    @property
    def is_linear_mapping(self) -> bool:
        return self.mapping_id >= MAPPING_ID_VALUES[MappingId.LinearDim0]

    @property
    def relative_index(self) -> int:
        """The dimension (0-2) or linear dimension (0-9) this attribute names."""
        if self.is_linear_mapping:
            return self.mapping_id - MAPPING_ID_VALUES[MappingId.LinearDim0]
        return self.mapping_id


@irdl_attr_definition
class GPUBlockMappingAttr(
    _MappingIdAccessors, _AngleEnumSyntax, EnumAttribute[MappingId]
):
    """``#gpu.block<x>``: thread-block parallelism (3-D or linear)."""

    name = "gpu.block"
    cpp_enum_name = "::mlir::gpu::MappingId"


@irdl_attr_definition
class GPUWarpgroupMappingAttr(
    _MappingIdAccessors, _AngleEnumSyntax, EnumAttribute[MappingId]
):
    """``#gpu.warpgroup<z>``: warpgroup parallelism."""

    name = "gpu.warpgroup"
    cpp_enum_name = "::mlir::gpu::MappingId"


@irdl_attr_definition
class GPUWarpMappingAttr(
    _MappingIdAccessors, _AngleEnumSyntax, EnumAttribute[MappingId]
):
    """``#gpu.warp<y>``: warp parallelism."""

    name = "gpu.warp"
    cpp_enum_name = "::mlir::gpu::MappingId"


@irdl_attr_definition
class GPUThreadMappingAttr(
    _MappingIdAccessors, _AngleEnumSyntax, EnumAttribute[MappingId]
):
    """``#gpu.thread<linear_dim_0>``: thread parallelism."""

    name = "gpu.thread"
    cpp_enum_name = "::mlir::gpu::MappingId"


@irdl_attr_definition
class GPULaneMappingAttr(
    _MappingIdAccessors, _AngleEnumSyntax, EnumAttribute[MappingId]
):
    """``#gpu.lane<x>``: lane parallelism within a warp."""

    name = "gpu.lane"
    cpp_enum_name = "::mlir::gpu::MappingId"


@irdl_attr_definition
class GPUMemorySpaceMappingAttr(_AngleEnumSyntax, EnumAttribute[AddressSpace]):
    """``#gpu.memory_space<workgroup>``: maps data to a level of the memory
    hierarchy."""

    name = "gpu.memory_space"
    cpp_enum_name = "::mlir::gpu::AddressSpace"

    def __init__(self, value: AddressSpace | str):
        super().__init__(AddressSpace(value))

    @property
    def address_space(self) -> AddressSpace:
        return cast(AddressSpace, self.data)

    @property
    def mapping_id(self) -> int:
        return ADDRESS_SPACE_VALUES[self.address_space]


_U64 = 1 << 64


@irdl_attr_definition
class GPUMappingMaskAttr(Data[int]):
    """``#gpu.mask<5>``: a 64-bit mask of the active linear ids of a mapping.

    Upstream stores a ``uint64_t``; a negative literal wraps (``<-1>`` prints as
    ``<18446744073709551615>``).
    """

    name = "gpu.mask"

    MAX_NUM_PHYSICAL_IDS: ClassVar[int] = 64

    def __init__(self, mask: int):
        super().__init__(mask % _U64 if -(1 << 63) <= mask < _U64 else mask)

    def verify(self) -> None:
        if not isinstance(self.data, int) or not 0 <= self.data < _U64:
            raise VerifyException("the mask must be an unsigned 64-bit integer")

    @property
    def mask(self) -> int:
        return self.data

    def is_active(self, linear_id: int) -> bool:
        """Whether bit ``linear_id`` of the mask is set."""
        return 0 <= linear_id < 64 and bool(self.data >> linear_id & 1)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> int:
        expect_punctuation(parser, "<")
        start = parser.pos
        value = parser.parse_optional_integer(allow_boolean=False)
        if value is None:
            parser.raise_error("expected integer value")
        if not -(1 << 63) <= value < _U64:
            parser.raise_error("integer value too large", start, parser.pos)
        expect_punctuation(parser, ">")
        return value % _U64


# ---------------------------------------------------------------------------------
# Affine maps printed like MLIR's AsmPrinter
# ---------------------------------------------------------------------------------


def format_affine_expr(expr: AffineExpr, strong: bool = False) -> str:
    """An affine expression as MLIR prints it (``d0 * 2 - 1``, ``-d0``,
    ``d0 floordiv 4``), not as xDSL's ``str`` does (``((d0 * 2) + -1)``).

    A port of ``printAffineExprInternal``; ``strong`` is a tightly binding context.
    """
    if isinstance(expr, AffineDimExpr):
        return f"d{expr.position}"
    if isinstance(expr, AffineSymExpr):
        return f"s{expr.position}"
    if isinstance(expr, AffineConstantExpr):
        return str(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    kind, lhs, rhs = expr.kind, expr.lhs, expr.rhs

    def wrap(text: str) -> str:
        return f"({text})" if strong else text

    if kind != AffineBinaryOpKind.Add:
        if (
            kind == AffineBinaryOpKind.Mul
            and isinstance(rhs, AffineConstantExpr)
            and rhs.value == -1
        ):
            return wrap(f"-{format_affine_expr(lhs, True)}")
        spelling = {
            AffineBinaryOpKind.Mul: " * ",
            AffineBinaryOpKind.FloorDiv: " floordiv ",
            AffineBinaryOpKind.CeilDiv: " ceildiv ",
            AffineBinaryOpKind.Mod: " mod ",
        }[kind]
        return wrap(
            f"{format_affine_expr(lhs, True)}{spelling}{format_affine_expr(rhs, True)}"
        )

    # Additions of negated products and negative constants print as subtractions.
    if (
        isinstance(rhs, AffineBinaryOpExpr)
        and rhs.kind == AffineBinaryOpKind.Mul
        and isinstance(rhs.rhs, AffineConstantExpr)
    ):
        factor = rhs.rhs.value
        if factor == -1:
            inner_strong = (
                isinstance(rhs.lhs, AffineBinaryOpExpr)
                and rhs.lhs.kind == AffineBinaryOpKind.Add
            )
            return wrap(
                f"{format_affine_expr(lhs)} - "
                f"{format_affine_expr(rhs.lhs, inner_strong)}"
            )
        if factor < -1:
            return wrap(
                f"{format_affine_expr(lhs)} - {format_affine_expr(rhs.lhs, True)}"
                f" * {-factor}"
            )
    if isinstance(rhs, AffineConstantExpr) and rhs.value < 0:
        return wrap(f"{format_affine_expr(lhs)} - {-rhs.value}")
    return wrap(f"{format_affine_expr(lhs)} + {format_affine_expr(rhs)}")


def format_affine_map(affine_map: AffineMap) -> str:
    """An affine map as MLIR prints it inside a dialect attribute:
    ``(d0, d1)[s0] -> (d0 + s0, d1)``."""
    dims = ", ".join(f"d{i}" for i in range(affine_map.num_dims))
    syms = ", ".join(f"s{i}" for i in range(affine_map.num_symbols))
    results = ", ".join(format_affine_expr(e) for e in affine_map.results)
    space = f"({dims})" + (f"[{syms}]" if affine_map.num_symbols else "")
    return f"{space} -> ({results})"


# ---------------------------------------------------------------------------------
# #gpu.loop_dim_map (ParallelLoopMapperAttr.td)
# ---------------------------------------------------------------------------------


class Processor(StrEnum):
    """``gpu::Processor``: the hardware id a parallel loop dimension maps to."""

    BlockX = "block_x"
    BlockY = "block_y"
    BlockZ = "block_z"
    ThreadX = "thread_x"
    ThreadY = "thread_y"
    ThreadZ = "thread_z"
    Sequential = "sequential"


PROCESSOR_VALUES: dict[Processor, int] = {p: i for i, p in enumerate(Processor)}
"""Upstream's integer values of :class:`Processor` (block_x 0 ... sequential 6)."""


@irdl_attr_definition
class ProcessorAttr(_AngleEnumSyntax, EnumAttribute[Processor]):
    """The ``processor`` parameter of ``#gpu.loop_dim_map``.

    Upstream has no stand-alone processor attribute, so this class is not registered
    in the dialect; it only holds the parameter.
    """

    name = "gpu.processor"
    cpp_enum_name = "::mlir::gpu::Processor"

    def __init__(self, value: Processor | str):
        super().__init__(Processor(value))


@irdl_attr_definition
class LoopDimMapAttr(ParametrizedAttribute):
    """``#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0),
    bound = (d0) -> (d0)>``.

    Upstream ``ParallelLoopDimMappingAttr``: ``processor`` is the hardware id,
    ``map`` pre-processes it, ``bound`` computes its bound from the iteration count.
    The three fields may be written in any order and are printed in this one.
    """

    name = "gpu.loop_dim_map"

    processor: ProcessorAttr
    map: AffineMapAttr
    bound: AffineMapAttr

    def __init__(
        self,
        processor: Processor | str | ProcessorAttr,
        map: AffineMap | AffineMapAttr,
        bound: AffineMap | AffineMapAttr,
    ):
        super().__init__(
            processor
            if isinstance(processor, ProcessorAttr)
            else ProcessorAttr(processor),
            map if isinstance(map, AffineMapAttr) else AffineMapAttr(map),
            bound if isinstance(bound, AffineMapAttr) else AffineMapAttr(bound),
        )

    @property
    def processor_kind(self) -> Processor:
        return cast(Processor, self.processor.data)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<processor = {self.processor.data.value}, "
            f"map = {format_affine_map(self.map.data)}, "
            f"bound = {format_affine_map(self.bound.data)}>"
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        expect_punctuation(parser, "<")
        fields = parse_struct(
            parser,
            {
                "processor": lambda: ProcessorAttr(
                    parse_upstream_enum(parser, Processor, ProcessorAttr.cpp_enum_name)
                ),
                "map": lambda: AffineMapAttr(parser.parse_affine_map()),
                "bound": lambda: AffineMapAttr(parser.parse_affine_map()),
            },
            all_required=True,
        )
        expect_punctuation(parser, ">")
        return [fields["processor"], fields["map"], fields["bound"]]


ParallelLoopDimMappingAttr = LoopDimMapAttr
"""Upstream's name of :class:`LoopDimMapAttr`."""


# ---------------------------------------------------------------------------------
# Discardable attributes verified by the gpu dialect
# ---------------------------------------------------------------------------------

CONTAINER_MODULE_ATTR_NAME = "gpu.container_module"
"""Unit attribute on ``builtin.module``: the module holds ``gpu.module``s and
``gpu.launch_func``s."""

KERNEL_ATTR_NAME = "gpu.kernel"
"""Unit attribute on a function: it is a kernel (an entry point)."""

KNOWN_BLOCK_SIZE_ATTR_NAME = "gpu.known_block_size"
KNOWN_GRID_SIZE_ATTR_NAME = "gpu.known_grid_size"
KNOWN_CLUSTER_SIZE_ATTR_NAME = "gpu.known_cluster_size"

KNOWN_LAUNCH_SIZE_ATTR_NAMES = (
    KNOWN_BLOCK_SIZE_ATTR_NAME,
    KNOWN_GRID_SIZE_ATTR_NAME,
    KNOWN_CLUSTER_SIZE_ATTR_NAME,
)
"""Discardable ``array<i32: x, y, z>`` attributes: a launch size known statically."""


def _is_i32(t: Attribute) -> bool:
    return (
        isinstance(t, IntegerType)
        and t.width.data == 32
        and t.signedness.data == Signedness.SIGNLESS
    )


def verify_discardable_gpu_attr(op: Operation, name: str, attr: Attribute) -> None:
    """Upstream ``GPUDialect::verifyOperationAttribute`` for the attribute-level rules.

    Raises ``VerifyException`` with upstream's message (without the ``'<op>' op``
    prefix, which xDSL's op verifier adds in its own words):

    * ``gpu.known_block_size``/``gpu.known_grid_size``/``gpu.known_cluster_size`` must
      be an ``array<i32: ...>`` of exactly 3 elements;
    * a unit ``gpu.container_module`` may only sit on ``builtin.module``.

    ``gpu.kernel`` and other ``gpu.*`` names are not checked, as upstream. The checks
    that a container module's ``gpu.launch_func`` ops refer to kernels belong to
    ``gpu.launch_func``'s verifier.
    """
    if name in KNOWN_LAUNCH_SIZE_ATTR_NAMES:
        if not isinstance(attr, DenseArrayBase) or not _is_i32(attr.elt_type):
            raise VerifyException(f"{name} must be a dense i32 array")
        if len(attr) != 3:
            raise VerifyException(f"{name} must contain exactly 3 elements")
        return
    if name == CONTAINER_MODULE_ATTR_NAME and isinstance(attr, UnitAttr):
        if not isinstance(op, ModuleOp):
            raise VerifyException(
                f"expected '{CONTAINER_MODULE_ATTR_NAME}' attribute to be attached to "
                f"'{ModuleOp.name}'"
            )


def verify_discardable_gpu_attrs(root: Operation) -> None:
    """Check :func:`verify_discardable_gpu_attr` on ``root`` and every op inside it.

    The exception names the offending op (``'func.func' op gpu.known_block_size must
    contain exactly 3 elements``), like upstream's diagnostic.
    """
    for op in root.walk():
        for name, attr in op.attributes.items():
            if not name.startswith("gpu."):
                continue
            try:
                verify_discardable_gpu_attr(op, name, attr)
            except VerifyException as e:
                prefix = (
                    "" if name == CONTAINER_MODULE_ATTR_NAME else f"'{op.name}' op "
                )
                raise VerifyException(f"{prefix}{e}") from e


OPERATIONS = ()
ATTRIBUTES = (
    AddressSpaceAttr,
    LoopDimMapAttr,
    GPUBlockMappingAttr,
    GPUWarpgroupMappingAttr,
    GPUWarpMappingAttr,
    GPUThreadMappingAttr,
    GPULaneMappingAttr,
    GPUMemorySpaceMappingAttr,
    GPUMappingMaskAttr,
)
