"""``convert-cf-to-llvm``: the ``cf`` dialect to the ``llvm`` dialect.

Upstream: ``mlir/lib/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.cpp`` (MLIR 22).

* ``cf.br``, ``cf.cond_br``, ``cf.switch`` → ``llvm.br``, ``llvm.cond_br``,
  ``llvm.switch``. The successor blocks get converted argument types (``index`` →
  ``iN``, memref → descriptor struct, ...); their old uses see an
  ``unrealized_conversion_cast`` back.
* ``cf.assert %c, "msg"`` → the block is split; on failure the message is printed with
  ``puts`` from a private constant global ``@assert_msg`` (``_0``, ``_1``, ... when the
  name is taken) and ``abort()`` is called, then ``llvm.unreachable``. ``@puts`` and
  ``@abort`` are declared in the module when missing.

Option ``index-bitwidth`` (default 0: 64 bits), for ``index`` block arguments and
``cf.switch`` on ``index``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    ModuleOp,
    TensorType,
    i8,
)
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import SymbolTable

from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.passes.llvm_type_converter import (
    LLVMTypeConverter,
    apply_patterns,
    conversion_error,
    convert_block_signature,
    to_llvm,
)
from xdsl_gpu.passes.options import UpstreamOptions

PASS_NAME = "convert-cf-to-llvm"


@dataclass
class BranchLowering(RewritePattern):
    """``cf.br``/``cf.cond_br``/``cf.switch`` with converted operands and successors."""

    converter: LLVMTypeConverter

    acts_on = (cf.BranchOp, cf.ConditionalBranchOp, cf.SwitchOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, cf.BranchOp | cf.ConditionalBranchOp | cf.SwitchOp):
            return
        for successor in op.successors:
            if not convert_block_signature(self.converter, successor, rewriter):
                raise conversion_error(
                    PASS_NAME,
                    op,
                    "branches to a block with an argument type that has no LLVM "
                    f"equivalent ({', '.join(str(a.type) for a in successor.args)})",
                )
        operands = []
        for operand in op.operands:
            target = self.converter.convert_type(operand.type)
            if target is None:
                raise conversion_error(
                    PASS_NAME,
                    op,
                    f"has an operand of type {operand.type} with no LLVM equivalent",
                )
            operands.append(to_llvm(operand, target, rewriter))
        new: Operation
        match op:
            case cf.BranchOp():
                new = llvm.BrOp(op.successor, *operands)
            case cf.ConditionalBranchOp():
                n_then = len(op.then_arguments)
                new = llvm.CondBrOp(
                    operands[0],
                    op.then_block,
                    operands[1 : 1 + n_then],
                    op.else_block,
                    operands[1 + n_then :],
                )
            case cf.SwitchOp():
                n_default = len(op.default_operands)
                case_operands = operands[1 + n_default :]
                groups = []
                start = 0
                for size in op.case_operand_segments.get_values():
                    assert isinstance(size, int)
                    groups.append(case_operands[start : start + size])
                    start += size
                values = (
                    [int(v) for v in op.case_values.get_values()]
                    if op.case_values is not None
                    else []
                )
                new = llvm.SwitchOp(
                    operands[0],
                    op.default_block,
                    operands[1 : 1 + n_default],
                    values,
                    list(op.case_blocks),
                    groups,
                )
        rewriter.replace(op, new, [])


@dataclass
class AssertLowering(RewritePattern):
    """``cf.assert`` → ``puts(msg); abort()`` on the failure path (upstream's
    ``abortOnFailedAssert = true``)."""

    converter: LLVMTypeConverter

    acts_on = (cf.AssertOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, cf.AssertOp):
            return
        module = _symbol_table_module(op)
        block = op.parent_block()
        region = op.parent_region()
        assert block is not None
        assert region is not None

        # Split: the assert's block ends with a cond_br to the rest (continuation)
        # or to a new failure block at the end of the region.
        continuation = Block()
        region.insert_block_after(continuation, block)
        for moved in list(_ops_after(op)):
            moved.detach()
            continuation.add_op(moved)
        failure = Block()
        region.add_block(failure)

        message = _message_global(module, op.msg.data)
        ptr = llvm.LLVMPointerType()
        failure.add_ops(
            [
                address := llvm.AddressOfOp(message.sym_name, ptr),
                gep := llvm.GEPOp(address, [0], message.global_type),
                llvm.CallOp("puts", gep.result),
                llvm.CallOp("abort"),
                llvm.UnreachableOp(),
            ]
        )
        _declare(module, "puts", llvm.LLVMFunctionType([ptr]))
        _declare(module, "abort", llvm.LLVMFunctionType([]))
        rewriter.replace(op, llvm.CondBrOp(op.arg, continuation, [], failure, []), [])


def _ops_after(op: Operation):
    nxt = op.next_op
    while nxt is not None:
        following = nxt.next_op
        yield nxt
        nxt = following


def _symbol_table_module(op: Operation) -> ModuleOp:
    """The nearest ``builtin.module`` (there is one: the pass runs on a module)."""
    parent = op.parent_op()
    while not isinstance(parent, ModuleOp):
        assert parent is not None
        parent = parent.parent_op()
    return parent


def _unique_name(module: ModuleOp, name: str) -> str:
    """``name``, or ``name_0``, ``name_1``... if taken (upstream's
    ``ensureSymbolNameIsUnique``)."""
    candidate, counter = name, 0
    while SymbolTable.lookup_symbol(module, candidate) is not None:
        candidate = f"{name}_{counter}"
        counter += 1
    return candidate


def _message_global(module: ModuleOp, text: str) -> llvm.GlobalOp:
    data = [*text.encode(), 0]
    array = llvm.LLVMArrayType(len(data), i8)
    value = DenseIntOrFPElementsAttr.from_list(TensorType(i8, [len(data)]), data)
    glob = llvm.GlobalOp(
        array, _unique_name(module, "assert_msg"), "private", constant=True, value=value
    )
    _insert_at_module_start(module, glob)
    return glob


def _declare(module: ModuleOp, name: str, type: llvm.LLVMFunctionType) -> None:
    if SymbolTable.lookup_symbol(module, name) is None:
        _insert_at_module_start(
            module, llvm.FuncOp(name, type, linkage=llvm.LinkageAttr("external"))
        )


def _insert_at_module_start(module: ModuleOp, op: Operation) -> None:
    block = module.body.block
    if block.first_op is None:
        block.add_op(op)
    else:
        block.insert_op_before(op, block.first_op)


def cf_to_llvm_patterns(converter: LLVMTypeConverter) -> list[RewritePattern]:
    return [BranchLowering(converter), AssertLowering(converter)]


@dataclass(frozen=True)
class ConvertControlFlowToLLVMPass(UpstreamOptions, ModulePass):
    """Lower ``cf`` to ``llvm`` (see the module docstring).

    Options:
      index-bitwidth: bit width of ``index`` (0: 64, upstream's default).
    """

    name = "convert-cf-to-llvm"

    index_bitwidth: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        converter = LLVMTypeConverter.for_pass(self.name, self.index_bitwidth)
        apply_patterns(op, cf_to_llvm_patterns(converter))
