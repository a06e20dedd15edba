"""Memref descriptors in the ``llvm`` dialect: layout facts and a builder API.

A ranked ``memref<d0 x ... x T>`` lowers to the struct upstream MLIR calls a *memref
descriptor* (``mlir/include/mlir/Conversion/LLVMCommon/MemRefBuilder.h``)::

    !llvm.struct<(ptr, ptr, iN, array<R x iN>, array<R x iN>)>
                  │    │    │   │               └ strides
                  │    │    │   └ sizes
                  │    │    └ offset (in elements, from the aligned pointer)
                  │    └ aligned pointer (what loads and stores use)
                  └ allocated pointer (what ``free`` gets)

(a rank-0 memref has only the first three fields), with ``iN`` the index type and the
pointers in the memref's LLVM address space. An unranked ``memref<*xT>`` lowers to
``!llvm.struct<(iN, ptr)>``: the rank and a pointer to a ranked descriptor in memory.

:class:`MemRefDescriptor` and :class:`UnrankedMemRefDescriptor` wrap an SSA value of
those struct types and insert ``llvm.extractvalue``/``llvm.insertvalue`` (and loads,
stores and GEPs for the unranked form) through any xDSL :class:`~xdsl.builder.Builder`,
a :class:`~xdsl.pattern_rewriter.PatternRewriter` included, at its insertion point. The
setters return nothing and update the wrapped value, as upstream's do. The free
functions compute element addresses (:func:`strided_element_ptr`) and read layouts
(:func:`strides_and_offset`).

The passes ``finalize-memref-to-llvm``, ``convert-gpu-to-nvvm`` and ``gpu-to-llvm`` all
build descriptors with this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import cast

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)

from xdsl_gpu.gpu_dialect import llvm

__all__ = [
    "GEP_INBOUNDS",
    "GEP_INBOUNDS_NUW",
    "GEP_NONE",
    "GEP_NUW",
    "MemRefDescriptor",
    "UnrankedMemRefDescriptor",
    "add",
    "address_space_of",
    "alloca",
    "descriptor_struct_type",
    "extract",
    "gep",
    "index_constant",
    "insert",
    "int_constant",
    "is_identity_layout",
    "load",
    "mul",
    "poison",
    "promote_to_stack",
    "ptr_type",
    "store",
    "strided_element_ptr",
    "strides_and_offset",
    "sub",
    "unranked_descriptor_struct_type",
]

ALLOCATED_PTR = 0
ALIGNED_PTR = 1
OFFSET = 2
SIZES = 3
STRIDES = 4

# ``GEPNoWrapFlags`` of MLIR's llvm dialect (the ``noWrapFlags`` property).
GEP_NONE = 0
GEP_INBOUNDS = 3  # inbounds implies nusw
GEP_NUW = 4
GEP_INBOUNDS_NUW = GEP_INBOUNDS | GEP_NUW

# ``IntegerOverflowFlags`` of the llvm dialect (``overflowFlags``): nsw = 1, nuw = 2.
_OVERFLOW_NSW = 1
_OVERFLOW_NUW = 2


# --------------------------------------------------------------------------------------
# Layouts
# --------------------------------------------------------------------------------------


def is_identity_layout(memref_type: MemRefType) -> bool:
    """Whether the memref has the default row-major layout (no layout, or an identity
    affine map)."""
    layout = memref_type.layout
    if isinstance(layout, NoneAttr):
        return True
    if isinstance(layout, AffineMapAttr):
        amap = layout.data
        return (
            amap.num_symbols == 0
            and amap.num_dims == len(amap.results)
            and all(
                isinstance(e, AffineDimExpr) and e.position == i
                for i, e in enumerate(amap.results)
            )
        )
    return False


def _linear_form(expr: AffineExpr, num_dims: int) -> tuple[list[int], int] | None:
    """``expr`` as ``sum(coeff_i * d_i) + constant``, if it is that."""
    match expr:
        case AffineConstantExpr():
            return [0] * num_dims, expr.value
        case AffineDimExpr():
            coeffs = [0] * num_dims
            coeffs[expr.position] = 1
            return coeffs, 0
        case AffineBinaryOpExpr(kind=AffineBinaryOpKind.Add):
            lhs = _linear_form(expr.lhs, num_dims)
            rhs = _linear_form(expr.rhs, num_dims)
            if lhs is None or rhs is None:
                return None
            return [a + b for a, b in zip(lhs[0], rhs[0])], lhs[1] + rhs[1]
        case AffineBinaryOpExpr(kind=AffineBinaryOpKind.Mul):
            lhs = _linear_form(expr.lhs, num_dims)
            rhs = _linear_form(expr.rhs, num_dims)
            if lhs is None or rhs is None:
                return None
            if not any(rhs[0]):
                return [a * rhs[1] for a in lhs[0]], lhs[1] * rhs[1]
            if not any(lhs[0]):
                return [b * lhs[1] for b in rhs[0]], lhs[1] * rhs[1]
            return None
        case _:
            return None


def strides_and_offset(
    memref_type: MemRefType,
) -> tuple[list[int | None], int | None]:
    """The strides and offset of a strided memref type, ``None`` where dynamic.

    Like MLIR's ``MemRefType::getStridesAndOffset``: the default layout gives row-major
    strides (dynamic from the innermost dynamic size outwards) and offset 0; a
    ``strided<...>`` layout gives its own; an affine map layout counts when it is
    linear in the dimensions with constant coefficients.

    Raises:
        ValueError: if the layout is not strided.
    """
    shape = memref_type.get_shape()
    layout = memref_type.layout
    if isinstance(layout, NoneAttr) or is_identity_layout(memref_type):
        strides: list[int | None] = []
        running: int | None = 1
        for size in reversed(shape):
            strides.append(running)
            if running is not None:
                running = None if size < 0 else running * size
        return list(reversed(strides)), 0
    if isinstance(layout, StridedLayoutAttr):
        return list(layout.get_strides()), layout.get_offset()
    if isinstance(layout, AffineMapAttr):
        amap = layout.data
        if amap.num_symbols == 0 and len(amap.results) == 1:
            form = _linear_form(amap.results[0], amap.num_dims)
            if form is not None and amap.num_dims == len(shape):
                return list[int | None](form[0]), form[1]
    raise ValueError(f"{memref_type} does not have a strided layout")


# --------------------------------------------------------------------------------------
# Types and small builders
# --------------------------------------------------------------------------------------


def ptr_type(address_space: int = 0) -> llvm.LLVMPointerType:
    """``!llvm.ptr`` in ``address_space`` (0 prints as plain ``!llvm.ptr``)."""
    if address_space == 0:
        return llvm.LLVMPointerType()
    return llvm.LLVMPointerType(IntAttr(address_space))


def address_space_of(pointer: Attribute) -> int:
    assert isinstance(pointer, llvm.LLVMPointerType)
    space = pointer.addr_space
    return space.data if isinstance(space, IntAttr) else 0


def descriptor_struct_type(
    rank: int, index_type: IntegerType = i64, address_space: int = 0
) -> llvm.LLVMStructType:
    """The descriptor struct of a ranked memref of ``rank`` dimensions."""
    ptr = ptr_type(address_space)
    fields: list[Attribute] = [ptr, ptr, index_type]
    if rank > 0:
        array = llvm.LLVMArrayType(rank, index_type)
        fields += [array, array]
    return llvm.LLVMStructType.from_type_list(fields)


def unranked_descriptor_struct_type(
    index_type: IntegerType = i64,
) -> llvm.LLVMStructType:
    """``!llvm.struct<(iN, ptr)>``: rank and pointer to a ranked descriptor."""
    return llvm.LLVMStructType.from_type_list([index_type, ptr_type(0)])


def poison(builder: Builder, value_type: Attribute) -> SSAValue:
    """Insert ``llvm.mlir.poison : value_type``."""
    op = llvm.PoisonOp(value_type)
    builder.insert(op)
    return op.res


def constant_op(value: Attribute, result_type: Attribute) -> llvm.ConstantOp:
    """``llvm.mlir.constant(value) : result_type``, made from its parts (xDSL's
    generic builder costs twice as much as the op)."""
    return llvm.ConstantOp.create(
        properties={"value": value}, result_types=[result_type]
    )


@lru_cache(maxsize=4096)
def integer_attr(value: int, t: IntegerType | IndexType) -> IntegerAttr:
    """``value : t``, built once per value and type (attributes are values)."""
    return IntegerAttr(value, t)


def index_constant(builder: Builder, index_type: IntegerType, value: int) -> SSAValue:
    """Insert ``llvm.mlir.constant(value : index) : iN``."""
    op = constant_op(integer_attr(value, IndexType()), index_type)
    return builder.insert(op).result


def int_constant(builder: Builder, int_type: IntegerType, value: int) -> SSAValue:
    """Insert ``llvm.mlir.constant(value : iN) : iN``."""
    return builder.insert(constant_op(integer_attr(value, int_type), int_type)).result


@lru_cache(maxsize=16)
def overflow_flags(bits: int) -> IntegerAttr:
    """The ``overflowFlags`` property (``nsw`` = 1, ``nuw`` = 2), made once."""
    return IntegerAttr(bits, 32)


def overflow_op(
    cls: type[llvm.ArithmeticBinOpOverflow], lhs: SSAValue, rhs: SSAValue, bits: int = 0
) -> llvm.ArithmeticBinOpOverflow:
    """``cls`` (``llvm.add``, ``sub``, ``mul``, ``shl``) of ``lhs`` and ``rhs`` with
    overflow flags ``bits``, made from its parts: index arithmetic is a good part
    of a lowered kernel, and xDSL's builder costs twice as much as the op."""
    return cls.create(
        operands=[lhs, rhs],
        result_types=[lhs.type],
        properties={"overflowFlags": overflow_flags(bits)},
    )


def add(builder: Builder, lhs: SSAValue, rhs: SSAValue, flags: int = 0) -> SSAValue:
    return builder.insert(overflow_op(llvm.AddOp, lhs, rhs, flags)).res


def sub(builder: Builder, lhs: SSAValue, rhs: SSAValue, flags: int = 0) -> SSAValue:
    return builder.insert(overflow_op(llvm.SubOp, lhs, rhs, flags)).res


def mul(builder: Builder, lhs: SSAValue, rhs: SSAValue, flags: int = 0) -> SSAValue:
    return builder.insert(overflow_op(llvm.MulOp, lhs, rhs, flags)).res


def gep(
    builder: Builder,
    base: SSAValue,
    indices: Sequence[int | SSAValue],
    element_type: Attribute,
    flags: int = GEP_NONE,
) -> SSAValue:
    """Insert ``llvm.getelementptr [flags] base[indices] : ..., element_type``."""
    op = llvm.GEPOp.from_mixed_indices(
        base,
        indices,
        element_type,
        result_type=cast(llvm.LLVMPointerType, base.type),
        no_wrap_flags=flags,
    )
    builder.insert(op)
    return op.result


def load(builder: Builder, pointer: SSAValue, result_type: Attribute) -> SSAValue:
    op = llvm.LoadOp(pointer, result_type)
    builder.insert(op)
    return op.dereferenced_value


def store(builder: Builder, value: SSAValue, pointer: SSAValue) -> None:
    builder.insert(llvm.StoreOp(value, pointer))


def alloca(
    builder: Builder,
    count: SSAValue,
    element_type: Attribute,
    alignment: int = 0,
    address_space: int = 0,
) -> SSAValue:
    """Insert ``llvm.alloca count x element_type`` (no alignment attribute when 0)."""
    properties: dict[str, Attribute] = {"elem_type": element_type}
    if alignment:
        properties["alignment"] = IntegerAttr(alignment, 64)
    op = llvm.AllocaOp.create(
        operands=[count],
        result_types=[ptr_type(address_space)],
        properties=properties,
    )
    builder.insert(op)
    return op.results[0]


@cache
def _position(indices: tuple[int, ...]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, indices)


def extract_value_op(
    container: SSAValue, position: Sequence[int], result_type: Attribute
) -> llvm.ExtractValueOp:
    """``llvm.extractvalue %container[position] : result_type``, made from its parts:
    with the ``insertvalue``\\ s, the commonest op of a lowered program, and xDSL's
    generic builder (and a new ``position`` array each time) cost three times as
    much as the op itself."""
    return llvm.ExtractValueOp.create(
        operands=[container],
        result_types=[result_type],
        properties={"position": _position(tuple(position))},
    )


def insert_value_op(
    container: SSAValue, value: SSAValue, position: Sequence[int]
) -> llvm.InsertValueOp:
    """``llvm.insertvalue %value, %container[position]`` (see
    :func:`extract_value_op`)."""
    return llvm.InsertValueOp.create(
        operands=[container, value],
        result_types=[container.type],
        properties={"position": _position(tuple(position))},
    )


def extract(
    builder: Builder,
    container: SSAValue,
    position: Sequence[int],
    result_type: Attribute,
) -> SSAValue:
    return builder.insert(extract_value_op(container, position, result_type)).res


def insert(
    builder: Builder, container: SSAValue, value: SSAValue, position: Sequence[int]
) -> SSAValue:
    return builder.insert(insert_value_op(container, value, position)).res


def _as_int_type(attr: Attribute) -> IntegerType:
    assert isinstance(attr, IntegerType), attr
    return attr


# --------------------------------------------------------------------------------------
# Ranked descriptors
# --------------------------------------------------------------------------------------


class MemRefDescriptor:
    """A ranked memref descriptor: an SSA value of :func:`descriptor_struct_type`.

    Mirrors upstream's ``MemRefDescriptor``: getters insert an ``llvm.extractvalue`` and
    return the field, setters insert an ``llvm.insertvalue`` and make its result the
    descriptor's new :attr:`value`.
    """

    def __init__(self, value: SSAValue):
        if not isinstance(value.type, llvm.LLVMStructType):
            raise TypeError(f"a memref descriptor is an LLVM struct, not {value.type}")
        self.value = value

    # ---- construction ----------------------------------------------------------------

    @classmethod
    def poison(
        cls, builder: Builder, struct_type: llvm.LLVMStructType
    ) -> MemRefDescriptor:
        """A descriptor with every field poison (``llvm.mlir.poison``)."""
        return cls(poison(builder, struct_type))

    @classmethod
    def from_static_shape(
        cls,
        builder: Builder,
        struct_type: llvm.LLVMStructType,
        memref_type: MemRefType,
        allocated: SSAValue,
        aligned: SSAValue,
    ) -> MemRefDescriptor:
        """A descriptor of a memref whose shape, strides and offset are static."""
        strides, offset = strides_and_offset(memref_type)
        if offset is None or any(s is None for s in strides):
            raise ValueError(f"{memref_type} has a dynamic offset or stride")
        if not memref_type.has_static_shape():
            raise ValueError(f"{memref_type} has a dynamic shape")
        desc = cls.poison(builder, struct_type)
        desc.set_allocated_ptr(builder, allocated)
        desc.set_aligned_ptr(builder, aligned)
        desc.set_constant_offset(builder, offset)
        for i, size in enumerate(memref_type.get_shape()):
            desc.set_constant_size(builder, i, size)
            desc.set_constant_stride(builder, i, cast(int, strides[i]))
        return desc

    @classmethod
    def pack(
        cls,
        builder: Builder,
        struct_type: llvm.LLVMStructType,
        values: Sequence[SSAValue],
    ) -> MemRefDescriptor:
        """A descriptor from its fields in order: allocated, aligned, offset, sizes...,
        strides... (the form the descriptor calling convention passes)."""
        rank = cls._rank_of(struct_type)
        if len(values) != 3 + 2 * rank:
            raise ValueError(
                f"a rank-{rank} descriptor has {3 + 2 * rank} fields, got {len(values)}"
            )
        desc = cls.poison(builder, struct_type)
        desc.set_allocated_ptr(builder, values[0])
        desc.set_aligned_ptr(builder, values[1])
        desc.set_offset(builder, values[2])
        for i in range(rank):
            desc.set_size(builder, i, values[3 + i])
            desc.set_stride(builder, i, values[3 + rank + i])
        return desc

    def unpack(self, builder: Builder) -> list[SSAValue]:
        """Every field, in :meth:`pack` order."""
        fields = [
            self.allocated_ptr(builder),
            self.aligned_ptr(builder),
            self.offset(builder),
        ]
        fields += [self.size(builder, i) for i in range(self.rank)]
        fields += [self.stride(builder, i) for i in range(self.rank)]
        return fields

    # ---- type facts ----------------------------------------------------------------

    @staticmethod
    def _rank_of(struct_type: llvm.LLVMStructType) -> int:
        fields = struct_type.types.data
        if len(fields) == 3:
            return 0
        array = fields[SIZES]
        assert isinstance(array, llvm.LLVMArrayType)
        return array.size.data

    @property
    def struct_type(self) -> llvm.LLVMStructType:
        return cast(llvm.LLVMStructType, self.value.type)

    @property
    def rank(self) -> int:
        return self._rank_of(self.struct_type)

    @property
    def index_type(self) -> IntegerType:
        return _as_int_type(self.struct_type.types.data[OFFSET])

    @property
    def element_ptr_type(self) -> llvm.LLVMPointerType:
        return cast(llvm.LLVMPointerType, self.struct_type.types.data[ALIGNED_PTR])

    @property
    def address_space(self) -> int:
        return address_space_of(self.element_ptr_type)

    # ---- fields --------------------------------------------------------------------

    def _get(self, builder: Builder, position: Sequence[int], t: Attribute) -> SSAValue:
        return extract(builder, self.value, position, t)

    def _set(self, builder: Builder, position: Sequence[int], v: SSAValue) -> None:
        self.value = insert(builder, self.value, v, position)

    def allocated_ptr(self, builder: Builder) -> SSAValue:
        return self._get(builder, [ALLOCATED_PTR], self.element_ptr_type)

    def set_allocated_ptr(self, builder: Builder, value: SSAValue) -> None:
        self._set(builder, [ALLOCATED_PTR], value)

    def aligned_ptr(self, builder: Builder) -> SSAValue:
        return self._get(builder, [ALIGNED_PTR], self.element_ptr_type)

    def set_aligned_ptr(self, builder: Builder, value: SSAValue) -> None:
        self._set(builder, [ALIGNED_PTR], value)

    def offset(self, builder: Builder) -> SSAValue:
        return self._get(builder, [OFFSET], self.index_type)

    def set_offset(self, builder: Builder, value: SSAValue) -> None:
        self._set(builder, [OFFSET], value)

    def set_constant_offset(self, builder: Builder, value: int) -> None:
        self.set_offset(builder, index_constant(builder, self.index_type, value))

    def size(self, builder: Builder, dim: int) -> SSAValue:
        return self._get(builder, [SIZES, dim], self.index_type)

    def set_size(self, builder: Builder, dim: int, value: SSAValue) -> None:
        self._set(builder, [SIZES, dim], value)

    def set_constant_size(self, builder: Builder, dim: int, value: int) -> None:
        self.set_size(builder, dim, index_constant(builder, self.index_type, value))

    def stride(self, builder: Builder, dim: int) -> SSAValue:
        return self._get(builder, [STRIDES, dim], self.index_type)

    def set_stride(self, builder: Builder, dim: int, value: SSAValue) -> None:
        self._set(builder, [STRIDES, dim], value)

    def set_constant_stride(self, builder: Builder, dim: int, value: int) -> None:
        self.set_stride(builder, dim, index_constant(builder, self.index_type, value))

    def size_at(self, builder: Builder, dim: SSAValue) -> SSAValue:
        """The size of a dimension chosen at run time: the sizes array is copied to the
        stack and indexed there (upstream's ``MemRefDescriptor::size(b, loc, Value,
        rank)``)."""
        index_type = self.index_type
        array_type = llvm.LLVMArrayType(self.rank, index_type)
        one = index_constant(builder, index_type, 1)
        sizes = self._get(builder, [SIZES], array_type)
        slot = alloca(builder, one, array_type)
        store(builder, sizes, slot)
        address = gep(builder, slot, [0, dim], array_type)
        return load(builder, address, index_type)

    def buffer_ptr(
        self, builder: Builder, memref_type: MemRefType, element_type: Attribute
    ) -> SSAValue:
        """The address of element 0 of the view: the aligned pointer advanced by the
        offset (nothing is emitted for a static offset of 0)."""
        _, offset = strides_and_offset(memref_type)
        pointer = self.aligned_ptr(builder)
        if offset == 0:
            return pointer
        offset_value = (
            self.offset(builder)
            if offset is None
            else index_constant(builder, self.index_type, offset)
        )
        return gep(builder, pointer, [offset_value], element_type)


def strided_element_ptr(
    builder: Builder,
    memref_type: MemRefType,
    descriptor: MemRefDescriptor,
    indices: Sequence[SSAValue],
    element_type: Attribute,
    flags: int = GEP_NONE,
) -> SSAValue:
    """The address of ``memref[indices]``: ``buffer + sum(index_i * stride_i)``.

    Static strides become constants and stride-1 dimensions add their index directly,
    as in upstream's ``LLVM::getStridedElementPtr``. With ``flags`` inbounds/nuw, the
    index arithmetic carries ``nsw``/``nuw`` too.
    """
    strides, _ = strides_and_offset(memref_type)
    base = descriptor.buffer_ptr(builder, memref_type, element_type)
    overflow = 0
    if flags & 2:  # nusw (inbounds implies it)
        overflow |= _OVERFLOW_NSW
    if flags & GEP_NUW:
        overflow |= _OVERFLOW_NUW
    index: SSAValue | None = None
    for dim, increment in enumerate(indices):
        stride = strides[dim]
        if stride != 1:
            stride_value = (
                descriptor.stride(builder, dim)
                if stride is None
                else index_constant(builder, descriptor.index_type, stride)
            )
            increment = mul(builder, increment, stride_value, overflow)
        index = increment if index is None else add(builder, index, increment, overflow)
    if index is None:
        return base
    return gep(builder, base, [index], element_type, flags)


def promote_to_stack(builder: Builder, value: SSAValue) -> SSAValue:
    """Store ``value`` (a descriptor) in a fresh ``llvm.alloca`` and return the
    pointer (upstream's ``promoteOneMemRefDescriptor``)."""
    one = index_constant(builder, i64, 1)
    slot = alloca(builder, one, value.type)
    store(builder, value, slot)
    return slot


# --------------------------------------------------------------------------------------
# Unranked descriptors
# --------------------------------------------------------------------------------------


class UnrankedMemRefDescriptor:
    """An unranked memref descriptor ``!llvm.struct<(iN, ptr)>``.

    The pointer designates a ranked descriptor in memory; the static helpers address
    its fields through that pointer, as upstream's ``UnrankedMemRefDescriptor`` does.
    """

    RANK = 0
    DESCRIPTOR_PTR = 1

    def __init__(self, value: SSAValue):
        if not isinstance(value.type, llvm.LLVMStructType):
            raise TypeError(
                f"an unranked descriptor is an LLVM struct, not {value.type}"
            )
        self.value = value

    @classmethod
    def poison(
        cls, builder: Builder, struct_type: llvm.LLVMStructType
    ) -> UnrankedMemRefDescriptor:
        return cls(poison(builder, struct_type))

    @classmethod
    def pack(
        cls,
        builder: Builder,
        struct_type: llvm.LLVMStructType,
        rank: SSAValue,
        descriptor_ptr: SSAValue,
    ) -> UnrankedMemRefDescriptor:
        desc = cls.poison(builder, struct_type)
        desc.set_rank(builder, rank)
        desc.set_memref_desc_ptr(builder, descriptor_ptr)
        return desc

    @property
    def index_type(self) -> IntegerType:
        struct_type = cast(llvm.LLVMStructType, self.value.type)
        return _as_int_type(struct_type.types.data[self.RANK])

    def rank(self, builder: Builder) -> SSAValue:
        return extract(builder, self.value, [self.RANK], self.index_type)

    def set_rank(self, builder: Builder, value: SSAValue) -> None:
        self.value = insert(builder, self.value, value, [self.RANK])

    def memref_desc_ptr(self, builder: Builder) -> SSAValue:
        return extract(builder, self.value, [self.DESCRIPTOR_PTR], ptr_type(0))

    def set_memref_desc_ptr(self, builder: Builder, value: SSAValue) -> None:
        self.value = insert(builder, self.value, value, [self.DESCRIPTOR_PTR])

    # ---- fields of the ranked descriptor behind the pointer -------------------------

    @staticmethod
    def _prefix_type(
        element_ptr: llvm.LLVMPointerType, index_type: IntegerType
    ) -> llvm.LLVMStructType:
        return llvm.LLVMStructType.from_type_list(
            [element_ptr, element_ptr, index_type]
        )

    @staticmethod
    def allocated_ptr(
        builder: Builder, desc_ptr: SSAValue, element_ptr: llvm.LLVMPointerType
    ) -> SSAValue:
        return load(builder, desc_ptr, element_ptr)

    @staticmethod
    def set_allocated_ptr(
        builder: Builder, desc_ptr: SSAValue, value: SSAValue
    ) -> None:
        store(builder, value, desc_ptr)

    @staticmethod
    def aligned_ptr(
        builder: Builder, desc_ptr: SSAValue, element_ptr: llvm.LLVMPointerType
    ) -> SSAValue:
        address = gep(builder, desc_ptr, [1], element_ptr)
        return load(builder, address, element_ptr)

    @staticmethod
    def set_aligned_ptr(
        builder: Builder,
        desc_ptr: SSAValue,
        element_ptr: llvm.LLVMPointerType,
        value: SSAValue,
    ) -> None:
        address = gep(builder, desc_ptr, [1], element_ptr)
        store(builder, value, address)

    @classmethod
    def offset_base_ptr(
        cls,
        builder: Builder,
        desc_ptr: SSAValue,
        element_ptr: llvm.LLVMPointerType,
        index_type: IntegerType,
    ) -> SSAValue:
        return gep(builder, desc_ptr, [0, 2], cls._prefix_type(element_ptr, index_type))

    @classmethod
    def offset(
        cls,
        builder: Builder,
        desc_ptr: SSAValue,
        element_ptr: llvm.LLVMPointerType,
        index_type: IntegerType,
    ) -> SSAValue:
        address = cls.offset_base_ptr(builder, desc_ptr, element_ptr, index_type)
        return load(builder, address, index_type)

    @classmethod
    def set_offset(
        cls,
        builder: Builder,
        desc_ptr: SSAValue,
        element_ptr: llvm.LLVMPointerType,
        value: SSAValue,
    ) -> None:
        index_type = _as_int_type(value.type)
        address = cls.offset_base_ptr(builder, desc_ptr, element_ptr, index_type)
        store(builder, value, address)

    @classmethod
    def size_base_ptr(
        cls,
        builder: Builder,
        desc_ptr: SSAValue,
        element_ptr: llvm.LLVMPointerType,
        index_type: IntegerType,
    ) -> SSAValue:
        struct_type = llvm.LLVMStructType.from_type_list(
            [element_ptr, element_ptr, index_type, index_type]
        )
        return gep(builder, desc_ptr, [0, 3], struct_type)

    @staticmethod
    def stride_base_ptr(
        builder: Builder,
        size_base_ptr: SSAValue,
        rank: SSAValue,
        index_type: IntegerType,
    ) -> SSAValue:
        return gep(builder, size_base_ptr, [rank], index_type)

    @staticmethod
    def size(
        builder: Builder,
        size_base_ptr: SSAValue,
        dim: SSAValue,
        index_type: IntegerType,
    ) -> SSAValue:
        return load(builder, gep(builder, size_base_ptr, [dim], index_type), index_type)

    @staticmethod
    def set_size(
        builder: Builder, size_base_ptr: SSAValue, dim: SSAValue, value: SSAValue
    ) -> None:
        index_type = _as_int_type(value.type)
        store(builder, value, gep(builder, size_base_ptr, [dim], index_type))

    @staticmethod
    def stride(
        builder: Builder,
        stride_base_ptr: SSAValue,
        dim: SSAValue,
        index_type: IntegerType,
    ) -> SSAValue:
        address = gep(builder, stride_base_ptr, [dim], index_type)
        return load(builder, address, index_type)

    @staticmethod
    def set_stride(
        builder: Builder, stride_base_ptr: SSAValue, dim: SSAValue, value: SSAValue
    ) -> None:
        index_type = _as_int_type(value.type)
        store(builder, value, gep(builder, stride_base_ptr, [dim], index_type))

    @staticmethod
    def compute_size(
        builder: Builder,
        rank: SSAValue,
        index_type: IntegerType,
        pointer_bytes: int = 8,
    ) -> SSAValue:
        """Bytes of the ranked descriptor of ``rank`` dimensions: two pointers, the
        offset, then ``2 * rank`` sizes and strides."""
        index_bytes = index_type.width.data // 8
        two = index_constant(builder, index_type, 2)
        index_size = index_constant(builder, index_type, index_bytes)
        pointers = index_constant(builder, index_type, 2 * pointer_bytes)
        doubled = mul(builder, two, rank)
        plus_offset = add(builder, doubled, index_constant(builder, index_type, 1))
        indices_bytes = mul(builder, plus_offset, index_size)
        return add(builder, pointers, indices_bytes)


def op_result(op: Operation) -> SSAValue:
    """The single result of ``op``."""
    (result,) = op.results
    return result
