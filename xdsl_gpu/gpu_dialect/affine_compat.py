"""Semi-affine expressions for xDSL's affine maps, as MLIR has them.

MLIR lets a product have a symbolic factor and lets ``floordiv``, ``ceildiv`` and
``mod`` divide by a symbolic expression (one without dimensions)::

    affine_map<()[s0, s1, s2] -> (s0 * s2 + s1)>       // upstream's loop-to-GPU mapping
    affine_map<(d0)[s0] -> (d0 * s0, d0 floordiv s0, d0 mod s0, d0 ceildiv s0)>

xDSL 0.74 raises ``NotImplementedError`` for all of these, while it parses the map
(``xdsl/ir/affine/affine_expr.py``, ``AffineExpr.__mul__`` and friends), so stock
``xdsl-opt`` dies with a traceback on IR that ``mlir-opt`` prints.

:func:`install` (run when ``gpu_dialect`` is imported, hence also by the ``xdsl-opt``
plugin) wraps those four operators:

* a constant operand goes to xDSL's own code, unchanged;
* otherwise it builds the node the way MLIR does (``AffineExpr.cpp``, ``simplifyMul``):
  the symbolic factor of a product goes to the right, a divisor must be symbolic;
* products of two non-symbolic expressions and divisions by one are not affine even in
  MLIR: the parser reports them as a parse error with MLIR's wording
  ("non-affine expression: ...") at the operator, not a traceback.

Nothing else changes. xDSL's ``AffineExpr.simplify`` and the flattener still refuse
semi-affine expressions (MLIR keeps them unsimplified too); ``lower-affine``
(xdsl_gpu/passes/lower_affine.py) expands them to ``arith`` like upstream.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)
from xdsl.parser.affine_parser import AffineParser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.mlir_lexer import MLIRToken


class NonAffineExpressionError(ValueError):
    """An expression that is not even semi-affine (MLIR rejects it too)."""


def is_symbolic_or_constant(expr: AffineExpr) -> bool:
    """True if ``expr`` has no dimension in it (MLIR's ``isSymbolicOrConstant``)."""
    return not any(isinstance(e, AffineDimExpr) for e in expr.dfs())


_Binary = Callable[[AffineExpr, "AffineExpr | int"], AffineExpr]

_ORIGINALS: dict[str, _Binary] = {}


def _as_expr(value: AffineExpr | int) -> AffineExpr:
    return AffineExpr.constant(value) if isinstance(value, int) else value


def _mul(self: AffineExpr, other: AffineExpr | int) -> AffineExpr:
    other = _as_expr(other)
    if isinstance(self, AffineConstantExpr) or isinstance(other, AffineConstantExpr):
        return _ORIGINALS["__mul__"](self, other)
    if not is_symbolic_or_constant(self) and not is_symbolic_or_constant(other):
        raise NonAffineExpressionError(
            "non-affine expression: at least one of the multiply operands has to be "
            "either a constant or symbolic"
        )
    if not is_symbolic_or_constant(other):
        self, other = other, self
    return AffineBinaryOpExpr(AffineBinaryOpKind.Mul, self, other)


def _divider(method: str, kind: AffineBinaryOpKind, token: str) -> _Binary:
    def divide(self: AffineExpr, other: AffineExpr | int) -> AffineExpr:
        other = _as_expr(other)
        if isinstance(other, AffineConstantExpr):
            return _ORIGINALS[method](self, other)
        if not is_symbolic_or_constant(other):
            raise NonAffineExpressionError(
                f"non-affine expression: right operand of {token} has to be either "
                "a constant or symbolic"
            )
        return AffineBinaryOpExpr(kind, self, other)

    return divide


_REPLACEMENTS: dict[str, _Binary] = {
    "__mul__": _mul,
    "__floordiv__": _divider("__floordiv__", AffineBinaryOpKind.FloorDiv, "floordiv"),
    "ceil_div": _divider("ceil_div", AffineBinaryOpKind.CeilDiv, "ceildiv"),
    "__mod__": _divider("__mod__", AffineBinaryOpKind.Mod, "mod"),
}


def _create_binop_expr(
    self: AffineParser, lhs: AffineExpr, rhs: AffineExpr, binop: MLIRToken
) -> AffineExpr:
    try:
        return _ORIGINAL_CREATE_BINOP(self, lhs, rhs, binop)
    except NonAffineExpressionError as e:
        raise ParseError(binop.span, str(e)) from None


_ORIGINAL_CREATE_BINOP = AffineParser._create_binop_expr  # pyright: ignore[reportPrivateUsage]


def install() -> None:
    """Give xDSL's ``AffineExpr`` MLIR's semi-affine operators (idempotent)."""
    if _ORIGINALS:
        return
    for method, replacement in _REPLACEMENTS.items():
        _ORIGINALS[method] = getattr(AffineExpr, method)
        setattr(AffineExpr, method, replacement)
    AffineParser._create_binop_expr = _create_binop_expr  # pyright: ignore[reportPrivateUsage]


install()
