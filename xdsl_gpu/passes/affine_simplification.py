"""MLIR's affine expression simplification, so that the maps a pass builds come out as
``mlir-opt`` builds them (``mlir/lib/IR/AffineExpr.cpp``).

MLIR simplifies in two places, and both are here:

* every expression it builds goes through the simplifying constructors
  (:func:`add`, :func:`mul`, :func:`floordiv`, :func:`ceildiv`, :func:`mod`): constants
  fold and move right, ``(e + k * c) floordiv c`` splits, ``(e + k * c) mod c``
  drops the multiple, ``e - (e floordiv c) * c`` becomes ``e mod c``...;
* a composed map is flattened into a sum of terms over dimensions, symbols and
  "local" quotients and rebuilt in that order (:func:`simplify`, MLIR's
  ``simplifyAffineExpr``), which is why MLIR prints ``s1 + s2 * 8 + s0 floordiv
  32`` where the composition gave ``s0 floordiv 32 + s1 + s2 * 8``.

xDSL's ``AffineExpr`` operators and ``simplify`` reach other (equivalent) forms: they
expand ``mod`` into ``e - (e floordiv c) * c`` and keep divisions whole. The
expressions here are xDSL's classes, built directly. Semi-affine expressions (a
symbol as divisor or both factors non-constant) are kept as built.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import gcd

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

_ADD, _MUL = AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul
_FLOOR, _CEIL, _MOD = (
    AffineBinaryOpKind.FloorDiv,
    AffineBinaryOpKind.CeilDiv,
    AffineBinaryOpKind.Mod,
)


def const(value: int) -> AffineExpr:
    return AffineConstantExpr(value)


def _value(e: AffineExpr) -> int | None:
    return e.value if isinstance(e, AffineConstantExpr) else None


def _bin(e: AffineExpr, kind: AffineBinaryOpKind) -> AffineBinaryOpExpr | None:
    return e if isinstance(e, AffineBinaryOpExpr) and e.kind == kind else None


def is_symbolic_or_constant(e: AffineExpr) -> bool:
    return not any(isinstance(x, AffineDimExpr) for x in e.dfs())


def largest_known_divisor(e: AffineExpr) -> int:
    """The largest integer known to divide ``e`` (MLIR's ``getLargestKnownDivisor``)."""
    if isinstance(e, AffineConstantExpr):
        return abs(e.value)
    if not isinstance(e, AffineBinaryOpExpr):
        return 1
    if e.kind in (_FLOOR, _CEIL):
        divisor = _value(e.rhs)
        if divisor:
            numerator = largest_known_divisor(e.lhs)
            if numerator % divisor == 0:
                return abs(numerator // divisor)
        return 1
    if e.kind == _MUL:
        return largest_known_divisor(e.lhs) * largest_known_divisor(e.rhs)
    return gcd(largest_known_divisor(e.lhs), largest_known_divisor(e.rhs))


# -- the simplifying constructors ------------------------------------------------------


def add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    a, b = _value(lhs), _value(rhs)
    if a is not None and b is not None:
        return const(a + b)
    # Constants go right, and a symbolic operand right of a dimensional one.
    if a is not None or (
        is_symbolic_or_constant(lhs) and not is_symbolic_or_constant(rhs)
    ):
        return add(rhs, lhs)
    if b == 0:
        return lhs
    left_add = _bin(lhs, _ADD)
    if left_add is not None and b is not None:
        inner = _value(left_add.rhs)
        if inner is not None:
            return add(left_add.lhs, const(inner + b))
    # c1 * e + c2 * e -> (c1 + c2) * e
    left_mul, right_mul = _bin(lhs, _MUL), _bin(rhs, _MUL)
    first, c1 = (
        (left_mul.lhs, _value(left_mul.rhs))
        if left_mul is not None and _value(left_mul.rhs) is not None
        else (lhs, 1)
    )
    second, c2 = (
        (right_mul.lhs, _value(right_mul.rhs))
        if right_mul is not None and _value(right_mul.rhs) is not None
        else (rhs, 1)
    )
    if c1 is not None and c2 is not None and first == second:
        return AffineBinaryOpExpr(_MUL, first, const(c1 + c2))
    # (e + c) + f -> (e + f) + c
    if left_add is not None and _value(left_add.rhs) is not None:
        return add(add(left_add.lhs, rhs), left_add.rhs)
    # e - (e floordiv q) * q -> e mod q
    right = rhs if isinstance(rhs, AffineBinaryOpExpr) else None
    if right is None:
        return AffineBinaryOpExpr(_ADD, lhs, rhs)
    inner_mul = _bin(right.lhs, _MUL)
    if _value(right.rhs) == -1 and inner_mul is not None:
        quotient = _bin(inner_mul.lhs, _FLOOR)
        if quotient is None:
            return AffineBinaryOpExpr(_ADD, lhs, rhs)
        if quotient.rhs == inner_mul.rhs and lhs == quotient.lhs:
            return mod(lhs, inner_mul.rhs)
    quotient = _bin(right.lhs, _FLOOR)
    if quotient is not None and lhs == quotient.lhs and quotient.rhs == neg(right.rhs):
        return mod(lhs, quotient.rhs)
    return AffineBinaryOpExpr(_ADD, lhs, rhs)


def mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    a, b = _value(lhs), _value(rhs)
    if a is not None and b is not None:
        return const(a * b)
    if not is_symbolic_or_constant(rhs) and not is_symbolic_or_constant(lhs):
        return AffineBinaryOpExpr(_MUL, lhs, rhs)  # not affine: left as built
    if not is_symbolic_or_constant(rhs) or a is not None:
        return mul(rhs, lhs)
    if b == 1:
        return lhs
    if b == 0:
        return rhs
    left_mul = _bin(lhs, _MUL)
    if left_mul is not None:
        inner = _value(left_mul.rhs)
        if inner is not None and b is not None:
            return mul(left_mul.lhs, const(inner * b))
        if inner is not None:
            return mul(mul(left_mul.lhs, rhs), left_mul.rhs)
    return AffineBinaryOpExpr(_MUL, lhs, rhs)


def neg(e: AffineExpr) -> AffineExpr:
    return mul(e, const(-1))


def floordiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    b = _value(rhs)
    if b is None or b < 1:
        return AffineBinaryOpExpr(_FLOOR, lhs, rhs)
    if (a := _value(lhs)) is not None:
        return const(a // b)
    if b == 1:
        return lhs
    left_mul = _bin(lhs, _MUL)
    if left_mul is not None and (k := _value(left_mul.rhs)) is not None and k % b == 0:
        return mul(left_mul.lhs, const(k // b))
    left_add = _bin(lhs, _ADD)
    if left_add is not None and (
        largest_known_divisor(left_add.lhs) % b == 0
        or largest_known_divisor(left_add.rhs) % b == 0
    ):
        return add(floordiv(left_add.lhs, rhs), floordiv(left_add.rhs, rhs))
    return AffineBinaryOpExpr(_FLOOR, lhs, rhs)


def ceildiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    b = _value(rhs)
    if b is None or b < 1:
        return AffineBinaryOpExpr(_CEIL, lhs, rhs)
    if (a := _value(lhs)) is not None:
        return const(-(-a // b))
    if b == 1:
        return lhs
    left_mul = _bin(lhs, _MUL)
    if left_mul is not None and (k := _value(left_mul.rhs)) is not None and k % b == 0:
        return mul(left_mul.lhs, const(k // b))
    return AffineBinaryOpExpr(_CEIL, lhs, rhs)


def mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    b = _value(rhs)
    if b is None or b < 1:
        return AffineBinaryOpExpr(_MOD, lhs, rhs)
    if (a := _value(lhs)) is not None:
        return const(a % b)
    if largest_known_divisor(lhs) % b == 0:
        return const(0)
    left_add = _bin(lhs, _ADD)
    if left_add is not None:
        if largest_known_divisor(left_add.lhs) % b == 0:
            return mod(left_add.rhs, rhs)
        if largest_known_divisor(left_add.rhs) % b == 0:
            return mod(left_add.lhs, rhs)
    left_mod = _bin(lhs, _MOD)
    if left_mod is not None:
        inner = _value(left_mod.rhs)
        if inner is not None and inner >= 1 and inner % b == 0:
            return mod(left_mod.lhs, rhs)
    return AffineBinaryOpExpr(_MOD, lhs, rhs)


_BUILD = {_ADD: add, _MUL: mul, _FLOOR: floordiv, _CEIL: ceildiv, _MOD: mod}


def rebuild(
    e: AffineExpr, dims: Sequence[AffineExpr] = (), syms: Sequence[AffineExpr] = ()
) -> AffineExpr:
    """``e`` with its dimensions and symbols replaced, through the constructors
    (MLIR's ``replaceDimsAndSymbols``)."""
    if isinstance(e, AffineDimExpr):
        return dims[e.position] if e.position < len(dims) else e
    if isinstance(e, AffineSymExpr):
        return syms[e.position] if e.position < len(syms) else e
    if isinstance(e, AffineBinaryOpExpr):
        return _BUILD[e.kind](rebuild(e.lhs, dims, syms), rebuild(e.rhs, dims, syms))
    return e


# -- flattening ------------------------------------------------------------------------


class _SemiAffine(Exception):
    """The expression is not pure affine: MLIR keeps it as built."""


class _Flattener:
    """Rows of coefficients ``[dims, symbols, locals, constant]`` (MLIR's
    ``SimpleAffineExprFlattener`` for pure affine expressions)."""

    def __init__(self, num_dims: int, num_symbols: int) -> None:
        self.nd, self.ns = num_dims, num_symbols
        self.locals: list[AffineExpr] = []
        self.stack: list[list[int]] = []

    @property
    def local_start(self) -> int:
        return self.nd + self.ns

    def _row(self) -> list[int]:
        return [0] * (self.nd + self.ns + len(self.locals) + 1)

    def _add_local(self, expr: AffineExpr) -> None:
        for row in self.stack:
            row.insert(self.local_start + len(self.locals), 0)
        self.locals.append(expr)

    def walk(self, e: AffineExpr) -> None:
        if isinstance(e, AffineBinaryOpExpr):
            self.walk(e.lhs)
            self.walk(e.rhs)
            self._binary(e)
            return
        row = self._row()
        if isinstance(e, AffineDimExpr):
            row[e.position] = 1
        elif isinstance(e, AffineSymExpr):
            row[self.nd + e.position] = 1
        else:
            assert isinstance(e, AffineConstantExpr)
            row[-1] = e.value
        self.stack.append(row)

    def _binary(self, e: AffineBinaryOpExpr) -> None:
        rhs = self.stack.pop()
        lhs = self.stack[-1]
        if e.kind == _ADD:
            for i, v in enumerate(rhs):
                lhs[i] += v
            return
        if not isinstance(e.rhs, AffineConstantExpr):
            raise _SemiAffine()
        c = rhs[-1]
        if e.kind == _MUL:
            for i in range(len(lhs)):
                lhs[i] *= c
            return
        if c <= 0:
            raise _SemiAffine()
        if e.kind == _MOD:
            self._mod(lhs, c)
        else:
            self._div(lhs, c, ceil=e.kind == _CEIL)

    def _mod(self, lhs: list[int], c: int) -> None:
        if all(v % c == 0 for v in lhs):
            lhs[:] = [0] * len(lhs)
            return
        divisor = c
        for v in lhs:
            divisor = gcd(divisor, abs(v))
        dividend = [v // divisor for v in lhs]
        quotient = floordiv(self._expr(dividend), const(c // divisor))
        if quotient in self.locals:
            lhs[self.local_start + self.locals.index(quotient)] = -c
        else:
            self._add_local(quotient)
            lhs[self.local_start + len(self.locals) - 1] = -c

    def _div(self, lhs: list[int], c: int, ceil: bool) -> None:
        divisor = c
        for v in lhs:
            divisor = gcd(divisor, abs(v))
        if divisor != 1:
            lhs[:] = [v // divisor for v in lhs]
        c //= divisor
        if c == 1:
            return
        numerator = self._expr(lhs)
        quotient = (ceildiv if ceil else floordiv)(numerator, const(c))
        if quotient in self.locals:
            position = self.locals.index(quotient)
        else:
            self._add_local(quotient)
            position = len(self.locals) - 1
        lhs[:] = [0] * len(lhs)
        lhs[self.local_start + position] = 1

    def _expr(self, row: Sequence[int]) -> AffineExpr:
        return from_flat_form(row, self.nd, self.ns, self.locals)


def from_flat_form(
    row: Sequence[int], num_dims: int, num_symbols: int, locals: Sequence[AffineExpr]
) -> AffineExpr:
    """``dims, symbols, locals, constant`` coefficients back to an expression, in
    that order (MLIR's ``getAffineExprFromFlatForm``)."""
    expr: AffineExpr = const(0)
    for j in range(num_dims + num_symbols):
        if row[j]:
            var = AffineDimExpr(j) if j < num_dims else AffineSymExpr(j - num_dims)
            expr = add(expr, mul(var, const(row[j])))
    start = num_dims + num_symbols
    for j, local in enumerate(locals):
        if row[start + j]:
            expr = add(expr, mul(local, const(row[start + j])))
    if row[-1]:
        expr = add(expr, const(row[-1]))
    return expr


def simplify(e: AffineExpr, num_dims: int, num_symbols: int) -> AffineExpr:
    """MLIR's ``simplifyAffineExpr`` for pure affine expressions (others as they
    are)."""
    flattener = _Flattener(num_dims, num_symbols)
    try:
        flattener.walk(e)
    except _SemiAffine:
        return e
    return from_flat_form(flattener.stack[-1], num_dims, num_symbols, flattener.locals)
