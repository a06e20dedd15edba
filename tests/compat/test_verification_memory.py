"""How ``compat.remembered_op_constraints`` and ``compat.linear_isolation_check``
behave: the same ops pass and the same errors come, word for word, as with xDSL's
own ``OpDef.verify`` and ``IsolatedFromAbove.verify`` (their gap tests are in
``test_patches.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from xdsl.dialects import arith, func, test
from xdsl.dialects.builtin import (
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    f32,
    f64,
    i32,
)
from xdsl.ir import Block, Operation, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operations,
    region_def,
    result_def,
    traits_def,
)
from xdsl.irdl.operations import OpDef
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu import compat
from xdsl_gpu.compat import op_verification

compat.plain_op_verification()
compat.remembered_op_constraints()
compat.linear_isolation_check()


def _outcomes(ops: list[Operation], check: Callable[[Operation], None]) -> list[str]:
    said: list[str] = []
    for op in ops:
        try:
            check(op)
            said.append("ok")
        except VerifyException as e:
            said.append(str(e))
    return said


@contextmanager
def _xdsls(owner: Any, name: str) -> Iterator[None]:
    """xDSL's own function in place of ours."""
    with mock.patch.object(owner, name, compat.original(getattr(owner, name))):
        yield


@contextmanager
def _counting_constraint_checks() -> Iterator[list[int]]:
    """The times OpDef.verify checks an op's operands or results (xDSL's function
    calls the module's global)."""
    counted: list[int] = []
    checks = operations.irdl_op_verify_arg_list

    def counting(*args: Any) -> None:
        counted.append(1)
        checks(*args)

    with mock.patch.object(operations, "irdl_op_verify_arg_list", counting):
        yield counted


def _constraint_cases() -> list[Operation]:
    a, b = test.TestOp(result_types=[f32, f64]).results
    n = test.TestOp(result_types=[i32]).res[0]
    few = arith.AddfOp(a, a)
    few.operands = [a]
    no_value = arith.ConstantOp(FloatAttr(1.0, f32))
    del no_value.properties["value"]
    extra = arith.ConstantOp(FloatAttr(1.0, f32))
    extra.properties["other"] = f32
    unhashable = arith.AddfOp(a, a)
    unhashable.attributes["d"] = DictionaryAttr({"x": f32})
    # The value's type is not the result's (the op's own verify_ says so).
    wrong_type = arith.ConstantOp.create(
        properties={"value": FloatAttr(1.0, f32)}, result_types=[f64]
    )
    mixed_compare = arith.CmpfOp(a, a, "olt")
    mixed_compare.operands = [a, b]
    return [
        arith.AddfOp(a, a),
        arith.AddfOp(a, b),
        arith.AddfOp(n, n),
        few,
        arith.ConstantOp(FloatAttr(0.0, f32)),
        arith.ConstantOp(FloatAttr(-0.0, f32)),
        arith.ConstantOp(FloatAttr(float("nan"), f32)),
        arith.ConstantOp(IntegerAttr(1, i32)),
        no_value,
        extra,
        unhashable,
        wrong_type,
        arith.CmpfOp(a, a, "olt"),
        mixed_compare,
    ]


def test_remembered_constraints_keep_xdsls_answers() -> None:
    """Valid and invalid ops of the same definitions, verified twice (the second
    time, those that passed are remembered): every answer as xDSL's."""

    def verify_twice(op: Operation) -> None:
        op.verify()
        op.verify()

    ours = _outcomes(_constraint_cases(), verify_twice)
    again = _outcomes(_constraint_cases(), Operation.verify)
    with _xdsls(OpDef, "verify"):
        theirs = _outcomes(_constraint_cases(), Operation.verify)
    assert ours == theirs == again
    assert ours[0] == "ok"
    assert ours.count("ok") <= len(ours) - 6  # the wrong ones were refused


def test_a_remembered_op_is_not_checked_again_but_its_traits_are() -> None:
    """The second op of a combination that passed skips the constraints; its traits
    still run (func.return must be in a func.func, whatever its types)."""
    a = test.TestOp(result_types=[f32]).res[0]
    arith.AddfOp(a, a).verify()
    with _counting_constraint_checks() as counted:
        arith.AddfOp(a, a).verify()
    assert counted == []

    inside = func.ReturnOp()
    func.FuncOp("f", ((), ()), Region(Block([inside])))
    inside.verify()
    outside = func.ReturnOp()
    test.TestOp(regions=[Region(Block([outside]))])
    ours = _outcomes([outside], Operation.verify)
    with _xdsls(OpDef, "verify"):
        theirs = _outcomes([outside], Operation.verify)
    assert ours == theirs
    assert "expects parent op" in ours[0]


def test_signed_zeros_are_different_combinations() -> None:
    """-0.0 is not remembered as 0.0 (xDSL's FloatData compares bits)."""

    def constant(value: float) -> Operation:
        op = arith.ConstantOp(FloatAttr(value, f32))
        op.attributes["tag"] = StringAttr("signed zeros")  # unseen in other tests
        return op

    constant(0.0).verify()
    with _counting_constraint_checks() as counted:
        constant(0.0).verify()
    assert counted == []
    with _counting_constraint_checks() as counted:
        constant(-0.0).verify()
    assert counted


def test_the_memory_is_bounded() -> None:
    """Past the limit, what was remembered is forgotten and checked again."""
    a = test.TestOp(result_types=[f32]).res[0]
    with mock.patch.object(op_verification, "REMEMBERED_LIMIT", 2):

        def tagged(tag: str) -> Operation:
            op = arith.AddfOp(a, a)
            op.attributes["tag"] = StringAttr(tag)
            return op

        first = tagged("first")
        first.verify()
        for tag in ("second", "third"):
            tagged(tag).verify()
        with _counting_constraint_checks() as counted:
            first.verify()
    assert counted


@irdl_op_definition
class _IsolatedOp(IRDLOperation):
    """An isolated op with a result and a region, for the tests below."""

    name = "test.isolated_with_result"
    res = result_def()
    body = region_def()
    traits = traits_def(IsolatedFromAbove())


def _isolation_cases() -> list[Operation]:
    """Isolated ops, most of them with values used across their boundary."""
    cases: list[Operation] = []

    def user(uses: list[Any], which: str) -> test.TestOp:
        # Named, so that the message tells which op was reported.
        return test.TestOp(operands=uses, attributes={"which": StringAttr(which)})

    def nested(uses: list[Any], which: str) -> test.TestOp:
        return test.TestOp(regions=[Region(Block([user(uses, which)]))])

    # Fine: values from inside, through a nested region and block arguments.
    block = Block(arg_types=[f32])
    inner = test.TestOp(result_types=[f32])
    block.add_ops([inner, nested([inner.res[0], block.args[0]], "fine")])
    cases.append(ModuleOp(Region(block)))

    # A value from outside, deep inside, and another one nearer the top.
    outside = test.TestOp(result_types=[f32, f32])
    deep = test.TestOp(result_types=[f32])
    body = Block([deep, nested([deep.res[0], outside.res[0]], "deep")])
    body.add_op(user([outside.res[1]], "top"))
    cases.append(ModuleOp(Region(body)))

    # The isolated op's own result used inside.
    own = _IsolatedOp.create(result_types=[f32], regions=[Region(Block())])
    own.body.block.add_op(user([own.res], "own result"))
    cases.append(own)

    # A nested isolated op with a value from outside: not ours to check (it checks
    # itself), the value of a nested isolated op's body used after it (no
    # dominance check in xDSL), and a violation of ours after them.
    hidden = test.TestOp(result_types=[f32])
    nested_isolated = ModuleOp([hidden, user([outside.res[0]], "nested")])
    after = user([hidden.res[0]], "after")
    cases.append(ModuleOp([nested_isolated, after]))
    hidden = test.TestOp(result_types=[f32])
    cases.append(
        ModuleOp(
            [
                ModuleOp([hidden, user([outside.res[0]], "nested")]),
                user([hidden.res[0]], "after"),
                user([outside.res[1]], "ours"),
            ]
        )
    )

    # A use of a value whose op is in no block.
    cases.append(ModuleOp([user([test.TestOp(result_types=[f32]).res[0]], "loose")]))
    return cases


def _check_isolation(op: Operation) -> None:
    IsolatedFromAbove().verify(op)


def test_linear_isolation_check_keeps_xdsls_answers() -> None:
    """Each isolated op passes or fails as with xDSL's check, with its message for the
    op it reports first."""
    ours = _outcomes(_isolation_cases(), _check_isolation)
    with _xdsls(IsolatedFromAbove, "verify"):
        theirs = _outcomes(_isolation_cases(), _check_isolation)
    assert ours == theirs
    assert ours[0] == "ok"
    assert ours[3] == "ok"  # a nested isolated op's violation is its own
    assert '"ours"' in ours[4]
    assert sum(said != "ok" for said in ours) == 4
    assert all("IsolatedFromAbove parent" in s for s in ours if s != "ok")


def test_linear_isolation_check_walks_no_parents_for_values_inside() -> None:
    """A valid isolated op is checked without one ``is_ancestor`` per operand."""
    calls: list[int] = []
    is_ancestor = Operation.is_ancestor

    def counting(self: Operation, other: Any) -> bool:
        calls.append(1)
        return is_ancestor(self, other)

    module = _isolation_cases()[0]
    with mock.patch.object(Operation, "is_ancestor", counting):
        _check_isolation(module)
    assert calls == []
    with (
        _xdsls(IsolatedFromAbove, "verify"),
        mock.patch.object(Operation, "is_ancestor", counting),
    ):
        _check_isolation(module)
    assert len(calls) == 2  # xDSL's: one per operand
