"""``finalize-memref-to-llvm``: the ``memref`` dialect to the ``llvm`` dialect.

Port of upstream MLIR 22's ``mlir/lib/Conversion/MemRefToLLVM/MemRefToLLVM.cpp`` (with
the pieces of ``LLVMCommon/Pattern.cpp`` and ``MemRefBuilder.cpp`` it relies on). A
ranked memref becomes its descriptor ``!llvm.struct<(ptr, ptr, iN, array<R x iN>,
array<R x iN>)>`` and an unranked one ``!llvm.struct<(iN, ptr)>``
(:mod:`passes.memref_descriptor`):

==================================  ===================================================
memref                              llvm
==================================  ===================================================
load, store                         strided address (``getelementptr inbounds|nuw``,
                                    ``mul``/``add overflow<nsw, nuw>``), load/store
alloc                               ``malloc`` (aligned by hand when ``alignment`` is
                                    set or the element is not a scalar), or
                                    ``aligned_alloc`` with ``use-aligned-alloc``
alloca                              ``llvm.alloca``
dealloc                             ``free`` of the allocated pointer
alloca_scope                        ``stacksave`` / blocks / ``stackrestore``
assume_alignment                    ``llvm.intr.assume ["align"(ptr, n)]``
global, get_global                  ``llvm.mlir.global`` (nested arrays, linkage,
                                    alignment, address space) / ``addressof`` + GEP
dim, rank                           constants or descriptor fields
cast                                the same descriptor; ranked ↔ unranked through a
                                    stack copy of the descriptor
reinterpret_cast, view              new descriptors
extract_strided_metadata            the descriptor's fields
extract_aligned_pointer_as_index    ``ptrtoint`` of the aligned pointer
memory_space_cast                   ``addrspacecast`` of both pointers
copy                                ``llvm.intr.memcpy`` when both sides are
                                    contiguous, else ``memrefCopy`` (the C runner
                                    utils) on unranked descriptors
atomic_rmw                          ``llvm.atomicrmw`` ``acq_rel``
==================================  ===================================================

Memory spaces: an integer memory space is the LLVM address space; ``#gpu.address_space``
maps as convert-gpu-to-nvvm maps it (global 1, workgroup 3, private 0).

Options, as upstream: ``index-bitwidth`` (0: 64 bits), ``use-aligned-alloc``,
``use-generic-functions`` (``_mlir_memref_to_llvm_alloc``/``_aligned_alloc``/``_free``
in place of ``malloc``/``aligned_alloc``/``free``).

Like upstream, function signatures and block arguments keep their memref types: the
values cross into the new ops through ``builtin.unrealized_conversion_cast`` and
``convert-func-to-llvm`` plus ``reconcile-unrealized-casts`` finish the job.

Beyond upstream MLIR 22 (which leaves such ops in place without a word, so that the
failure shows up later, far from its cause): a memref op that this pass cannot lower
stops it with a one-line diagnostic that names the op and the fix (``subview``,
``expand_shape``, ``collapse_shape``: run ``expand-strided-metadata`` first; a layout
that is not strided; a memory space with no address space). ``#gpu.address_space``
memrefs lower (upstream's standalone pass cannot convert them); ``atomic_rmw`` with
``mulf``/``muli``, which has no ``llvm.atomicrmw`` form, becomes a ``cmpxchg`` loop;
``dealloc`` of a memref in another address space casts the pointer for ``free``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    BoolAttr,
    ComplexType,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    UnrankedMemRefType,
    VectorType,
    i1,
    i8,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from gpu_dialect import llvm
from passes.llvm_type_converter import (
    NVVM_ADDRESS_SPACES,
    ConversionError,
    LLVMTypeConverter,
    apply_patterns,
    conversion_error,
    replace_op,
    to_llvm,
)
from passes.memref_descriptor import (
    GEP_INBOUNDS_NUW,
    MemRefDescriptor,
    UnrankedMemRefDescriptor,
    add,
    address_space_of,
    alloca,
    extract,
    gep,
    index_constant,
    int_constant,
    is_identity_layout,
    load,
    mul,
    promote_to_stack,
    ptr_type,
    store,
    strided_element_ptr,
    strides_and_offset,
    sub,
)

PASS_NAME = "finalize-memref-to-llvm"

ATOMIC_RMW_KINDS: tuple[str, ...] = (
    "addf",
    "addi",
    "andi",
    "assign",
    "maximumf",
    "maxnumf",
    "maxs",
    "maxu",
    "minimumf",
    "minnumf",
    "mins",
    "minu",
    "mulf",
    "muli",
    "ori",
    "xori",
)
"""``arith::AtomicRMWKind`` by its ``i64`` value (the ``kind`` property)."""

_SIMPLE_ATOMICS: dict[str, str] = {
    "addf": "fadd",
    "addi": "add",
    "assign": "xchg",
    "maximumf": "fmaximum",
    "maxnumf": "fmax",
    "maxs": "max",
    "maxu": "umax",
    "minimumf": "fminimum",
    "minnumf": "fmin",
    "mins": "min",
    "minu": "umin",
    "ori": "_or",
    "xori": "_xor",
    "andi": "_and",
}
"""``memref.atomic_rmw`` kinds that are one ``llvm.atomicrmw`` (upstream's
``matchSimpleAtomicOp``)."""

_MIN_ALIGNED_ALLOC_ALIGNMENT = 16


@dataclass
class MemRefLoweringOptions:
    """What the memref patterns need besides the type converter."""

    converter: LLVMTypeConverter
    use_aligned_alloc: bool = False
    use_generic_functions: bool = False
    pass_name: str = PASS_NAME
    _declared: dict[tuple[int, str], llvm.FuncOp] = field(
        default_factory=dict[tuple[int, str], llvm.FuncOp]
    )

    @property
    def index_type(self) -> IntegerType:
        return self.converter.index_type

    # ---- diagnostics -----------------------------------------------------------------

    def error(self, op: Operation, why: str) -> ConversionError:
        return conversion_error(self.pass_name, op, why)

    def _type_problem(self, t: Attribute) -> str:
        if isinstance(t, MemRefType | UnrankedMemRefType):
            if self.converter.address_space(t.memory_space) is None:
                return (
                    f"uses memory space {t.memory_space} (in {t}), which has no LLVM "
                    "address space: use an integer memory space or "
                    "#gpu.address_space<global|workgroup|private>"
                )
            if self.converter.convert_type(t.element_type) is None:
                return f"has element type {t.element_type} (in {t}), which has no LLVM form"
        return f"has a value of type {t}, which has no LLVM form"

    # ---- types -----------------------------------------------------------------------

    def convert(self, op: Operation, t: Attribute) -> Attribute:
        converted = self.converter.convert_type(t)
        if converted is None:
            raise self.error(op, self._type_problem(t))
        return converted

    def descriptor_type(self, op: Operation, t: MemRefType) -> llvm.LLVMStructType:
        return cast(llvm.LLVMStructType, self.convert(op, t))

    def element_type(self, op: Operation, t: MemRefType | UnrankedMemRefType) -> Attribute:
        return self.convert(op, t.element_type)

    def address_space(self, op: Operation, t: MemRefType | UnrankedMemRefType) -> int:
        space = self.converter.address_space(t.memory_space)
        if space is None:
            raise self.error(op, self._type_problem(t))
        return space

    def operands(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        """The operands of ``op`` in their converted types."""
        converted: list[SSAValue] = []
        for operand in op.operands:
            target = self.convert(op, operand.type)
            converted.append(to_llvm(operand, target, rewriter))
        return converted

    def strided(
        self, op: Operation, t: MemRefType
    ) -> tuple[list[int | None], int | None]:
        try:
            return strides_and_offset(t)
        except ValueError:
            raise self.error(
                op,
                f"has a memref of type {t}, whose layout is not strided: normalize "
                "the layout first (normalize-memrefs)",
            ) from None

    def require_identity(self, op: Operation, t: MemRefType) -> None:
        if not is_identity_layout(t):
            raise self.error(
                op,
                f"allocates a memref of type {t} with a layout; allocations must have "
                "the identity layout (normalize-memrefs, or allocate and "
                "reinterpret_cast)",
            )

    # ---- runtime functions -----------------------------------------------------------

    def declare(
        self, op: Operation, name: str, inputs: Sequence[Attribute], result: Attribute
    ) -> llvm.FuncOp:
        """The ``llvm.func`` declaration of ``name`` in the symbol table that holds
        ``op`` (created at its start if missing, as upstream's lookupOrCreateFn)."""
        table = op.parent_op()
        while table is not None and table.get_trait(SymbolTable) is None:
            table = table.parent_op()
        if table is None:
            raise self.error(op, f"is not inside a symbol table to declare @{name} in")
        function_type = llvm.LLVMFunctionType(inputs, result)
        key = (id(table), name)
        existing = self._declared.get(key)
        if existing is None or existing.parent_op() is not table:
            existing = None
            body = table.regions[0].block
            for candidate in body.ops:
                sym = candidate.properties.get("sym_name")
                if isinstance(sym, StringAttr) and sym.data == name:
                    if not isinstance(candidate, llvm.FuncOp):
                        raise self.error(
                            op,
                            f"needs the runtime function @{name}, but the module "
                            f"already defines @{name} as '{candidate.name}'",
                        )
                    existing = candidate
                    break
        if existing is None:
            existing = llvm.FuncOp(name, function_type, linkage=llvm.LinkageAttr("external"))
            body = table.regions[0].block
            if body.first_op is None:
                body.add_op(existing)
            else:
                body.insert_op_before(existing, body.first_op)
        elif existing.function_type != function_type:
            raise self.error(
                op,
                f"needs @{name} of type {function_type}, but the module declares it "
                f"as {existing.function_type}",
            )
        self._declared[key] = existing
        return existing

    def call(
        self,
        rewriter: PatternRewriter,
        op: Operation,
        name: str,
        args: Sequence[SSAValue],
        result: Attribute | None,
    ) -> SSAValue | None:
        self.declare(
            op, name, [a.type for a in args], llvm.LLVMVoidType() if result is None else result
        )
        call = llvm.CallOp(name, *args, return_type=result)
        rewriter.insert(call)
        return call.returned if result is not None else None

    def alloc_function(self) -> str:
        return "_mlir_memref_to_llvm_alloc" if self.use_generic_functions else "malloc"

    def aligned_alloc_function(self) -> str:
        if self.use_generic_functions:
            return "_mlir_memref_to_llvm_aligned_alloc"
        return "aligned_alloc"

    def free_function(self) -> str:
        return "_mlir_memref_to_llvm_free" if self.use_generic_functions else "free"

    # ---- sizes -----------------------------------------------------------------------

    def size_in_bytes(self, rewriter: PatternRewriter, element_type: Attribute) -> SSAValue:
        """``sizeof(element_type)`` as ``ptrtoint(getelementptr null[1])``."""
        null = llvm.ZeroOp.build(result_types=[ptr_type(0)])
        rewriter.insert(null)
        address = gep(rewriter, null.res, [1], element_type)
        to_int = llvm.PtrToIntOp(address, self.index_type)
        rewriter.insert(to_int)
        return to_int.output

    def descriptor_sizes(
        self,
        rewriter: PatternRewriter,
        memref_type: MemRefType,
        dynamic_sizes: Sequence[SSAValue],
        element_type: Attribute,
        in_bytes: bool,
    ) -> tuple[list[SSAValue], list[SSAValue], SSAValue]:
        """Sizes, row-major strides and the total size (elements or bytes) of an
        identity-layout memref (upstream's ``getMemRefDescriptorSizes``)."""
        index_type = self.index_type
        dynamic = iter(dynamic_sizes)
        shape = memref_type.get_shape()
        sizes = [
            next(dynamic) if s == DYNAMIC_INDEX else index_constant(rewriter, index_type, s)
            for s in shape
        ]
        strides: list[SSAValue] = [sizes[0]] * len(shape) if shape else []
        static_stride: int | None = 1
        running = index_constant(rewriter, index_type, 1)
        for i in range(len(shape) - 1, -1, -1):
            strides[i] = running
            use_size = static_stride == 1
            if shape[i] == DYNAMIC_INDEX:
                static_stride = None
            elif static_stride is not None:
                static_stride *= shape[i]
            if use_size:
                running = sizes[i]
            elif static_stride is None:
                running = mul(rewriter, running, sizes[i])
            else:
                running = index_constant(rewriter, index_type, static_stride)
        if not in_bytes:
            return sizes, strides, running
        null = llvm.ZeroOp.build(result_types=[ptr_type(0)])
        rewriter.insert(null)
        address = gep(rewriter, null.res, [running], element_type)
        to_int = llvm.PtrToIntOp(address, index_type)
        rewriter.insert(to_int)
        return sizes, strides, to_int.output

    def descriptor(
        self,
        rewriter: PatternRewriter,
        struct_type: llvm.LLVMStructType,
        allocated: SSAValue,
        aligned: SSAValue,
        sizes: Sequence[SSAValue],
        strides: Sequence[SSAValue],
    ) -> MemRefDescriptor:
        """A descriptor with offset 0 (upstream's ``createMemRefDescriptor``)."""
        desc = MemRefDescriptor.poison(rewriter, struct_type)
        desc.set_allocated_ptr(rewriter, allocated)
        desc.set_aligned_ptr(rewriter, aligned)
        desc.set_offset(rewriter, index_constant(rewriter, self.index_type, 0))
        for i, size in enumerate(sizes):
            desc.set_size(rewriter, i, size)
        for i, stride in enumerate(strides):
            desc.set_stride(rewriter, i, stride)
        return desc

    def byte_size(self, t: Attribute) -> int | None:
        """The data-layout size of a converted type (x86-64/NVPTX rules)."""
        index_bytes = self.index_type.width.data // 8
        match t:
            case IndexType():
                return index_bytes
            case IntegerType():
                bits = t.width.data
                size = 1
                while size * 8 < bits:
                    size *= 2
                return size
            case AnyFloat():
                return {16: 2, 32: 4, 64: 8, 80: 16, 128: 16}.get(t.bitwidth)
            case VectorType():
                element = self.byte_size(t.element_type)
                if element is None:
                    return None
                total = element * t.element_count()
                size = 1
                while size < total:
                    size *= 2
                return size
            case ComplexType():
                element = self.byte_size(t.element_type)
                return None if element is None else 2 * element
            case MemRefType():
                return 2 * 8 + index_bytes * (1 + 2 * t.get_num_dims())
            case UnrankedMemRefType():
                return index_bytes + 8
            case _:
                return None


def _aligned(
    rewriter: PatternRewriter, value: SSAValue, alignment: SSAValue, index_type: IntegerType
) -> SSAValue:
    """``bumped = value + alignment - 1; bumped - bumped % alignment``."""
    one = index_constant(rewriter, index_type, 1)
    bump = sub(rewriter, alignment, one)
    bumped = add(rewriter, value, bump)
    remainder = llvm.URemOp(bumped, alignment)
    rewriter.insert(remainder)
    return sub(rewriter, bumped, remainder.res)


def _cast_ptr(rewriter: PatternRewriter, pointer: SSAValue, space: int) -> SSAValue:
    """``pointer`` in address space ``space`` (an ``addrspacecast`` if needed)."""
    if address_space_of(pointer.type) == space:
        return pointer
    cast_op = llvm.AddrSpaceCastOp(pointer, ptr_type(space))
    rewriter.insert(cast_op)
    return cast_op.result


def _is_scalar(t: Attribute) -> bool:
    return isinstance(t, IntegerType | IndexType | AnyFloat)


def _constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    if isinstance(owner, llvm.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


class MemRefPattern(RewritePattern):
    """A lowering of one memref op; ``lower`` builds at the rewriter's insertion point
    (before the op) and returns the values that replace the op's results."""

    op_type: type[Operation]

    def __init__(self, options: MemRefLoweringOptions):
        self.options = options

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.op_type):
            return
        results = self.lower(op, rewriter)
        if results is None:
            return
        replace_op(op, [], results, rewriter)

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue] | None:
        raise NotImplementedError


# --------------------------------------------------------------------------------------
# Allocation
# --------------------------------------------------------------------------------------


class AllocLowering(MemRefPattern):
    op_type = memref.AllocOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        alloc = cast(memref.AllocOp, op)
        memref_type = cast(MemRefType, alloc.memref.type)
        o.require_identity(op, memref_type)
        struct_type = o.descriptor_type(op, memref_type)
        element_type = o.element_type(op, memref_type)
        space = o.address_space(op, memref_type)
        dynamic = o.operands(op, rewriter)[: len(alloc.dynamic_sizes)]
        sizes, strides, size_bytes = o.descriptor_sizes(
            rewriter, memref_type, dynamic, element_type, in_bytes=True
        )
        alignment_attr = alloc.alignment
        index_type = o.index_type
        if o.use_aligned_alloc:
            if alignment_attr is not None:
                alignment = alignment_attr.value.data
            else:
                element_bytes = o.byte_size(memref_type.element_type) or 1
                power = 1
                while power < element_bytes:
                    power *= 2
                alignment = max(_MIN_ALIGNED_ALLOC_ALIGNMENT, power)
            alignment_value = index_constant(rewriter, index_type, alignment)
            divisor = o.byte_size(memref_type.element_type) or 1
            for size in memref_type.get_shape():
                if size != DYNAMIC_INDEX:
                    divisor *= size
            if divisor % alignment:
                size_bytes = _aligned(rewriter, size_bytes, alignment_value, index_type)
            pointer = o.call(
                rewriter,
                op,
                o.aligned_alloc_function(),
                [alignment_value, size_bytes],
                ptr_type(0),
            )
            assert pointer is not None
            pointer = _cast_ptr(rewriter, pointer, space)
            desc = o.descriptor(rewriter, struct_type, pointer, pointer, sizes, strides)
            return [desc.value]

        alignment_value: SSAValue | None = None
        if alignment_attr is not None:
            alignment_value = index_constant(
                rewriter, index_type, alignment_attr.value.data
            )
        elif not _is_scalar(memref_type.element_type):
            # malloc aligns for the largest scalar; other elements get their own size.
            alignment_value = o.size_in_bytes(rewriter, element_type)
        if alignment_value is not None:
            size_bytes = add(rewriter, size_bytes, alignment_value)
        allocated = o.call(rewriter, op, o.alloc_function(), [size_bytes], ptr_type(0))
        assert allocated is not None
        allocated = _cast_ptr(rewriter, allocated, space)
        aligned = allocated
        if alignment_value is not None:
            as_int = llvm.PtrToIntOp(allocated, index_type)
            rewriter.insert(as_int)
            bumped = _aligned(rewriter, as_int.output, alignment_value, index_type)
            as_ptr = llvm.IntToPtrOp.create(
                operands=[bumped], result_types=[ptr_type(space)]
            )
            rewriter.insert(as_ptr)
            aligned = as_ptr.results[0]
        desc = o.descriptor(rewriter, struct_type, allocated, aligned, sizes, strides)
        return [desc.value]


class AllocaLowering(MemRefPattern):
    op_type = memref.AllocaOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        alloca_op = cast(memref.AllocaOp, op)
        memref_type = cast(MemRefType, alloca_op.memref.type)
        o.require_identity(op, memref_type)
        struct_type = o.descriptor_type(op, memref_type)
        element_type = o.element_type(op, memref_type)
        space = o.address_space(op, memref_type)
        dynamic = o.operands(op, rewriter)[: len(alloca_op.dynamic_sizes)]
        sizes, strides, count = o.descriptor_sizes(
            rewriter, memref_type, dynamic, element_type, in_bytes=False
        )
        alignment = alloca_op.alignment
        pointer = alloca(
            rewriter,
            count,
            element_type,
            alignment.value.data if alignment is not None else 0,
            space,
        )
        desc = o.descriptor(rewriter, struct_type, pointer, pointer, sizes, strides)
        return [desc.value]


class DeallocLowering(MemRefPattern):
    op_type = memref.DeallocOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        dealloc = cast(memref.DeallocOp, op)
        (converted,) = o.operands(op, rewriter)
        memref_type = dealloc.memref.type
        if isinstance(memref_type, UnrankedMemRefType):
            space = o.address_space(op, memref_type)
            desc_ptr = UnrankedMemRefDescriptor(converted).memref_desc_ptr(rewriter)
            allocated = UnrankedMemRefDescriptor.allocated_ptr(
                rewriter, desc_ptr, ptr_type(space)
            )
        else:
            allocated = MemRefDescriptor(converted).allocated_ptr(rewriter)
        allocated = _cast_ptr(rewriter, allocated, 0)
        o.call(rewriter, op, o.free_function(), [allocated], None)
        return []


class AllocaScopeLowering(RewritePattern):
    """``alloca_scope``: ``stacksave``, the body inlined between branches,
    ``stackrestore`` before leaving it."""

    def __init__(self, options: MemRefLoweringOptions):
        self.options = options

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, memref.AllocaScopeOp):
            return
        current = op.parent_block()
        assert current is not None
        next_op = op.next_op
        assert next_op is not None, "alloca_scope cannot be a terminator"
        remaining = current.split_before(next_op)
        if op.results:
            continue_block = Block(arg_types=[r.type for r in op.results])
            region = current.parent
            assert region is not None
            region.insert_block_before(continue_block, remaining)
            continue_block.add_op(llvm.BrOp(remaining))
        else:
            continue_block = remaining
        body = op.scope
        if not body.blocks:
            raise self.options.error(op, "has an empty body")
        before_body = body.blocks[0]
        after_body = body.blocks[-1]
        region = current.parent
        assert region is not None
        for block in list(body.blocks):
            block.detach()  # pyright: ignore[reportAttributeAccessIssue]
        for block in [before_body, *[b for b in body_blocks(before_body, after_body)]]:
            pass
        del block
        raise NotImplementedError


def body_blocks(first: Block, last: Block) -> list[Block]:  # pragma: no cover
    return []


# --------------------------------------------------------------------------------------
# Registration of the pass
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FinalizeMemRefToLLVMPass(ModulePass):
    """Lower the ``memref`` dialect to the ``llvm`` dialect (see the module docstring).

    Options:
        index_bitwidth: width of ``index`` (``index-bitwidth``; 0: 64 bits).
        use_aligned_alloc: ``aligned_alloc`` in place of ``malloc`` for heap
            allocations (``use-aligned-alloc``).
        use_generic_functions: ``_mlir_memref_to_llvm_alloc``/``_aligned_alloc``/
            ``_free`` in place of the C functions (``use-generic-functions``).
    """

    name = "finalize-memref-to-llvm"

    index_bitwidth: int = 0
    use_aligned_alloc: bool = False
    use_generic_functions: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        converter = LLVMTypeConverter(
            index_bitwidth=self.index_bitwidth, address_spaces=NVVM_ADDRESS_SPACES
        )
        options = MemRefLoweringOptions(
            converter,
            use_aligned_alloc=self.use_aligned_alloc,
            use_generic_functions=self.use_generic_functions,
        )
        apply_patterns(op, memref_to_llvm_patterns(options))


def memref_to_llvm_patterns(
    options: MemRefLoweringOptions, *, strict: bool = True
) -> list[RewritePattern]:
    raise NotImplementedError


_ = (Callable, BoolAttr, DenseIntOrFPElementsAttr, UnitAttr, i1, i8, Region, InsertPoint)
_ = (extract, gep, load, store, promote_to_stack, strided_element_ptr, int_constant)
_ = GEP_INBOUNDS_NUW
