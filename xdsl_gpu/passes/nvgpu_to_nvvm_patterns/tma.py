"""The Tensor Memory Accelerator ops of ``nvgpu`` (sm_90): ``tma.async.load``,
``tma.async.store``, ``tma.prefetch.descriptor``, ``tma.fence.descriptor`` and, on the
host, ``tma.create.descriptor`` (upstream: ``NVGPUToNVVM.cpp``, MLIR 22).

A ``!nvgpu.tensormap.descriptor`` is a pointer to the 128-byte ``CUtensorMap``. The
copies take the aligned pointer of the shared-memory memref (as a cluster pointer,
``!llvm.ptr<7>``, for loads), the address of the completing mbarrier and the
coordinates as ``i32``. ``tma.create.descriptor`` calls the runtime's
``mgpuTensorMapEncodeTiledMemref(rank, descriptor, element type, interleave, swizzle,
l2promo, oob, box dimensions)`` with the box dimensions in a stack array of 5
``i64`` and the enums as the ``CUtensorMap*`` numbers of the CUDA driver.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    Signedness,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import SymbolTable

from xdsl_gpu.gpu_dialect import llvm, nvgpu, nvvm
from xdsl_gpu.gpu_dialect.nvgpu.attributes import (
    TensorMapInterleaveKind,
    TensorMapL2PromoKind,
    TensorMapOOBKind,
    TensorMapSwizzleKind,
)
from xdsl_gpu.gpu_dialect.nvvm.attributes import MemScopeKind
from xdsl_gpu.passes.llvm_type_converter import LLVMTypeConverter, replace_op
from xdsl_gpu.passes.memref_descriptor import (
    MemRefDescriptor,
    extract,
    ptr_type,
    strided_element_ptr,
)
from xdsl_gpu.passes.nvgpu_to_nvvm_patterns.common import (
    NVGPULowering,
    TypeConversion,
    lowering_error,
)
from xdsl_gpu.passes.nvgpu_to_nvvm_patterns.mbarrier import (
    barrier_pointer,
    truncate_to_i32,
)

ENCODE_TILED_MEMREF = "mgpuTensorMapEncodeTiledMemref"
"""The runtime function that builds a tensor map from a memref (host side)."""

BOX_ARRAY_SIZE = 5
"""The box dimensions go to the runtime in a stack array of this many ``i64``."""

TENSOR_MAP_BYTES = 128
"""A ``CUtensorMap`` is 128 bytes: the proxy fence covers that much."""

SHARED_CLUSTER_ADDRESS_SPACE = 7

_SWIZZLE = {
    TensorMapSwizzleKind.SWIZZLE_NONE: 0,
    TensorMapSwizzleKind.SWIZZLE_32B: 1,
    TensorMapSwizzleKind.SWIZZLE_64B: 2,
    TensorMapSwizzleKind.SWIZZLE_128B: 3,
}
_L2PROMO = {
    TensorMapL2PromoKind.L2PROMO_NONE: 0,
    TensorMapL2PromoKind.L2PROMO_64B: 1,
    TensorMapL2PromoKind.L2PROMO_128B: 2,
    TensorMapL2PromoKind.L2PROMO_256B: 3,
}
_OOB = {TensorMapOOBKind.OOB_ZERO: 0, TensorMapOOBKind.OOB_NAN: 1}
_INTERLEAVE = {
    TensorMapInterleaveKind.INTERLEAVE_NONE: 0,
    TensorMapInterleaveKind.INTERLEAVE_16B: 1,
    TensorMapInterleaveKind.INTERLEAVE_32B: 2,
}

# CUtensorMapDataType of the CUDA driver.
_UINT8, _UINT16, _UINT32, _INT32, _UINT64, _INT64 = 0, 1, 2, 3, 4, 5
_FLOAT16, _FLOAT32, _FLOAT64, _BFLOAT16 = 6, 7, 8, 9


def tensor_map_data_type(element: Attribute) -> int | None:
    """The ``CUtensorMapDataType`` upstream gives a memref element type
    (``elementTypeAsLLVMConstant``): unsigned integers by width, signless ``i32`` and
    ``i64`` as signed, the floats by kind; anything else, signless ``i8``/``i16``
    and signed integers included, falls through to ``BFLOAT16`` as upstream's does."""
    if isinstance(element, IntegerType):
        width = element.width.data
        if element.signedness.data == Signedness.UNSIGNED:
            return {8: _UINT8, 16: _UINT16, 32: _UINT32, 64: _UINT64}.get(width)
        if element.signedness.data == Signedness.SIGNLESS and width in (32, 64):
            return {32: _INT32, 64: _INT64}[width]
        return _BFLOAT16
    if isinstance(element, Float16Type):
        return _FLOAT16
    if isinstance(element, Float32Type):
        return _FLOAT32
    if isinstance(element, Float64Type):
        return _FLOAT64
    if isinstance(element, BFloat16Type):
        return _BFLOAT16
    return None


def convert_tma_types(t: Attribute, converter: LLVMTypeConverter) -> Attribute | None:
    """A tensor map descriptor is a generic pointer."""
    if isinstance(t, nvgpu.TensorMapDescriptorType):
        return ptr_type(0)
    return None


TYPE_CONVERSIONS: tuple[TypeConversion, ...] = (convert_tma_types,)


def _wide_constant(rewriter: PatternRewriter, value: int) -> SSAValue:
    """``llvm.mlir.constant(value : i32) : i64``, as upstream writes its ``i64``
    constants here."""
    return rewriter.insert(llvm.ConstantOp(IntegerAttr(value, i32), i64)).results[0]


class _TmaPattern(RewritePattern):
    def __init__(self, lowering: NVGPULowering):
        self.lowering = lowering

    def adaptor(
        self, op: Operation, rewriter: PatternRewriter
    ) -> dict[SSAValue, SSAValue]:
        """Every operand converted, in operand order (upstream's adaptor)."""
        return {o: self.lowering.llvm_value(o, rewriter, op) for o in op.operands}

    def _tile_pointer(
        self, rewriter: PatternRewriter, tile: SSAValue, descriptor: SSAValue
    ) -> SSAValue:
        """The address of the shared tile's first element: its aligned pointer plus
        its offset (upstream's ``getStridedElementPtr`` without indices)."""
        memref_type = tile.type
        assert isinstance(memref_type, MemRefType)
        element = self.lowering.converter.convert_type(memref_type.element_type)
        assert element is not None
        return strided_element_ptr(
            rewriter, memref_type, MemRefDescriptor(descriptor), [], element
        )


class TmaAsyncLoadLowering(_TmaPattern):
    """``nvgpu.tma.async.load`` → ``nvvm.cp.async.bulk.tensor.shared.cluster.global``."""

    acts_on = (nvgpu.TmaAsyncLoadOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.TmaAsyncLoadOp):
            return
        operands = self.adaptor(op, rewriter)
        tile = self._tile_pointer(rewriter, op.dst, operands[op.dst])
        destination = rewriter.insert(
            llvm.AddrSpaceCastOp(tile, ptr_type(SHARED_CLUSTER_ADDRESS_SPACE))
        ).results[0]
        barrier = barrier_pointer(
            rewriter, op.barriers.type, operands[op.barriers], operands[op.mbar_id]
        )
        coordinates = [truncate_to_i32(rewriter, operands[c]) for c in op.coordinates]
        rewriter.insert(
            nvvm.CpAsyncBulkTensorGlobalToSharedClusterOp(
                destination,
                operands[op.tensor_map_descriptor],
                coordinates,
                barrier,
                multicast_mask=op.multicast_mask,
                predicate=op.predicate,
            )
        )
        rewriter.erase(op)


class TmaAsyncStoreLowering(_TmaPattern):
    """``nvgpu.tma.async.store`` → ``nvvm.cp.async.bulk.tensor.global.shared.cta``."""

    acts_on = (nvgpu.TmaAsyncStoreOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.TmaAsyncStoreOp):
            return
        operands = self.adaptor(op, rewriter)
        source = self._tile_pointer(rewriter, op.src, operands[op.src])
        coordinates = [truncate_to_i32(rewriter, operands[c]) for c in op.coordinates]
        rewriter.insert(
            nvvm.CpAsyncBulkTensorSharedCTAToGlobalOp(
                operands[op.tensor_map_descriptor],
                source,
                coordinates,
                predicate=op.predicate,
            )
        )
        rewriter.erase(op)


class TmaPrefetchLowering(_TmaPattern):
    """``nvgpu.tma.prefetch.descriptor`` → ``nvvm.prefetch tensormap``."""

    acts_on = (nvgpu.TmaPrefetchOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.TmaPrefetchOp):
            return
        operands = self.adaptor(op, rewriter)
        rewriter.insert(
            nvvm.PrefetchOp(operands[op.tensor_map_descriptor], op.predicate)
        )
        rewriter.erase(op)


class TmaFenceLowering(_TmaPattern):
    """``nvgpu.tma.fence.descriptor`` → an acquire generic → tensormap proxy fence
    over the descriptor's 128 bytes, system scope (the host may have written it)."""

    acts_on = (nvgpu.TmaFenceOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.TmaFenceOp):
            return
        operands = self.adaptor(op, rewriter)
        size = rewriter.insert(
            llvm.ConstantOp(IntegerAttr(TENSOR_MAP_BYTES, i32), i32)
        ).results[0]
        rewriter.insert(
            nvvm.FenceProxyAcquireOp(
                MemScopeKind.SYS, operands[op.tensor_map_descriptor], size
            )
        )
        rewriter.erase(op)


def _declare_encoder(op: Operation) -> llvm.LLVMFunctionType:
    """Declare ``mgpuTensorMapEncodeTiledMemref`` at the end of the module (once)."""
    function_type = llvm.LLVMFunctionType(
        [i64, ptr_type(0), i64, i64, i64, i64, i64, ptr_type(0)], ptr_type(0)
    )
    module = op.get_toplevel_object()
    assert isinstance(module, ModuleOp)
    if SymbolTable.lookup_symbol(module, ENCODE_TILED_MEMREF) is None:
        declaration = llvm.FuncOp(
            ENCODE_TILED_MEMREF, function_type, linkage=llvm.LinkageAttr("external")
        )
        module.body.block.add_op(declaration)
    return function_type


class TmaCreateDescriptorLowering(_TmaPattern):
    """``nvgpu.tma.create.descriptor`` → a call of
    ``mgpuTensorMapEncodeTiledMemref`` (module docstring)."""

    acts_on = (nvgpu.TmaCreateDescriptorOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, nvgpu.TmaCreateDescriptorOp):
            return
        desc = op.tensor_map.type
        assert isinstance(desc, nvgpu.TensorMapDescriptorType)
        data_type = tensor_map_data_type(desc.tensor.element_type)
        if data_type is None:
            raise lowering_error(
                op,
                f"has elements of {desc.tensor.element_type}, which a tensor map "
                "cannot hold",
            )
        operands = self.adaptor(op, rewriter)
        _declare_encoder(op)
        element = _wide_constant(rewriter, data_type)
        unranked = operands[op.tensor]
        rank = extract(rewriter, unranked, [0], i64)
        descriptor = extract(rewriter, unranked, [1], ptr_type(0))
        count = _wide_constant(rewriter, BOX_ARRAY_SIZE)
        box = rewriter.insert(
            llvm.AllocaOp.create(
                operands=[count],
                result_types=[ptr_type(0)],
                properties={"elem_type": i64},
            )
        ).results[0]
        for i, dimension in enumerate(op.box_dimensions):
            index = _wide_constant(rewriter, i)
            slot = rewriter.insert(
                llvm.GEPOp.from_mixed_indices(
                    box, [index], ptr_type(0), result_type=ptr_type(0)
                )
            ).results[0]
            rewriter.insert(llvm.StoreOp(operands[dimension], slot))
        enums = (
            _INTERLEAVE[desc.interleave],
            _SWIZZLE[desc.swizzle],
            _L2PROMO[desc.l2promo],
            _OOB[desc.oob],
        )
        arguments = [rank, descriptor, element]
        arguments += [_wide_constant(rewriter, v) for v in enums]
        arguments.append(box)
        call = rewriter.insert(
            llvm.CallOp(ENCODE_TILED_MEMREF, *arguments, return_type=ptr_type(0))
        )
        replace_op(op, [], [call.results[0]], rewriter)


def patterns(lowering: NVGPULowering) -> list[RewritePattern]:
    return [
        TmaAsyncLoadLowering(lowering),
        TmaAsyncStoreLowering(lowering),
        TmaPrefetchLowering(lowering),
        TmaFenceLowering(lowering),
        TmaCreateDescriptorLowering(lowering),
    ]


__all__ = [
    "ENCODE_TILED_MEMREF",
    "TYPE_CONVERSIONS",
    "patterns",
    "tensor_map_data_type",
]
