"""xDSL's greedy pattern applier, asking once per class of op what could apply.

``GreedyRewritePatternApplier`` (under ``PatternRewriteWalker``: ``canonicalize``,
``expand-strided-metadata``, ``convert-scf-to-cf``) erases a trivially dead op, else
folds it if its class has a folder, else tries every pattern on it in turn. Most
ops of a large kernel meet none of them: ``expand-strided-metadata`` tried its 12
patterns on each of 4000 ``arith`` ops, twice, each answering with an
``isinstance``. :class:`DispatchingApplier` does the same in the same order, but
tries on an op only the patterns that may act on its class (what a pattern says
it acts on: ``llvm_type_converter.acted_on``/``acted_on_names``; xDSL's
canonicalization pattern acts on classes with canonicalization patterns), and
looks up the folder traits once per class. Every op meets the same rewrites as
before, so the output is the same.

:class:`DispatchingWalker` is xDSL's ``PatternRewriteWalker`` that does not hand
the applier an op it would leave alone: no folder for its class, no pattern but
xDSL's ``RemoveUnusedOperations``, and a result in use (so not trivially dead).
The same worklist in the same order, filled from a list of the ops (``ir_walk``)
instead of xDSL's generators, and keeping its ops by ``id``
(``compat/op_worklist.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.folder import Folder
from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import ConstantLike, HasCanonicalizationPatternsTrait, HasFolder
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.dead_code_elimination import (
    RemoveUnusedOperations,
    is_trivially_dead,
)
from xdsl.utils.worklist import Worklist

from xdsl_gpu.compat.op_worklist import OpWorklist
from xdsl_gpu.passes.ir_walk import postorder, preorder
from xdsl_gpu.passes.llvm_type_converter import acted_on, acted_on_names, may_act
from xdsl_gpu.passes.region_liveness import region_dce

__all__ = ["DispatchingApplier", "DispatchingWalker", "may_act_on_class"]


def may_act_on_class(pattern: RewritePattern, kind: type[Operation]) -> bool:
    """Whether ``pattern`` may rewrite an op of class ``kind`` (False only where
    it cannot)."""
    if type(pattern) is CanonicalizationRewritePattern:
        # It looks the patterns up in the class's traits.
        return bool(kind.get_traits_of_type(HasCanonicalizationPatternsTrait))
    return may_act(kind, acted_on(pattern), acted_on_names(pattern))


@dataclass(eq=False, repr=False)
class DispatchingApplier(GreedyRewritePatternApplier):
    """``GreedyRewritePatternApplier`` with the patterns and the folder of each
    class of op looked up once (module docstring)."""

    _by_class: dict[type[Operation], tuple[bool, list[RewritePattern], bool]] = field(
        default_factory=dict[type[Operation], tuple[bool, list[RewritePattern], bool]],
        init=False,
    )

    def _of(self, kind: type[Operation]) -> tuple[bool, list[RewritePattern], bool]:
        """Whether ops of ``kind`` may fold, the patterns that may act on them,
        and whether those only erase dead ops."""
        found = self._by_class.get(kind)
        if found is None:
            foldable = (
                self.folding_enabled
                and kind.has_trait(HasFolder, value_if_unregistered=False)
                and not kind.has_trait(ConstantLike, value_if_unregistered=True)
            )
            patterns = [p for p in self.rewrite_patterns if may_act_on_class(p, kind)]
            dead_only = all(type(p) is RemoveUnusedOperations for p in patterns)
            found = self._by_class[kind] = (foldable, patterns, dead_only)
        return found

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if self.dce_enabled and is_trivially_dead(op):
            rewriter.erase(op)
            return
        foldable, patterns, _ = self._of(type(op))
        if foldable:
            if self.ctx is None:
                raise ValueError("Context is required for folding")
            folded = Folder(self.ctx).try_fold(op)
            if folded is not None:
                folded_values, folded_ops = folded
                rewriter.replace(op, new_ops=folded_ops, new_results=folded_values)
                return
        for pattern in patterns:
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return


@dataclass(eq=False, repr=False)
class DispatchingWalker(PatternRewriteWalker):
    """``PatternRewriteWalker`` over a :class:`DispatchingApplier` that skips the
    ops the applier would leave alone (module docstring)."""

    _worklist: Worklist[Operation] = field(default_factory=OpWorklist, init=False)

    def rewrite_region(self, region: Region) -> bool:
        """xDSL's rounds (walk, then ``post_walk_func``, again while either changed
        something), except that ``region_liveness.region_dce`` is not run again
        after a round whose walk changed nothing: the IR is then what its last run
        left, where it finds nothing (what it keeps is live, so stays live)."""
        listener = self._get_rewriter_listener()
        post_walk = self.post_walk_func
        self._populate_worklist(region)
        modified = self._process_worklist(listener)
        if post_walk is not None:
            modified |= post_walk(region, listener)
        if not self.apply_recursively:
            return modified
        result = modified
        while modified:
            self._populate_worklist(region)
            modified = self._process_worklist(listener)
            if post_walk is not None and (modified or post_walk is not region_dce):
                modified |= post_walk(region, listener)
        return result

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        if self.walk_regions_first:
            super()._populate_worklist(op)
            return
        # xDSL's order: the pre-order reversed (a reverse walk, regions first), or
        # with walk_reverse the post-order (a walk, regions first).
        found: list[Operation] = []
        if isinstance(op, Operation):
            if self.walk_reverse:
                found = postorder(op)
            else:
                found = preorder(op)
                found.reverse()
        else:
            for block in op.blocks if isinstance(op, Region) else (op,):
                inner = block.first_op
                while inner is not None:
                    found.extend(
                        postorder(inner) if self.walk_reverse else preorder(inner)
                    )
                    inner = inner.next_op
            if not self.walk_reverse:
                found.reverse()
        push = self._worklist.push
        for each in found:
            push(each)

    def _process_worklist(self, listener: PatternRewriterListener) -> bool:
        applier = self.pattern
        if not isinstance(applier, DispatchingApplier):
            return super()._process_worklist(listener)
        worklist = self._worklist
        done = False
        rewriter: PatternRewriter | None = None
        while worklist:
            op = worklist.pop()
            foldable, patterns, dead_only = applier._of(type(op))  # pyright: ignore[reportPrivateUsage]
            if not foldable and dead_only:
                if not patterns and not applier.dce_enabled:
                    continue
                # Only the erasure of a trivially dead op could act.
                results = op.results
                if len(results) == 1:
                    if results[0].first_use is not None:
                        continue  # nothing could fold, match or erase it
                elif any(r.first_use is not None for r in results):
                    continue
            if rewriter is None:
                rewriter = PatternRewriter(op)
                rewriter.extend_from_listener(listener)
            rewriter.has_done_action = False
            rewriter.current_operation = op
            rewriter.insertion_point = InsertPoint.before(op)
            if rewriter.name_hint is not None:  # its setter checks the name
                rewriter.name_hint = None
            try:
                applier.match_and_rewrite(op, rewriter)
            except Exception as err:
                op.emit_error(
                    f"Error while applying pattern: {err}",
                    underlying_error=err,
                )
            done |= rewriter.has_done_action
        return done
