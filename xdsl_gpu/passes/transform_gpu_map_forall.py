"""What ``transform.gpu.map_forall_to_blocks`` and
``transform.gpu.map_nested_forall_to_threads`` do to their payload (MLIR 22:
``mlir/lib/Dialect/GPU/TransformOps/GPUTransformOps.cpp`` and ``Utils.cpp``).

An ``scf.forall`` with a GPU mapping becomes straight-line code: each induction
variable is replaced by an id of the ``gpu.launch`` it runs in, and the body is
inlined where the loop was.

* ``#gpu.block<x|y|z>`` / ``#gpu.thread<...>``: ``gpu.block_id`` / ``gpu.thread_id``
  of that dimension (3-D mapping).
* ``#gpu.warp<x>`` / ``#gpu.warpgroup<x>``: ``gpu.thread_id`` divided by the warp
  size (``warp_size``, 32) or 4 warp sizes along x; y and z as threads.
* ``<linear_dim_N>`` (blocks, threads, warps, warpgroups) and ``#gpu.lane<...>``: the
  linear id of the block or thread (``x + y * X + z * X * Y``; divided by the warp or
  warpgroup size, or modulo the warp size for lanes) delinearized over the loop's
  sizes, ``linear_dim_0`` fastest.

Where the loop needs fewer ids than the launch has (``grid_dims``, ``block_dims``),
the body runs under ``scf.if (id < size)``. ``map_nested_forall_to_threads`` follows
each loop with a ``gpu.barrier`` unless ``sync_after_distribute = false``, and both set
the launch's grid or block sizes. Thread (block) ids of a dimension of size 1 become
the constant 0, as upstream does. Errors are upstream's messages, at the transform op.

With ``#gpu.mask<bits>`` (linear mappings), only the physical ids whose bit is set
work, numbered in order (the logical id is the number of set bits below the physical
one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

from xdsl.dialects import affine, scf
from xdsl.dialects.arith import AndIOp, ConstantOp, ShLIOp, SubiOp
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, IntegerType
from xdsl.dialects.math import CtPopOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineConstantExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

from xdsl_gpu.diagnostics import at_op
from xdsl_gpu.gpu_dialect.arith import CmpiOp, IndexCastUIOp
from xdsl_gpu.gpu_dialect.gpu.attributes import (
    MAPPING_ID_VALUES,
    GPUBlockMappingAttr,
    GPULaneMappingAttr,
    GPUMappingMaskAttr,
    GPUThreadMappingAttr,
    GPUWarpgroupMappingAttr,
    GPUWarpMappingAttr,
    MappingId,
)
from xdsl_gpu.gpu_dialect.gpu.compute_ops import (
    BarrierOp,
    BlockDimOp,
    BlockIdOp,
    ThreadIdOp,
)
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import LaunchOp, TerminatorOp
from xdsl_gpu.gpu_dialect.scf_forall import (
    ForallOp,
    constant_index,
    is_device_mapping,
    is_device_mask,
)
from xdsl_gpu.gpu_dialect.transform_gpu_map import (
    MapForallToBlocksOp,
    MapNestedForallToThreadsOp,
)
from xdsl_gpu.passes.affine_simplification import (
    add,
    const,
    floordiv,
    mod,
    mul,
    rebuild,
    simplify,
)

NUM_WARPS_PER_GROUP = 4
"""Warps in a warpgroup (upstream's ``GpuWarpgroupIdBuilder::kNumWarpsPerGroup``)."""

MASK_BITS = 64
"""Physical ids a ``#gpu.mask`` covers (``getMaxNumPhysicalIds``)."""

MAX_TOTAL_BLOCKDIM = 1024
MAX_BLOCKDIM = (1024, 1024, 64)
MAX_TOTAL_GRIDDIM = 2147483647
MAX_GRIDDIM = (2147483647, 65535, 65535)


class MappingError(Exception):
    """A transform that cannot apply: ``message`` is upstream's; ``payload`` the op
    it was applied to, when upstream attaches a note about it."""

    def __init__(self, message: str, payload: Operation | None = None) -> None:
        super().__init__(message)
        self.payload = payload


# -- building ops ----------------------------------------------------------------------


class _Builder:
    """Inserts ops before ``anchor`` in ``block`` (at its end if there is none)."""

    def __init__(
        self,
        block: Block,
        anchor: Operation | None,
        unit_thread_dims: frozenset[str] = frozenset(),
    ) -> None:
        self.block = block
        self.anchor = anchor
        # Thread ids that map_nested_forall_to_threads replaces by 0 once done;
        # upstream's canonicalizer then folds them into the maps, here they fold
        # in when a map is built.
        self.unit_thread_dims = unit_thread_dims
        self.zeros: set[SSAValue] = set()

    @staticmethod
    def before(op: Operation) -> _Builder:
        assert op.parent_block() is not None
        return _Builder(op.parent_block(), op)  # type: ignore[arg-type]

    @staticmethod
    def after(op: Operation) -> _Builder:
        return _Builder(op.parent_block(), op.next_op)  # type: ignore[arg-type]

    @staticmethod
    def at_start(block: Block) -> _Builder:
        return _Builder(block, block.first_op)

    def insert(self, op: Operation) -> Operation:
        if self.anchor is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, self.anchor)
        return op

    def constant(self, value: int) -> SSAValue:
        return self.insert(ConstantOp(IntegerAttr(value, IndexType()))).results[0]

    def id_op(self, kind: type[BlockIdOp | ThreadIdOp], dim: str) -> SSAValue:
        value = self.insert(kind(dim)).results[0]
        if kind is ThreadIdOp and dim in self.unit_thread_dims:
            self.zeros.add(value)
        return value

    def apply(self, expr: AffineExpr, operands: Sequence[SSAValue]) -> SSAValue:
        """``affine.apply`` of ``expr`` (over symbols, one per operand) composed
        with the ``affine.apply`` and constants that define its operands and
        simplified (upstream's ``makeComposedAffineApply``): an operand or a
        constant when that is what it comes to."""
        leaves: list[SSAValue] = []
        composed = _compose(expr, list(operands), leaves, self.zeros)
        composed = simplify(composed, 0, len(leaves))
        used = sorted(
            {e.position for e in composed.dfs() if isinstance(e, AffineSymExpr)}
        )
        if isinstance(composed, AffineConstantExpr):
            return self.constant(composed.value)
        if isinstance(composed, AffineSymExpr):
            return leaves[composed.position]
        renumber = [
            AffineExpr.symbol(used.index(i)) if i in used else const(0)
            for i in range(len(leaves))
        ]
        composed = rebuild(composed, [], renumber)
        op = affine.ApplyOp(
            [leaves[i] for i in used],
            AffineMapAttr(AffineMap(0, len(used), (composed,))),
        )
        return self.insert(op).results[0]

    def cmp_ult(self, lhs: SSAValue, bound: int) -> SSAValue:
        return self.insert(CmpiOp(lhs, self.constant(bound), "ult")).results[0]


def _compose(
    expr: AffineExpr,
    operands: list[SSAValue],
    leaves: list[SSAValue],
    zeros: set[SSAValue],
) -> AffineExpr:
    """``expr`` with each symbol replaced by what defines its operand: a constant,
    the (composed) expression of an ``affine.apply``, or a symbol of ``leaves``."""
    replacements: list[AffineExpr] = []
    for value in operands:
        constant = 0 if value in zeros else constant_index(value)
        owner = value.owner
        if constant is not None:
            replacements.append(const(constant))
        elif isinstance(owner, affine.ApplyOp):
            amap = owner.map.data
            inner = [
                _compose(AffineExpr.symbol(0), [v], leaves, zeros)
                for v in owner.mapOperands
            ]
            replacements.append(
                rebuild(amap.results[0], inner[: amap.num_dims], inner[amap.num_dims :])
            )
        else:
            if value not in leaves:
                leaves.append(value)
            replacements.append(AffineExpr.symbol(leaves.index(value)))
    return rebuild(expr, [], replacements)


# -- id builders (upstream's GpuIdBuilder) ---------------------------------------------


@dataclass
class _Ids:
    """What an id builder makes: one id per mapping dimension, the conditions under
    which this block or thread has work, or upstream's error."""

    ids: list[SSAValue]
    predicates: list[SSAValue]
    error: str = ""


_OVERPROVISIONING = (
    "Trying to map to fewer GPU threads than loop iterations but overprovisioning is "
    "not yet supported. Try additional tiling before mapping or map to more threads."
)


def _predicates(
    b: _Builder,
    ids: Sequence[SSAValue],
    active: Sequence[int],
    available: Sequence[int],
) -> tuple[list[SSAValue], str]:
    """``id < active`` where a dimension has more ids than the loop uses."""
    predicates: list[SSAValue] = []
    for value, used, there in zip(ids, active, available, strict=True):
        if used > there:
            return [], _OVERPROVISIONING
        if used < there:
            predicates.append(b.cmp_ult(value, used))
    return predicates, ""


def _linear_id(
    b: _Builder, kind: type[BlockIdOp | ThreadIdOp], basis: Sequence[int]
) -> SSAValue:
    """``x + y * X + z * X * Y`` of the block or thread ids."""
    ids = [b.id_op(kind, d) for d in "xyz"]
    s0, s1, s2 = (AffineExpr.symbol(i) for i in range(3))
    return b.apply(
        add(add(s0, mul(s1, const(basis[0]))), mul(s2, const(basis[0] * basis[1]))),
        ids,
    )


def _delinearize(b: _Builder, linear: SSAValue, sizes: Sequence[int]) -> list[SSAValue]:
    """``linear`` as coordinates over ``sizes``, the first fastest."""
    strides = [prod(sizes[:i]) for i in range(len(sizes))]
    s0 = AffineExpr.symbol(0)
    exprs: list[AffineExpr] = []
    remaining: AffineExpr = s0
    for stride in reversed(strides):
        exprs.append(floordiv(remaining, const(stride)))
        remaining = mod(remaining, const(stride))
    return [b.apply(e, [linear]) for e in reversed(exprs)]


IdBuilder = Callable[[_Builder, Sequence[int], Sequence[int]], _Ids]
"""(builder, the loop's sizes per mapping id, the launch's sizes) -> ids."""


def _builder_3d(kind: type[BlockIdOp | ThreadIdOp], multiplicity: int) -> IdBuilder:
    def build(b: _Builder, sizes: Sequence[int], basis: Sequence[int]) -> _Ids:
        ids = [b.id_op(kind, d) for d in "xyz"]
        scaled = list(ids)
        if multiplicity != 1:
            scaled[0] = b.apply(
                floordiv(AffineExpr.symbol(0), const(multiplicity)), [ids[0]]
            )
        active = [sizes[0] * multiplicity, *sizes[1:]]
        predicates, error = _predicates(b, ids, active, basis)
        return _Ids(scaled, predicates, error)

    return build


def _builder_linear(
    kind: type[BlockIdOp | ThreadIdOp], multiplicity: int, mask: int | None = None
) -> IdBuilder:
    def build(b: _Builder, sizes: Sequence[int], basis: Sequence[int]) -> _Ids:
        if mask is not None and prod(basis) > MASK_BITS * multiplicity:
            return _Ids(
                [],
                [],
                "mask representation too short to capture all physical ids: "
                f"{MASK_BITS}",
            )
        linear = _linear_id(b, kind, basis)
        scaled = b.apply(floordiv(AffineExpr.symbol(0), const(multiplicity)), [linear])
        if mask is None:
            ids = _delinearize(b, scaled, sizes)
            predicates, error = _predicates(
                b, [linear], [prod(sizes) * multiplicity], [prod(basis)]
            )
            return _Ids(ids, predicates, error)
        # With a mask, the active physical ids are numbered in order: the logical
        # id is the number of active ids below this one (upstream's
        # GPUMappingMaskAttr).
        i64 = IntegerType(64)
        physical = b.insert(IndexCastUIOp(scaled, i64)).results[0]
        bits = b.insert(ConstantOp(IntegerAttr(mask, i64))).results[0]
        one = b.insert(ConstantOp(IntegerAttr(1, i64))).results[0]
        bit = b.insert(ShLIOp(one, physical)).results[0]
        below = b.insert(SubiOp(bit, one)).results[0]
        active_below = b.insert(AndIOp(below, bits)).results[0]
        logical_i64 = b.insert(CtPopOp(active_below)).results[0]
        logical = b.insert(IndexCastUIOp(logical_i64, IndexType())).results[0]
        ids = _delinearize(b, logical, sizes)
        bits = b.insert(ConstantOp(IntegerAttr(mask, i64))).results[0]
        one = b.insert(ConstantOp(IntegerAttr(1, i64))).results[0]
        bit = b.insert(ShLIOp(one, physical)).results[0]
        mine = b.insert(AndIOp(bit, bits)).results[0]
        zero = b.insert(ConstantOp(IntegerAttr(0, i64))).results[0]
        active = b.insert(CmpiOp(mine, zero, "ne")).results[0]
        return _Ids(ids, [active])

    return build


def _builder_lane(warp_size: int) -> IdBuilder:
    def build(b: _Builder, sizes: Sequence[int], basis: Sequence[int]) -> _Ids:
        linear = _linear_id(b, ThreadIdOp, basis)
        lane = b.apply(mod(AffineExpr.symbol(0), const(warp_size)), [linear])
        ids = _delinearize(b, lane, sizes)
        predicates, error = _predicates(b, [lane], [prod(sizes)], [prod(basis)])
        return _Ids(ids, predicates, error)

    return build


MappingAttr = (
    GPUBlockMappingAttr
    | GPUThreadMappingAttr
    | GPUWarpMappingAttr
    | GPUWarpgroupMappingAttr
    | GPULaneMappingAttr
)

_LINEAR_IDS = [m for m in MappingId if MAPPING_ID_VALUES[m] >= 3]
_3D_IDS = [MappingId.DimX, MappingId.DimY, MappingId.DimZ]


@dataclass
class _IdScheme:
    """An id builder and the mapping attributes it provides (upstream's
    ``GpuIdBuilder``)."""

    attributes: list[MappingAttr]
    build: IdBuilder


def _scheme(
    kind: type[MappingAttr], linear: bool, warp_size: int, mask: int | None = None
) -> _IdScheme:
    ids = _LINEAR_IDS if linear or kind is GPULaneMappingAttr else _3D_IDS
    attributes: list[MappingAttr] = [kind(m) for m in ids]
    if kind is GPULaneMappingAttr:
        return _IdScheme(attributes, _builder_lane(warp_size))
    id_kind = BlockIdOp if kind is GPUBlockMappingAttr else ThreadIdOp
    multiplicity = {
        GPUWarpgroupMappingAttr: NUM_WARPS_PER_GROUP * warp_size,
        GPUWarpMappingAttr: warp_size,
    }.get(kind, 1)
    if linear:
        return _IdScheme(attributes, _builder_linear(id_kind, multiplicity, mask))
    return _IdScheme(attributes, _builder_3d(id_kind, multiplicity))


# -- checks ----------------------------------------------------------------------------


def _mappings(forall: ForallOp) -> list[MappingAttr]:
    if forall.mapping is None:
        return []
    return [a for a in forall.mapping.data if is_device_mapping(a)]  # type: ignore[misc]


def _mask(forall: ForallOp) -> int | None:
    """The bits of the loop's ``#gpu.mask``, if it has one."""
    if forall.mapping is None:
        return None
    masks = [a for a in forall.mapping.data if isinstance(a, GPUMappingMaskAttr)]
    return masks[0].data if masks else None


def _uses_linear_mapping(forall: ForallOp) -> bool:
    mappings = _mappings(forall)
    return bool(mappings) and mappings[0].is_linear_mapping


def _static_sizes(forall: ForallOp) -> list[int] | None:
    sizes = [constant_index(v) for v in forall.mixed_upper_bound]
    return None if any(s is None for s in sizes) else sizes  # type: ignore[return-value]


def _check_mapping(forall: ForallOp, want_blocks: bool) -> None:
    """Upstream's ``verifyGpuMapping``."""
    if forall.mapping is None:
        raise MappingError("scf.forall op requires a mapping attribute")
    attrs = list(forall.mapping.data)
    kinds = {type(a) for a in attrs if is_device_mapping(a)}
    if len(kinds) > 1:
        raise MappingError("cannot mix different mapping types, use nesting")
    if want_blocks and GPUBlockMappingAttr not in kinds:
        raise MappingError("scf.forall op requires a mapping attribute of kind 'block'")
    if not want_blocks and not kinds & {
        GPULaneMappingAttr,
        GPUThreadMappingAttr,
        GPUWarpMappingAttr,
        GPUWarpgroupMappingAttr,
    }:
        raise MappingError(
            "scf.forall op requires a mapping attribute of kind 'thread' or 'warp'"
        )
    if len(set(attrs)) != len(attrs):
        raise MappingError(
            "duplicate attribute, cannot map different loops to the same mapping id"
        )
    linear = [m.is_linear_mapping for m in _mappings(forall)]
    if any(linear) and not all(linear):
        raise MappingError("cannot mix linear and non-linear mapping modes")
    if any(is_device_mask(a) for a in attrs):
        if not _uses_linear_mapping(forall):
            raise MappingError(
                "device masking is only available in linear mapping mode"
            )
        if kinds == {GPULaneMappingAttr}:
            raise MappingError(
                "a #gpu.mask on lanes is not supported (MLIR 22 has none): mask "
                "threads, warps or warpgroups"
            )
    if not forall.is_normalized():
        raise MappingError("unsupported non-normalized loops")
    if forall.res:
        raise MappingError("only bufferized scf.forall can be mapped")
    most = len(_LINEAR_IDS) if _uses_linear_mapping(forall) else 3
    if forall.rank > most:
        raise MappingError(
            f"scf.forall with rank > {most} does not lower for the specified "
            "mapping attribute type"
        )
    if _static_sizes(forall) is None:
        raise MappingError("requires statically sized, normalized forall op")


def check_gpu_limits(grid: Sequence[int | None], block: Sequence[int | None]) -> None:
    """Upstream's ``checkGpuLimits`` (CUDA's limits)."""
    g = [1 if v is None else v for v in grid]
    k = [1 if v is None else v for v in block]
    if (
        prod(k) > MAX_TOTAL_BLOCKDIM
        or prod(g) > MAX_TOTAL_GRIDDIM
        or any(v > m for v, m in zip(k, MAX_BLOCKDIM))
        or any(v > m for v, m in zip(g, MAX_GRIDDIM))
    ):
        raise MappingError(
            f"Trying to launch a GPU kernel with grid_dims = ({g[0]}, {g[1]}, {g[2]}) "
            f"block_dims = ({k[0]}, {k[1]}, {k[2]}). It is larger than the limits."
        )


# -- rewriting one loop ----------------------------------------------------------------


def _rewrite_forall(
    forall: ForallOp,
    available: Sequence[int],
    scheme: _IdScheme,
    b: _Builder,
) -> list[int]:
    """Replace ``forall`` by its body on the ids of ``scheme`` (ops made with ``b``),
    predicated when ``available`` (the launch's sizes) is given. Returns the loop's
    sizes per mapping id of the scheme (upstream's ``rewriteOneForallCommonImpl``)."""
    sizes = _static_sizes(forall)
    assert sizes is not None
    attrs: list[MappingAttr] = list(dict.fromkeys(_mappings(forall)))
    # Complete the mapping with size-1 ids: every 3-D one, linear ones up to the
    # highest the loop uses.
    highest = max(attrs, key=lambda a: a.mapping_id)
    for attr in scheme.attributes:
        if highest.is_linear_mapping and attr.mapping_id > highest.mapping_id:
            continue
        if attr not in attrs:
            attrs.append(attr)
            sizes.append(1)
    order = sorted(range(len(attrs)), key=lambda i: attrs[i].mapping_id)
    mapping_sizes = [sizes[i] for i in order]

    basis = list(available)
    predicated = bool(basis)
    if not predicated:
        basis = mapping_sizes + [1] * (3 - len(mapping_sizes))
    built = scheme.build(b, mapping_sizes, basis)
    if built.error:
        raise MappingError(built.error)

    predicate: SSAValue | None = None
    if predicated:
        for value in built.predicates:
            predicate = (
                value
                if predicate is None
                else b.insert(AndIOp(predicate, value)).results[0]
            )

    body = forall.body.block
    if (terminator := forall.terminator) is not None:
        body.erase_op(terminator)
    if predicate is not None:
        then = Block([scf.YieldOp()])
        b.insert(scf.IfOp(predicate, [], Region(then)))
        target = _Builder(then, then.last_op)
    else:
        target = b
    for op in list(body.ops):
        op.detach()
        target.insert(op)
    for iv, attr in zip(forall.induction_vars, attrs[: forall.rank]):
        value = built.ids[attr.relative_index]
        name = value.name_hint  # an id keeps its name, not the loop's (%i)
        iv.replace_all_uses_with(value)
        value.name_hint = name
    forall.detach()
    forall.erase()
    return mapping_sizes


def _replace_unit_ids(
    root: Operation | Block,
    kind: type[BlockDimOp | ThreadIdOp],
    zero: SSAValue,
    sizes: Sequence[int],
) -> None:
    """Uses of ``kind`` ids along a dimension of size 1 become ``zero``."""
    index = {"x": 0, "y": 1, "z": 2}
    name = zero.name_hint
    for op in list(root.walk()):
        if isinstance(op, kind):
            dim = index[op.dimension.data]
            if dim < len(sizes) and sizes[dim] == 1:
                op.results[0].replace_all_uses_with(zero)
    # The zero keeps its own name, not the replaced id's (%thread_id_z).
    zero.name_hint = name


# -- gpu.launch ------------------------------------------------------------------------


def create_launch(b: _Builder) -> LaunchOp:
    """An empty ``gpu.launch`` of one block of one thread (``createGpuLaunch``)."""
    check_gpu_limits((None,) * 3, (None,) * 3)
    one = b.constant(1)
    launch = LaunchOp([one] * 3, [one] * 3)
    launch.body.block.add_op(TerminatorOp())
    b.insert(launch)
    return launch


def alter_launch(
    launch: LaunchOp,
    grid: Sequence[int | None] = (None,) * 3,
    block: Sequence[int | None] = (None,) * 3,
) -> None:
    """Set the given grid and block sizes of ``launch`` to new constants
    (``alterGpuLaunch``), made where its block size x is defined."""
    check_gpu_limits(grid, block)
    anchor = launch.block_size_x
    owner = anchor.owner
    if isinstance(owner, Operation):
        b = _Builder.after(owner)
    else:
        b = _Builder.at_start(owner)
    first = len(launch.async_dependencies)
    for i, value in enumerate([*grid, *block]):
        if value is not None:
            launch.operands[first + i] = b.constant(value)


# -- the transform ops -----------------------------------------------------------------


def _top_level_forall(target: Operation) -> ForallOp:
    found = [
        op
        for op in target.walk(region_first=True)
        if isinstance(op, ForallOp) and not _inside_forall(op)
    ]
    if len(found) != 1:
        raise MappingError("could not find a unique topLevel scf.forall", target)
    return found[0]


def _inside_forall(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, ForallOp):
            return True
        parent = parent.parent_op()
    return False


def map_forall_to_blocks(op: MapForallToBlocksOp, target: Operation) -> LaunchOp:
    """``transform.gpu.map_forall_to_blocks`` on one payload op; returns the
    ``gpu.launch`` the handle's result maps to."""
    generate = op.generate_gpu_launch is not None
    if not generate and not isinstance(target, LaunchOp):
        raise MappingError(
            "Given target is not gpu.launch, set `generate_gpu_launch` attribute",
            target,
        )
    forall = _top_level_forall(target)
    grid = op.grid_dims_values
    if not generate and len(grid) != 3:
        raise MappingError("transform require size-3 mapping")
    if generate:
        launch = create_launch(_Builder.before(forall))
        forall.detach()
        launch.body.block.insert_op_before(forall, launch.body.block.first_op)  # type: ignore[arg-type]
    else:
        assert isinstance(target, LaunchOp)
        launch = target

    _check_mapping(forall, want_blocks=True)
    parent = forall.parent_block()
    assert parent is not None
    zero = _Builder.at_start(parent).constant(0)
    scheme = _scheme(
        GPUBlockMappingAttr, _uses_linear_mapping(forall), 1, _mask(forall)
    )
    sizes = _rewrite_forall(forall, grid, scheme, _Builder.before(forall))
    if not grid:
        grid = sizes + [1] * (3 - len(sizes))
    # Upstream replaces gpu.block_dim (not gpu.block_id) ops here: kept as is.
    _replace_unit_ids(parent, BlockDimOp, zero, sizes)
    alter_launch(launch, grid=grid)
    return launch


def _thread_scheme(
    forall: ForallOp, block_dims: Sequence[int], warp_size: int
) -> _IdScheme:
    """Upstream's ``getThreadIdBuilder`` with its checks."""
    first = _mappings(forall)[0]
    linear = first.is_linear_mapping
    sizes = _static_sizes(forall)
    if not forall.is_normalized() or sizes is None:
        raise MappingError("requires statically sized, normalized forall op")
    factor = 1
    if isinstance(first, GPUWarpgroupMappingAttr):
        factor = NUM_WARPS_PER_GROUP * warp_size
    elif isinstance(first, GPUWarpMappingAttr):
        factor = warp_size
    if not linear and block_dims[0] % factor:
        raise MappingError(
            f"3-D mapping: size of threadIdx.x must be a multiple of {factor}"
        )
    if prod(sizes) * factor > prod(block_dims):
        raise MappingError(
            "the number of required parallel resources (blocks or threads) "
            f"{prod(sizes) * factor} overflows the number of available resources "
            f"{prod(block_dims)}"
        )
    return _scheme(type(first), linear, warp_size, _mask(forall))


def map_nested_forall_to_threads(
    op: MapNestedForallToThreadsOp, target: Operation
) -> LaunchOp:
    """``transform.gpu.map_nested_forall_to_threads`` on one payload op."""
    if not isinstance(target, LaunchOp):
        raise MappingError("Given target is not a gpu.launch")
    block_dims = op.block_dims_values
    if len(block_dims) != 3:
        raise MappingError("requires size-3 thread mapping")
    try:
        check_gpu_limits((None,) * 3, block_dims)
    except MappingError as e:
        raise MappingError(f'{e} ("block_dims" is too large)') from None
    alter_launch(target, block=block_dims)
    zero = _Builder.at_start(target.body.block).constant(0)
    unit_dims = frozenset(d for d, size in zip("xyz", block_dims) if size == 1)
    for forall in [
        o for o in target.walk(region_first=True) if isinstance(o, ForallOp)
    ]:
        if forall.parent_op() is None:
            continue  # erased with a loop mapped before it
        _check_mapping(forall, want_blocks=False)
        scheme = _thread_scheme(forall, block_dims, op.warp_size_value)
        after = _Builder.after(forall)
        after.unit_thread_dims = unit_dims
        _rewrite_forall(forall, block_dims, scheme, after)
        if op.sync:
            after.insert(BarrierOp())
    _replace_unit_ids(target, ThreadIdOp, zero, block_dims)
    return target


# -- the interpreter's functions -------------------------------------------------------


@register_impls
class GPUMappingFunctions(InterpreterFunctions):
    """``transform-interpreter``'s implementations of the two ops: each payload op
    of the handle in turn; the result handle holds the ``gpu.launch`` ops."""

    @staticmethod
    def _each(
        op: Operation,
        handle: object,
        apply: Callable[[Operation], LaunchOp],
    ) -> PythonValues:
        from xdsl_gpu.passes.transform_interpreter import TransformError

        assert isinstance(handle, OperationHandle)
        launches: list[Operation] = []
        for payload in handle.ops:
            try:
                launches.append(apply(payload))
            except MappingError as e:
                error = at_op(TransformError(str(e)), op)
                if e.payload is not None:
                    error.add_note(f"when applied to this payload op: {e.payload.name}")
                raise error from None
        return (OperationHandle(*launches),)

    @impl(MapForallToBlocksOp)
    def run_map_forall_to_blocks(
        self, interpreter: Interpreter, op: MapForallToBlocksOp, args: PythonValues
    ) -> PythonValues:
        return self._each(op, args[0], lambda p: map_forall_to_blocks(op, p))

    @impl(MapNestedForallToThreadsOp)
    def run_map_nested_forall_to_threads(
        self,
        interpreter: Interpreter,
        op: MapNestedForallToThreadsOp,
        args: PythonValues,
    ) -> PythonValues:
        return self._each(op, args[0], lambda p: map_nested_forall_to_threads(op, p))


__all__ = [
    "GPUMappingFunctions",
    "MappingError",
    "map_forall_to_blocks",
    "map_nested_forall_to_threads",
]
