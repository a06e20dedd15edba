"""Python side of the in-kernel compute ops: builders, default result names, and the
verifier rules that a file cannot reach (an op outside any symbol table)."""

from __future__ import annotations

import re

import pytest
from xdsl.dialects import arith, test
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    VectorType,
    f32,
    f64,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import VerifyException

from tests.support.builders import printed, values
from tests.support.xdsl_tools import parse, print_module
from xdsl_gpu.gpu_dialect.gpu import GPU, compute_ops
from xdsl_gpu.gpu_dialect.gpu.attributes import AddressSpaceAttr
from xdsl_gpu.gpu_dialect.gpu.compute_ops import (
    AllReduceOp,
    AllReduceOperation,
    AllReduceOperationAttr,
    BarrierOp,
    BlockDimOp,
    BlockIdOp,
    BroadcastType,
    BroadcastTypeAttr,
    ClusterBlockIdOp,
    ClusterDimBlocksOp,
    ClusterDimOp,
    ClusterIdOp,
    Dimension,
    DimensionAttr,
    DynamicSharedMemoryOp,
    GlobalIdOp,
    GridDimOp,
    LaneIdOp,
    NumSubgroupsOp,
    PrintfOp,
    RotateOp,
    ShuffleMode,
    ShuffleModeAttr,
    ShuffleOp,
    SubgroupBroadcastOp,
    SubgroupIdOp,
    SubgroupReduceOp,
    SubgroupSizeOp,
    ThreadIdOp,
    WarpExecuteOnLane0Op,
    YieldOp,
)


def test_every_op_and_attribute_is_in_the_dialect() -> None:
    assert set(compute_ops.OPERATIONS) <= set(GPU.operations)
    assert set(compute_ops.ATTRIBUTES) <= set(GPU.attributes)


INDEX_OPS = (
    ThreadIdOp,
    BlockIdOp,
    BlockDimOp,
    GridDimOp,
    GlobalIdOp,
    ClusterIdOp,
    ClusterDimOp,
    ClusterBlockIdOp,
    ClusterDimBlocksOp,
)


@pytest.mark.parametrize("op_type", INDEX_OPS, ids=lambda t: t.name)
def test_index_op_builders(op_type: type[ThreadIdOp]) -> None:
    op = op_type("y")
    assert op.dimension == DimensionAttr(Dimension.Y)
    assert op.upper_bound is None
    assert op.result.type == IndexType()
    mnemonic = op_type.name.removeprefix("gpu.")
    assert f"%{mnemonic}_y = gpu.{mnemonic} y\n" in printed(op)

    bounded = op_type(Dimension.Z, upper_bound=64)
    assert bounded.upper_bound == IntegerAttr(64, IndexType())
    assert f"%{mnemonic}_z = gpu.{mnemonic} z upper_bound 64\n" in printed(bounded)


def test_index_op_result_names_follow_mlir_opt() -> None:
    text = printed(
        ThreadIdOp("x"), ThreadIdOp("x"), ThreadIdOp(DimensionAttr(Dimension.Z))
    )
    assert "%thread_id_x = gpu.thread_id x\n" in text
    assert "%thread_id_x_1 = gpu.thread_id x\n" in text
    assert "%thread_id_z = gpu.thread_id z\n" in text
    # A name from the input wins; a number does not.
    reparsed = print_module(parse("%tid = gpu.block_id x\n%0 = gpu.block_id y\n"))
    assert "%tid = gpu.block_id x" in reparsed
    assert "%block_id_y = gpu.block_id y" in reparsed
    generic = print_module(
        parse('%0 = "gpu.grid_dim"() <{dimension = #gpu<dim z>}> : () -> index')
    )
    assert "%grid_dim_z = gpu.grid_dim z" in generic


def test_index_op_rejects_a_bad_dimension() -> None:
    with pytest.raises(ValueError, match="w"):
        ThreadIdOp("w")


def test_subgroup_query_builders() -> None:
    text = printed(
        LaneIdOp(),
        LaneIdOp(upper_bound=32),
        SubgroupIdOp(),
        NumSubgroupsOp(upper_bound=IntegerAttr(4, IndexType())),
        SubgroupSizeOp(64),
    )
    assert "%0 = gpu.lane_id\n" in text
    assert "%1 = gpu.lane_id upper_bound 32\n" in text
    assert "%2 = gpu.subgroup_id : index\n" in text
    assert "%3 = gpu.num_subgroups upper_bound 4 : index\n" in text
    assert "%4 = gpu.subgroup_size upper_bound 64 : index\n" in text


def test_printf_builder() -> None:
    producer, (i, f, x) = values(i32, f32, IndexType())
    text = printed(producer, PrintfOp("tid %d\n"), PrintfOp("%d %f %lld\n", [i, f, x]))
    assert 'gpu.printf "tid %d\\0A"\n' in text
    assert 'gpu.printf "%d %f %lld\\0A", %0, %1, %2 : i32, f32, index\n' in text


def test_printf_rejects_a_vector() -> None:
    _, (v,) = values(VectorType(f32, [2]))
    op = PrintfOp("%f", [v])
    with pytest.raises(
        VerifyException,
        match="must be variadic of integer or index or floating-point, "
        "but got 'vector<2xf32>'",
    ):
        op.verify()


def test_shuffle_builder() -> None:
    producer, (value, offset, width) = values(f32, i32, i32)
    op = ShuffleOp(value, offset, width, "xor")
    assert op.mode == ShuffleModeAttr(ShuffleMode.XOR)
    assert op.shuffleResult.type == f32
    assert op.valid.type == i1
    text = printed(producer, op, ShuffleOp(value, offset, width, ShuffleMode.IDX))
    assert "%shuffleResult, %valid = gpu.shuffle xor %0, %1, %2 : f32\n" in text
    assert "%shuffleResult_1, %valid_1 = gpu.shuffle idx %0, %1, %2 : f32\n" in text


def test_rotate_builder() -> None:
    producer, (value,) = values(VectorType(i32, [4]))
    op = RotateOp(value, 1, 32)
    assert op.offset == IntegerAttr(1, 32)
    assert op.rotateResult.type == VectorType(i32, [4])
    text = printed(producer, op)
    assert "%rotateResult, %valid = gpu.rotate %0, 1, 32 : vector<4xi32>\n" in text


@pytest.mark.parametrize(
    ("offset", "width", "message"),
    [
        (16, 16, r"'gpu.rotate' op offset must be in the range \[0, 16\)"),
        (-1, 16, "attribute 'offset' failed to satisfy constraint"),
        (1, 24, "attribute 'width' failed to satisfy constraint"),
    ],
)
def test_rotate_bounds(offset: int, width: int, message: str) -> None:
    _, (value,) = values(f32)
    with pytest.raises(VerifyException, match=message):
        RotateOp(value, offset, width).verify()


def test_subgroup_broadcast_builder() -> None:
    producer, (value, lane) = values(f64, i32)
    first = SubgroupBroadcastOp(value, "first_active_lane")
    specific = SubgroupBroadcastOp(value, BroadcastType.SPECIFIC_LANE, lane)
    assert specific.broadcast_type == BroadcastTypeAttr(BroadcastType.SPECIFIC_LANE)
    assert specific.result.type == f64
    text = printed(producer, first, specific)
    assert "%2 = gpu.subgroup_broadcast %0, first_active_lane : f64\n" in text
    assert "%3 = gpu.subgroup_broadcast %0, specific_lane %1 : f64\n" in text
    with pytest.raises(VerifyException, match="lane must be specified"):
        SubgroupBroadcastOp(value, "specific_lane").verify()


def test_barrier_and_yield_builders() -> None:
    producer, (value,) = values(f32)
    text = printed(producer, BarrierOp())
    assert "  gpu.barrier\n" in text
    assert YieldOp(value).values[0] is value
    assert len(YieldOp().values) == 0


def test_all_reduce_op_form() -> None:
    producer, (value,) = values(f32)
    op = AllReduceOp(value, "maxnumf", uniform=True)
    assert op.op == AllReduceOperationAttr(AllReduceOperation.MAXNUMF)
    text = printed(producer, op)
    assert "%1 = gpu.all_reduce maxnumf %0 uniform {\n  } : (f32) -> f32\n" in text


def test_all_reduce_region_form() -> None:
    producer, (value,) = values(i64)
    body = Block(arg_types=[i64, i64])
    with_sum = arith.AddiOp(body.args[0], body.args[1])
    body.add_ops([with_sum, YieldOp(with_sum)])
    op = AllReduceOp(value, body=Region(body))
    assert op.op is None
    text = printed(producer, op)
    assert "%1 = gpu.all_reduce %0 {\n" in text
    assert "gpu.yield %4 : i64" in text


def test_all_reduce_checks_the_kind_against_the_type() -> None:
    _, (value,) = values(f32)
    with pytest.raises(
        VerifyException,
        match="`xor` reduction operation is not compatible with type 'f32'",
    ):
        AllReduceOp(value, AllReduceOperation.XOR).verify()
    with pytest.raises(VerifyException, match="expected either an op attribute"):
        AllReduceOp(value).verify()


def test_subgroup_reduce_builder() -> None:
    producer, (value,) = values(VectorType(f32, [4]))
    plain = SubgroupReduceOp(value, "add")
    clustered = SubgroupReduceOp(
        value,
        AllReduceOperation.MINIMUMF,
        uniform=True,
        cluster_size=8,
        cluster_stride=2,
    )
    assert plain.cluster_size is None
    assert plain.cluster_stride == IntegerAttr(1, 32)
    text = printed(producer, plain, clustered)
    assert "gpu.subgroup_reduce add %0 : (vector<4xf32>) -> vector<4xf32>\n" in text
    assert (
        "gpu.subgroup_reduce minimumf %0 uniform cluster(size = 8, stride = 2) : "
        "(vector<4xf32>) -> vector<4xf32>\n"
    ) in text
    with pytest.raises(VerifyException, match="cluster stride can only be specified"):
        SubgroupReduceOp(value, "add", cluster_stride=4).verify()


def test_warp_execute_on_lane_0_builder() -> None:
    producer, (laneid, distributed) = values(IndexType(), VectorType(f32, [2]))
    op = WarpExecuteOnLane0Op(
        [VectorType(f32, [1])],
        laneid,
        32,
        args=[distributed],
        block_arg_types=[VectorType(f32, [64])],
    )
    (expanded,) = op.warpRegion.block.args
    assert expanded.type == VectorType(f32, [64])
    constant = test.TestOp(result_types=[VectorType(f32, [32])])
    op.warpRegion.block.add_ops([constant, YieldOp(constant)])
    assert op.terminator.values[0] is constant.results[0]
    text = printed(producer, op)
    assert (
        "%2 = gpu.warp_execute_on_lane_0(%0)[32] args(%1 : vector<2xf32>) -> "
        "(vector<1xf32>) {\n"
    ) in text
    assert "  ^bb0(%3: vector<64xf32>):\n" in text


def test_warp_execute_on_lane_0_checks_the_distribution() -> None:
    _, (laneid, distributed) = values(IndexType(), VectorType(f32, [2]))
    op = WarpExecuteOnLane0Op(
        [], laneid, 32, args=[distributed], block_arg_types=[VectorType(f32, [32])]
    )
    op.warpRegion.block.add_op(YieldOp())
    with pytest.raises(
        VerifyException,
        match="incompatible distribution dimensions from 'vector<32xf32>' to "
        "'vector<2xf32>' with warp size = 32",
    ):
        op.verify()


def workgroup_bytes() -> MemRefType:
    return MemRefType(i8, [DYNAMIC_INDEX], memory_space=AddressSpaceAttr("workgroup"))


def test_dynamic_shared_memory_builder() -> None:
    assert DynamicSharedMemoryOp().resultMemref.type == workgroup_bytes()
    text = printed(DynamicSharedMemoryOp(workgroup_bytes()))
    assert (
        "%0 = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>"
    ) in text


def test_dynamic_shared_memory_needs_a_symbol_table() -> None:
    # Not reachable from a file: xdsl-opt always wraps the input in a module.
    op = DynamicSharedMemoryOp(workgroup_bytes())
    outer = test.TestOp(regions=[Region(Block([op, test.TestTermOp()]))])
    with pytest.raises(
        VerifyException,
        match=re.escape(
            "'gpu.dynamic_shared_memory' op must be inside an op with symbol table"
        ),
    ):
        outer.verify()
    ModuleOp([outer]).verify()
