"""The types of the nvgpu dialect and the directive that reads them inside op syntax.

Printed forms (MLIR 22)::

    !nvgpu.device.async.token
    !nvgpu.mbarrier.token
    !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b,
                                l2promo = none, oob = zero, interleave = none>
    !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
    !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>

The parameterized types use upstream's ``struct(params)`` syntax: ``name = value``
pairs in any order, a defaulted parameter (``num_barriers = 1``) left out. Inside an op's
custom syntax upstream prints them stripped (``<memorySpace = 3 : i64>``) and reads both
forms; so do the ops here, through the ``custom<...>(type($x))`` directives at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from xdsl.dialects.builtin import IntAttr, MemRefType, StringAttr, VectorType
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    param_def,
)
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

from xdsl_gpu.gpu_dialect.nvgpu.attributes import (
    TensorMapInterleaveKind,
    TensorMapL2PromoKind,
    TensorMapOOBKind,
    TensorMapSwizzleKind,
)

SHARED_MEMORY_ADDRESS_SPACE = 3
"""NVVM's shared memory (``kSharedMemoryAddressSpace``)."""


def is_shared_memory_space(memory_space: Attribute) -> bool:
    """Upstream's ``NVGPUDialect::isSharedMemoryAddressSpace``: the integer 3 or
    ``#gpu.address_space<workgroup>``."""
    value = getattr(memory_space, "value", None)
    if isinstance(value, IntAttr):
        return value.data == SHARED_MEMORY_ADDRESS_SPACE
    if memory_space.name == "gpu.address_space":
        return str(getattr(memory_space, "data", "")) == "workgroup"
    return False


def _parse_struct(
    parser: AttrParser,
    fields: dict[str, Callable[[], Attribute]],
    defaults: dict[str, Attribute],
) -> dict[str, Attribute]:
    """``<name = value, ...>`` in any order; every field not in ``defaults`` is
    required."""
    values: dict[str, Attribute] = {}

    def parse_field() -> None:
        start = parser.pos
        key = parser.parse_identifier()
        if key not in fields:
            parser.raise_error(f"unknown parameter '{key}'", start, parser.pos)
        if key in values:
            parser.raise_error(f"duplicate parameter '{key}'", start, parser.pos)
        parser.parse_punctuation("=")
        values[key] = fields[key]()

    parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_field)
    for key in fields:
        if key not in values:
            if key not in defaults:
                parser.raise_error(f"struct is missing required parameter: {key}")
            values[key] = defaults[key]
    return values


def _keyword(parser: AttrParser, enum: type[StrEnum]) -> Callable[[], Attribute]:
    return lambda: StringAttr(parser.parse_str_enum(enum).value)


@irdl_attr_definition
class DeviceAsyncTokenType(ParametrizedAttribute, TypeAttribute):
    """``!nvgpu.device.async.token``: links ``device_async_copy`` to the ops that
    group and wait for copies."""

    name = "nvgpu.device.async.token"


@irdl_attr_definition
class MBarrierTokenType(ParametrizedAttribute, TypeAttribute):
    """``!nvgpu.mbarrier.token``: the phase state an ``mbarrier.arrive`` returns."""

    name = "nvgpu.mbarrier.token"


@irdl_attr_definition
class MBarrierGroupType(ParametrizedAttribute, TypeAttribute):
    """``!nvgpu.mbarrier.group<memorySpace = ..., num_barriers = N>``: ``N`` (default
    1) 64-bit mbarrier objects in ``memorySpace``."""

    name = "nvgpu.mbarrier.group"

    memory_space: Attribute
    num_barriers: IntAttr = param_def(converter=IntAttr.get)

    def __init__(self, memory_space: Attribute, num_barriers: int = 1):
        super().__init__(memory_space, IntAttr(num_barriers))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, IntAttr]:
        values = _parse_struct(
            parser,
            {
                "memorySpace": parser.parse_attribute,
                "num_barriers": lambda: IntAttr(parser.parse_integer(False)),
            },
            {"num_barriers": IntAttr(1)},
        )
        num = values["num_barriers"]
        assert isinstance(num, IntAttr)
        return (values["memorySpace"], num)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string("memorySpace = ")
            printer.print_attribute(self.memory_space)
            if self.num_barriers.data != 1:
                printer.print_string(f", num_barriers = {self.num_barriers.data}")


@irdl_attr_definition
class TensorMapDescriptorType(ParametrizedAttribute, TypeAttribute):
    """``!nvgpu.tensormap.descriptor<tensor = memref<...>, swizzle = ..., l2promo =
    ..., oob = ..., interleave = ...>``: a TMA descriptor for tiles of ``tensor``."""

    name = "nvgpu.tensormap.descriptor"

    tensor: MemRefType
    swizzle_name: StringAttr
    l2promo_name: StringAttr
    oob_name: StringAttr
    interleave_name: StringAttr

    _ENUMS: ClassVar[tuple[tuple[str, type[StrEnum]], ...]] = (
        ("swizzle", TensorMapSwizzleKind),
        ("l2promo", TensorMapL2PromoKind),
        ("oob", TensorMapOOBKind),
        ("interleave", TensorMapInterleaveKind),
    )

    def __init__(
        self,
        tensor: MemRefType,
        swizzle: TensorMapSwizzleKind | str = TensorMapSwizzleKind.SWIZZLE_NONE,
        l2promo: TensorMapL2PromoKind | str = TensorMapL2PromoKind.L2PROMO_NONE,
        oob: TensorMapOOBKind | str = TensorMapOOBKind.OOB_ZERO,
        interleave: TensorMapInterleaveKind
        | str = TensorMapInterleaveKind.INTERLEAVE_NONE,
    ):
        super().__init__(
            tensor,
            StringAttr(TensorMapSwizzleKind(swizzle).value),
            StringAttr(TensorMapL2PromoKind(l2promo).value),
            StringAttr(TensorMapOOBKind(oob).value),
            StringAttr(TensorMapInterleaveKind(interleave).value),
        )

    @property
    def swizzle(self) -> TensorMapSwizzleKind:
        return TensorMapSwizzleKind(self.swizzle_name.data)

    @property
    def l2promo(self) -> TensorMapL2PromoKind:
        return TensorMapL2PromoKind(self.l2promo_name.data)

    @property
    def oob(self) -> TensorMapOOBKind:
        return TensorMapOOBKind(self.oob_name.data)

    @property
    def interleave(self) -> TensorMapInterleaveKind:
        return TensorMapInterleaveKind(self.interleave_name.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        fields: dict[str, Callable[[], Attribute]] = {"tensor": parser.parse_type}
        fields.update({key: _keyword(parser, enum) for key, enum in cls._ENUMS})
        values = _parse_struct(parser, fields, {})
        return [values[key] for key in fields]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string("tensor = ")
            printer.print_attribute(self.tensor)
            for key, _ in self._ENUMS:
                printer.print_string(f", {key} = {getattr(self, key).value}")

    def verify(self) -> None:
        for (key, enum), value in zip(self._ENUMS, self.parameters[1:], strict=True):
            assert isinstance(value, StringAttr)
            if value.data not in {m.value for m in enum}:
                raise VerifyException(f"invalid {key} kind '{value.data}'")


@irdl_attr_definition
class WarpgroupMatrixDescriptorType(ParametrizedAttribute, TypeAttribute):
    """``!nvgpu.warpgroup.descriptor<tensor = memref<...>>``: the 64-bit wgmma
    descriptor of a matrix in shared memory."""

    name = "nvgpu.warpgroup.descriptor"

    tensor: MemRefType

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return [_parse_struct(parser, {"tensor": parser.parse_type}, {})["tensor"]]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string("tensor = ")
            printer.print_attribute(self.tensor)


@irdl_attr_definition
class WarpgroupAccumulatorType(ParametrizedAttribute, TypeAttribute):
    """``!nvgpu.warpgroup.accumulator<fragmented = vector<MxNxT>>``: the result
    matrix of ``warpgroup.mma``, distributed over the warpgroup's threads."""

    name = "nvgpu.warpgroup.accumulator"

    fragmented: VectorType

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return [
            _parse_struct(parser, {"fragmented": parser.parse_type}, {})["fragmented"]
        ]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string("fragmented = ")
            printer.print_attribute(self.fragmented)


class _StrippedType(CustomDirective):
    """``type($x)`` of one nvgpu type, printed without its ``!nvgpu.name`` prefix
    as upstream prints it; both forms are read."""

    TYPE: ClassVar[type[ParametrizedAttribute]]

    ty: TypeDirective  # each subclass declares it again: xDSL reads own annotations

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        if parser._current_token.text != "<":
            self.ty.set(state, [parser.parse_type()])
            return True
        self.ty.set(state, [self.TYPE.new(self.TYPE.parse_parameters(parser))])
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        (t,) = self.ty.get(op)
        assert isinstance(t, ParametrizedAttribute)
        t.print_parameters(printer)


@irdl_custom_directive
class MBarrierGroup(_StrippedType):
    TYPE: ClassVar[type[ParametrizedAttribute]] = MBarrierGroupType
    ty: TypeDirective


@irdl_custom_directive
class TensorMapDescriptor(_StrippedType):
    TYPE: ClassVar[type[ParametrizedAttribute]] = TensorMapDescriptorType
    ty: TypeDirective


@irdl_custom_directive
class WarpgroupDescriptor(_StrippedType):
    TYPE: ClassVar[type[ParametrizedAttribute]] = WarpgroupMatrixDescriptorType
    ty: TypeDirective


@irdl_custom_directive
class WarpgroupAccumulator(_StrippedType):
    TYPE: ClassVar[type[ParametrizedAttribute]] = WarpgroupAccumulatorType
    ty: TypeDirective


TYPES: tuple[type[Attribute], ...] = (
    DeviceAsyncTokenType,
    MBarrierTokenType,
    MBarrierGroupType,
    TensorMapDescriptorType,
    WarpgroupMatrixDescriptorType,
    WarpgroupAccumulatorType,
)

__all__ = [
    "SHARED_MEMORY_ADDRESS_SPACE",
    "TYPES",
    "DeviceAsyncTokenType",
    "MBarrierGroup",
    "MBarrierGroupType",
    "MBarrierTokenType",
    "TensorMapDescriptor",
    "TensorMapDescriptorType",
    "WarpgroupAccumulator",
    "WarpgroupAccumulatorType",
    "WarpgroupDescriptor",
    "WarpgroupMatrixDescriptorType",
    "is_shared_memory_space",
]
