"""The ``tcgen05.mma`` family (5th-generation tensor core MMA, sm_100a/sm_110a):
``tcgen05.mma``, ``.sp`` (2:4-sparse A), ``.block_scale``, ``.sp.block_scale`` and the
weight-stationary ``.ws``, ``.ws.sp``.

Printed forms (MLIR 22)::

    nvvm.tcgen05.mma %d, %a, %b, %idesc, %enableInputD [scale = %s] [mask = %m]
        {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}
        : (!llvm.ptr<6>, i64, i64, i32, i1)
    nvvm.tcgen05.mma.sp %d, %a, %b, %idesc, %enableInputD, %spMeta [scale = ] [mask = ]
        {...} : (...)
    nvvm.tcgen05.mma.block_scale %d, %a, %b, %idesc, %enableInputD, %scaleA, %scaleB
        {ctaGroup = ..., kind = #nvvm.block_scale_kind<mxf8f6f4>} : (...)
    nvvm.tcgen05.mma.sp.block_scale %d, %a, %b, %idesc, %e, %spMeta, %scaleA, %scaleB
        {...} : (...)
    nvvm.tcgen05.mma.ws %d, %a, %b, %idesc, %e[, %zeroColMask] {kind = ...} : (...)
    nvvm.tcgen05.mma.ws.sp %d, %a, %b, %idesc, %e, %spMeta[, %zeroColMask] {...} : (...)

D is in Tensor Memory (``!llvm.ptr<6>``); A is in Tensor Memory too or a shared
memory descriptor (``i64``), which picks the ``.tensor`` or ``.shared`` intrinsic; B
is a descriptor. ``collectorOp`` (default ``discard``), ``blockScale`` (``default``)
and ``collectorBBuffer`` (``b0``) are printed only when not the default. The
verifier checks what MLIR 22's does: the ``mask`` (disable output lane) has 4 lanes
for ``cta_1`` and 8 for ``cta_2``; ``aShift`` needs A in Tensor Memory and a
collector op other than ``fill``/``use``; ``mxf4nvf4`` needs a block size, which
``mxf4`` and ``mxf8f6f4`` cannot have as ``block16``. The intrinsic calls are
mlir-translate 22's: the operands, then the kind, CTA group and collector as
``i32`` immediates (see each op's ``llvm_ir``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from xdsl.dialects.builtin import (
    I1,
    I32,
    I64,
    DenseArrayBase,
    IntAttr,
    IntegerType,
    UnitAttr,
    VectorType,
    i32,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyOf,
    AttrSizedOperandSegments,
    EqAttrConstraint,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    traits_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvvm.mma_block_scale_ops import (
    MMABlockScaleKind,
    MMABlockScaleKindAttr,
)
from xdsl_gpu.gpu_dialect.nvvm.sm import RequiresSM
from xdsl_gpu.gpu_dialect.nvvm.tcgen05_attrs import (
    CTAGroupKind,
    CTAGroupKindAttr,
    Tcgen05MMABlockScale,
    Tcgen05MMABlockScaleAttr,
    Tcgen05MMACollectorBBuffer,
    Tcgen05MMACollectorBBufferAttr,
    Tcgen05MMACollectorOp,
    Tcgen05MMACollectorOpAttr,
    Tcgen05MMAKind,
    Tcgen05MMAKindAttr,
)

SM_100A_110A = RequiresSM(100, 110, arch_accelerated=True)
"""MLIR 22's requirement of the tcgen05.mma ops."""

_TENSOR_POINTER = LLVMPointerType(IntAttr(6))
_TMEM = EqAttrConstraint(_TENSOR_POINTER)
_I64 = IntegerType(64)
# A: in Tensor Memory, or a shared memory descriptor.
_MATRIX_A = AnyOf((_TMEM, EqAttrConstraint(_I64)))
# The mask: vector<4xi32> or vector<8xi32> (checked by the verifier).
_MASK = VectorType
_DISCARD = Tcgen05MMACollectorOpAttr(Tcgen05MMACollectorOp.DISCARD)
_DEFAULT_BLOCK = Tcgen05MMABlockScaleAttr(Tcgen05MMABlockScale.DEFAULT)
_B0 = Tcgen05MMACollectorBBufferAttr(Tcgen05MMACollectorBBuffer.B0)

_KINDS = list(Tcgen05MMAKind)
_COLLECTOR_OPS = list(Tcgen05MMACollectorOp)
_COLLECTOR_B = list(Tcgen05MMACollectorBBuffer)


def _immediate(index: int) -> tuple[str, str]:
    return ("i32", str(index))


class _Tcgen05MmaBase(IRDLOperation):
    """What the six ops share: D, A, B, the instruction descriptor, whether D is
    accumulated, the collector op, and MLIR's sorted attribute dictionary."""

    SPARSE: ClassVar[bool] = False

    if TYPE_CHECKING:
        matrix_d: SSAValue
        matrix_a: SSAValue
        matrix_b: SSAValue
        idesc: SSAValue
        enable_input_d: SSAValue
        collector_op: Tcgen05MMACollectorOpAttr

    def verify_(self) -> None:
        # MLIR prints the attribute dictionary sorted by name; the declarative
        # format prints properties in the order they were given, so keep them
        # sorted (verification runs before any printing).
        ordered = dict(sorted(self.properties.items()))
        self.properties.clear()
        self.properties.update(ordered)

    def _a_in_tensor_memory(self) -> bool:
        return self.matrix_a.type == _TENSOR_POINTER

    def _space(self) -> str:
        return "tensor" if self._a_in_tensor_memory() else "shared"

    def _head(self) -> list[SSAValue]:
        return [
            self.matrix_d,
            self.matrix_a,
            self.matrix_b,
            self.idesc,
            self.enable_input_d,
        ]

    def _collector(self) -> tuple[str, str]:
        return _immediate(
            _COLLECTOR_OPS.index(Tcgen05MMACollectorOp(self.collector_op.data))
        )


def _cta(group: CTAGroupKindAttr) -> int:
    return 2 if group.data == CTAGroupKind.CTA_2 else 1


def _args(emitter: Any, values: list[SSAValue]) -> list[tuple[str, str]]:
    """(LLVM IR type, reference) of each value, as ``call_intrinsic`` takes them."""
    pairs: list[tuple[str, str]] = []
    for value in values:
        llvm_type, ref = emitter.typed(value).rsplit(" ", 1)
        pairs.append((llvm_type, ref))
    return pairs


class _MmaOp(_Tcgen05MmaBase):
    """``tcgen05.mma`` and ``tcgen05.mma.sp``."""

    if TYPE_CHECKING:
        scale_input_d: SSAValue | None
        disable_output_lane: SSAValue | None
        kind: Tcgen05MMAKindAttr
        cta_group: CTAGroupKindAttr
        a_shift: UnitAttr | None
        sparse_metadata: SSAValue

    def verify_(self) -> None:
        super().verify_()
        mask = self.disable_output_lane
        if mask is not None:
            t = mask.type
            assert isinstance(t, VectorType)
            if t.element_type != IntegerType(32) or t.get_shape() not in ((4,), (8,)):
                raise VerifyException(
                    "mask must be fixed-length vector of 32-bit signless integer "
                    f"values of length 4/8, but got {t}"
                )
            lanes = t.get_shape()[0]
            if lanes != 4 * _cta(self.cta_group):
                raise VerifyException(
                    f"Disable Output Lane of length {lanes} is incompatible with "
                    "CtaGroupAttr"
                )
        if self.a_shift is not None:
            if not self._a_in_tensor_memory():
                raise VerifyException(
                    "A-shift can be applied only when matrix A is in tensor memory"
                )
            if self.collector_op.data in (
                Tcgen05MMACollectorOp.FILL,
                Tcgen05MMACollectorOp.USE,
            ):
                raise VerifyException(
                    "Cannot use collector buffer operation fill or use with ashift"
                )

    # xDSL's declarative format cannot give `type(operands)` with two optional
    # operands: MLIR 22's format
    #   $d, $a, $b, $idesc, $enableInputD[, $spMeta] (scale = $s)? (mask = $m)?
    #   attr-dict : (type(operands))
    # is written out.
    @classmethod
    def parse(cls, parser: Parser) -> _MmaOp:
        count = 6 if cls.SPARSE else 5
        fixed = [parser.parse_unresolved_operand()]
        for _ in range(count - 1):
            parser.parse_punctuation(",")
            fixed.append(parser.parse_unresolved_operand())
        optional: list[UnresolvedOperand | None] = []
        for keyword in ("scale", "mask"):
            if parser.parse_optional_keyword(keyword) is not None:
                parser.parse_punctuation("=")
                optional.append(parser.parse_unresolved_operand())
            else:
                optional.append(None)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_type
        )
        unresolved = fixed + [o for o in optional if o is not None]
        if len(types) != len(unresolved):
            parser.raise_error(
                f"{len(unresolved)} operands present, but expected {len(types)}"
            )
        values = [
            parser.resolve_operand(o, t) for o, t in zip(unresolved, types, strict=True)
        ]
        properties: dict[str, Attribute] = {}
        for key in list(attributes):
            if key in cls.get_irdl_definition().properties:
                properties[key] = attributes.pop(key)
        properties.setdefault("collectorOp", _DISCARD)
        sizes = [1] * count + [0 if o is None else 1 for o in optional]
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, sizes)
        return cls.create(operands=values, properties=properties, attributes=attributes)

    def print(self, printer: Printer) -> None:
        count = 6 if self.SPARSE else 5
        printer.print_string(" ")
        printer.print_list(self.operands[:count], printer.print_operand)
        for keyword, value in (
            ("scale", self.scale_input_d),
            ("mask", self.disable_output_lane),
        ):
            if value is not None:
                printer.print_string(f" {keyword} = ")
                printer.print_operand(value)
        shown: dict[str, Attribute] = {
            k: v
            for k, v in self.properties.items()
            if k != "operandSegmentSizes" and not (k == "collectorOp" and v == _DISCARD)
        }
        printer.print_op_attributes(dict(sorted({**shown, **self.attributes}.items())))
        printer.print_string(" : (")
        printer.print_list([o.type for o in self.operands], printer.print_attribute)
        printer.print_string(")")

    def get_llvm_intrinsic(self) -> str:
        name = "llvm.nvvm.tcgen05.mma" + (".sp" if self.SPARSE else "")
        name += "." + self._space()
        if self.scale_input_d is not None:
            name += ".scale_d"
        if self.disable_output_lane is not None:
            name += f".disable_output_lane.cg{_cta(self.cta_group)}"
        if self.a_shift is not None:
            name += ".ashift"
        return name

    def llvm_ir(self, emitter: Any) -> None:
        values = self._head()
        if self.SPARSE:
            values.append(self.sparse_metadata)
        for optional in (self.scale_input_d, self.disable_output_lane):
            if optional is not None:
                values.append(optional)
        args = _args(emitter, values)
        args.append(_immediate(_KINDS.index(Tcgen05MMAKind(self.kind.data))))
        if self.disable_output_lane is None:
            args.append(_immediate(_cta(self.cta_group)))
        args.append(self._collector())
        emitter.call_intrinsic(self.get_llvm_intrinsic(), None, args)


@irdl_op_definition
class Tcgen05MMAOp(_MmaOp):
    """``nvvm.tcgen05.mma``: ``D = A * B (+ D)`` on the tensor cores, D in Tensor
    Memory (``scale``: D scaled by 2^-s first, f16/tf32; ``mask``: output lanes to
    leave alone)."""

    name = "nvvm.tcgen05.mma"
    traits = traits_def(SM_100A_110A)

    matrix_d = operand_def(_TMEM)
    matrix_a = operand_def(_MATRIX_A)
    matrix_b = operand_def(I64)
    idesc = operand_def(I32)
    enable_input_d = operand_def(I1)
    scale_input_d = opt_operand_def(I64)
    disable_output_lane = opt_operand_def(_MASK)

    kind = prop_def(Tcgen05MMAKindAttr)
    cta_group = prop_def(CTAGroupKindAttr, prop_name="ctaGroup")
    collector_op = prop_def(
        Tcgen05MMACollectorOpAttr, default_value=_DISCARD, prop_name="collectorOp"
    )
    a_shift = opt_prop_def(UnitAttr, prop_name="aShift")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class Tcgen05MMASparseOp(_MmaOp):
    """``nvvm.tcgen05.mma.sp``: ``tcgen05.mma`` with a 2:4-sparse A, whose metadata
    is in Tensor Memory at ``sparseMetadata``."""

    name = "nvvm.tcgen05.mma.sp"
    traits = traits_def(SM_100A_110A)
    SPARSE: ClassVar[bool] = True

    matrix_d = operand_def(_TMEM)
    matrix_a = operand_def(_MATRIX_A)
    matrix_b = operand_def(I64)
    idesc = operand_def(I32)
    enable_input_d = operand_def(I1)
    sparse_metadata = operand_def(_TMEM)
    scale_input_d = opt_operand_def(I64)
    disable_output_lane = opt_operand_def(_MASK)

    kind = prop_def(Tcgen05MMAKindAttr)
    cta_group = prop_def(CTAGroupKindAttr, prop_name="ctaGroup")
    collector_op = prop_def(
        Tcgen05MMACollectorOpAttr, default_value=_DISCARD, prop_name="collectorOp"
    )
    a_shift = opt_prop_def(UnitAttr, prop_name="aShift")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)


class _BlockScaleOp(_Tcgen05MmaBase):
    """``tcgen05.mma.block_scale`` and ``tcgen05.mma.sp.block_scale``."""

    if TYPE_CHECKING:
        kind: MMABlockScaleKindAttr
        cta_group: CTAGroupKindAttr
        block_scale: Tcgen05MMABlockScaleAttr
        sparse_metadata: SSAValue
        scale_a: SSAValue
        scale_b: SSAValue

    def verify_(self) -> None:
        super().verify_()
        kind = MMABlockScaleKind(self.kind.data)
        block = self.block_scale.data
        if kind == MMABlockScaleKind.MXF4NVF4 and block == Tcgen05MMABlockScale.DEFAULT:
            raise VerifyException("mxf4nvf4 requires block scale attribute")
        if kind != MMABlockScaleKind.MXF4NVF4 and block == Tcgen05MMABlockScale.BLOCK16:
            raise VerifyException(
                f"{kind.value} kind does not support block16 attribute"
            )

    def get_llvm_intrinsic(self) -> str:
        name = "llvm.nvvm.tcgen05.mma" + (".sp" if self.SPARSE else "")
        name += f".{self._space()}.{self.kind.data.value}.block_scale"
        if self.block_scale.data != Tcgen05MMABlockScale.DEFAULT:
            name += "." + self.block_scale.data.value
        return name

    def llvm_ir(self, emitter: Any) -> None:
        values = self._head()
        if self.SPARSE:
            values.append(self.sparse_metadata)
        values += [self.scale_a, self.scale_b]
        args = _args(emitter, values)
        args += [_immediate(_cta(self.cta_group)), self._collector()]
        emitter.call_intrinsic(self.get_llvm_intrinsic(), None, args)


@irdl_op_definition
class Tcgen05MMABlockScaleOp(_BlockScaleOp):
    """``nvvm.tcgen05.mma.block_scale``: ``tcgen05.mma`` of mx/nv fp8/fp6/fp4 types
    with the scale factors of A and B in Tensor Memory."""

    name = "nvvm.tcgen05.mma.block_scale"
    traits = traits_def(SM_100A_110A)

    matrix_d = operand_def(_TMEM)
    matrix_a = operand_def(_MATRIX_A)
    matrix_b = operand_def(I64)
    idesc = operand_def(I32)
    enable_input_d = operand_def(I1)
    scale_a = operand_def(_TMEM)
    scale_b = operand_def(_TMEM)

    kind = prop_def(MMABlockScaleKindAttr)
    cta_group = prop_def(CTAGroupKindAttr, prop_name="ctaGroup")
    block_scale = prop_def(
        Tcgen05MMABlockScaleAttr, default_value=_DEFAULT_BLOCK, prop_name="blockScale"
    )
    collector_op = prop_def(
        Tcgen05MMACollectorOpAttr, default_value=_DISCARD, prop_name="collectorOp"
    )

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$matrix_d `,` $matrix_a `,` $matrix_b `,` $idesc `,` $enable_input_d `,` "
        "$scale_a `,` $scale_b attr-dict `:` `(` type(operands) `)`"
    )


@irdl_op_definition
class Tcgen05MMASparseBlockScaleOp(_BlockScaleOp):
    """``nvvm.tcgen05.mma.sp.block_scale``: the block-scaled ``tcgen05.mma`` with a
    2:4-sparse A."""

    name = "nvvm.tcgen05.mma.sp.block_scale"
    traits = traits_def(SM_100A_110A)
    SPARSE: ClassVar[bool] = True

    matrix_d = operand_def(_TMEM)
    matrix_a = operand_def(_MATRIX_A)
    matrix_b = operand_def(I64)
    idesc = operand_def(I32)
    enable_input_d = operand_def(I1)
    sparse_metadata = operand_def(_TMEM)
    scale_a = operand_def(_TMEM)
    scale_b = operand_def(_TMEM)

    kind = prop_def(MMABlockScaleKindAttr)
    cta_group = prop_def(CTAGroupKindAttr, prop_name="ctaGroup")
    block_scale = prop_def(
        Tcgen05MMABlockScaleAttr, default_value=_DEFAULT_BLOCK, prop_name="blockScale"
    )
    collector_op = prop_def(
        Tcgen05MMACollectorOpAttr, default_value=_DISCARD, prop_name="collectorOp"
    )

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$matrix_d `,` $matrix_a `,` $matrix_b `,` $idesc `,` $enable_input_d `,` "
        "$sparse_metadata `,` $scale_a `,` $scale_b attr-dict "
        "`:` `(` type(operands) `)`"
    )


class _WsOp(_Tcgen05MmaBase):
    """``tcgen05.mma.ws`` and ``tcgen05.mma.ws.sp``."""

    if TYPE_CHECKING:
        kind: Tcgen05MMAKindAttr
        collector_b_buffer: Tcgen05MMACollectorBBufferAttr
        zero_col_mask: SSAValue | None
        sparse_metadata: SSAValue

    def get_llvm_intrinsic(self) -> str:
        name = "llvm.nvvm.tcgen05.mma.ws" + (".sp" if self.SPARSE else "")
        name += "." + self._space()
        if self.zero_col_mask is not None:
            name += ".zero_col_mask"
        return name

    def llvm_ir(self, emitter: Any) -> None:
        values = self._head()
        if self.SPARSE:
            values.append(self.sparse_metadata)
        if self.zero_col_mask is not None:
            values.append(self.zero_col_mask)
        args = _args(emitter, values)
        buffer = Tcgen05MMACollectorBBuffer(self.collector_b_buffer.data)
        args += [
            _immediate(_KINDS.index(Tcgen05MMAKind(self.kind.data))),
            _immediate(_COLLECTOR_B.index(buffer)),
            self._collector(),
        ]
        emitter.call_intrinsic(self.get_llvm_intrinsic(), None, args)


@irdl_op_definition
class Tcgen05MMAWsOp(_WsOp):
    """``nvvm.tcgen05.mma.ws``: the weight-stationary ``tcgen05.mma`` (B kept in
    collector buffer ``collectorBBuffer``; ``zeroColMask``: columns of B taken as
    zero)."""

    name = "nvvm.tcgen05.mma.ws"
    traits = traits_def(SM_100A_110A)

    matrix_d = operand_def(_TMEM)
    matrix_a = operand_def(_MATRIX_A)
    matrix_b = operand_def(I64)
    idesc = operand_def(I32)
    enable_input_d = operand_def(I1)
    zero_col_mask = opt_operand_def(I64)

    kind = prop_def(Tcgen05MMAKindAttr)
    collector_b_buffer = prop_def(
        Tcgen05MMACollectorBBufferAttr, default_value=_B0, prop_name="collectorBBuffer"
    )
    collector_op = prop_def(
        Tcgen05MMACollectorOpAttr, default_value=_DISCARD, prop_name="collectorOp"
    )

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$matrix_d `,` $matrix_a `,` $matrix_b `,` $idesc `,` $enable_input_d "
        "(`,` $zero_col_mask^)? attr-dict `:` `(` type(operands) `)`"
    )


@irdl_op_definition
class Tcgen05MMAWsSparseOp(_WsOp):
    """``nvvm.tcgen05.mma.ws.sp``: the weight-stationary ``tcgen05.mma`` with a
    2:4-sparse A."""

    name = "nvvm.tcgen05.mma.ws.sp"
    traits = traits_def(SM_100A_110A)
    SPARSE: ClassVar[bool] = True

    matrix_d = operand_def(_TMEM)
    matrix_a = operand_def(_MATRIX_A)
    matrix_b = operand_def(I64)
    idesc = operand_def(I32)
    enable_input_d = operand_def(I1)
    sparse_metadata = operand_def(_TMEM)
    zero_col_mask = opt_operand_def(I64)

    kind = prop_def(Tcgen05MMAKindAttr)
    collector_b_buffer = prop_def(
        Tcgen05MMACollectorBBufferAttr, default_value=_B0, prop_name="collectorBBuffer"
    )
    collector_op = prop_def(
        Tcgen05MMACollectorOpAttr, default_value=_DISCARD, prop_name="collectorOp"
    )

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$matrix_d `,` $matrix_a `,` $matrix_b `,` $idesc `,` $enable_input_d `,` "
        "$sparse_metadata (`,` $zero_col_mask^)? attr-dict `:` `(` type(operands) `)`"
    )


OPERATIONS: tuple[type[Operation], ...] = (
    Tcgen05MMAOp,
    Tcgen05MMASparseOp,
    Tcgen05MMABlockScaleOp,
    Tcgen05MMASparseBlockScaleOp,
    Tcgen05MMAWsOp,
    Tcgen05MMAWsSparseOp,
)

__all__ = [
    "SM_100A_110A",
    "Tcgen05MMABlockScaleOp",
    "Tcgen05MMAOp",
    "Tcgen05MMASparseBlockScaleOp",
    "Tcgen05MMASparseOp",
    "Tcgen05MMAWsOp",
    "Tcgen05MMAWsSparseOp",
]
