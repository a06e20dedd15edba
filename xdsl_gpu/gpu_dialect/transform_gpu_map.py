"""``transform.gpu.map_forall_to_blocks`` and ``transform.gpu.map_nested_forall_to_threads``
(MLIR 22's ``GPUTransformOps.td``): the transform ops that turn ``scf.forall`` loops
with ``#gpu.block``/``#gpu.thread``/``#gpu.warp``/``#gpu.warpgroup``/``#gpu.lane``
mappings into ``gpu.launch`` grids and thread ids::

    %launch = transform.gpu.map_forall_to_blocks %func generate_gpu_launch
        : (!transform.any_op) -> !transform.any_op
    transform.gpu.map_forall_to_blocks %launch grid_dims = [12, 9, 1] : ...
    transform.gpu.map_nested_forall_to_threads %launch block_dims = [32, 4, 1]
        sync_after_distribute = false warp_size = 16 : ...

Both take their attributes in the ``{...}`` dictionary too (``%f { generate_gpu_launch
}``). What they do is in :mod:`xdsl_gpu.passes.transform_gpu_map_forall`.
"""

from __future__ import annotations

from xdsl.dialects import transform as xdsl_transform
from xdsl.dialects.builtin import (
    I64,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


def _dims(values: list[int]) -> DenseArrayBase[I64]:
    return DenseArrayBase.from_list(i64, values)


def _dims_values(attr: DenseArrayBase[I64] | None) -> list[int]:
    return [] if attr is None else [int(v) for v in attr.get_values()]


def _parse_dims(parser: Parser) -> DenseArrayBase[I64]:
    """``[12, 9, 1]`` (a ``DenseI64ArrayAttr`` in MLIR's short form)."""
    values = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )
    return _dims(values)


def _print_dims(printer: Printer, attr: DenseArrayBase[I64]) -> None:
    printer.print_string("[" + ", ".join(str(v) for v in _dims_values(attr)) + "]")


def _parse_functional_type(
    parser: Parser, target: object
) -> tuple[SSAValue, Attribute, dict[str, Attribute]]:
    attributes = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    start = parser.pos
    function = parser.parse_function_type()
    if len(function.inputs.data) != 1 or len(function.outputs.data) != 1:
        parser.raise_error(
            "expected '(!transform.any_op) -> !transform.any_op': one target and "
            "one result",
            start,
            parser.pos,
        )
    value = parser.resolve_operand(target, function.inputs.data[0])  # type: ignore[arg-type]
    return value, function.outputs.data[0], attributes


def _print_functional_type(printer: Printer, op: IRDLOperation) -> None:
    printer.print_string(" : (")
    printer.print_attribute(op.operands[0].type)
    printer.print_string(") -> ")
    printer.print_attribute(op.results[0].type)


def _split(
    op_type: type[IRDLOperation], attributes: dict[str, Attribute]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    names = op_type.get_irdl_definition().properties
    return (
        {k: v for k, v in attributes.items() if k in names},
        {k: v for k, v in attributes.items() if k not in names},
    )


@irdl_op_definition
class MapForallToBlocksOp(IRDLOperation):
    """``transform.gpu.map_forall_to_blocks %target (generate_gpu_launch)?
    (grid_dims = [x, y, z])? : (type) -> type``: the unique top-level ``scf.forall``
    under each payload op becomes the blocks of a ``gpu.launch`` (the payload op
    itself, or a new one around the loop with ``generate_gpu_launch``)."""

    name = "transform.gpu.map_forall_to_blocks"

    target = operand_def(xdsl_transform.TransformHandleType)
    grid_dims = opt_prop_def(DenseArrayBase.constr(i64))
    generate_gpu_launch = opt_prop_def(UnitAttr)
    result = result_def(xdsl_transform.TransformHandleType)

    @property
    def grid_dims_values(self) -> list[int]:
        return _dims_values(self.grid_dims)

    @classmethod
    def parse(cls, parser: Parser) -> MapForallToBlocksOp:
        target = parser.parse_unresolved_operand()
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("generate_gpu_launch") is not None:
            properties["generate_gpu_launch"] = UnitAttr()
        if parser.parse_optional_keyword("grid_dims") is not None:
            parser.parse_punctuation("=")
            properties["grid_dims"] = _parse_dims(parser)
        value, result, attributes = _parse_functional_type(parser, target)
        props, attrs = _split(cls, attributes)
        op = cls.create(
            operands=[value], result_types=[result], properties=properties | props
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.target)
        if self.generate_gpu_launch is not None:
            printer.print_string(" generate_gpu_launch")
        if self.grid_dims is not None and self.grid_dims_values:
            printer.print_string(" grid_dims = ")
            _print_dims(printer, self.grid_dims)
        printer.print_op_attributes(self.attributes)
        _print_functional_type(printer, self)

    def verify_(self) -> None:
        if self.grid_dims_values and len(self.grid_dims_values) != 3:
            raise VerifyException("transform requires empty or size-3 grid_dims")


@irdl_op_definition
class MapNestedForallToThreadsOp(IRDLOperation):
    """``transform.gpu.map_nested_forall_to_threads %launch block_dims = [x, y, z]
    (sync_after_distribute = bool)? (warp_size = n)? : (type) -> type``: every
    ``scf.forall`` in each ``gpu.launch`` of the handle becomes thread (warp,
    warpgroup, lane) ids, predicated where the loop uses fewer threads than the
    block has, each followed by a ``gpu.barrier`` unless ``sync_after_distribute =
    false``."""

    name = "transform.gpu.map_nested_forall_to_threads"

    target = operand_def(xdsl_transform.TransformHandleType)
    block_dims = opt_prop_def(DenseArrayBase.constr(i64))
    sync_after_distribute = opt_prop_def(BoolAttr)
    warp_size = opt_prop_def(IntegerAttr[I64])
    result = result_def(xdsl_transform.TransformHandleType)

    @property
    def block_dims_values(self) -> list[int]:
        return _dims_values(self.block_dims)

    @property
    def sync(self) -> bool:
        attr = self.sync_after_distribute
        return True if attr is None else bool(attr.value.data)

    @property
    def warp_size_value(self) -> int:
        return 32 if self.warp_size is None else self.warp_size.value.data

    @classmethod
    def parse(cls, parser: Parser) -> MapNestedForallToThreadsOp:
        target = parser.parse_unresolved_operand()
        properties: dict[str, Attribute] = {}
        parser.parse_keyword("block_dims")
        parser.parse_punctuation("=")
        properties["block_dims"] = _parse_dims(parser)
        if parser.parse_optional_keyword("sync_after_distribute") is not None:
            parser.parse_punctuation("=")
            start = parser.pos
            value = parser.parse_optional_boolean()
            if value is None:
                parser.raise_error("expected true or false", start, parser.pos)
            properties["sync_after_distribute"] = BoolAttr.from_bool(value)
        if parser.parse_optional_keyword("warp_size") is not None:
            parser.parse_punctuation("=")
            properties["warp_size"] = IntegerAttr(
                parser.parse_integer(allow_boolean=False), i64
            )
        value, result, attributes = _parse_functional_type(parser, target)
        props, attrs = _split(cls, attributes)
        op = cls.create(
            operands=[value], result_types=[result], properties=properties | props
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.target)
        printer.print_string(" block_dims = ")
        _print_dims(printer, self.block_dims or _dims([]))
        if not self.sync:
            printer.print_string(" sync_after_distribute = false")
        if self.warp_size_value != 32:
            printer.print_string(f" warp_size = {self.warp_size_value}")
        printer.print_op_attributes(self.attributes)
        _print_functional_type(printer, self)


GPU_MAPPING_OPS = (MapForallToBlocksOp, MapNestedForallToThreadsOp)
"""The ops this module adds to the ``transform`` dialect."""
