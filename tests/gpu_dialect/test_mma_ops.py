"""Python side of the subgroup MMA ops: builders and the unit-stride rule of the
memrefs they load from and store to."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
    f16,
    f32,
)
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from tests.support.builders import printed, values
from tests.support.xdsl_tools import make_context
from xdsl_gpu.gpu_dialect.gpu import GPU, mma_ops
from xdsl_gpu.gpu_dialect.gpu.mma_ops import (
    MMAElementwiseOp,
    MMAElementwiseOpAttr,
    SubgroupMmaComputeOp,
    SubgroupMmaConstantMatrixOp,
    SubgroupMmaElementwiseOp,
    SubgroupMmaExtractThreadLocalOp,
    SubgroupMmaInsertThreadLocalOp,
    SubgroupMmaLoadMatrixOp,
    SubgroupMmaStoreMatrixOp,
    is_last_dim_unit_stride,
)
from xdsl_gpu.gpu_dialect.gpu.types import MMAMatrixType

A = MMAMatrixType([16, 16], f16, "AOp")
B = MMAMatrixType([16, 16], f16, "BOp")
C = MMAMatrixType([16, 16], f32, "COp")


def test_every_op_and_attribute_is_in_the_dialect() -> None:
    assert set(mma_ops.OPERATIONS) <= set(GPU.operations)
    assert set(mma_ops.ATTRIBUTES) <= set(GPU.attributes)


def test_load_compute_store_builders() -> None:
    producer, (a_mem, c_mem, i) = values(
        MemRefType(f16, [32, 32]), MemRefType(f32, [32, 32]), IndexType()
    )
    load_a = SubgroupMmaLoadMatrixOp(a_mem, [i, i], 32, A)
    load_b = SubgroupMmaLoadMatrixOp(a_mem, [i, i], 32, B, transpose=True)
    load_c = SubgroupMmaLoadMatrixOp(c_mem, [i, i], IntegerAttr(32, IndexType()), C)
    compute = SubgroupMmaComputeOp(load_a, load_b, load_c, b_transpose=True)
    store = SubgroupMmaStoreMatrixOp(compute, c_mem, [i, i], 32)
    assert compute.res.type == C
    assert load_a.leadDimension == IntegerAttr(32, IndexType())
    text = printed(producer, load_a, load_b, load_c, compute, store)
    assert (
        "%3 = gpu.subgroup_mma_load_matrix %0[%2, %2] {leadDimension = 32 : index} "
        ': memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">\n'
    ) in text
    assert "{leadDimension = 32 : index, transpose}" in text
    assert (
        "%6 = gpu.subgroup_mma_compute %3, %4, %5 {b_transpose} : "
        '!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> '
        '!gpu.mma_matrix<16x16xf32, "COp">\n'
    ) in text
    assert (
        "gpu.subgroup_mma_store_matrix %6, %1[%2, %2] {leadDimension = 32 : index} : "
        '!gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32>\n'
    ) in text


def test_compute_checks_operand_order_and_shapes() -> None:
    _, (a, b, c) = values(A, B, C)
    with pytest.raises(VerifyException, match="operands must be in the order"):
        SubgroupMmaComputeOp(b, a, c).verify()
    _, (a, b, c) = values(MMAMatrixType([16, 8], f16, "AOp"), B, C)
    with pytest.raises(VerifyException, match="do not satisfy matmul constraints"):
        SubgroupMmaComputeOp(a, b, c).verify()


def test_constant_elementwise_and_thread_local_builders() -> None:
    producer, (scalar, i) = values(f32, IndexType())
    constant = SubgroupMmaConstantMatrixOp(scalar, C)
    scaled = SubgroupMmaElementwiseOp("mulf", [constant, constant])
    negated = SubgroupMmaElementwiseOp(MMAElementwiseOp.NEGATEF, [scaled])
    extracted = SubgroupMmaExtractThreadLocalOp(negated, [i])
    inserted = SubgroupMmaInsertThreadLocalOp(extracted, negated, [i])
    assert scaled.opType == MMAElementwiseOpAttr(MMAElementwiseOp.MULF)
    assert scaled.res.type == C
    assert extracted.res.type == f32
    assert inserted.res.type == C
    text = printed(producer, constant, scaled, negated, extracted, inserted)
    assert (
        '%2 = gpu.subgroup_mma_constant_matrix %0 : !gpu.mma_matrix<16x16xf32, "COp">\n'
        in text
    )
    assert "%3 = gpu.subgroup_mma_elementwise mulf %2, %2 : (" in text
    assert "%4 = gpu.subgroup_mma_elementwise negatef %3 : (" in text
    assert (
        "%5 = gpu.subgroup_mma_extract_thread_local %4[%1] : "
        '!gpu.mma_matrix<16x16xf32, "COp"> -> f32\n'
    ) in text
    assert "%6 = gpu.subgroup_mma_insert_thread_local %5, %4[%1] : f32, " in text


def test_elementwise_extf_takes_a_result_type() -> None:
    producer, (half,) = values(MMAMatrixType([16, 16], f16, "COp"))
    op = SubgroupMmaElementwiseOp("extf", [half], result_type=C)
    assert op.res.type == C
    assert "gpu.subgroup_mma_elementwise extf %0 : (" in printed(producer, op)


def test_constant_needs_the_element_type() -> None:
    _, (scalar,) = values(f16)
    with pytest.raises(
        VerifyException,
        match="failed to verify that value type matches element type of mma_matrix",
    ):
        SubgroupMmaConstantMatrixOp(scalar, C).verify()


def memref_type(text: str) -> MemRefType:
    parsed = Parser(make_context(), text).parse_type()
    assert isinstance(parsed, MemRefType)
    return parsed


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("memref<32x32xf16>", True),
        ("memref<f16>", True),
        ("memref<?x?xf16>", True),
        ("memref<16x32xf16, strided<[64, 1], offset: ?>>", True),
        ("memref<32x32xf16, strided<[1, 32]>>", False),
        ("memref<32x32xf16, strided<[32, ?]>>", False),
        ("memref<32x32xf16, affine_map<(d0, d1) -> (d0 * 64 + d1)>>", True),
        ("memref<32x32xf16, affine_map<(d0, d1) -> (d1 * 2 + d0 * 64 - d1)>>", True),
        ("memref<32x32xf16, affine_map<(d0, d1) -> (d0, d1)>>", True),
        ("memref<32x32xf16, affine_map<(d0, d1) -> (d1, d0)>>", False),
        ("memref<32x32xf16, affine_map<(d0, d1) -> (d0 * 32 + d1 * 2)>>", False),
        ("memref<32x32xf16, affine_map<(d0, d1) -> (d0 * 32 + d1 floordiv 2)>>", False),
        ("memref<4x4xf16, affine_map<(d0, d1)[s0, s1] -> (d0 * s0 + d1 + s1)>>", True),
        ("memref<4x4xf16, affine_map<(d0, d1)[s0] -> (d1 * s0 + d0)>>", False),
    ],
)
def test_last_dim_unit_stride(text: str, unit: bool) -> None:
    """As ``MemRefType::isLastDimUnitStride``; each case was checked with the
    verifier of ``gpu.subgroup_mma_load_matrix`` in mlir-opt-22."""
    assert is_last_dim_unit_stride(memref_type(text)) is unit
