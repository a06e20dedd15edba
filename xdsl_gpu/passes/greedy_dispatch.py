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
the applier an op it would leave alone: no pattern or folder for its class, and a
result in use (so not trivially dead). Same worklist, same order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.folder import Folder
from xdsl.ir import Operation
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
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from xdsl_gpu.passes.llvm_type_converter import acted_on, acted_on_names, may_act

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

    _by_class: dict[type[Operation], tuple[bool, list[RewritePattern]]] = field(
        default_factory=dict[type[Operation], tuple[bool, list[RewritePattern]]],
        init=False,
    )

    def _of(self, kind: type[Operation]) -> tuple[bool, list[RewritePattern]]:
        found = self._by_class.get(kind)
        if found is None:
            foldable = (
                self.folding_enabled
                and kind.has_trait(HasFolder, value_if_unregistered=False)
                and not kind.has_trait(ConstantLike, value_if_unregistered=True)
            )
            patterns = [p for p in self.rewrite_patterns if may_act_on_class(p, kind)]
            found = self._by_class[kind] = (foldable, patterns)
        return found

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if self.dce_enabled and is_trivially_dead(op):
            rewriter.erase(op)
            return
        foldable, patterns = self._of(type(op))
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

    def _process_worklist(self, listener: PatternRewriterListener) -> bool:
        applier = self.pattern
        if not isinstance(applier, DispatchingApplier):
            return super()._process_worklist(listener)
        worklist = self._worklist
        done = False
        rewriter: PatternRewriter | None = None
        while worklist:
            op = worklist.pop()
            foldable, patterns = applier._of(type(op))  # pyright: ignore[reportPrivateUsage]
            if (
                not foldable
                and not patterns
                and (
                    not applier.dce_enabled
                    or any(r.first_use is not None for r in op.results)
                )
            ):
                continue  # nothing could fold, match or erase it
            if rewriter is None:
                rewriter = PatternRewriter(op)
                rewriter.extend_from_listener(listener)
            rewriter.has_done_action = False
            rewriter.current_operation = op
            rewriter.insertion_point = InsertPoint.before(op)
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
