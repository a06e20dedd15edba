"""How the op-building and op-verifying fast paths of ``xdsl_gpu.compat`` behave:
the same ops, the same errors as xDSL's own functions (their gap tests are in
``test_patches.py``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from xdsl.dialects import llvm
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu import compat


def test_plain_op_verification_keeps_xdsls_answers() -> None:
    """With the fast path, every op verifies as with xDSL's function: the same ops
    pass, and the same messages come for wrong counts, wrong types and a type
    variable bound twice."""
    from xdsl.dialects import arith, memref, test
    from xdsl.dialects.builtin import IndexType, MemRefType, f32, f64, i32
    from xdsl.irdl import operations

    compat.plain_op_verification()
    a, b, i = test.TestOp(result_types=[f32, f64, IndexType()]).results
    n = test.TestOp(result_types=[i32]).res[0]
    m = test.TestOp(result_types=[MemRefType(f32, [4])]).res[0]

    def cases() -> list[Any]:
        few = arith.AddfOp(a, a)
        few.operands = [a]  # one operand for two
        many = arith.AddfOp(a, a)
        many.operands = [a, a, a]
        return [
            arith.AddfOp(a, a),  # fine
            arith.AddfOp(a, b),  # f32 and f64: the type variable says no
            arith.AddfOp(n, n),  # not a float
            arith.AddiOp(n, n),
            arith.AddiOp(a, a),
            few,
            many,
            llvm.AddOp(n, n),
            memref.LoadOp.get(m, [i]),  # variadic indices: xDSL's way
            memref.LoadOp.get(m, []),
        ]

    def outcomes() -> list[str]:
        said: list[str] = []
        for op in cases():
            try:
                op.verify()
                said.append("ok")
            except VerifyException as e:
                said.append(str(e))
        return said

    ours = outcomes()
    with mock.patch.object(
        operations,
        "irdl_op_verify_arg_list",
        compat.original(operations.irdl_op_verify_arg_list),
    ):
        theirs = outcomes()
    assert ours == theirs
    assert ours[0] == "ok"
    assert ours.count("ok") < len(ours) - 4  # the wrong ones were refused


def test_plain_ops_gap_parsed_and_llvm_ops() -> None:
    """xDSL's parser builds an op from a list of values and of types per
    definition (``[[%a], [%b]]``, ``[(f32,)]``), which its builder flattens, and
    xDSL's llvm arithmetic ops carry ``ParsePropInAttrDict``, an option for the
    parser alone: both took every parsed op, and every llvm op a conversion
    built, through xDSL's general builder."""
    from xdsl.dialects.builtin import f32
    from xdsl.irdl import operations
    from xdsl.irdl.operations import ParsePropInAttrDict

    from tests.support.xdsl_tools import parse

    seen: list[tuple[Any, Any]] = []
    init = operations.irdl_op_init

    def spy(self: Any, op_def: Any, **kwargs: Any) -> None:
        if self.name == "arith.addf":
            seen.append((kwargs["operands"], kwargs["result_types"]))
        init(self, op_def, **kwargs)

    with mock.patch.object(operations, "irdl_op_init", spy):
        parse("func.func @f(%a: f32) {\n  %x = arith.addf %a, %a : f32\n  return\n}")
    ((operands, result_types),) = seen
    assert [len(o) for o in operands] == [1, 1]
    assert [list(t) for t in result_types] == [[f32]]
    options = llvm.FAddOp.get_irdl_definition().options
    assert any(isinstance(o, ParsePropInAttrDict) for o in options)


def _op_parts(op: Operation) -> tuple[Any, ...]:
    return (
        type(op),
        tuple(op.operands),
        tuple(r.type for r in op.results),
        op.properties,
        op.attributes,
        tuple(op.successors),
        len(op.regions),
        tuple(len(r.blocks) for r in op.regions),
        tuple(type(o) for r in op.regions for b in r.blocks for o in b.ops),
    )


_BUILDER_FUNCTIONS = (
    "irdl_op_init",
    "irdl_build_arg_list",
    "irdl_build_operations_arg",
    "irdl_build_regions_arg",
)


@contextlib.contextmanager
def _with_xdsl_init() -> Iterator[None]:
    """xDSL's builder, all of it (its helpers are module globals)."""
    from xdsl.irdl import operations

    with contextlib.ExitStack() as stack:
        for name in _BUILDER_FUNCTIONS:
            function = getattr(operations, name)
            stack.enter_context(
                mock.patch.object(operations, name, compat.original(function))
            )
        assert not any(
            compat.is_patched(getattr(operations, n), "xdsl_gpu_plain_ops")
            for n in _BUILDER_FUNCTIONS
        )
        yield


def test_plain_ops_are_built_as_xdsl_builds_them() -> None:
    from xdsl.dialects import arith, cf, func, memref, scf, test
    from xdsl.dialects.builtin import (
        FunctionType,
        IndexType,
        MemRefType,
        StringAttr,
        f32,
        i32,
    )
    from xdsl.ir import Block, Region

    compat.plain_op_construction()
    source = test.TestOp(result_types=[f32, f32, IndexType()])
    a, b, i = source.results
    m = test.TestOp(result_types=[MemRefType(f32, [4])]).res[0]
    one_result = test.TestOp(result_types=[f32])
    condition = test.TestOp(result_types=[i32]).res[0]
    block = Block()

    def cases() -> list[Operation]:
        return [
            arith.AddfOp(a, b),  # plain: two operands, a result, a property
            arith.AddfOp(one_result, b),  # an op standing for its result
            arith.ConstantOp.from_int_and_width(3, i32),
            arith.CmpfOp(a, b, "olt"),
            memref.LoadOp.get(m, [i]),  # variadic indices: xDSL's way
            memref.StoreOp.get(a, m, [i]),
            cf.BranchOp(block, a),  # a successor and variadic operands
            test.TestOp(regions=[Region(Block())]),
            arith.SelectOp(condition, a, b),
            memref.AllocOp.get(f32, shape=[4]),  # segment sizes, empty variadics
            memref.AllocOp.get(f32, shape=[-1], dynamic_sizes=[i]),
            scf.IfOp(condition, [], [scf.YieldOp()], [scf.YieldOp()]),  # op lists
            scf.IfOp(condition, [], [scf.YieldOp()]),  # no else region
            test.TestOp(regions=[[Block(), Block()]]),  # a region of blocks
            func.CallOp("f", [a, one_result], [f32]),
            func.ReturnOp(a, b),
            # any iterable of operands or regions, as xDSL takes them
            arith.AddfOp.build(operands=(v for v in (a, b)), result_types=[f32]),
            # a list of one per definition, as xDSL's parser gives them
            arith.AddfOp.build(operands=([a], (b,)), result_types=((f32,),)),
            arith.AddfOp.build(operands=([one_result], [b]), result_types=[[f32]]),
            # an option that only the parser reads (ParsePropInAttrDict)
            llvm.FAddOp(a, b, llvm.FastMathAttr("fast")),
            llvm.FAddOp.build(operands=([a], [b]), result_types=[(f32,)]),
            func.FuncOp.build(
                properties={
                    "sym_name": StringAttr("f"),
                    "function_type": FunctionType.from_lists([], []),
                },
                regions=iter([Region(Block())]),
            ),
        ]

    fast = [_op_parts(op) for op in cases()]
    with _with_xdsl_init():
        slow = [_op_parts(op) for op in cases()]
    assert fast == slow


def test_plain_ops_report_xdsls_errors() -> None:
    """A wrong count or kind of argument still gets xDSL's own error."""
    from xdsl.dialects import arith, scf, test
    from xdsl.dialects.builtin import f32

    compat.plain_op_construction()
    a = test.TestOp(result_types=[f32]).res[0]
    messages: list[str] = []
    error = "(Expected|passed|Variadic|optional)"  # xDSL's builder errors
    for build in (
        lambda: arith.AddfOp.build(operands=[a], result_types=[f32]),
        lambda: arith.AddfOp.build(operands=[a, a, a], result_types=[f32]),
        lambda: arith.AddfOp.build(operands=[a, [a, a]], result_types=[f32]),
        lambda: arith.AddfOp.build(operands=[a, None], result_types=[f32]),
        lambda: arith.AddfOp.build(operands=[a, a], result_types=[f32, f32]),
        lambda: scf.IfOp.build(operands=[[a, a]], result_types=[[]]),
        lambda: arith.AddfOp.build(operands=[[a], []], result_types=[f32]),
        lambda: arith.AddfOp.build(operands=[[a], [a, a]], result_types=[f32]),
        lambda: arith.AddfOp.build(operands=[a, a], result_types=[[f32, f32]]),
    ):
        with pytest.raises(ValueError, match=error) as fast:
            build()
        with _with_xdsl_init(), pytest.raises(ValueError, match=error) as slow:
            build()
        assert str(fast.value) == str(slow.value)
        messages.append(str(fast.value))
    assert "Expected 2 operand" in messages[0]


def test_plain_ops_see_a_class_registered_later() -> None:
    """The answers per class of argument follow an ABC registration made after
    they were first given (a class that becomes a Sequence is a group of result
    types from then on)."""
    from collections.abc import Sequence

    from xdsl.dialects import test
    from xdsl.dialects.builtin import f32

    compat.plain_op_construction()

    class _Types:
        def __init__(self, *types: Any) -> None:
            self.types = types

        def __len__(self) -> int:
            return len(self.types)

        def __getitem__(self, i: int) -> Any:
            return self.types[i]

    before = test.TestOp(result_types=_Types(f32, f32))  # type: ignore[arg-type]
    assert len(before.results) == 1  # not a Sequence yet: one "type"
    Sequence.register(_Types)
    after = test.TestOp(result_types=_Types(f32, f32))  # type: ignore[arg-type]
    with _with_xdsl_init():
        xdsl_after = test.TestOp(result_types=_Types(f32, f32))  # type: ignore[arg-type]
    assert [r.type for r in after.results] == [f32, f32]
    assert [r.type for r in xdsl_after.results] == [f32, f32]
