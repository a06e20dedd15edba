"""What each op tells of the integer ranges of its results (MLIR's
``InferIntRangeInterface`` implementations of the arith, gpu, nvvm and test ops).

:func:`infer_results` returns None for an op that has no such facts (the analysis
then knows nothing of its results: the whole range of their type), or the ranges it
sets, keyed by result (possibly none of them, as when an operand is still unknown).
:func:`infer_launch_arguments` gives ``gpu.launch``'s body arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    TensorType,
    VectorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.traits import ConstantLike

from xdsl_gpu.gpu_dialect.gpu import compute_ops as gpu
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import FuncOp as GPUFuncOp
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import LaunchOp
from xdsl_gpu.gpu_dialect.index import IndexCmpPredicateAttr
from xdsl_gpu.gpu_dialect.int_range_test_ops import ReflectBoundsOp, WithBoundsOp
from xdsl_gpu.gpu_dialect.nvvm.special_registers import RangeableSpecialRegisterOp
from xdsl_gpu.passes.int_range import inference as inf
from xdsl_gpu.passes.int_range.ranges import (
    INDEX_WIDTH,
    smax_of,
    storage_width,
    to_unsigned,
    umax_of,
)
from xdsl_gpu.passes.int_range.ranges import ConstantIntRanges as R

Ranges = dict[SSAValue, R]
Args = Sequence[R | None]

# Integer arithmetic -------------------------------------------------------------------


def _flags(op: Operation) -> tuple[bool, bool]:
    """(nsw, nuw) of an arith op's ``overflowFlags``."""
    attr = op.properties.get("overflowFlags")
    names = {str(getattr(f, "value", f)) for f in getattr(attr, "data", ())}
    return "nsw" in names, "nuw" in names


def _with_flags(f: Callable[..., R]) -> Callable[[Operation, R, R], R]:
    def infer(op: Operation, lhs: R, rhs: R) -> R:
        nsw, nuw = _flags(op)
        return f(lhs, rhs, nsw=nsw, nuw=nuw)

    return infer


def _plain(f: Callable[[R, R], R]) -> Callable[[Operation, R, R], R]:
    return lambda op, lhs, rhs: f(lhs, rhs)


def _cmpi(op: Operation, lhs: R, rhs: R) -> R:
    predicate = op.properties["predicate"]
    assert isinstance(predicate, IntegerAttr)
    return inf.infer_cmp(inf.PREDICATES[predicate.value.data], lhs, rhs)


_BINARY: dict[str, Callable[[Operation, R, R], R]] = {
    "arith.addi": _with_flags(inf.infer_add),
    "arith.subi": _with_flags(inf.infer_sub),
    "arith.muli": _with_flags(inf.infer_mul),
    "arith.shli": _with_flags(inf.infer_shl),
    "arith.divui": _plain(inf.infer_divu),
    "arith.divsi": _plain(inf.infer_divs),
    "arith.ceildivui": _plain(inf.infer_ceildivu),
    "arith.ceildivsi": _plain(inf.infer_ceildivs),
    "arith.floordivsi": _plain(inf.infer_floordivs),
    "arith.remui": _plain(inf.infer_remu),
    "arith.remsi": _plain(inf.infer_rems),
    "arith.andi": _plain(inf.infer_and),
    "arith.ori": _plain(inf.infer_or),
    "arith.xori": _plain(inf.infer_xor),
    "arith.maxsi": _plain(inf.infer_maxs),
    "arith.maxui": _plain(inf.infer_maxu),
    "arith.minsi": _plain(inf.infer_mins),
    "arith.minui": _plain(inf.infer_minu),
    "arith.shrsi": _plain(inf.infer_shrs),
    "arith.shrui": _plain(inf.infer_shru),
    "arith.cmpi": _cmpi,
}


def _cast(op: Operation, arg: R) -> R | None:
    src = storage_width(op.operands[0].type)
    dest = storage_width(op.results[0].type)
    if dest == 0:
        return None
    match op.name:
        case "arith.extui":
            return inf.ext_ui(arg, dest)
        case "arith.extsi":
            return inf.ext_si(arg, dest)
        case "arith.trunci":
            return inf.trunc_range(arg, dest)
        case _:  # index_cast / index_castui
            if src < dest:
                ext = inf.ext_si if op.name == "arith.index_cast" else inf.ext_ui
                return ext(arg, dest)
            if src > dest:
                return inf.trunc_range(arg, dest)
            return arg


_CASTS = frozenset(
    {
        "arith.extui",
        "arith.extsi",
        "arith.trunci",
        "arith.index_cast",
        "arith.index_castui",
    }
)


def constant_int(value: SSAValue) -> int | None:
    """The value of an integer constant op's result (as its unsigned bit pattern)."""
    op = value.owner
    if not isinstance(op, Operation) or not op.has_trait(ConstantLike):
        return None
    attr = op.properties.get("value", op.attributes.get("value"))
    width = storage_width(value.type)
    if not isinstance(attr, IntegerAttr) or width == 0:
        return None
    return to_unsigned(attr.value.data, width)


def _constant_ranges(op: Operation, result: SSAValue) -> R | None:
    """An integer constant, or the union of a dense vector's elements."""
    width = storage_width(result.type)
    if (value := constant_int(result)) is not None:
        return R.constant(value, width)
    attr = op.properties.get("value", op.attributes.get("value"))
    if width == 0 or not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    values = [v for v in attr.get_values() if isinstance(v, int)]
    if not values:
        return None
    ranges = R.constant(values[0], width)
    for v in values[1:]:
        ranges = ranges.union(R.constant(v, width))
    return ranges


def _shaped_dim(op: Operation, args: Args) -> Ranges:
    """``memref.dim``/``tensor.dim``: the sizes the index may pick, static ones as
    they are, dynamic ones in [0, index max] (``inferShapedDimOpInterface``)."""
    result = op.results[0]
    width = storage_width(result.type)
    anything = R.from_signed(0, smax_of(width), width)
    shaped = op.operands[0].type
    if not isinstance(shaped, MemRefType | TensorType):
        return {result: anything}
    shape = shaped.get_shape()
    low, high = 0, len(shape) - 1
    if (index := args[1]) is not None:
        low, high = max(low, index.smin), min(high, index.smax)
    ranges: R | None = None
    for size in shape[low : high + 1]:
        dim = anything if size < 0 else R.constant(size, width)
        ranges = dim if ranges is None else ranges.union(dim)
    return {result: ranges if ranges is not None else anything}


def _select(op: Operation, args: Args) -> R | None:
    cond, true_case, false_case = args
    value = cond.constant_value() if cond is not None else None
    if value is not None:
        return false_case if value == 0 else true_case
    if true_case is None or false_case is None:
        return R.max_range(storage_width(op.results[0].type))
    return true_case.union(false_case)


def _arith(op: Operation, args: Args) -> Ranges | None:
    result = op.results[0] if len(op.results) == 1 else None
    if op.name == "arith.constant":
        assert result is not None
        ranges = _constant_ranges(op, result)
        return {} if ranges is None else {result: ranges}
    if op.name == "arith.select":
        assert result is not None
        ranges = _select(op, args)
        return {} if ranges is None else {result: ranges}
    if op.name not in _BINARY and op.name not in _CASTS:
        return None
    assert result is not None
    if any(a is None for a in args):
        return {}
    known = [a for a in args if a is not None]
    if op.name in _CASTS:
        ranges = _cast(op, known[0])
        return {} if ranges is None else {result: ranges}
    return {result: _BINARY[op.name](op, known[0], known[1])}


# The index dialect -------------------------------------------------------------------
#
# An index op is inferred both on 64-bit values and on the inputs truncated to 32
# bits (index may be either); the 64-bit result stands where both agree in the
# compared sense, else the two are joined (``inferIndexOp``).

INDEX_MIN_WIDTH = 32

_INDEX_BINARY: dict[str, tuple[Callable[[R, R], R], str]] = {
    "index.add": (inf.infer_add, "both"),
    "index.sub": (inf.infer_sub, "both"),
    "index.mul": (inf.infer_mul, "both"),
    "index.shl": (inf.infer_shl, "both"),
    "index.divu": (inf.infer_divu, "unsigned"),
    "index.divs": (inf.infer_divs, "signed"),
    "index.ceildivu": (inf.infer_ceildivu, "unsigned"),
    "index.ceildivs": (inf.infer_ceildivs, "signed"),
    "index.floordivs": (inf.infer_floordivs, "signed"),
    "index.remu": (inf.infer_remu, "unsigned"),
    "index.rems": (inf.infer_rems, "signed"),
    "index.maxs": (inf.infer_maxs, "signed"),
    "index.maxu": (inf.infer_maxu, "unsigned"),
    "index.mins": (inf.infer_mins, "signed"),
    "index.minu": (inf.infer_minu, "unsigned"),
    "index.shrs": (inf.infer_shrs, "signed"),
    "index.shru": (inf.infer_shru, "unsigned"),
    "index.and": (inf.infer_and, "unsigned"),
    "index.or": (inf.infer_or, "unsigned"),
    "index.xor": (inf.infer_xor, "unsigned"),
}


def _index_op(f: Callable[[R, R], R], lhs: R, rhs: R, mode: str) -> R:
    wide = f(lhs, rhs)
    narrow = f(
        inf.trunc_range(lhs, INDEX_MIN_WIDTH), inf.trunc_range(rhs, INDEX_MIN_WIDTH)
    )
    wide_as_narrow = inf.trunc_range(wide, INDEX_MIN_WIDTH)
    if mode == "both":
        same = narrow == wide_as_narrow
    elif mode == "signed":
        same = (narrow.smin, narrow.smax) == (wide_as_narrow.smin, wide_as_narrow.smax)
    else:
        same = (narrow.umin, narrow.umax) == (wide_as_narrow.umin, wide_as_narrow.umax)
    if same:
        return wide
    return wide.union(inf.ext_range(narrow, INDEX_WIDTH))


def _index_cast(op: Operation, arg: R, signed: bool) -> R:
    src_type, dest_type = op.operands[0].type, op.results[0].type
    src, dest = storage_width(src_type), storage_width(dest_type)

    def like(width: int) -> R:
        if src < width:
            return inf.ext_si(arg, width) if signed else inf.ext_ui(arg, width)
        if src > width:
            return inf.trunc_range(arg, width)
        return arg

    if isinstance(src_type, IndexType):
        return like(dest)
    # To index: either width of index.
    return like(dest).union(inf.ext_range(like(INDEX_MIN_WIDTH), dest))


def _index_cmp(op: Operation, lhs: R, rhs: R) -> R:
    pred = op.properties["pred"]
    assert isinstance(pred, IndexCmpPredicateAttr)
    name = str(pred.data)
    wide = inf.evaluate_pred(name, lhs, rhs)
    narrow = inf.evaluate_pred(
        name,
        inf.trunc_range(lhs, INDEX_MIN_WIDTH),
        inf.trunc_range(rhs, INDEX_MIN_WIDTH),
    )
    truth = wide if wide == narrow else None
    return R.from_unsigned(1 if truth else 0, 0 if truth is False else 1, 1)


def _index(op: Operation, args: Args) -> Ranges | None:
    if op.name in ("index.constant", "index.bool.constant"):
        value = constant_int(op.results[0])
        width = storage_width(op.results[0].type)
        return {} if value is None else {op.results[0]: R.constant(value, width)}
    if op.name == "index.sizeof":
        width = storage_width(op.results[0].type)
        return {op.results[0]: R.from_unsigned(INDEX_MIN_WIDTH, INDEX_WIDTH, width)}
    known = [a for a in args if a is not None]
    if op.name in ("index.casts", "index.castu"):
        if not known:
            return {}
        return {op.results[0]: _index_cast(op, known[0], op.name == "index.casts")}
    if op.name == "index.cmp":
        return {} if len(known) < 2 else {op.results[0]: _index_cmp(op, *known)}
    if op.name in _INDEX_BINARY:
        if len(known) < 2:
            return {}
        f, mode = _INDEX_BINARY[op.name]
        return {op.results[0]: _index_op(f, known[0], known[1], mode)}
    return None


# Vector ops ----------------------------------------------------------------------------

_VECTOR_FORWARDING = frozenset(
    {"vector.broadcast", "vector.transpose", "vector.shape_cast", "vector.extract"}
)
"""Vector ops whose result holds elements of their first operand only."""


def _vector(op: Operation, args: Args) -> Ranges | None:
    """The vector ops MLIR 22 infers ranges for (one range for all elements)."""
    result = op.results[0] if op.results else None
    if result is None:
        return None
    if op.name == "vector.step":
        size = 1
        if isinstance(result.type, VectorType):
            size = result.type.get_shape()[0]
        width = storage_width(result.type)
        return {result: R.from_unsigned(0, size - 1, width)}
    if op.name not in _VECTOR_FORWARDING and op.name != "vector.insert":
        return None
    if any(a is None for a in args):
        return {}
    known = [a for a in args if a is not None]
    if op.name == "vector.insert":
        return {result: known[0].union(known[1])}
    return {result: known[0]}


# GPU ids and dimensions --------------------------------------------------------------

MAX_DIM = (1 << 32) - 1
"""The grid and block sizes of every known GPU are below 2^32."""
MAX_CLUSTER_DIM = 8
"""MLIR 22's bound on a cluster dimension (later MLIR raised it to 16)."""
MAX_SUBGROUP_SIZE = 128

_FUNCTION_OPS = frozenset({"func.func", "gpu.func", "llvm.func"})
_KINDS = ("block", "grid", "cluster")
"""What a dimension counts: threads per block, blocks per grid, blocks per cluster."""


def _index_range(umin: int, umax: int) -> R:
    return R.from_unsigned(
        to_unsigned(umin, INDEX_WIDTH), to_unsigned(umax, INDEX_WIDTH), INDEX_WIDTH
    )


def _ancestor(op: Operation, match: Callable[[Operation], bool]) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not match(parent):
        parent = parent.parent_op()
    return parent


def _dim_hint(op: Operation, name: str, dim: int, prop: bool) -> int | None:
    attr = op.properties.get(name) if prop else None
    attr = attr or op.attributes.get(name)
    if not isinstance(attr, DenseArrayBase):
        return None
    values = attr.get_values()
    if len(values) <= dim:
        return None
    return int(values[dim]) & 0xFFFFFFFF


def known_dimension_size(op: Operation, kind: str, dim: int) -> int | None:
    """The size of ``kind`` along ``dim`` around ``op`` when known: a constant
    operand of the enclosing ``gpu.launch``, else the enclosing ``gpu.func``'s
    ``known_<kind>_size``, else the enclosing function's ``gpu.known_<kind>_size``
    (``getKnownDimensionSizeAround``)."""
    if (launch := _ancestor(op, lambda p: isinstance(p, LaunchOp))) is not None:
        assert isinstance(launch, LaunchOp)
        sizes = {
            "block": launch.block_size_operands,
            "grid": launch.grid_size_operands,
            "cluster": launch.cluster_size_operands,
        }[kind]
        if sizes is not None and (value := constant_int(sizes[dim])) is not None:
            return value & 0xFFFFFFFF
    if (func := _ancestor(op, lambda p: isinstance(p, GPUFuncOp))) is not None:
        if (known := _dim_hint(func, f"known_{kind}_size", dim, True)) is not None:
            return known
    if (func := _ancestor(op, lambda p: p.name in _FUNCTION_OPS)) is not None:
        if (known := _dim_hint(func, f"gpu.known_{kind}_size", dim, False)) is not None:
            return known
    return None


def _upper_bound(op: Operation) -> int | None:
    attr = op.properties.get("upper_bound")
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def _dimension(op: Operation) -> int:
    dim = op.properties["dimension"]
    assert isinstance(dim, gpu.DimensionAttr)
    return "xyz".index(dim.data)


def _gpu_index(op: Operation) -> R | None:
    """The range of a gpu id, size or subgroup query (``*::inferResultRanges``)."""
    bound = _upper_bound(op)

    def size(kind: str, default_max: int) -> R:
        """A size: the known one, else ``[1, upper_bound or default_max]``."""
        if (known := known_dimension_size(op, kind, _dimension(op))) is not None:
            return _index_range(known, known)
        return _index_range(1, bound if bound is not None else default_max)

    def index(kind: str | None, default_max: int) -> R:
        """An id below the size: ``[0, max - 1]``, where the upper bound beats the
        known size, which beats ``default_max``."""
        top = default_max
        if kind is not None:
            known = known_dimension_size(op, kind, _dimension(op))
            top = known if known is not None else top
        top = bound if bound is not None else top
        return _index_range(0, top - 1)

    match op:
        case gpu.ClusterDimOp() | gpu.NumSubgroupsOp():
            return _index_range(1, bound if bound is not None else MAX_DIM)
        case gpu.ClusterDimBlocksOp():
            return size("cluster", MAX_CLUSTER_DIM)
        case gpu.BlockDimOp():
            return size("block", MAX_DIM)
        case gpu.GridDimOp():
            return size("grid", MAX_DIM)
        case gpu.ClusterIdOp() | gpu.SubgroupIdOp():
            return index(None, MAX_DIM)
        case gpu.ClusterBlockIdOp():
            return index("cluster", MAX_CLUSTER_DIM)
        case gpu.BlockIdOp():
            return index("grid", MAX_DIM)
        case gpu.ThreadIdOp():
            return index("block", MAX_DIM)
        case gpu.LaneIdOp():
            return index(None, MAX_SUBGROUP_SIZE)
        case gpu.SubgroupSizeOp():
            return _index_range(1, bound if bound is not None else MAX_SUBGROUP_SIZE)
        case gpu.GlobalIdOp():
            if bound is not None:
                return _index_range(0, bound - 1)
            dim = _dimension(op)
            block = known_dimension_size(op, "block", dim)
            grid = known_dimension_size(op, "grid", dim)
            block = MAX_DIM if block is None else block
            grid = MAX_DIM if grid is None else grid
            return _index_range(0, block * grid - 1)
        case _:
            return None


def infer_launch_arguments(launch: LaunchOp, args: Args) -> Ranges:
    """``gpu.launch``'s grid and block sizes (body arguments 6-11) and the ids below
    them (0-5), from the ranges of its size operands."""
    sizes = [*launch.grid_size_operands, *launch.block_size_operands]
    by_value = dict(zip(launch.operands, args))
    if any(by_value.get(s) is None for s in launch.operands):
        return {}
    ids = [*launch.block_ids, *launch.thread_ids]
    dims = [*launch.grid_size, *launch.block_size]
    ranges: Ranges = {}
    for size, id, dim in zip(sizes, ids, dims):
        arg = by_value[size]
        if arg is None or arg.width != INDEX_WIDTH:
            continue
        dim_range = arg.intersection(_index_range(1, MAX_DIM))
        ranges[dim] = dim_range
        ranges[id] = _index_range(0, dim_range.umax - 1)
    return ranges


# The entry point ---------------------------------------------------------------------


def infer_results(op: Operation, args: Args) -> Ranges | None:
    """The ranges ``op`` gives its results from its operands' ``args`` (None for an
    operand not known yet); None if ``op`` states nothing about its results."""
    if op.name.startswith("arith."):
        return _arith(op, args)
    if op.name.startswith("index."):
        return _index(op, args)
    if op.name.startswith("vector."):
        return _vector(op, args)
    if op.name in ("memref.dim", "tensor.dim"):
        return _shaped_dim(op, args)
    if isinstance(op, RangeableSpecialRegisterOp):
        # With a `range`, [lower, upper] taken as they are for all four bounds;
        # without one, MLIR 22 states nothing (the result stays unknown).
        if op.range is None:
            return {}
        width = op.range.width
        low, up = op.range.lower, op.range.upper
        return {op.results[0]: R.from_bounds(low, up, low, up, width)}
    if isinstance(op, WithBoundsOp):
        width = storage_width(op.fakeVal.type)
        if (bounds := op.bounds()) is None or width == 0:
            return {op.fakeVal: R.max_range(width)} if width else {}
        return {op.fakeVal: R.from_bounds(*bounds, width)}
    if op.name == "test.increment":
        # Each bound plus one, saturating (upstream's TestIncrementOp).
        if args[0] is None:
            return {}
        r = args[0]
        w = r.width
        bumped = R(
            w,
            min(r.umin + 1, umax_of(w)),
            min(r.umax + 1, umax_of(w)),
            min(r.smin + 1, smax_of(w)),
            min(r.smax + 1, smax_of(w)),
        )
        return {op.results[0]: bumped}
    if isinstance(op, ReflectBoundsOp):
        if args[0] is None:
            return {}
        r = args[0]
        op.reflect(r.umin, r.umax, r.smin, r.smax, r.width)
        return {op.result: args[0]}
    if op.name.startswith("gpu.") and len(op.results) == 1:
        ranges = _gpu_index(op)
        return None if ranges is None else {op.results[0]: ranges}
    return None
