"""Tensor Memory Accelerator ops beyond the copies of :mod:`.tma_ops`:
``nvvm.cp.async.bulk.tensor.prefetch`` (a box of a tensor map into the L2 cache) and
``nvvm.cp.async.bulk.tensor.reduce`` (a shared tile reduced into the box), with the
reduction kind ``#nvvm.tma_redux_kind``.

Printed forms (MLIR 22)::

    nvvm.cp.async.bulk.tensor.prefetch %map, box[%x, %y] l2_cache_hint = %h : !llvm.ptr
    nvvm.cp.async.bulk.tensor.prefetch %map, box[%x, %y, %z] im2col[%o]
        {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr
    nvvm.cp.async.bulk.tensor.reduce %map, %src, box[%x]
        {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, <3>

(the shared pointer type of ``reduce`` is printed stripped, ``<3>``, as upstream
prints it; both forms are read).

LLVM IR as ``mlir-translate-22`` writes it:
``llvm.nvvm.cp.async.bulk.tensor.prefetch.<mode>.<N>d(map, coordinates, offsets, i64
hint, i1 has_hint)`` and ``llvm.nvvm.cp.async.bulk.tensor.reduce.<kind>.<mode>.<N>d(src,
map, coordinates, i64 hint, i1 has_hint)``, the hint 0 when absent; a mode's ``_`` is
a ``.`` there, and gather4 counts as 2 dimensions.

The verifier messages are upstream's; like upstream, the ones about coordinates and
modes carry no ``'op' op`` prefix.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import I16, I32, I64, DenseArrayBase, IntAttr, i16, i32, i64
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.nvvm.attributes import AngleBracketSyntax
from xdsl_gpu.gpu_dialect.nvvm.mbarrier_ops import address_space
from xdsl_gpu.gpu_dialect.nvvm.tma_ops import (
    MAX_TENSOR_RANK,
    TMALoadMode,
    TMALoadModeAttr,
    TMAStoreMode,
    TMAStoreModeAttr,
)

_GATHER4_COORDINATES = 5
_IM2COL_W_OFFSETS = 2


class TMAReduxKind(StrEnum):
    ADD = "add"
    MAX = "max"
    MIN = "min"
    INC = "inc"
    DEC = "dec"
    AND = "and"
    OR = "or"
    XOR = "xor"


@irdl_attr_definition
class TMAReduxKindAttr(AngleBracketSyntax, EnumAttribute[TMAReduxKind]):
    """``#nvvm.tma_redux_kind<add>``: how ``cp.async.bulk.tensor.reduce`` combines
    the shared tile with the tensor."""

    name = "nvvm.tma_redux_kind"


_TILE_LOAD = TMALoadModeAttr(TMALoadMode.TILE)
_TILE_STORE = TMAStoreModeAttr(TMAStoreMode.TILE)


def _check_coordinates(rank: int) -> None:
    if not 1 <= rank <= MAX_TENSOR_RANK:
        raise VerifyException(
            f"expects coordinates between 1 to {MAX_TENSOR_RANK} dimension"
        )


def check_load_mode(rank: int, offsets: int, mode: TMALoadMode) -> None:
    """Upstream's checks of a load-mode TMA op (``prefetch``): 1 to 5 coordinates;
    the im2col modes need 3 or more, with ``rank - 2`` offsets (im2col) or 2
    (im2col_w, im2col_w_128); gather4 needs 5 coordinates; the others no offsets."""
    _check_coordinates(rank)
    if mode == TMALoadMode.TILE_GATHER4 and rank != _GATHER4_COORDINATES:
        raise VerifyException(
            f"Gather4 mode expects {_GATHER4_COORDINATES} coordinates"
        )
    im2col = mode in (
        TMALoadMode.IM2COL,
        TMALoadMode.IM2COL_W,
        TMALoadMode.IM2COL_W_128,
    )
    if im2col and rank < 3:
        raise VerifyException(
            f"to use {mode.value} mode, the tensor has to be at least 3-dimensional"
        )
    expected = 0
    if mode == TMALoadMode.IM2COL:
        expected = rank - 2
    elif im2col:
        expected = _IM2COL_W_OFFSETS
    if offsets != expected:
        raise VerifyException(
            f" im2col offsets expected {expected} (provided {offsets})"
        )


def _check_pointer(op: Operation, index: int, value: SSAValue, space: int) -> None:
    """Upstream's ODS message for a pointer operand outside ``space``."""
    if isinstance(value.type, LLVMPointerType) and address_space(value) == space:
        return
    raise VerifyException(
        f"'{op.name}' op operand #{index} must be LLVM pointer in address space "
        f"{space}, but got '{value.type}'"
    )


def _parse_box(parser: Parser) -> list[UnresolvedOperand]:
    parser.parse_punctuation(",")
    parser.parse_keyword("box")
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )


def _parse_hint(parser: Parser) -> list[UnresolvedOperand]:
    if parser.parse_optional_keyword("l2_cache_hint") is None:
        return []
    parser.parse_punctuation("=")
    return [parser.parse_unresolved_operand()]


def _segments(groups: list[list[SSAValue]]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, [len(g) for g in groups])


def _print_box_and_hint(
    printer: Printer, coordinates: tuple[SSAValue, ...], offsets: tuple[SSAValue, ...]
) -> None:
    printer.print_string(", box[")
    printer.print_list(coordinates, printer.print_operand)
    printer.print_string("]")
    if offsets:
        printer.print_string(" im2col[")
        printer.print_list(offsets, printer.print_operand)
        printer.print_string("]")


def _intrinsic_rank(rank: int, mode: str) -> str:
    return f"{2 if mode == 'tile_gather4' else rank}d"


def _hint_args(emitter: Any, hint: SSAValue | None) -> list[tuple[str, str]]:
    if hint is None:
        return [("i64", "0"), ("i1", "false")]
    return [("i64", emitter.ref(hint)), ("i1", "true")]


@irdl_op_definition
class CpAsyncBulkTensorPrefetchOp(IRDLOperation):
    """``nvvm.cp.async.bulk.tensor.prefetch``: bring the box at ``coordinates`` of
    the tensor map ``tmaDescriptor`` into the L2 cache (``mode``: tile, im2col with
    ``im2colOffsets``, im2col_w, im2col_w_128, tile_gather4)."""

    name = "nvvm.cp.async.bulk.tensor.prefetch"

    tma_descriptor = operand_def(LLVMPointerType)
    coordinates = var_operand_def(I32)
    im2col_offsets = var_operand_def(I16)
    l2_cache_hint = opt_operand_def(I64)

    mode = prop_def(TMALoadModeAttr, default_value=_TILE_LOAD)

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    def __init__(
        self,
        tma_descriptor: SSAValue | Operation,
        coordinates: list[SSAValue],
        im2col_offsets: list[SSAValue] | None = None,
        l2_cache_hint: SSAValue | Operation | None = None,
        mode: TMALoadMode = TMALoadMode.TILE,
    ):
        super().__init__(
            operands=[
                tma_descriptor,
                coordinates,
                im2col_offsets or [],
                [] if l2_cache_hint is None else [l2_cache_hint],
            ],
            properties={"mode": TMALoadModeAttr(mode)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> CpAsyncBulkTensorPrefetchOp:
        tmap = parser.parse_unresolved_operand()
        coordinates = _parse_box(parser)
        offsets: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("im2col") is not None:
            offsets = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_unresolved_operand
            )
        hint = _parse_hint(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        tmap_type = parser.parse_type()
        groups: list[list[SSAValue]] = [
            [parser.resolve_operand(tmap, tmap_type)],
            [parser.resolve_operand(c, i32) for c in coordinates],
            [parser.resolve_operand(o, i16) for o in offsets],
            [parser.resolve_operand(h, i64) for h in hint],
        ]
        properties: dict[str, Attribute] = {"operandSegmentSizes": _segments(groups)}
        if "mode" in attributes:
            properties["mode"] = attributes.pop("mode")
        return cls.create(
            operands=[v for g in groups for v in g],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tma_descriptor)
        _print_box_and_hint(printer, self.coordinates, self.im2col_offsets)
        if self.l2_cache_hint is not None:
            printer.print_string(" l2_cache_hint = ")
            printer.print_operand(self.l2_cache_hint)
        shown: dict[str, Attribute] = {}
        if self.mode != _TILE_LOAD:
            shown["mode"] = self.mode
        printer.print_op_attributes({**shown, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.tma_descriptor.type)

    def verify_(self) -> None:
        _check_pointer(self, 0, self.tma_descriptor, 0)
        mode = TMALoadMode(self.mode.data)
        check_load_mode(len(self.coordinates), len(self.im2col_offsets), mode)

    def llvm_ir(self, emitter: Any) -> None:
        mode = self.mode.data.value
        rank = _intrinsic_rank(len(self.coordinates), mode)
        args = [
            ("ptr", emitter.ref(self.tma_descriptor)),
            *(("i32", emitter.ref(c)) for c in self.coordinates),
            *(("i16", emitter.ref(o)) for o in self.im2col_offsets),
            *_hint_args(emitter, self.l2_cache_hint),
        ]
        name = mode.replace("_", ".")
        emitter.call_intrinsic(
            f"llvm.nvvm.cp.async.bulk.tensor.prefetch.{name}.{rank}", None, args
        )


@irdl_op_definition
class CpAsyncBulkTensorReduceOp(IRDLOperation):
    """``nvvm.cp.async.bulk.tensor.reduce``: combine the shared tile ``srcMem`` into
    the box at ``coordinates`` of the tensor map with ``redKind`` (a bulk-group
    operation, as the TMA store)."""

    name = "nvvm.cp.async.bulk.tensor.reduce"

    tma_descriptor = operand_def(LLVMPointerType)
    src_mem = operand_def(LLVMPointerType)
    coordinates = var_operand_def(I32)
    l2_cache_hint = opt_operand_def(I64)

    red_kind = prop_def(TMAReduxKindAttr, prop_name="redKind")
    mode = prop_def(TMAStoreModeAttr, default_value=_TILE_STORE)

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    def __init__(
        self,
        tma_descriptor: SSAValue | Operation,
        src_mem: SSAValue | Operation,
        coordinates: list[SSAValue],
        red_kind: TMAReduxKind,
        l2_cache_hint: SSAValue | Operation | None = None,
        mode: TMAStoreMode = TMAStoreMode.TILE,
    ):
        super().__init__(
            operands=[
                tma_descriptor,
                src_mem,
                coordinates,
                [] if l2_cache_hint is None else [l2_cache_hint],
            ],
            properties={
                "redKind": TMAReduxKindAttr(red_kind),
                "mode": TMAStoreModeAttr(mode),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> CpAsyncBulkTensorReduceOp:
        tmap = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        src = parser.parse_unresolved_operand()
        coordinates = _parse_box(parser)
        hint = _parse_hint(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        tmap_type = parser.parse_type()
        parser.parse_punctuation(",")
        if parser.parse_optional_punctuation("<") is not None:
            space = parser.parse_integer(allow_negative=False)
            parser.parse_punctuation(">")
            src_type: Attribute = LLVMPointerType(IntAttr(space))
        else:
            src_type = parser.parse_type()
        groups: list[list[SSAValue]] = [
            [parser.resolve_operand(tmap, tmap_type)],
            [parser.resolve_operand(src, src_type)],
            [parser.resolve_operand(c, i32) for c in coordinates],
            [parser.resolve_operand(h, i64) for h in hint],
        ]
        properties: dict[str, Attribute] = {"operandSegmentSizes": _segments(groups)}
        for key in ("mode", "redKind"):
            if key in attributes:
                properties[key] = attributes.pop(key)
        return cls.create(
            operands=[v for g in groups for v in g],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.tma_descriptor, self.src_mem), printer.print_operand)
        _print_box_and_hint(printer, self.coordinates, ())
        if self.l2_cache_hint is not None:
            printer.print_string(" l2_cache_hint = ")
            printer.print_operand(self.l2_cache_hint)
        shown: dict[str, Attribute] = {}
        if self.mode != _TILE_STORE:
            shown["mode"] = self.mode
        shown["redKind"] = self.red_kind
        printer.print_op_attributes({**shown, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.tma_descriptor.type)
        printer.print_string(", ")
        src_type = self.src_mem.type
        if isinstance(src_type, LLVMPointerType):
            src_type.print_parameters(printer)
        else:
            printer.print_attribute(src_type)

    def verify_(self) -> None:
        _check_pointer(self, 0, self.tma_descriptor, 0)
        _check_pointer(self, 1, self.src_mem, 3)
        rank = len(self.coordinates)
        _check_coordinates(rank)
        mode = self.mode.data
        if mode == TMAStoreMode.IM2COL and rank < 3:
            raise VerifyException(
                "to use im2col mode, the tensor has to be at least 3-dimensional"
            )
        if mode == TMAStoreMode.TILE_SCATTER4:
            raise VerifyException(
                "Scatter mode unsupported for CpAsyncBulkTensorReduceOp"
            )

    def llvm_ir(self, emitter: Any) -> None:
        rank = len(self.coordinates)
        args = [
            ("ptr addrspace(3)", emitter.ref(self.src_mem)),
            ("ptr", emitter.ref(self.tma_descriptor)),
            *(("i32", emitter.ref(c)) for c in self.coordinates),
            *_hint_args(emitter, self.l2_cache_hint),
        ]
        kind, mode = self.red_kind.data.value, self.mode.data.value
        emitter.call_intrinsic(
            f"llvm.nvvm.cp.async.bulk.tensor.reduce.{kind}.{mode}.{rank}d", None, args
        )


OPERATIONS: tuple[type[Operation], ...] = (
    CpAsyncBulkTensorPrefetchOp,
    CpAsyncBulkTensorReduceOp,
)
ATTRIBUTES: tuple[type[Attribute], ...] = (TMAReduxKindAttr,)

__all__ = [
    "CpAsyncBulkTensorPrefetchOp",
    "CpAsyncBulkTensorReduceOp",
    "TMAReduxKind",
    "TMAReduxKindAttr",
    "check_load_mode",
]
