"""Memory attributions and dynamic shared memory.

* A workgroup attribution ``memref<NxMxT, #gpu.address_space<workgroup>>`` of
  ``@f`` becomes ``llvm.mlir.global internal @__wg_f_<i>() {addr_space = 3}``
  of type ``!llvm.array<N*M x T>`` (``alignment`` from the attribution's
  ``llvm.align``); the body sees a static descriptor of its address.
* A private attribution becomes ``llvm.alloca <N*M> x T`` (``alignment`` from
  ``llvm.align``) in address space 0, NVVM's local memory.
* ``gpu.dynamic_shared_memory`` becomes a descriptor of
  ``@__dynamic_shmem__0`` (``!llvm.array<0 x i8>``, addr_space 3, alignment 16; one
  per module, or any such global the module has), ``internal``, of size 0 and
  stride 1, as upstream. Every zero-length shared array is dynamic shared memory:
  the NVVM serializer declares it so in PTX (``targets/nvvm/dynamic_shared_memory.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    MemRefType,
    UnrealizedConversionCastOp,
    i8,
    i64,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu import compute_ops as gpu
from xdsl_gpu.passes.gpu_to_nvvm_patterns.common import NVVMLowering, legalize_error
from xdsl_gpu.passes.llvm_type_converter import replace_op
from xdsl_gpu.passes.memref_descriptor import (
    MemRefDescriptor,
    alloca,
    gep,
    int_constant,
    ptr_type,
)

SHARED = 3
"""NVVM's shared memory address space."""

DYNAMIC_SHMEM_PREFIX = "__dynamic_shmem_"
"""Upstream's name, numbered: ``__dynamic_shmem__0`` (``__dynamic_shmem__1``...
when taken)."""
DYNAMIC_SHMEM_ALIGNMENT = 16
LLVM_ALIGN = "llvm.align"


def _alignment(attrs: ArrayAttr[DictionaryAttr] | None, index: int) -> int | None:
    if attrs is None or index >= len(attrs.data):
        return None
    align = attrs.data[index].data.get(LLVM_ALIGN)
    return align.value.data if isinstance(align, IntegerAttr) else None


def _static_memref(
    lowering: NVVMLowering, arg: BlockArgument, func: Operation
) -> tuple[MemRefType, llvm.LLVMStructType, Attribute]:
    t = arg.type
    struct = (
        lowering.converter.memref_descriptor_type(t)
        if isinstance(t, MemRefType)
        else None
    )
    element = (
        lowering.converter.convert_type(t.element_type)
        if isinstance(t, MemRefType)
        else None
    )
    if (
        not isinstance(t, MemRefType)
        or not t.has_static_shape()
        or struct is None
        or element is None
    ):
        raise legalize_error(
            func,
            f"the memory attribution of type {t} needs a static shape and an element "
            "type with an LLVM form",
        )
    return t, struct, element


Attributions = tuple[Sequence[BlockArgument], ArrayAttr[DictionaryAttr] | None]
"""The attribution arguments of one kind and their attribute dictionaries."""


def lower_attributions(
    lowering: NVVMLowering,
    func: Operation,
    name: str,
    workgroup: Attributions,
    private: Attributions,
    builder: Builder,
) -> None:
    """Replace the attribution arguments of function ``@name`` by descriptors
    (globals for workgroup buffers, allocas for private ones), built by
    ``builder``; the arguments are left without uses."""
    args, attrs = workgroup
    for i, arg in enumerate(args):
        t, struct, element = _static_memref(lowering, arg, func)
        array = llvm.LLVMArrayType(prod(t.get_shape()), element)
        glob = llvm.GlobalOp(
            array,
            lowering.fresh_name(f"__wg_{name}_{i}"),
            "internal",
            addr_space=SHARED,
            alignment=_alignment(attrs, i),
        )
        lowering.insert_at_start(glob)
        address = builder.insert(llvm.AddressOfOp(glob.sym_name, ptr_type(SHARED)))
        base = gep(builder, address.results[0], [0, 0], array)
        _replace(builder, arg, struct, t, base)
    args, attrs = private
    for i, arg in enumerate(args):
        t, struct, element = _static_memref(lowering, arg, func)
        # The count is an i64 whatever the index width, as upstream.
        count = int_constant(builder, i64, prod(t.get_shape()))
        base = alloca(builder, count, element, alignment=_alignment(attrs, i) or 0)
        _replace(builder, arg, struct, t, base)


def _replace(
    builder: Builder,
    arg: BlockArgument,
    struct: llvm.LLVMStructType,
    t: MemRefType,
    base: SSAValue,
) -> None:
    desc = MemRefDescriptor.from_static_shape(builder, struct, t, base, base)
    cast = builder.insert(
        UnrealizedConversionCastOp.create(operands=[desc.value], result_types=[t])
    )
    arg.replace_all_uses_with(cast.results[0])


@dataclass
class DynamicSharedMemoryLowering(RewritePattern):
    lowering: NVVMLowering

    acts_on = (gpu.DynamicSharedMemoryOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.DynamicSharedMemoryOp):
            return
        t = op.resultMemref.type
        assert isinstance(t, MemRefType)
        struct = self.lowering.converter.memref_descriptor_type(t)
        assert struct is not None
        glob = self._symbol()
        builder = Builder(InsertPoint.before(op))
        address = builder.insert(llvm.AddressOfOp(glob.sym_name, ptr_type(SHARED)))
        base = gep(builder, address.results[0], [0], i8)
        desc = MemRefDescriptor.poison(builder, struct)
        desc.set_allocated_ptr(builder, base)
        desc.set_aligned_ptr(builder, base)
        desc.set_constant_offset(builder, 0)
        desc.set_constant_size(builder, 0, 0)
        desc.set_constant_stride(builder, 0, 1)
        replace_op(op, [], [desc.value], rewriter)

    def _symbol(self) -> llvm.GlobalOp:
        """The module's zero-length array in shared memory aligned to 16 (any
        linkage: a user's ``memref.global`` of ``memref<0xf16, 3>`` is taken too,
        as upstream does), else a new internal one."""
        for op in self.lowering.body.ops:
            if (
                isinstance(op, llvm.GlobalOp)
                and isinstance(op.global_type, llvm.LLVMArrayType)
                and op.global_type.size.data == 0
                and op.addr_space.value.data == SHARED
                and op.alignment is not None
                and op.alignment.value.data == DYNAMIC_SHMEM_ALIGNMENT
            ):
                return op
        glob = llvm.GlobalOp(
            llvm.LLVMArrayType(0, i8),
            self.lowering.unique_name(DYNAMIC_SHMEM_PREFIX),
            "internal",
            addr_space=SHARED,
            alignment=DYNAMIC_SHMEM_ALIGNMENT,
        )
        self.lowering.insert_at_start(glob)
        return glob


def attribution_patterns(lowering: NVVMLowering) -> list[RewritePattern]:
    return [DynamicSharedMemoryLowering(lowering)]


__all__: Sequence[str] = (
    "DYNAMIC_SHMEM_ALIGNMENT",
    "DYNAMIC_SHMEM_PREFIX",
    "attribution_patterns",
    "lower_attributions",
)
