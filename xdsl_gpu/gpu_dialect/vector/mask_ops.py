"""The ops of the ``vector`` dialect that make masks and index vectors:
``create_mask``, ``constant_mask`` and ``step``."""

from __future__ import annotations

from typing import Self

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import I1, I64, DenseArrayBase, IndexType, VectorType
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.vector.attributes import (
    i64_array,
    parse_i64_list,
    print_i64_list,
    quoted,
)
from xdsl_gpu.gpu_dialect.xdsl_format import RESET_FORMAT


@irdl_op_definition
class CreateMaskOp(xvector.CreateMaskOp):
    """``%m = vector.create_mask %a, %b : vector<4x8xi1>``"""

    mask_dim_sizes = var_operand_def(IndexType)
    mask_vector = result_def(VectorType[I1])
    traits = traits_def(Pure())
    parse = RESET_FORMAT["parse"]
    print = RESET_FORMAT["print"]

    def verify_(self) -> None:
        t = self.mask_vector.type
        assert isinstance(t, VectorType)
        if t.get_num_dims() != len(self.mask_dim_sizes):  # pyright: ignore
            raise VerifyException(
                "must specify an operand for each result vector dimension"
            )


@irdl_op_definition
class ConstantMaskOp(IRDLOperation):
    """``%m = vector.constant_mask [2, 4] : vector<4x8xi1>``"""

    name = "vector.constant_mask"
    mask_dim_sizes = prop_def(DenseArrayBase[I64])
    result = result_def(VectorType[I1])
    traits = traits_def(Pure())

    def __init__(self, sizes: list[int], result_type: VectorType):
        super().__init__(
            result_types=[result_type], properties={"mask_dim_sizes": i64_array(sizes)}
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        sizes = parse_i64_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls.create(
            result_types=[parser.parse_type()],
            properties={"mask_dim_sizes": i64_array(sizes)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_i64_list(printer, self.mask_dim_sizes.get_values())
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        t = self.result.type
        assert isinstance(t, VectorType)
        sizes = self.mask_dim_sizes.get_values()
        shape = t.get_shape()  # pyright: ignore[reportUnknownMemberType]
        if len(sizes) != len(shape) and not (len(shape) == 0 and len(sizes) == 1):
            raise VerifyException(
                "must specify array attr of size equal vector result rank"
            )
        for s, d in zip(sizes, shape or (1,)):
            if not 0 <= s <= d:
                raise VerifyException(
                    "array attr of size out of bounds of vector result dimension size"
                )
        if 0 in sizes and any(sizes):
            raise VerifyException(
                "expected all mask dim sizes to be zeros, as a result of conjunction "
                "with zero mask dim"
            )
        for s, d, scalable in zip(sizes, shape, t.scalable_dims):  # pyright: ignore
            if scalable.value and s not in (0, d):
                raise VerifyException(
                    "only supports 'none set' or 'all set' scalable dimensions"
                )


@irdl_op_definition
class StepOp(IRDLOperation):
    """``%s = vector.step : vector<4xindex>``: the vector ``[0, 1, ..., n-1]``."""

    name = "vector.step"
    result = result_def(VectorType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: VectorType):
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        t = self.result.type
        assert isinstance(t, VectorType)
        if t.get_num_dims() != 1 or not isinstance(t.element_type, IndexType):  # pyright: ignore
            raise VerifyException(
                "result #0 must be vector of index values of ranks 1, but got "
                f"{quoted(t)}"
            )


__all__ = ["ConstantMaskOp", "CreateMaskOp", "StepOp"]
