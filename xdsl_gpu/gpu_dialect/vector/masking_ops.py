"""``vector.mask`` and its terminator ``vector.yield`` (MLIR 22), and which ops a mask
may wrap (upstream's ``MaskableOpInterface``)::

    %r = vector.mask %m { vector.reduction <add>, %v : vector<16xf32> into f32 }
        : vector<16xi1> -> f32
    %t = vector.mask %m, %pass { vector.transfer_read %a[%i], %pad
        : memref<?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>

The region holds one maskable op and a ``vector.yield`` of its results (or only a
``vector.yield``). As upstream prints it, the custom form shows the first op of the
region without its results and leaves the terminator implicit; the parser adds
``vector.yield`` of the op's results when the region has none.

Maskable ops and the mask each expects: ``transfer_read``/``transfer_write`` (the
transfer's mask type, from its permutation map), ``gather`` (the result's shape),
``reduction`` and ``multi_reduction`` (the source's shape), ``contract`` (the
iteration space, one dim per iterator), ``outerproduct`` (the result's shape). Only
``transfer_read`` takes a passthru.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, cast

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import IntegerType, VectorType, i1
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.vector.attributes import quoted
from xdsl_gpu.gpu_dialect.vector.compute_ops import (
    ContractionOp,
    MultiDimReductionOp,
    OuterProductOp,
    ReductionOp,
)
from xdsl_gpu.gpu_dialect.vector.memory_ops import (
    GatherOp,
    TransferReadOp,
    TransferWriteOp,
)


def _mask_like(t: Attribute) -> VectorType:
    v = cast(VectorType, t)
    return VectorType(i1, v.get_shape(), v.scalable_dims)


def expected_mask_type(op: Operation) -> VectorType | None:
    """The mask type ``op`` takes inside ``vector.mask`` (upstream's
    ``getExpectedMaskType``); ``None`` when ``op`` is not maskable."""
    if isinstance(op, TransferReadOp | TransferWriteOp):
        vector = op.result.type if isinstance(op, TransferReadOp) else op.vector.type
        return xvector.VectorTransferOperation.infer_transfer_op_mask_type(
            cast(VectorType, vector), op.permutation_map.data
        )
    if isinstance(op, GatherOp):
        return _mask_like(op.result.type)
    if isinstance(op, ReductionOp):
        return _mask_like(op.vector.type)
    if isinstance(op, MultiDimReductionOp):
        return _mask_like(op.source.type)
    if isinstance(op, OuterProductOp):
        return _mask_like(op.result.type)
    if isinstance(op, ContractionOp):
        sizes = op.iteration_sizes()
        return VectorType(i1, [sizes[d] for d in range(len(op.iterators))])
    return None


def supports_passthru(op: Operation) -> bool:
    """Whether a passthru may go with ``op`` (a masked-off lane of the result takes
    the passthru's lane)."""
    return isinstance(op, TransferReadOp)


@irdl_op_definition
class YieldOp(IRDLOperation):
    """``vector.yield %r : f32``: the values a ``vector.mask`` returns."""

    name = "vector.yield"
    operands_ = var_operand_def()
    traits = traits_def(IsTerminator(), Pure())
    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, values: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class MaskOp(IRDLOperation):
    """``%r = vector.mask %mask (, %passthru)? { <maskable op> } : vector<..xi1> ->
    <result>``: the op in the region, with the lanes whose mask bit is clear masked
    off (see the module docstring)."""

    name = "vector.mask"
    mask = operand_def()
    passthru = opt_operand_def()
    results_ = var_result_def()
    mask_region = region_def("single_block")
    # The yield is checked by verify_ with upstream's message ("expects a terminator
    # within the mask region"), not by xDSL's generic terminator check.
    traits = traits_def(NoTerminator())

    def __init__(
        self,
        mask: SSAValue | Operation,
        body: Operation | None,
        passthru: SSAValue | Operation | None = None,
        result_types: Sequence[Attribute] | None = None,
    ):
        block = Block()
        if body is not None:
            block.add_op(body)
            block.add_op(YieldOp(body.results))
            if result_types is None:
                result_types = [r.type for r in body.results]
        else:
            block.add_op(YieldOp())
        super().__init__(
            operands=[mask, [] if passthru is None else [passthru]],
            result_types=[list(result_types or [])],
            regions=[Region(block)],
        )

    @property
    def masked_op(self) -> Operation | None:
        """The op the mask applies to; ``None`` for an empty mask (a yield only)."""
        first = self.mask_region.block.first_op
        return None if first is None or isinstance(first, YieldOp) else first

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        mask = parser.parse_unresolved_operand()
        passthru: UnresolvedOperand | None = None
        if parser.parse_optional_punctuation(","):
            passthru = parser.parse_unresolved_operand()
        region = parser.parse_region()
        block = region.block
        last = block.last_op
        if last is None or not last.has_trait(IsTerminator):
            first = block.first_op
            block.add_op(YieldOp(first.results if first is not None else ()))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        mask_type = parser.parse_type()
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            result_types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
        operands: list[SSAValue] = [parser.resolve_operand(mask, mask_type)]
        if passthru is not None:
            if not result_types:
                parser.raise_error("expects a result if passthru operand is provided")
            operands.append(parser.resolve_operand(passthru, result_types[0]))
        op = cls.create(
            operands=operands,
            result_types=result_types,
            regions=[region],
            attributes=attrs,
        )
        op.properties.clear()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.mask)
        if self.passthru is not None:
            printer.print_string(", ")
            printer.print_operand(self.passthru)
        printer.print_string(" { ")
        first = self.mask_region.block.first_op
        if first is not None:
            _print_without_results(printer, first)
        printer.print_string(" }")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.mask.type)
        if self.results:
            printer.print_string(" -> ")
            printer.print_list(self.result_types, printer.print_attribute)

    def verify_(self) -> None:
        mask_t = self.mask.type
        if not (
            isinstance(mask_t, VectorType)
            and cast(VectorType, mask_t).element_type == IntegerType(1)
        ):
            raise VerifyException(
                "operand #0 must be vector of 1-bit signless integer values, but got "
                f"{quoted(mask_t)}"
            )
        block = self.mask_region.block
        if block.args:
            raise VerifyException("region should have no arguments")
        ops = list(block.ops)
        if not ops:
            raise VerifyException("expects a terminator within the mask region")
        if len(ops) > 2:
            raise VerifyException("expects only one operation to mask")
        terminator = ops[-1]
        if not isinstance(terminator, YieldOp):
            raise VerifyException("expects a terminator within the mask region")
        if len(terminator.operands) != len(self.results):
            raise VerifyException(
                "expects number of results to match mask region yielded values"
            )
        if len(ops) == 1:
            return  # an empty mask: it yields values from outside
        masked = ops[0]
        expected = expected_mask_type(masked)
        if expected is None:
            raise VerifyException(
                "expects a MaskableOpInterface within the mask region"
            )
        if len(masked.results) != len(self.results):
            raise VerifyException(
                "expects number of results to match maskable operation number of "
                "results"
            )
        if list(masked.results) != list(terminator.operands):
            raise VerifyException(
                "expects all the results from the MaskableOpInterface to match all "
                "the values returned by the terminator"
            )
        if list(masked.result_types) != list(self.result_types):
            raise VerifyException(
                "expects result type to match maskable operation result type"
            )
        if mask_t != expected:
            raise VerifyException(
                f"expects a {quoted(expected)} mask for the maskable operation"
            )
        if self.passthru is not None:
            if not supports_passthru(masked):
                raise VerifyException(
                    "doesn't expect a passthru argument for this maskable operation"
                )
            if self.passthru.type != masked.results[0].type:
                raise VerifyException("expects passthru type to match result type")


def _print_without_results(printer: Printer, op: Operation) -> None:
    """``op`` as the printer writes it, less its ``%r = `` (upstream's
    ``printCustomOrGenericOp``)."""
    if printer.print_generic_format or Operation.print is type(op).print:
        printer.print_string(f'"{op.name}"')
        printer.print_op_with_default_format(op)
    else:
        printer.print_string(op.name)
        op.print(printer)


__all__ = [
    "MaskOp",
    "YieldOp",
    "expected_mask_type",
    "supports_passthru",
]
