"""``vector.contract`` in terms of smaller vector ops, as upstream's
``populateVectorContractLoweringPatterns`` (MLIR 22) lowers it in
convert-vector-to-llvm, with the strategy of ``vector-contract-lowering``:

* ``outerproduct``: 2-D contractions with one reduction dim ``k`` (matmul in any
  operand and result layout, matvec/vecmat): the operand holding the result's row
  dim, laid out ``(k, row)`` (a ``vector.transpose`` if needed), and the other,
  ``(k, col)`` (or ``(k)``: an AXPY), give one ``vector.outerproduct`` per ``k``.
  Operands narrower than the accumulator are extended per slice (``arith.extf``/
  ``extsi``), any combining kind is passed on, and a mask (one per iteration point)
  gives masked outer products;
* ``dot`` (the default): the same 2-D forms, unmasked, with ``<add>`` and one element
  type: the rows of the left operand and the transposed right one, one
  ``vector.reduction <add>`` of their elementwise product per result element, into a
  zero vector, and the accumulator added at the end;
* ``parallelarith``: when every reduction dim has size 1, the operands' slices are
  transposed and broadcast to the accumulator's shape and combined elementwise
  (``vector.fma``, or ``muli`` + ``addi``);
* otherwise, and for what the strategies above decline (any strategy): upstream's
  progressive lowering. A parallel dim of both operands (batch), then one of the
  left operand only, then of the right only, is unrolled: one smaller contraction
  per index on the operands' slices (``vector.transpose`` to bring the dim first,
  ``vector.extract``), the results put together by ``vector.insert`` and transposed
  back into the accumulator's layout. Then a leading reduction dim is unrolled with
  the accumulator chained, until one reduction dim is left: ``vector.reduction
  <add>`` of the elementwise product, with the accumulator. Masks are sliced along
  and end on the reductions (``vector.mask { vector.reduction }``).

As upstream, the dot, parallel-arith and progressive lowerings take ``<add>`` and
operands of the accumulator's element type only; other contractions (``<mul>``,
mixed precision) are left as upstream leaves them, except by ``outerproduct``.
Scalable vectors are left too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_gpu.gpu_dialect import vector
from xdsl_gpu.gpu_dialect.arith import ExtFOp, ExtSIOp, SelectOp
from xdsl_gpu.gpu_dialect.llvm_matrix import MatrixMultiplyOp
from xdsl_gpu.gpu_dialect.vector.attributes import CombiningKindFlag, IteratorType
from xdsl_gpu.passes.vector_transforms.common import OpSequence


class _Ops(OpSequence):
    """:class:`OpSequence` with the layout changes of a contraction."""

    def permute(self, v: SSAValue, dims: list[int], to: list[int]) -> SSAValue:
        """``v`` laid out along iteration dims ``dims``, laid out along ``to``."""
        if dims == to:
            return v
        t = cast(VectorType, v.type)
        perm = [dims.index(d) for d in to]
        shape = [t.get_shape()[p] for p in perm]
        return self.add(vector.TransposeOp(v, perm, VectorType(t.element_type, shape)))

    def slice(
        self, v: SSAValue, dims: list[int], d: int, index: int
    ) -> tuple[SSAValue, list[int]]:
        """``v`` (along ``dims``) at index ``index`` of dim ``d``."""
        if d not in dims:
            return v, dims
        rest = [x for x in dims if x != d]
        front = self.permute(v, dims, [d, *rest])
        return self.extract(front, index), rest


def _dims(amap: AffineMap) -> list[int]:
    return [cast(AffineDimExpr, e).position for e in amap.results]


def _element(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, VectorType) else t  # pyright: ignore


def _fixed(t: Attribute) -> bool:
    return not isinstance(t, VectorType) or not t.get_num_scalable_dims()


@dataclass
class _Contract:
    """What a contraction (masked or not) is made of, by iteration dim."""

    lhs: SSAValue
    rhs: SSAValue
    acc: SSAValue
    lhs_dims: list[int]
    rhs_dims: list[int]
    acc_dims: list[int]
    iterators: list[str]
    sizes: dict[int, int]
    kind: str
    mask: SSAValue | None

    @staticmethod
    def of(op: vector.ContractionOp, mask: SSAValue | None) -> _Contract:
        maps = op.maps
        return _Contract(
            op.lhs,
            op.rhs,
            op.acc,
            _dims(maps[0]),
            _dims(maps[1]),
            _dims(maps[2]),
            op.iterators,
            op.iteration_sizes(),
            op.kind.data.value,
            mask,
        )

    @property
    def reductions(self) -> list[int]:
        return [d for d, t in enumerate(self.iterators) if t == "reduction"]

    @property
    def same_types(self) -> bool:
        acc = _element(self.acc.type)
        return _element(self.lhs.type) == acc and _element(self.rhs.type) == acc

    @property
    def mask_dims(self) -> list[int]:
        return list(range(len(self.iterators)))


def _build_contract(
    b: _Ops,
    lhs: SSAValue,
    rhs: SSAValue,
    acc: SSAValue,
    dims: tuple[list[int], list[int], list[int]],
    iterators: list[str],
    kind: str,
    mask: SSAValue | None,
) -> SSAValue:
    """A ``vector.contract`` over the iteration dims that remain (renumbered)."""
    alive = _kept(iterators)
    renumber = {d: i for i, d in enumerate(alive)}
    maps = [
        AffineMap(
            len(alive),
            0,
            tuple[AffineExpr, ...](AffineExpr.dimension(renumber[d]) for d in ds),
        )
        for ds in dims
    ]
    contract = vector.ContractionOp(
        lhs,
        rhs,
        acc,
        maps,
        [IteratorType(iterators[d]) for d in alive],
        CombiningKindFlag(kind),
    )
    if mask is None:
        return b.add(contract)
    return b.add(vector.MaskOp(mask, contract))


def _kept(iterators: list[str]) -> list[int]:
    return [d for d, t in enumerate(iterators) if t]


def _drop(iterators: list[str], d: int) -> list[str]:
    """Iterators with ``d`` gone (marked empty, so that dims keep their ids)."""
    return [("" if i == d else t) for i, t in enumerate(iterators)]


def _general(c: _Contract) -> _Ops | None:
    """Upstream's progressive lowering: unroll a parallel dim, then reductions."""
    live = _kept(c.iterators)
    parallel = [d for d in live if c.iterators[d] == "parallel"]
    batch = [d for d in parallel if d in c.lhs_dims and d in c.rhs_dims]
    lhs_free = [d for d in parallel if d in c.lhs_dims and d not in c.rhs_dims]
    rhs_free = [d for d in parallel if d in c.rhs_dims and d not in c.lhs_dims]
    b = _Ops()
    for candidates in (batch, lhs_free, rhs_free):
        if candidates:
            _unroll_parallel(b, c, candidates[0])
            return b
    reductions = [d for d in live if c.iterators[d] == "reduction"]
    if not reductions or not set(c.lhs_dims) == set(c.rhs_dims) == set(reductions):
        return None
    if len(reductions) == 1:
        return _dot(b, c)
    _unroll_reduction(b, c, reductions[0])
    return b


def _mask_dims(c: _Contract) -> list[int]:
    return _kept(c.iterators)


def _unroll_parallel(b: _Ops, c: _Contract, d: int) -> None:
    size = c.sizes[d]
    iterators = _drop(c.iterators, d)
    acc_rest = [x for x in c.acc_dims if x != d]
    acc_t = cast(VectorType, c.acc.type)
    element = acc_t.element_type
    rest_shape = [c.sizes[x] for x in acc_rest]
    front_t = VectorType(element, [size, *rest_shape])
    result = b.zeros(front_t)
    for i in range(size):
        lhs, lhs_dims = b.slice(c.lhs, c.lhs_dims, d, i)
        rhs, rhs_dims = b.slice(c.rhs, c.rhs_dims, d, i)
        acc, acc_dims = b.slice(c.acc, c.acc_dims, d, i)
        mask = None
        if c.mask is not None:
            mask, _ = b.slice(c.mask, _mask_dims(c), d, i)
        part = _build_contract(
            b, lhs, rhs, acc, (lhs_dims, rhs_dims, acc_dims), iterators, c.kind, mask
        )
        result = b.insert(part, result, i)
    b.permute(result, [d, *acc_rest], c.acc_dims)


def _unroll_reduction(b: _Ops, c: _Contract, d: int) -> None:
    iterators = _drop(c.iterators, d)
    acc = c.acc
    for i in range(c.sizes[d]):
        lhs, lhs_dims = b.slice(c.lhs, c.lhs_dims, d, i)
        rhs, rhs_dims = b.slice(c.rhs, c.rhs_dims, d, i)
        mask = None
        if c.mask is not None:
            mask, _ = b.slice(c.mask, _mask_dims(c), d, i)
        acc = _build_contract(
            b, lhs, rhs, acc, (lhs_dims, rhs_dims, c.acc_dims), iterators, c.kind, mask
        )


def reduction_op(
    v: SSAValue, kind: CombiningKindFlag, acc: SSAValue | None = None
) -> Operation:
    """``vector.reduction <kind>, %v (, %acc)`` into the element type (xDSL's
    constructor would type the result as the vector)."""
    return vector.ReductionOp.create(
        operands=[v] if acc is None else [v, acc],
        result_types=[_element(v.type)],
        properties={
            "kind": vector.CombiningKindAttr(kind),
            "fastmath": FastMathFlagsAttr("none"),
        },
    )


def _mul(x: SSAValue, y: SSAValue) -> Operation:
    if isinstance(_element(x.type), AnyFloat):
        return arith.MulfOp(x, y)
    return arith.MuliOp(x, y)


def _dot(b: _Ops, c: _Contract) -> _Ops:
    """One reduction dim left, no parallel one: a dot product with the accumulator."""
    product = b.add(_mul(c.lhs, c.rhs))
    reduction = reduction_op(product, CombiningKindFlag(c.kind), c.acc)  # pyright: ignore[reportArgumentType]
    if c.mask is None:
        b.add(reduction)
    else:
        b.add(vector.MaskOp(c.mask, reduction))
    return b


# --------------------------------------------------------------------------------------
# 2-D forms: outerproduct and dot
# --------------------------------------------------------------------------------------


@dataclass
class _Form2D:
    """A contraction with one reduction dim ``k`` and one or two parallel dims: the
    operand holding the result's first dim (``row``) and the other (``col``)."""

    k: int
    row_operand: SSAValue
    row_dims: list[int]
    col_operand: SSAValue
    col_dims: list[int]
    result_dims: list[int]


def _form_2d(c: _Contract) -> _Form2D | None:
    reductions = c.reductions
    if len(reductions) != 1 or not 1 <= len(c.acc_dims) <= 2:
        return None
    if len(c.iterators) != len(c.acc_dims) + 1:
        return None
    k = reductions[0]
    if k not in c.lhs_dims or k not in c.rhs_dims:
        return None
    row = c.acc_dims[0]
    if row in c.lhs_dims and row not in c.rhs_dims:
        first, second = (c.lhs, c.lhs_dims), (c.rhs, c.rhs_dims)
    elif row in c.rhs_dims and row not in c.lhs_dims:
        first, second = (c.rhs, c.rhs_dims), (c.lhs, c.lhs_dims)
    else:
        return None
    if len(c.acc_dims) == 2:
        col = c.acc_dims[1]
        if sorted(first[1]) != sorted([k, row]) or sorted(second[1]) != sorted(
            [k, col]
        ):
            return None
    elif sorted(first[1]) != sorted([k, row]) or second[1] != [k]:
        return None
    return _Form2D(k, first[0], first[1], second[0], second[1], c.acc_dims)


def _extend(b: _Ops, v: SSAValue, element: Attribute) -> SSAValue:
    """``v`` with the accumulator's element type (upstream's promotion)."""
    t = v.type
    if _element(t) == element:
        return v
    target: Attribute = (
        VectorType(element, cast(VectorType, t).get_shape())
        if isinstance(t, VectorType)
        else element
    )
    if isinstance(element, AnyFloat):
        return b.add(ExtFOp(v, target))
    return b.add(ExtSIOp(v, cast(IntegerType, target)))


def _outerproduct(c: _Contract) -> _Ops | None:
    form = _form_2d(c)
    if form is None:
        return None
    b = _Ops()
    k = form.k
    rows = b.permute(form.row_operand, form.row_dims, [k, form.result_dims[0]])
    cols = b.permute(form.col_operand, form.col_dims, [k, *form.result_dims[1:]])
    element = _element(c.acc.type)
    acc = c.acc
    for kk in range(c.sizes[k]):
        a = _extend(b, b.extract(rows, kk), element)
        x = _extend(b, b.extract(cols, kk), element)
        product = vector.OuterProductOp(a, x, acc, CombiningKindFlag(c.kind))
        if c.mask is None:
            acc = b.add(product)
            continue
        mask, mask_dims = b.slice(c.mask, _mask_dims(c), k, kk)
        mask = b.permute(mask, mask_dims, form.result_dims)
        acc = b.add(vector.MaskOp(mask, product))
    return b


def _dot_2d(c: _Contract) -> _Ops | None:
    form = _form_2d(c)
    if form is None or c.mask is not None:
        return None
    b = _Ops()
    k = form.k
    rows = b.permute(form.row_operand, form.row_dims, [form.result_dims[0], k])
    cols = form.col_operand
    if len(form.result_dims) == 2:
        cols = b.permute(cols, form.col_dims, [form.result_dims[1], k])
    acc_t = c.acc.type
    result = b.zeros(acc_t)
    shape = cast(VectorType, acc_t).get_shape()
    for r in range(shape[0]):
        a = b.extract(rows, r)
        for col in range(shape[1] if len(shape) == 2 else 1):
            x = b.extract(cols, col) if len(shape) == 2 else cols
            product = b.add(_mul(a, x))
            reduced = b.add(reduction_op(product, CombiningKindFlag.ADD))
            position = (r, col) if len(shape) == 2 else (r,)
            result = b.insert(reduced, result, *position)
    add = arith.AddfOp if isinstance(_element(acc_t), AnyFloat) else arith.AddiOp
    b.add(add(result, c.acc))
    return b


def _matrix_intrinsic(c: _Contract) -> _Ops | None:
    """A 2-D matmul (``i, j`` parallel, one reduction ``k``, operands in any
    layout) as ``llvm.intr.matrix.multiply`` of the operands flattened row-major,
    then the accumulator added: upstream's ``vector-contract-lowering=llvmintr``."""
    if c.mask is not None or len(c.acc_dims) != 2 or len(c.reductions) != 1:
        return None
    (k,), (i, j) = c.reductions, c.acc_dims
    if sorted(c.lhs_dims) != sorted([i, k]) or sorted(c.rhs_dims) != sorted([k, j]):
        return None
    b = _Ops()
    m, n, depth = c.sizes[i], c.sizes[j], c.sizes[k]
    acc_t = cast(VectorType, c.acc.type)
    element = acc_t.element_type
    lhs = b.permute(c.lhs, c.lhs_dims, [i, k])
    rhs = b.permute(c.rhs, c.rhs_dims, [k, j])
    flat_lhs = b.add(vector.ShapeCastOp(lhs, VectorType(element, [m * depth])))
    flat_rhs = b.add(vector.ShapeCastOp(rhs, VectorType(element, [depth * n])))
    product = b.add(
        MatrixMultiplyOp(flat_lhs, flat_rhs, VectorType(element, [m * n]), m, depth, n)
    )
    result = b.add(vector.ShapeCastOp(product, acc_t))
    add = arith.AddfOp if isinstance(element, AnyFloat) else arith.AddiOp
    b.add(add(c.acc, result))
    return b


def _parallel_arith(c: _Contract) -> _Ops | None:
    """Every reduction dim of size 1: elementwise, as upstream's
    ``ContractOpToElementwise``."""
    if c.mask is not None or not c.reductions:
        return None
    if any(c.sizes[d] != 1 for d in c.reductions):
        return None
    if not isinstance(c.acc.type, VectorType):
        return None
    b = _Ops()
    acc_t = cast(VectorType, c.acc.type)
    operands: list[SSAValue] = []
    for v, dims in ((c.lhs, c.lhs_dims), (c.rhs, c.rhs_dims)):
        for d in c.reductions:
            v, dims = b.slice(v, dims, d, 0)
        missing = [x for x in c.acc_dims if x not in dims]
        if missing:  # broadcast the dims the operand lacks, in front
            t = VectorType(acc_t.element_type, [c.sizes[x] for x in missing + dims])
            v = b.add(vector.BroadcastOp(v, t))
            dims = missing + dims
        operands.append(b.permute(v, dims, c.acc_dims))
    if isinstance(acc_t.element_type, AnyFloat):
        b.add(vector.FMAOp(operands[0], operands[1], c.acc))
    else:
        product = b.add(arith.MuliOp(operands[0], operands[1]))
        b.add(arith.AddiOp(product, c.acc))
    return b


@dataclass
class LowerContraction(RewritePattern):
    """A ``vector.contract`` or ``vector.mask { vector.contract }`` (module
    docstring); ``strategy`` is ``vector-contract-lowering``'s value."""

    strategy: str = "dot"

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, vector.MaskOp):
            contract = op.masked_op
            if not isinstance(contract, vector.ContractionOp) or op.passthru:
                return
            mask: SSAValue | None = op.mask
        elif isinstance(op, vector.ContractionOp):
            if isinstance(op.parent_op(), vector.MaskOp):
                return  # lowered with its mask
            contract, mask = op, None
        else:
            return
        if not all(
            _fixed(t) for t in (contract.lhs.type, contract.rhs.type, contract.acc.type)
        ):
            return
        c = _Contract.of(contract, mask)
        b: _Ops | None = None
        if self.strategy == "outerproduct":
            b = _outerproduct(c)
        if b is None and (c.kind != "add" or not c.same_types):
            return  # as upstream: left
        if b is None and self.strategy == "dot":
            b = _dot_2d(c)
        if b is None and self.strategy == "parallelarith":
            b = _parallel_arith(c)
        if b is None and self.strategy == "llvmintr":
            b = _matrix_intrinsic(c)
        if b is None:
            b = _general(c)
        if b is None:
            return
        rewriter.replace(op, b.ops)


class LowerMaskedOuterProduct(RewritePattern):
    """``vector.mask %m { vector.outerproduct %a, %b, %acc }``: per row, the
    unmasked row's result where the mask row is set, the accumulator's elsewhere
    (``arith.select``), as upstream."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.MaskOp, rewriter: PatternRewriter):
        outer = op.masked_op
        if not isinstance(outer, vector.OuterProductOp) or outer.acc is None:
            return
        result_t = cast(VectorType, outer.result.type)
        if result_t.get_num_scalable_dims():
            return
        b = _Ops()
        kind = CombiningKindFlag(outer.kind.data.value)
        if not isinstance(outer.rhs.type, VectorType):  # AXPY: one row
            plain = b.add(vector.OuterProductOp(outer.lhs, outer.rhs, outer.acc, kind))
            b.add(SelectOp(op.mask, plain, outer.acc))
            rewriter.replace(op, b.ops)
            return
        row_t = VectorType(result_t.element_type, result_t.get_shape()[1:])
        result = b.zeros(result_t)
        for i in range(result_t.get_shape()[0]):
            a_i = b.extract(outer.lhs, i)
            splat = b.add(vector.BroadcastOp(a_i, row_t))
            acc_i = b.extract(outer.acc, i)
            row = multiply_combine(b, splat, outer.rhs, acc_i, kind)
            m_i = b.extract(op.mask, i)
            row = b.add(SelectOp(m_i, row, acc_i))
            result = b.insert(row, result, i)
        rewriter.replace(op, b.ops)


def multiply_combine(
    b: _Ops, x: SSAValue, y: SSAValue, acc: SSAValue, kind: CombiningKindFlag
) -> SSAValue:
    """``acc <kind> (x * y)`` elementwise, as upstream's outer-product lowering:
    ``vector.fma`` for a float ``<add>``, else the product and the combining op."""
    element = _element(x.type)
    if kind == CombiningKindFlag.ADD and isinstance(element, AnyFloat):
        return b.add(vector.FMAOp(x, y, acc))
    product = b.add(_mul(x, y))
    combine = _COMBINE_FLOAT if isinstance(element, AnyFloat) else _COMBINE_INT
    return b.add(
        combine[kind.value].create(operands=[acc, product], result_types=[acc.type])
    )


_COMBINE_FLOAT: dict[str, type[Operation]] = {
    "add": arith.AddfOp,
    "mul": arith.MulfOp,
    "maxnumf": arith.MaxnumfOp,
    "minnumf": arith.MinnumfOp,
    "maximumf": arith.MaximumfOp,
    "minimumf": arith.MinimumfOp,
}
_COMBINE_INT: dict[str, type[Operation]] = {
    "add": arith.AddiOp,
    "mul": arith.MuliOp,
    "maxsi": arith.MaxSIOp,
    "minsi": arith.MinSIOp,
    "maxui": arith.MaxUIOp,
    "minui": arith.MinUIOp,
    "and": arith.AndIOp,
    "or": arith.OrIOp,
    "xor": arith.XOrIOp,
}


__all__ = [
    "LowerContraction",
    "LowerMaskedOuterProduct",
    "multiply_combine",
    "reduction_op",
]
