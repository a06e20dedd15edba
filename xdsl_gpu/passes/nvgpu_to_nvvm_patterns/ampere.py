"""The sm_80 ops of ``nvgpu``: ``mma.sync``, ``mma.sp.sync``, ``ldmatrix``, the
``device_async_*`` copies and ``rcp`` (upstream: ``NVGPUToNVVM.cpp``, MLIR 22).

The register fragments of ``mma.sync`` are 2-D vectors, ``vector<R x C x T>``, whose
rows are 32-bit registers (64-bit for f64); converted, a fragment is
``!llvm.array<R x vector<C x T>>``. The NVVM ops take the registers one by one, as
the PTX instruction does:

* ``vector<4xi8>``, ``vector<8xi4>`` and (tf32) ``vector<1xf32>`` rows are bitcast to
  ``i32``;
* ``i32``, ``f32`` and ``f64`` rows are split into their elements;
* ``vector<2xf16>`` rows are passed as they are.

The result comes back as a struct (of ``vector<2xf16>``, or of scalars that are packed
again in pairs) and is rebuilt into the array. Every op is built in upstream's order,
so the output reads as ``mlir-opt-22 --convert-nvgpu-to-nvvm`` writes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    MemRefType,
    VectorType,
    f16,
    f32,
    f64,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xdsl_gpu.gpu_dialect import llvm, nvgpu, nvvm
from xdsl_gpu.gpu_dialect.nvvm.mma_attrs import (
    LdStMatrixEltType,
    LdStMatrixEltTypeAttr,
    LdStMatrixShapeAttr,
    LoadCacheModifier,
    MMAIntOverflow,
    MMAIntOverflowAttr,
    MMALayout,
    MMALayoutAttr,
    MMATypes,
)
from xdsl_gpu.gpu_dialect.nvvm.mma_ops import infer_mma_type
from xdsl_gpu.passes.llvm_type_converter import (
    extract,
    insert,
    replace_op,
    unroll_nd_vector,
)
from xdsl_gpu.passes.memref_descriptor import ptr_type
from xdsl_gpu.passes.nvgpu_to_nvvm_patterns.common import (
    NVGPULowering,
    TypeConversion,
    convert_async_token,
    lowering_error,
)

TYPE_CONVERSIONS: tuple[TypeConversion, ...] = (convert_async_token,)

GLOBAL_ADDRESS_SPACE = 1
"""NVVM's global address space: ``cp.async`` reads through a global pointer."""

_I8X4 = VectorType(i8, [4])
_I4X8 = VectorType(IntegerType(4), [8])
_F16X2 = VectorType(f16, [2])
_F32X1 = VectorType(f32, [1])
_PACKED_ROWS = (VectorType(i32, [2]), VectorType(f64, [2]), VectorType(f32, [2]))
"""Accumulator rows that the intrinsic returns as two scalars each."""


# -- small builders ------------------------------------------------------------------


def _constant(rewriter: PatternRewriter, value: int, t: IntegerType) -> SSAValue:
    return rewriter.insert(llvm.ConstantOp(IntegerAttr(value, t), t)).results[0]


def _extract(rewriter: PatternRewriter, container: SSAValue, i: int) -> SSAValue:
    return rewriter.insert(extract(container, i)).results[0]


def _adaptor(
    lowering: NVGPULowering, op: Operation, rewriter: PatternRewriter
) -> list[SSAValue]:
    """Every operand of ``op`` as a value of its converted type, converted in
    operand order before anything is built (upstream's adaptor)."""
    return [lowering.llvm_value(o, rewriter, op) for o in op.operands]


# -- mma.sync and mma.sp.sync --------------------------------------------------------


def multiplicand_ptx_type(t: Attribute) -> MMATypes | None:
    """The PTX type of an A or B fragment's elements (upstream's
    ``getNvvmMmaType``): f32 is multiplied as tf32."""
    assert isinstance(t, VectorType)
    element = t.element_type
    if element == i8:
        return MMATypes.S8
    if element == IntegerType(4):
        return MMATypes.S4
    if element == f16:
        return MMATypes.F16
    if isinstance(element, Float64Type):
        return MMATypes.F64
    if isinstance(element, Float32Type):
        return MMATypes.TF32
    return None


def unpack_fragment(
    rewriter: PatternRewriter, fragment: SSAValue, ptx_type: MMATypes
) -> list[SSAValue]:
    """The registers of a converted fragment (``!llvm.array<R x vector<C x T>>``),
    as the NVVM op takes them (module docstring)."""
    array = fragment.type
    assert isinstance(array, llvm.LLVMArrayType)
    row_type = array.type
    registers: list[SSAValue] = []
    for i in range(array.size.data):
        row = _extract(rewriter, fragment, i)
        if row_type in (_I8X4, _I4X8) or (
            row_type == _F32X1 and ptx_type == MMATypes.TF32
        ):
            registers.append(rewriter.insert(llvm.BitcastOp(row, i32)).results[0])
            continue
        if isinstance(row_type, VectorType) and row_type.element_type in (
            i32,
            f64,
            f32,
        ):
            for lane in range(row_type.element_count()):
                position = _constant(rewriter, lane, i64)
                registers.append(
                    rewriter.insert(llvm.ExtractElementOp(row, position)).results[0]
                )
            continue
        registers.append(row)
    return registers


def intrinsic_result_type(array: Attribute) -> Attribute:
    """The struct the NVVM op returns for a converted accumulator type."""
    assert isinstance(array, llvm.LLVMArrayType)
    rows = array.size.data
    row_type = array.type
    if row_type == _F16X2:
        return llvm.LLVMStructType.from_type_list([_F16X2] * rows)
    if row_type in _PACKED_ROWS:
        assert isinstance(row_type, VectorType)
        return llvm.LLVMStructType.from_type_list([row_type.element_type] * 2 * rows)
    if row_type == _F32X1:
        return llvm.LLVMStructType.from_type_list([f32] * rows)
    return array


def repack_result(
    rewriter: PatternRewriter, struct: SSAValue, array: Attribute
) -> SSAValue:
    """The NVVM op's struct as the converted accumulator array (upstream's
    ``convertIntrinsicResult``)."""
    assert isinstance(array, llvm.LLVMArrayType)
    struct_type = struct.type
    if not isinstance(struct_type, llvm.LLVMStructType):
        return struct
    row_type = array.type
    count = len(struct_type.types.data)
    rows: list[SSAValue] = []
    if row_type in (_F16X2, _F32X1):
        for i in range(count):
            row = _extract(rewriter, struct, i)
            if row.type != row_type:
                row = rewriter.insert(llvm.BitcastOp(row, row_type)).results[0]
            rows.append(row)
    if row_type in _PACKED_ROWS:
        for i in range(count // 2):
            row = rewriter.insert(llvm.PoisonOp(row_type)).results[0]
            low = _extract(rewriter, struct, 2 * i)
            high = _extract(rewriter, struct, 2 * i + 1)
            for lane, value in enumerate((low, high)):
                position = _constant(rewriter, lane, i32)
                row = rewriter.insert(
                    llvm.InsertElementOp(row, value, position)
                ).results[0]
            rows.append(row)
    result = rewriter.insert(llvm.PoisonOp(array)).results[0]
    for i, row in enumerate(rows):
        result = rewriter.insert(insert(result, row, i)).results[0]
    return result


def _mma_types(
    op: nvgpu.MmaSyncBase,
) -> tuple[MMATypes, MMATypes, MMATypes]:
    """The PTX types of A, B and the accumulator; a diagnostic if there are none
    (upstream's words), or if f32 operands lack ``tf32Enabled``."""
    a_type = op.matrix_a.type
    assert isinstance(a_type, VectorType)
    ptx_a = multiplicand_ptx_type(a_type)
    ptx_b = multiplicand_ptx_type(op.matrix_b.type)
    if ptx_a is None or ptx_b is None:
        raise lowering_error(op, "failed to deduce operand PTX types")
    c_type = op.matrix_c.type
    assert isinstance(c_type, VectorType)
    ptx_c = infer_mma_type(c_type.element_type, True)
    if ptx_c is None:
        raise lowering_error(
            op, "could not infer the PTX type for the accumulator/result"
        )
    if isinstance(a_type.element_type, Float32Type) and op.tf32_enabled is None:
        # Upstream leaves the op in place (mma.sync on f32 exists only as tf32).
        raise lowering_error(
            op,
            "on f32 operands needs tf32Enabled: tensor cores multiply f32 only as tf32",
        )
    return ptx_a, ptx_b, ptx_c


def _overflow(op: nvgpu.MmaSyncBase) -> MMAIntOverflow | None:
    a_type = op.matrix_a.type
    assert isinstance(a_type, VectorType)
    if isinstance(a_type.element_type, IntegerType):
        return MMAIntOverflow.SATFINITE
    return None


class MmaSyncLowering(RewritePattern):
    """``nvgpu.mma.sync`` → ``nvvm.mma.sync`` (row-major A, column-major B)."""

    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    acts_on = (nvgpu.MmaSyncOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.MmaSyncOp):
            return
        ptx_a, ptx_b, ptx_c = _mma_types(op)
        overflow = _overflow(op)
        a, b, c = _adaptor(self.lowering, op, rewriter)
        registers_a = unpack_fragment(rewriter, a, ptx_a)
        registers_b = unpack_fragment(rewriter, b, ptx_b)
        registers_c = unpack_fragment(rewriter, c, ptx_c)
        array = self.lowering.converter.convert_type(op.res.type)
        assert array is not None
        mma = rewriter.insert(
            nvvm.MmaOp(
                intrinsic_result_type(array),
                registers_a,
                registers_b,
                registers_c,
                op.shape,
                (MMALayout.ROW, MMALayout.COL),
                (ptx_a, ptx_b),
                None if overflow is None else MMAIntOverflowAttr(overflow),
            )
        )
        result = repack_result(rewriter, mma.res, array)
        replace_op(op, [], [result], rewriter)


def sparse_mma_asm(
    shape: tuple[int, int, int],
    counts: tuple[int, int, int],
    types: tuple[MMATypes, MMATypes, MMATypes, MMATypes],
    overflow: MMAIntOverflow | None,
    selector: int,
) -> str:
    """The PTX of ``mma.sp.sync``: ``{D}, {A}, {B}, {C}, metadata, selector``, with
    as many D registers as C registers. ``types`` is (D, A, B, C)."""
    m, n, k = shape
    count_a, count_b, count_c = counts
    text = f"mma.sp.sync.aligned.m{m}n{n}k{k}.row.col."
    if overflow is not None:
        text += f"{overflow.value}."
    text += ".".join(t.value for t in types) + " "
    index = 0
    for size in (count_c, count_a, count_b, count_c):
        names = [f"${index + i}" for i in range(size)]
        index += size
        text += "{" + ",".join(names) + "},"
    return text + f"${index},0x{selector:x};"


class MmaSparseSyncLowering(RewritePattern):
    """``nvgpu.mma.sp.sync`` → ``llvm.inline_asm`` with ``mma.sp.sync`` (NVVM has no
    op for it in MLIR 22)."""

    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    acts_on = (nvgpu.MmaSparseSyncOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.MmaSparseSyncOp):
            return
        ptx_a, ptx_b, ptx_c = _mma_types(op)
        overflow = _overflow(op)
        a, b, c, metadata = _adaptor(self.lowering, op, rewriter)
        registers_a = unpack_fragment(rewriter, a, ptx_a)
        registers_b = unpack_fragment(rewriter, b, ptx_b)
        registers_c = unpack_fragment(rewriter, c, ptx_c)
        array = self.lowering.converter.convert_type(op.res.type)
        assert array is not None
        result_type = intrinsic_result_type(array)
        if metadata.type != VectorType(i16, [2]):
            raise lowering_error(
                op, "Expected metadata type to be LLVM VectorType of 2 i16 elements"
            )
        metadata = rewriter.insert(llvm.BitcastOp(metadata, i32)).results[0]
        counts = (len(registers_a), len(registers_b), len(registers_c))
        asm = sparse_mma_asm(
            op.shape,
            counts,
            (ptx_c, ptx_a, ptx_b, ptx_c),
            overflow,
            op.sparsity_selector.value.data,
        )
        constraints = ",".join(["=r"] * counts[2] + ["r"] * (sum(counts) + 1))
        inline = rewriter.insert(
            llvm.InlineAsmOp(
                asm,
                constraints,
                [*registers_a, *registers_b, *registers_c, metadata],
                [result_type],
                asm_dialect=0,
                has_side_effects=True,
            )
        )
        assert inline.res is not None
        result = repack_result(rewriter, inline.res, array)
        replace_op(op, [], [result], rewriter)


# -- ldmatrix ------------------------------------------------------------------------


class LdMatrixLowering(RewritePattern):
    """``nvgpu.ldmatrix`` → ``nvvm.ldmatrix`` (8x8 tiles of b16; ``transpose`` is the
    column layout); its ``i32`` registers are bitcast to the rows of the result."""

    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    acts_on = (nvgpu.LdMatrixOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.LdMatrixOp):
            return
        result_type = op.res.type
        assert isinstance(result_type, VectorType)
        rows, columns = result_type.get_shape()
        row_type = VectorType(result_type.element_type, [columns])
        registers_type: Attribute = (
            llvm.LLVMStructType.from_type_list([i32] * rows) if rows > 1 else i32
        )
        memref, *indices = _adaptor(self.lowering, op, rewriter)
        pointer = self.lowering.element_address(
            rewriter, op, op.src_memref, memref, indices
        )
        layout = MMALayout.COL if op.transpose.value.data else MMALayout.ROW
        load = rewriter.insert(
            nvvm.LdMatrixOp(
                pointer,
                registers_type,
                op.num_tiles.value.data,
                MMALayoutAttr(layout),
                LdStMatrixShapeAttr(8, 8),
                LdStMatrixEltTypeAttr(LdStMatrixEltType.B16),
            )
        )
        array = self.lowering.converter.convert_type(result_type)
        assert array is not None
        result = rewriter.insert(llvm.PoisonOp(array)).results[0]
        for i in range(rows):
            register = _extract(rewriter, load.res, i) if rows > 1 else load.res
            row = rewriter.insert(llvm.BitcastOp(register, row_type)).results[0]
            result = rewriter.insert(insert(result, row, i)).results[0]
        replace_op(op, [], [result], rewriter)


# -- asynchronous copies -------------------------------------------------------------


class DeviceAsyncCopyLowering(RewritePattern):
    """``nvgpu.device_async_copy`` → ``nvvm.cp.async.shared.global`` of
    ``dstElements`` elements (``.cg``, bypassing L1, when asked for and the copy is
    16 bytes; ``.ca`` otherwise); with ``srcElements``, the bytes to read are
    passed and the rest is zero-filled. The token becomes a dummy ``i32`` 0."""

    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    acts_on = (nvgpu.DeviceAsyncCopyOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.DeviceAsyncCopyOp):
            return
        operands = _adaptor(self.lowering, op, rewriter)
        dst_rank = len(op.dst_indices)
        src_rank = len(op.src_indices)
        dst, dst_indices = operands[0], operands[1 : 1 + dst_rank]
        src = operands[1 + dst_rank]
        src_indices = operands[2 + dst_rank : 2 + dst_rank + src_rank]
        src_elements = operands[2 + dst_rank + src_rank :]
        dst_type, src_type = op.dst.type, op.src.type
        assert isinstance(dst_type, MemRefType)
        assert isinstance(src_type, MemRefType)
        dst_pointer = self.lowering.element_address(
            rewriter, op, op.dst, dst, dst_indices
        )
        src_pointer = self.lowering.element_address(
            rewriter, op, op.src, src, src_indices
        )
        src_pointer = rewriter.insert(
            llvm.AddrSpaceCastOp(src_pointer, ptr_type(GLOBAL_ADDRESS_SPACE))
        ).results[0]
        width = nvgpu.bitwidth(dst_type.element_type)
        size = width * op.dst_elements.value.data // 8
        bytes_to_read: SSAValue | None = None
        if src_elements:
            three = _constant(rewriter, 3, i32)
            bits = _constant(rewriter, nvgpu.bitwidth(src_type.element_type), i32)
            count = rewriter.insert(llvm.TruncOp(src_elements[0], i32)).results[0]
            product = rewriter.insert(llvm.MulOp(bits, count)).results[0]
            bytes_to_read = rewriter.insert(llvm.LShrOp(product, three)).results[0]
        bypass = op.bypass_l1 is not None and size == 16
        modifier = LoadCacheModifier.CG if bypass else LoadCacheModifier.CA
        rewriter.insert(
            nvvm.CpAsyncOp(dst_pointer, src_pointer, size, modifier, bytes_to_read)
        )
        token = _constant(rewriter, 0, i32)
        replace_op(op, [], [token], rewriter)


class DeviceAsyncCreateGroupLowering(RewritePattern):
    """``nvgpu.device_async_create_group`` → ``nvvm.cp.async.commit.group``."""

    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    acts_on = (nvgpu.DeviceAsyncCreateGroupOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.DeviceAsyncCreateGroupOp):
            return
        _adaptor(self.lowering, op, rewriter)
        rewriter.insert(nvvm.CpAsyncCommitGroupOp())
        token = _constant(rewriter, 0, i32)
        replace_op(op, [], [token], rewriter)


class DeviceAsyncWaitLowering(RewritePattern):
    """``nvgpu.device_async_wait`` → ``nvvm.cp.async.wait.group`` (``numGroups``,
    default 0: wait for every group)."""

    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    acts_on = (nvgpu.DeviceAsyncWaitOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.DeviceAsyncWaitOp):
            return
        _adaptor(self.lowering, op, rewriter)
        groups = 0 if op.num_groups is None else op.num_groups.value.data
        rewriter.insert(nvvm.CpAsyncWaitGroupOp(groups))
        rewriter.erase(op)


# -- rcp -----------------------------------------------------------------------------


def _reciprocal_1d(
    rewriter: PatternRewriter, vector: SSAValue, t: Attribute
) -> list[Operation]:
    """``nvvm.rcp.approx.ftz.f`` on each element of a 1-D ``vector<N x f32>``."""
    assert isinstance(t, VectorType)
    built: list[Operation] = [result := llvm.PoisonOp(t)]
    value = result.results[0]
    for lane in range(t.element_count()):
        position = llvm.ConstantOp(IntegerAttr(lane, i64), i64)
        element = llvm.ExtractElementOp(vector, position)
        reciprocal = nvvm.RcpApproxFtzF32Op(element)
        value_op = llvm.InsertElementOp(value, reciprocal, position)
        built += [position, element, reciprocal, value_op]
        value = value_op.results[0]
    return built


class RcpLowering(RewritePattern):
    """``nvgpu.rcp {rounding = approx, ftz}`` → ``nvvm.rcp.approx.ftz.f`` per
    element (n-D vectors row by row)."""

    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    acts_on = (nvgpu.RcpOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.RcpOp):
            return
        (value,) = _adaptor(self.lowering, op, rewriter)
        t = self.lowering.converter.convert_type(op.out.type)
        assert t is not None
        if isinstance(t, VectorType):
            built = _reciprocal_1d(rewriter, value, t)
            replace_op(op, built, [built[-1].results[0]], rewriter)
            return
        assert isinstance(t, llvm.LLVMArrayType)

        def build(leaves: Sequence[SSAValue], leaf_type: Attribute) -> list[Operation]:
            return _reciprocal_1d(rewriter, leaves[0], leaf_type)

        built, result = unroll_nd_vector([value], t, build)
        replace_op(op, built, [result], rewriter)


def patterns(lowering: NVGPULowering) -> list[RewritePattern]:
    return [
        MmaSyncLowering(lowering),
        MmaSparseSyncLowering(lowering),
        LdMatrixLowering(lowering),
        DeviceAsyncCopyLowering(lowering),
        DeviceAsyncCreateGroupLowering(lowering),
        DeviceAsyncWaitLowering(lowering),
        RcpLowering(lowering),
    ]
