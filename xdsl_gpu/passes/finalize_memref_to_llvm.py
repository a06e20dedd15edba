"""``finalize-memref-to-llvm``: the ``memref`` dialect to the ``llvm`` dialect.

Port of upstream MLIR 22's ``mlir/lib/Conversion/MemRefToLLVM/MemRefToLLVM.cpp`` (with
the pieces of ``LLVMCommon/Pattern.cpp`` and ``MemRefBuilder.cpp`` it relies on). A
ranked memref becomes its descriptor ``!llvm.struct<(ptr, ptr, iN, array<R x iN>,
array<R x iN>)>`` and an unranked one ``!llvm.struct<(iN, ptr)>``
(:mod:`xdsl_gpu.passes.memref_descriptor`):

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
generic_atomic_rmw                  the body in a ``cmpxchg`` loop
transpose                           the descriptor with sizes and strides permuted
==================================  ===================================================

``generic_atomic_rmw`` and ``transpose`` are matched by name: xDSL 0.74's memref dialect
does not define them, so they lower once a definition with upstream's operands and
properties is loaded.

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
``generic_atomic_rmw`` lowers whatever its body (upstream: only once the body is llvm
ops) and exchanges the bits of a float (upstream gives ``cmpxchg`` a float, which LLVM
rejects); lowerings that need branches report an op inside ``scf.for`` (upstream builds
invalid IR); ``dealloc`` of a memref in another address space casts the pointer for
``free``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
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
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import SingleBlockImplicitTerminator, SymbolTable

from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.memref import ATOMIC_RMW_KINDS
from xdsl_gpu.passes.llvm_type_converter import (
    NVVM_ADDRESS_SPACES,
    ConversionError,
    LLVMTypeConverter,
    apply_patterns,
    conversion_error,
    replace_op,
    to_llvm,
)
from xdsl_gpu.passes.memref_descriptor import (
    GEP_INBOUNDS_NUW,
    MemRefDescriptor,
    UnrankedMemRefDescriptor,
    add,
    address_space_of,
    alloca,
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
                return (
                    f"has element type {t.element_type} (in {t}), which has no LLVM "
                    "form"
                )
        return f"has a value of type {t}, which has no LLVM form"

    # ---- types -----------------------------------------------------------------------

    def convert(self, op: Operation, t: Attribute) -> Attribute:
        converted = self.converter.convert_type(t)
        if converted is None:
            raise self.error(op, self._type_problem(t))
        return converted

    def descriptor_type(self, op: Operation, t: MemRefType) -> llvm.LLVMStructType:
        return cast(llvm.LLVMStructType, self.convert(op, t))

    def element_type(
        self, op: Operation, t: MemRefType | UnrankedMemRefType
    ) -> Attribute:
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
            existing = llvm.FuncOp(
                name, function_type, linkage=llvm.LinkageAttr("external")
            )
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
            op,
            name,
            [a.type for a in args],
            llvm.LLVMVoidType() if result is None else result,
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

    def size_in_bytes(
        self, rewriter: PatternRewriter, element_type: Attribute
    ) -> SSAValue:
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
            next(dynamic)
            if s == DYNAMIC_INDEX
            else index_constant(rewriter, index_type, s)
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
            case _ if isinstance(t, AnyFloat):
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
    rewriter: PatternRewriter,
    value: SSAValue,
    alignment: SSAValue,
    index_type: IntegerType,
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


def _require_branches(options: MemRefLoweringOptions, op: Operation) -> None:
    """Lowerings that split blocks cannot run inside a region that must stay one
    block (``scf.for``, ``affine.for``, ...): upstream builds invalid IR there."""
    block = op.parent_block()
    parent = block.parent_op() if block is not None else None
    if parent is None:
        return
    if parent.get_trait(SingleBlockImplicitTerminator) is not None or (
        parent.dialect_name() in ("scf", "affine")
    ):
        raise options.error(
            op,
            f"is inside '{parent.name}', whose body must stay one block, and its "
            "lowering needs branches: run convert-scf-to-cf (after lower-affine) "
            f"before {options.pass_name}",
        )


def _flag(attr: Attribute | None) -> bool:
    return isinstance(attr, IntegerAttr) and bool(attr.value.data)


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

    @property
    def acts_on(self) -> tuple[type[Operation], ...]:
        """Only ``op_type``s (the pattern driver tries it on nothing else)."""
        return (self.op_type,)

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


class AllocaScopeLowering(MemRefPattern):
    """``alloca_scope``: ``stacksave``, then the body inlined between branches, with
    ``stackrestore`` before leaving it."""

    op_type = memref.AllocaScopeOp

    @property
    def acts_on(self) -> tuple[type[Operation], ...]:
        """``op_type`` (its own rewrite says so too)."""
        return (self.op_type,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, memref.AllocaScopeOp):
            return
        _require_branches(self.options, op)
        current = op.parent_block()
        region = current.parent if current is not None else None
        if current is None or region is None or op.next_op is None:
            raise self.options.error(
                op, "must be followed by a terminator in its block"
            )
        if not op.scope.blocks:
            raise self.options.error(op, "has an empty body")
        terminator = op.scope.blocks[-1].last_op
        if not isinstance(terminator, memref.AllocaScopeReturnOp):
            raise self.options.error(
                op, "must end its body with memref.alloca_scope.return"
            )
        first_body = op.scope.blocks[0]
        remaining = current.split_before(op.next_op)
        continue_block = remaining
        if op.results:
            continue_block = Block(arg_types=[r.type for r in op.results])
            region.insert_block_before(continue_block, remaining)
            continue_block.add_op(llvm.BrOp(remaining))
        op.scope.move_blocks_before(continue_block)

        save = llvm.StackSaveOp()
        rewriter.insert(save, InsertPoint.at_end(current))
        rewriter.insert(llvm.BrOp(first_body), InsertPoint.at_end(current))
        rewriter.replace(
            terminator,
            [
                llvm.StackRestoreOp(save.res),
                llvm.BrOp(continue_block, *terminator.ops),
            ],
        )
        rewriter.replace(op, [], list(continue_block.args))


class AssumeAlignmentLowering(MemRefPattern):
    op_type = memref.AssumeAlignmentOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        assume = cast(memref.AssumeAlignmentOp, op)
        memref_type = cast(MemRefType, assume.memref.type)
        o.strided(op, memref_type)
        (converted,) = o.operands(op, rewriter)
        pointer = MemRefDescriptor(converted).buffer_ptr(
            rewriter, memref_type, o.element_type(op, memref_type)
        )
        true = llvm.ConstantOp(IntegerAttr(1, i1), i1)
        rewriter.insert(true)
        alignment = index_constant(rewriter, o.index_type, assume.alignment.value.data)
        rewriter.insert(llvm.AssumeOp(true.result, [("align", [pointer, alignment])]))
        return [converted]


# --------------------------------------------------------------------------------------
# Accesses
# --------------------------------------------------------------------------------------


class LoadLowering(MemRefPattern):
    op_type = memref.LoadOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        load_op = cast(memref.LoadOp, op)
        memref_type = cast(MemRefType, load_op.memref.type)
        o.strided(op, memref_type)
        element_type = o.element_type(op, memref_type)
        converted, *indices = o.operands(op, rewriter)
        address = strided_element_ptr(
            rewriter,
            memref_type,
            MemRefDescriptor(converted),
            indices,
            element_type,
            GEP_INBOUNDS_NUW,
        )
        nontemporal = _flag(load_op.nontemporal)
        new = llvm.LoadOp(address, element_type, nontemporal=nontemporal)
        rewriter.insert(new)
        return [new.dereferenced_value]


class StoreLowering(MemRefPattern):
    op_type = memref.StoreOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        store_op = cast(memref.StoreOp, op)
        memref_type = cast(MemRefType, store_op.memref.type)
        o.strided(op, memref_type)
        element_type = o.element_type(op, memref_type)
        value, converted, *indices = o.operands(op, rewriter)
        address = strided_element_ptr(
            rewriter,
            memref_type,
            MemRefDescriptor(converted),
            indices,
            element_type,
            GEP_INBOUNDS_NUW,
        )
        nontemporal = _flag(store_op.nontemporal)
        rewriter.insert(llvm.StoreOp(value, address, nontemporal=nontemporal))
        return []


class AtomicRMWLowering(MemRefPattern):
    """``atomic_rmw``: ``llvm.atomicrmw <op> acq_rel``; ``mulf``/``muli`` (no
    ``atomicrmw`` form) as a ``cmpxchg`` loop, on the bits for floats."""

    op_type = memref.AtomicRMWOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        atomic = cast(memref.AtomicRMWOp, op)
        kind_value = atomic.kind.value.data
        if not 0 <= kind_value < len(ATOMIC_RMW_KINDS):
            raise o.error(op, f"has an unknown kind {kind_value}")
        kind = ATOMIC_RMW_KINDS[kind_value]
        memref_type = cast(MemRefType, atomic.memref.type)
        o.strided(op, memref_type)
        element_type = o.element_type(op, memref_type)
        value, converted, *indices = o.operands(op, rewriter)
        address = strided_element_ptr(
            rewriter, memref_type, MemRefDescriptor(converted), indices, element_type
        )
        if (bin_op := _SIMPLE_ATOMICS.get(kind)) is not None:
            new = llvm.AtomicRMWOp(bin_op, address, value, "acq_rel")
            rewriter.insert(new)
            return [new.res]
        return [self._cas_loop(op, rewriter, kind, address, value, element_type)]

    def _cas_loop(
        self,
        op: Operation,
        rewriter: PatternRewriter,
        kind: str,
        address: SSAValue,
        value: SSAValue,
        element_type: Attribute,
    ) -> SSAValue:
        _require_branches(self.options, op)
        is_float = isinstance(element_type, AnyFloat)
        if is_float:
            bits = cast(AnyFloat, element_type).bitwidth
            word: Attribute = IntegerType(bits)
        else:
            word = element_type
        initial = load(rewriter, address, word)
        current = op.parent_block()
        assert current is not None
        assert current.parent is not None
        end = current.split_before(op)
        loop = Block(arg_types=[word])
        current.parent.insert_block_before(loop, end)
        current.add_op(llvm.BrOp(loop, initial))

        old = loop.args[0]
        ops: list[Operation] = []
        if is_float:
            ops.append(as_float := llvm.BitcastOp(old, element_type))
            ops.append(product := llvm.FMulOp(as_float.result, value))
            ops.append(new_bits := llvm.BitcastOp(product.res, word))
            new_word = new_bits.result
        else:
            ops.append(product := llvm.MulOp(old, value))
            new_word = product.res
        exchange = llvm.AtomicCmpXchgOp(address, old, new_word, "acq_rel", "monotonic")
        loaded = llvm.ExtractValueOp(
            DenseArrayBase.from_list(i64, [0]), exchange.res, word
        )
        ok = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [1]), exchange.res, i1)
        ops += [exchange, loaded, ok]
        result = loaded.res
        if is_float:
            ops.append(as_result := llvm.BitcastOp(loaded.res, element_type))
            result = as_result.result
        ops.append(llvm.CondBrOp(ok.res, end, [], loop, [loaded.res]))
        loop.add_ops(ops)
        del kind
        return result


class GenericAtomicRMWLowering(RewritePattern):
    """``generic_atomic_rmw``: the body in a ``cmpxchg`` loop (upstream's
    ``GenericAtomicRMWOpLowering``), on the bits of a float, which upstream passes to
    ``cmpxchg`` as is (invalid IR).

    Matched by name: xDSL 0.74's memref dialect has no ``generic_atomic_rmw`` (nor
    ``atomic_yield``); the lowering works for any definition with upstream's operands
    (memref, indices), region (one block, the current value) and terminator.
    """

    def __init__(self, options: MemRefLoweringOptions):
        self.options = options

    acts_on_names = ("memref.generic_atomic_rmw",)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "memref.generic_atomic_rmw":
            return
        o = self.options
        memref_value = op.operands[0]
        memref_type = memref_value.type
        if not isinstance(memref_type, MemRefType) or len(op.results) != 1:
            raise o.error(op, "expects a ranked memref operand and one result")
        if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
            raise o.error(op, "expects a body of one block")
        body = op.regions[0].blocks[0]
        terminator = body.last_op
        if terminator is None or terminator.name != "memref.atomic_yield":
            raise o.error(op, "must end its body with memref.atomic_yield")
        _require_branches(o, op)
        o.strided(op, memref_type)
        element_type = o.element_type(op, memref_type)
        converted = o.operands(op, rewriter)
        address = strided_element_ptr(
            rewriter,
            memref_type,
            MemRefDescriptor(converted[0]),
            converted[1:],
            element_type,
        )
        is_float = isinstance(element_type, AnyFloat)
        word: Attribute = (
            IntegerType(cast(AnyFloat, element_type).bitwidth)
            if is_float
            else element_type
        )
        initial = load(rewriter, address, word)
        current = op.parent_block()
        assert current is not None
        assert current.parent is not None
        end = current.split_before(op)
        loop = Block(arg_types=[word])
        current.parent.insert_block_before(loop, end)
        current.add_op(llvm.BrOp(loop, initial))

        old: SSAValue = loop.args[0]
        if is_float:
            as_float = llvm.BitcastOp(old, element_type)
            loop.add_op(as_float)
            old = as_float.result
        (current_value,) = body.args
        current_value.replace_all_uses_with(old)
        for body_op in list(body.ops):
            if body_op is terminator:
                break
            body_op.detach()
            loop.add_op(body_op)
        (new_value,) = terminator.operands
        ops: list[Operation] = []
        if is_float:
            ops.append(new_bits := llvm.BitcastOp(new_value, word))
            new_value = new_bits.result
        exchange = llvm.AtomicCmpXchgOp(
            address, loop.args[0], new_value, "acq_rel", "monotonic"
        )
        loaded = llvm.ExtractValueOp(
            DenseArrayBase.from_list(i64, [0]), exchange.res, word
        )
        ok = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [1]), exchange.res, i1)
        ops += [exchange, loaded, ok]
        result = loaded.res
        if is_float:
            ops.append(as_result := llvm.BitcastOp(loaded.res, element_type))
            result = as_result.result
        ops.append(llvm.CondBrOp(ok.res, end, [], loop, [loaded.res]))
        loop.add_ops(ops)
        rewriter.replace(op, [], [result], safe_erase=False)


# --------------------------------------------------------------------------------------
# Descriptor queries
# --------------------------------------------------------------------------------------


class DimLowering(MemRefPattern):
    op_type = memref.DimOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        dim = cast(memref.DimOp, op)
        source_type = dim.source.type
        converted, index = o.operands(op, rewriter)
        index_type = o.index_type
        if isinstance(source_type, UnrankedMemRefType):
            # The ranked descriptor lives in generic memory whatever the memref's
            # address space: its fields are read through address space 0.
            o.address_space(op, source_type)
            desc_ptr = UnrankedMemRefDescriptor(converted).memref_desc_ptr(rewriter)
            prefix = llvm.LLVMStructType.from_type_list(
                [ptr_type(0), ptr_type(0), index_type]
            )
            offset_ptr = gep(rewriter, desc_ptr, [0, 2], prefix)
            plus_one = add(rewriter, index_constant(rewriter, index_type, 1), index)
            size_ptr = gep(rewriter, offset_ptr, [plus_one], index_type)
            return [load(rewriter, size_ptr, index_type)]
        memref_type = cast(MemRefType, source_type)
        desc = MemRefDescriptor(converted)
        constant = _constant_index(dim.index)
        if constant is None:
            constant = _constant_index(index)
        shape = memref_type.get_shape()
        if constant is not None and 0 <= constant < len(shape):
            if shape[constant] == DYNAMIC_INDEX:
                return [desc.size(rewriter, constant)]
            return [index_constant(rewriter, index_type, shape[constant])]
        return [desc.size_at(rewriter, index)]


class RankLowering(MemRefPattern):
    op_type = memref.RankOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        rank = cast(memref.RankOp, op)
        source_type = rank.source.type
        if isinstance(source_type, UnrankedMemRefType):
            (converted,) = o.operands(op, rewriter)
            return [UnrankedMemRefDescriptor(converted).rank(rewriter)]
        assert isinstance(source_type, MemRefType)
        return [index_constant(rewriter, o.index_type, source_type.get_num_dims())]


class ExtractAlignedPointerLowering(MemRefPattern):
    op_type = memref.ExtractAlignedPointerAsIndexOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        extract_op = cast(memref.ExtractAlignedPointerAsIndexOp, op)
        source_type = extract_op.source.type
        (converted,) = o.operands(op, rewriter)
        if isinstance(source_type, UnrankedMemRefType):
            space = o.address_space(op, source_type)
            desc_ptr = UnrankedMemRefDescriptor(converted).memref_desc_ptr(rewriter)
            aligned = UnrankedMemRefDescriptor.aligned_ptr(
                rewriter, desc_ptr, ptr_type(space)
            )
        else:
            aligned = MemRefDescriptor(converted).aligned_ptr(rewriter)
        as_int = llvm.PtrToIntOp(aligned, o.index_type)
        rewriter.insert(as_int)
        return [as_int.output]


class ExtractStridedMetadataLowering(MemRefPattern):
    op_type = memref.ExtractStridedMetaDataOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        esm = cast(memref.ExtractStridedMetaDataOp, op)
        source_type = cast(MemRefType, esm.source.type)
        o.strided(op, source_type)
        (converted,) = o.operands(op, rewriter)
        desc = MemRefDescriptor(converted)
        base_type = cast(MemRefType, esm.base_buffer.type)
        base = MemRefDescriptor.from_static_shape(
            rewriter,
            o.descriptor_type(op, base_type),
            base_type,
            desc.allocated_ptr(rewriter),
            desc.aligned_ptr(rewriter),
        )
        results = [base.value, desc.offset(rewriter)]
        results += [desc.size(rewriter, i) for i in range(desc.rank)]
        results += [desc.stride(rewriter, i) for i in range(desc.rank)]
        return results


# --------------------------------------------------------------------------------------
# Globals
# --------------------------------------------------------------------------------------


def _global_type(
    options: MemRefLoweringOptions, op: Operation, t: MemRefType
) -> Attribute:
    """``!llvm.array<d0 x array<d1 x ... T>>`` (the element type itself at rank 0)."""
    result = options.element_type(op, t)
    for size in reversed(t.get_shape()):
        result = llvm.LLVMArrayType(size, result)
    return result


class GlobalLowering(MemRefPattern):
    op_type = memref.GlobalOp

    @property
    def acts_on(self) -> tuple[type[Operation], ...]:
        """``op_type`` (its own rewrite says so too)."""
        return (self.op_type,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, memref.GlobalOp):
            return
        o = self.options
        memref_type = cast(MemRefType, op.type)
        if not is_identity_layout(memref_type):
            raise o.error(
                op,
                f"has type {memref_type} with a layout; globals must have the "
                "identity layout",
            )
        if not memref_type.has_static_shape():
            raise o.error(op, f"has type {memref_type}; globals need a static shape")
        array_type = _global_type(o, op, memref_type)
        visibility = op.sym_visibility
        public = visibility is None or visibility.data == "public"
        linkage = "external" if public else "private"
        initial = op.initial_value
        external = initial is None
        uninitialized = isinstance(initial, UnitAttr)
        value: Attribute | None = None
        if not external and not uninitialized:
            value = initial
            if memref_type.get_num_dims() == 0 and isinstance(
                initial, DenseIntOrFPElementsAttr
            ):
                value = _splat_value(initial)
        alignment = op.alignment.value.data if op.alignment is not None else None
        space = o.address_space(op, memref_type)
        body = Region()
        if uninitialized:
            body = Region(Block())
            undef = llvm.UndefOp(array_type)
            body.block.add_ops([undef, llvm.ReturnOp(undef.res)])
        new = llvm.GlobalOp(
            array_type,
            op.sym_name,
            linkage,
            addr_space=space,
            constant=op.constant is not None,
            value=value,
            alignment=alignment,
            body=body,
        )
        rewriter.replace(op, new)


def _splat_value(attr: DenseIntOrFPElementsAttr) -> Attribute:
    """The single element of a rank-0 initializer, as a scalar attribute."""
    element_type = attr.get_element_type()
    (first, *_) = attr.get_values()
    if isinstance(first, tuple):  # a complex element stays in its dense form
        return attr
    if isinstance(element_type, AnyFloat):
        return FloatAttr(float(first), element_type)
    return IntegerAttr(int(first), cast(IntegerType | IndexType, element_type))


class GetGlobalLowering(MemRefPattern):
    op_type = memref.GetGlobalOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        get_global = cast(memref.GetGlobalOp, op)
        memref_type = cast(MemRefType, get_global.memref.type)
        o.require_identity(op, memref_type)
        struct_type = o.descriptor_type(op, memref_type)
        element_type = o.element_type(op, memref_type)
        space = o.address_space(op, memref_type)
        sizes, strides, _ = o.descriptor_sizes(
            rewriter, memref_type, [], element_type, in_bytes=False
        )
        array_type = _global_type(o, op, memref_type)
        address = llvm.AddressOfOp(get_global.name_, ptr_type(space))
        rewriter.insert(address)
        first = gep(
            rewriter,
            address.result,
            [0] * (memref_type.get_num_dims() + 1),
            array_type,
        )
        # Never freed: a recognizable bad value as the allocated pointer.
        dead_beef = int_constant(rewriter, IntegerType(64), 0xDEADBEEF)
        as_ptr = llvm.IntToPtrOp.create(
            operands=[dead_beef], result_types=[ptr_type(space)]
        )
        rewriter.insert(as_ptr)
        desc = o.descriptor(
            rewriter, struct_type, as_ptr.results[0], first, sizes, strides
        )
        return [desc.value]


# --------------------------------------------------------------------------------------
# Casts and views
# --------------------------------------------------------------------------------------


class CastLowering(MemRefPattern):
    op_type = memref.CastOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        cast_op = cast(memref.CastOp, op)
        source_type = cast_op.source.type
        dest_type = cast_op.dest.type
        (converted,) = o.operands(op, rewriter)
        target = o.convert(op, dest_type)
        if isinstance(source_type, MemRefType) and isinstance(dest_type, MemRefType):
            if converted.type != target:
                raise o.error(
                    op,
                    f"casts {source_type} to {dest_type}, which have different "
                    "descriptors (rank, element type and memory space must match)",
                )
            return [converted]
        if isinstance(source_type, MemRefType):
            # Ranked to unranked: the descriptor goes to the stack.
            pointer = promote_to_stack(rewriter, converted)
            rank = index_constant(rewriter, o.index_type, source_type.get_num_dims())
            desc = UnrankedMemRefDescriptor.pack(
                rewriter, cast(llvm.LLVMStructType, target), rank, pointer
            )
            return [desc.value]
        if isinstance(dest_type, MemRefType):
            # Unranked to ranked: load the descriptor it points to.
            pointer = UnrankedMemRefDescriptor(converted).memref_desc_ptr(rewriter)
            return [load(rewriter, pointer, target)]
        raise o.error(op, "casts an unranked memref to an unranked memref")


def _pointers(
    o: MemRefLoweringOptions,
    op: Operation,
    rewriter: PatternRewriter,
    source_type: Attribute,
    converted: SSAValue,
) -> tuple[SSAValue, SSAValue]:
    """Allocated and aligned pointers of a ranked or unranked source."""
    if isinstance(source_type, MemRefType):
        desc = MemRefDescriptor(converted)
        return desc.allocated_ptr(rewriter), desc.aligned_ptr(rewriter)
    unranked = cast(UnrankedMemRefType, source_type)
    element_ptr = ptr_type(o.address_space(op, unranked))
    desc_ptr = UnrankedMemRefDescriptor(converted).memref_desc_ptr(rewriter)
    return (
        UnrankedMemRefDescriptor.allocated_ptr(rewriter, desc_ptr, element_ptr),
        UnrankedMemRefDescriptor.aligned_ptr(rewriter, desc_ptr, element_ptr),
    )


class ReinterpretCastLowering(MemRefPattern):
    op_type = memref.ReinterpretCastOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        rc = cast(memref.ReinterpretCastOp, op)
        result_type = cast(MemRefType, rc.result.type)
        struct_type = o.descriptor_type(op, result_type)
        converted = o.operands(op, rewriter)
        source = converted[0]
        n_off, n_size = len(rc.offsets), len(rc.sizes)
        offsets = iter(converted[1 : 1 + n_off])
        sizes = iter(converted[1 + n_off : 1 + n_off + n_size])
        strides = iter(converted[1 + n_off + n_size :])
        desc = MemRefDescriptor.poison(rewriter, struct_type)
        allocated, aligned = _pointers(o, op, rewriter, rc.source.type, source)
        desc.set_allocated_ptr(rewriter, allocated)
        desc.set_aligned_ptr(rewriter, aligned)
        (static_offset,) = rc.static_offsets.get_values()
        if static_offset == DYNAMIC_INDEX:
            desc.set_offset(rewriter, next(offsets))
        else:
            desc.set_constant_offset(rewriter, static_offset)
        for i, (size, stride) in enumerate(
            zip(rc.static_sizes.get_values(), rc.static_strides.get_values())
        ):
            if size == DYNAMIC_INDEX:
                desc.set_size(rewriter, i, next(sizes))
            else:
                desc.set_constant_size(rewriter, i, size)
            if stride == DYNAMIC_INDEX:
                desc.set_stride(rewriter, i, next(strides))
            else:
                desc.set_constant_stride(rewriter, i, stride)
        return [desc.value]


class ViewLowering(MemRefPattern):
    op_type = memref.ViewOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        view = cast(memref.ViewOp, op)
        view_type = cast(MemRefType, view.result.type)
        struct_type = o.descriptor_type(op, view_type)
        strides, offset = o.strided(op, view_type)
        if offset != 0:
            raise o.error(op, f"has result type {view_type} with a non-zero offset")
        if strides and strides[-1] not in (1, 0):
            raise o.error(op, f"has result type {view_type}, which is not contiguous")
        source, byte_shift, *dynamic_sizes = o.operands(op, rewriter)
        source_type = cast(MemRefType, view.source.type)
        index_type = o.index_type
        src = MemRefDescriptor(source)
        desc = MemRefDescriptor.poison(rewriter, struct_type)
        desc.set_allocated_ptr(rewriter, src.allocated_ptr(rewriter))
        aligned = gep(
            rewriter,
            src.aligned_ptr(rewriter),
            [byte_shift],
            o.element_type(op, source_type),
        )
        desc.set_aligned_ptr(rewriter, aligned)
        desc.set_offset(rewriter, index_constant(rewriter, index_type, 0))
        shape = view_type.get_shape()
        stride: SSAValue | None = None
        next_size: SSAValue | None = None
        for i in range(len(shape) - 1, -1, -1):
            if shape[i] != DYNAMIC_INDEX:
                size = index_constant(rewriter, index_type, shape[i])
            else:
                size = dynamic_sizes[sum(1 for s in shape[:i] if s == DYNAMIC_INDEX)]
            desc.set_size(rewriter, i, size)
            static_stride = strides[i]
            if static_stride is not None:
                stride = index_constant(rewriter, index_type, static_stride)
            elif next_size is not None:
                stride = (
                    next_size if stride is None else mul(rewriter, stride, next_size)
                )
            else:
                stride = index_constant(rewriter, index_type, 1)
            desc.set_stride(rewriter, i, stride)
            next_size = size
        return [desc.value]


class TransposeLowering(RewritePattern):
    """``transpose``: the descriptor with sizes and strides permuted (upstream's
    ``TransposeOpLowering``).

    Matched by name: xDSL 0.74's memref dialect has no ``transpose``; the lowering
    works for any definition with upstream's operand and ``permutation`` property.
    """

    def __init__(self, options: MemRefLoweringOptions):
        self.options = options

    acts_on_names = ("memref.transpose",)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "memref.transpose":
            return
        o = self.options
        permutation = op.properties.get("permutation") or op.attributes.get(
            "permutation"
        )
        if not isinstance(permutation, AffineMapAttr) or not all(
            isinstance(e, AffineDimExpr) for e in permutation.data.results
        ):
            raise o.error(op, "expects a permutation map of dimensions")
        source_type = op.operands[0].type
        result_type = op.results[0].type
        if not isinstance(source_type, MemRefType) or not isinstance(
            result_type, MemRefType
        ):
            raise o.error(op, "expects ranked memrefs")
        (converted,) = o.operands(op, rewriter)
        source = MemRefDescriptor(converted)
        positions = [cast(AffineDimExpr, e).position for e in permutation.data.results]
        if positions == list(range(len(positions))):
            replace_op(op, [], [converted], rewriter)
            return
        desc = MemRefDescriptor.poison(rewriter, o.descriptor_type(op, source_type))
        desc.set_allocated_ptr(rewriter, source.allocated_ptr(rewriter))
        desc.set_aligned_ptr(rewriter, source.aligned_ptr(rewriter))
        desc.set_offset(rewriter, source.offset(rewriter))
        for target, position in enumerate(positions):
            desc.set_size(rewriter, target, source.size(rewriter, position))
            desc.set_stride(rewriter, target, source.stride(rewriter, position))
        replace_op(op, [], [desc.value], rewriter)


class MemorySpaceCastLowering(MemRefPattern):
    op_type = memref.MemorySpaceCastOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        space_cast = cast(memref.MemorySpaceCastOp, op)
        source_type = space_cast.source.type
        dest_type = space_cast.dest.type
        (converted,) = o.operands(op, rewriter)
        target = cast(llvm.LLVMStructType, o.convert(op, dest_type))
        if isinstance(dest_type, MemRefType):
            dest_space = o.address_space(op, dest_type)
            fields = MemRefDescriptor(converted).unpack(rewriter)
            fields[0] = _cast_ptr(rewriter, fields[0], dest_space)
            fields[1] = _cast_ptr(rewriter, fields[1], dest_space)
            return [MemRefDescriptor.pack(rewriter, target, fields).value]
        assert isinstance(source_type, UnrankedMemRefType)
        assert isinstance(dest_type, UnrankedMemRefType)
        source_space = o.address_space(op, source_type)
        dest_space = o.address_space(op, dest_type)
        index_type = o.index_type
        source = UnrankedMemRefDescriptor(converted)
        rank = source.rank(rewriter)
        source_ptr = source.memref_desc_ptr(rewriter)
        result = UnrankedMemRefDescriptor.poison(rewriter, target)
        result.set_rank(rewriter, rank)
        size = UnrankedMemRefDescriptor.compute_size(rewriter, rank, index_type)
        result_ptr = alloca(rewriter, size, i8)
        result.set_memref_desc_ptr(rewriter, result_ptr)
        source_elem_ptr, dest_elem_ptr = ptr_type(source_space), ptr_type(dest_space)
        allocated = UnrankedMemRefDescriptor.allocated_ptr(
            rewriter, source_ptr, source_elem_ptr
        )
        aligned = UnrankedMemRefDescriptor.aligned_ptr(
            rewriter, source_ptr, source_elem_ptr
        )
        allocated = _cast_ptr(rewriter, allocated, dest_space)
        aligned = _cast_ptr(rewriter, aligned, dest_space)
        UnrankedMemRefDescriptor.set_allocated_ptr(rewriter, result_ptr, allocated)
        UnrankedMemRefDescriptor.set_aligned_ptr(
            rewriter, result_ptr, dest_elem_ptr, aligned
        )
        source_indices = UnrankedMemRefDescriptor.offset_base_ptr(
            rewriter, source_ptr, source_elem_ptr, index_type
        )
        result_indices = UnrankedMemRefDescriptor.offset_base_ptr(
            rewriter, result_ptr, dest_elem_ptr, index_type
        )
        skip = index_constant(rewriter, index_type, 16)
        copy_size = sub(rewriter, size, skip)
        rewriter.insert(llvm.MemcpyOp(result_indices, source_indices, copy_size))
        return [result.value]


# --------------------------------------------------------------------------------------
# Copies
# --------------------------------------------------------------------------------------


def _contiguous_row_major(t: MemRefType) -> bool:
    """Static shape whose inner dimensions have unit strides and outer ones size 1
    (upstream's ``isStaticShapeAndContiguousRowMajor``)."""
    if not t.has_static_shape():
        return False
    try:
        strides, _ = strides_and_offset(t)
    except ValueError:
        return False
    shape = t.get_shape()
    running = 1
    dim = len(strides) - 1
    while dim >= 0 and strides[dim] == running:
        running *= shape[dim]
        dim -= 1
    while dim >= 0 and shape[dim] == 1:
        dim -= 1
    return dim < 0


def _copyable_by_memcpy(t: Attribute) -> bool:
    if not isinstance(t, MemRefType):
        return False
    if is_identity_layout(t):
        return True
    count = 1
    for size in t.get_shape():
        count *= size
    return t.has_static_shape() and count > 0 and _contiguous_row_major(t)


class CopyLowering(MemRefPattern):
    op_type = memref.CopyOp

    def lower(self, op: Operation, rewriter: PatternRewriter) -> list[SSAValue]:
        o = self.options
        copy = cast(memref.CopyOp, op)
        source_type = copy.source.type
        target_type = copy.destination.type
        source, target = o.operands(op, rewriter)
        element_type = o.element_type(op, cast(MemRefType, source_type))
        if _copyable_by_memcpy(source_type) and _copyable_by_memcpy(target_type):
            src = MemRefDescriptor(source)
            count = index_constant(rewriter, o.index_type, 1)
            for i in range(src.rank):
                count = mul(rewriter, count, src.size(rewriter, i))
            total = mul(rewriter, count, o.size_in_bytes(rewriter, element_type))
            src_ptr = gep(
                rewriter,
                src.aligned_ptr(rewriter),
                [src.offset(rewriter)],
                element_type,
            )
            dst = MemRefDescriptor(target)
            dst_ptr = gep(
                rewriter,
                dst.aligned_ptr(rewriter),
                [dst.offset(rewriter)],
                element_type,
            )
            rewriter.insert(llvm.MemcpyOp(dst_ptr, src_ptr, total))
            return []

        # The generic copy of the C runner utils, on unranked descriptors.
        save = llvm.StackSaveOp()
        rewriter.insert(save)

        def unranked(value: SSAValue, t: Attribute) -> SSAValue:
            if isinstance(t, UnrankedMemRefType):
                return value
            memref_type = cast(MemRefType, t)
            rank = llvm.ConstantOp(
                IntegerAttr(memref_type.get_num_dims(), o.index_type), o.index_type
            )
            rewriter.insert(rank)
            pointer = promote_to_stack(rewriter, value)
            struct_type = o.convert(
                op,
                UnrankedMemRefType(memref_type.element_type, memref_type.memory_space),
            )
            return UnrankedMemRefDescriptor.pack(
                rewriter, cast(llvm.LLVMStructType, struct_type), rank.result, pointer
            ).value

        source_unranked = unranked(source, source_type)
        target_unranked = unranked(target, target_type)
        one = index_constant(rewriter, o.index_type, 1)
        source_ptr = alloca(rewriter, one, source_unranked.type)
        store(rewriter, source_unranked, source_ptr)
        target_ptr = alloca(rewriter, one, target_unranked.type)
        store(rewriter, target_unranked, target_ptr)
        element_size = o.size_in_bytes(rewriter, element_type)
        o.call(rewriter, op, "memrefCopy", [element_size, source_ptr, target_ptr], None)
        rewriter.insert(llvm.StackRestoreOp(save.res))
        return []


# --------------------------------------------------------------------------------------
# What must not reach this pass
# --------------------------------------------------------------------------------------


class ExpandFirst(RewritePattern):
    """View ops that ``expand-strided-metadata`` rewrites; upstream leaves them here
    without a word."""

    def __init__(self, options: MemRefLoweringOptions):
        self.options = options

    acts_on = (memref.SubviewOp, memref.ExpandShapeOp, memref.CollapseShapeOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(
            op, memref.SubviewOp | memref.ExpandShapeOp | memref.CollapseShapeOp
        ):
            kind = op.name.removeprefix("memref.")
            raise self.options.error(
                op,
                f"must be expanded before this pass: run expand-strided-metadata "
                f"(which rewrites {kind} into reinterpret_cast) before "
                f"{self.options.pass_name}",
            )


class Unsupported(RewritePattern):
    """Any other ``memref`` op: a diagnostic, instead of an op left behind."""

    def __init__(self, options: MemRefLoweringOptions):
        self.options = options

    acts_on_names = ("memref.",)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name.startswith("memref.") and op.name not in _HANDLED_ELSEWHERE:
            raise self.options.error(
                op, f"has no lowering to the llvm dialect in {self.options.pass_name}"
            )


_HANDLED_ELSEWHERE = frozenset({"memref.alloca_scope.return", "memref.atomic_yield"})


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
    """The memref lowerings (upstream's ``populateFinalizeMemRefToLLVMConversion
    Patterns``), for this pass and for convert-gpu-to-nvvm and gpu-to-llvm.

    With ``strict``, a memref op that none of them lowers stops the conversion with a
    diagnostic (see :class:`ExpandFirst` and :class:`Unsupported`).
    """
    patterns: list[RewritePattern] = [
        pattern(options)
        for pattern in (
            AllocLowering,
            AllocaLowering,
            AllocaScopeLowering,
            AssumeAlignmentLowering,
            AtomicRMWLowering,
            CastLowering,
            CopyLowering,
            DeallocLowering,
            DimLowering,
            ExtractAlignedPointerLowering,
            ExtractStridedMetadataLowering,
            GetGlobalLowering,
            GenericAtomicRMWLowering,
            GlobalLowering,
            LoadLowering,
            MemorySpaceCastLowering,
            RankLowering,
            ReinterpretCastLowering,
            StoreLowering,
            TransposeLowering,
            ViewLowering,
        )
    ]
    if strict:
        patterns += [ExpandFirst(options), Unsupported(options)]
    return patterns
