"""``vector.load``/``store``/``maskedload``/``maskedstore`` → ``llvm``, as upstream's
``VectorLoadStoreConversion`` (MLIR 22) lowers them.

The address is the memref's aligned pointer plus the strided offset of the indices,
a ``getelementptr`` of the memref's element type *without* ``inbounds`` (upstream
leaves the flags off for vector accesses). The access then gets:

* the op's own ``alignment`` when it has one;
* otherwise, with ``use-vector-alignment``, the vector type's ABI alignment (its
  size rounded up to a power of two);
* otherwise the ABI alignment of the memref's element type (4 for ``f32``).

On NVPTX the alignment decides the instruction: a ``vector<4xf32>`` access aligned to
16 bytes becomes one ``ld.global.v4``/``st.global.v4``; aligned to 4 (the element
default) LLVM splits it into four scalar accesses, exactly as with mlir-opt-22.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xdsl_gpu.gpu_dialect import llvm, vector
from xdsl_gpu.gpu_dialect.llvm_vector import (
    MaskedCompressStoreOp as LLVMCompressStoreOp,
)
from xdsl_gpu.gpu_dialect.llvm_vector import MaskedExpandLoadOp as LLVMExpandLoadOp
from xdsl_gpu.gpu_dialect.llvm_vector import MaskedLoadOp as LLVMMaskedLoadOp
from xdsl_gpu.gpu_dialect.llvm_vector import MaskedStoreOp as LLVMMaskedStoreOp
from xdsl_gpu.gpu_dialect.vector.memory_ops import access_alignment
from xdsl_gpu.passes.finalize_memref_to_llvm import MemRefLoweringOptions, MemRefPattern
from xdsl_gpu.passes.memref_descriptor import (
    GEP_NONE,
    MemRefDescriptor,
    strided_element_ptr,
)


def _power_of_two_at_least(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def abi_alignment(t: Attribute, index_bitwidth: int) -> int:
    """The ABI alignment in bytes of a scalar or vector type under LLVM's default
    data layout (which NVPTX and x86-64 agree on for these types)."""
    if isinstance(t, VectorType):
        bits = _bit_width(t.element_type, index_bitwidth) * t.element_count()
        return _power_of_two_at_least(max(1, (bits + 7) // 8))
    return _power_of_two_at_least(max(1, (_bit_width(t, index_bitwidth) + 7) // 8))


def _bit_width(t: Attribute, index_bitwidth: int) -> int:
    if isinstance(t, IndexType):
        return index_bitwidth
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, AnyFloat):
        return t.bitwidth
    return 8


class VectorAccessPattern(MemRefPattern):
    """Common part of the four accesses: the address and the alignment."""

    def __init__(self, options: MemRefLoweringOptions, use_vector_alignment: bool):
        super().__init__(options)
        self.use_vector_alignment = use_vector_alignment

    def alignment(self, op: Operation, memref_type: MemRefType, v: VectorType) -> int:
        explicit = access_alignment(op)
        if explicit is not None:
            return explicit
        bitwidth = self.options.index_type.width.data
        if self.use_vector_alignment:
            return abi_alignment(v, bitwidth)
        return abi_alignment(memref_type.element_type, bitwidth)

    def address(
        self,
        op: Operation,
        memref_type: MemRefType,
        descriptor: SSAValue,
        indices: list[SSAValue],
        rewriter: PatternRewriter,
    ) -> SSAValue:
        o = self.options
        o.strided(op, memref_type)
        element = o.element_type(op, memref_type)
        return strided_element_ptr(
            rewriter,
            memref_type,
            MemRefDescriptor(descriptor),
            indices,
            element,
            GEP_NONE,
        )


def _one_d(t: Attribute) -> VectorType | None:
    if isinstance(t, VectorType) and t.get_num_dims() == 1:
        return cast(VectorType, t)
    return None


def _one_d_or_0_d(t: Attribute) -> VectorType | None:
    """1-D, or 0-D (a ``vector<1xT>`` in LLVM, as upstream converts it)."""
    if isinstance(t, VectorType) and t.get_num_dims() <= 1:
        return cast(VectorType, t)
    return None


class LoadLowering(VectorAccessPattern):
    op_type = vector.LoadOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue] | None:
        load = cast(vector.LoadOp, op)
        v = _one_d_or_0_d(load.result.type)
        if v is None:
            return None  # n-D: unrolled to 1-D loads before (vector transforms)
        memref_type = cast(MemRefType, load.base.type)
        converted, *indices = self.options.operands(op, rewriter)
        address = self.address(op, memref_type, converted, indices, rewriter)
        nontemporal = bool(load.nontemporal and load.nontemporal.value.data)
        new = llvm.LoadOp(
            address,
            self.options.convert(op, v),
            self.alignment(op, memref_type, v),
            nontemporal=nontemporal,
        )
        rewriter.insert(new)
        return [new.dereferenced_value]


class StoreLowering(VectorAccessPattern):
    op_type = vector.StoreOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue] | None:
        store = cast(vector.StoreOp, op)
        v = _one_d_or_0_d(store.vector.type)
        if v is None:
            return None
        memref_type = cast(MemRefType, store.base.type)
        value, converted, *indices = self.options.operands(op, rewriter)
        address = self.address(op, memref_type, converted, indices, rewriter)
        nontemporal = bool(store.nontemporal and store.nontemporal.value.data)
        rewriter.insert(
            llvm.StoreOp(
                value,
                address,
                self.alignment(op, memref_type, v),
                nontemporal=nontemporal,
            )
        )
        return []


class MaskedLoadLowering(VectorAccessPattern):
    op_type = vector.MaskedLoadOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue] | None:
        load = cast(vector.MaskedLoadOp, op)
        v = _one_d(load.result.type)
        if v is None:
            return None
        memref_type = cast(MemRefType, load.base.type)
        converted, *rest = self.options.operands(op, rewriter)
        *indices, mask, pass_thru = rest
        address = self.address(op, memref_type, converted, indices, rewriter)
        new = LLVMMaskedLoadOp(
            address, mask, pass_thru, self.alignment(op, memref_type, v)
        )
        rewriter.insert(new)
        return [new.res]


class MaskedStoreLowering(VectorAccessPattern):
    op_type = vector.MaskedStoreOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue] | None:
        store = cast(vector.MaskedStoreOp, op)
        v = _one_d(store.value_to_store.type)
        if v is None:
            return None
        memref_type = cast(MemRefType, store.base.type)
        converted, *rest = self.options.operands(op, rewriter)
        *indices, mask, value = rest
        address = self.address(op, memref_type, converted, indices, rewriter)
        rewriter.insert(
            LLVMMaskedStoreOp(value, address, mask, self.alignment(op, memref_type, v))
        )
        return []


class ExpandLoadLowering(VectorAccessPattern):
    """``expandload``: ``llvm.intr.masked.expandload`` at the address; the pointer
    carries ``llvm.align`` only when the op has an ``alignment`` (as upstream)."""

    op_type = vector.ExpandLoadOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue] | None:
        load = cast(vector.ExpandLoadOp, op)
        if _one_d(load.result.type) is None:
            return None
        memref_type = cast(MemRefType, load.base.type)
        converted, *rest = self.options.operands(op, rewriter)
        *indices, mask, pass_thru = rest
        address = self.address(op, memref_type, converted, indices, rewriter)
        new = LLVMExpandLoadOp(address, mask, pass_thru, access_alignment(op))
        rewriter.insert(new)
        return [new.res]


class CompressStoreLowering(VectorAccessPattern):
    op_type = vector.CompressStoreOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue] | None:
        store = cast(vector.CompressStoreOp, op)
        if _one_d(store.valueToStore.type) is None:
            return None
        memref_type = cast(MemRefType, store.base.type)
        converted, *rest = self.options.operands(op, rewriter)
        *indices, mask, value = rest
        address = self.address(op, memref_type, converted, indices, rewriter)
        rewriter.insert(LLVMCompressStoreOp(value, address, mask, access_alignment(op)))
        return []


class TypeCastLowering(MemRefPattern):
    """``vector.type_cast %m : memref<vector<2x4xf32>> to memref<2xvector<4xf32>>``:
    a descriptor of the result's static shape on the same pointers, as upstream's
    ``VectorTypeCastOpConversion`` (both memrefs static with identity layouts)."""

    op_type = vector.TypeCastOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue] | None:
        cast_op = cast(vector.TypeCastOp, op)
        source_t, result_t = cast_op.memref.type, cast_op.result.type
        if not isinstance(source_t, MemRefType) or not isinstance(result_t, MemRefType):
            return None
        if not source_t.has_static_shape() or not result_t.has_static_shape():
            return None
        (converted,) = self.options.operands(op, rewriter)
        source = MemRefDescriptor(converted)
        result = MemRefDescriptor.from_static_shape(
            rewriter,
            self.options.descriptor_type(op, result_t),
            result_t,
            source.allocated_ptr(rewriter),
            source.aligned_ptr(rewriter),
        )
        return [result.value]


def vector_memory_patterns(
    options: MemRefLoweringOptions, use_vector_alignment: bool = False
) -> list[MemRefPattern]:
    """The vector access lowerings, for convert-vector-to-llvm and for the patterns
    convert-gpu-to-nvvm runs inside ``gpu.module``."""
    accesses = (
        LoadLowering,
        StoreLowering,
        MaskedLoadLowering,
        MaskedStoreLowering,
        ExpandLoadLowering,
        CompressStoreLowering,
    )
    return [
        *(cls(options, use_vector_alignment) for cls in accesses),
        TypeCastLowering(options),
    ]


__all__ = ["abi_alignment", "vector_memory_patterns"]
