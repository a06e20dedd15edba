"""``nvgpu.rcp``: the reciprocal of an ``f32`` vector.

Printed form (MLIR 22, spacing as upstream prints it)::

    %r = nvgpu.rcp %v {rounding = approx, ftz} : vector<4xf32>

Only ``approx`` with ``ftz`` is supported, as upstream; it lowers to
``nvvm.rcp.approx.ftz.f`` per element.
"""

from __future__ import annotations

from xdsl.dialects.builtin import UnitAttr, VectorType, f32
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvgpu.attributes import RcpRoundingMode, RcpRoundingModeAttr

_APPROX = RcpRoundingModeAttr(RcpRoundingMode.APPROX)


@irdl_op_definition
class RcpOp(IRDLOperation):
    name = "nvgpu.rcp"

    input = operand_def(VectorType)
    out = result_def(VectorType)
    rounding = prop_def(RcpRoundingModeAttr, default_value=_APPROX)
    ftz = opt_prop_def(UnitAttr)

    def __init__(
        self,
        value: SSAValue | Operation,
        rounding: RcpRoundingMode = RcpRoundingMode.APPROX,
        ftz: bool = True,
    ):
        super().__init__(
            operands=[value],
            result_types=[SSAValue.get(value).type],
            properties={"rounding": RcpRoundingModeAttr(rounding)}
            | ({"ftz": UnitAttr()} if ftz else {}),
        )

    @classmethod
    def parse(cls, parser: Parser) -> RcpOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation("{")
        parser.parse_keyword("rounding")
        parser.parse_punctuation("=")
        rounding = parser.parse_str_enum(RcpRoundingMode)
        ftz = parser.parse_optional_punctuation(",") is not None
        if ftz:
            parser.parse_keyword("ftz")
        parser.parse_punctuation("}")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        op = cls.create(
            operands=[parser.resolve_operand(value, result_type)],
            result_types=[result_type],
            properties={"rounding": RcpRoundingModeAttr(rounding)}
            | ({"ftz": UnitAttr()} if ftz else {}),
            attributes=attributes,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_string(f"{{rounding =  {self.rounding.data.value}")
        if self.ftz is not None:
            printer.print_string(", ftz")
        printer.print_string("}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.out.type)

    def verify_(self) -> None:
        for value in (self.input, self.out):
            t = value.type
            if not (
                isinstance(t, VectorType) and t.get_shape() and t.element_type == f32
            ):
                raise VerifyException(
                    f"'{self.name}' op operand #0 must be vector of 32-bit float "
                    f"values, but got '{t}'"
                )
        if self.input.type != self.out.type:
            raise VerifyException(
                f"'{self.name}' op requires the same type for all operands and results"
            )
        if self.rounding.data != RcpRoundingMode.APPROX or self.ftz is None:
            raise VerifyException(
                f"'{self.name}' op has a limitation. {self.rounding} or non-ftz is "
                "not supported yet."
            )


OPERATIONS: tuple[type[Operation], ...] = (RcpOp,)

__all__ = ["RcpOp"]
