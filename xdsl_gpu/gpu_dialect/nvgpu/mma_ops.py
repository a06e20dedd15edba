"""Warp-level matrix ops: ``ldmatrix``, ``mma.sync`` and ``mma.sp.sync``.

Printed forms (MLIR 22)::

    %f = nvgpu.ldmatrix %sm[%i, %j] {numTiles = 4 : i32, transpose = false}
        : memref<?x?xf16, 3> -> vector<4x2xf16>
    %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]}
        : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %d = nvgpu.mma.sp.sync(%a, %b, %c) metadata(%meta) {mmaShape = [16, 8, 32]}
        : (vector<4x2xf16>, vector<4x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>

Verifier messages are upstream's, word for word.
"""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
    VectorType,
    f32,
    f64,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvgpu.types import (
    SHARED_MEMORY_ADDRESS_SPACE,
    is_shared_memory_space,
)

WARP_SIZE = 32


def bitwidth(t: Attribute) -> int:
    """The width of a scalar integer or float type."""
    if isinstance(t, IntegerType):
        return t.width.data
    assert isinstance(t, AnyFloat)
    return t.bitwidth


def _non_zero_rank_vector(t: Attribute) -> bool:
    return isinstance(t, VectorType) and len(t.get_shape()) > 0


@irdl_op_definition
class LdMatrixOp(IRDLOperation):
    """``nvgpu.ldmatrix``: load ``numTiles`` 8x8 matrix fragments from shared memory
    into registers (``vector<numTiles x (32 / width) x T>``); lowered to
    ``nvvm.ldmatrix``."""

    name = "nvgpu.ldmatrix"

    src_memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    res = result_def(VectorType)
    transpose = prop_def(BoolAttr)
    num_tiles = prop_def(IntegerAttr[I32], prop_name="numTiles")

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$src_memref `[` $indices `]` attr-dict `:` type($src_memref) `->` type($res)"
    )

    def __init__(
        self,
        src_memref: SSAValue | Operation,
        indices: list[SSAValue | Operation],
        result_type: VectorType,
        num_tiles: int,
        transpose: bool = False,
    ):
        super().__init__(
            operands=[src_memref, indices],
            result_types=[result_type],
            properties={
                "transpose": IntegerAttr.from_bool(transpose),
                "numTiles": IntegerAttr(num_tiles, i32),
            },
        )

    def verify_(self) -> None:
        src = self.src_memref.type
        res = self.res.type
        assert isinstance(src, MemRefType)
        assert isinstance(res, VectorType)
        if src.element_type != res.element_type:
            raise VerifyException(
                f"'{self.name}' op failed to verify that srcMemref and res have same "
                "element type"
            )
        if not is_shared_memory_space(src.memory_space):
            raise VerifyException(
                "expected nvgpu.ldmatrix srcMemref must have a memory space attribute "
                f"of IntegerAttr({SHARED_MEMORY_ADDRESS_SPACE}) or "
                "gpu::AddressSpaceAttr(Workgroup)"
            )
        width = bitwidth(res.element_type)
        if width > 32:
            raise VerifyException("nvgpu.ldmatrix works for 32b or lower")
        if self.transpose.value.data and width != 16:
            raise VerifyException(
                "nvgpu.ldmatrix transpose works only at 16b granularity"
            )
        shape = res.get_shape()
        if len(shape) != 2:
            raise VerifyException("results must be 2 dimensional vector")
        if shape[1] != 32 // width:
            raise VerifyException(f"expected vector register shape[1] = {32 // width}")
        if shape[0] != self.num_tiles.value.data:
            raise VerifyException(
                "expected vector register shape[0] and numTiles to match"
            )


_MMA_TYPES = "(i4,i8,f16,bf16,tf32,f64)"


def verify_mma_sync(
    op: MmaSyncBase, shape: tuple[int, int, int], sparse: bool = False
) -> None:
    """Upstream's ``verifyMmaSyncOp``: the operand vectors hold each thread's share
    of the warp-wide ``m x k``, ``k x n`` and ``m x n`` matrices, in 32-bit rows
    (64-bit for f64) of 8x8 tiles."""
    a, b, c = (v.type for v in (op.matrix_a, op.matrix_b, op.matrix_c))
    assert isinstance(a, VectorType)
    assert isinstance(b, VectorType)
    assert isinstance(c, VectorType)
    element = a.element_type
    if sparse and element == f64:
        raise VerifyException("f64 is not supported for sparse mode")
    if element == f64:
        shape_k, per_row_a, per_row_b = 4, 1, 1
    elif element.name in ("f32", "bf16", "f16") or (
        isinstance(element, IntegerType) and element.width.data in (4, 8)
    ):
        width = bitwidth(element)
        shape_k, per_row_a, per_row_b = 128 // width, 32 // width, 32 // width
    else:
        raise VerifyException(
            f"expected input data type {_MMA_TYPES} supported by {op.name}"
        )
    for label, t in (("A", a), ("B", b), ("C", c)):
        if len(t.get_shape()) != 2:
            raise VerifyException(f"matrix{label} must be 2 dimensional vector")
    a_shape, b_shape, c_shape = a.get_shape(), b.get_shape(), c.get_shape()
    m, n, k = shape
    factor = 2 if sparse else 1
    prefix = f"'{op.name}' op "
    if a_shape[0] * a_shape[1] * WARP_SIZE != m * k // factor:
        raise VerifyException(f"{prefix}expected {m * k} warp-wide matrix A elements")
    if b_shape[0] * b_shape[1] * WARP_SIZE != k * n:
        raise VerifyException(f"{prefix}expected {k * n} warp-wide matrix B elements")
    if c_shape[0] * c_shape[1] * WARP_SIZE != m * n:
        raise VerifyException(f"{prefix}expected {m * n} warp-wide matrix C elements")
    if op.tf32_enabled is not None and element != f32:
        raise VerifyException(
            f"{prefix}expected tf32 tensor cores only for F32 operands"
        )
    m_tile, n_tile, k_tile = m // 8, n // 8, k // shape_k
    if a_shape[0] != m_tile * k_tile // factor or a_shape[1] != per_row_a:
        raise VerifyException(
            f"{prefix}expected matrix A to be shaped ({m_tile * k_tile} x {per_row_a})"
        )
    if b_shape[0] != k_tile * n_tile or b_shape[1] != per_row_b:
        raise VerifyException(
            f"{prefix}expected matrix B to be shaped ({k_tile * n_tile} x {per_row_b})"
        )
    if c_shape[0] != m_tile * n_tile or c_shape[1] != 2:
        raise VerifyException(
            f"{prefix}expected matrix C to be shaped ({m_tile * n_tile} x 2)"
        )


class MmaSyncBase(IRDLOperation, ABC):
    """What ``mma.sync`` and ``mma.sp.sync`` share: three vector operands, the
    warp-wide ``mmaShape = [m, n, k]`` and the ``tf32Enabled`` flag."""

    SPARSE: ClassVar[bool] = False

    matrix_a = operand_def(VectorType)
    matrix_b = operand_def(VectorType)
    matrix_c = operand_def(VectorType)
    res = result_def(VectorType)
    mma_shape = prop_def(ArrayAttr[IntegerAttr], prop_name="mmaShape")
    tf32_enabled = opt_prop_def(UnitAttr, prop_name="tf32Enabled")

    irdl_options = (ParsePropInAttrDict(),)

    @property
    def shape(self) -> tuple[int, int, int]:
        m, n, k = (a.value.data for a in self.mma_shape.data)
        return (m, n, k)

    def verify_(self) -> None:
        for value in (self.matrix_a, self.matrix_b, self.matrix_c, self.res):
            if not _non_zero_rank_vector(value.type):
                raise VerifyException(
                    f"'{self.name}' op operand must be vector of any type values, but "
                    f"got {value.type}"
                )
        a, b = self.matrix_a.type, self.matrix_b.type
        assert isinstance(a, VectorType)
        assert isinstance(b, VectorType)
        if a.element_type != b.element_type:
            raise VerifyException(
                f"'{self.name}' op failed to verify that matrixA and matrixB have "
                "same element type"
            )
        if len(self.mma_shape.data) != 3:
            raise VerifyException(f"'{self.name}' op mmaShape must have 3 elements")
        verify_mma_sync(self, self.shape, self.SPARSE)


def _shape_attr(shape: tuple[int, int, int] | list[int]) -> ArrayAttr[IntegerAttr]:
    return ArrayAttr([IntegerAttr(d, i64) for d in shape])


@irdl_op_definition
class MmaSyncOp(MmaSyncBase):
    """``nvgpu.mma.sync``: warp-level ``D = A * B + C`` on register fragments;
    lowered to ``nvvm.mma.sync``."""

    name = "nvgpu.mma.sync"

    assembly_format = (
        "`(` $matrix_a `,` $matrix_b `,` $matrix_c `)` attr-dict `:` "
        "`(` type($matrix_a) `,` type($matrix_b) `,` type($matrix_c) `)` "
        "`->` type($res)"
    )

    def __init__(
        self,
        matrix_a: SSAValue | Operation,
        matrix_b: SSAValue | Operation,
        matrix_c: SSAValue | Operation,
        mma_shape: tuple[int, int, int] | list[int],
        tf32_enabled: bool = False,
    ):
        properties: dict[str, Attribute] = {"mmaShape": _shape_attr(mma_shape)}
        if tf32_enabled:
            properties["tf32Enabled"] = UnitAttr()
        super().__init__(
            operands=[matrix_a, matrix_b, matrix_c],
            result_types=[SSAValue.get(matrix_c).type],
            properties=properties,
        )


_METADATA_TYPE = VectorType(i16, [2])


@irdl_op_definition
class MmaSparseSyncOp(MmaSyncBase):
    """``nvgpu.mma.sp.sync``: ``mma.sync`` with a 2:4 structured-sparse ``A``, its
    indices in ``sparseMetadata`` (``vector<2xi16>``), selected by
    ``sparsitySelector`` (0 or 1)."""

    name = "nvgpu.mma.sp.sync"
    SPARSE: ClassVar[bool] = True

    # Declared again so that the metadata comes after them, as upstream.
    matrix_a = operand_def(VectorType)
    matrix_b = operand_def(VectorType)
    matrix_c = operand_def(VectorType)
    res = result_def(VectorType)
    sparse_metadata = operand_def(_METADATA_TYPE)
    sparsity_selector = prop_def(
        IntegerAttr[I32],
        default_value=IntegerAttr(0, i32),
        prop_name="sparsitySelector",
    )

    assembly_format = (
        "`(` $matrix_a `,` $matrix_b `,` $matrix_c `)` "
        "`metadata` `(` $sparse_metadata `)` attr-dict `:` "
        "`(` type($matrix_a) `,` type($matrix_b) `,` type($matrix_c) `)` "
        "`->` type($res)"
    )

    def __init__(
        self,
        matrix_a: SSAValue | Operation,
        matrix_b: SSAValue | Operation,
        matrix_c: SSAValue | Operation,
        sparse_metadata: SSAValue | Operation,
        mma_shape: tuple[int, int, int] | list[int],
        sparsity_selector: int = 0,
        tf32_enabled: bool = False,
    ):
        properties: dict[str, Attribute] = {
            "mmaShape": _shape_attr(mma_shape),
            "sparsitySelector": IntegerAttr(sparsity_selector, i32),
        }
        if tf32_enabled:
            properties["tf32Enabled"] = UnitAttr()
        super().__init__(
            operands=[matrix_a, matrix_b, matrix_c, sparse_metadata],
            result_types=[SSAValue.get(matrix_c).type],
            properties=properties,
        )

    def verify_(self) -> None:
        if self.sparsity_selector.value.data > 1:
            raise VerifyException(
                f"'{self.name}' op sparsity selector should be 0 or 1"
            )
        super().verify_()


OPERATIONS: tuple[type[Operation], ...] = (LdMatrixOp, MmaSyncOp, MmaSparseSyncOp)

__all__ = [
    "WARP_SIZE",
    "LdMatrixOp",
    "MmaSparseSyncOp",
    "MmaSyncBase",
    "MmaSyncOp",
    "bitwidth",
    "verify_mma_sync",
]
