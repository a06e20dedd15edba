"""``test-gpu-rewrite``: MLIR's test pass that applies the GPU dialect's rewrite patterns.

Upstream: ``mlir/test/lib/Dialect/GPU/TestGpuRewrite.cpp`` (``populateGpuRewritePatterns``
applied greedily) with ``mlir/lib/Dialect/GPU/Transforms/AllReduceLowering.cpp`` and
``GlobalIdRewriter.cpp`` (MLIR 22). In every ``gpu.func`` whose ``gpu.all_reduce`` ops
are all ``uniform``, each of them becomes, as upstream writes it op for op:

1. the linear thread index and the block size from ``gpu.block_dim``/``gpu.thread_id``
   (``i32``), the lane (``index & 31``) and the number of active lanes of the warp;
2. a warp reduction: with fewer than 32 active lanes, five ``xor`` shuffles each
   followed by a branch that combines only a valid value; otherwise five
   unconditional ones;
3. the first lane of each warp stores its result in a new workgroup attribution
   ``memref<32xT, #gpu.address_space<workgroup>>``; ``gpu.barrier``; the first
   ``ceil(size / 32)`` threads reduce the stored values the same way and store the
   total in element 0; ``gpu.barrier``; everybody loads element 0.

A reduction region is cloned at each combination, its ``gpu.yield`` becoming a branch
to the continuation. ``gpu.global_id`` becomes ``thread_id + block_id * block_dim``
(in ``arith``). As upstream's greedy driver does with the
constants it folds, the constants that the rewrite creates are made unique and placed
at the start of the function, the last created first.

Beyond this pass here: the greedy driver also folds the program's other ops, which this
pass does not (a function with ``arith`` ops on constants keeps them). A ``gpu.shuffle`` of an ``i64``/``f64`` becomes two ``i32``
shuffles of its halves (``populateGpuShufflePatterns``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, cf, func, memref
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    f64,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from xdsl_gpu.gpu_dialect.gpu import compute_ops as gpu
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.gpu_dialect.gpu.attributes import AddressSpaceAttr
from xdsl_gpu.passes.gpu_to_nvvm_patterns.reductions import kind_combiner
from xdsl_gpu.passes.ir_walk import preorder
from xdsl_gpu.passes.llvm_type_converter import PatternSet

SUBGROUP_SIZE = 32


class _Cursor:
    """An insertion point that can sit before an op or at the end of a block, as an
    MLIR rewriter's; records the constants created through it."""

    def __init__(self, op: Operation, constants: list[arith.ConstantOp]):
        block = op.parent_block()
        assert block is not None
        self.block: Block = block
        self.before: Operation | None = op
        self.constants = constants

    def put(self, op: Operation) -> None:
        if self.before is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, self.before)
        if isinstance(op, arith.ConstantOp):
            self.constants.append(op)

    def insert(self, op: Operation) -> SSAValue:
        """Insert ``op``; its (first) result."""
        self.put(op)
        return op.results[0]

    def const(self, value: int, t: IntegerType | IndexType = i32) -> SSAValue:
        return self.insert(arith.ConstantOp(IntegerAttr(value, t)))

    def at_start(self, block: Block) -> None:
        self.block, self.before = block, block.first_op

    def at_end(self, block: Block) -> None:
        self.block, self.before = block, None

    def split(self, block: Block, before: Operation | None) -> Block:
        """MLIR's ``splitBlock``: ``before`` and the ops after it move to a new block
        placed right after ``block``."""
        new = Block()
        region = block.parent
        assert region is not None
        region.insert_block_after(new, block)
        op = before
        while op is not None:
            following = op.next_op
            op.detach()
            new.add_op(op)
            op = following
        return new


Accumulator = Callable[[SSAValue, SSAValue], SSAValue]


@dataclass
class _AllReduceRewriter:
    """One ``gpu.all_reduce`` of ``function`` (upstream's ``GpuAllReduceRewriter``)."""

    function: kernel_ops.FuncOp
    op: gpu.AllReduceOp
    at: _Cursor

    @property
    def value_type(self) -> Attribute:
        return self.op.value.type

    def rewrite(self) -> None:
        at = self.at
        dims = [self._dim(gpu.BlockDimOp(d)) for d in "xyz"]
        tids = [self._dim(gpu.ThreadIdOp(d)) for d in "xyz"]
        tmp1 = at.insert(arith.MuliOp(tids[2], dims[1]))
        tmp2 = at.insert(arith.AddiOp(tmp1, tids[1]))
        tmp3 = at.insert(arith.MuliOp(tmp2, dims[0]))
        tmp4 = at.insert(arith.MuliOp(dims[0], dims[1]))
        invocation = at.insert(arith.AddiOp(tmp3, tids[0]))
        size = at.insert(arith.MuliOp(tmp4, dims[2]))
        mask = at.const(SUBGROUP_SIZE - 1)
        lane = at.insert(arith.AndIOp(invocation, mask))
        first_lane = at.insert(arith.CmpiOp(lane, at.const(0), "eq"))
        before_warp = at.insert(arith.SubiOp(invocation, lane))
        active = at.insert(arith.SubiOp(size, before_warp))

        accumulate = self._accumulator()
        partial = self._subgroup_reduce(active, self.op.value, accumulate)
        buffer = self.function.add_workgroup_attribution(
            MemRefType(
                self.value_type,
                [SUBGROUP_SIZE],
                memory_space=AddressSpaceAttr("workgroup"),
            )
        )

        def store_partial() -> None:
            warp = self._divide_by_subgroup_size(invocation)
            index = at.insert(arith.IndexCastOp(warp, IndexType()))
            at.put(memref.StoreOp.get(partial, buffer, [index]))

        self._predicated(first_lane, store_partial)
        at.put(gpu.BarrierOp())
        biased = at.insert(arith.AddiOp(size, mask))
        warps = self._divide_by_subgroup_size(biased)
        valid = at.insert(arith.CmpiOp(invocation, warps, "slt"))
        zero = at.const(0, IndexType())

        def reduce_partials() -> None:
            index = at.insert(arith.IndexCastOp(invocation, IndexType()))
            value = at.insert(memref.LoadOp.get(buffer, [index]))
            total = self._subgroup_reduce(warps, value, accumulate)
            at.put(memref.StoreOp.get(total, buffer, [zero]))

        self._predicated(valid, reduce_partials)
        at.put(gpu.BarrierOp())
        result = at.insert(memref.LoadOp.get(buffer, [zero]))
        self.op.result.replace_all_uses_with(result)
        Rewriter.erase_op(self.op)

    def _dim(self, op: Operation) -> SSAValue:
        return self.at.insert(arith.IndexCastOp(self.at.insert(op), i32))

    def _divide_by_subgroup_size(self, value: SSAValue) -> SSAValue:
        return self.at.insert(arith.DivSIOp(value, self.at.const(SUBGROUP_SIZE)))

    def _if(
        self,
        condition: SSAValue,
        then: Callable[[], Sequence[SSAValue]],
        otherwise: Callable[[], Sequence[SSAValue]],
    ) -> None:
        """Upstream's ``createIf``: then, else and continuation blocks split off the
        current one; the continuation takes the values the branches give."""
        at = self.at
        current = at.block
        then_block = at.split(current, at.before)
        else_block = at.split(then_block, then_block.first_op)
        continuation = at.split(else_block, else_block.first_op)
        at.at_end(current)
        at.put(cf.ConditionalBranchOp(condition, then_block, [], else_block, []))
        at.at_start(then_block)
        values = then()
        at.put(cf.BranchOp(continuation, *values))
        at.at_start(else_block)
        other = otherwise()
        at.put(cf.BranchOp(continuation, *other))
        at.at_start(continuation)
        for value in values:
            continuation.insert_arg(value.type, len(continuation.args))

    def _predicated(self, condition: SSAValue, body: Callable[[], None]) -> None:
        def then() -> Sequence[SSAValue]:
            body()
            return ()

        self._if(condition, then, lambda: ())

    def _subgroup_reduce(
        self, active: SSAValue, operand: SSAValue, accumulate: Accumulator
    ) -> SSAValue:
        at = self.at
        width = at.const(SUBGROUP_SIZE)
        partial = at.insert(arith.CmpiOp(active, width, "slt"))

        def partial_warp() -> Sequence[SSAValue]:
            value = operand
            offset = 1
            while offset < SUBGROUP_SIZE:
                shuffle = gpu.ShuffleOp(
                    value, at.const(offset), active, gpu.ShuffleMode.XOR
                )
                at.put(shuffle)
                current = value
                self._if(
                    shuffle.results[1],
                    lambda: [accumulate(current, shuffle.results[0])],
                    lambda: [current],
                )
                value = at.block.args[0]
                offset <<= 1
            return [value]

        def full_warp() -> Sequence[SSAValue]:
            value = operand
            offset = 1
            while offset < SUBGROUP_SIZE:
                shuffle = gpu.ShuffleOp(
                    value, at.const(offset), width, gpu.ShuffleMode.XOR
                )
                at.put(shuffle)
                value = accumulate(value, shuffle.results[0])
                offset <<= 1
            return [value]

        self._if(partial, partial_warp, full_warp)
        return at.block.args[0]

    def _accumulator(self) -> Accumulator:
        if self.op.body.blocks:
            return self._region_accumulator()
        assert self.op.op is not None
        combine = kind_combiner(self.op.op.data, self.value_type)
        at = self.at

        def accumulate(lhs: SSAValue, rhs: SSAValue) -> SSAValue:
            sink = _CursorBuilder(at)
            return combine(sink, lhs, rhs)  # pyright: ignore[reportArgumentType]

        return accumulate

    def _region_accumulator(self) -> Accumulator:
        """Clone the reduction region between the current block and a split-off
        continuation; each ``gpu.yield`` branches to the continuation."""
        at = self.at
        body = self.op.body

        def accumulate(lhs: SSAValue, rhs: SSAValue) -> SSAValue:
            block = at.block
            split = at.split(block, at.before)
            region = block.parent
            assert region is not None
            # Cloned apart (xDSL's clone_into pairs ops wrongly in a region that
            # already has blocks), then moved before the continuation.
            copy = body.clone()
            clones = list(copy.blocks)
            for new in clones:
                copy.detach_block(new)
                region.insert_block_before(new, split)
            # MLIR clones no argument that the mapping gives a value for.
            first = clones[0]
            for arg, value in zip(list(first.args), (lhs, rhs), strict=True):
                arg.replace_all_uses_with(value)
                first.erase_arg(arg)
            at.at_end(block)
            at.put(cf.BranchOp(clones[0]))
            for new in clones:
                terminator = new.last_op
                if isinstance(terminator, gpu.YieldOp):
                    yielded = terminator.values[0]
                    Rewriter.erase_op(terminator)
                    new.add_op(cf.BranchOp(split, yielded))
            at.at_start(split)
            return split.insert_arg(lhs.type, len(split.args))

        return accumulate


class _CursorBuilder:
    """What ``kind_combiner`` needs of a builder: ``insert``, through the cursor."""

    def __init__(self, at: _Cursor):
        self.at = at

    def insert(self, op: Operation) -> Operation:
        self.at.put(op)
        return op


def _rewrite_all_reduces(function: kernel_ops.FuncOp) -> list[arith.ConstantOp]:
    """Rewrite every ``gpu.all_reduce`` of ``function`` if all are ``uniform``; the
    constants created, in order."""
    reduces = [o for o in preorder(function) if isinstance(o, gpu.AllReduceOp)]
    if not reduces or any(r.uniform is None for r in reduces):
        return []
    constants: list[arith.ConstantOp] = []
    for reduce in reduces:
        _AllReduceRewriter(function, reduce, _Cursor(reduce, constants)).rewrite()
    return constants


def hoist_constants(function: kernel_ops.FuncOp, constants: list[arith.ConstantOp]):
    """The greedy driver's constant folding: one constant per value, at the start of
    the entry block, the last created first."""
    entry = function.body.blocks[0]
    kept: dict[Attribute, arith.ConstantOp] = {}
    for constant in constants:
        key = constant.value
        if key in kept:
            constant.result.replace_all_uses_with(kept[key].result)
            Rewriter.erase_op(constant)
            continue
        kept[key] = constant
        constant.detach()
        if entry.first_op is None:
            entry.add_op(constant)
        else:
            entry.insert_op_before(constant, entry.first_op)


class GlobalIdRewrite(RewritePattern):
    """``gpu.global_id d`` → ``thread_id d + block_id d * block_dim d`` in ``arith``
    (upstream's ``populateGpuGlobalIdPatterns``)."""

    acts_on = (gpu.GlobalIdOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, gpu.GlobalIdOp):
            return
        d = op.dimension
        block_id = gpu.BlockIdOp(d)
        block_dim = gpu.BlockDimOp(d)
        offset = arith.MuliOp(block_id, block_dim)
        thread_id = gpu.ThreadIdOp(d)
        total = arith.AddiOp(thread_id, offset)
        rewriter.replace(op, [block_id, block_dim, offset, thread_id, total])


def _isolated_entry(op: Operation) -> Block | None:
    """The entry block of the closest function around ``op`` (where the greedy
    driver puts the constants it makes)."""
    parent = op.parent_op()
    while parent is not None and not isinstance(
        parent, kernel_ops.FuncOp | func.FuncOp
    ):
        parent = parent.parent_op()
    return None if parent is None else parent.regions[0].blocks.first


def _split_64bit_shuffle(op: gpu.ShuffleOp) -> None:
    """Upstream's ``populateGpuShufflePatterns``: a shuffle of an ``i64``/``f64`` as
    two ``i32`` shuffles of its halves, valid where both are."""
    t = op.value.type
    if t not in (i64, f64):
        return
    entry = _isolated_entry(op)
    if entry is None:
        return
    c32 = arith.ConstantOp(IntegerAttr(32, i64))
    if entry.first_op is None:
        entry.add_op(c32)
    else:
        entry.insert_op_before(c32, entry.first_op)
    ops: list[Operation] = []
    value = op.value
    if t == f64:
        ops.append(cast := arith.BitcastOp(value, i64))
        value = cast.result
    ops.append(lo := arith.TruncIOp(value, i32))
    ops.append(hi64 := arith.ShRUIOp(value, c32.result))
    ops.append(hi := arith.TruncIOp(hi64.result, i32))
    mode = op.mode.data
    ops.append(sh_lo := gpu.ShuffleOp(lo.result, op.offset, op.width, mode))
    ops.append(sh_hi := gpu.ShuffleOp(hi.result, op.offset, op.width, mode))
    ops.append(lo_ext := arith.ExtUIOp(sh_lo.results[0], i64))
    ops.append(hi_ext := arith.ExtUIOp(sh_hi.results[0], i64))
    ops.append(hi_shl := arith.ShLIOp(hi_ext.result, c32.result))
    ops.append(joined := arith.OrIOp(hi_shl.result, lo_ext.result))
    result = joined.result
    if t == f64:
        ops.append(back := arith.BitcastOp(result, f64))
        result = back.result
    ops.append(valid := arith.AndIOp(sh_lo.results[1], sh_hi.results[1]))
    Rewriter.replace_op(op, ops, [result, valid.result])


@dataclass(frozen=True)
class TestGpuRewritePass(ModulePass):
    """Apply the GPU dialect's rewrite patterns (see the module docstring)."""

    name = "test-gpu-rewrite"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in [o for o in preorder(op) if isinstance(o, kernel_ops.FuncOp)]:
            hoist_constants(function, _rewrite_all_reduces(function))
        PatternSet([GlobalIdRewrite()], erase_dead_casts=False).apply(op)
        for shuffle in [o for o in preorder(op) if isinstance(o, gpu.ShuffleOp)]:
            _split_64bit_shuffle(shuffle)
        # The greedy driver erases the ops left without uses (the result of an
        # all_reduce that nothing reads: its final load).
        for region in op.regions:
            region_dce(region)
