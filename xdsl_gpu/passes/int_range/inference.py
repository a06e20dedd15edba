"""The range facts of integer arithmetic (MLIR's ``InferIntRangeCommon``): each
function takes the operands' ranges and gives the result's.

An operation that may overflow in the unsigned or the signed sense gives up on that
interval (the whole range) unless its ``nuw``/``nsw`` flag says it cannot, in which
case the bound saturates. The unsigned and signed results are then intersected.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl_gpu.passes.int_range.ranges import (
    ConstantIntRanges as R,
)
from xdsl_gpu.passes.int_range.ranges import (
    smax_of,
    smin_of,
    to_signed,
    to_unsigned,
    umax_of,
)

Op = Callable[[int, int], int | None]
"""A binary operation on bounds; None where it overflows."""


def _bounds_by(
    op: Op, lo_l: int, lo_r: int, hi_l: int, hi_r: int, w: int, signed: bool
) -> R:
    """``[op(lo_l, lo_r), op(hi_l, hi_r)]``, or the whole range if either overflows
    (``computeBoundsBy``)."""
    lo, hi = op(lo_l, lo_r), op(hi_l, hi_r)
    if lo is None or hi is None:
        return R.max_range(w)
    return R.range(lo, hi, w, signed)


def _min_max_by(
    op: Op, lhs: Sequence[int], rhs: Sequence[int], w: int, signed: bool
) -> R:
    """The least and greatest ``op(l, r)`` over the given bounds (``minMaxBy``)."""
    results: list[int] = []
    for left in lhs:
        for right in rhs:
            result = op(left, right)
            if result is None:
                return R.max_range(w)
            results.append(result)
    return R.range(min(results), max(results), w, signed)


def _unsigned_op(w: int, f: Callable[[int, int], int], saturate: bool) -> Op:
    """An unsigned operation: None on overflow, or clamped when ``saturate``."""

    def op(a: int, b: int) -> int | None:
        r = f(a, b)
        if 0 <= r <= umax_of(w):
            return r
        return (0 if r < 0 else umax_of(w)) if saturate else None

    return op


def _signed_op(w: int, f: Callable[[int, int], int], saturate: bool) -> Op:
    def op(a: int, b: int) -> int | None:
        r = f(a, b)
        if smin_of(w) <= r <= smax_of(w):
            return r
        return (smin_of(w) if r < 0 else smax_of(w)) if saturate else None

    return op


# Addition, subtraction, multiplication -----------------------------------------------


def infer_add(lhs: R, rhs: R, nsw: bool = False, nuw: bool = False) -> R:
    w = lhs.width
    uadd = _unsigned_op(w, lambda a, b: a + b, nuw)
    sadd = _signed_op(w, lambda a, b: a + b, nsw)
    u = _bounds_by(uadd, lhs.umin, rhs.umin, lhs.umax, rhs.umax, w, False)
    s = _bounds_by(sadd, lhs.smin, rhs.smin, lhs.smax, rhs.smax, w, True)
    return u.intersection(s)


def infer_sub(lhs: R, rhs: R, nsw: bool = False, nuw: bool = False) -> R:
    w = lhs.width
    usub = _unsigned_op(w, lambda a, b: a - b, nuw)
    ssub = _signed_op(w, lambda a, b: a - b, nsw)
    u = _bounds_by(usub, lhs.umin, rhs.umax, lhs.umax, rhs.umin, w, False)
    s = _bounds_by(ssub, lhs.smin, rhs.smax, lhs.smax, rhs.smin, w, True)
    return u.intersection(s)


def infer_mul(lhs: R, rhs: R, nsw: bool = False, nuw: bool = False) -> R:
    w = lhs.width
    umul = _unsigned_op(w, lambda a, b: a * b, nuw)
    smul = _signed_op(w, lambda a, b: a * b, nsw)
    u = _min_max_by(umul, (lhs.umin, lhs.umax), (rhs.umin, rhs.umax), w, False)
    s = _min_max_by(smul, (lhs.smin, lhs.smax), (rhs.smin, rhs.smax), w, True)
    return u.intersection(s)


# Division and remainder ---------------------------------------------------------------


def _sdiv(a: int, b: int) -> int:
    """Signed division rounding towards zero (no overflow check)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _srem(a: int, b: int) -> int:
    """Signed remainder with the dividend's sign."""
    return a - b * _sdiv(a, b)


Fixup = Callable[[int, int, int], int | None]


def _div_u(lhs: R, rhs: R, fixup: Fixup) -> R:
    w = lhs.width
    if rhs.umin != 0 and rhs.umax != 0:
        return _min_max_by(
            lambda a, b: fixup(a, b, a // b),
            (lhs.umin, lhs.umax),
            (rhs.umin, rhs.umax),
            w,
            False,
        )
    umin = 0
    if lhs.umin >= rhs.umax and rhs.umax != 0:
        umin = lhs.umin // rhs.umax
    # X u/ Y u<= X.
    return R.from_unsigned(umin, lhs.umax, w)


def infer_divu(lhs: R, rhs: R) -> R:
    return _div_u(lhs, rhs, lambda a, b, q: q)


def infer_ceildivu(lhs: R, rhs: R) -> R:
    w = lhs.width

    def fix(a: int, b: int, q: int) -> int | None:
        if a % b:
            return q + 1 if q + 1 <= umax_of(w) else None
        return q

    return _div_u(lhs, rhs, fix)


def _div_s(lhs: R, rhs: R, fixup: Fixup) -> R:
    w = lhs.width
    if rhs.smin > 0 or rhs.smax < 0:

        def sdiv(a: int, b: int) -> int | None:
            if a == smin_of(w) and b == -1:
                return None
            return fixup(a, b, _sdiv(a, b))

        return _min_max_by(sdiv, (lhs.smin, lhs.smax), (rhs.smin, rhs.smax), w, True)
    return R.max_range(w)


def infer_divs(lhs: R, rhs: R) -> R:
    return _div_s(lhs, rhs, lambda a, b, q: q)


def infer_ceildivs(lhs: R, rhs: R) -> R:
    w = lhs.width

    def fix(a: int, b: int, q: int) -> int | None:
        if _srem(a, b) != 0 and (a >= 0) == (b >= 0):
            return q + 1 if q + 1 <= smax_of(w) else None
        # INT_MIN / positive: keeps the result consistent with the folder.
        if a == smin_of(w) and b > 1:
            return to_signed(-q, w)
        return q

    result = _div_s(lhs, rhs, fix)
    if lhs.smin == smin_of(w) and lhs.smax > lhs.smin:
        # INT_MIN may wrap to a positive result: add [INT_MIN + 1, smax].
        rest = R.from_signed(lhs.smin + 1, lhs.smax, w)
        result = result.union(_div_s(rest, rhs, fix))
    return result


def infer_floordivs(lhs: R, rhs: R) -> R:
    w = lhs.width

    def fix(a: int, b: int, q: int) -> int | None:
        if _srem(a, b) != 0 and (a >= 0) != (b >= 0):
            return q - 1 if q - 1 >= smin_of(w) else None
        return q

    return _div_s(lhs, rhs, fix)


def infer_rems(lhs: R, rhs: R) -> R:
    w = lhs.width
    smin, smax = smin_of(w), smax_of(w)
    if rhs.smin > 0 or rhs.smax < 0:
        max_divisor = rhs.smax if rhs.smin > 0 else to_signed(-rhs.smin, w)
        max_positive = to_signed(max_divisor - 1, w)
        min_negative = to_signed(-max_positive, w)
        smin = min_negative if lhs.smin < 0 else 0
        smax = max_positive if lhs.smax > 0 else 0
        # A contiguous sweep of the dividend within one period of the modulus.
        if rhs.smin == rhs.smax and to_unsigned(lhs.smax - lhs.smin, w) < to_unsigned(
            max_divisor, w
        ):
            min_rem = _srem(lhs.smin, max_divisor)
            max_rem = _srem(lhs.smax, max_divisor)
            if min_rem <= max_rem:
                smin, smax = min_rem, max_rem
    return R.from_signed(smin, smax, w)


def infer_remu(lhs: R, rhs: R) -> R:
    w = lhs.width
    umin = 0
    umax = min(to_unsigned(rhs.umax - 1, w), lhs.umax)
    if rhs.umin != 0 and rhs.umin == rhs.umax and lhs.umax - lhs.umin < rhs.umax:
        min_rem, max_rem = lhs.umin % rhs.umax, lhs.umax % rhs.umax
        if min_rem <= max_rem:
            umin, umax = min_rem, max_rem
    return R.from_unsigned(umin, umax, lhs.width)


# Min and max ---------------------------------------------------------------------------


def infer_maxs(lhs: R, rhs: R) -> R:
    return R.from_signed(max(lhs.smin, rhs.smin), max(lhs.smax, rhs.smax), lhs.width)


def infer_maxu(lhs: R, rhs: R) -> R:
    return R.from_unsigned(max(lhs.umin, rhs.umin), max(lhs.umax, rhs.umax), lhs.width)


def infer_mins(lhs: R, rhs: R) -> R:
    return R.from_signed(min(lhs.smin, rhs.smin), min(lhs.smax, rhs.smax), lhs.width)


def infer_minu(lhs: R, rhs: R) -> R:
    return R.from_unsigned(min(lhs.umin, rhs.umin), min(lhs.umax, rhs.umax), lhs.width)


# Bitwise -------------------------------------------------------------------------------


def _varying_bits(r: R) -> int:
    """The mask of the low bits that differ somewhere in ``[umin, umax]``."""
    return (1 << (r.umin ^ r.umax).bit_length()) - 1


def _widened(r: R) -> tuple[int, int]:
    """``[umin, umax]`` with the bits below their common prefix all 0 / all 1."""
    mask = _varying_bits(r)
    return r.umin & ~mask, r.umax | mask


def infer_and(lhs: R, rhs: R) -> R:
    return _min_max_by(
        lambda a, b: a & b, _widened(lhs), _widened(rhs), lhs.width, False
    )


def infer_or(lhs: R, rhs: R) -> R:
    return _min_max_by(
        lambda a, b: a | b, _widened(lhs), _widened(rhs), lhs.width, False
    )


def infer_xor(lhs: R, rhs: R) -> R:
    mask = _varying_bits(lhs) | _varying_bits(rhs)
    res = lhs.umin ^ rhs.umin
    return R.from_unsigned(res & ~mask & umax_of(lhs.width), res | mask, lhs.width)


# Shifts --------------------------------------------------------------------------------


def infer_shl(lhs: R, rhs: R, nsw: bool = False, nuw: bool = False) -> R:
    w = lhs.width

    def ushl(a: int, b: int) -> int | None:
        if b >= w or (a << b) > umax_of(w):
            return umax_of(w) if nuw else None
        return a << b

    def sshl(a: int, b: int) -> int | None:
        if b >= w or not smin_of(w) <= (a << b) <= smax_of(w):
            if not nsw:
                return None
            return smin_of(w) if a < 0 else smax_of(w)
        return a << b

    u = _min_max_by(ushl, (lhs.umin, lhs.umax), (rhs.umin, rhs.umax), w, False)
    s = _min_max_by(sshl, (lhs.smin, lhs.smax), (rhs.umin, rhs.umax), w, True)
    return u.intersection(s)


def infer_shrs(lhs: R, rhs: R) -> R:
    w = lhs.width
    return _min_max_by(
        lambda a, b: None if b >= w else a >> b,
        (lhs.smin, lhs.smax),
        (rhs.umin, rhs.umax),
        w,
        True,
    )


def infer_shru(lhs: R, rhs: R) -> R:
    w = lhs.width
    return _min_max_by(
        lambda a, b: None if b >= w else a >> b,
        (lhs.umin, lhs.umax),
        (rhs.umin, rhs.umax),
        w,
        False,
    )


# Extension and truncation ------------------------------------------------------------


def ext_range(r: R, width: int) -> R:
    """Both intervals carried over unchanged to a wider type."""
    return R(width, r.umin, r.umax, r.smin, r.smax)


def ext_ui(r: R, width: int) -> R:
    return R.from_unsigned(r.umin, r.umax, width)


def ext_si(r: R, width: int) -> R:
    return R.from_signed(r.smin, r.smax, width)


def trunc_range(r: R, width: int) -> R:
    """The low ``width`` bits: an interval survives where truncating it does not
    wrap around (``truncRange``)."""
    if r.umin >> width != r.umax >> width:
        umin, umax = 0, umax_of(width)
    else:
        umin, umax = to_unsigned(r.umin, width), to_unsigned(r.umax, width)
    lo_high, hi_high = r.smin >> (width - 1), r.smax >> (width - 1)
    signed_overflow = (
        lo_high != hi_high
        and not (lo_high == -1 and hi_high in (-1, 0))
        and not (lo_high == 0 and hi_high == 0)
    )
    if signed_overflow:
        smin, smax = smin_of(width), smax_of(width)
    else:
        smin, smax = to_signed(r.smin, width), to_signed(r.smax, width)
    return R(width, umin, umax, smin, smax)


# Comparisons ---------------------------------------------------------------------------

PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
"""``arith.cmpi``'s predicates by number."""

_INVERSE = {
    "eq": "ne",
    "ne": "eq",
    "slt": "sge",
    "sle": "sgt",
    "sgt": "sle",
    "sge": "slt",
    "ult": "uge",
    "ule": "ugt",
    "ugt": "ule",
    "uge": "ult",
}


def _statically_true(pred: str, lhs: R, rhs: R) -> bool:
    match pred:
        case "sle":
            return lhs.smax <= rhs.smin
        case "slt":
            return lhs.smax < rhs.smin
        case "ule":
            return lhs.umax <= rhs.umin
        case "ult":
            return lhs.umax < rhs.umin
        case "sge":
            return lhs.smin >= rhs.smax
        case "sgt":
            return lhs.smin > rhs.smax
        case "uge":
            return lhs.umin >= rhs.umax
        case "ugt":
            return lhs.umin > rhs.umax
        case "eq":
            a, b = lhs.constant_value(), rhs.constant_value()
            return a is not None and a == b
        case _:  # ne: neither interpretation may overlap
            signed = _statically_true("slt", lhs, rhs) or _statically_true(
                "sgt", lhs, rhs
            )
            unsigned = _statically_true("ult", lhs, rhs) or _statically_true(
                "ugt", lhs, rhs
            )
            return signed and unsigned


def evaluate_pred(pred: str, lhs: R, rhs: R) -> bool | None:
    """Whether ``lhs pred rhs`` holds for all values, for none, or is unknown."""
    if _statically_true(pred, lhs, rhs):
        return True
    if _statically_true(_INVERSE[pred], lhs, rhs):
        return False
    return None


def infer_cmp(pred: str, lhs: R, rhs: R) -> R:
    truth = evaluate_pred(pred, lhs, rhs)
    lo, hi = (1 if truth else 0, 1 if truth is not False else 0)
    return R.from_unsigned(lo, hi, 1)
