"""Tensor Memory Accelerator (sm_90): ``nvvm.cp.async.bulk.tensor.shared.cluster.global``
(a tile of a tensor map into shared memory, completing on an mbarrier),
``nvvm.cp.async.bulk.tensor.global.shared.cta`` (a shared tile out to the tensor),
``nvvm.cp.async.bulk.commit.group``/``wait_group`` (bulk groups of stores) and
``nvvm.prefetch tensormap`` (the descriptor's cache line).

Printed forms (MLIR 22)::

    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %map, %bar, box[%x, %y]
        multicast_mask = %m l2_cache_hint = %h predicate = %p : !llvm.ptr<7>, !llvm.ptr
    nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%x, %y],
        predicate = %p : !llvm.ptr, <3>
    nvvm.cp.async.bulk.commit.group
    nvvm.cp.async.bulk.wait_group 0 {read}
    nvvm.prefetch tensormap, %map : !llvm.ptr

(the store's shared pointer type is printed stripped, ``<3>``, as upstream prints a
type constraint with one C++ type; both forms are read).

LLVM IR as ``mlir-translate-22`` writes it: the copies call
``llvm.nvvm.cp.async.bulk.tensor.{g2s,s2g}.tile.<N>d`` with the multicast mask and
cache hint as arguments (0 when absent) followed by the immarg flags saying whether
they are used; with a predicate they are inline PTX (:mod:`.ptx_builder`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    I1,
    I16,
    I32,
    I64,
    BoolAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    UnitAttr,
    i1,
    i16,
    i32,
    i64,
)
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
    opt_prop_def,
    prop_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.nvvm.attributes import AngleBracketSyntax
from xdsl_gpu.gpu_dialect.nvvm.mbarrier_ops import address_space
from xdsl_gpu.gpu_dialect.nvvm.ptx_builder import emit_inline_ptx, value_argument
from xdsl_gpu.gpu_dialect.nvvm.sm import RequiresSM

MAX_TENSOR_RANK = 5
"""Tensor maps have 1 to 5 dimensions."""


class TMALoadMode(StrEnum):
    TILE = "tile"
    IM2COL = "im2col"
    IM2COL_W = "im2col_w"
    IM2COL_W_128 = "im2col_w_128"
    TILE_GATHER4 = "tile_gather4"


class TMAStoreMode(StrEnum):
    TILE = "tile"
    IM2COL = "im2col"
    TILE_SCATTER4 = "tile_scatter4"


@irdl_attr_definition
class TMALoadModeAttr(AngleBracketSyntax, EnumAttribute[TMALoadMode]):
    """``#nvvm.tma_load_mode<tile>``: how a TMA load reads the tensor."""

    name = "nvvm.tma_load_mode"


@irdl_attr_definition
class TMAStoreModeAttr(AngleBracketSyntax, EnumAttribute[TMAStoreMode]):
    """``#nvvm.tma_store_mode<tile>``: how a TMA store writes the tensor."""

    name = "nvvm.tma_store_mode"


_FALSE = BoolAttr.from_bool(False)
_SHARED_POINTER = LLVMPointerType(IntAttr(3))
_TILE_LOAD = TMALoadModeAttr(TMALoadMode.TILE)
_TILE_STORE = TMAStoreModeAttr(TMAStoreMode.TILE)


def _optional(value: SSAValue | Operation | None) -> list[SSAValue | Operation]:
    return [] if value is None else [value]


def _parse_pointer_type(parser: Parser) -> Attribute:
    """``!llvm.ptr<3>`` or the stripped ``<3>``."""
    if parser.parse_optional_punctuation("<") is None:
        return parser.parse_type()
    space = parser.parse_integer(allow_negative=False)
    parser.parse_punctuation(">")
    return LLVMPointerType(IntAttr(space))


def _print_box(printer: Printer, coordinates: tuple[SSAValue, ...]) -> None:
    printer.print_string(", box[")
    printer.print_list(coordinates, printer.print_operand)
    printer.print_string("]")


def _check_rank(op: Operation, coordinates: tuple[SSAValue, ...]) -> None:
    if not 1 <= len(coordinates) <= MAX_TENSOR_RANK:
        raise VerifyException(
            f"expects coordinates between 1 to {MAX_TENSOR_RANK} dimension"
        )


def _check_mode(op: Operation, mode: EnumAttribute[Any]) -> None:
    """Tile and im2col copies have an LLVM IR translation here; the other modes
    (im2col_w, gather4, scatter4) do not."""
    if mode.data.value not in ("tile", "im2col"):
        raise DiagnosticException(
            f"'{op.name}' in {mode.data.value} mode has no LLVM IR translation here "
            "(only tile and im2col modes)"
        )


def _check_im2col(rank: int, offsets: int, im2col: bool, check_offsets: bool) -> None:
    """Upstream's checks: im2col needs 3 to 5 dimensions and, for loads, one
    offset per dimension beyond two."""
    if im2col and rank < 3:
        raise VerifyException(
            "to use im2col mode, the tensor has to be at least 3-dimensional"
        )
    if check_offsets:
        expected = rank - 2 if im2col else 0
        if offsets != expected:
            raise VerifyException(
                f" im2col offsets expected {expected} (provided {offsets})"
            )


@irdl_op_definition
class CpAsyncBulkTensorGlobalToSharedClusterOp(IRDLOperation):
    """``nvvm.cp.async.bulk.tensor.shared.cluster.global``: copy the box at
    ``coordinates`` of the tensor map ``tmaDescriptor`` into ``dstMem`` (shared
    memory of this CTA, or of the CTAs of ``multicastMask``); the bytes complete
    a transaction on ``mbar``."""

    name = "nvvm.cp.async.bulk.tensor.shared.cluster.global"
    traits = traits_def(RequiresSM(90))

    dst_mem = operand_def(LLVMPointerType)
    tma_descriptor = operand_def(LLVMPointerType)
    coordinates = var_operand_def(I32)
    mbar = operand_def(LLVMPointerType)
    im2col_offsets = var_operand_def(I16)
    multicast_mask = opt_operand_def(I16)
    l2_cache_hint = opt_operand_def(I64)
    predicate = opt_operand_def(I1)

    mode = prop_def(TMALoadModeAttr, default_value=_TILE_LOAD)
    is_cta_only = prop_def(BoolAttr, default_value=_FALSE, prop_name="isCTAOnly")

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    _OPTIONALS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("multicast_mask", "multicast_mask"),
        ("l2_cache_hint", "l2_cache_hint"),
        ("predicate", "predicate"),
    )

    def __init__(
        self,
        dst_mem: SSAValue | Operation,
        tma_descriptor: SSAValue | Operation,
        coordinates: list[SSAValue],
        mbar: SSAValue | Operation,
        multicast_mask: SSAValue | Operation | None = None,
        l2_cache_hint: SSAValue | Operation | None = None,
        predicate: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[
                dst_mem,
                tma_descriptor,
                coordinates,
                mbar,
                [],
                _optional(multicast_mask),
                _optional(l2_cache_hint),
                _optional(predicate),
            ]
        )

    @classmethod
    def parse(cls, parser: Parser) -> CpAsyncBulkTensorGlobalToSharedClusterOp:
        dst = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        tmap = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        mbar = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("box")
        coordinates = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        offsets: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("im2col") is not None:
            offsets = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_unresolved_operand
            )
        optionals: dict[str, UnresolvedOperand] = {}
        for keyword, key in cls._OPTIONALS:
            if parser.parse_optional_keyword(keyword) is not None:
                parser.parse_punctuation("=")
                optionals[key] = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        dst_type = parser.parse_type()
        parser.parse_punctuation(",")
        tmap_type = parser.parse_type()
        types = {"multicast_mask": i16, "l2_cache_hint": i64, "predicate": i1}
        groups: list[list[SSAValue]] = [
            [parser.resolve_operand(dst, dst_type)],
            [parser.resolve_operand(tmap, tmap_type)],
            [parser.resolve_operand(c, i32) for c in coordinates],
            [parser.resolve_operand(mbar, _SHARED_POINTER)],
            [parser.resolve_operand(o, types["multicast_mask"]) for o in offsets],
            *(
                [parser.resolve_operand(optionals[key], types[key])]
                if key in optionals
                else []
                for _, key in cls._OPTIONALS
            ),
        ]
        return cls._create(groups, attributes)

    @classmethod
    def _create(
        cls, groups: list[list[SSAValue]], attributes: dict[str, Attribute]
    ) -> CpAsyncBulkTensorGlobalToSharedClusterOp:
        properties: dict[str, Attribute] = {
            "operandSegmentSizes": DenseArrayBase.from_list(
                i32, [len(g) for g in groups]
            )
        }
        for key in ("mode", "isCTAOnly"):
            if key in attributes:
                properties[key] = attributes.pop(key)
        return cls.create(
            operands=[v for g in groups for v in g],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(
            (self.dst_mem, self.tma_descriptor, self.mbar), printer.print_operand
        )
        _print_box(printer, self.coordinates)
        if self.im2col_offsets:
            printer.print_string(" im2col[")
            printer.print_list(self.im2col_offsets, printer.print_operand)
            printer.print_string("]")
        for keyword, field in self._OPTIONALS:
            value = getattr(self, field)
            if value is not None:
                printer.print_string(f" {keyword} = ")
                printer.print_operand(value)
        shown: dict[str, Attribute] = {}
        if self.mode != _TILE_LOAD:
            shown["mode"] = self.mode
        if self.is_cta_only != _FALSE:
            shown["isCTAOnly"] = self.is_cta_only
        printer.print_op_attributes({**shown, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.dst_mem.type)
        printer.print_string(", ")
        printer.print_attribute(self.tma_descriptor.type)

    def verify_(self) -> None:
        _check_rank(self, self.coordinates)
        _check_im2col(
            len(self.coordinates),
            len(self.im2col_offsets),
            self.mode.data == TMALoadMode.IM2COL,
            check_offsets=True,
        )
        space = address_space(self.dst_mem)
        if self.is_cta_only.value.data:
            if space != 3:
                raise VerifyException(
                    "Shared::cta destination requires address-space 3."
                )
        elif space != 7:
            raise VerifyException(
                "Shared::cluster destination requires address-space 7."
            )
        if self.predicate is not None and self.is_cta_only.value.data:
            raise VerifyException(
                "Predicate is supported only for shared::cluster mode."
            )

    def llvm_ir(self, emitter: Any) -> None:
        _check_mode(self, self.mode)
        rank = len(self.coordinates)
        if self.predicate is not None:
            self._inline_ptx(emitter, rank)
            return
        mode = self.mode.data.value
        coordinates = [("i32", emitter.ref(c)) for c in self.coordinates]
        coordinates += [("i16", emitter.ref(o)) for o in self.im2col_offsets]
        dst = tuple(emitter.typed(self.dst_mem).rsplit(" ", 1))
        mbar = ("ptr addrspace(3)", emitter.ref(self.mbar))
        tmap = ("ptr", emitter.ref(self.tma_descriptor))
        hint = self.l2_cache_hint
        hint_args = [
            ("i64", "0" if hint is None else emitter.ref(hint)),
        ]
        if self.is_cta_only.value.data:
            name = f"llvm.nvvm.cp.async.bulk.tensor.g2s.cta.{mode}.{rank}d"
            args = [dst, mbar, tmap, *coordinates, *hint_args]
            args.append(("i1", "true" if hint is not None else "false"))
        else:
            mask = self.multicast_mask
            name = f"llvm.nvvm.cp.async.bulk.tensor.g2s.{mode}.{rank}d"
            args = [
                dst,
                mbar,
                tmap,
                *coordinates,
                ("i16", "0" if mask is None else emitter.ref(mask)),
                *hint_args,
                ("i1", "true" if mask is not None else "false"),
                ("i1", "true" if hint is not None else "false"),
                ("i32", "0"),
            ]
        emitter.call_intrinsic(name, None, [(str(t), str(v)) for t, v in args])

    def _inline_ptx(self, emitter: Any, rank: int) -> None:
        ptx, values = self.inline_ptx()
        args = [value_argument(emitter, v) for v in values]
        emit_inline_ptx(emitter, ptx, args, self.predicate)

    def inline_ptx(self) -> tuple[str, list[SSAValue]]:
        """Upstream's PTX, ``[dst], [map, {c0,c1} ], [mbar][, mask][, hint]``, and
        its operands (the predicate apart); also used by ``convert-nvvm-to-llvm``."""
        rank = len(self.coordinates)
        index = 2 + rank
        coords = ",".join(f"%{2 + i}" for i in range(rank))
        suffix = ""
        extra: list[SSAValue] = []
        tail = f"[%{index}]"
        if self.im2col_offsets:
            suffix += ".im2col"
            first = index + 1
            names = ",".join(f"%{first + i}" for i in range(len(self.im2col_offsets)))
            tail += f",{{{names}}}"
            index += len(self.im2col_offsets)
            extra += list(self.im2col_offsets)
        if self.multicast_mask is not None:
            suffix += ".multicast::cluster"
            extra.append(self.multicast_mask)
        if self.l2_cache_hint is not None:
            suffix += ".L2::cache_hint"
            extra.append(self.l2_cache_hint)
        optional = len(extra) - len(self.im2col_offsets)
        tail += "".join(f", %{index + 1 + i}" for i in range(optional))
        ptx = (
            f"cp.async.bulk.tensor.{rank}d.shared::cluster.global.mbarrier::"
            f"complete_tx::bytes{suffix} [%0], [%1, {{{coords}}} ], {tail};"
        )
        values = [
            self.dst_mem,
            self.tma_descriptor,
            *self.coordinates,
            self.mbar,
            *extra,
        ]
        return ptx, values


@irdl_op_definition
class CpAsyncBulkTensorSharedCTAToGlobalOp(IRDLOperation):
    """``nvvm.cp.async.bulk.tensor.global.shared.cta``: copy the shared tile
    ``srcMem`` to the box at ``coordinates`` of the tensor map (a bulk-group
    operation: ``cp.async.bulk.commit.group``/``wait_group`` wait for it)."""

    name = "nvvm.cp.async.bulk.tensor.global.shared.cta"

    tma_descriptor = operand_def(LLVMPointerType)
    src_mem = operand_def(_SHARED_POINTER)
    coordinates = var_operand_def(I32)
    l2_cache_hint = opt_operand_def(I64)
    predicate = opt_operand_def(I1)

    mode = prop_def(TMAStoreModeAttr, default_value=_TILE_STORE)

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    def __init__(
        self,
        tma_descriptor: SSAValue | Operation,
        src_mem: SSAValue | Operation,
        coordinates: list[SSAValue],
        l2_cache_hint: SSAValue | Operation | None = None,
        predicate: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[
                tma_descriptor,
                src_mem,
                coordinates,
                _optional(l2_cache_hint),
                _optional(predicate),
            ]
        )

    @classmethod
    def parse(cls, parser: Parser) -> CpAsyncBulkTensorSharedCTAToGlobalOp:
        tmap = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("box")
        coordinates = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        hint: UnresolvedOperand | None = None
        predicate: UnresolvedOperand | None = None
        if parser.parse_optional_keyword("l2_cache_hint") is not None:
            parser.parse_punctuation("=")
            hint = parser.parse_unresolved_operand()
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("predicate")
            parser.parse_punctuation("=")
            predicate = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        tmap_type = parser.parse_type()
        parser.parse_punctuation(",")
        src_type = _parse_pointer_type(parser)
        groups: list[list[SSAValue]] = [
            [parser.resolve_operand(tmap, tmap_type)],
            [parser.resolve_operand(src, src_type)],
            [parser.resolve_operand(c, i32) for c in coordinates],
            [] if hint is None else [parser.resolve_operand(hint, i64)],
            [] if predicate is None else [parser.resolve_operand(predicate, i1)],
        ]
        properties: dict[str, Attribute] = {
            "operandSegmentSizes": DenseArrayBase.from_list(
                i32, [len(g) for g in groups]
            )
        }
        if "mode" in attributes:
            properties["mode"] = attributes.pop("mode")
        return cls.create(
            operands=[v for g in groups for v in g],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.tma_descriptor, self.src_mem), printer.print_operand)
        _print_box(printer, self.coordinates)
        if self.l2_cache_hint is not None:
            printer.print_string(" l2_cache_hint = ")
            printer.print_operand(self.l2_cache_hint)
        if self.predicate is not None:
            printer.print_string(", predicate = ")
            printer.print_operand(self.predicate)
        shown: dict[str, Attribute] = {}
        if self.mode != _TILE_STORE:
            shown["mode"] = self.mode
        printer.print_op_attributes({**shown, **self.attributes})
        printer.print_string(" : ")
        printer.print_attribute(self.tma_descriptor.type)
        printer.print_string(", ")
        src_type = self.src_mem.type
        assert isinstance(src_type, LLVMPointerType)
        src_type.print_parameters(printer)

    def verify_(self) -> None:
        _check_rank(self, self.coordinates)
        _check_im2col(
            len(self.coordinates),
            0,
            self.mode.data == TMAStoreMode.IM2COL,
            check_offsets=False,
        )
        if self.predicate is not None and self.mode.data != TMAStoreMode.TILE:
            raise VerifyException("Inline-ptx lowering supported only for Tile mode.")
        if self.predicate is not None and self.l2_cache_hint is not None:
            raise VerifyException("Inline-ptx lowering unsupported with L2 cache-hint.")

    def llvm_ir(self, emitter: Any) -> None:
        _check_mode(self, self.mode)
        rank = len(self.coordinates)
        if self.predicate is not None:
            coords = ", ".join(f"%{2 + i}" for i in range(rank))
            ptx = (
                f"cp.async.bulk.tensor.{rank}d.global.shared::cta.bulk_group "
                f"[%0, {{{coords}}} ], [%1];"
            )
            values = [self.tma_descriptor, self.src_mem, *self.coordinates]
            args = [value_argument(emitter, v) for v in values]
            emit_inline_ptx(emitter, ptx, args, self.predicate)
            return
        hint = self.l2_cache_hint
        args = [
            ("ptr addrspace(3)", emitter.ref(self.src_mem)),
            ("ptr", emitter.ref(self.tma_descriptor)),
            *(("i32", emitter.ref(c)) for c in self.coordinates),
            ("i64", "0" if hint is None else emitter.ref(hint)),
            ("i1", "true" if hint is not None else "false"),
        ]
        emitter.call_intrinsic(
            f"llvm.nvvm.cp.async.bulk.tensor.s2g.{self.mode.data.value}.{rank}d",
            None,
            args,
        )


@irdl_op_definition
class CpAsyncBulkCommitGroupOp(IRDLOperation):
    """``nvvm.cp.async.bulk.commit.group``: close the current bulk async-group."""

    name = "nvvm.cp.async.bulk.commit.group"

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()

    def llvm_ir(self, emitter: Any) -> None:
        emitter.call_intrinsic("llvm.nvvm.cp.async.bulk.commit.group", None, [])


@irdl_op_definition
class CpAsyncBulkWaitGroupOp(IRDLOperation):
    """``nvvm.cp.async.bulk.wait_group N``: wait until at most ``N`` bulk
    async-groups are pending (``{read}``: only until their sources were read)."""

    name = "nvvm.cp.async.bulk.wait_group"
    traits = traits_def(RequiresSM(90))

    group = prop_def(IntegerAttr[I32])
    read = opt_prop_def(UnitAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$group attr-dict"

    def __init__(self, group: int, read: bool = False):
        properties: dict[str, Attribute] = {"group": IntegerAttr(group, i32)}
        if read:
            properties["read"] = UnitAttr()
        super().__init__(properties=properties)

    def llvm_ir(self, emitter: Any) -> None:
        read = ".read" if self.read is not None else ""
        emitter.call_intrinsic(
            f"llvm.nvvm.cp.async.bulk.wait.group{read}",
            None,
            [("i32", str(self.group.value.data))],
        )


_PREFETCH_SPACES = (0, 1, 4, 5)


@irdl_op_definition
class PrefetchOp(IRDLOperation):
    """``nvvm.prefetch``: its ``tensormap`` form, which brings a TMA descriptor's
    cache line in (``in_param_space``: the descriptor is a kernel parameter).
    The cache-level forms of MLIR 22's op are not provided here."""

    name = "nvvm.prefetch"

    addr = operand_def(LLVMPointerType)
    predicate = opt_operand_def(I1)
    tensormap = opt_prop_def(UnitAttr)
    in_param_space = opt_prop_def(UnitAttr)

    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        addr: SSAValue | Operation,
        predicate: SSAValue | Operation | None = None,
        in_param_space: bool = False,
    ):
        properties: dict[str, Attribute] = {"tensormap": UnitAttr()}
        if in_param_space:
            properties["in_param_space"] = UnitAttr()
        super().__init__(operands=[addr, _optional(predicate)], properties=properties)

    @classmethod
    def parse(cls, parser: Parser) -> PrefetchOp:
        start = parser.pos
        if parser.parse_optional_keyword("tensormap") is None:
            parser.raise_error(
                "only 'nvvm.prefetch tensormap' is supported here (the cache-level "
                "forms are not)",
                start,
                parser.pos,
            )
        properties: dict[str, Attribute] = {"tensormap": UnitAttr()}
        if parser.parse_optional_keyword("in_param_space") is not None:
            properties["in_param_space"] = UnitAttr()
        parser.parse_punctuation(",")
        addr = parser.parse_unresolved_operand()
        predicate: UnresolvedOperand | None = None
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("predicate")
            parser.parse_punctuation("=")
            predicate = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        addr_type = parser.parse_type()
        operands = [parser.resolve_operand(addr, addr_type)]
        if predicate is not None:
            parser.parse_punctuation(",")
            operands.append(parser.resolve_operand(predicate, parser.parse_type()))
        return cls.create(
            operands=operands, properties=properties, attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" tensormap")
        if self.in_param_space is not None:
            printer.print_string(" in_param_space")
        printer.print_string(", ")
        printer.print_operand(self.addr)
        if self.predicate is not None:
            printer.print_string(", predicate = ")
            printer.print_operand(self.predicate)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([o.type for o in self.operands], printer.print_attribute)

    def verify_(self) -> None:
        if self.tensormap is None:
            raise VerifyException(
                f"'{self.name}' op requires specification of either cache level or "
                "tensormap"
            )
        if address_space(self.addr) not in _PREFETCH_SPACES:
            allowed = " or ".join(
                f"LLVM pointer in address space {s}" for s in (1, 5, 0, 4)
            )
            raise VerifyException(
                f"'{self.name}' op operand #0 must be {allowed}, but got "
                f"'{self.addr.type}'"
            )

    def llvm_ir(self, emitter: Any) -> None:
        if self.predicate is not None:
            args = [value_argument(emitter, self.addr)]
            emit_inline_ptx(emitter, "prefetch.tensormap [%0];", args, self.predicate)
            return
        pointer = emitter.ref(self.addr)
        space = address_space(self.addr)
        if self.in_param_space is not None:
            # The descriptor is a kernel parameter: address it in the param space.
            name = emitter.fresh()
            emitter.emit(f"{name} = addrspacecast ptr {pointer} to ptr addrspace(101)")
            emitter.call_intrinsic(
                "llvm.nvvm.prefetch.tensormap.p101",
                None,
                [("ptr addrspace(101)", name)],
            )
            return
        llvm_type = emitter.typed(self.addr).rsplit(" ", 1)[0]
        emitter.call_intrinsic(
            f"llvm.nvvm.prefetch.tensormap.p{space}", None, [(llvm_type, pointer)]
        )


OPERATIONS: tuple[type[Operation], ...] = (
    CpAsyncBulkTensorGlobalToSharedClusterOp,
    CpAsyncBulkTensorSharedCTAToGlobalOp,
    CpAsyncBulkCommitGroupOp,
    CpAsyncBulkWaitGroupOp,
    PrefetchOp,
)

ATTRIBUTES: tuple[type[Attribute], ...] = (TMALoadModeAttr, TMAStoreModeAttr)

__all__ = [
    "CpAsyncBulkCommitGroupOp",
    "CpAsyncBulkTensorGlobalToSharedClusterOp",
    "CpAsyncBulkTensorSharedCTAToGlobalOp",
    "CpAsyncBulkWaitGroupOp",
    "PrefetchOp",
    "TMALoadMode",
    "TMALoadModeAttr",
    "TMAStoreMode",
    "TMAStoreModeAttr",
]
