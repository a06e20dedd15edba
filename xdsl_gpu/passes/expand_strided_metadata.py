"""``expand-strided-metadata``: memref views as a base buffer plus explicit index math.

Port of upstream MLIR's ``expand-strided-metadata``
(``mlir/lib/Dialect/MemRef/Transforms/ExpandStridedMetadata.cpp``; no options).
Operations that only change a memref's metadata (offset, sizes, strides) become

    %base, %offset, %sizes:R, %strides:R = memref.extract_strided_metadata %source
    ... affine.apply for the new offset, sizes and strides ...
    %view = memref.reinterpret_cast %base to offset: [..], sizes: [..], strides: [..]

so that ``finalize-memref-to-llvm`` only has to build descriptors. Rewritten:

* ``memref.subview`` (rank-reducing ones included), ``memref.expand_shape`` and
  ``memref.collapse_shape`` become ``reinterpret_cast`` of the source's base buffer;
* ``extract_strided_metadata`` of a subview, expand/collapse_shape, reinterpret_cast,
  memory_space_cast, assume_alignment, alloc/alloca, get_global or of another
  ``extract_strided_metadata``'s base is resolved to the values it denotes;
* ``extract_aligned_pointer_as_index`` of a subview or reinterpret_cast reads its
  source instead.

Like upstream this is a greedy rewrite: ``affine.apply`` ops are composed and folded
(constants fold away, a lone symbol becomes its operand), ``reinterpret_cast`` of a
``reinterpret_cast``/``cast`` reads the first source, and operations left without uses
and without side effects are erased. ``memref.transpose`` is left for
``finalize-memref-to-llvm``, as upstream leaves it. Run ``lower-affine`` afterwards.

Beyond upstream MLIR 22: an ``expand_shape`` with several dynamic sizes in one
reassociation group (mlir-opt 22 crashes on it) takes those sizes from its
``output_shape`` operands; a memref whose layout is not strided is reported instead of
being skipped silently.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.context import Context
from xdsl.dialects import affine, arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import memref as gpu_memref
from xdsl_gpu.passes.greedy_dispatch import DispatchingApplier, DispatchingWalker
from xdsl_gpu.passes.ir_walk import preorder
from xdsl_gpu.passes.llvm_type_converter import ConversionError, conversion_error
from xdsl_gpu.passes.memref_descriptor import strides_and_offset
from xdsl_gpu.passes.region_liveness import region_dce

OpFoldResult = int | SSAValue
"""A value known at compile time (``int``) or an SSA value of type ``index``."""


def op_error(op: Operation, message: str) -> ConversionError:
    """A one-line diagnostic naming ``op``, its function and the fix."""
    return conversion_error("expand-strided-metadata", op, message)


# --------------------------------------------------------------------------------------
# Folded index expressions (the job of upstream's makeComposedFoldedAffineApply)
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Div:
    """An atom ``num <kind> den`` that does not simplify (floordiv, ceildiv, mod)."""

    kind: AffineBinaryOpKind
    num: _Poly
    den: _Poly


_Atom = SSAValue | _Div
_Monomial = tuple[_Atom, ...]


@dataclass(frozen=True)
class _Poly:
    """A polynomial with integer coefficients over atoms (SSA values and divisions).

    Semi-affine on purpose: products of two values (``stride * offset``) are common
    here, and xDSL's ``AffineExpr`` refuses to build them with ``*``.
    """

    terms: tuple[tuple[_Monomial, int], ...] = ()

    @staticmethod
    def const(value: int) -> _Poly:
        return _Poly((((), value),)) if value else _Poly()

    @staticmethod
    def atom(atom: _Atom) -> _Poly:
        return _Poly((((atom,), 1),))

    def as_const(self) -> int | None:
        if not self.terms:
            return 0
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    def __add__(self, other: _Poly) -> _Poly:
        merged: dict[_Monomial, int] = dict(self.terms)
        for mono, coeff in other.terms:
            merged[mono] = merged.get(mono, 0) + coeff
        return _Poly(tuple((m, c) for m, c in merged.items() if c))

    def __mul__(self, other: _Poly) -> _Poly:
        product = _Poly()
        for mono_a, coeff_a in self.terms:
            for mono_b, coeff_b in other.terms:
                product = product + _Poly((((*mono_a, *mono_b), coeff_a * coeff_b),))
        return _Poly(tuple((_sorted_monomial(m), c) for m, c in product.terms))

    def divide(self, kind: AffineBinaryOpKind, other: _Poly) -> _Poly:
        num, den = self.as_const(), other.as_const()
        if num is not None and den is not None and den != 0:
            match kind:
                case AffineBinaryOpKind.FloorDiv:
                    return _Poly.const(num // den)
                case AffineBinaryOpKind.CeilDiv:
                    return _Poly.const(-(-num // den))
                case _:
                    return _Poly.const(num % den)
        if den == 1:
            return self if kind != AffineBinaryOpKind.Mod else _Poly()
        if (
            den is not None
            and den > 0
            and kind != AffineBinaryOpKind.Mod
            and all(coeff % den == 0 for _, coeff in self.terms)
        ):
            return _Poly(tuple((m, c // den) for m, c in self.terms))
        return _Poly.atom(_Div(kind, self, other))


def _sorted_monomial(mono: _Monomial) -> _Monomial:
    # Keep the order of first appearance stable: sort SSA values before divisions,
    # each group in insertion order of the monomial (deterministic).
    values = [a for a in mono if isinstance(a, SSAValue)]
    divs = [a for a in mono if isinstance(a, _Div)]
    return (*values, *divs)


class _Folder:
    """Builds ``_Poly`` expressions over :data:`OpFoldResult` operands, composes the
    ``affine.apply`` and ``arith.constant`` ops that define them, and materializes the
    result: an ``int``, an existing SSA value, or one new ``affine.apply``."""

    def operand(self, value: OpFoldResult) -> _Poly:
        if isinstance(value, int):
            return _Poly.const(value)
        owner = value.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
            return _Poly.const(owner.value.value.data)
        if isinstance(owner, affine.ApplyOp):
            amap = owner.map.data
            operands = list(owner.mapOperands)
            return self._from_expr(
                amap.results[0],
                [self.operand(v) for v in operands[: amap.num_dims]],
                [self.operand(v) for v in operands[amap.num_dims :]],
            )
        return _Poly.atom(value)

    def _from_expr(
        self, expr: AffineExpr, dims: Sequence[_Poly], syms: Sequence[_Poly]
    ) -> _Poly:
        match expr:
            case AffineConstantExpr():
                return _Poly.const(expr.value)
            case AffineDimExpr():
                return dims[expr.position]
            case AffineSymExpr():
                return syms[expr.position]
            case AffineBinaryOpExpr():
                lhs = self._from_expr(expr.lhs, dims, syms)
                rhs = self._from_expr(expr.rhs, dims, syms)
                if expr.kind == AffineBinaryOpKind.Add:
                    return lhs + rhs
                if expr.kind == AffineBinaryOpKind.Mul:
                    return lhs * rhs
                return lhs.divide(expr.kind, rhs)
            case _:  # pragma: no cover - xDSL has no other expression kinds
                raise ValueError(f"unexpected affine expression {expr}")

    def materialize(self, rewriter: PatternRewriter, poly: _Poly) -> OpFoldResult:
        if (constant := poly.as_const()) is not None:
            return constant
        if len(poly.terms) == 1:
            ((mono, coeff),) = poly.terms
            if coeff == 1 and len(mono) == 1 and isinstance(mono[0], SSAValue):
                return mono[0]
        symbols: list[SSAValue] = []
        expr = self._to_expr(poly, symbols)
        apply = affine.ApplyOp(
            symbols, AffineMapAttr(AffineMap(0, len(symbols), (expr,)))
        )
        rewriter.insert(apply)
        return apply.result

    def _to_expr(self, poly: _Poly, symbols: list[SSAValue]) -> AffineExpr:
        def atom_expr(atom: _Atom) -> AffineExpr:
            if isinstance(atom, SSAValue):
                if atom not in symbols:
                    symbols.append(atom)
                return AffineSymExpr(symbols.index(atom))
            return AffineBinaryOpExpr(
                atom.kind,
                self._to_expr(atom.num, symbols),
                self._to_expr(atom.den, symbols),
            )

        result: AffineExpr | None = None
        constant = 0
        for mono, coeff in poly.terms:
            if not mono:
                constant += coeff
                continue
            term: AffineExpr | None = None
            for atom in mono:
                factor = atom_expr(atom)
                term = (
                    factor
                    if term is None
                    else AffineBinaryOpExpr(AffineBinaryOpKind.Mul, term, factor)
                )
            assert term is not None
            if coeff != 1:
                term = AffineBinaryOpExpr(
                    AffineBinaryOpKind.Mul, term, AffineConstantExpr(coeff)
                )
            result = (
                term
                if result is None
                else AffineBinaryOpExpr(AffineBinaryOpKind.Add, result, term)
            )
        if result is None:
            return AffineConstantExpr(constant)
        if constant:
            result = AffineBinaryOpExpr(
                AffineBinaryOpKind.Add, result, AffineConstantExpr(constant)
            )
        return result


def fold_index(
    rewriter: PatternRewriter,
    build: Callable[[Sequence[_Poly]], _Poly],
    operands: Sequence[OpFoldResult],
) -> OpFoldResult:
    """``build`` over ``operands``, folded and composed; at most one ``affine.apply``
    is inserted, at the rewriter's insertion point."""
    folder = _Folder()
    return folder.materialize(rewriter, build([folder.operand(v) for v in operands]))


def _floordiv(p: _Poly, divisor: int) -> _Poly:
    return p.divide(AffineBinaryOpKind.FloorDiv, _Poly.const(divisor))


def as_value(rewriter: PatternRewriter, value: OpFoldResult) -> SSAValue:
    """``value`` as an SSA value: an ``arith.constant`` for a known integer."""
    if isinstance(value, SSAValue):
        return value
    constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
    rewriter.insert(constant)
    return constant.result


# --------------------------------------------------------------------------------------
# Strided metadata of the view ops
# --------------------------------------------------------------------------------------


@dataclass
class StridedMetadata:
    base: SSAValue
    offset: OpFoldResult
    sizes: list[OpFoldResult] = field(default_factory=list[OpFoldResult])
    strides: list[OpFoldResult] = field(default_factory=list[OpFoldResult])


def _mixed(
    static: DenseArrayBase[IntegerType], dynamic: Sequence[SSAValue]
) -> list[OpFoldResult]:
    values: list[OpFoldResult] = []
    dynamic_iter = iter(dynamic)
    for value in static.get_values():
        values.append(next(dynamic_iter) if value == DYNAMIC_INDEX else int(value))
    return values


def _strided(op: Operation, value: SSAValue) -> tuple[list[int | None], int | None]:
    memref_type = value.type
    if not isinstance(memref_type, MemRefType):
        raise op_error(op, f"expects a ranked memref, got {memref_type}")
    try:
        return strides_and_offset(cast(MemRefType, memref_type))
    except ValueError:
        raise op_error(
            op,
            f"has an operand of type {memref_type} whose layout is not strided; "
            "expand-strided-metadata needs strided layouts (normalize the layout "
            "first, e.g. with normalize-memrefs)",
        ) from None


def _extract(
    rewriter: PatternRewriter, source: SSAValue
) -> memref.ExtractStridedMetaDataOp:
    esm = memref.ExtractStridedMetaDataOp(source)
    rewriter.insert(esm)
    return esm


def _or_value(static: int | None, value: SSAValue) -> OpFoldResult:
    return value if static is None else static


def _dropped_dims(subview: memref.SubviewOp) -> list[bool]:
    """Which source dimensions a rank-reducing subview drops (upstream's
    ``computeMemRefRankReductionMask``)."""
    source_type = cast(MemRefType, subview.source.type)
    result_type = cast(MemRefType, subview.result.type)
    sizes = _mixed(subview.static_sizes, subview.sizes)
    rank = source_type.get_num_dims()
    dropped = [False] * rank
    if rank == result_type.get_num_dims():
        return dropped
    for i, size in enumerate(sizes):
        if size == 1:
            dropped[i] = True
    if sum(dropped) + result_type.get_num_dims() == rank:
        return dropped
    # Ambiguous: several unit dimensions, fewer dropped. A dimension is dropped when
    # its stride is missing from the result; compare the non-reduced result strides
    # with the result's.
    src_strides, _ = strides_and_offset(source_type)
    sub_strides = _mixed(subview.static_strides, subview.strides)
    full_strides = [
        None if s is None or not isinstance(t, int) else s * t
        for s, t in zip(src_strides, sub_strides)
    ]
    result_strides, _ = strides_and_offset(result_type)
    unaccounted: dict[int | None, int] = {}
    for stride in full_strides:
        unaccounted[stride] = unaccounted.get(stride, 0) + 1
    wanted: dict[int | None, int] = {}
    for stride in result_strides:
        wanted[stride] = wanted.get(stride, 0) + 1
    for i in range(rank):
        if not dropped[i]:
            continue
        stride = full_strides[i]
        if unaccounted.get(stride, 0) > wanted.get(stride, 0):
            unaccounted[stride] -= 1
        else:
            dropped[i] = False
    if sum(dropped) + result_type.get_num_dims() != rank:
        raise op_error(
            subview,
            f"cannot tell which dimensions of {source_type} the result type "
            f"{result_type} drops",
        )
    return dropped


def resolve_subview(
    rewriter: PatternRewriter, subview: memref.SubviewOp
) -> StridedMetadata:
    """Metadata of ``subview(source)`` from ``extract_strided_metadata(source)``:
    ``stride#i = base_stride#i * sub_stride#i``,
    ``offset = base_offset + sum(sub_offset#i * base_stride#i)``."""
    source = subview.source
    src_strides, src_offset = _strided(subview, source)
    esm = _extract(rewriter, source)
    sub_offsets = _mixed(subview.static_offsets, subview.offsets)
    sub_sizes = _mixed(subview.static_sizes, subview.sizes)
    sub_strides = _mixed(subview.static_strides, subview.strides)

    strides: list[OpFoldResult] = []
    offset_operands: list[OpFoldResult] = [_or_value(src_offset, esm.offset)]
    for i, static_stride in enumerate(src_strides):
        orig_stride = _or_value(static_stride, esm.strides[i])
        strides.append(
            fold_index(rewriter, lambda v: v[0] * v[1], [sub_strides[i], orig_stride])
        )
        offset_operands += [sub_offsets[i], orig_stride]

    def offset_expr(v: Sequence[_Poly]) -> _Poly:
        total = v[0]
        for i in range(len(src_strides)):
            total = total + v[1 + 2 * i] * v[2 + 2 * i]
        return total

    offset = fold_index(rewriter, offset_expr, offset_operands)
    dropped = _dropped_dims(subview)
    return StridedMetadata(
        esm.base_buffer,
        offset,
        [s for s, d in zip(sub_sizes, dropped) if not d],
        [s for s, d in zip(strides, dropped) if not d],
    )


def _reassociation(
    op: memref.CollapseShapeOp | memref.ExpandShapeOp,
) -> list[list[int]]:
    return [
        [cast(IntegerAttr, i).value.data for i in group.data]
        for group in op.reassociation.data
    ]


def _expanded_group(
    rewriter: PatternRewriter,
    op: memref.ExpandShapeOp,
    group_id: int,
    group: list[int],
    orig_size: OpFoldResult,
    orig_stride: OpFoldResult,
) -> tuple[list[OpFoldResult], list[OpFoldResult]]:
    result_shape = cast(MemRefType, op.result.type).get_shape()
    dynamic = [i for i, dim in enumerate(group) if result_shape[dim] == DYNAMIC_INDEX]
    if len(dynamic) > 1:
        # mlir-opt 22 asserts (crashes) here; the output_shape operands give the sizes.
        output_shape = _mixed(op.static_output_shape, op.output_shape)
        sizes = [output_shape[dim] for dim in group]
        strides: list[OpFoldResult] = [orig_stride] * len(group)
        for i in range(len(group) - 2, -1, -1):
            strides[i] = fold_index(
                rewriter, lambda v: v[0] * v[1], [strides[i + 1], sizes[i + 1]]
            )
        return sizes, strides

    # Sizes: the static ones from the result type, the dynamic one as
    # orig_size floordiv product(static sizes).
    sizes: list[OpFoldResult] = [0] * len(group)
    product = 1
    for i, dim in enumerate(group):
        if result_shape[dim] != DYNAMIC_INDEX:
            product *= result_shape[dim]
            sizes[i] = result_shape[dim]
    if dynamic:
        sizes[dynamic[0]] = fold_index(
            rewriter, lambda v: _floordiv(v[0], product), [orig_size]
        )

    # Strides: suffix products of the static sizes, times the original stride; those
    # outside the dynamic size scale by orig_size floordiv product(static sizes).
    base_strides = [1] * len(group)
    current = 1
    for i in range(len(group) - 1, -1, -1):
        base_strides[i] = current
        if result_shape[group[i]] != DYNAMIC_INDEX:
            current *= result_shape[group[i]]
    strides = [0] * len(group)
    done = 0
    if dynamic:
        for done in range(dynamic[0]):
            base = base_strides[done]
            strides[done] = fold_index(
                rewriter,
                lambda v, b=base: _floordiv(v[0] * _Poly.const(b), current) * v[1],
                [orig_size, orig_stride],
            )
        done = dynamic[0]
    for i in range(done, len(group)):
        base = base_strides[i]
        strides[i] = fold_index(
            rewriter, lambda v, b=base: v[0] * _Poly.const(b), [orig_stride]
        )
    del group_id
    return sizes, strides


def _collapsed_group(
    rewriter: PatternRewriter,
    op: memref.CollapseShapeOp,
    group_id: int,
    group: list[int],
    orig_sizes: Sequence[OpFoldResult],
    orig_strides: Sequence[OpFoldResult],
) -> tuple[OpFoldResult, OpFoldResult]:
    source_type = cast(MemRefType, op.src.type)
    source_shape = source_type.get_shape()
    result_type = cast(MemRefType, op.result.type)
    size: OpFoldResult
    if result_type.get_shape()[group_id] != DYNAMIC_INDEX:
        size = result_type.get_shape()[group_id]
    else:

        def product(v: Sequence[_Poly]) -> _Poly:
            total = _Poly.const(1)
            for p in v:
                total = total * p
            return total

        size = fold_index(
            rewriter,
            product,
            [
                orig_sizes[d] if source_shape[d] == DYNAMIC_INDEX else source_shape[d]
                for d in group
            ],
        )

    # The stride of the innermost dimension that is not of size 1.
    src_strides, _ = strides_and_offset(source_type)
    stride: OpFoldResult | None = None
    for dim in group:
        if source_shape[dim] == 1:
            continue
        stride = _or_value(src_strides[dim], cast(SSAValue, orig_strides[dim]))
    if stride is None:
        # 1x1x...x1: the stride means nothing; satisfy the result type.
        result_strides, _ = strides_and_offset(result_type)
        final = result_strides[group_id]
        if final is not None:
            stride = final
        else:
            stride = next((orig_strides[d] for d in group if src_strides[d] is None), 1)
    return size, stride


def resolve_reshape(
    rewriter: PatternRewriter, op: memref.ExpandShapeOp | memref.CollapseShapeOp
) -> StridedMetadata:
    """Metadata of ``expand_shape``/``collapse_shape(source)``: base buffer and offset
    unchanged, sizes and strides per reassociation group."""
    source = op.src
    src_strides, src_offset = _strided(op, source)
    _strided(op, op.result)
    esm = _extract(rewriter, source)
    offset = _or_value(src_offset, esm.offset)
    result_rank = cast(MemRefType, op.result.type).get_num_dims()
    if not src_strides:  # rank 0
        return StridedMetadata(
            esm.base_buffer, offset, [1] * result_rank, [1] * result_rank
        )
    orig_sizes: list[OpFoldResult] = list(esm.sizes)
    orig_strides: list[OpFoldResult] = list(esm.strides)
    source_shape = cast(MemRefType, source.type).get_shape()
    metadata = StridedMetadata(esm.base_buffer, offset)
    for group_id, group in enumerate(_reassociation(op)):
        if isinstance(op, memref.ExpandShapeOp):
            orig_size = _or_value(
                None
                if source_shape[group_id] == DYNAMIC_INDEX
                else source_shape[group_id],
                esm.sizes[group_id],
            )
            orig_stride = _or_value(src_strides[group_id], esm.strides[group_id])
            sizes, strides = _expanded_group(
                rewriter, op, group_id, group, orig_size, orig_stride
            )
            metadata.sizes += sizes
            metadata.strides += strides
        else:
            size, stride = _collapsed_group(
                rewriter, op, group_id, group, orig_sizes, orig_strides
            )
            metadata.sizes.append(size)
            metadata.strides.append(stride)
    return metadata


def _replace_with_reinterpret_cast(
    rewriter: PatternRewriter,
    op: Operation,
    result_type: MemRefType,
    md: StridedMetadata,
) -> None:
    cast_op = memref.ReinterpretCastOp.from_dynamic(
        md.base, [md.offset], md.sizes, md.strides, result_type
    )
    rewriter.replace(op, cast_op)


def _replace_extract(
    rewriter: PatternRewriter, esm: memref.ExtractStridedMetaDataOp, md: StridedMetadata
) -> None:
    results: list[SSAValue | None] = [md.base, as_value(rewriter, md.offset)]
    results += [as_value(rewriter, s) for s in md.sizes]
    results += [as_value(rewriter, s) for s in md.strides]
    rewriter.replace(esm, [], results)


# --------------------------------------------------------------------------------------
# Patterns
# --------------------------------------------------------------------------------------


class SubviewFolder(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.SubviewOp, rewriter: PatternRewriter, /):
        md = resolve_subview(rewriter, op)
        _replace_with_reinterpret_cast(
            rewriter, op, cast(MemRefType, op.result.type), md
        )


class ReshapeFolder(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: memref.ExpandShapeOp | memref.CollapseShapeOp,
        rewriter: PatternRewriter,
        /,
    ):
        md = resolve_reshape(rewriter, op)
        _replace_with_reinterpret_cast(
            rewriter, op, cast(MemRefType, op.result.type), md
        )


class ExtractStridedMetadataOfViewFolder(RewritePattern):
    """``extract_strided_metadata`` of a subview, expand_shape or collapse_shape."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ExtractStridedMetaDataOp, rewriter: PatternRewriter, /
    ):
        source = op.source.owner
        if isinstance(source, memref.SubviewOp):
            _replace_extract(rewriter, op, resolve_subview(rewriter, source))
        elif isinstance(source, memref.ExpandShapeOp | memref.CollapseShapeOp):
            _replace_extract(rewriter, op, resolve_reshape(rewriter, source))


class ExtractStridedMetadataOfAllocFolder(RewritePattern):
    """``extract_strided_metadata(alloc/alloca/get_global)``: offset 0, sizes from the
    allocation, row-major strides; the base is the allocation viewed as rank 0."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ExtractStridedMetaDataOp, rewriter: PatternRewriter, /
    ):
        source = op.source.owner
        if not isinstance(
            source, memref.AllocOp | memref.AllocaOp | memref.GetGlobalOp
        ):
            return
        memref_type = cast(MemRefType, op.source.type)
        if not isinstance(memref_type.layout, NoneAttr):
            return  # upstream: alloc-like ops must have been normalized
        sizes: list[OpFoldResult] = []
        dynamic = iter(
            source.dynamic_sizes if not isinstance(source, memref.GetGlobalOp) else ()
        )
        for size in memref_type.get_shape():
            sizes.append(next(dynamic) if size == DYNAMIC_INDEX else size)
        rank = len(sizes)
        strides: list[OpFoldResult] = [1] * rank
        for i in range(rank - 2, -1, -1):
            count = rank - 1 - i

            def product(v: Sequence[_Poly]) -> _Poly:
                total = _Poly.const(1)
                for p in v:
                    total = total * p
                return total

            strides[i] = fold_index(rewriter, product, sizes[i + 1 : i + 1 + count])
        base: SSAValue | None = None
        if op.base_buffer.uses:
            base_type = op.base_buffer.type
            if memref_type == base_type:
                base = op.source
            else:
                view = memref.ReinterpretCastOp.from_dynamic(
                    op.source, [0], [], [], base_type
                )
                rewriter.insert(view)
                base = view.result
        results: list[SSAValue | None] = [base, as_value(rewriter, 0)]
        results += [as_value(rewriter, s) for s in sizes]
        results += [as_value(rewriter, s) for s in strides]
        rewriter.replace(op, [], results, safe_erase=False)


class ExtractStridedMetadataOfReinterpretCastFolder(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ExtractStridedMetaDataOp, rewriter: PatternRewriter, /
    ):
        source = op.source.owner
        if not isinstance(source, memref.ReinterpretCastOp):
            return
        if not isinstance(source.source.type, MemRefType):
            return  # unranked source: no extract_strided_metadata for it
        esm = _extract(rewriter, source.source)
        md = StridedMetadata(
            esm.base_buffer,
            _mixed(source.static_offsets, source.offsets)[0],
            _mixed(source.static_sizes, source.sizes),
            _mixed(source.static_strides, source.strides),
        )
        _replace_extract(rewriter, op, md)


class ExtractStridedMetadataOfMemorySpaceCastFolder(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ExtractStridedMetaDataOp, rewriter: PatternRewriter, /
    ):
        source = op.source.owner
        if not isinstance(source, memref.MemorySpaceCastOp):
            return
        if not isinstance(source.source.type, MemRefType):
            return
        esm = _extract(rewriter, source.source)
        results: list[SSAValue | None] = list(esm.results)
        if op.base_buffer.uses:
            base_type = cast(MemRefType, esm.base_buffer.type)
            dest_space = cast(MemRefType, source.dest.type).memory_space
            space_cast = gpu_memref.MemorySpaceCastOp(
                esm.base_buffer,
                MemRefType(base_type.element_type, [], NoneAttr(), dest_space),
            )
            rewriter.insert(space_cast)
            results[0] = space_cast.dest
        else:
            results[0] = None
        rewriter.replace(op, [], results, safe_erase=False)


class ExtractStridedMetadataOfAssumeAlignmentFolder(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ExtractStridedMetaDataOp, rewriter: PatternRewriter, /
    ):
        source = op.source.owner
        if isinstance(source, memref.AssumeAlignmentOp):
            rewriter.replace(op, memref.ExtractStridedMetaDataOp(source.memref))


class ExtractStridedMetadataOfExtractStridedMetadataFolder(RewritePattern):
    """The base buffer of a base buffer is itself, at offset 0."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ExtractStridedMetaDataOp, rewriter: PatternRewriter, /
    ):
        source = op.source.owner
        if not isinstance(source, memref.ExtractStridedMetaDataOp):
            return
        rewriter.replace(op, [], [source.base_buffer, as_value(rewriter, 0)])


class ExtractStridedMetadataStaticFolder(RewritePattern):
    """The folder of ``extract_strided_metadata``: results that the source type knows
    statically become constants."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ExtractStridedMetaDataOp, rewriter: PatternRewriter, /
    ):
        source_type = op.source.type
        if not isinstance(source_type, MemRefType):
            return
        try:
            strides, offset = strides_and_offset(cast(MemRefType, source_type))
        except ValueError:
            return
        known: list[tuple[SSAValue, int]] = []
        if offset is not None:
            known.append((op.offset, offset))
        for value, size in zip(op.sizes, source_type.get_shape()):
            if size != DYNAMIC_INDEX:
                known.append((value, size))
        for value, stride in zip(op.strides, strides):
            if stride is not None:
                known.append((value, stride))
        for value, constant in known:
            if value.uses:
                rewriter.replace_all_uses_with(value, as_value(rewriter, constant))


class ExtractAlignedPointerOfViewFolder(RewritePattern):
    """``extract_aligned_pointer_as_index`` of a subview or reinterpret_cast reads the
    view's source: the aligned pointer is the same."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ExtractAlignedPointerAsIndexOp, rewriter: PatternRewriter, /
    ):
        view = op.source.owner
        if isinstance(view, memref.SubviewOp | memref.ReinterpretCastOp):
            if isinstance(view.source.type, MemRefType):
                op.operands[0] = view.source
                rewriter.handle_operation_modification(op)
                rewriter.has_done_action = True


class ReinterpretCastFold(RewritePattern):
    """The folder of ``reinterpret_cast``: skip a ``reinterpret_cast``/``cast`` (or
    zero-offset subview) source; drop a cast that changes nothing."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ReinterpretCastOp, rewriter: PatternRewriter, /
    ):
        source = op.source.owner
        previous: SSAValue | None = None
        if isinstance(source, memref.ReinterpretCastOp):
            previous = source.source
        elif isinstance(source, memref.CastOp) and isinstance(
            source.source.type, MemRefType
        ):
            previous = source.source
        elif isinstance(source, memref.SubviewOp) and all(
            v == 0 for v in _mixed(source.static_offsets, source.offsets)
        ):
            previous = source.source
        if previous is not None:
            op.operands[0] = previous
            rewriter.handle_operation_modification(op)
            rewriter.has_done_action = True
            return
        result_type = cast(MemRefType, op.result.type)
        if (
            op.source.type == result_type
            and result_type.has_static_shape()
            and _mixed(op.static_offsets, op.offsets)[0] == 0
        ):
            rewriter.replace(op, [], [op.source])


class AffineApplyConstantFold(RewritePattern):
    """The folder of ``affine.apply``, which upstream's greedy driver runs on every op:
    an apply whose map gives a constant once its ``arith.constant`` operands are
    substituted becomes that constant (the offsets, sizes and strides of a view of a
    static buffer, resolved to constants after the apply was built); a map that is a
    lone dimension or symbol is its operand. Nothing is composed across other
    applies: upstream's fold does not either."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.ApplyOp, rewriter: PatternRewriter, /):
        amap = op.map.data
        if len(amap.results) != 1:
            return
        expr = amap.results[0]
        operands = list(op.mapOperands)
        if isinstance(expr, AffineDimExpr):
            rewriter.replace(op, [], [operands[expr.position]])
            return
        if isinstance(expr, AffineSymExpr):
            rewriter.replace(op, [], [operands[amap.num_dims + expr.position]])
            return
        polys = [_constant_or_atom(v) for v in operands]
        folded = _Folder()._from_expr(
            expr, polys[: amap.num_dims], polys[amap.num_dims :]
        )
        if (value := folded.as_const()) is not None:
            rewriter.replace(op, arith.ConstantOp(IntegerAttr(value, IndexType())))


def _constant_or_atom(value: SSAValue) -> _Poly:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return _Poly.const(owner.value.value.data)
    return _Poly.atom(value)


def check_strided_inputs(root: Operation) -> None:
    """Report, before rewriting anything, the view ops this pass cannot expand: a
    layout that is not strided, or a rank-reducing subview whose dropped dimensions
    the types do not tell."""
    for op in preorder(root):
        match op:
            case memref.SubviewOp():
                _strided(op, op.source)
                _strided(op, op.result)
                _dropped_dims(op)
            case memref.ExpandShapeOp() | memref.CollapseShapeOp():
                _strided(op, op.src)
                _strided(op, op.result)
            case _:
                pass


@dataclass(frozen=True)
class ExpandStridedMetadataPass(ModulePass):
    """Expand memref view operations into ``extract_strided_metadata`` +
    ``affine.apply`` + ``reinterpret_cast`` (upstream ``expand-strided-metadata``)."""

    name = "expand-strided-metadata"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_strided_inputs(op)
        DispatchingWalker(
            DispatchingApplier(
                [
                    SubviewFolder(),
                    ReshapeFolder(),
                    ExtractStridedMetadataOfViewFolder(),
                    ExtractStridedMetadataOfAllocFolder(),
                    ExtractStridedMetadataOfReinterpretCastFolder(),
                    ExtractStridedMetadataOfMemorySpaceCastFolder(),
                    ExtractStridedMetadataOfAssumeAlignmentFolder(),
                    ExtractStridedMetadataOfExtractStridedMetadataFolder(),
                    ExtractStridedMetadataStaticFolder(),
                    ExtractAlignedPointerOfViewFolder(),
                    ReinterpretCastFold(),
                    AffineApplyConstantFold(),
                ],
                # Upstream's greedy driver folds every op it visits: arith ops
                # over the constants that the patterns resolve fold too.
                ctx=ctx,
                folding_enabled=True,
            ),
            apply_recursively=True,
            post_walk_func=region_dce,
        ).rewrite_module(op)
