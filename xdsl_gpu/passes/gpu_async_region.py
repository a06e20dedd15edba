"""``gpu-async-region``: make the synchronous gpu ops of each ``func.func`` async and
thread one ``!gpu.async.token`` chain through them (upstream ``GpuAsyncRegionPass``
in ``AsyncRegionRewriter.cpp``).

Each block is rewritten on its own, nested blocks before the block around them (as
upstream's post-order walk does):

* the first async-capable gpu op (``gpu.alloc``, ``gpu.dealloc``, ``gpu.memcpy``,
  ``gpu.memset``, ``gpu.launch_func``, the sparse ops, ...) gets a
  ``%t0 = gpu.wait async`` before it and becomes ``async [%t0]``; each next one
  depends on the token of the previous one;
* a ``gpu.wait`` joins the chain (``gpu.wait async`` continues it, ``gpu.wait`` ends
  it);
* before a terminator or any other op with memory effects (a call, a host
  ``memref.load``, an ``scf.for`` whose body has effects, ...) a ``gpu.wait [%last]``
  synchronizes the host, and the next gpu op starts a new chain. Pure ops (arith,
  ``memref.dim``) do not break the chain.

Differences from mlir-opt 22:

* ``gpu.alloc host_shared`` stays synchronous and is not a synchronization point:
  ``gpu-to-llvm`` cannot lower an async host-shared allocation ("Host Shared
  allocation cannot be done async"), so upstream's output of this pass does not
  lower; a fresh allocation cannot race with pending GPU work.
* xDSL has no ``async`` dialect, so upstream's follow-up steps for ``async.execute``
  regions (moving the last ``gpu.wait`` out of the region into its users, one use per
  returned token) have nothing to apply to.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator, is_side_effect_free
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.diagnostics import at_op
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import LaunchOp
from xdsl_gpu.gpu_dialect.gpu.memory_ops import AllocOp, AsyncOpInterface, WaitOp
from xdsl_gpu.passes.llvm_type_converter import describe


def _blocks_post_order(op: Operation) -> Iterator[Block]:
    """The blocks nested in ``op``, each after the blocks nested in its ops."""
    for region in op.regions:
        for block in region.blocks:
            for nested in block.ops:
                yield from _blocks_post_order(nested)
            yield block


def _needs_host_sync(op: Operation) -> bool:
    """Terminators and ops that may touch memory: the host must see the results of
    the pending GPU work before them."""
    return op.has_trait(IsTerminator) or not is_side_effect_free(op)


class _TokenThreader:
    """Rewrites the ops of blocks in turn, carrying the current token."""

    def __init__(self) -> None:
        self.current: SSAValue | None = None

    def _wait(self, before: Operation, deps: list[SSAValue], is_async: bool) -> WaitOp:
        wait = WaitOp(deps, is_async=is_async)
        wait.location = before.location
        Rewriter.insert_op(wait, InsertPoint.before(before))
        return wait

    def visit(self, op: Operation) -> None:
        if isinstance(op, LaunchOp):
            raise at_op(
                PassFailedException(
                    f"gpu-async-region: {describe(op)}: replace with gpu.launch_func "
                    "first (run gpu-kernel-outlining before gpu-async-region)"
                ),
                op,
            )
        if isinstance(op, WaitOp):
            if self.current is not None:
                op.add_async_dependency(self.current)
            self.current = op.async_token
            return
        if isinstance(op, AllocOp) and op.host_shared is not None and not op.is_async:
            return  # See the module docstring.
        if isinstance(op, AsyncOpInterface):
            self._make_async(op)
            return
        if self.current is not None and _needs_host_sync(op):
            self._wait(op, [self.current], is_async=False)
            self.current = None

    def _make_async(self, op: AsyncOpInterface) -> None:
        assert isinstance(op, Operation)
        if self.current is None:
            self.current = self._wait(op, [], is_async=True).async_token
        assert self.current is not None
        if op.is_async:
            op.add_async_dependency(self.current)
            self.current = op.async_token
            return
        new = op.make_async([self.current])
        assert isinstance(new, Operation)
        new.location = op.location
        results = list(new.results)
        token = results.pop()
        for old, result in zip(op.results, results):
            result.name_hint = old.name_hint
        Rewriter.replace_op(op, new, results)
        token.name_hint = None  # replace_op names it after the op's first result
        self.current = token


@dataclass(frozen=True)
class GpuAsyncRegionPass(ModulePass):
    """Make the gpu ops of every ``func.func`` of the module asynchronous, chained by
    tokens, with host synchronization before terminators and side effects (no
    options; upstream's pass of the same name, anchored on ``func.func``)."""

    name = "gpu-async-region"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Like `builtin.module(func.func(gpu-async-region))`: the functions directly
        # in the module; device functions inside gpu.module are left alone.
        for function in [f for f in op.body.block.ops if isinstance(f, func.FuncOp)]:
            threader = _TokenThreader()
            for block in list(_blocks_post_order(function)):
                for nested in list(block.ops):
                    threader.visit(nested)
