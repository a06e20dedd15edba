"""MLIR 22's ``transform.nvgpu.*`` ops (upstream's ``NVGPUTransformOps.td``).

* ``transform.nvgpu.rewrite_matmul_as_mma_sync %h : (!transform.any_op) -> ()``
* ``%r = transform.nvgpu.create_async_groups %h {bypass_l1} : (...) -> ...``
* ``%r = transform.nvgpu.pipeline_shared_memory_copies failures(propagate) %loop
  {depth = 2 : i64, peel_epilogue} : (...) -> ...``

They join the ``transform`` dialect through
:data:`xdsl_gpu.gpu_dialect.transform.EXTENSION_OPS`; what they do is in
:mod:`xdsl_gpu.passes.nvgpu_transforms`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import transform as xdsl_transform
from xdsl.dialects.builtin import I32, I64, IntegerAttr, UnitAttr, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

_HANDLE = xdsl_transform.TransformHandleType


@irdl_op_definition
class RewriteMatmulAsMmaSyncOp(IRDLOperation):
    """Rewrite each ``linalg.matmul`` on memrefs of the handle whose shape and types
    match one ``mma.sync`` (16x8x16 f16, 16x8x4 f32 as tf32) as that
    ``nvgpu.mma.sync`` with the per-lane loads and stores it needs."""

    name = "transform.nvgpu.rewrite_matmul_as_mma_sync"

    target = operand_def(_HANDLE)

    def __init__(self, target: SSAValue | Operation) -> None:
        super().__init__(operands=[target])

    # xDSL's declarative format has no ``functional-type`` without results.
    @classmethod
    def parse(cls, parser: Parser) -> RewriteMatmulAsMmaSyncOp:
        operand = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        function_at = parser.pos
        function = parser.parse_function_type()
        if len(function.inputs) != 1 or function.outputs.data:
            parser.raise_error(
                "expected '(handle type) -> ()'", function_at, parser.pos
            )
        op = cls(parser.resolve_operand(operand, function.inputs.data[0]))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.target)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_attribute(self.target.type)
        printer.print_string(") -> ()")


@irdl_op_definition
class CreateAsyncGroupsOp(IRDLOperation):
    """Turn the 1-D vector copies from global to shared memory under each payload op
    into ``nvgpu.device_async_copy`` ops, grouped and waited for; the result is the
    same payload (the handle is consumed)."""

    name = "transform.nvgpu.create_async_groups"

    target = operand_def(_HANDLE)
    bypass_l1 = opt_prop_def(UnitAttr)
    result = result_def(_HANDLE)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$target attr-dict `:` functional-type(operands, results)"

    def __init__(
        self,
        target: SSAValue | Operation,
        result_type: Attribute,
        bypass_l1: bool = False,
    ) -> None:
        super().__init__(
            operands=[target],
            result_types=[result_type],
            properties={"bypass_l1": UnitAttr()} if bypass_l1 else {},
        )


_FAILURE_MODES = {"propagate": 1, "suppress": 2}
"""``transform::FailurePropagationMode``'s values, as MLIR stores them (i32)."""


@irdl_op_definition
class PipelineSharedMemoryCopiesOp(IRDLOperation):
    """Software-pipeline the copies to shared memory of each ``scf.for`` of the
    handle ``depth`` deep (parsed and printed; applying it is an error here)."""

    name = "transform.nvgpu.pipeline_shared_memory_copies"

    for_op = operand_def(_HANDLE)
    depth = prop_def(IntegerAttr[I64])
    peel_epilogue = opt_prop_def(UnitAttr)
    failure_propagation_mode = prop_def(IntegerAttr[I32])
    result = result_def(_HANDLE)

    def __init__(
        self,
        for_op: SSAValue | Operation,
        result_type: Attribute,
        depth: int,
        peel_epilogue: bool = False,
        failure_mode: str = "propagate",
    ) -> None:
        properties: dict[str, Attribute] = {
            "depth": IntegerAttr(depth, 64),
            "failure_propagation_mode": IntegerAttr(_FAILURE_MODES[failure_mode], i32),
        }
        if peel_epilogue:
            properties["peel_epilogue"] = UnitAttr()
        super().__init__(
            operands=[for_op], result_types=[result_type], properties=properties
        )

    @classmethod
    def parse(cls, parser: Parser) -> PipelineSharedMemoryCopiesOp:
        parser.parse_keyword("failures")
        parser.parse_punctuation("(")
        mode_at = parser.pos
        mode = parser.parse_identifier()
        if mode not in _FAILURE_MODES:
            parser.raise_error(
                f"expected one of [propagate, suppress] for failure propagation "
                f"mode, got '{mode}'",
                mode_at,
                parser.pos,
            )
        parser.parse_punctuation(")")
        operand = parser.parse_unresolved_operand()
        attrs = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        function_at = parser.pos
        function = parser.parse_function_type()
        if len(function.inputs) != 1 or len(function.outputs) != 1:
            parser.raise_error(
                "expected '(handle type) -> handle type'", function_at, parser.pos
            )
        target = parser.resolve_operand(operand, function.inputs.data[0])
        depth = attrs.pop("depth", None)
        if not isinstance(depth, IntegerAttr):
            parser.raise_error(
                "requires attribute 'depth' (an integer: '{depth = 2}')",
                function_at,
            )
        properties: dict[str, Attribute] = {
            "depth": IntegerAttr(depth.value.data, 64),
            "failure_propagation_mode": IntegerAttr(_FAILURE_MODES[mode], i32),
        }
        if (peel := attrs.pop("peel_epilogue", None)) is not None:
            properties["peel_epilogue"] = peel
        op = cls.create(
            operands=[target],
            result_types=[function.outputs.data[0]],
            properties=properties,
            attributes=attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        mode = {v: k for k, v in _FAILURE_MODES.items()}.get(
            self.failure_propagation_mode.value.data, "propagate"
        )
        printer.print_string(f" failures({mode}) ")
        printer.print_operand(self.for_op)
        shown: dict[str, Attribute] = {"depth": self.depth}
        if self.peel_epilogue is not None:
            shown["peel_epilogue"] = self.peel_epilogue
        printer.print_op_attributes({**shown, **self.attributes})
        printer.print_string(" : (")
        printer.print_attribute(self.for_op.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.failure_propagation_mode.value.data not in _FAILURE_MODES.values():
            raise VerifyException(
                "failure_propagation_mode must be 1 (propagate) or 2 (suppress)"
            )


NVGPU_TRANSFORM_OPS: Sequence[type[Operation]] = (
    RewriteMatmulAsMmaSyncOp,
    CreateAsyncGroupsOp,
    PipelineSharedMemoryCopiesOp,
)
"""The ``transform.nvgpu.*`` ops xdsl-gpu defines."""
