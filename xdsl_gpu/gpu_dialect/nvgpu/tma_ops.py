"""Tensor Memory Accelerator ops: ``tma.async.load``, ``tma.async.store``,
``tma.create.descriptor``, ``tma.prefetch.descriptor`` and ``tma.fence.descriptor``.

Printed forms (MLIR 22; nvgpu types are printed stripped)::

    nvgpu.tma.async.load %desc[%x, %y], %g[%id] to %dst multicast_mask = %m,
        predicate = %p : <tensor = ...>, <memorySpace = ...> -> memref<...>
    nvgpu.tma.async.store %src to %desc[%x, %y], predicate = %p
        : memref<...> -> <tensor = ...>
    %d = nvgpu.tma.create.descriptor %t box[%c64, %c128] : memref<*xf16> -> <...>
    nvgpu.tma.prefetch.descriptor %d, predicate = %p : <tensor = ...>
    nvgpu.tma.fence.descriptor %d : <tensor = ...>

Verifier messages are upstream's, word for word.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    I1,
    I16,
    IndexType,
    MemRefType,
    UnrankedMemRefType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvgpu.attributes import (
    SWIZZLE_BYTES,
    TensorMapInterleaveKind,
    TensorMapSwizzleKind,
)
from xdsl_gpu.gpu_dialect.nvgpu.mma_ops import bitwidth
from xdsl_gpu.gpu_dialect.nvgpu.types import (
    MBarrierGroup,
    MBarrierGroupType,
    TensorMapDescriptor,
    TensorMapDescriptorType,
    is_shared_memory_space,
)

MAX_TMA_DIMENSION = 256
"""The largest box dimension of a tensor map (``kMaxTMADimension``)."""

MAX_TMA_TENSOR_DIMENSION = 5
"""The most dimensions of a tensor map (``kMaxTMATensorDimension``)."""

_Values = SSAValue | Operation


def verify_descriptor(desc: TensorMapDescriptorType) -> None:
    """The checks of upstream's ``verifyTmaDescriptorWithMemref`` on the descriptor
    alone."""
    tensor = desc.tensor
    if desc.interleave != TensorMapInterleaveKind.INTERLEAVE_NONE:
        raise VerifyException("Interleave options are not supported yet.")
    if not is_shared_memory_space(tensor.memory_space):
        raise VerifyException(
            "the tensor map descriptor has incorrect address space, it must be "
            "shared memory address space."
        )
    shape = tensor.get_shape()
    if any(d < 0 for d in shape):
        raise VerifyException("the tensor map descriptor must be static shaped")
    for d in shape:
        if d <= 0 or d > MAX_TMA_DIMENSION:
            raise VerifyException(
                "the tensor map descriptor must have dimensions between 1 and "
                f"{MAX_TMA_DIMENSION} but it is {d}"
            )
    if len(shape) > 1 and desc.swizzle != TensorMapSwizzleKind.SWIZZLE_NONE:
        last = bitwidth(tensor.element_type) * shape[-1] // 8
        expected = SWIZZLE_BYTES[desc.swizzle]
        if last != expected:
            raise VerifyException(
                f"the tensormap descriptor must have last dimension of {expected} "
                f"bytes but it is {last} bytes"
            )


def verify_descriptor_with_memref(
    desc: TensorMapDescriptorType, memref: MemRefType
) -> None:
    """Upstream's ``verifyTmaDescriptorWithMemref`` with a shared-memory tile."""
    verify_descriptor(desc)
    tensor = desc.tensor
    if tensor.element_type != memref.element_type:
        raise VerifyException(
            "the element type of tensor map descriptor and memref must be same"
        )
    if not is_shared_memory_space(memref.memory_space):
        raise VerifyException(
            "the destination memref has incorrect address space, it must be shared "
            "memory address space."
        )
    if any(d < 0 for d in memref.get_shape()):
        raise VerifyException("the destination memref must be static shaped")
    if len(memref.get_shape()) != len(tensor.get_shape()):
        raise VerifyException(
            "the shape of tensor map descriptor and memref must have same rank"
        )
    if tuple(memref.get_shape()) != tuple(tensor.get_shape()):
        raise VerifyException(
            f"memref and tensor map shapes mismatch {tensor} != {memref}"
        )
    if tensor.get_shape()[-1] * bitwidth(tensor.element_type) // 8 % 16 != 0:
        raise VerifyException(
            "the bytes in the last dimension of the tensor map must be a multiple of 16"
        )


def _verify_coordinates(desc: TensorMapDescriptorType, count: int) -> None:
    if count > MAX_TMA_TENSOR_DIMENSION:
        raise VerifyException(
            f"Maximum {MAX_TMA_TENSOR_DIMENSION} coordinates are supported."
        )
    if count != len(desc.tensor.get_shape()):
        raise VerifyException(
            "number of coordinates do not match with the rank of tensor descriptor map."
        )


@irdl_op_definition
class TmaAsyncLoadOp(IRDLOperation):
    """``nvgpu.tma.async.load``: copy the tile at ``coordinates`` of the tensor map
    into shared ``dst``, completing on barrier ``mbarId`` (multicast to the CTAs in
    ``multicastMask``)."""

    name = "nvgpu.tma.async.load"

    dst = operand_def(MemRefType)
    barriers = operand_def(MBarrierGroupType)
    tensor_map_descriptor = operand_def(TensorMapDescriptorType)
    coordinates = var_operand_def(IndexType)
    mbar_id = operand_def(IndexType)
    multicast_mask = opt_operand_def(I16)
    predicate = opt_operand_def(I1)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    custom_directives = (MBarrierGroup, TensorMapDescriptor)
    assembly_format = (
        "$tensor_map_descriptor `[` $coordinates `]` `,` $barriers `[` $mbar_id `]` "
        "`to` $dst (`multicast_mask` `=` $multicast_mask^)? "
        "(`,` `predicate` `=` $predicate^)? attr-dict `:` "
        "custom<TensorMapDescriptor>(type($tensor_map_descriptor)) `,` "
        "custom<MBarrierGroup>(type($barriers)) `->` type($dst)"
    )

    def __init__(
        self,
        dst: _Values,
        barriers: _Values,
        tensor_map_descriptor: _Values,
        coordinates: list[_Values],
        mbar_id: _Values,
        multicast_mask: _Values | None = None,
        predicate: _Values | None = None,
    ):
        super().__init__(
            operands=[
                dst,
                barriers,
                tensor_map_descriptor,
                coordinates,
                mbar_id,
                [] if multicast_mask is None else [multicast_mask],
                [] if predicate is None else [predicate],
            ]
        )

    def verify_(self) -> None:
        desc, dst = self.tensor_map_descriptor.type, self.dst.type
        assert isinstance(desc, TensorMapDescriptorType)
        assert isinstance(dst, MemRefType)
        verify_descriptor_with_memref(desc, dst)
        _verify_coordinates(desc, len(self.coordinates))


@irdl_op_definition
class TmaAsyncStoreOp(IRDLOperation):
    """``nvgpu.tma.async.store``: copy shared ``src`` to the tile at
    ``coordinates`` of the tensor map."""

    name = "nvgpu.tma.async.store"

    src = operand_def(MemRefType)
    tensor_map_descriptor = operand_def(TensorMapDescriptorType)
    coordinates = var_operand_def(IndexType)
    predicate = opt_operand_def(I1)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    custom_directives = (TensorMapDescriptor,)
    assembly_format = (
        "$src `to` $tensor_map_descriptor `[` $coordinates `]` "
        "(`,` `predicate` `=` $predicate^)? attr-dict `:` type($src) `->` "
        "custom<TensorMapDescriptor>(type($tensor_map_descriptor))"
    )

    def __init__(
        self,
        src: _Values,
        tensor_map_descriptor: _Values,
        coordinates: list[_Values],
        predicate: _Values | None = None,
    ):
        super().__init__(
            operands=[
                src,
                tensor_map_descriptor,
                coordinates,
                [] if predicate is None else [predicate],
            ]
        )

    def verify_(self) -> None:
        desc, src = self.tensor_map_descriptor.type, self.src.type
        assert isinstance(desc, TensorMapDescriptorType)
        assert isinstance(src, MemRefType)
        verify_descriptor_with_memref(desc, src)
        _verify_coordinates(desc, len(self.coordinates))


@irdl_op_definition
class TmaCreateDescriptorOp(IRDLOperation):
    """``nvgpu.tma.create.descriptor``: build a tensor map over ``tensor`` with
    tiles of ``boxDimensions`` (host side: ``mgpuTensorMapEncodeTiledMemref``)."""

    name = "nvgpu.tma.create.descriptor"

    tensor = operand_def(UnrankedMemRefType)
    box_dimensions = var_operand_def(IndexType)
    tensor_map = result_def(TensorMapDescriptorType)

    custom_directives = (TensorMapDescriptor,)
    assembly_format = (
        "$tensor `box` `[` $box_dimensions `]` attr-dict `:` type($tensor) `->` "
        "custom<TensorMapDescriptor>(type($tensor_map))"
    )

    def __init__(
        self,
        tensor: _Values,
        box_dimensions: list[_Values],
        tensor_map: TensorMapDescriptorType,
    ):
        super().__init__(operands=[tensor, box_dimensions], result_types=[tensor_map])

    def verify_(self) -> None:
        if len(self.box_dimensions) > MAX_TMA_TENSOR_DIMENSION:
            raise VerifyException(
                f"Maximum {MAX_TMA_TENSOR_DIMENSION} coordinates are supported."
            )
        desc = self.tensor_map.type
        assert isinstance(desc, TensorMapDescriptorType)
        verify_descriptor(desc)


@irdl_op_definition
class TmaPrefetchOp(IRDLOperation):
    """``nvgpu.tma.prefetch.descriptor``: bring the descriptor's cache line in."""

    name = "nvgpu.tma.prefetch.descriptor"

    tensor_map_descriptor = operand_def(TensorMapDescriptorType)
    predicate = opt_operand_def(I1)

    custom_directives = (TensorMapDescriptor,)
    assembly_format = (
        "$tensor_map_descriptor (`,` `predicate` `=` $predicate^)? attr-dict `:` "
        "custom<TensorMapDescriptor>(type($tensor_map_descriptor))"
    )

    def __init__(self, descriptor: _Values, predicate: _Values | None = None):
        super().__init__(
            operands=[descriptor, [] if predicate is None else [predicate]]
        )


@irdl_op_definition
class TmaFenceOp(IRDLOperation):
    """``nvgpu.tma.fence.descriptor``: fence a descriptor modified from the host
    before it is used."""

    name = "nvgpu.tma.fence.descriptor"

    tensor_map_descriptor = operand_def(TensorMapDescriptorType)

    custom_directives = (TensorMapDescriptor,)
    assembly_format = (
        "$tensor_map_descriptor attr-dict `:` "
        "custom<TensorMapDescriptor>(type($tensor_map_descriptor))"
    )

    def __init__(self, descriptor: _Values):
        super().__init__(operands=[descriptor])


OPERATIONS: tuple[type[Operation], ...] = (
    TmaAsyncLoadOp,
    TmaAsyncStoreOp,
    TmaCreateDescriptorOp,
    TmaPrefetchOp,
    TmaFenceOp,
)

__all__ = [
    "MAX_TMA_DIMENSION",
    "MAX_TMA_TENSOR_DIMENSION",
    "TmaAsyncLoadOp",
    "TmaAsyncStoreOp",
    "TmaCreateDescriptorOp",
    "TmaFenceOp",
    "TmaPrefetchOp",
    "verify_descriptor",
    "verify_descriptor_with_memref",
]
