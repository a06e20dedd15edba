"""Verifying ops whose definition has nothing variadic without xDSL's general
count checks.

xDSL's ``irdl_op_verify_arg_list`` first checks the number of operands (results)
against the definition through ``verify_variadic_size``, which looks for segment-size
options, collects the variadic definitions and counts the op's values for every op,
each time: 40% of verifying a 4000-op kernel (``benchmarks/bench_compile.py
--profile-ops``: verifying the input 17 µs per op). An op whose definition has no
variadic or optional operand (result) and no segment-size option needs only its
count compared, and each value's type given to its definition's constraint, in the
same order and with the same constraint context as xDSL. Anything else, and every
failure (so that the message is xDSL's, word for word), goes to xDSL's function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched

__all__ = ["plain_op_verification"]

_MARK = "xdsl_gpu_plain_op_verification"


def plain_op_verification() -> None:
    """Install the fast path in front of ``irdl_op_verify_arg_list``."""
    from xdsl.irdl import operations
    from xdsl.irdl.operations import (
        AttrSizedSegments,
        OptionalDef,
        VariadicDef,
        VarIRConstruct,
    )

    xdsl_verify: Callable[..., Any] | None = operations.__dict__.get(
        "irdl_op_verify_arg_list"
    )
    if not callable(xdsl_verify):
        raise XdslChangedError("xdsl.irdl.operations.irdl_op_verify_arg_list is gone")
    if is_patched(xdsl_verify, _MARK):
        return
    operand = VarIRConstruct.OPERAND
    # (id of the OpDef, construct) -> the constraints in order, or None when the
    # definition has variadic parts or segment sizes (xDSL's way). The OpDef is
    # kept alive beside its key so that its id is not reused.
    plain: dict[tuple[int, Any], tuple[object, tuple[Any, ...] | None]] = {}

    def constraints_of(op_def: Any, construct: Any) -> tuple[Any, ...] | None:
        key = (id(op_def), construct)
        known = plain.get(key)
        if known is None:
            defs = op_def.operands if construct == operand else op_def.results
            sized = any(isinstance(o, AttrSizedSegments) for o in op_def.options)
            variadic = any(isinstance(d, VariadicDef | OptionalDef) for _, d in defs)
            constrs = None if sized or variadic else tuple(d.constr for _, d in defs)
            known = plain[key] = (op_def, constrs)
        return known[1]

    def irdl_op_verify_arg_list(
        op: Any, op_def: Any, construct: Any, constraint_context: Any
    ) -> None:
        constrs = constraints_of(op_def, construct)
        if constrs is not None:
            values = op.operands if construct == operand else op.results
            if len(values) == len(constrs):
                sizes = _sizes(constraint_context)
                try:
                    for value, constr in zip(values, constrs, strict=True):
                        constr.verify((value.type,), constraint_context)
                except Exception:
                    # xDSL's function says what is wrong, as it words it, from the
                    # variables as they were.
                    _restore(constraint_context, sizes)
                else:
                    return
        xdsl_verify(op, op_def, construct, constraint_context)

    _mark(irdl_op_verify_arg_list, _MARK, xdsl_verify)
    operations.irdl_op_verify_arg_list = irdl_op_verify_arg_list


_VARIABLES = ("_variables", "_range_variables", "_int_variables")
"""The assignments of a ``VerificationContext`` (xDSL 0.74's fields). They only
grow: a variable once set is never reassigned (``set_*_variable`` raises on a
different value)."""


def _sizes(context: Any) -> tuple[int, ...]:
    try:
        return tuple(len(getattr(context, name)) for name in _VARIABLES)
    except AttributeError as error:
        raise XdslChangedError(f"VerificationContext changed: {error}") from error


def _restore(context: Any, sizes: tuple[int, ...]) -> None:
    """Forget the variables set since the context had ``sizes`` (dicts keep their
    insertion order: the newest are last)."""
    for name, size in zip(_VARIABLES, sizes, strict=True):
        assignments = getattr(context, name)
        for key in list(assignments)[size:]:
            del assignments[key]
