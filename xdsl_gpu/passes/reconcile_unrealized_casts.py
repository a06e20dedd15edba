"""``reconcile-unrealized-casts``: fold the ``builtin.unrealized_conversion_cast``
chains that conversions leave behind, exactly as MLIR 22 does.

Upstream: ``reconcileUnrealizedCasts`` in
``mlir/lib/Transforms/Utils/DialectConversion.cpp``.
Bottom to top over the casts:

* a cast without uses is erased (and its input casts are looked at again);
* a cast whose result types equal the input types of some cast up its chain
  (``A -> B -> ... -> A``) is replaced by that cast's inputs;
* any other cast stays, silently: a live ``i32 -> i64`` cast means an op was not
  converted, which the next step (``mlir-translate``, the LLVM IR emission) reports.

Replaces xDSL's pass of the same name (``xdsl_gpu/passes/registration.py``): xDSL's keeps a whole
chain as soon as one of its casts is live (``%1 = cast (cast %a : i32 to i64) : i64 to
i32`` is not folded when the ``i64`` is also used elsewhere) and prints a Python
``UserWarning`` with xDSL's source path for every cast it keeps.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from xdsl_gpu.passes.ir_walk import preorder


def _input_cast(cast: UnrealizedConversionCastOp) -> UnrealizedConversionCastOp | None:
    """The cast that defines all inputs of ``cast``, in order, if there is one."""
    if not cast.inputs:
        return None
    owner = cast.inputs[0].owner
    if not isinstance(owner, UnrealizedConversionCastOp):
        return None
    if tuple(owner.results) != tuple(cast.inputs):
        return None
    return owner


def reconcile_unrealized_casts(root: Operation) -> None:
    """Fold or erase the unrealized casts under ``root`` (see the module docstring)."""
    worklist = [
        op for op in preorder(root) if isinstance(op, UnrealizedConversionCastOp)
    ]
    queued = set(worklist)

    def enqueue_inputs(cast: UnrealizedConversionCastOp) -> None:
        for value in cast.inputs:
            owner = value.owner
            if isinstance(owner, UnrealizedConversionCastOp) and owner not in queued:
                worklist.append(owner)
                queued.add(owner)

    while worklist:
        cast = worklist.pop()
        queued.discard(cast)
        if cast.parent is None:
            continue  # erased already
        if not any(r.uses for r in cast.results):
            enqueue_inputs(cast)
            cast.detach()
            cast.erase()
            continue
        result_types = tuple(r.type for r in cast.results)
        source: UnrealizedConversionCastOp | None = cast
        while source is not None:
            if tuple(v.type for v in source.inputs) == result_types:
                enqueue_inputs(cast)
                for old, new in zip(cast.results, source.inputs, strict=True):
                    old.replace_all_uses_with(new)
                cast.detach()
                cast.erase()
                break
            source = _input_cast(source)


@dataclass(frozen=True)
class ReconcileUnrealizedCastsPass(ModulePass):
    """Fold round-tripping ``unrealized_conversion_cast`` chains; erase dead casts."""

    name = "reconcile-unrealized-casts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        reconcile_unrealized_casts(op)
