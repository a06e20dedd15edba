"""Verifying an op for less than xDSL's general machinery costs, with xDSL's
answers.

``plain_op_verification``: xDSL's ``irdl_op_verify_arg_list`` first checks the number of operands (results)
against the definition through ``verify_variadic_size``, which looks for segment-size
options, collects the variadic definitions and counts the op's values for every op,
each time: 40% of verifying a 4000-op kernel (``benchmarks/bench_compile.py
--profile-ops``: verifying the input 17 µs per op). An op whose definition has no
variadic or optional operand (result) and no segment-size option needs only its
count compared, and each value's type given to its definition's constraint, in the
same order and with the same constraint context as xDSL. Anything else, and every
failure (so that the message is xDSL's, word for word), goes to xDSL's function.

``remembered_op_constraints``: what ``OpDef.verify`` checks before the traits
(operands, results, regions, successors, properties, attributes against IRDL
constraints) depends, for an op without regions and successors, only on the
definition and on the op's operand types, result types, properties and attributes:
the constraints see attributes and a fresh context, nothing else. A large kernel
repeats a few such combinations thousands of times; each one that passed is
remembered and not checked again. The traits (and the op's own ``verify_``) still
run every time: they may look at the IR around the op.

``linear_isolation_check``: xDSL's ``IsolatedFromAbove.verify`` asks, for each
operand of each op inside, whether the isolated op is an ancestor of its definition
(a walk up the parents, per operand). The blocks inside are collected once instead,
and a definition in one of them is inside; anything else goes to xDSL's check, which
finds and words the error.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched, original

__all__ = [
    "linear_isolation_check",
    "plain_op_verification",
    "remembered_op_constraints",
]

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


_REMEMBERED = "xdsl_gpu_remembered_op_constraints"
REMEMBERED_LIMIT = 4096
"""Combinations remembered at most; past it, all are forgotten (a pass that builds
many distinct ones does not grow the memory without bound)."""


def remembered_op_constraints() -> None:
    """Install the memory of passed constraint checks in front of ``OpDef.verify``."""
    from xdsl.ir import Operation
    from xdsl.irdl.operations import OpDef

    xdsl_verify: Callable[..., Any] | None = OpDef.__dict__.get("verify")
    if not callable(xdsl_verify):
        raise XdslChangedError("xdsl.irdl.operations.OpDef.verify is gone")
    if is_patched(xdsl_verify, _REMEMBERED):
        return
    # A hit runs the traits alone: that is the end of xDSL's function, after the
    # constraints, and it must still be.
    code = getattr(original(xdsl_verify), "__code__", None)
    expected = {
        "VerificationContext",
        "irdl_op_verify_arg_list",
        "irdl_op_verify_regions",
        "verify_variadic_size",
        "properties",
        "attributes",
        "traits",
    }
    if (
        code is None
        or not expected <= set(code.co_names)
        or any(not hasattr(Operation, field) for field in ("_operands", "_successors"))
    ):
        raise XdslChangedError(
            "OpDef.verify no longer checks the constraints, then the traits"
        )
    # id of the OpDef -> (the OpDef, kept alive so that its id is not reused; the
    # combinations that passed).
    passed: dict[int, tuple[object, set[tuple[Any, ...]]]] = {}
    size = [0]

    def verify(self: Any, op: Any) -> None:
        if op.regions or op._successors:
            xdsl_verify(self, op)
            return
        key = (
            tuple([v.type for v in op._operands]),
            tuple([r.type for r in op.results]),
            tuple(op.properties.items()),
            tuple(op.attributes.items()),
        )
        known = passed.get(id(self))
        if known is not None:
            try:
                hit = key in known[1]
            except Exception:  # an unhashable attribute: xDSL's way, not remembered
                xdsl_verify(self, op)
                return
            if hit:
                for trait in self.traits:
                    trait.verify(op)
                return
        xdsl_verify(self, op)
        try:
            hash(key)
        except Exception:
            return
        if size[0] >= REMEMBERED_LIMIT:
            passed.clear()
            size[0] = 0
            known = None
        if known is None:
            known = passed[id(self)] = (self, set())
        known[1].add(key)
        size[0] += 1

    _mark(verify, _REMEMBERED, xdsl_verify)
    OpDef.verify = verify  # type: ignore[method-assign]


_LINEAR = "xdsl_gpu_linear_isolation_check"


def linear_isolation_check() -> None:
    """Install the check by blocks in front of ``IsolatedFromAbove.verify``."""
    from xdsl.ir import BlockArgument, OpResult
    from xdsl.traits import IsolatedFromAbove

    xdsl_verify: Callable[..., Any] | None = IsolatedFromAbove.__dict__.get("verify")
    if not callable(xdsl_verify):
        raise XdslChangedError("xdsl.traits.IsolatedFromAbove.verify is gone")
    if is_patched(xdsl_verify, _LINEAR):
        return
    code = getattr(original(xdsl_verify), "__code__", None)
    if code is None or not {"is_ancestor", "has_trait", "operands"} <= set(
        code.co_names
    ):
        raise XdslChangedError(
            "IsolatedFromAbove.verify no longer asks is_ancestor per operand"
        )
    # op class -> whether it is IsolatedFromAbove (xDSL's has_trait is a classmethod:
    # one answer per class).
    isolated: dict[type, bool] = {}

    def is_isolated(op: Any) -> bool:
        cls = type(op)
        answer = isolated.get(cls)
        if answer is None:
            if not isinstance(inspect.getattr_static(cls, "has_trait"), classmethod):
                return op.has_trait(IsolatedFromAbove)
            answer = isolated[cls] = cls.has_trait(IsolatedFromAbove)
        return answer

    def defined_inside(op: Any) -> bool:
        """Whether every operand of every op that xDSL's check looks at is defined
        in a block inside ``op`` (each such block is then linked to ``op`` through
        its parents, as ``is_ancestor`` walks them)."""
        blocks: set[Any] = set()
        ops: list[Any] = []
        regions = [(r, op) for r in op.regions]
        while regions:
            region, parent = regions.pop()
            if region.parent is not parent:
                return False
            for block in region.blocks:
                if block.parent is not region:
                    return False
                blocks.add(block)
                for child in block.ops:
                    ops.append(child)
                    if child.regions and not is_isolated(child):
                        if child.parent is not block:
                            return False
                        regions += [(r, child) for r in child.regions]
        for child in ops:
            for value in child._operands:
                kind = type(value)
                if kind is OpResult:
                    if value.op is op:  # xDSL refuses the op's own results
                        return False
                    defining = value.op.parent
                elif kind is BlockArgument:
                    defining = value.block
                else:
                    return False
                if defining not in blocks:
                    return False
        return True

    def verify(self: Any, op: Any) -> None:
        if not defined_inside(op):
            xdsl_verify(self, op)

    _mark(verify, _LINEAR, xdsl_verify)
    IsolatedFromAbove.verify = verify  # type: ignore[method-assign]
