"""Subgroup (warp-level) MMA ops of the ``gpu`` dialect, with upstream's syntax.

They work on ``!gpu.mma_matrix<MxNxT, "AOp"|"BOp"|"COp">`` fragments held collectively
by a subgroup: load/store them from/to memrefs, ``C += A * B``, splat constants,
elementwise ops, and per-lane element access. Verifier messages are upstream's
(``GPUDialect.cpp`` and the ODS constraints of ``GPUOps.td``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from typing_extensions import TypeVar
from xdsl.dialects.builtin import (
    AffineMapAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    Signedness,
    UnitAttr,
    VectorType,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
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
    AttrConstraint,
    IntConstraint,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.constraints import VerificationContext
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.gpu.compute_ops import (
    IntegerOrFloat,
    SameType,
    TypeConstraint,
    enum_attr,
    exactly,
    index_attr,
)
from xdsl_gpu.gpu_dialect.gpu.types import MMAMatrixType
from xdsl_gpu.gpu_dialect.gpu.verify_order import VerifiedOnEntrance

# ===----------------------------------------------------------------------=== #
# Type constraints (GPUBase.td's GPU_MMAMatrix, MMAMatrixOf and GPU_MMAMemRef)
# ===----------------------------------------------------------------------=== #


SI8 = IntegerType(8, Signedness.SIGNED)
UI8 = IntegerType(8, Signedness.UNSIGNED)
I8 = IntegerType(8)
I32 = IntegerType(32)
F16, F32, F64 = Float16Type(), Float32Type(), Float64Type()

_TYPE_NAMES: dict[Attribute, str] = {
    I8: "8-bit signless integer",
    SI8: "8-bit signed integer",
    UI8: "8-bit unsigned integer",
    I32: "32-bit signless integer",
    F16: "16-bit float",
    F32: "32-bit float",
    F64: "64-bit float",
}


def _any_of(*types: Attribute) -> tuple[frozenset[Attribute], str]:
    """Some element types, and how ODS lists them (``8-bit ... or 16-bit float``)."""
    return frozenset(types), " or ".join(_TYPE_NAMES[t] for t in types)


def one_of(*types: Attribute) -> TypeConstraint:
    """ODS ``AnyTypeOf<[...]>`` of these types."""
    allowed, names = _any_of(*types)
    return TypeConstraint(names, lambda t: t in allowed)


def mma_matrix_of(*element_types: Attribute) -> TypeConstraint:
    """ODS ``MMAMatrixOf<[...]>``: an ``!gpu.mma_matrix`` of these element types."""
    allowed, names = _any_of(*element_types)
    return TypeConstraint(
        f"gpu.mma_matrix of {names} values",
        lambda t: isinstance(t, MMAMatrixType) and t.element_type in allowed,
    )


AnyMMAMatrix = TypeConstraint("MMAMatrix type", lambda t: isinstance(t, MMAMatrixType))
"""ODS ``GPU_MMAMatrix``."""

VariadicIndex = exactly(IndexType(), "variadic of index")
"""ODS ``Variadic<Index>``, as its elements are checked."""

_MEMREF_ELEMENTS, _MEMREF_ELEMENT_NAMES = _any_of(I8, I32, F16, F32, F64)


def _is_mma_memref_element(t: Attribute) -> bool:
    if isinstance(t, VectorType):
        return t.get_num_dims() == 1 and t.get_element_type() in _MEMREF_ELEMENTS
    return t in _MEMREF_ELEMENTS


MMAMemRef = TypeConstraint(
    f"memref of {_MEMREF_ELEMENT_NAMES} or vector of {_MEMREF_ELEMENT_NAMES} "
    "values of ranks 1 values",
    lambda t: isinstance(t, MemRefType) and _is_mma_memref_element(t.element_type),
)
"""ODS ``GPU_MMAMemRef``: a memref of i8, i32, f16, f32, f64 or 1-D vectors of them."""


@dataclass(frozen=True)
class MMAMatrixWithElement(AttrConstraint):
    """An ``!gpu.mma_matrix`` whose element type satisfies ``element``: a
    :class:`SameType` variable shared with a scalar operand or result, as upstream's
    ``TypesMatchWith`` on ``getElementType()``."""

    element: AttrConstraint

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        AnyMMAMatrix.verify(attr, constraint_context)
        assert isinstance(attr, MMAMatrixType)
        self.element.verify(attr.element_type, constraint_context)

    def variables(self) -> set[str]:
        return self.element.variables()

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]
    ) -> MMAMatrixWithElement:
        return self


# ===----------------------------------------------------------------------=== #
# Unit stride of the innermost memref dimension (MemRefType::isLastDimUnitStride)
# ===----------------------------------------------------------------------=== #


def _constant_value(expr: AffineExpr) -> int | None:
    """The value of a symbol-free expression, ``None`` when it has symbols."""
    match expr:
        case AffineConstantExpr(value=value):
            return value
        case AffineBinaryOpExpr(kind=kind, lhs=lhs, rhs=rhs):
            left, right = _constant_value(lhs), _constant_value(rhs)
            if left is None or right is None:
                return None
            match kind:
                case AffineBinaryOpKind.Add:
                    return left + right
                case AffineBinaryOpKind.Mul:
                    return left * right
                case _:
                    return None
        case _:
            return None


def _uses_dims(expr: AffineExpr) -> bool:
    return any(isinstance(e, AffineDimExpr) for e in expr.dfs())


def _extract_strides(
    expr: AffineExpr, factor: int | None, strides: list[int | None]
) -> bool:
    """Add ``factor`` times the coefficient of each dimension in ``expr`` to
    ``strides`` (``None``: not a constant); ``False`` if ``expr`` is not a strided
    layout."""
    match expr:
        case AffineDimExpr(position=position):
            stride = strides[position]
            strides[position] = (
                None if stride is None or factor is None else stride + factor
            )
            return True
        case AffineBinaryOpExpr(kind=AffineBinaryOpKind.Add, lhs=lhs, rhs=rhs):
            return _extract_strides(lhs, factor, strides) and _extract_strides(
                rhs, factor, strides
            )
        case AffineBinaryOpExpr(kind=AffineBinaryOpKind.Mul, lhs=lhs, rhs=rhs):
            if _uses_dims(lhs):
                lhs, rhs = rhs, lhs
            scale = _constant_value(lhs)
            return _extract_strides(
                rhs,
                None if factor is None or scale is None else factor * scale,
                strides,
            )
        case AffineBinaryOpExpr():
            return not _uses_dims(expr)
        case AffineSymExpr() | AffineConstantExpr():
            return True  # part of the offset
        case _:
            return False


def _affine_map_strides(layout_map: AffineMap) -> list[int | None] | None:
    """The stride of each dimension of a one-result layout map (``None``: not a
    constant), or ``None`` when the map is not a strided layout."""
    if len(layout_map.results) != 1:
        return None
    strides: list[int | None] = [0] * layout_map.num_dims
    if not _extract_strides(layout_map.results[0], 1, strides):
        return None
    return strides


def is_last_dim_unit_stride(memref_type: MemRefType) -> bool:
    """Whether the innermost dimension of ``memref_type`` is contiguous (upstream
    ``MemRefType::isLastDimUnitStride``)."""
    layout = memref_type.layout
    if memref_type.get_num_dims() == 0 or isinstance(layout, NoneAttr):
        return True
    if isinstance(layout, AffineMapAttr):
        if layout.data == AffineMap.identity(layout.data.num_dims):
            return True
        strides = _affine_map_strides(layout.data)
    else:
        strides = layout.get_strides()
    return bool(strides) and strides[-1] == 1


# ===----------------------------------------------------------------------=== #
# Ops
# ===----------------------------------------------------------------------=== #


@irdl_op_definition
class SubgroupMmaLoadMatrixOp(IRDLOperation):
    """``%m = gpu.subgroup_mma_load_matrix %src[%i, %j] {leadDimension = 32 : index,
    transpose?} : memref<...> -> !gpu.mma_matrix<16x16xf16, "AOp">``."""

    name = "gpu.subgroup_mma_load_matrix"

    srcMemref = operand_def(MMAMemRef)
    indices = var_operand_def(VariadicIndex)
    leadDimension = prop_def(IntegerAttr[IndexType])
    transpose = opt_prop_def(UnitAttr)
    res = result_def(AnyMMAMatrix)

    traits = traits_def(MemoryReadEffect())
    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$srcMemref `[` $indices `]` attr-dict `:` type($srcMemref) `->` type($res)"
    )

    def __init__(
        self,
        src_memref: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        lead_dimension: int | IntegerAttr,
        result_type: MMAMatrixType,
        *,
        transpose: bool = False,
    ):
        super().__init__(
            operands=[src_memref, indices],
            result_types=[result_type],
            properties={
                "leadDimension": index_attr(lead_dimension),
                "transpose": UnitAttr() if transpose else None,
            },
        )

    def verify_(self) -> None:
        memref_type = self.srcMemref.type
        assert isinstance(memref_type, MemRefType)
        if not is_last_dim_unit_stride(memref_type):
            raise VerifyException(
                "expected source memref most minor dim must have unit stride"
            )


@irdl_op_definition
class SubgroupMmaStoreMatrixOp(IRDLOperation):
    """``gpu.subgroup_mma_store_matrix %m, %dst[%i, %j] {leadDimension = 32 : index,
    transpose?} : !gpu.mma_matrix<16x16xf16, "COp">, memref<...>``."""

    name = "gpu.subgroup_mma_store_matrix"

    src = operand_def(mma_matrix_of(SI8, UI8, I32, F16, F32, F64))
    dstMemref = operand_def(MMAMemRef)
    indices = var_operand_def(VariadicIndex)
    leadDimension = prop_def(IntegerAttr[IndexType])
    transpose = opt_prop_def(UnitAttr)

    traits = traits_def(MemoryWriteEffect())
    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$src `,` $dstMemref `[` $indices `]` attr-dict `:` type($src) `,` "
        "type($dstMemref)"
    )

    def __init__(
        self,
        src: SSAValue | Operation,
        dst_memref: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        lead_dimension: int | IntegerAttr,
        *,
        transpose: bool = False,
    ):
        super().__init__(
            operands=[src, dst_memref, indices],
            properties={
                "leadDimension": index_attr(lead_dimension),
                "transpose": UnitAttr() if transpose else None,
            },
        )

    def verify_(self) -> None:
        memref_type = self.dstMemref.type
        assert isinstance(memref_type, MemRefType)
        if not is_last_dim_unit_stride(memref_type):
            raise VerifyException(
                "expected destination memref most minor dim must have unit stride"
            )
        src_type = self.src.type
        assert isinstance(src_type, MMAMatrixType)
        if src_type.operand.data != "COp":
            raise VerifyException(
                "expected the operand matrix being stored to have 'COp' operand type"
            )


@irdl_op_definition
class SubgroupMmaComputeOp(VerifiedOnEntrance, IRDLOperation):
    """``%d = gpu.subgroup_mma_compute %a, %b, %c {a_transpose?, b_transpose?} :
    A, B -> C``: ``C += A * B``; the result has the type of ``%c``."""

    name = "gpu.subgroup_mma_compute"

    C: ClassVar = SameType(
        "C",
        mma_matrix_of(I32, F16, F32, F64),
        "failed to verify that all of {opC, res} have same type",
    )

    opA = operand_def(mma_matrix_of(SI8, UI8, F16, F32, F64))
    opB = operand_def(mma_matrix_of(SI8, UI8, F16, F32, F64))
    opC = operand_def(C)
    a_transpose = opt_prop_def(UnitAttr)
    b_transpose = opt_prop_def(UnitAttr)
    res = result_def(C)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$opA `,` $opB `,` $opC attr-dict `:` type($opA) `,` type($opB) `->` type($res)"
    )

    def __init__(
        self,
        op_a: SSAValue | Operation,
        op_b: SSAValue | Operation,
        op_c: SSAValue | Operation,
        *,
        a_transpose: bool = False,
        b_transpose: bool = False,
    ):
        op_c = SSAValue.get(op_c)
        super().__init__(
            operands=[op_a, op_b, op_c],
            result_types=[op_c.type],
            properties={
                "a_transpose": UnitAttr() if a_transpose else None,
                "b_transpose": UnitAttr() if b_transpose else None,
            },
        )

    def verify_(self) -> None:
        a, b, c = (operand.type for operand in (self.opA, self.opB, self.opC))
        assert isinstance(a, MMAMatrixType)
        assert isinstance(b, MMAMatrixType)
        assert isinstance(c, MMAMatrixType)
        if (a.operand.data, b.operand.data, c.operand.data) != ("AOp", "BOp", "COp"):
            raise VerifyException("operands must be in the order AOp, BOp, COp")
        a_shape, b_shape, c_shape = a.get_shape(), b.get_shape(), c.get_shape()
        if (
            a_shape[1] != b_shape[0]
            or a_shape[0] != c_shape[0]
            or b_shape[1] != c_shape[1]
        ):
            raise VerifyException("operand shapes do not satisfy matmul constraints")


_ELEMENT_MISMATCH = (
    "failed to verify that value type matches element type of mma_matrix"
)


@irdl_op_definition
class SubgroupMmaConstantMatrixOp(VerifiedOnEntrance, IRDLOperation):
    """``%m = gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<16x16xf16,
    "COp">``: every element is ``%v``, whose type is the element type."""

    name = "gpu.subgroup_mma_constant_matrix"

    E: ClassVar = SameType("E", one_of(SI8, UI8, I32, F16, F32), _ELEMENT_MISMATCH)

    value = operand_def(E)
    res = result_def(MMAMatrixWithElement(E))

    traits = traits_def(Pure())

    assembly_format = "$value attr-dict `:` type($res)"

    def __init__(self, value: SSAValue | Operation, result_type: MMAMatrixType):
        super().__init__(operands=[value], result_types=[result_type])


@irdl_op_definition
class SubgroupMmaExtractThreadLocalOp(VerifiedOnEntrance, IRDLOperation):
    """``%v = gpu.subgroup_mma_extract_thread_local %m[%i] : !gpu.mma_matrix<...> ->
    f16``: one of the elements that this lane holds."""

    name = "gpu.subgroup_mma_extract_thread_local"

    E: ClassVar = SameType("E", IntegerOrFloat, _ELEMENT_MISMATCH)

    matrix = operand_def(MMAMatrixWithElement(E))
    indices = var_operand_def(VariadicIndex)
    res = result_def(E)

    traits = traits_def(Pure())

    assembly_format = (
        "$matrix `[` $indices `]` attr-dict `:` type($matrix) `->` type($res)"
    )

    def __init__(
        self, matrix: SSAValue | Operation, indices: Sequence[SSAValue | Operation]
    ):
        matrix = SSAValue.get(matrix)
        matrix_type = matrix.type
        assert isinstance(matrix_type, MMAMatrixType)
        super().__init__(
            operands=[matrix, indices], result_types=[matrix_type.element_type]
        )


@irdl_op_definition
class SubgroupMmaInsertThreadLocalOp(VerifiedOnEntrance, IRDLOperation):
    """``%r = gpu.subgroup_mma_insert_thread_local %v, %m[%i] : f16,
    !gpu.mma_matrix<...> -> !gpu.mma_matrix<...>``: replaces one of the elements that
    this lane holds."""

    name = "gpu.subgroup_mma_insert_thread_local"

    E: ClassVar = SameType("E", IntegerOrFloat, _ELEMENT_MISMATCH)

    value = operand_def(E)
    matrix = operand_def(MMAMatrixWithElement(E))
    indices = var_operand_def(VariadicIndex)
    res = result_def(AnyMMAMatrix)

    traits = traits_def(Pure())

    assembly_format = (
        "$value `,` $matrix `[` $indices `]` attr-dict `:` type($value) `,` "
        "type($matrix) `->` type($res)"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        matrix: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        result_type: MMAMatrixType | None = None,
    ):
        """The result has the type of ``matrix`` unless ``result_type`` is given."""
        matrix = SSAValue.get(matrix)
        super().__init__(
            operands=[value, matrix, indices],
            result_types=[matrix.type if result_type is None else result_type],
        )


class MMAElementwiseOp(StrEnum):
    """Elementwise operations of ``gpu.subgroup_mma_elementwise`` (upstream order)."""

    ADDF = "addf"
    MULF = "mulf"
    SUBF = "subf"
    MAXF = "maxf"
    MINF = "minf"
    DIVF = "divf"
    ADDI = "addi"
    MULI = "muli"
    SUBI = "subi"
    DIVS = "divs"
    DIVU = "divu"
    NEGATEF = "negatef"
    NEGATES = "negates"
    EXTF = "extf"


@irdl_attr_definition
class MMAElementwiseOpAttr(
    EnumAttribute[MMAElementwiseOp], SpacedOpaqueSyntaxAttribute
):
    """``#gpu<mma_element_wise addf>``."""

    name = "gpu.mma_element_wise"


@irdl_op_definition
class SubgroupMmaElementwiseOp(IRDLOperation):
    """``%r = gpu.subgroup_mma_elementwise addf %a, %b : (M, M) -> M``.

    Upstream's ``AllTypesMatch<["args"]>`` names one variadic operand and so checks
    nothing: ``mlir-opt`` 22 accepts arguments of different types, and so does this.
    """

    name = "gpu.subgroup_mma_elementwise"

    args = var_operand_def(
        TypeConstraint(
            "variadic of MMAMatrix type", lambda t: isinstance(t, MMAMatrixType)
        )
    )
    opType = prop_def(MMAElementwiseOpAttr)
    res = result_def(AnyMMAMatrix)

    traits = traits_def(Pure())

    assembly_format = "$opType $args attr-dict `:` functional-type($args, $res)"

    def __init__(
        self,
        op_type: MMAElementwiseOpAttr | MMAElementwiseOp | str,
        args: Sequence[SSAValue | Operation],
        result_type: MMAMatrixType | None = None,
    ):
        """The result has the type of the first argument unless ``result_type`` is
        given."""
        if result_type is None:
            first = SSAValue.get(args[0]).type
            assert isinstance(first, MMAMatrixType)
            result_type = first
        super().__init__(
            operands=[args],
            result_types=[result_type],
            properties={"opType": enum_attr(MMAElementwiseOpAttr, op_type)},
        )


OPERATIONS = (
    SubgroupMmaLoadMatrixOp,
    SubgroupMmaStoreMatrixOp,
    SubgroupMmaComputeOp,
    SubgroupMmaConstantMatrixOp,
    SubgroupMmaElementwiseOp,
    SubgroupMmaExtractThreadLocalOp,
    SubgroupMmaInsertThreadLocalOp,
)

ATTRIBUTES = (MMAElementwiseOpAttr,)

__all__ = [
    "ATTRIBUTES",
    "OPERATIONS",
    "MMAElementwiseOp",
    "MMAElementwiseOpAttr",
    "SubgroupMmaComputeOp",
    "SubgroupMmaConstantMatrixOp",
    "SubgroupMmaElementwiseOp",
    "SubgroupMmaExtractThreadLocalOp",
    "SubgroupMmaInsertThreadLocalOp",
    "SubgroupMmaLoadMatrixOp",
    "SubgroupMmaStoreMatrixOp",
    "is_last_dim_unit_stride",
]
