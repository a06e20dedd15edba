"""Host-side memory and synchronisation ops of the ``gpu`` dialect, and the
``AsyncOpInterface`` that every asynchronous gpu op shares.

Upstream: ``GPUOps.td`` (``GPU_AllocOp`` ... ``GPU_SetDefaultDeviceOp``) and
``GPUBase.td`` (``GPU_AsyncOpInterface``); verifier texts from ``GPUDialect.cpp`` as
MLIR 22 prints them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, Self

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ContainerType,
    DenseArrayBase,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    ShapedType,
    StridedLayoutAttr,
    UnitAttr,
    UnrankedMemRefType,
    UnrankedTensorType,
    i32,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_result_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import CustomDirective
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import (
    HasCanonicalizationPatternsTrait,
    MemoryAllocEffect,
    MemoryEffectKind,
    MemoryFreeEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    get_effects,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.gpu.async_syntax import AsyncDependencies
from xdsl_gpu.gpu_dialect.gpu.constraints import (
    ODSI32,
    AnyMemRef,
    AnyUnrankedMemRef,
    MemRefKind,
    ODSIndex,
    UnrankedMemRefKind,
    instance_of,
    variadic,
)
from xdsl_gpu.gpu_dialect.gpu.types import AsyncTokenType
from xdsl_gpu.gpu_dialect.gpu.verify_order import VerifiedOnEntrance

if TYPE_CHECKING:
    from xdsl.irdl import OptOpResult, VarOperand

ASYNC_PREFIX = "custom<AsyncDependencies>(type($async_token), $async_dependencies)"
"""The ``async [%deps]`` prefix, to start the ``assembly_format`` of an async op."""


class AsyncOpInterface:
    """Mixin of the gpu ops that may run asynchronously (upstream
    ``GPU_AsyncOpInterface``).

    An op using it declares, as its *first* operand and *last* result::

        async_dependencies = async_dependencies_def()
        ...
        async_token = async_token_def()

    (xDSL orders an op's fields subclass first, so the mixin cannot declare them
    itself without moving them behind the op's own operands.) The op does not start
    before every token in ``async_dependencies`` is ready; with an ``async_token``
    it only schedules its work and returns at once, without one it blocks.
    """

    custom_directives: ClassVar[tuple[type[CustomDirective], ...]] = (
        AsyncDependencies,
        MemRefKind,
    )

    if TYPE_CHECKING:
        async_dependencies: VarOperand
        async_token: OptOpResult

    @property
    def is_async(self) -> bool:
        """Whether the op returns an ``!gpu.async.token`` (prints ``async``)."""
        return self.async_token is not None

    def add_async_dependency(self, token: SSAValue | Operation) -> None:
        """Make the op wait for ``token`` too, unless it already does.

        Like upstream ``addAsyncDependency``, the token is prepended to the
        dependency list; the op is changed in place.
        """
        self.set_async_dependencies(self._with_dependencies((token,)))

    def set_async_dependencies(self, tokens: Sequence[SSAValue | Operation]) -> None:
        """Replace the dependency list of the op, in place."""
        op = self._as_irdl_op()
        tokens = [SSAValue.get(t) for t in tokens]
        rest = op.operands[len(self.async_dependencies) :]
        segments = op.properties.get(AttrSizedOperandSegments.attribute_name)
        if isinstance(segments, DenseArrayBase):
            sizes = list(segments.get_values())
            sizes[0] = len(tokens)
            op.properties[AttrSizedOperandSegments.attribute_name] = (
                DenseArrayBase.from_list(i32, sizes)
            )
        op.operands = (*tokens, *rest)

    def make_async(self, dependencies: Sequence[SSAValue | Operation] = ()) -> Self:
        """Return an async version of the op: the same operands, properties,
        attributes and results, plus an ``!gpu.async.token`` result, and
        ``dependencies`` prepended (without duplicates) to its own.

        The new op is not inserted anywhere and the regions of the op (if any) move
        into it; the caller replaces the op, e.g.
        ``rewriter.replace(op, new, new.results[:-1])``. An op that is already
        async gets the dependencies in place and is returned itself.
        """
        deps = self._with_dependencies(dependencies)
        if self.is_async:
            self.set_async_dependencies(deps)
            return self
        op = self._as_irdl_op()
        op_def = op.get_irdl_definition()
        operands = [
            deps if name == "async_dependencies" else getattr(op, name)
            for name, _ in op_def.operands
        ]
        result_types: list[Attribute | Sequence[Attribute] | None] = []
        for name, _ in op_def.results:
            value = AsyncTokenType() if name == "async_token" else getattr(op, name)
            if value is None or isinstance(value, Attribute):
                result_types.append(value)
            elif isinstance(value, SSAValue):
                result_types.append(value.type)
            else:
                result_types.append([r.type for r in value])
        segment_names = (
            AttrSizedOperandSegments.attribute_name,
            AttrSizedResultSegments.attribute_name,
        )
        properties = {k: v for k, v in op.properties.items() if k not in segment_names}
        regions: list[Region] = []
        for region in op.regions:
            regions.append(new_region := Region())
            region.move_blocks(new_region)
        return type(self).build(  # pyright: ignore[reportAttributeAccessIssue]
            operands=operands,
            result_types=result_types,
            properties=properties,
            attributes=dict(op.attributes),
            regions=regions,
        )

    def _with_dependencies(
        self, tokens: Sequence[SSAValue | Operation]
    ) -> list[SSAValue]:
        """``tokens`` not yet waited for, followed by the current dependencies."""
        deps = list(self.async_dependencies)
        new: list[SSAValue] = []
        for token in map(SSAValue.get, tokens):
            if token not in deps and token not in new:
                new.append(token)
        return new + deps

    def _as_irdl_op(self) -> IRDLOperation:
        assert isinstance(self, IRDLOperation), "AsyncOpInterface is an op mixin"
        return self


AsyncToken = instance_of(AsyncTokenType, "async token type", AsyncTokenType())
"""ODS ``GPU_AsyncToken``."""


def async_dependencies_def():
    """The ``async_dependencies`` field of an :class:`AsyncOpInterface` op."""
    return var_operand_def(variadic(AsyncToken))


def async_token_def():
    """The ``async_token`` field of an :class:`AsyncOpInterface` op."""
    return opt_result_def(AsyncToken)


def async_operands(deps: Sequence[SSAValue | Operation]) -> list[SSAValue]:
    """The ``async_dependencies`` operand group, for a builder."""
    return [SSAValue.get(d) for d in deps]


def async_result_types(is_async: bool) -> list[Attribute]:
    """The ``async_token`` result group, for a builder."""
    return [AsyncTokenType()] if is_async else []


def _dynamic_dim_count(memref_type: MemRefType) -> int:
    return sum(1 for d in memref_type.get_shape() if d == DYNAMIC_INDEX)


def _layout_symbol_count(memref_type: MemRefType) -> int:
    """The symbols of the layout map; 0 for an identity layout (which MLIR drops)."""
    layout = memref_type.layout
    if isinstance(layout, NoneAttr):
        return 0
    if isinstance(layout, StridedLayoutAttr):
        # One symbol per dynamic offset or stride (xDSL cannot build that map).
        return sum(isinstance(v, NoneAttr) for v in (layout.offset, *layout.strides))
    amap = layout.get_affine_map()
    identity = tuple(AffineExpr.dimension(d) for d in range(amap.num_dims))
    return 0 if amap.results == identity else amap.num_symbols


def _element_type_or_self(t: Attribute) -> Attribute:
    """Upstream ``getElementTypeOrSelf``: the element type of a shaped type."""
    shaped = isinstance(t, ShapedType | UnrankedMemRefType | UnrankedTensorType)
    return t.get_element_type() if shaped and isinstance(t, ContainerType) else t


class _AllocCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (EraseUnusedAlloc(), FoldDimOfAlloc())


class _MemcpyCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (EraseTrivialCopy(), FoldMemRefCastOperands())


class _MemsetCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (FoldMemRefCastOperands(),)


class _WaitCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (EraseRedundantWaitPairs(), SimplifyWait())


@irdl_op_definition
class AllocOp(AsyncOpInterface, IRDLOperation):
    """``gpu.alloc``: allocates a memref on the device (or, with ``host_shared``,
    in memory that host and device both reach).

    ``%m, %t = gpu.alloc async [%dep] host_shared (%width) : memref<64x?xf32, 1>``
    """

    name = "gpu.alloc"

    async_dependencies = async_dependencies_def()
    dynamic_sizes = var_operand_def(variadic(ODSIndex))
    symbol_operands = var_operand_def(variadic(ODSIndex))
    host_shared = opt_prop_def(UnitAttr, prop_name="hostShared")

    memref = result_def(AnyMemRef)
    async_token = async_token_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryAllocEffect(), _AllocCanonicalization())

    assembly_format = (
        f"{ASYNC_PREFIX} (` ` `host_shared` $hostShared^)? ` ` "
        "`(` $dynamic_sizes `)` (`` `[` $symbol_operands^ `]`)? "
        "attr-dict `:` custom<MemRefKind>(type($memref))"
    )

    def __init__(
        self,
        memref_type: MemRefType,
        dynamic_sizes: Sequence[SSAValue | Operation] = (),
        symbols: Sequence[SSAValue | Operation] = (),
        async_dependencies: Sequence[SSAValue | Operation] = (),
        is_async: bool = False,
        host_shared: bool = False,
    ):
        super().__init__(
            operands=[
                async_operands(async_dependencies),
                [SSAValue.get(s) for s in dynamic_sizes],
                [SSAValue.get(s) for s in symbols],
            ],
            result_types=[memref_type, async_result_types(is_async)],
            properties={"hostShared": UnitAttr() if host_shared else None},
        )

    def verify_(self) -> None:
        memref_type = self.memref.type
        assert isinstance(memref_type, MemRefType)
        expected = _dynamic_dim_count(memref_type)
        if len(self.dynamic_sizes) != expected:
            raise VerifyException(
                f"incorrect number of dynamic sizes, has {len(self.dynamic_sizes)}, "
                f"expected {expected}"
            )
        if len(self.symbol_operands) != _layout_symbol_count(memref_type):
            raise VerifyException(
                "symbol operand count does not equal memref symbol count"
            )


@irdl_op_definition
class DeallocOp(AsyncOpInterface, IRDLOperation):
    """``gpu.dealloc``: frees a memref allocated by ``gpu.alloc``.

    ``%t = gpu.dealloc async [%dep] %memref : memref<8x64xf32, 1>``
    """

    name = "gpu.dealloc"

    async_dependencies = async_dependencies_def()
    memref = operand_def(AnyMemRef)
    async_token = async_token_def()

    traits = traits_def(MemoryFreeEffect())

    assembly_format = (
        f"{ASYNC_PREFIX} $memref attr-dict `:` custom<MemRefKind>(type($memref))"
    )

    def __init__(
        self,
        memref: SSAValue | Operation,
        async_dependencies: Sequence[SSAValue | Operation] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[async_operands(async_dependencies), memref],
            result_types=[async_result_types(is_async)],
        )


@irdl_op_definition
class MemcpyOp(VerifiedOnEntrance, AsyncOpInterface, IRDLOperation):
    """``gpu.memcpy``: copies one memref into another.

    ``%t = gpu.memcpy async [%dep] %dst, %src : memref<?xf32, 1>, memref<?xf32>``
    """

    name = "gpu.memcpy"

    async_dependencies = async_dependencies_def()
    dst = operand_def(AnyMemRef)
    src = operand_def(AnyMemRef)
    async_token = async_token_def()

    traits = traits_def(
        MemoryReadEffect(), MemoryWriteEffect(), _MemcpyCanonicalization()
    )

    assembly_format = (
        f"{ASYNC_PREFIX} $dst `,` $src `:` custom<MemRefKind>(type($dst)) `,` "
        "custom<MemRefKind>(type($src)) attr-dict"
    )

    def __init__(
        self,
        dst: SSAValue | Operation,
        src: SSAValue | Operation,
        async_dependencies: Sequence[SSAValue | Operation] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[async_operands(async_dependencies), dst, src],
            result_types=[async_result_types(is_async)],
        )

    def verify_(self) -> None:
        src, dst = self.src.type, self.dst.type
        assert isinstance(src, MemRefType)
        assert isinstance(dst, MemRefType)
        if src.get_element_type() != dst.get_element_type():
            raise VerifyException("arguments have incompatible element type")
        src_shape, dst_shape = src.get_shape(), dst.get_shape()
        if len(src_shape) != len(dst_shape) or any(
            s != d and DYNAMIC_INDEX not in (s, d) for s, d in zip(src_shape, dst_shape)
        ):
            raise VerifyException("arguments have incompatible shape")


@irdl_op_definition
class MemsetOp(VerifiedOnEntrance, AsyncOpInterface, IRDLOperation):
    """``gpu.memset``: sets every element of a memref to a scalar.

    ``%t = gpu.memset async [%dep] %dst, %value : memref<?xf32, 1>, f32``
    """

    name = "gpu.memset"

    async_dependencies = async_dependencies_def()
    dst = operand_def(AnyMemRef)
    value = operand_def(AnyAttr())
    async_token = async_token_def()

    traits = traits_def(MemoryWriteEffect(), _MemsetCanonicalization())

    assembly_format = (
        f"{ASYNC_PREFIX} $dst `,` $value `:` custom<MemRefKind>(type($dst)) `,` "
        "type($value) attr-dict"
    )

    def __init__(
        self,
        dst: SSAValue | Operation,
        value: SSAValue | Operation,
        async_dependencies: Sequence[SSAValue | Operation] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[async_operands(async_dependencies), dst, value],
            result_types=[async_result_types(is_async)],
        )

    def verify_(self) -> None:
        if _element_type_or_self(self.dst.type) != _element_type_or_self(
            self.value.type
        ):
            raise VerifyException(
                "failed to verify that all of {dst, value} have same element type"
            )


@irdl_op_definition
class WaitOp(AsyncOpInterface, IRDLOperation):
    """``gpu.wait``: with ``async``, a token ready once all its dependencies are
    (``%t = gpu.wait async [%a, %b]``); without, blocks the host until they are
    (``gpu.wait [%t]``).
    """

    name = "gpu.wait"

    async_dependencies = async_dependencies_def()
    async_token = async_token_def()

    traits = traits_def(_WaitCanonicalization())

    assembly_format = f"{ASYNC_PREFIX} attr-dict"

    def __init__(
        self, deps: Sequence[SSAValue | Operation] = (), is_async: bool = False
    ):
        super().__init__(
            operands=[async_operands(deps)], result_types=[async_result_types(is_async)]
        )


class _HostRegistrationOp(IRDLOperation):
    value = operand_def(AnyUnrankedMemRef)

    custom_directives = (UnrankedMemRefKind,)

    assembly_format = "$value attr-dict `:` custom<UnrankedMemRefKind>(type($value))"

    def __init__(self, value: SSAValue | Operation):
        super().__init__(operands=[value])


@irdl_op_definition
class HostRegisterOp(_HostRegistrationOp):
    """``gpu.host_register %u : memref<*xf32>``: maps a host buffer into the device
    address space. Host writes are visible to kernels launched afterwards; device
    writes are visible on the host after synchronising with the kernel.
    """

    name = "gpu.host_register"


@irdl_op_definition
class HostUnregisterOp(_HostRegistrationOp):
    """``gpu.host_unregister %u : memref<*xf32>``: undoes ``gpu.host_register``."""

    name = "gpu.host_unregister"


@irdl_op_definition
class SetDefaultDeviceOp(IRDLOperation):
    """``gpu.set_default_device %i``: selects the GPU (zero-based index) that the
    following gpu operations use; the setting may be thread-local.
    """

    name = "gpu.set_default_device"

    dev_index = operand_def(ODSI32)

    traits = traits_def(MemoryWriteEffect())

    assembly_format = "attr-dict $dev_index"

    def __init__(self, dev_index: SSAValue | Operation):
        super().__init__(operands=[dev_index])


# --------------------------------------------------------------------------------
# Canonicalization (upstream GPUDialect.cpp)
# --------------------------------------------------------------------------------


class EraseUnusedAlloc(RewritePattern):
    """An allocation nobody uses goes (upstream: trivially dead, its only effect
    being the allocation of its own result)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllocOp, rewriter: PatternRewriter, /):
        if all(not r.uses for r in op.results):
            rewriter.erase(op)


class FoldDimOfAlloc(RewritePattern):
    """``memref.dim %m, %c`` of a dynamic dimension of ``%m = gpu.alloc (%sizes)``
    is the matching size (upstream ``SimplifyDimOfAllocOp``, rooted here at the
    alloc as xDSL wants canonicalization patterns rooted at their op)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllocOp, rewriter: PatternRewriter, /):
        memref_type = op.memref.type
        assert isinstance(memref_type, MemRefType)
        shape = memref_type.get_shape()
        for use in tuple(op.memref.uses):
            dim = use.operation
            if not isinstance(dim, memref.DimOp) or dim.source is not op.memref:
                continue
            const = dim.index.owner
            if not isinstance(const, arith.ConstantOp) or not isinstance(
                const.value, IntegerAttr
            ):
                continue
            index = const.value.value.data
            if not 0 <= index < len(shape) or shape[index] != DYNAMIC_INDEX:
                continue
            position = sum(1 for d in shape[:index] if d == DYNAMIC_INDEX)
            rewriter.replace(dim, [], [op.dynamic_sizes[position]])


def _has_single_effect(op: Operation, kind: MemoryEffectKind) -> bool:
    """Whether ``op`` has effects, all of ``kind`` (upstream ``hasSingleEffect``).
    xDSL's ``only_has_effect`` is also true for an op without any effect, such as
    the ``unrealized_conversion_cast`` of a function argument."""
    effects = get_effects(op)
    return bool(effects) and all(e.kind == kind for e in effects)


class EraseTrivialCopy(RewritePattern):
    """A copy into an allocation that is only ever freed goes (upstream
    ``EraseTrivialCopyOp``); with one dependency and a token, the token becomes
    the dependency."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MemcpyOp, rewriter: PatternRewriter, /):
        dest = op.dst
        if not isinstance(dest.owner, Operation) or not _has_single_effect(
            dest.owner, MemoryEffectKind.ALLOC
        ):
            return
        if any(
            use.operation is not op
            and not _has_single_effect(use.operation, MemoryEffectKind.FREE)
            for use in dest.uses
        ):
            return
        deps = op.async_dependencies
        if len(deps) > 1 or bool(deps) != op.is_async:
            return
        rewriter.replace(op, [], list(deps))


class FoldMemRefCastOperands(RewritePattern):
    """An operand made by ``memref.cast`` of a ranked memref is the cast's source
    (upstream ``memref::foldMemRefCast``, the folder of ``gpu.memcpy`` and
    ``gpu.memset``)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        folded = False
        for i, operand in enumerate(op.operands):
            cast = operand.owner
            if isinstance(cast, memref.CastOp) and not isinstance(
                cast.source.type, UnrankedMemRefType
            ):
                op.operands[i] = cast.source
                folded = True
        if folded:
            rewriter.notify_op_modified(op)


class EraseRedundantWaitPairs(RewritePattern):
    """Drop dependencies on ``gpu.wait async`` ops that wait for nothing (upstream
    ``EraseRedundantGpuWaitOpPairs``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: WaitOp, rewriter: PatternRewriter, /):
        def trivial(value: SSAValue) -> bool:
            return isinstance(value.owner, WaitOp) and not value.owner.operands

        if any(trivial(d) for d in op.async_dependencies):
            op.set_async_dependencies(
                [d for d in op.async_dependencies if not trivial(d)]
            )
            rewriter.notify_op_modified(op)


class SimplifyWait(RewritePattern):
    """Erase ``gpu.wait`` without dependencies or token, and ``gpu.wait async``
    whose token is unused; forward ``gpu.wait async [%t]`` to ``%t`` (upstream
    ``SimplifyGpuWaitOp``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: WaitOp, rewriter: PatternRewriter, /):
        deps, token = op.async_dependencies, op.async_token
        if token is None:
            if not deps:
                rewriter.erase(op)
        elif len(deps) == 1:
            rewriter.replace(op, [], [deps[0]])
        elif not token.uses:
            rewriter.erase(op)


OPERATIONS = (
    AllocOp,
    DeallocOp,
    MemcpyOp,
    MemsetOp,
    WaitOp,
    HostRegisterOp,
    HostUnregisterOp,
    SetDefaultDeviceOp,
)
ATTRIBUTES = ()
