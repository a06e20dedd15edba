"""The warpgroup (wgmma, sm_90a) ops of ``nvgpu``: ``warpgroup.generate.descriptor``,
``warpgroup.mma``, ``warpgroup.mma.store`` and ``warpgroup.mma.init.accumulator``
(upstream: ``NVGPUToNVVM.cpp``, MLIR 22).

* A ``!nvgpu.warpgroup.descriptor`` is the 64-bit wgmma matrix descriptor: start
  address (bits 0-13, address >> 4), leading-dimension byte offset (16-29), stride
  byte offset (32-45), base offset (49-51) and swizzle mode (62-63; 1 is 128B), the
  byte fields >> 4 as the PTX ISA defines them.
* A ``!nvgpu.warpgroup.accumulator<fragmented = vector<M x N x T>>`` is a struct of
  ``M / 64`` structs, one per wgmma of 64 rows, each holding this thread's ``N / 2``
  registers (``N / 4`` for f16).
* ``warpgroup.mma`` is fenced, then issues for each 64-row block ``i`` the
  ``K / k`` wgmma instructions of the full ``N``, advancing the descriptors by the
  bytes of a ``k`` step (and of ``i`` blocks of A), then commits the group and waits
  until at most ``waitGroup`` groups are pending.
* ``warpgroup.mma.store`` writes each register pair to the memref at the row and
  column of the wgmma register layout (``memref.store``, lowered later).
"""

from __future__ import annotations

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnrealizedConversionCastOp,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xdsl_gpu.gpu_dialect import arith, llvm, nvgpu, nvvm
from xdsl_gpu.gpu_dialect.nvgpu.attributes import SWIZZLE_BYTES, TensorMapSwizzleKind
from xdsl_gpu.gpu_dialect.nvvm.mma_attrs import MMAIntOverflow, MMALayout
from xdsl_gpu.gpu_dialect.nvvm.wgmma_ops import WGMMAScaleIn, WGMMAScaleOut, WGMMATypes
from xdsl_gpu.passes.llvm_type_converter import (
    LLVMTypeConverter,
    extract,
    insert,
    replace_op,
)
from xdsl_gpu.passes.memref_descriptor import MemRefDescriptor, strided_element_ptr
from xdsl_gpu.passes.nvgpu_to_nvvm_patterns.common import (
    NVGPULowering,
    TypeConversion,
    lowering_error,
)

WGMMA_M = 64
"""Rows of one wgmma instruction."""

EXCLUDE_4_LSB = 4
"""Descriptor byte fields leave out their 4 low bits."""

_SWIZZLE_MODE = {
    TensorMapSwizzleKind.SWIZZLE_128B: 1,
    TensorMapSwizzleKind.SWIZZLE_64B: 2,
    TensorMapSwizzleKind.SWIZZLE_32B: 3,
}
"""The descriptor's 2-bit swizzle mode of a tensor map's swizzle."""

_SWIZZLE_ROWS = 8
"""A swizzle pattern repeats every 8 rows."""


def accumulator_struct(vector: VectorType) -> llvm.LLVMStructType:
    """The registers of a fragmented accumulator (module docstring)."""
    rows, columns = vector.get_shape()
    element = vector.element_type
    per_thread = columns // 4 if element.name == "f16" else columns // 2
    inner = llvm.LLVMStructType.from_type_list([element] * per_thread)
    return llvm.LLVMStructType.from_type_list([inner] * (rows // WGMMA_M))


def convert_warpgroup_types(
    t: Attribute, converter: LLVMTypeConverter
) -> Attribute | None:
    """Descriptors become ``i64``, accumulators their register structs."""
    if isinstance(t, nvgpu.WarpgroupMatrixDescriptorType):
        return i64
    if isinstance(t, nvgpu.WarpgroupAccumulatorType):
        return accumulator_struct(t.fragmented)
    return None


TYPE_CONVERSIONS: tuple[TypeConversion, ...] = (convert_warpgroup_types,)


def _constant(rewriter: PatternRewriter, value: int, t: IntegerType = i64) -> SSAValue:
    return rewriter.insert(llvm.ConstantOp(IntegerAttr(value, t), t)).results[0]


def _wide_constant(rewriter: PatternRewriter, value: int) -> SSAValue:
    """``llvm.mlir.constant(value : i32) : i64``, as upstream writes the
    descriptor increments."""
    return rewriter.insert(llvm.ConstantOp(IntegerAttr(value, i32), i64)).results[0]


def _k_of(element: Attribute) -> int:
    """The k of one wgmma for elements of ``element`` (16 bytes of them for
    16-bit types, 8 tf32, 32 8-bit, 256 b1)."""
    name = element.name
    if name in ("f16", "bf16"):
        return 16
    if name in ("tf32", "f32"):
        return 8
    width = getattr(element, "width", None)
    if width is not None and width.data == 1:
        return 256
    return 32


def _wgmma_type(element: Attribute) -> WGMMATypes:
    name = element.name
    if name in ("f16", "bf16", "f32", "tf32"):
        return WGMMATypes(name if name != "f32" else "f32")
    if name == "f8E4M3FN":
        return WGMMATypes.E4M3
    if name == "f8E5M2":
        return WGMMATypes.E5M2
    width = getattr(element, "width", None)
    if width is not None and width.data == 1:
        return WGMMATypes.B1
    if width is not None and width.data == 32:
        return WGMMATypes.S32
    return WGMMATypes.S8


def _bytes(element: Attribute) -> int:
    return nvgpu.bitwidth(element) // 8


class WarpgroupGenerateDescriptorLowering(RewritePattern):
    """``nvgpu.warpgroup.generate.descriptor`` → the descriptor's bit fields,
    or-ed together (module docstring)."""

    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    acts_on = (nvgpu.WarpgroupGenerateDescriptorOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.WarpgroupGenerateDescriptorOp):
            return
        tensor_map = op.tensor_map.type
        assert isinstance(tensor_map, nvgpu.TensorMapDescriptorType)
        swizzle = tensor_map.swizzle
        if swizzle not in _SWIZZLE_MODE:
            raise lowering_error(op, "needs a swizzled tensor map")
        # Only the tile is read: the tensor map's value is not used.
        tile = self.lowering.llvm_value(op.tensor, rewriter, op)
        swizzle_bytes = SWIZZLE_BYTES[swizzle]
        rows = tensor_map.tensor.get_shape()[0]
        stride = _constant(rewriter, (_SWIZZLE_ROWS * swizzle_bytes) >> EXCLUDE_4_LSB)
        leading = _constant(rewriter, (rows * swizzle_bytes) >> EXCLUDE_4_LSB)
        memref_type = op.tensor.type
        assert isinstance(memref_type, MemRefType)
        element = self.lowering.converter.convert_type(memref_type.element_type)
        assert element is not None
        # The tile's first element: aligned pointer plus offset.
        base = strided_element_ptr(
            rewriter, memref_type, MemRefDescriptor(tile), [], element
        )
        address = rewriter.insert(llvm.PtrToIntOp(base, i64)).results[0]
        # The 14 bits of address >> 4: shift left by 64 - 18, back by 64 - 14.
        high = rewriter.insert(llvm.ShlOp(address, _constant(rewriter, 46))).results[0]
        start = rewriter.insert(llvm.LShrOp(high, _constant(rewriter, 50))).results[0]
        descriptor = _constant(rewriter, 0)
        fields: list[tuple[SSAValue | int, int]] = [
            (_SWIZZLE_MODE[swizzle], 62),
            (0, 49),  # base offset
            (stride, 32),
            (leading, 16),
            (start, 0),
        ]
        for field, bit in fields:
            value = _constant(rewriter, field) if isinstance(field, int) else field
            shift = _constant(rewriter, bit)
            shifted = rewriter.insert(llvm.ShlOp(value, shift)).results[0]
            descriptor = rewriter.insert(llvm.OrOp(descriptor, shifted)).results[0]
        replace_op(op, [], [descriptor], rewriter)


class WarpgroupMmaLowering(RewritePattern):
    """``nvgpu.warpgroup.mma`` → fenced, committed and awaited
    ``nvvm.wgmma.mma_async`` instructions (module docstring)."""

    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    acts_on = (nvgpu.WarpgroupMmaOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.WarpgroupMmaOp):
            return
        da, db = op.descriptor_a.type, op.descriptor_b.type
        acc_type = op.matrix_c.type
        assert isinstance(da, nvgpu.WarpgroupMatrixDescriptorType)
        assert isinstance(db, nvgpu.WarpgroupMatrixDescriptorType)
        assert isinstance(acc_type, nvgpu.WarpgroupAccumulatorType)
        a, b, c = da.tensor, db.tensor, acc_type.fragmented
        desc_a, desc_b, accumulator = (
            self.lowering.llvm_value(o, rewriter, op) for o in op.operands
        )
        size_m, size_n = c.get_shape()
        size_k = a.get_shape()[1]
        wgmma_k = _k_of(a.element_type)
        struct = accumulator_struct(c)
        inner = struct.types.data[0]
        assert isinstance(inner, llvm.LLVMStructType)
        types = (
            _wgmma_type(c.element_type),
            _wgmma_type(a.element_type),
            _wgmma_type(b.element_type),
        )
        layouts = (
            MMALayout.COL if op.transpose_a is not None else MMALayout.ROW,
            MMALayout.ROW if op.transpose_b is not None else MMALayout.COL,
        )
        bytes_a, bytes_b = _bytes(a.element_type), _bytes(b.element_type)
        rows_b = b.get_shape()[0]

        rewriter.insert(nvvm.WgmmaFenceAlignedOp())
        result = rewriter.insert(llvm.PoisonOp(struct)).results[0]
        blocks: list[SSAValue] = []
        for i in range(size_m // WGMMA_M):
            current = rewriter.insert(extract(accumulator, i)).results[0]
            for k in range(size_k // wgmma_k):
                step_a = ((wgmma_k * k) + (size_k * size_k * i)) * bytes_a
                step_b = (rows_b * wgmma_k * k * bytes_b) >> EXCLUDE_4_LSB
                operand_a = self._advance(rewriter, desc_a, step_a >> EXCLUDE_4_LSB)
                operand_b = self._advance(rewriter, desc_b, step_b)
                current = rewriter.insert(
                    nvvm.WgmmaMmaAsyncOp(
                        inner,
                        current,
                        operand_a,
                        operand_b,
                        (WGMMA_M, size_n, wgmma_k),
                        types,
                        (WGMMAScaleOut.ONE, WGMMAScaleIn.ONE, WGMMAScaleIn.ONE),
                        layouts,
                        MMAIntOverflow.WRAPPED,
                    )
                ).results[0]
            blocks.append(current)
        for i, block in enumerate(blocks):
            result = rewriter.insert(insert(result, block, i)).results[0]
        back = rewriter.insert(
            UnrealizedConversionCastOp.create(
                operands=[result], result_types=[acc_type]
            )
        )
        rewriter.insert(nvvm.WgmmaGroupSyncAlignedOp())
        rewriter.insert(nvvm.WgmmaWaitGroupSyncOp(op.wait_group.value.data))
        rewriter.replace(op, [], [back.results[0]])

    @staticmethod
    def _advance(
        rewriter: PatternRewriter, descriptor: SSAValue, step: int
    ) -> SSAValue:
        """``descriptor + step`` (the start address field moves by ``step``)."""
        if not step:
            return descriptor
        increment = _wide_constant(rewriter, step)
        return rewriter.insert(llvm.AddOp(descriptor, increment)).results[0]


class WarpgroupMmaStoreLowering(RewritePattern):
    """``nvgpu.warpgroup.mma.store`` → ``memref.store`` of every register at its
    place in the wgmma D layout: in each 64-row block, warp ``w`` holds rows
    ``16w + lane / 4`` and ``+ 8``, columns ``2 (lane % 4) + 8j`` and ``+ 1``. As
    upstream, block ``b`` starts ``b * N / 2`` rows down (right for ``N = 128``)."""

    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    acts_on = (nvgpu.WarpgroupMmaStoreOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.WarpgroupMmaStoreOp):
            return
        acc_type = op.matrix_d.type
        assert isinstance(acc_type, nvgpu.WarpgroupAccumulatorType)
        memref_type = op.dst_memref.type
        assert isinstance(memref_type, MemRefType)
        accumulator = self.lowering.llvm_value(op.matrix_d, rewriter, op)
        size_n = acc_type.fragmented.get_shape()[1]
        struct = accumulator_struct(acc_type.fragmented)
        offset = 0
        for block, inner in enumerate(struct.types.data):
            assert isinstance(inner, llvm.LLVMStructType)
            registers = rewriter.insert(extract(accumulator, block)).results[0]
            self._store_block(rewriter, op, registers, offset, size_n)
            # Upstream moves down by the registers of a block (N / 2 rows), which
            # is the 64 rows of a wgmma only when N is 128.
            offset += len(inner.types.data)
        rewriter.erase(op)

    @staticmethod
    def _store_block(
        rewriter: PatternRewriter,
        op: nvgpu.WarpgroupMmaStoreOp,
        registers: SSAValue,
        offset: int,
        size_n: int,
    ) -> None:
        c1, c2, c4, c8, c16, c32 = (
            _constant(rewriter, v, i32) for v in (1, 2, 4, 8, 16, 32)
        )
        tid = rewriter.insert(nvvm.ThreadIdXOp(result_type=i32)).results[0]
        lane = rewriter.insert(llvm.URemOp(tid, c32)).results[0]
        warp = rewriter.insert(llvm.UDivOp(tid, c32)).results[0]
        lane_row = rewriter.insert(llvm.UDivOp(lane, c4)).results[0]
        lane_pair = rewriter.insert(llvm.URemOp(lane, c4)).results[0]
        column_base = rewriter.insert(llvm.MulOp(lane_pair, c2)).results[0]
        warp_row = rewriter.insert(llvm.MulOp(warp, c16)).results[0]
        row_base = rewriter.insert(llvm.AddOp(lane_row, warp_row)).results[0]
        if offset:
            shift = _constant(rewriter, offset, i32)
            row_base = rewriter.insert(llvm.AddOp(row_base, shift)).results[0]

        def plus_eight_times(base: SSAValue, n: int) -> SSAValue:
            count = _constant(rewriter, n, i32)
            scaled = rewriter.insert(llvm.MulOp(count, c8)).results[0]
            return rewriter.insert(llvm.AddOp(base, scaled)).results[0]

        def index(value: SSAValue) -> SSAValue:
            return rewriter.insert(arith.IndexCastOp(value, IndexType())).results[0]

        for half in range(2):
            row = plus_eight_times(row_base, half)
            for j in range(size_n // 8):
                column = plus_eight_times(column_base, j)
                row_index, column_index = index(row), index(column)
                next_column = rewriter.insert(llvm.AddOp(column, c1)).results[0]
                next_index = index(next_column)
                position = j * 4 + half * 2
                first = rewriter.insert(extract(registers, position)).results[0]
                second = rewriter.insert(extract(registers, position + 1)).results[0]
                rewriter.insert(
                    xmemref.StoreOp.get(first, op.dst_memref, [row_index, column_index])
                )
                rewriter.insert(
                    xmemref.StoreOp.get(second, op.dst_memref, [row_index, next_index])
                )


class WarpgroupMmaInitAccumulatorLowering(RewritePattern):
    """``nvgpu.warpgroup.mma.init.accumulator`` → registers all zero."""

    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    acts_on = (nvgpu.WarpgroupMmaInitAccumulatorOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.WarpgroupMmaInitAccumulatorOp):
            return
        acc_type = op.matrix_c.type
        assert isinstance(acc_type, nvgpu.WarpgroupAccumulatorType)
        element = acc_type.fragmented.element_type
        struct = accumulator_struct(acc_type.fragmented)
        zero_attr: Attribute
        if isinstance(element, AnyFloat):
            zero_attr = FloatAttr(0.0, element)
        else:
            assert isinstance(element, IntegerType)
            zero_attr = IntegerAttr(0, element)
        zero = rewriter.insert(llvm.ConstantOp(zero_attr, element)).results[0]
        result = rewriter.insert(llvm.PoisonOp(struct)).results[0]
        blocks: list[SSAValue] = []
        for i, inner in enumerate(struct.types.data):
            assert isinstance(inner, llvm.LLVMStructType)
            block = rewriter.insert(extract(result, i)).results[0]
            for j in range(len(inner.types.data)):
                block = rewriter.insert(insert(block, zero, j)).results[0]
            blocks.append(block)
        for i, block in enumerate(blocks):
            result = rewriter.insert(insert(result, block, i)).results[0]
        replace_op(op, [], [result], rewriter)


def patterns(lowering: NVGPULowering) -> list[RewritePattern]:
    return [
        WarpgroupGenerateDescriptorLowering(lowering),
        WarpgroupMmaLowering(lowering),
        WarpgroupMmaStoreLowering(lowering),
        WarpgroupMmaInitAccumulatorLowering(lowering),
    ]


__all__ = ["TYPE_CONVERSIONS", "accumulator_struct", "patterns"]
