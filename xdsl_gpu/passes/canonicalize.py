"""``canonicalize``: xDSL's, after the constant uniquing that MLIR's greedy driver
does first (:func:`xdsl_gpu.passes.greedy_constants.unique_constants`).

MLIR's canonicalizer hands every constant to its ``OperationFolder`` before any
pattern: one constant per value and type, at the front of the entry block of the
closest region isolated from above (a function's body, not a ``gpu.launch``'s).
xDSL's leaves each constant where it is, so a constant made inside a ``gpu.launch``
(``transform.gpu.map_nested_forall_to_threads``'s ``arith.cmpi ult, %tid, %c9``)
stayed a second ``9`` apart from the function's. Constants made while the patterns
run are uniqued once more afterwards, as MLIR's folder does when they appear.
The ``llvm`` ops that are ``ConstantLike`` in MLIR count as constants, and the
folders of ``llvm.extractvalue`` and ``llvm.getelementptr`` that xDSL lacks run with
the patterns (``xdsl_gpu/passes/llvm_folds.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.canonicalize import CanonicalizePass as XdslCanonicalizePass

from xdsl_gpu.passes.greedy_constants import unique_constants
from xdsl_gpu.passes.greedy_dispatch import DispatchingApplier, DispatchingWalker
from xdsl_gpu.passes.llvm_folds import FoldExtractValue, FoldGEP, is_constant
from xdsl_gpu.passes.region_liveness import region_dce


@dataclass(frozen=True)
class CanonicalizePass(XdslCanonicalizePass):
    """xDSL's ``canonicalize`` with MLIR's constant uniquing (module docstring)."""

    name = "canonicalize"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        unique_constants(op, is_constant)
        # xDSL's pass, with the folders of llvm ops it lacks (llvm_folds.py).
        pattern = DispatchingApplier(
            [CanonicalizationRewritePattern(), FoldExtractValue(), FoldGEP()],
            ctx=ctx,
            folding_enabled=True,
        )
        DispatchingWalker(pattern, post_walk_func=region_dce).rewrite_module(op)
        unique_constants(op, is_constant)
