"""Verification between the steps of a pipeline, scoped to what a step changed.

``gpu-lower-to-nvvm-pipeline`` verifies after each of its passes, as mlir-opt's
``-verify-each`` does, so that invalid IR is reported at the pass that made it.
Verifying every op each time is most of the pipeline's time on a large program,
while a pass typically changes a part of it (a nested step changes only the
``gpu.module`` it runs on, ``gpu-to-llvm`` only host code, a pass with nothing to
convert nothing at all).

:class:`ScopedVerifier` remembers, for every op it verified, what its verifier can
see: the op's operands, result types, attributes, properties, successors, parent,
its blocks with their argument types and the ops in them. An op is verified again
when any of that changed or when anything nested in it changed (a parent's verifier
may read its children: terminators, yields); an unchanged subtree is skipped. A
failure is reported by a full ``verify()`` of the root, so the diagnostic is the
one a full verification gives.

What it does not see: a verifier that looks up a *symbol* (a call checking its
callee's type) is not run again when only the callee changed. The pipeline's caller
verifies the whole result afterwards (``xdsl-opt`` does, after every pass), so such
an error is still reported, at the end. ``XDSL_GPU_VERIFY_EACH=full`` verifies
everything after each step (the test suite sets it).
"""

from __future__ import annotations

import os
from typing import Any

from xdsl.ir import Operation
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

__all__ = ["ScopedVerifier", "full_verification_requested"]


def full_verification_requested() -> bool:
    """``XDSL_GPU_VERIFY_EACH=full`` (or ``1``): verify everything after each step."""
    return os.environ.get("XDSL_GPU_VERIFY_EACH", "").strip().lower() in (
        "full",
        "1",
        "true",
    )


def _fingerprint(op: Operation) -> tuple[tuple[Any, ...], Any]:
    """What ``op``'s own verifier reads, as a tuple that compares equal only if none
    of it changed, and what keeps the objects it names by id alive (so that no
    new object takes one of those ids while the memo holds it). SSA values, blocks
    and ops are compared by identity; types and attributes by value, as they are
    immutable. (It reads xDSL's fields directly: this runs for every op after every
    step, and the public accessors build a view object per call.)"""
    operands = op._operands  # pyright: ignore[reportPrivateUsage]
    successors = op._successors  # pyright: ignore[reportPrivateUsage]
    regions = (
        tuple(
            tuple(
                (
                    id(block),
                    tuple(map(id, block.args)),
                    tuple([a.type for a in block.args]),
                    tuple(map(id, block.ops)),
                )
                for block in region.blocks
            )
            for region in op.regions
        )
        if op.regions
        else ()
    )
    fingerprint = (
        id(op.parent),
        tuple(map(id, operands)),
        tuple([v.type for v in operands]),
        tuple([r.type for r in op.results]),
        tuple(op.attributes.items()) if op.attributes else (),
        tuple(op.properties.items()) if op.properties else (),
        tuple(map(id, successors)),
        regions,
    )
    return fingerprint, (op.parent, operands, successors)


class ScopedVerifier:
    """Verify a root op again and again, each time only what changed since the
    last successful verification."""

    def __init__(self) -> None:
        # id(op) -> (op, what keeps the ids in its fingerprint alive, fingerprint)
        self._verified: dict[int, tuple[Operation, Any, tuple[Any, ...]]] = {}
        self.last_checked = 0
        """How many ops the last call verified (for measurements)."""

    def verify(self, root: Operation) -> None:
        seen: dict[int, tuple[Operation, Any, tuple[Any, ...]]] = {}
        changed: list[Operation] = []
        self._collect(root, seen, changed)
        self.last_checked = len(changed)
        try:
            for op in changed:
                _verify_shallow(op)
        except Exception:
            self._verified = {}
            root.verify()  # the diagnostic of a full verification
            raise
        self._verified = seen

    def _collect(
        self,
        op: Operation,
        seen: dict[int, tuple[Operation, Any, tuple[Any, ...]]],
        changed: list[Operation],
    ) -> bool:
        dirty = False
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    if self._collect(child, seen, changed):
                        dirty = True
        fingerprint, keep = _fingerprint(op)
        known = self._verified.get(id(op))
        if dirty or known is None or known[0] is not op or known[2] != fingerprint:
            dirty = True
            changed.append(op)
        seen[id(op)] = (op, keep, fingerprint)
        return dirty


def _verify_shallow(op: Operation) -> None:
    """``op.verify()`` without the ops nested in it (each is checked on its own),
    with the checks that ``Region.verify``/``Block.verify`` make on its blocks."""
    op.verify(verify_nested_ops=False)
    for region in op.regions:
        for block in region.blocks:
            if block.parent is not region:
                raise ValueError(
                    "Parent pointer of block does not refer to containing region"
                )
            if block.first_op is None:
                if len(region.blocks) == 1 and not op.has_trait(NoTerminator):
                    raise VerifyException(
                        f"Operation {op.name} contains empty block in "
                        "single-block region that expects at least a terminator"
                    )
                continue
            for child in block.ops:
                if child.parent is not block:
                    raise ValueError(
                        "Parent pointer of operation does not refer to containing "
                        "region"
                    )
