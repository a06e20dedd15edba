"""``-int-range-optimizations``: rewrite what the integer range analysis proves.

MLIR's pass (``mlir/lib/Dialect/Arith/Transforms/IntRangeOptimizations.cpp``):

1. run the integer range analysis (:mod:`xdsl_gpu.passes.int_range.analysis`) on the
   whole input;
2. replace each used value whose range is a single value by a constant (an
   ``llvm.mlir.constant`` for a value of an ``llvm`` op, ``index.constant`` for an
   ``index`` op, else ``arith.constant``): a
   ``gpu.block_dim x`` in a ``gpu.func`` with ``known_block_size``, an
   ``arith.cmpi`` the ranges decide, a loop argument that never changes. An op left
   with no used result and no side effect is erased;
3. drop an ``arith.remsi``/``arith.remui`` by a positive constant whose dividend is
   known to lie in ``[0, modulus)``;

then, as MLIR's greedy driver does, drop unused arguments of branch targets, erase
the ops left dead and keep the constants at the front of their function, one per
value.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike, IsolatedFromAbove
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from xdsl_gpu.gpu_dialect import index, llvm
from xdsl_gpu.passes.branch_arguments import erase_dead_block_arguments
from xdsl_gpu.passes.greedy_constants import unique_constants
from xdsl_gpu.passes.int_range.analysis import IntRangeAnalysis
from xdsl_gpu.passes.int_range.op_ranges import constant_int
from xdsl_gpu.passes.int_range.ranges import to_signed


def _dialect_of(value: SSAValue) -> str:
    """The dialect that materializes a constant for ``value`` (its op's, or for a
    block argument the dialect of the op that owns the block)."""
    owner = value.owner
    if isinstance(owner, Block):
        owner = owner.parent_op()
    return owner.name.split(".")[0] if owner is not None else ""


def _constant(value: SSAValue, bits: int) -> Operation:
    """The constant op the value's dialect makes (MLIR's ``materializeConstant``:
    ``llvm`` and ``index`` have their own), else an ``arith.constant``."""
    type = value.type
    if isinstance(type, VectorType | TensorType):
        # A splat of the one value every element has.
        element = type.element_type
        assert isinstance(element, IntegerType | IndexType)
        number = IntegerAttr(bits, element, truncate_bits=True).value.data
        dense = DenseIntOrFPElementsAttr.from_list(type, [number])
        constant = arith.ConstantOp(dense)
        constant.results[0].name_hint = "cst"
        return constant
    assert isinstance(type, IntegerType | IndexType)
    attr = IntegerAttr(bits, type, truncate_bits=True)
    number = attr.value.data
    dialect = _dialect_of(value)
    is_bool = isinstance(type, IntegerType) and type.width.data == 1
    if dialect == "llvm":
        return llvm.ConstantOp(attr, type)
    if dialect == "index" and (is_bool or isinstance(type, IndexType)):
        if is_bool:
            constant = index.BoolConstantOp(bool(number))
            constant.results[0].name_hint = "true" if number else "false"
        else:
            constant = index.ConstantOp(number)
            constant.results[0].name_hint = f"idx{number}".replace("-", "_")
        return constant
    constant = arith.ConstantOp(attr, type)
    # The name MLIR's arith.constant gives itself (%c16, %c7_i8, %true).
    if is_bool:
        name = "true" if number else "false"
    else:
        name = f"c{number}".replace("-", "_")
        name += "" if isinstance(type, IndexType) else f"_{type}"
    constant.results[0].name_hint = name
    return constant


@dataclass(frozen=True)
class IntRangeOptimizationsPass(ModulePass):
    """Replace values the integer range analysis proves constant, drop no-op
    remainders (see the module docstring)."""

    name = "int-range-optimizations"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        solver = IntRangeAnalysis()
        solver.run(op)
        rewrite = _Rewrite(solver)
        for child in list(op.walk()):
            if not _attached(child, op):
                continue  # erased, or inside an op erased before it
            if not child.has_trait(ConstantLike):
                rewrite.materialize_constants(child)
            if child.parent is not None and child.name in (
                "arith.remsi",
                "arith.remui",
            ):
                _delete_trivial_rem(solver, child)
        erase_dead_block_arguments(op)
        _erase_dead_ops(op)
        unique_constants(op)


def _attached(op: Operation, root: Operation) -> bool:
    while op is not root:
        parent = op.parent_op()
        if parent is None:
            return False
        op = parent
    return True


def _entry_block(block: Block) -> Block:
    """The entry block of the closest region around ``block`` whose op is isolated
    from above: where MLIR's greedy driver keeps its constants."""
    while (region := block.parent) is not None:
        parent = region.parent
        if parent is None or parent.has_trait(IsolatedFromAbove):
            break
        if parent.name == "llvm.func":  # isolated in MLIR, not marked in xDSL
            break
        if (outer := parent.parent_block()) is None:
            break
        block = outer
    region = block.parent
    return region.blocks[0] if region is not None else block


class _Rewrite:
    """MLIR's ``MaterializeKnownConstantValues``, one constant per value and
    function (made at the function's entry, as the greedy driver moves them)."""

    def __init__(self, solver: IntRangeAnalysis):
        self.solver = solver
        self.made: dict[tuple[Block, str, Attribute, int], SSAValue] = {}

    def _constant_for(self, value: SSAValue, bits: int, block: Block) -> SSAValue:
        entry = _entry_block(block)
        key = (entry, _dialect_of(value), value.type, bits)
        if (made := self.made.get(key)) is None:
            constant = _constant(value, bits)
            Rewriter.insert_op(constant, InsertPoint.at_start(entry))
            made = self.made[key] = constant.results[0]
            self.solver.copy_range(value, made)
        return made

    def _replace(self, value: SSAValue, block: Block) -> bool:
        if value.first_use is None:
            return False
        bits = self.solver.constant_of(value)
        if bits is None:
            return False
        constant = self._constant_for(value, bits, block)
        name = constant.name_hint
        value.replace_all_uses_with(constant)
        constant.name_hint = name
        return True

    def materialize_constants(self, op: Operation) -> None:
        block = op.parent_block()
        replaced_all = bool(op.results) and block is not None
        for result in op.results:
            if block is None or not self._replace(result, block):
                replaced_all &= result.first_use is None
        if replaced_all and is_trivially_dead(op):
            Rewriter.erase_op(op)
            return
        for region in op.regions:
            for region_block in region.blocks:
                for arg in region_block.args:
                    self._replace(arg, region_block)


def _delete_trivial_rem(solver: IntRangeAnalysis, op: Operation) -> None:
    """``x rem m`` is ``x`` when ``x`` is known to lie in ``[0, m)``."""
    lhs, rhs = op.operands
    modulus = constant_int(rhs)
    ranges = solver.range_of(lhs)
    if modulus is None or ranges is None:
        return
    modulus = to_signed(modulus, ranges.width)
    if modulus <= 0:
        return
    if op.name == "arith.remui":
        low, high = ranges.umin, ranges.umax
        low, high = to_signed(low, ranges.width), to_signed(high, ranges.width)
    else:
        low, high = ranges.smin, ranges.smax
    if 0 <= low <= high < modulus:
        op.results[0].replace_all_uses_with(lhs)
        Rewriter.erase_op(op)


def _erase_dead_ops(root: Operation) -> None:
    """Erase ops whose results are unused and that have no effect, users first."""
    for op in reversed(list(root.walk())):
        if op is not root and op.parent is not None and is_trivially_dead(op):
            Rewriter.erase_op(op)


__all__ = ["IntRangeOptimizationsPass"]
