"""Python side of the memory and sparse ops: builders, the synchronous wait, the
``AsyncOpInterface`` helpers, and the invalid inputs checked against upstream."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from xdsl.dialects import test
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    UnrankedMemRefType,
    f32,
    f64,
    i32,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_result_def,
    region_def,
    var_operand_def,
)
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.utils.exceptions import VerifyException

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.gpu_dialect.gpu import GPU, memory_ops, sparse_ops
from xdsl_gpu.gpu_dialect.gpu.memory_ops import (
    AllocOp,
    AsyncOpInterface,
    DeallocOp,
    HostRegisterOp,
    HostUnregisterOp,
    MemcpyOp,
    MemsetOp,
    SetDefaultDeviceOp,
    WaitOp,
)
from xdsl_gpu.gpu_dialect.gpu.sparse_ops import (
    Create2To4SpMatOp,
    CreateBsrOp,
    CreateCooAoSOp,
    CreateCooOp,
    CreateCscOp,
    CreateCsrOp,
    CreateDnTensorOp,
    DestroyDnTensorOp,
    DestroySpMatOp,
    Prune2To4SpMatFlag,
    SDDMMBufferSizeOp,
    SDDMMOp,
    SetCsrPointersOp,
    SpGEMMCopyOp,
    SpGEMMCreateDescrOp,
    SpGEMMDestroyDescrOp,
    SpGEMMWorkEstimationOrComputeKind,
    SpGEMMWorkEstimationOrComputeOp,
    SpMatGetSizeOp,
    SpMMBufferSizeOp,
    SpMMOp,
    SpMVBufferSizeOp,
    SpMVOp,
    TransposeMode,
)
from xdsl_gpu.gpu_dialect.gpu.types import (
    AsyncTokenType,
    SparseDnTensorHandleType,
    SparseSpGEMMOpHandleType,
    SparseSpMatHandleType,
)

DYN = DYNAMIC_INDEX


def _values(*types) -> list[SSAValue]:
    return list(test.TestOp(result_types=types).results)


def _printed(*ops: Operation) -> list[str]:
    """The ops, in a function-less module with their operands defined, as text."""
    module = ModuleOp([])
    for op in ops:
        for operand in op.operands:
            if operand.owner.parent is None and isinstance(operand.owner, Operation):
                module.body.block.add_op(operand.owner)
        module.body.block.add_op(op)
    module.verify()
    text = print_module(module)
    # What we print, we parse back to the same text.
    assert print_module(parse(text)) == text
    return [line.strip() for line in text.splitlines()[1:-1]]


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------


def test_families_are_registered() -> None:
    for family in (memory_ops, sparse_ops):
        assert set(family.OPERATIONS) <= set(GPU.operations)
        assert set(family.ATTRIBUTES) <= set(GPU.attributes)


# ---------------------------------------------------------------------------
# Memory op builders
# ---------------------------------------------------------------------------


def test_alloc_builder() -> None:
    (sz,) = _values(IndexType())
    (dep,) = _values(AsyncTokenType())
    op = AllocOp(
        MemRefType(f32, [DYN, 64]),
        dynamic_sizes=[sz],
        async_dependencies=[dep],
        is_async=True,
        host_shared=True,
    )
    assert op.is_async
    assert op.memref.type == MemRefType(f32, [DYN, 64])
    assert op.results[-1] is op.async_token
    assert _printed(op)[-1] == (
        "%2, %3 = gpu.alloc async [%0] host_shared (%1) : memref<?x64xf32>"
    )


def test_alloc_builder_symbols() -> None:
    sz, off = _values(IndexType(), IndexType())
    layout = AffineMapAttr(
        AffineMap.from_callable(lambda d0, s0: (d0 + s0,), dim_symbol_split=(1, 1))
    )
    op = AllocOp(MemRefType(f32, [DYN], layout), dynamic_sizes=[sz], symbols=[off])
    assert not op.is_async
    assert op.async_token is None
    assert _printed(op)[-1].startswith("%2 = gpu.alloc (%0)[%1] : memref<?xf32,")


def test_alloc_verifier() -> None:
    (sz,) = _values(IndexType())
    with pytest.raises(VerifyException, match="has 0, expected 1"):
        AllocOp(MemRefType(f32, [DYN])).verify()
    with pytest.raises(VerifyException, match="symbol operand count"):
        AllocOp(MemRefType(f32, [4], StridedLayoutAttr([None])), symbols=[]).verify()
    AllocOp(MemRefType(f32, [4], StridedLayoutAttr([None])), symbols=[sz]).verify()


def test_memory_op_builders() -> None:
    m, u, v, i, dep = _values(
        MemRefType(f32, [4]), UnrankedMemRefType.from_type(f32), f32, i32,
        AsyncTokenType(),
    )  # fmt: skip
    copy = MemcpyOp(m, m, async_dependencies=[dep], is_async=True)
    ops = (
        DeallocOp(m),
        copy,
        MemsetOp(m, v, async_dependencies=[copy.async_token], is_async=True),
        HostRegisterOp(u),
        HostUnregisterOp(u),
        SetDefaultDeviceOp(i),
    )
    assert _printed(*ops)[-6:] == [
        "gpu.dealloc %0 : memref<4xf32>",
        "%5 = gpu.memcpy async [%4] %0, %0 : memref<4xf32>, memref<4xf32>",
        "%6 = gpu.memset async [%5] %0, %2 : memref<4xf32>, f32",
        "gpu.host_register %1 : memref<*xf32>",
        "gpu.host_unregister %1 : memref<*xf32>",
        "gpu.set_default_device %3",
    ]


# ---------------------------------------------------------------------------
# gpu.wait
# ---------------------------------------------------------------------------


def test_synchronous_wait_is_constructible() -> None:
    wait = WaitOp()
    assert not wait.is_async
    assert not wait.results
    assert not wait.operands
    assert _printed(wait) == ["gpu.wait"]


def test_wait_forms() -> None:
    start = WaitOp(is_async=True)
    merge = WaitOp([start, start.async_token], is_async=True)
    block_on = WaitOp(deps=[merge])
    assert merge.async_token is not None
    assert _printed(start, merge, block_on) == [
        "%0 = gpu.wait async",
        "%1 = gpu.wait async [%0, %0]",
        "gpu.wait [%1]",
    ]


# ---------------------------------------------------------------------------
# AsyncOpInterface helpers
# ---------------------------------------------------------------------------


def test_add_async_dependency_prepends_once() -> None:
    t0, t1 = WaitOp(is_async=True), WaitOp(is_async=True)
    (sz,) = _values(IndexType())
    alloc = AllocOp(
        MemRefType(f32, [DYN]), [sz], async_dependencies=[t0], is_async=True
    )
    alloc.add_async_dependency(t1)
    alloc.add_async_dependency(t1.async_token)
    alloc.add_async_dependency(t0)
    assert [d.owner for d in alloc.async_dependencies] == [t1, t0]
    assert alloc.dynamic_sizes == (sz,)
    assert tuple(alloc.properties["operandSegmentSizes"].get_values()) == (2, 1, 0)
    alloc.verify()


def test_set_async_dependencies() -> None:
    t0 = WaitOp(is_async=True)
    wait = WaitOp([t0])
    wait.set_async_dependencies([])
    assert wait.async_dependencies == ()
    assert not t0.async_token.uses


def test_make_async_of_sync_op() -> None:
    t0, t1 = WaitOp(is_async=True), WaitOp(is_async=True)
    (m,) = _values(MemRefType(f32, [4]))
    copy = MemcpyOp(m, m, async_dependencies=[t0])
    new = copy.make_async([t1, t0, t1])
    assert type(new) is MemcpyOp
    assert new is not copy
    assert new.is_async
    assert [d.owner for d in new.async_dependencies] == [t1, t0]
    assert (new.dst, new.src) == (m, m)
    # The original is left as it was, for the caller to replace.
    assert [d.owner for d in copy.async_dependencies] == [t0]
    new.verify()


def test_make_async_keeps_results_and_properties() -> None:
    spmat, dn = _values(SparseSpMatHandleType(), SparseDnTensorHandleType())
    op = SpMMBufferSizeOp(
        spmat, dn, dn, f64, num_buffer_sizes=3, mode_b=TransposeMode.TRANSPOSE
    )
    new = op.make_async()
    assert [r.type for r in new.results] == [IndexType()] * 3 + [AsyncTokenType()]
    assert new.async_token is new.results[-1]
    assert new.mode_b.data == TransposeMode.TRANSPOSE
    assert tuple(new.properties["resultSegmentSizes"].get_values()) == (3, 1)
    new.verify()


def test_make_async_of_async_op_is_in_place() -> None:
    t0 = WaitOp(is_async=True)
    wait = WaitOp(is_async=True)
    assert wait.make_async([t0]) is wait
    assert wait.async_dependencies == (t0.async_token,)


@irdl_op_definition
class _RegionAsyncOp(AsyncOpInterface, IRDLOperation):
    """A stand-in for an async op with a body (like ``gpu.launch``)."""

    name = "test.region_async"
    async_dependencies = var_operand_def(AsyncTokenType)
    body = region_def()
    async_token = opt_result_def(AsyncTokenType)


def test_make_async_moves_regions() -> None:
    inner = test.TestOp()
    op = _RegionAsyncOp.build(
        operands=[[]], result_types=[[]], regions=[Region(Block([inner]))]
    )
    new = op.make_async()
    assert new.is_async
    assert inner.parent_op() is new
    assert not op.body.blocks


# ---------------------------------------------------------------------------
# Sparse op builders
# ---------------------------------------------------------------------------


def test_sparse_builders_round_trip() -> None:
    n, idx, val, buf, dep = _values(
        IndexType(), MemRefType(IndexType(), [DYN]), MemRefType(f64, [DYN]),
        MemRefType(f32, [DYN]), AsyncTokenType(),
    )  # fmt: skip
    a = dict(async_dependencies=[dep], is_async=True)
    coo = CreateCooOp(n, n, n, idx, idx, val, **a)
    dnx = CreateDnTensorOp(val, [n], **a)
    dnm = CreateDnTensorOp(val, [n, n])
    desc = SpGEMMCreateDescrOp(**a)
    s, x, d = coo.spmat, dnx.dn_tensor, desc.desc
    t = TransposeMode.TRANSPOSE
    ops = [
        coo,
        CreateCooAoSOp(n, n, n, idx, val),
        CreateCsrOp(n, n, n, idx, idx, val, **a),
        CreateCscOp(n, n, n, idx, idx, val),
        CreateBsrOp(n, n, n, n, n, idx, idx, val, **a),
        Create2To4SpMatOp(n, n, val, prune_flag=Prune2To4SpMatFlag.NONE),
        dnx,
        dnm,
        SpMVBufferSizeOp(s, x, x, f32, mode_a=t),
        SpMVOp(s, x, x, buf, f32, **a),
        SpMMBufferSizeOp(s, dnm.dn_tensor, x, f32, num_buffer_sizes=3, mode_b=t),
        SpMMOp(s, x, x, [buf, buf], f32, mode_a=t, mode_b=t),
        SDDMMBufferSizeOp(x, x, s, f64, **a),
        SDDMMOp(x, x, s, buf, f64, mode_a=t),
        desc,
        SpGEMMWorkEstimationOrComputeOp(
            d, s, s, s, n, buf, f32, kind=SpGEMMWorkEstimationOrComputeKind.COMPUTE
        ),
        SpGEMMCopyOp(d, s, s, s, f32, mode_b=t),
        SpMatGetSizeOp(s, **a),
        SetCsrPointersOp(s, idx, idx, val),
        SpGEMMDestroyDescrOp(d, **a),
        DestroyDnTensorOp(x),
        DestroySpMatOp(s, **a),
    ]
    assert {type(op) for op in ops} == set(sparse_ops.OPERATIONS)
    lines = _printed(*ops)
    assert any("gpu.create_2to4_spmat {NONE}" in line for line in lines)
    assert "gpu.spmm %5{TRANSPOSE}, %14{TRANSPOSE}, %14, %3, %3 : " in lines[12]
    assert "{COMPUTE} %5, %5, %5, %24, %0, %3 : f32 into memref<?xf32>" in lines[16]
    assert lines[-1] == "%32 = gpu.destroy_sp_mat async [%4] %5"
    assert all(isinstance(op, AsyncOpInterface) for op in ops)
    assert desc.desc.type == SparseSpGEMMOpHandleType()


def test_sparse_defaults() -> None:
    n, val = _values(IndexType(), MemRefType(f64, [DYN]))
    op = Create2To4SpMatOp(n, n, val)
    assert op.prune_flag.data == Prune2To4SpMatFlag.PRUNE_AND_CHECK
    assert _printed(op)[-1].startswith("%2 = gpu.create_2to4_spmat {PRUNE_AND_CHECK}")
    spmat, dn = _values(SparseSpMatHandleType(), SparseDnTensorHandleType())
    spmv = SpMVBufferSizeOp(spmat, dn, dn, f32)
    assert spmv.mode_a.data == TransposeMode.NON_TRANSPOSE
    assert _printed(spmv)[-1] == "%2 = gpu.spmv_buffer_size %0, %1, %1 into f32"


# ---------------------------------------------------------------------------
# Upstream rejects what we reject
# ---------------------------------------------------------------------------

MLIR_OPT = shutil.which("mlir-opt-22")
INVALID = Path(__file__).parents[1] / "filecheck" / "dialects" / "gpu"


def _mlir_opt(text: str, *args: str) -> str:
    assert MLIR_OPT is not None
    done = subprocess.run(
        [MLIR_OPT, *args], input=text, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
def test_canonicalization_matches_upstream() -> None:
    text = (INVALID / "canonicalize_memory_ops.mlir").read_text()
    for chunk in text.split("// -----"):
        module = parse(chunk)
        CanonicalizePass().apply(make_context(), module)
        assert _mlir_opt(print_module(module)) == _mlir_opt(chunk, "--canonicalize")


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
@pytest.mark.parametrize("name", ["invalid_memory_ops.mlir", "invalid_sparse_ops.mlir"])
def test_upstream_rejects_every_invalid_chunk(name: str) -> None:
    assert MLIR_OPT is not None
    chunks = (INVALID / name).read_text().split("// -----")
    for chunk in chunks:
        done = subprocess.run(
            [MLIR_OPT], input=chunk, capture_output=True, text=True, timeout=60
        )
        assert done.returncode != 0, f"mlir-opt-22 accepts:\n{chunk}"
