"""The memory ops of the ``vector`` dialect: ``load``/``store``, their masked,
gathering and compressing forms, ``transfer_read``/``transfer_write`` and
``type_cast``, with upstream's syntax and verifier messages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, TypeVar

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    I1,
    I64,
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.vector.attributes import quoted
from xdsl_gpu.gpu_dialect.xdsl_format import RESET_FORMAT

_SHAPED = MemRefType | TensorType


def _shaped(value: SSAValue) -> MemRefType | TensorType:
    t = value.type
    assert isinstance(t, MemRefType | TensorType)
    return t  # pyright: ignore[reportUnknownVariableType]


def _vector(value: SSAValue) -> VectorType:
    t = value.type
    assert isinstance(t, VectorType)
    return t  # pyright: ignore[reportUnknownVariableType]


def _check_indices(base: MemRefType | TensorType, indices: Sequence[SSAValue]) -> None:
    if len(indices) != base.get_num_dims():
        raise VerifyException(f"requires {base.get_num_dims()} indices")


def _check_base_element(base: Attribute, vector: VectorType, what: str) -> None:
    """Upstream's rule: a memref of scalars holds the vector's elements; a memref of
    vectors holds exactly the vector type."""
    assert isinstance(base, MemRefType | TensorType)
    element = base.element_type  # pyright: ignore[reportUnknownMemberType]
    if isinstance(element, VectorType):
        if element != vector:
            raise VerifyException(f"base memref and {what} vector types should match")
    elif element != vector.element_type:
        raise VerifyException(f"base and {what} element types should match")


ALIGNMENT_CONSTRAINT = (
    "attribute 'alignment' failed to satisfy constraint: 64-bit signless integer "
    "attribute whose value is positive and whose value is a power of two > 0"
)


def alignment_prop():
    """``alignment``: the byte alignment the access may assume (MLIR 22's optional
    property of every vector memory op; the LLVM lowering puts it on the access)."""
    return opt_prop_def(IntegerAttr[I64])


def _check_alignment(op: IRDLOperation) -> None:
    alignment = op.properties.get("alignment")
    if alignment is None:
        return
    assert isinstance(alignment, IntegerAttr)
    value = alignment.value.data
    if value <= 0 or value & (value - 1):
        raise VerifyException(ALIGNMENT_CONSTRAINT)


def access_alignment(op: Operation) -> int | None:
    """The ``alignment`` of a vector memory op, or ``None`` where it has none."""
    alignment = op.properties.get("alignment")
    return alignment.value.data if isinstance(alignment, IntegerAttr) else None


@irdl_op_definition
class LoadOp(xvector.LoadOp):
    """``%v = vector.load %m[%i, %j] : memref<?x?xf32>, vector<8xf32>``"""

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    result = result_def(VectorType)
    nontemporal = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    alignment = alignment_prop()
    irdl_options = (ParsePropInAttrDict(),)
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        _check_alignment(self)
        base = _shaped(self.base)
        _check_base_element(base, _vector(self.result), "result")
        _check_indices(base, self.indices)


@irdl_op_definition
class StoreOp(xvector.StoreOp):
    """``vector.store %v, %m[%i, %j] : memref<?x?xf32>, vector<8xf32>``"""

    vector = operand_def(VectorType)
    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    nontemporal = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    alignment = alignment_prop()
    irdl_options = (ParsePropInAttrDict(),)
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        _check_alignment(self)
        base = _shaped(self.base)
        element = base.element_type  # pyright: ignore[reportUnknownMemberType]
        vector = _vector(self.vector)
        if isinstance(element, VectorType):
            if element != vector:
                raise VerifyException(
                    "base memref and valueToStore vector types should match"
                )
        elif element != vector.element_type:
            raise VerifyException("base and valueToStore element type should match")
        _check_indices(base, self.indices)


def _check_masked(
    base: MemRefType | TensorType,
    indices: Sequence[SSAValue],
    mask: VectorType,
    value: VectorType,
    what: str,
    dim_rule: str,
) -> None:
    if base.element_type != value.element_type:  # pyright: ignore[reportUnknownMemberType]
        raise VerifyException(f"base and {what} element type should match")
    _check_indices(base, indices)
    if dim_rule == "shape":
        if mask.get_shape() != value.get_shape():
            raise VerifyException(f"expected {what} shape to match mask shape")
    elif mask.get_shape()[:1] != value.get_shape()[:1]:
        raise VerifyException(f"expected {what} dim to match mask dim")


@irdl_op_definition
class MaskedLoadOp(xvector.MaskedLoadOp):
    """``vector.maskedload %m[%i], %mask, %pass : memref<?xf32>, vector<8xi1>,
    vector<8xf32> into vector<8xf32>``"""

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = operand_def(VectorType[I1])
    pass_thru = operand_def(VectorType)
    result = result_def(VectorType)
    alignment = alignment_prop()
    irdl_options = (ParsePropInAttrDict(),)
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        _check_alignment(self)
        result = _vector(self.result)
        _check_masked(
            _shaped(self.base),
            self.indices,
            _vector(self.mask),
            result,
            "result",
            "shape",
        )
        if self.pass_thru.type != result:
            raise VerifyException("expected pass_thru of same type as result type")


@irdl_op_definition
class MaskedStoreOp(xvector.MaskedStoreOp):
    """``vector.maskedstore %m[%i], %mask, %v : memref<?xf32>, vector<8xi1>,
    vector<8xf32>``"""

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = operand_def(VectorType[I1])
    value_to_store = operand_def(VectorType)
    alignment = alignment_prop()
    irdl_options = (ParsePropInAttrDict(),)
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        _check_alignment(self)
        _check_masked(
            _shaped(self.base),
            self.indices,
            _vector(self.mask),
            _vector(self.value_to_store),
            "valueToStore",
            "shape",
        )


@irdl_op_definition
class GatherOp(IRDLOperation):
    """``%g = vector.gather %m[%i] [%idx], %mask, %pass : memref<?xf32>,
    vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>``"""

    name = "vector.gather"
    base = operand_def(_SHAPED)
    offsets = var_operand_def(IndexType)
    indices = operand_def(VectorType)
    mask = operand_def(VectorType[I1])
    pass_thru = operand_def(VectorType)
    result = result_def(VectorType)
    alignment = alignment_prop()
    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$base `[` $offsets `]` `[` $indices `]` `,` $mask `,` $pass_thru attr-dict "
        "`:` type($base) `,` type($indices) `,` type($mask) `,` type($pass_thru) "
        "`into` type($result)"
    )

    def verify_(self) -> None:
        _check_alignment(self)
        base, result = _shaped(self.base), _vector(self.result)
        if base.element_type != result.element_type:  # pyright: ignore[reportUnknownMemberType]
            raise VerifyException("base and result element type should match")
        _check_indices(base, self.offsets)
        if _vector(self.indices).get_shape() != result.get_shape():
            raise VerifyException("expected result dim to match indices dim")
        if _vector(self.mask).get_shape() != result.get_shape():
            raise VerifyException("expected result dim to match mask dim")
        if self.pass_thru.type != result:
            raise VerifyException("expected pass_thru of same type as result type")


@irdl_op_definition
class ScatterOp(IRDLOperation):
    """``vector.scatter %m[%i] [%idx], %mask, %v : memref<?xf32>, vector<16xi32>,
    vector<16xi1>, vector<16xf32>``"""

    name = "vector.scatter"
    base = operand_def(_SHAPED)
    offsets = var_operand_def(IndexType)
    indices = operand_def(VectorType)
    mask = operand_def(VectorType[I1])
    valueToStore = operand_def(VectorType)
    alignment = alignment_prop()
    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$base `[` $offsets `]` `[` $indices `]` `,` $mask `,` $valueToStore "
        "attr-dict `:` type($base) `,` type($indices) `,` type($mask) `,` "
        "type($valueToStore)"
    )

    def verify_(self) -> None:
        _check_alignment(self)
        base, value = _shaped(self.base), _vector(self.valueToStore)
        if base.element_type != value.element_type:  # pyright: ignore[reportUnknownMemberType]
            raise VerifyException("base and valueToStore element type should match")
        _check_indices(base, self.offsets)
        if _vector(self.indices).get_shape() != value.get_shape():
            raise VerifyException("expected valueToStore dim to match indices dim")
        if _vector(self.mask).get_shape() != value.get_shape():
            raise VerifyException("expected valueToStore dim to match mask dim")


@irdl_op_definition
class ExpandLoadOp(IRDLOperation):
    """``%e = vector.expandload %m[%i], %mask, %pass : memref<?xf32>, vector<8xi1>,
    vector<8xf32> into vector<8xf32>``"""

    name = "vector.expandload"
    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = operand_def(VectorType[I1])
    pass_thru = operand_def(VectorType)
    result = result_def(VectorType)
    alignment = alignment_prop()
    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$base `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` type($base) "
        "`,` type($mask) `,` type($pass_thru) `into` type($result)"
    )

    def verify_(self) -> None:
        _check_alignment(self)
        result = _vector(self.result)
        _check_masked(
            _shaped(self.base),
            self.indices,
            _vector(self.mask),
            result,
            "result",
            "dim",
        )
        if self.pass_thru.type != result:
            raise VerifyException("expected pass_thru of same type as result type")


@irdl_op_definition
class CompressStoreOp(IRDLOperation):
    """``vector.compressstore %m[%i], %mask, %v : memref<?xf32>, vector<8xi1>,
    vector<8xf32>``"""

    name = "vector.compressstore"
    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = operand_def(VectorType[I1])
    valueToStore = operand_def(VectorType)
    alignment = alignment_prop()
    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$base `[` $indices `]` `,` $mask `,` $valueToStore attr-dict `:` "
        "type($base) `,` type($mask) `,` type($valueToStore)"
    )

    def verify_(self) -> None:
        _check_alignment(self)
        _check_masked(
            _shaped(self.base),
            self.indices,
            _vector(self.mask),
            _vector(self.valueToStore),
            "valueToStore",
            "dim",
        )


# --------------------------------------------------------------------------------------
# transfer_read / transfer_write
# --------------------------------------------------------------------------------------


def _verify_permutation_map(pmap: AffineMap) -> None:
    seen: set[int] = set()
    for expr in pmap.results:
        if isinstance(expr, AffineConstantExpr) and expr.value == 0:
            continue
        if not isinstance(expr, AffineDimExpr):
            raise VerifyException(
                "requires a projected permutation_map (at most one dim or the zero "
                "constant can appear in each result)"
            )
        if expr.position in seen:
            raise VerifyException(
                "requires a permutation_map that is a permutation (found one dim used "
                "more than once)"
            )
        seen.add(expr.position)


def _verify_transfer(
    op: xvector.TransferReadOp | xvector.TransferWriteOp,
    shaped: MemRefType | TensorType,
    vector: VectorType,
    mask: SSAValue | None,
) -> None:
    pmap = op.permutation_map.data
    _check_indices(shaped, op.indices)
    element = shaped.element_type  # pyright: ignore[reportUnknownMemberType]
    if not isinstance(element, VectorType):
        if isinstance(vector.element_type, IndexType) != isinstance(element, IndexType):
            raise VerifyException(
                "Element type of source is index, expected element type of vector "
                "also to be index"
            )
        if len(pmap.results) != vector.get_num_dims():
            raise VerifyException(
                "requires a permutation_map with result dims of the same rank as the "
                "vector type"
            )
    if pmap.num_symbols != 0:
        raise VerifyException("requires permutation_map without symbols")
    if pmap.num_dims != shaped.get_num_dims():
        raise VerifyException(
            "requires a permutation_map with input dims of the same rank as the "
            "source type"
        )
    if len(op.in_bounds) != len(pmap.results):
        raise VerifyException(
            "expects the in_bounds attr of same rank as permutation_map results: "
            f"{AffineMapAttr(pmap)} vs inBounds of size: {len(op.in_bounds)}"
        )
    if mask is not None:
        if isinstance(element, VectorType):
            raise VerifyException("does not support masks with vector element type")
        expected = xvector.VectorTransferOperation.infer_transfer_op_mask_type(
            vector, pmap
        )
        if mask.type != expected:
            raise VerifyException(
                f"expects mask type consistent with permutation map: {quoted(mask.type)}"
            )
    _verify_permutation_map(pmap)


_Op = TypeVar("_Op", bound=Operation)


def _as(cls: type[_Op], op: Operation) -> _Op:
    """``op``, parsed by xDSL's class, rebuilt as ``cls``."""
    new = cls.create(
        operands=list(op.operands),
        result_types=[r.type for r in op.results],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    op.erase(safe_erase=False)
    return new


class _TransferCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        from xdsl_gpu.gpu_dialect.vector.in_bounds import FoldTransferInBounds

        return (FoldTransferInBounds(),)


@irdl_op_definition
class TransferReadOp(xvector.TransferReadOp):
    """``%v = vector.transfer_read %m[%i, %j], %pad {in_bounds = [true]} :
    memref<?x?xf32>, vector<4xf32>``"""

    source = operand_def(TensorType | MemRefType)
    indices = var_operand_def(IndexType)
    padding = operand_def()
    mask = opt_operand_def(VectorType[I1])
    permutation_map = prop_def(AffineMapAttr)
    in_bounds = prop_def(ArrayAttr[BoolAttr])
    result = result_def(VectorType)
    traits = traits_def(_TransferCanonicalization())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return _as(cls, xvector.TransferReadOp.parse(parser))

    def verify_(self) -> None:
        shaped, vector = _shaped(self.source), _vector(self.result)
        _verify_transfer(self, shaped, vector, self.mask)
        element = shaped.element_type  # pyright: ignore[reportUnknownMemberType]
        if not isinstance(element, VectorType) and self.padding.type != element:
            raise VerifyException(
                "requires formal padding and source of the same elemental type"
            )


@irdl_op_definition
class TransferWriteOp(xvector.TransferWriteOp):
    """``vector.transfer_write %v, %m[%i, %j] : vector<4xf32>, memref<?x?xf32>``"""

    vector = operand_def(VectorType)
    source = operand_def(TensorType | MemRefType)
    indices = var_operand_def(IndexType)
    mask = opt_operand_def(VectorType[I1])
    permutation_map = prop_def(AffineMapAttr)
    in_bounds = prop_def(ArrayAttr[BoolAttr])
    result = opt_result_def(TensorType)
    traits = traits_def(_TransferCanonicalization())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return _as(cls, xvector.TransferWriteOp.parse(parser))

    def verify_(self) -> None:
        if self.has_broadcast_dim():
            raise VerifyException("should not have broadcast dimensions")
        _verify_transfer(self, _shaped(self.source), _vector(self.vector), self.mask)
        if isinstance(self.source.type, TensorType) != (self.result is not None):
            raise VerifyException("expects a result only for a tensor source")


def default_in_bounds(rank: int) -> ArrayAttr[BoolAttr]:
    return ArrayAttr((BoolAttr.from_bool(False),) * rank)


@irdl_op_definition
class TypeCastOp(IRDLOperation):
    """``%c = vector.type_cast %m : memref<8x8xf32> to memref<vector<8x8xf32>>``"""

    name = "vector.type_cast"
    memref = operand_def(MemRefType)
    result = result_def(MemRefType)

    assembly_format = "$memref attr-dict `:` type($memref) `to` type($result)"

    def __init__(self, memref: SSAValue | Operation, result_type: MemRefType):
        super().__init__(operands=[memref], result_types=[result_type])

    def verify_(self) -> None:
        source, result = self.memref.type, self.result.type
        assert isinstance(source, MemRefType)
        assert isinstance(result, MemRefType)
        for t, what in ((source, "operand"), (result, "result")):
            layout = t.layout  # pyright: ignore[reportUnknownMemberType]
            identity = isinstance(layout, NoneAttr) or (
                isinstance(layout, AffineMapAttr)
                and layout.data == AffineMap.identity(t.get_num_dims())
            )
            if not identity:
                raise VerifyException(
                    f"expects {what} to be a memref with identity layout"
                )
        if source.memory_space != result.memory_space:  # pyright: ignore
            raise VerifyException("expects operand and result in same memory space")
        # Upstream's rules: the same scalar type, and the memref shape followed by
        # the element's vector shape equal on both sides.
        if _scalar_of(source) != _scalar_of(result):
            raise VerifyException(
                "expects result and operand with same underlying scalar type: "
                f"{quoted(result)}"
            )
        if _full_shape(source) != _full_shape(result):
            raise VerifyException(
                "expects concatenated result and operand shapes to be equal: "
                f"{quoted(result)}"
            )


def _scalar_of(t: MemRefType) -> Attribute:
    element = t.element_type  # pyright: ignore[reportUnknownMemberType]
    return element.element_type if isinstance(element, VectorType) else element  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]


def _full_shape(t: MemRefType) -> tuple[int, ...]:
    element = t.element_type  # pyright: ignore[reportUnknownMemberType]
    inner = element.get_shape() if isinstance(element, VectorType) else ()  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    return (*t.get_shape(), *inner)  # pyright: ignore[reportUnknownArgumentType]


__all__ = [
    "CompressStoreOp",
    "ExpandLoadOp",
    "GatherOp",
    "LoadOp",
    "MaskedLoadOp",
    "MaskedStoreOp",
    "ScatterOp",
    "StoreOp",
    "TransferReadOp",
    "TransferWriteOp",
    "TypeCastOp",
]
