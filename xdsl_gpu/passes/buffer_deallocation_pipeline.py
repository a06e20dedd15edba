"""``buffer-deallocation-pipeline``: MLIR 22's pipeline that frees the buffers a
program allocates, for the programs whose buffers stay in the block that allocates
them (xDSL 0.74 has no buffer deallocation at all).

Upstream: ``mlir/lib/Dialect/Bufferization/Pipelines/BufferizationPipelines.cpp``
(``expand-realloc``, ``ownership-based-buffer-deallocation``, ``canonicalize``,
``buffer-deallocation-simplification``, ``lower-deallocations``, ``cse``,
``canonicalize``) and ``Transforms/OwnershipBasedBufferDeallocation.cpp``.

What this pass does, with the output MLIR 22's pipeline gives for such programs:

* every buffer allocated in a block (``memref.alloc``, ``gpu.alloc``: an op with an
  allocation effect on its memref result; not ``memref.alloca``) is freed by a
  ``memref.dealloc`` before the block's terminator, in the order of allocation,
  unless it (or a view of it) is returned by ``func.return``: the caller then owns it;
* a ``func.return`` of a memref that the function does not own (an argument, or a
  view of one) returns a ``bufferization.clone`` of it, as the function boundary
  ABI of upstream's pass wants;
* then ``canonicalize`` and ``cse``, as the pipeline does.

Upstream tracks ownership through branches, region results (``scf.if``/``scf.for``
yielding a buffer) and calls returning buffers with run-time ownership indicators;
this pass does not, and says so at the op (a diagnostic, never a leak or a double
free). Its checks of the input are upstream's: an op with unknown memory effects
on a memref ("ops with unknown memory side effects are not supported"), and a free
already present ("memory free side-effect on MemRef value not supported!").
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import bufferization, func, memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, UnrankedMemRefType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import (
    IsTerminator,
    MemoryEffectKind,
    RecursiveMemoryEffect,
    get_effects,
)
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.diagnostics import at_op
from xdsl_gpu.passes.ir_walk import preorder

PASS_NAME = "buffer-deallocation-pipeline"


def _is_memref(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType | UnrankedMemRefType)


def _fail(op: Operation, message: str) -> BaseException:
    return at_op(PassFailedException(message), op)


def _unsupported(op: Operation, what: str) -> BaseException:
    return _fail(
        op,
        f"{PASS_NAME}: {what}; xdsl-gpu's pipeline frees only buffers that stay in "
        "the block that allocates them or are returned by func.return (MLIR 22's "
        "tracks ownership through branches, region results and calls)",
    )


def _check_preconditions(root: Operation) -> None:
    """Upstream's ``verifyOperationPreconditions``, on every op that has a memref
    operand or result."""
    for op in preorder(root):
        if not any(_is_memref(v) for v in (*op.operands, *op.results)):
            continue
        if op.has_trait(IsTerminator, value_if_unregistered=False):
            continue  # checked where the buffers it passes on are
        if isinstance(op, func.CallOp):
            if any(_is_memref(r) for r in op.results):
                raise _unsupported(op, "a call that returns a buffer")
            continue  # the callee borrows its buffer arguments
        effects = get_effects(op)
        if effects is None and not op.has_trait(
            RecursiveMemoryEffect, value_if_unregistered=False
        ):
            raise _fail(op, "ops with unknown memory side effects are not supported")
        if effects and any(e.kind == MemoryEffectKind.FREE for e in effects):
            raise _fail(op, "memory free side-effect on MemRef value not supported!")
        if any(_is_memref(v) for v in op.operands) and any(
            _is_memref(a) for r in op.regions for b in r.blocks for a in b.args
        ):
            raise _unsupported(op, "a buffer passed into a region")


def _allocates(op: Operation) -> bool:
    """Whether ``op`` allocates its memref result (not on the stack)."""
    if isinstance(op, memref.AllocaOp):
        return False
    effects = get_effects(op)
    return bool(effects) and any(e.kind == MemoryEffectKind.ALLOC for e in effects)


def _aliases(value: SSAValue) -> list[SSAValue]:
    """``value`` and the memrefs that ops without an allocation derive from it
    (views, casts), transitively."""
    found = [value]
    for v in found:
        for use in v.uses:
            user = use.operation
            if _allocates(user) or user.has_trait(
                IsTerminator, value_if_unregistered=False
            ):
                continue
            for r in user.results:
                if _is_memref(r) and r not in found:
                    found.append(r)
    return found


def _root(value: SSAValue) -> SSAValue:
    """The value a view or cast chain starts from."""
    while isinstance(value.owner, Operation) and not _allocates(value.owner):
        sources = [o for o in value.owner.operands if _is_memref(o)]
        if len(sources) != 1:
            break
        value = sources[0]
    return value


def _free_block(block: Block) -> None:
    terminator = block.last_op
    if terminator is None or not terminator.has_trait(IsTerminator):
        return
    to_free: list[SSAValue] = []
    for op in block.ops:
        if not _allocates(op):
            continue
        for result in op.results:
            if not _is_memref(result):
                continue
            returned = False
            for alias in _aliases(result):
                for use in alias.uses:
                    user = use.operation
                    if not user.has_trait(IsTerminator, value_if_unregistered=False):
                        continue
                    if user is terminator and isinstance(user, func.ReturnOp):
                        returned = True
                    elif user.successors:
                        raise _unsupported(user, "a buffer passed to another block")
                    else:
                        raise _unsupported(user, "a buffer that leaves its region")
            if not returned:
                to_free.append(result)
    if isinstance(terminator, func.ReturnOp):
        _clone_borrowed_results(terminator)
    for value in to_free:
        block.insert_op_before(memref.DeallocOp.get(value), terminator)


def _clone_borrowed_results(ret: func.ReturnOp) -> None:
    """A returned memref the function does not own becomes a clone."""
    for i, value in enumerate(ret.arguments):
        if not _is_memref(value):
            continue
        root = _root(value)
        if isinstance(root.owner, Operation) and _allocates(root.owner):
            continue
        if not isinstance(root, BlockArgument):
            raise _unsupported(ret, "a returned buffer whose owner is not known")
        clone = bufferization.CloneOp(value)
        block = ret.parent_block()
        assert block is not None
        block.insert_op_before(clone, ret)
        ret.operands[i] = clone.output


@dataclass(frozen=True)
class BufferDeallocationPipelinePass(ModulePass):
    """Free the buffers of the program (see the module docstring). No options."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.transforms.canonicalize import CanonicalizePass

        from xdsl_gpu.passes.cse import CSEPass

        _check_preconditions(op)
        for nested in list(preorder(op)):
            for region in nested.regions:
                for block in region.blocks:
                    _free_block(block)
        CanonicalizePass().apply(ctx, op)
        CSEPass().apply(ctx, op)
        CanonicalizePass().apply(ctx, op)
