"""Thread and grid control: ``nvvm.exit``, ``nvvm.breakpoint``, ``nvvm.griddepcontrol``
(programmatic dependent launch, sm_90), ``nvvm.setmaxregister`` (a warpgroup's
register budget, sm_90a) and ``nvvm.pmevent`` (performance-monitor events).

Printed forms (MLIR 22)::

    nvvm.exit
    nvvm.breakpoint
    nvvm.griddepcontrol wait
    nvvm.griddepcontrol launch_dependents
    nvvm.setmaxregister increase 256
    nvvm.pmevent mask = 15000
    nvvm.pmevent id = 3

LLVM IR as ``mlir-translate-22`` writes it: ``llvm.nvvm.exit()``, ``llvm.debugtrap()``,
``llvm.nvvm.griddepcontrol.wait()`` / ``.launch.dependents()``,
``llvm.nvvm.setmaxnreg.{inc,dec}.sync.aligned.u32(i32 count)`` and
``llvm.nvvm.pm.event.mask(i16 mask)``, an ``id`` being the mask ``1 << id``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from xdsl.dialects.builtin import I16, I32, IntegerAttr, i16, i32
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.nvvm.base import IntrinsicOp


@irdl_op_definition
class ExitOp(IntrinsicOp):
    """``nvvm.exit``: ends this thread."""

    name = "nvvm.exit"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.exit"

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class BreakpointOp(IntrinsicOp):
    """``nvvm.breakpoint``: stops here under a debugger (PTX ``brkpt``)."""

    name = "nvvm.breakpoint"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.debugtrap"

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


class GridDepActionKind(StrEnum):
    WAIT = "wait"
    LAUNCH_DEPENDENTS = "launch_dependents"


@irdl_attr_definition
class GridDepActionAttr(EnumAttribute[GridDepActionKind], SpacedOpaqueSyntaxAttribute):
    """``#nvvm<grid_dep_action wait>``; a bare keyword inside the op."""

    name = "nvvm.grid_dep_action"


@irdl_op_definition
class GriddepcontrolOp(IntrinsicOp):
    """``nvvm.griddepcontrol wait|launch_dependents``: wait for the grids this one
    depends on to complete, or let the grids that depend on this one launch."""

    name = "nvvm.griddepcontrol"

    kind = prop_def(GridDepActionAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$kind attr-dict"

    def __init__(self, kind: GridDepActionKind | str):
        super().__init__(
            properties={"kind": GridDepActionAttr(GridDepActionKind(kind))}
        )

    def get_llvm_intrinsic(self) -> str:
        return "llvm.nvvm.griddepcontrol." + self.kind.data.value.replace("_", ".")


class SetMaxRegisterAction(StrEnum):
    INCREASE = "increase"
    DECREASE = "decrease"


@irdl_attr_definition
class SetMaxRegisterActionAttr(
    EnumAttribute[SetMaxRegisterAction], SpacedOpaqueSyntaxAttribute
):
    """``#nvvm<action increase>``; a bare keyword inside the op."""

    name = "nvvm.action"


_MIN_REGISTERS, _MAX_REGISTERS, _REGISTER_GRANULE = 24, 256, 8


@irdl_op_definition
class SetMaxRegisterOp(IRDLOperation):
    """``nvvm.setmaxregister increase|decrease N``: raise or lower the register
    count of each thread of the warpgroup to ``N`` (24 to 256, a multiple of 8)."""

    name = "nvvm.setmaxregister"

    reg_count = prop_def(IntegerAttr[I32], prop_name="regCount")
    action = prop_def(SetMaxRegisterActionAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$action $regCount attr-dict"

    def __init__(self, action: SetMaxRegisterAction | str, reg_count: int):
        super().__init__(
            properties={
                "action": SetMaxRegisterActionAttr(SetMaxRegisterAction(action)),
                "regCount": IntegerAttr(reg_count, i32),
            }
        )

    def verify_(self) -> None:
        count = self.reg_count.value.data
        if count % _REGISTER_GRANULE:
            raise VerifyException(
                f"'{self.name}' op new register size must be multiple of "
                f"{_REGISTER_GRANULE}"
            )
        if not _MIN_REGISTERS <= count <= _MAX_REGISTERS:
            raise VerifyException(
                f"'{self.name}' op new register size must be in between "
                f"{_MIN_REGISTERS} to {_MAX_REGISTERS}"
            )

    def llvm_ir(self, emitter: Any) -> None:
        way = "inc" if self.action.data == SetMaxRegisterAction.INCREASE else "dec"
        emitter.call_intrinsic(
            f"llvm.nvvm.setmaxnreg.{way}.sync.aligned.u32",
            None,
            [("i32", str(self.reg_count.value.data))],
        )


_MAX_EVENT_ID = 15


@irdl_op_definition
class PMEventOp(IRDLOperation):
    """``nvvm.pmevent``: trigger performance-monitor event ``id`` (0 to 15), or the
    events whose bits are set in the 16-bit ``mask``."""

    name = "nvvm.pmevent"

    masked_event_id = opt_prop_def(IntegerAttr[I16], prop_name="maskedEventId")
    event_id = opt_prop_def(IntegerAttr[I32], prop_name="eventId")

    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, *, event_id: int | None = None, mask: int | None = None):
        properties: dict[str, Attribute] = {}
        if event_id is not None:
            properties["eventId"] = IntegerAttr(event_id, i32)
        if mask is not None:
            properties["maskedEventId"] = IntegerAttr(mask, i16)
        super().__init__(properties=properties)

    @classmethod
    def parse(cls, parser: Parser) -> PMEventOp:
        # MLIR 22's format: attr-dict (`id` `=` $eventId^)? (`mask` `=` $maskedEventId^)?
        attributes = parser.parse_optional_attr_dict()
        properties: dict[str, Attribute] = {}
        for keyword, key, t in (("id", "eventId", i32), ("mask", "maskedEventId", i16)):
            if parser.parse_optional_keyword(keyword) is None:
                continue
            parser.parse_punctuation("=")
            start = parser.pos
            value = parser.parse_integer()
            if not t.value_range()[0] <= value < t.value_range()[1]:
                parser.raise_error(
                    "integer constant out of range for attribute", start, parser.pos
                )
            if value >= 1 << (t.width.data - 1):
                value -= 1 << t.width.data  # stored and printed signed, as MLIR
            properties[key] = IntegerAttr(value, t)
        for key in ("eventId", "maskedEventId"):
            if key in attributes:
                properties[key] = attributes.pop(key)
        return cls.create(properties=properties, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        if self.event_id is not None:
            printer.print_string(f" id = {self.event_id.value.data}")
        if self.masked_event_id is not None:
            printer.print_string(f" mask = {self.masked_event_id.value.data}")

    def verify_(self) -> None:
        if self.event_id is None and self.masked_event_id is None:
            raise VerifyException(f"'{self.name}' op either `id` or `mask` must be set")
        if self.event_id is not None and self.masked_event_id is not None:
            raise VerifyException(
                f"'{self.name}' op `id` and `mask` cannot be set at the same time"
            )
        if self.event_id is not None:
            if not 0 <= self.event_id.value.data <= _MAX_EVENT_ID:
                raise VerifyException(
                    f"'{self.name}' op `id` must be between 0 and {_MAX_EVENT_ID}"
                )

    def llvm_ir(self, emitter: Any) -> None:
        if self.masked_event_id is not None:
            mask = self.masked_event_id.value.data
        else:
            assert self.event_id is not None
            mask = 1 << self.event_id.value.data
        # i16 immediates print signed, as LLVM prints them.
        mask = mask - (1 << 16) if mask >= 1 << 15 else mask
        emitter.call_intrinsic("llvm.nvvm.pm.event.mask", None, [("i16", str(mask))])


OPERATIONS: tuple[type[Operation], ...] = (
    ExitOp,
    BreakpointOp,
    GriddepcontrolOp,
    SetMaxRegisterOp,
    PMEventOp,
)
ATTRIBUTES: tuple[type[Attribute], ...] = (GridDepActionAttr, SetMaxRegisterActionAttr)

__all__ = [
    "BreakpointOp",
    "ExitOp",
    "GridDepActionAttr",
    "GridDepActionKind",
    "GriddepcontrolOp",
    "PMEventOp",
    "SetMaxRegisterAction",
    "SetMaxRegisterActionAttr",
    "SetMaxRegisterOp",
]
