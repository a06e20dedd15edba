"""``convert-scf-to-cf``: structured control flow to ``cf`` branches, as MLIR 22 does.

Upstream: ``mlir/lib/Conversion/SCFToControlFlow/SCFToControlFlow.cpp``.

xDSL's pass of the same name lowers ``scf.for``, ``scf.if`` and ``scf.index_switch``
(its patterns are reused here) but leaves ``scf.while``, ``scf.execute_region`` and
``scf.parallel`` in place, so a ``while`` loop never reaches the llvm dialect. This pass
takes its place (``xdsl_gpu/passes/registration.py``) and adds, like upstream:

* ``scf.while``: the "before" region becomes the loop header, ``scf.condition``
  a ``cf.cond_br`` to the "after" region or out of the loop, the "after" region's
  ``scf.yield`` a branch back to the header; the results are the condition's
  operands;
* ``scf.execute_region``: its blocks are inlined, ``scf.yield`` branches to the
  continuation, whose arguments are the results;
* ``scf.parallel`` (without reductions): a nest of ``scf.for`` loops, then lowered as
  such. One with reductions stops the pass with a diagnostic.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.cf import BranchOp, ConditionalBranchOp
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering, SwitchLowering

from xdsl_gpu.passes.greedy_dispatch import DispatchingApplier, DispatchingWalker
from xdsl_gpu.passes.ir_walk import preorder
from xdsl_gpu.passes.llvm_type_converter import conversion_error
from xdsl_gpu.passes.options import UpstreamOptions

PASS_NAME = "convert-scf-to-cf"


def _split_before(op: Operation) -> tuple[Block, Block]:
    """The block of ``op`` and a new block holding ``op`` and everything after it."""
    block = op.parent_block()
    assert block is not None
    return block, block.split_before(op)


class WhileLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter, /) -> None:
        current, continuation = _split_before(op)
        before = op.before_region.block
        after = op.after_region.block
        condition = before.last_op
        yield_op = after.last_op
        assert isinstance(condition, scf.ConditionOp)
        assert isinstance(yield_op, scf.YieldOp)
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(continuation))
        rewriter.inline_region(op.before_region, BlockInsertPoint.before(after))
        rewriter.insert(BranchOp(before, *op.arguments), InsertPoint.at_end(current))
        results = tuple(condition.args)
        rewriter.replace(
            condition,
            ConditionalBranchOp(condition.condition, after, results, continuation, ()),
            [],
        )
        rewriter.replace(yield_op, BranchOp(before, *yield_op.arguments), [])
        # The condition's operands are defined in the header, which dominates the
        # continuation: they are the loop's results.
        rewriter.replace(op, [], results)


class ExecuteRegionLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: scf.ExecuteRegionOp, rewriter: PatternRewriter, /
    ) -> None:
        current, remainder = _split_before(op)
        continuation = Block(arg_types=op.result_types)
        region = remainder.parent_region()
        assert region is not None
        region.insert_block_before(continuation, remainder)
        rewriter.insert(BranchOp(remainder), InsertPoint.at_end(continuation))
        entry = op.region.first_block
        assert entry is not None
        for block in op.region.blocks:
            terminator = block.last_op
            if isinstance(terminator, scf.YieldOp):
                rewriter.replace(
                    terminator, BranchOp(continuation, *terminator.arguments), []
                )
        rewriter.inline_region(op.region, BlockInsertPoint.before(continuation))
        rewriter.insert(BranchOp(entry), InsertPoint.at_end(current))
        rewriter.replace(op, [], continuation.args)


class ParallelLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ParallelOp, rewriter: PatternRewriter, /):
        body = op.body.block
        terminator = body.last_op
        assert isinstance(terminator, scf.ReduceOp)
        rewriter.erase(terminator)
        ivs = list(body.args)
        # Innermost loop first: it takes the parallel body.
        loop: Operation | None = None
        for dim in reversed(range(len(ivs))):
            block = Block(arg_types=[ivs[dim].type])
            if loop is None:
                ivs[dim].replace_all_uses_with(block.args[0])
                for moved in list(body.ops):
                    moved.detach()
                    block.add_op(moved)
            else:
                ivs[dim].replace_all_uses_with(block.args[0])
                block.add_op(loop)
            block.add_op(scf.YieldOp())
            loop = scf.ForOp(
                op.lowerBound[dim], op.upperBound[dim], op.step[dim], [], Region(block)
            )
        assert loop is not None
        rewriter.replace(op, loop, [])


@dataclass(frozen=True)
class ConvertScfToCfPass(UpstreamOptions, ModulePass):
    """Lower ``scf`` to ``cf`` (see the module docstring).

    Options:
      allow-pattern-rollback: upstream's dialect-conversion switch (default true);
        accepted for command-line compatibility. The lowering here never rolls a
        pattern back, so both values give the same output.
    """

    name = "convert-scf-to-cf"

    allow_pattern_rollback: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for parallel in preorder(op):
            if isinstance(parallel, scf.ParallelOp) and parallel.initVals:
                raise conversion_error(
                    PASS_NAME,
                    parallel,
                    "with reductions is not lowered by xdsl-gpu yet (upstream carries "
                    "them through the loop nest); accumulate in an scf.for instead",
                )
        DispatchingWalker(
            DispatchingApplier(
                [
                    ParallelLowering(),
                    SwitchLowering(),
                    IfLowering(),
                    ForLowering(),
                    WhileLowering(),
                    ExecuteRegionLowering(),
                ],
                dce_enabled=False,
            )
        ).rewrite_module(op)
