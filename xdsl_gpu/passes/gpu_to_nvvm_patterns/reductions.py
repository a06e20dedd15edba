"""Reductions: ``gpu.all_reduce`` and ``gpu.subgroup_reduce``.

Both are expanded before the conversion into ``gpu.shuffle``, ``gpu.barrier``,
``arith``, ``cf`` and ``memref`` ops (upstream's ``populateGpuRewritePatterns`` pre-pass
does the same for ``all_reduce``), which the conversion then lowers.

``gpu.all_reduce`` (kind or region, ``uniform`` only, inside a ``gpu.func`` body):

1. every warp reduces its values with five ``xor`` shuffles; a warp that the end of
   the block cuts short (``active < 32`` lanes) shuffles within ``active`` lanes and
   keeps a partner's value only when the shuffle says it is valid;
2. lane 0 of each warp stores its result in a 32-element workgroup buffer (a new
   workgroup attribution of the function); ``gpu.barrier``;
3. the first ``ceil(threads / 32)`` threads reduce the buffer the same way and store
   the total in element 0; ``gpu.barrier``; everybody loads element 0.

A reduction region is inlined at each combination (one block, as the ``arith`` ops a
kind becomes). A non-``uniform`` all_reduce cannot be lowered (not every thread would
reach the barriers), as upstream: the pass names it.

``gpu.subgroup_reduce``: a ``uniform`` non-clustered ``i32`` reduction of kind
``add``/``and``/``or``/``xor``/``minsi``/``minui``/``maxsi``/``maxui`` becomes
``nvvm.redux.sync`` (upstream's only lowering) with ``has-redux``, or where every
target of the ``gpu.module`` is an ``#nvvm.target`` of ``sm_80`` or later (beyond MLIR
22, whose pipeline never sets ``has-redux``). ``uniform`` is required, as upstream: the
full lane mask of ``redux.sync`` needs the whole warp. Every other one (beyond MLIR 22,
which cannot lower them) is a butterfly: ``log2(size)`` ``xor`` shuffles over the whole
warp with offsets ``stride, 2·stride, ...`` (clusters of ``size`` lanes ``stride``
apart; no cluster: the 32 lanes), combining with the ``arith`` op of the kind. Vectors
reduce element-wise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, cf, memref
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerAttr,
    MemRefType,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xdsl_gpu.gpu_dialect import nvvm
from xdsl_gpu.gpu_dialect.gpu import compute_ops as gpu
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.gpu_dialect.gpu.attributes import AddressSpaceAttr
from xdsl_gpu.passes.gpu_to_nvvm_patterns.common import (
    WARP_SIZE,
    NVVMLowering,
    i32_constant,
    legalize_error,
)
from xdsl_gpu.passes.llvm_type_converter import convert_operands, replace_op

Kind = gpu.AllReduceOperation

_INT_OPS: dict[Kind, type[Operation]] = {
    Kind.ADD: arith.AddiOp,
    Kind.MUL: arith.MuliOp,
    Kind.MINUI: arith.MinUIOp,
    Kind.MINSI: arith.MinSIOp,
    Kind.MAXUI: arith.MaxUIOp,
    Kind.MAXSI: arith.MaxSIOp,
    Kind.AND: arith.AndIOp,
    Kind.OR: arith.OrIOp,
    Kind.XOR: arith.XOrIOp,
}
_FLOAT_OPS: dict[Kind, type[Operation]] = {
    Kind.ADD: arith.AddfOp,
    Kind.MUL: arith.MulfOp,
    Kind.MINNUMF: arith.MinnumfOp,
    Kind.MAXNUMF: arith.MaxnumfOp,
    Kind.MINIMUMF: arith.MinimumfOp,
    Kind.MAXIMUMF: arith.MaximumfOp,
}

_REDUX_KINDS: dict[Kind, str] = {
    Kind.ADD: "add",
    Kind.AND: "and",
    Kind.OR: "or",
    Kind.XOR: "xor",
    Kind.MINSI: "min",
    Kind.MINUI: "umin",
    Kind.MAXSI: "max",
    Kind.MAXUI: "umax",
}
"""``gpu.subgroup_reduce`` kinds that ``redux.sync`` computes on ``i32``."""

Combiner = Callable[[Builder, SSAValue, SSAValue], SSAValue]


def _element_type(t: Attribute) -> Attribute:
    return t.get_element_type() if isinstance(t, VectorType) else t


def kind_combiner(kind: Kind, t: Attribute) -> Combiner:
    """The ``arith`` op that combines two values of type ``t`` for ``kind``."""
    table = _FLOAT_OPS if isinstance(_element_type(t), AnyFloat) else _INT_OPS
    op_class = table[kind]

    def combine(builder: Builder, a: SSAValue, b: SSAValue) -> SSAValue:
        return builder.insert(op_class(a, b)).results[0]  # pyright: ignore[reportCallIssue]

    return combine


def region_combiner(body: Region) -> Combiner:
    """Inline a single-block reduction region at each combination."""
    block = body.blocks.first
    assert block is not None

    def combine(builder: Builder, a: SSAValue, b: SSAValue) -> SSAValue:
        mapping: dict[SSAValue, SSAValue] = {block.args[0]: a, block.args[1]: b}
        for op in block.ops:
            if isinstance(op, gpu.YieldOp):
                return mapping.get(op.values[0], op.values[0])
            builder.insert(op.clone(value_mapper=mapping))
        raise AssertionError("verified reduction regions end in gpu.yield")

    return combine


def _const(builder: Builder, value: int) -> SSAValue:
    return builder.insert(arith.ConstantOp(IntegerAttr(value, i32))).results[0]


def _shuffle(
    builder: Builder, value: SSAValue, offset: int, width: SSAValue
) -> tuple[SSAValue, SSAValue]:
    op = builder.insert(
        gpu.ShuffleOp(value, _const(builder, offset), width, gpu.ShuffleMode.XOR)
    )
    return op.results[0], op.results[1]


# -- gpu.all_reduce ------------------------------------------------------------------


class _Emitter:
    """Builds straight-line code and blocks before a continuation block."""

    def __init__(self, block: Block, tail: Block):
        self.region = tail.parent
        self.tail = tail
        self.builder = Builder(InsertPoint.at_end(block))

    def new_block(self, *arg_types: Attribute) -> Block:
        block = Block(arg_types=arg_types)
        assert self.region is not None
        self.region.insert_block_before(block, self.tail)
        return block

    def move_to(self, block: Block) -> None:
        self.builder = Builder(InsertPoint.at_end(block))

    def insert(self, op: Operation) -> Operation:
        return self.builder.insert(op)

    def warp_reduce(
        self, value: SSAValue, active: SSAValue, combine: Combiner
    ) -> SSAValue:
        """Reduce ``value`` over the ``active`` (≤ 32) first lanes of each warp."""
        b = self.builder
        partial = b.insert(arith.CmpiOp(active, _const(b, WARP_SIZE), "slt")).results[0]
        partial_block = self.new_block()
        full_block = self.new_block()
        done = self.new_block(value.type)
        b.insert(cf.ConditionalBranchOp(partial, partial_block, [], full_block, []))

        self.move_to(partial_block)
        v = value
        for offset in (1, 2, 4, 8, 16):
            b = self.builder
            shuffled, valid = _shuffle(b, v, offset, active)
            combined = combine(b, v, shuffled)
            v = b.insert(arith.SelectOp(valid, combined, v)).results[0]
        self.builder.insert(cf.BranchOp(done, v))

        self.move_to(full_block)
        v = value
        width = _const(self.builder, WARP_SIZE)
        for offset in (1, 2, 4, 8, 16):
            shuffled, _ = _shuffle(self.builder, v, offset, width)
            v = combine(self.builder, v, shuffled)
        self.builder.insert(cf.BranchOp(done, v))

        self.move_to(done)
        return done.args[0]

    def if_then(self, cond: SSAValue, body: Callable[[], None]) -> None:
        then_block = self.new_block()
        join = Block()  # placed after the blocks that `body` creates
        self.builder.insert(cf.ConditionalBranchOp(cond, then_block, [], join, []))
        self.move_to(then_block)
        body()
        self.builder.insert(cf.BranchOp(join))
        assert self.region is not None
        self.region.insert_block_before(join, self.tail)
        self.move_to(join)


def _as_i32(b: Builder, value: Operation) -> SSAValue:
    return b.insert(arith.IndexCastOp(value, i32)).results[0]


def _as_index(b: Builder, value: SSAValue) -> SSAValue:
    return b.insert(arith.IndexCastOp(value, IndexType())).results[0]


class AllReduceExpansion(RewritePattern):
    """``gpu.all_reduce`` → shuffles, a workgroup buffer and two barriers."""

    acts_on = (gpu.AllReduceOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.AllReduceOp):
            return
        if op.uniform is None:
            raise legalize_error(
                op,
                "only a `uniform` all_reduce can be lowered (its barriers need every "
                "thread of the block): add `uniform` if every thread reaches it",
            )
        block = op.parent_block()
        function = block.parent_op() if block is not None else None
        if not isinstance(function, kernel_ops.FuncOp):
            where = f"'{function.name}'" if function is not None else "no function"
            raise legalize_error(
                op,
                f"must be directly in the body of a gpu.func (it is in {where}): the "
                "reduction needs a workgroup buffer and branches; run "
                "convert-scf-to-cf first if it is nested in scf ops",
            )
        assert block is not None
        if op.op is not None:
            combine = kind_combiner(op.op.data, op.value.type)
        else:
            if len(op.body.blocks) != 1:
                raise legalize_error(
                    op,
                    "a reduction region of several blocks cannot be inlined; write "
                    "it as one block (arith.select in place of branches)",
                )
            combine = region_combiner(op.body)
        value_type = op.value.type
        buffer = function.add_workgroup_attribution(
            MemRefType(
                value_type, [WARP_SIZE], memory_space=AddressSpaceAttr("workgroup")
            )
        )

        # Split the block: what follows the op continues in `tail`.
        tail = Block(arg_types=[value_type])
        region = block.parent
        assert region is not None
        region.insert_block_after(tail, block)
        following = op.next_op
        while following is not None:
            nxt = following.next_op
            following.detach()
            tail.add_op(following)
            following = nxt
        op.detach()

        e = _Emitter(block, tail)
        b = e.builder
        sizes = [_as_i32(b, b.insert(gpu.BlockDimOp(d))) for d in "xyz"]
        ids = [_as_i32(b, b.insert(gpu.ThreadIdOp(d))) for d in "xyz"]
        # tid = (tz * ny + ty) * nx + tx; threads = nx * ny * nz
        row = b.insert(arith.MuliOp(ids[2], sizes[1])).results[0]
        row = b.insert(arith.AddiOp(row, ids[1])).results[0]
        row = b.insert(arith.MuliOp(row, sizes[0])).results[0]
        tid = b.insert(arith.AddiOp(row, ids[0])).results[0]
        plane = b.insert(arith.MuliOp(sizes[0], sizes[1])).results[0]
        threads = b.insert(arith.MuliOp(plane, sizes[2])).results[0]
        lane = b.insert(arith.AndIOp(tid, _const(b, WARP_SIZE - 1))).results[0]
        first_lane = b.insert(arith.CmpiOp(lane, _const(b, 0), "eq")).results[0]
        warp_start = b.insert(arith.SubiOp(tid, lane)).results[0]
        active = b.insert(arith.SubiOp(threads, warp_start)).results[0]

        partial = e.warp_reduce(op.value, active, combine)

        def store_partial() -> None:
            bb = e.builder
            warp = bb.insert(arith.DivSIOp(tid, _const(bb, WARP_SIZE))).results[0]
            bb.insert(memref.StoreOp.get(partial, buffer, [_as_index(bb, warp)]))

        e.if_then(first_lane, store_partial)
        e.builder.insert(gpu.BarrierOp())
        b = e.builder
        rounded = b.insert(arith.AddiOp(threads, _const(b, WARP_SIZE - 1))).results[0]
        warps = b.insert(arith.DivSIOp(rounded, _const(b, WARP_SIZE))).results[0]
        reduces = b.insert(arith.CmpiOp(tid, warps, "slt")).results[0]

        def reduce_partials() -> None:
            bb = e.builder
            loaded = bb.insert(memref.LoadOp.get(buffer, [_as_index(bb, tid)]))
            total = e.warp_reduce(loaded.results[0], warps, combine)
            bb = e.builder
            zero = bb.insert(arith.ConstantOp(IntegerAttr(0, IndexType())))
            bb.insert(memref.StoreOp.get(total, buffer, [zero]))

        e.if_then(reduces, reduce_partials)
        b = e.builder
        b.insert(gpu.BarrierOp())
        zero = b.insert(arith.ConstantOp(IntegerAttr(0, IndexType())))
        result = b.insert(memref.LoadOp.get(buffer, [zero])).results[0]
        b.insert(cf.BranchOp(tail, result))

        op.result.replace_all_uses_with(tail.args[0])
        op.erase()
        rewriter.has_done_action = True  # the IR was changed behind the rewriter


# -- gpu.subgroup_reduce -------------------------------------------------------------


REDUX_SM = 80
"""The first SM with ``redux.sync``."""


def targets_have_redux(module: kernel_ops.ModuleOp) -> bool:
    """Whether every target of the ``gpu.module`` is an ``#nvvm.target`` whose chip
    has ``redux.sync`` (``sm_80`` and later); ``False`` without targets."""
    targets = module.targets.data if module.targets is not None else ()
    if not targets:
        return False
    for target in targets:
        if not isinstance(target, nvvm.NVVMTargetAttr):
            return False
        version = target.sm_version
        if version is None or version.number < REDUX_SM:
            return False
    return True


def _uses_redux(op: gpu.SubgroupReduceOp, lowering: NVVMLowering) -> bool:
    return (
        (lowering.has_redux or targets_have_redux(lowering.module))
        and op.uniform is not None
        and op.cluster_size is None
        and op.value.type == i32
        and op.op.data in _REDUX_KINDS
    )


@dataclass
class SubgroupReduceExpansion(RewritePattern):
    """``gpu.subgroup_reduce`` → a butterfly of ``xor`` shuffles (unless redux)."""

    lowering: NVVMLowering

    acts_on = (gpu.SubgroupReduceOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.SubgroupReduceOp) or _uses_redux(op, self.lowering):
            return
        size = WARP_SIZE if op.cluster_size is None else op.cluster_size.value.data
        stride = op.cluster_stride.value.data
        if size * stride > WARP_SIZE:
            raise legalize_error(
                op,
                f"clusters of {size} lanes {stride} apart do not fit in a warp of "
                f"{WARP_SIZE} lanes",
            )
        combine = kind_combiner(op.op.data, op.value.type)
        builder = Builder(InsertPoint.before(op))
        width = _const(builder, WARP_SIZE)
        value: SSAValue = op.value
        offset = stride
        while offset < stride * size:
            shuffled, _ = _shuffle(builder, value, offset, width)
            value = combine(builder, value, shuffled)
            offset *= 2
        rewriter.replace(op, [], [value])


@dataclass
class ReduxLowering(RewritePattern):
    """``gpu.subgroup_reduce`` on ``i32`` → ``nvvm.redux.sync`` (``has-redux`` or
    an ``sm_80``+ target)."""

    lowering: NVVMLowering

    acts_on = (gpu.SubgroupReduceOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.SubgroupReduceOp) or not _uses_redux(
            op, self.lowering
        ):
            return
        operands = convert_operands(self.lowering.converter, op, rewriter)
        assert operands is not None
        builder = Builder(InsertPoint.before(op))
        mask = i32_constant(builder, -1)
        redux = builder.insert(
            nvvm.ReduxSyncOp(_REDUX_KINDS[op.op.data], operands[0], mask)
        )
        replace_op(op, [], [redux.results[0]], rewriter)


class BarrierLowering(RewritePattern):
    """``gpu.barrier`` → ``nvvm.barrier0``."""

    acts_on = (gpu.BarrierOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, gpu.BarrierOp):
            rewriter.replace(op, nvvm.Barrier0Op(), [])


def expansion_patterns(lowering: NVVMLowering) -> list[RewritePattern]:
    return [AllReduceExpansion(), SubgroupReduceExpansion(lowering)]


def reduction_patterns(lowering: NVVMLowering) -> list[RewritePattern]:
    return [ReduxLowering(lowering), BarrierLowering()]
