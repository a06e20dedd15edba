"""What every conversion to the ``llvm`` dialect shares (upstream's
``LLVMTypeConverter`` and the bits of the dialect-conversion driver the std-to-LLVM
passes need).

* :class:`LLVMTypeConverter`: builtin types to LLVM-compatible types. ``index`` becomes
  ``iN`` (``index-bitwidth``), a memref its descriptor
  ``!llvm.struct<(ptr, ptr, iN, array<R x iN>, array<R x iN>)>`` (rank 0: no arrays;
  unranked: ``!llvm.struct<(iN, ptr)>``), complex numbers a two-field struct, vectors
  of rank > 1 nested arrays of 1-D vectors. A memref's memory space becomes the pointer
  address space: an integer as is, ``#gpu.address_space`` through
  :data:`NVVM_ADDRESS_SPACES` (global 1, workgroup 3, private 0) when the converter has
  that mapping (the kernel-side lowerings); without one, such a memref cannot convert.
* Values cross the boundary between converted and unconverted code through
  ``builtin.unrealized_conversion_cast`` (:func:`to_llvm`, :func:`replace_op`), exactly
  where upstream materializes them; ``reconcile-unrealized-casts`` removes the pairs.
* :func:`convert_block_signature` gives a block converted argument types, as upstream's
  ``convertRegionTypes``/``convertBlockSignature`` do.
* :func:`apply_patterns` runs one forward walk of the patterns (each op is converted
  once; what the patterns build is ``llvm`` and needs no further rewriting), letting a
  :class:`ConversionError` out as a one-line diagnostic at the op.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import UnionType
from typing import Union, get_args, get_origin

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    BoolAttr,
    ComplexType,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    Signedness,
    UnknownLoc,
    UnrankedMemRefType,
    UnrealizedConversionCastOp,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.compat.use_lists import (
    replace_without_listeners,
    retype_in_place,
    silent,
)
from xdsl_gpu.diagnostics import at_op
from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.passes.ir_walk import preorder
from xdsl_gpu.passes.memref_descriptor import (
    constant_op,
    extract_value_op,
    insert_value_op,
    ptr_type,
)

NVVM_ADDRESS_SPACES: Mapping[str, int] = {"global": 1, "workgroup": 3, "private": 0}
"""``#gpu.address_space`` to NVVM address spaces (``populateGpuMemorySpaceAttribute
Conversions`` in ``LowerGpuOpsToNVVMOps.cpp``)."""

_LLVM_FLOATS = (
    Float16Type,
    BFloat16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
)


class ConversionError(PassFailedException):
    """An op that a conversion pass cannot lower, with the reason."""


def describe(op: Operation) -> str:
    """``'arith.truncf' op in @f`` (the command-line tools put the op's source
    location in front of the message: ``xdsl_gpu/diagnostics.py``)."""
    where = ""
    parent: Operation | None = op
    while parent is not None:
        name = parent.properties.get("sym_name") or parent.attributes.get("sym_name")
        if name is not None and hasattr(name, "data"):
            preposition = "" if parent is op else "in "
            where = f" {preposition}@{name.data}"  # pyright: ignore[reportAttributeAccessIssue]
            break
        parent = parent.parent_op()
    return f"'{op.name}' op{where}"


def conversion_error(pass_name: str, op: Operation, why: str) -> ConversionError:
    """``<pass>: 'arith.truncf' op in @f <why>``: one line, with the fix in ``why``."""
    error = ConversionError(f"{pass_name}: {describe(op)} {why}")
    return at_op(error, op)  # type: ignore[return-value]


@dataclass(frozen=True)
class LLVMTypeConverter:
    """Builtin types to LLVM types, as ``mlir::LLVMTypeConverter`` does."""

    index_bitwidth: int = 64
    """Width of ``index`` (upstream's ``index-bitwidth``; 0 means the default, 64)."""

    address_spaces: Mapping[str, int] | None = None
    """``#gpu.address_space`` value to LLVM address space; ``None``: not convertible."""

    def __post_init__(self) -> None:
        if self.index_bitwidth == 0:
            object.__setattr__(self, "index_bitwidth", 64)
        if self.index_bitwidth < 0:
            raise PassFailedException(
                f"index-bitwidth={self.index_bitwidth} is not a bit width: use a "
                "positive width, or 0 for the default (64)"
            )

    @classmethod
    def for_pass(
        cls,
        pass_name: str,
        index_bitwidth: int,
        address_spaces: Mapping[str, int] | None = None,
    ) -> LLVMTypeConverter:
        """The converter for a pass's options; a bad option names the pass."""
        try:
            return cls(index_bitwidth, address_spaces)
        except PassFailedException as e:
            raise PassFailedException(f"{pass_name}: {e}") from None

    @cached_property
    def index_type(self) -> IntegerType:
        return IntegerType(self.index_bitwidth)

    # -- types ---------------------------------------------------------------------

    @cached_property
    def _converted(self) -> dict[Attribute, Attribute | None]:
        return {}

    def convert_type(self, t: Attribute) -> Attribute | None:
        """The LLVM-compatible type for ``t``, or ``None`` if there is none. Each
        type is converted once per converter (a pass converts the same few types
        thousands of times; types are values, so the answer is shared)."""
        converted = self._converted.get(t, self)
        if converted is self:
            converted = self._converted[t] = self._convert_type(t)
        return converted  # pyright: ignore[reportReturnType]

    def _convert_type(self, t: Attribute) -> Attribute | None:
        match t:
            case IndexType():
                return self.index_type
            case IntegerType():
                if t.signedness.data == Signedness.SIGNLESS:
                    return t
                return IntegerType(t.width.data)
            case _ if isinstance(t, _LLVM_FLOATS):
                return t
            case _ if isinstance(t, AnyFloat):
                # Small float formats (f8*, f6*, f4*, tf32) have no LLVM type:
                # upstream keeps their bits in an integer of the same width.
                return IntegerType(t.bitwidth)
            case ComplexType():
                element = self.convert_type(t.element_type)
                if element is None:
                    return None
                return llvm.LLVMStructType.from_type_list([element, element])
            case VectorType():
                return self.convert_vector_type(t)
            case MemRefType():
                return self.memref_descriptor_type(t)
            case UnrankedMemRefType():
                # The pointer is to a ranked descriptor in memory, always in the
                # default address space (as upstream).
                if self.address_space(t.memory_space) is None:
                    return None
                return llvm.LLVMStructType.from_type_list(
                    [self.index_type, llvm.LLVMPointerType()]
                )
            case FunctionType():
                return llvm.LLVMPointerType()
            case (
                llvm.LLVMPointerType()
                | llvm.LLVMStructType()
                | llvm.LLVMArrayType()
                | llvm.LLVMVoidType()
                | llvm.LLVMFunctionType()
            ):
                return t
            case _:
                return None

    def convert_types(self, types: Iterable[Attribute]) -> list[Attribute] | None:
        converted = [self.convert_type(t) for t in types]
        if any(c is None for c in converted):
            return None
        return [c for c in converted if c is not None]

    def convert_vector_type(self, t: VectorType) -> Attribute | None:
        element = self.convert_type(t.element_type)
        if element is None or isinstance(element, llvm.LLVMStructType):
            return None
        shape = t.get_shape()
        scalable = [bool(b.value.data) for b in t.scalable_dims.data]
        if any(d < 0 for d in shape) or any(scalable[:-1]):
            return None  # only the innermost dimension may be scalable in LLVM
        if not shape:
            return VectorType(element, [1])
        result: Attribute = VectorType(
            element, [shape[-1]], ArrayAttr([BoolAttr.from_bool(scalable[-1])])
        )
        for d in reversed(shape[:-1]):
            result = llvm.LLVMArrayType(d, result)
        return result

    # -- memrefs -------------------------------------------------------------------

    def address_space(self, memory_space: Attribute) -> int | None:
        """The LLVM address space of a memref memory space, or ``None``."""
        if isinstance(memory_space, NoneAttr):
            return 0
        if isinstance(memory_space, IntegerAttr):
            return memory_space.value.data
        if memory_space.name == "gpu.address_space" and self.address_spaces is not None:
            return self.address_spaces.get(str(getattr(memory_space, "data", "")))
        return None

    def memref_pointer_type(
        self, t: MemRefType | UnrankedMemRefType
    ) -> Attribute | None:
        space = self.address_space(t.memory_space)
        return None if space is None else ptr_type(space)

    def memref_descriptor_type(self, t: MemRefType) -> llvm.LLVMStructType | None:
        """``!llvm.struct<(ptr, ptr, iN, array<R x iN>, array<R x iN>)>``."""
        ptr = self.memref_pointer_type(t)
        element = self.convert_type(t.element_type)
        if ptr is None or element is None:
            return None
        index = self.index_type
        fields: list[Attribute] = [ptr, ptr, index]
        if rank := len(t.get_shape()):
            fields += [llvm.LLVMArrayType(rank, index)] * 2
        return llvm.LLVMStructType.from_type_list(fields)

    def memref_descriptor_fields(
        self, t: MemRefType | UnrankedMemRefType
    ) -> list[Attribute] | None:
        """The scalars a memref argument expands to under the default calling
        convention: ``ptr, ptr, iN, sizes..., strides...`` (unranked: ``iN, ptr``)."""
        ptr = self.memref_pointer_type(t)
        if ptr is None or self.convert_type(t.element_type) is None:
            return None
        index = self.index_type
        if isinstance(t, UnrankedMemRefType):
            return [index, llvm.LLVMPointerType()]
        rank = len(t.get_shape())
        return [ptr, ptr, index, *[index] * (2 * rank)]


# -- casts at the boundary -----------------------------------------------------------


def to_llvm(value: SSAValue, target: Attribute, rewriter: PatternRewriter) -> SSAValue:
    """``value`` as a value of the converted type ``target``.

    Reuses the input of an unrealized cast from ``target`` instead of stacking casts.
    Otherwise the value gets one ``builtin.unrealized_conversion_cast`` right after its
    definition (at the start of the block for a block argument), shared by every
    converted user, as upstream's materializations are.
    """
    if value.type == target:
        return value
    owner = value.owner
    if (
        isinstance(owner, UnrealizedConversionCastOp)
        and len(owner.inputs) == 1
        and owner.inputs[0].type == target
    ):
        return owner.inputs[0]
    for cast in _casts_after_definition(value):
        if tuple(cast.inputs) == (value,) and cast.results[0].type == target:
            return cast.results[0]
    cast = UnrealizedConversionCastOp.create(operands=[value], result_types=[target])
    if isinstance(owner, Operation):
        rewriter.insert(cast, InsertPoint.after(owner))
    else:
        rewriter.insert(cast, InsertPoint.at_start(owner))
    return cast.results[0]


def _casts_after_definition(value: SSAValue) -> Iterator[UnrealizedConversionCastOp]:
    """The unrealized casts that directly follow the definition of ``value`` (where
    :func:`to_llvm` puts them, so they dominate every use of ``value``)."""
    owner = value.owner
    op = owner.next_op if isinstance(owner, Operation) else owner.first_op
    while isinstance(op, UnrealizedConversionCastOp):
        yield op
        op = op.next_op


def convert_operands(
    converter: LLVMTypeConverter, op: Operation, rewriter: PatternRewriter
) -> list[SSAValue] | None:
    """The operands of ``op`` as converted values, or ``None`` if a type has no
    conversion."""
    types = converter.convert_types(o.type for o in op.operands)
    if types is None:
        return None
    return [to_llvm(o, t, rewriter) for o, t in zip(op.operands, types, strict=True)]


def replace_op(
    op: Operation,
    new_ops: Sequence[Operation],
    new_values: Sequence[SSAValue],
    rewriter: PatternRewriter,
) -> None:
    """Replace ``op`` by ``new_ops``; ``new_values`` (converted types) stand for its
    results, cast back to the original types where they differ."""
    casts: list[Operation] = []
    results: list[SSAValue] = []
    for old, new in zip(op.results, new_values, strict=True):
        if old.type == new.type:
            results.append(new)
            continue
        cast = UnrealizedConversionCastOp.create(
            operands=[new], result_types=[old.type]
        )
        casts.append(cast)
        results.append(cast.results[0])
    if silent(rewriter):  # the same IR, without xDSL's per-use bookkeeping
        replace_without_listeners(op, [*new_ops, *casts], results, rewriter)
    else:
        rewriter.replace(op, [*new_ops, *casts], results)


def convert_block_signature(
    converter: LLVMTypeConverter,
    block: Block,
    rewriter: PatternRewriter,
) -> bool:
    """Give ``block`` converted argument types; the old uses see a cast back at the
    start of the block. Returns ``False`` (and changes nothing) if a type has no
    conversion."""
    types = converter.convert_types(a.type for a in block.args)
    if types is None:
        return False
    for arg, new_type in zip(tuple(block.args), types, strict=True):
        if arg.type == new_type:
            continue
        old_type = arg.type
        new_arg = rewriter.replace_value_with_new_type(arg, new_type)
        if not new_arg.uses:
            continue
        cast = UnrealizedConversionCastOp.create(
            operands=[new_arg], result_types=[old_type]
        )
        rewriter.insert(cast, InsertPoint.at_start(block))
        rewriter.replace_uses_with_if(
            new_arg, cast.results[0], lambda use: use.operation is not cast
        )
    return True


# -- aggregates ----------------------------------------------------------------------


def extract(container: SSAValue, *position: int) -> llvm.ExtractValueOp:
    """``llvm.extractvalue %container[position]``, with the element type computed."""
    t = container.type
    for index in position:
        if isinstance(t, llvm.LLVMArrayType):
            t = t.type
        else:
            assert isinstance(t, llvm.LLVMStructType)
            t = t.types.data[index]
    return extract_value_op(container, position, t)


def insert(container: SSAValue, value: SSAValue, *position: int) -> llvm.InsertValueOp:
    """``llvm.insertvalue %value, %container[position]``."""
    return insert_value_op(container, value, position)


def array_positions(t: Attribute) -> tuple[list[tuple[int, ...]], Attribute]:
    """The positions of the innermost elements of nested ``!llvm.array`` types, and
    the innermost type (a 1-D vector for a converted n-D vector)."""
    positions: list[tuple[int, ...]] = [()]
    while isinstance(t, llvm.LLVMArrayType):
        positions = [(*p, i) for p in positions for i in range(t.size.data)]
        t = t.type
    return positions, t


def unroll_nd_vector(
    operands: Sequence[SSAValue],
    result_type: llvm.LLVMArrayType,
    build: Callable[[list[SSAValue], Attribute], Sequence[Operation]],
) -> tuple[list[Operation], SSAValue]:
    """Apply a 1-D vector lowering to every innermost vector of an n-D vector
    (upstream's ``handleMultidimensionalVectors``): extract each operand's 1-D vector,
    build the op on it, insert the result into a poison array."""
    positions, leaf_type = array_positions(result_type)
    ops: list[Operation] = [poison := llvm.PoisonOp(result_type)]
    result: SSAValue = poison.results[0]
    for position in positions:
        leaves: list[SSAValue] = []
        for operand in operands:
            if isinstance(operand.type, llvm.LLVMArrayType):
                ops.append(e := extract(operand, *position))
                leaves.append(e.results[0])
            else:
                leaves.append(operand)
        built = build(leaves, leaf_type)
        ops.extend(built)
        ops.append(i := insert(result, built[-1].results[0], *position))
        result = i.results[0]
    return ops, result


# -- constants -----------------------------------------------------------------------


def constant(value: int | float, t: Attribute) -> llvm.ConstantOp:
    """``llvm.mlir.constant(value : t) : t`` for an integer or float type ``t``."""
    if isinstance(t, IntegerType | IndexType):
        attr: Attribute = IntegerAttr(int(value), t, truncate_bits=True)
    else:
        assert isinstance(t, AnyFloat)
        attr = FloatAttr(float(value), t)
    return constant_op(attr, t)


def splat_or_scalar(value: int | float, t: Attribute) -> llvm.ConstantOp:
    """A constant of type ``t``: a scalar, or a splat of a 1-D vector type."""
    if isinstance(t, VectorType):
        attr = DenseIntOrFPElementsAttr.from_list(t, [value] * t.element_count())
        return constant_op(attr, t)
    return constant(value, t)


# -- the driver ----------------------------------------------------------------------


@dataclass
class PatternSet:
    """Patterns applied in one forward walk; the first one that acts wins."""

    patterns: Sequence[RewritePattern]
    erase_dead_casts: bool = field(default=True)

    def apply(self, root: ModuleOp | Operation) -> None:
        rewrite_each(preorder(root)[1:], root, self.patterns)
        if self.erase_dead_casts:
            erase_dead_casts(root)


def acted_on(pattern: RewritePattern) -> tuple[type[Operation], ...] | None:
    """The op classes ``pattern`` may act on, where it says so: an ``acts_on``
    tuple of op classes given by the class that defines its ``match_and_rewrite``
    (a subclass that rewrites more is not bound by its base's), or the type hint
    that xDSL's ``op_type_rewrite_pattern`` checks. None: any op (but see
    :func:`acted_on_names`)."""
    kind = type(pattern)
    declared = _declared(pattern, "acts_on")
    if declared is not None:
        if not all(
            isinstance(k, type) and issubclass(k, Operation)
            for k in declared  # pyright: ignore[reportUnknownVariableType]
        ):
            return None
        return typing.cast(tuple[type[Operation], ...], declared)
    method = kind.match_and_rewrite
    code = getattr(method, "__code__", None)
    if (
        code is None
        or method.__qualname__ != "op_type_rewrite_pattern.<locals>.impl"
        or "expected_type" not in code.co_freevars
    ):
        return None
    cell = method.__closure__[code.co_freevars.index("expected_type")]  # pyright: ignore[reportOptionalSubscript]
    expected = cell.cell_contents
    kinds = get_args(expected) if get_origin(expected) in (Union, UnionType) else ()
    found = kinds or (expected,)
    if not all(isinstance(k, type) and issubclass(k, Operation) for k in found):
        return None
    return found


def acted_on_names(pattern: RewritePattern) -> tuple[str, ...] | None:
    """The beginnings of the names of the ops ``pattern`` may act on, for a pattern
    that picks its ops by name (``"index."``, ``"memref.transpose"``): an
    ``acts_on_names`` tuple of strings given by the class that defines its
    ``match_and_rewrite``. None: not said."""
    declared = _declared(pattern, "acts_on_names")
    if declared is None or not all(isinstance(n, str) for n in declared):
        return None
    return typing.cast(tuple[str, ...], declared)


def _declared(pattern: RewritePattern, attribute: str) -> tuple[object, ...] | None:
    """``pattern``'s tuple ``attribute`` where the class that defines its
    ``match_and_rewrite`` gives it, else None."""
    kind = type(pattern)
    declared = getattr(pattern, attribute, None)
    if declared is None or not isinstance(declared, tuple):
        return None
    if _defined_by(kind, attribute) is not _defined_by(kind, "match_and_rewrite"):
        return None
    return declared  # pyright: ignore[reportUnknownVariableType]


def _defined_by(kind: type, name: str) -> type | None:
    return next((c for c in kind.__mro__ if name in c.__dict__), None)


class _Dispatch:
    """For each class of op, the patterns that may act on it, in their order,
    instead of every pattern answering every op with an ``isinstance`` of an
    abstract class."""

    def __init__(self, patterns: Sequence[RewritePattern]) -> None:
        self._patterns = [(p, acted_on(p), acted_on_names(p)) for p in patterns]
        self._by_class: dict[type[Operation], list[RewritePattern]] = {}

    def __call__(self, kind: type[Operation]) -> list[RewritePattern]:
        found = self._by_class.get(kind)
        if found is None:
            found = self._by_class[kind] = [
                p for p, kinds, names in self._patterns if may_act(kind, kinds, names)
            ]
        return found


def may_act(
    kind: type[Operation],
    kinds: tuple[type[Operation], ...] | None,
    names: tuple[str, ...] | None,
) -> bool:
    """Whether a pattern that acts on ``kinds`` (classes) or ``names`` (beginnings
    of op names; None for either: not said) may act on an op of class ``kind``."""
    if kinds is None and names is None:
        return True
    if kinds is not None and issubclass(kind, kinds):
        return True
    # An op's name is its class's (xDSL's unregistered ops are each a class too).
    name = getattr(kind, "name", None)
    return names is not None and (not isinstance(name, str) or name.startswith(names))


def rewrite_each(
    ops: Iterable[Operation], root: Operation, patterns: Sequence[RewritePattern]
) -> None:
    """Rewrite each of ``ops`` that is still under ``root`` (an earlier rewrite may
    have replaced it) with the first of ``patterns`` that acts on it (trying only
    those that may: :class:`_Dispatch`). One rewriter for all, reset at each op as
    xDSL's pattern walker does (a new one per op was 2% of compiling a large
    program)."""
    rewriter: PatternRewriter | None = None
    dispatch = _Dispatch(patterns)
    for op in ops:
        patterns_of_op = dispatch(type(op))
        if not patterns_of_op or not _is_attached(op, root):
            continue
        if rewriter is None:
            rewriter = ConversionRewriter(op)
        else:
            rewriter.has_done_action = False
            rewriter.current_operation = op
            rewriter.insertion_point = InsertPoint.before(op)
            if rewriter.name_hint is not None:  # its setter checks the name
                rewriter.name_hint = None
        before, after, block = op.prev_op, op.next_op, op.parent_block()
        for pattern in patterns_of_op:
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                if block is not None:
                    _locate_new_ops(block, before, after, op.location)
                break


class ConversionRewriter(PatternRewriter):
    """The rewriter of :func:`rewrite_each`, which gives the ops a rewrite puts in
    an op's place that op's location (:func:`_locate_new_ops`)."""


def replace_by_one(
    op: Operation,
    cls: type[Operation],
    properties: Mapping[str, Attribute],
    rewriter: PatternRewriter,
) -> bool:
    """Replace ``op`` by ``cls.create(operands=op.operands, result_types=
    op.result_types, properties=properties)`` by making ``op`` that op
    (``compat.use_lists.retype_in_place``) where nothing observes the rewrite and
    the new op would get ``op``'s location anyway; False where not done."""
    return (
        type(rewriter) is ConversionRewriter
        and silent(rewriter)
        and retype_in_place(op, cls, properties, rewriter)
    )


def _locate_new_ops(
    block: Block,
    before: Operation | None,
    after: Operation | None,
    loc: LocationAttr,
) -> None:
    """Give the ops a rewrite put in ``op``'s place (between its old neighbours
    ``before`` and ``after``) ``op``'s location where they have none, as MLIR's
    patterns build them at ``op.getLoc()``. Nothing if a neighbour moved away."""
    if isinstance(loc, UnknownLoc):
        return
    if (before is not None and before.parent is not block) or (
        after is not None and after.parent is not block
    ):
        return
    made = before.next_op if before is not None else block.first_op
    while made is not None and made is not after:
        if isinstance(made.location, UnknownLoc):
            made.location = loc
        made = made.next_op


def apply_patterns(
    root: ModuleOp | Operation, patterns: Sequence[RewritePattern]
) -> None:
    PatternSet(patterns).apply(root)


def _is_attached(op: Operation, root: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if parent is root:
            return True
        parent = parent.parent_op()
    return False


def erase_dead_casts(root: Operation) -> None:
    """Erase the unrealized casts that nothing uses (materializations that the
    conversion made and then bypassed), as the dialect-conversion driver does."""
    for op in reversed(preorder(root)):
        if isinstance(op, UnrealizedConversionCastOp) and not any(
            r.uses for r in op.results
        ):
            op.detach()
            op.erase()
