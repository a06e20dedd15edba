"""``greedy_dispatch``: xDSL's greedy walker and applier, trying on each op only
what may act on its class; the same IR as xDSL's classes leave, the same worklist
order, the same walks."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, Region
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.dead_code_elimination import RemoveUnusedOperations
from xdsl.transforms.dead_code_elimination import region_dce as xdsl_region_dce

from tests.support.xdsl_tools import make_context, parse, print_module
from xdsl_gpu.passes import greedy_dispatch
from xdsl_gpu.passes.greedy_dispatch import (
    DispatchingApplier,
    DispatchingWalker,
    may_act_on_class,
)
from xdsl_gpu.passes.ir_walk import postorder, preorder
from xdsl_gpu.passes.llvm_folds import FoldExtractValue, FoldGEP
from xdsl_gpu.passes.region_liveness import region_dce

PostWalk = Callable[[Region, PatternRewriterListener], bool]

PROGRAM = """
module {
  func.func @f(%p: i1, %a: i32, %m: memref<4xi32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %five = arith.addi %c2, %c3 : i32
    %x = arith.muli %a, %five : i32
    %zero = arith.subi %x, %x : i32
    %dead = arith.addi %x, %a : i32
    %r = scf.if %p -> (i32) {
      %inner = arith.addi %x, %zero : i32
      memref.store %inner, %m[%c0] : memref<4xi32>
      scf.yield %inner : i32
    } else {
      scf.yield %x : i32
    }
    %same = arith.select %p, %r, %r : i32
    func.return %same : i32
  }
}
"""


def _canonicalize(ours: bool, post_walk: PostWalk = xdsl_region_dce) -> ModuleOp:
    module = parse(PROGRAM)
    patterns: list[RewritePattern] = [
        CanonicalizationRewritePattern(),
        FoldExtractValue(),
        FoldGEP(),
    ]
    ctx = make_context()
    if ours:
        DispatchingWalker(
            DispatchingApplier(patterns, ctx=ctx, folding_enabled=True),
            post_walk_func=post_walk,
        ).rewrite_module(module)
    else:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(patterns, ctx=ctx, folding_enabled=True),
            post_walk_func=post_walk,
        ).rewrite_module(module)
    return module


def test_canonicalize_as_xdsls() -> None:
    ours, theirs = _canonicalize(True), _canonicalize(False)
    assert print_module(ours) == print_module(theirs)
    assert print_module(ours) != print_module(parse(PROGRAM))  # it did something


def test_region_dce_not_run_again_on_what_it_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a round whose walk changed nothing, our region_dce (which would find
    nothing) is left out; the result is xDSL's walker's with it."""
    calls: list[bool] = []

    def counted(
        region: Region, listener: PatternRewriterListener | None = None
    ) -> bool:
        changed = region_dce(region, listener)
        calls.append(changed)
        return changed

    theirs = _canonicalize(False, counted)
    their_calls = list(calls)
    calls.clear()
    monkeypatch.setattr(greedy_dispatch, "region_dce", counted)
    ours = _canonicalize(True, counted)
    assert print_module(ours) == print_module(theirs)
    assert their_calls[-1] is False  # xDSL's last call finds nothing
    assert len(calls) == len(their_calls) - 1


def test_dead_code_walk_as_xdsls() -> None:
    ours, theirs = parse(PROGRAM), parse(PROGRAM)
    DispatchingWalker(
        DispatchingApplier([RemoveUnusedOperations()], dce_enabled=False),
        apply_recursively=True,
        walk_reverse=True,
    ).rewrite_module(ours)
    PatternRewriteWalker(
        RemoveUnusedOperations(), apply_recursively=True, walk_reverse=True
    ).rewrite_module(theirs)
    assert print_module(ours) == print_module(theirs)
    assert "%dead" not in print_module(ours)


@pytest.mark.parametrize("walk_reverse", [False, True])
def test_the_worklist_is_filled_as_xdsls(walk_reverse: bool) -> None:
    module = parse(PROGRAM)
    ours = DispatchingWalker(DispatchingApplier([]), walk_reverse=walk_reverse)
    theirs = PatternRewriteWalker(
        GreedyRewritePatternApplier([]), walk_reverse=walk_reverse
    )
    for root in (module.body, module):
        ours._populate_worklist(root)  # pyright: ignore[reportPrivateUsage]
        theirs._populate_worklist(root)  # pyright: ignore[reportPrivateUsage]
        popped: list[tuple[Operation, Operation]] = []
        while theirs._worklist:  # pyright: ignore[reportPrivateUsage]
            popped.append((ours._worklist.pop(), theirs._worklist.pop()))  # pyright: ignore[reportPrivateUsage]
        assert not ours._worklist  # pyright: ignore[reportPrivateUsage]
        assert all(a is b for a, b in popped)
        assert len(popped) >= 15


def test_walk_lists_are_xdsls() -> None:
    module = parse(PROGRAM)
    assert preorder(module) == list(module.walk())
    assert postorder(module) == list(module.walk(region_first=True))


def test_patterns_by_class() -> None:
    from xdsl.dialects import arith, llvm, scf

    canonicalization = CanonicalizationRewritePattern()
    assert may_act_on_class(canonicalization, scf.IfOp)
    assert not may_act_on_class(canonicalization, llvm.FAddOp)
    assert may_act_on_class(FoldGEP(), llvm.GEPOp)
    assert not may_act_on_class(FoldGEP(), arith.AddiOp)

    class Anything(RewritePattern):
        def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
            pass

    assert may_act_on_class(Anything(), arith.AddiOp)
