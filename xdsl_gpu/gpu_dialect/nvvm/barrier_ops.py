"""The CTA barrier with operands, ``nvvm.barrier`` (MLIR 22), and its reduction kind
``#nvvm.reduction``.

Printed forms (MLIR 22)::

    nvvm.barrier
    nvvm.barrier id = %id
    nvvm.barrier id = %id number_of_threads = %n
    %r = nvvm.barrier #nvvm.reduction<popc> %pred -> i32

``nvvm.barrier0`` (:mod:`.sync_ops`) is the form without operands that
``convert-gpu-to-nvvm`` writes. MLIR 22's parser reads ``%id #nvvm...`` as a result
number of ``%id``, so a reduction is only ever written without ``id`` (which the
verifier requires anyway).

LLVM IR as ``mlir-translate-22`` writes it: ``llvm.nvvm.barrier.cta.sync.aligned.all(id)``
(``.count(id, n)`` with a thread count; id 0 when absent); a reduction compares the
predicate with 0 and calls ``llvm.nvvm.barrier.cta.red.<kind>.aligned.all(i32 0, i1)``,
whose ``i1`` result (``and``/``or``) is zero-extended to ``i32``.
"""

from __future__ import annotations

from enum import auto
from typing import Any

from xdsl.dialects.builtin import I32, DenseArrayBase, i32
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.nvvm.attributes import AngleBracketSyntax


class BarrierReduction(StrEnum):
    POPC = auto()
    AND = auto()
    OR = auto()


@irdl_attr_definition
class BarrierReductionAttr(AngleBracketSyntax, EnumAttribute[BarrierReduction]):
    """``#nvvm.reduction<popc|and|or>``: what ``nvvm.barrier`` computes over the
    predicates of the participating threads."""

    name = "nvvm.reduction"


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """``nvvm.barrier``: CTA-wide barrier on barrier ``barrierId`` (0 when absent)
    among ``numberOfThreads`` threads (all when absent); with ``reductionOp`` it
    also reduces ``reductionPredicate`` over the threads (result ``i32``)."""

    name = "nvvm.barrier"

    barrier_id = opt_operand_def(I32)
    number_of_threads = opt_operand_def(I32)
    reduction_predicate = opt_operand_def(I32)
    res = opt_result_def(I32)
    reduction_op = opt_prop_def(BarrierReductionAttr, prop_name="reductionOp")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        barrier_id: SSAValue | Operation | None = None,
        number_of_threads: SSAValue | Operation | None = None,
        reduction: tuple[BarrierReduction, SSAValue | Operation] | None = None,
    ):
        properties: dict[str, Attribute] = {}
        predicate: list[SSAValue | Operation] = []
        if reduction is not None:
            properties["reductionOp"] = BarrierReductionAttr(reduction[0])
            predicate = [reduction[1]]
        super().__init__(
            operands=[
                [] if barrier_id is None else [barrier_id],
                [] if number_of_threads is None else [number_of_threads],
                predicate,
            ],
            result_types=[[i32] if reduction is not None else []],
            properties=properties,
        )

    @classmethod
    def parse(cls, parser: Parser) -> BarrierOp:
        groups: list[list[UnresolvedOperand]] = []
        for keyword in ("id", "number_of_threads"):
            if parser.parse_optional_keyword(keyword) is None:
                groups.append([])
                continue
            parser.parse_punctuation("=")
            groups.append([parser.parse_unresolved_operand()])
        properties: dict[str, Attribute] = {}
        predicate: list[UnresolvedOperand] = []
        token = parser._current_token  # pyright: ignore[reportPrivateUsage]
        if token.kind == MLIRTokenKind.HASH_IDENT:
            # `#nvvm.reduction<kind>`, in full (a `{` here is the attr-dict).
            start = parser.pos
            kind = parser.parse_attribute()
            if not isinstance(kind, BarrierReductionAttr):
                parser.raise_error(
                    f"expected #{BarrierReductionAttr.name}<...>", start, parser.pos
                )
            properties["reductionOp"] = kind
            predicate = [parser.parse_unresolved_operand()]
        groups.append(predicate)
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types.append(parser.parse_type())
        attributes = parser.parse_optional_attr_dict()
        if "reductionOp" in attributes:
            properties["reductionOp"] = attributes.pop("reductionOp")
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32, [len(g) for g in groups]
        )
        return cls.create(
            operands=[parser.resolve_operand(o, i32) for g in groups for o in g],
            result_types=result_types,
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        for keyword, value in (
            ("id", self.barrier_id),
            ("number_of_threads", self.number_of_threads),
        ):
            if value is not None:
                printer.print_string(f" {keyword} = ")
                printer.print_operand(value)
        if self.reduction_op is not None and self.reduction_predicate is not None:
            printer.print_string(" ")
            printer.print_attribute(self.reduction_op)
            printer.print_string(" ")
            printer.print_operand(self.reduction_predicate)
        if self.res is not None:
            printer.print_string(" -> ")
            printer.print_attribute(self.res.type)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.number_of_threads is not None and self.barrier_id is None:
            raise VerifyException(
                f"'{self.name}' op barrier id is missing, it should be set between 0 "
                "to 15"
            )
        has_op = self.reduction_op is not None
        has_predicate = self.reduction_predicate is not None
        if self.barrier_id is not None and (has_op or has_predicate):
            raise VerifyException(
                f"'{self.name}' op reduction are only available when id is 0"
            )
        if has_op != has_predicate:
            raise VerifyException(
                f"'{self.name}' op reduction predicate and reduction operation must "
                "be specified together"
            )

    def llvm_ir(self, emitter: Any) -> None:
        """The barrier call; with a reduction, the predicate test before it and, for
        ``and``/``or``, the ``zext`` of its ``i1`` after it (see the module)."""
        barrier_id = "0" if self.barrier_id is None else emitter.ref(self.barrier_id)
        if self.reduction_op is None or self.reduction_predicate is None:
            # A result without a reduction is never defined (as upstream).
            if self.number_of_threads is None:
                name, args = "all", [("i32", barrier_id)]
            else:
                count = emitter.ref(self.number_of_threads)
                name, args = "count", [("i32", barrier_id), ("i32", count)]
            emitter.call_intrinsic(
                f"llvm.nvvm.barrier.cta.sync.aligned.{name}", None, args
            )
            return
        kind = self.reduction_op.data
        predicate = emitter.fresh()
        emitter.emit(
            f"{predicate} = icmp ne i32 {emitter.ref(self.reduction_predicate)}, 0"
        )
        ret = "i32" if kind == BarrierReduction.POPC else "i1"
        callee = emitter.module.declare(
            f"llvm.nvvm.barrier.cta.red.{kind.value}.aligned.all", ret, ["i32", "i1"]
        )
        call = emitter.fresh()
        emitter.emit(f"{call} = call {ret} {callee}(i32 {barrier_id}, i1 {predicate})")
        value = call
        if ret == "i1":
            value = emitter.fresh()
            emitter.emit(f"{value} = zext i1 {call} to i32")
        if self.res is not None:
            emitter.bind(self.res, value)


OPERATIONS: tuple[type[Operation], ...] = (BarrierOp,)
ATTRIBUTES: tuple[type[Attribute], ...] = (BarrierReductionAttr,)

__all__ = ["BarrierOp", "BarrierReduction", "BarrierReductionAttr"]
