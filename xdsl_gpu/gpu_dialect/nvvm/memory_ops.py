"""Addresses and bulk stores: ``nvvm.mapa`` (the address of a variable in the shared
memory of another CTA of the cluster, sm_90) and ``nvvm.st.bulk`` (zero a range of
memory, sm_100).

Printed forms (MLIR 22)::

    %r = nvvm.mapa %a, %cta : !llvm.ptr -> !llvm.ptr
    %r = nvvm.mapa %a, %cta : !llvm.ptr<3> -> !llvm.ptr<7>
    nvvm.st.bulk %addr, size = %size : !llvm.ptr<3>
    nvvm.st.bulk %addr, size = %size, init = 0 : !llvm.ptr

LLVM IR as ``mlir-translate-22`` writes it: ``llvm.nvvm.mapa(ptr, i32)`` or
``llvm.nvvm.mapa.shared.cluster(ptr addrspace(3), i32)``; ``llvm.nvvm.st.bulk(ptr,
i64 size, i64 init)`` or ``llvm.nvvm.st.bulk.shared.cta(ptr addrspace(3), ...)``.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import I32, I64, IntAttr, IntegerAttr, i64
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvvm.mbarrier_ops import address_space
from xdsl_gpu.gpu_dialect.nvvm.sm import RequiresSM

GENERIC, SHARED, SHARED_CLUSTER = 0, 3, 7

_GENERIC_POINTER = LLVMPointerType(IntAttr(GENERIC))
_CLUSTER_POINTER = LLVMPointerType(IntAttr(SHARED_CLUSTER))


def _check_space(
    op: Operation, what: str, t: Attribute, spaces: tuple[int, ...]
) -> None:
    """Upstream's ODS message for a pointer outside ``spaces``."""
    if isinstance(t, LLVMPointerType):
        space = t.addr_space.data if isinstance(t.addr_space, IntAttr) else 0
        if space in spaces:
            return
    allowed = " or ".join(f"LLVM pointer in address space {s}" for s in spaces)
    raise VerifyException(f"'{op.name}' op {what} must be {allowed}, but got '{t}'")


@irdl_op_definition
class MapaOp(IRDLOperation):
    """``nvvm.mapa``: the address in the shared memory of CTA ``b`` of the cluster
    that corresponds to ``a`` (generic to generic, or shared to shared::cluster)."""

    name = "nvvm.mapa"

    a = operand_def(LLVMPointerType)
    b = operand_def(I32)
    res = result_def(LLVMPointerType)

    traits = traits_def(RequiresSM(90))

    assembly_format = "$a `,` $b attr-dict `:` type($a) `->` type($res)"

    def __init__(self, a: SSAValue | Operation, b: SSAValue | Operation):
        shared = address_space(SSAValue.get(a)) == SHARED
        super().__init__(
            operands=[a, b],
            result_types=[_CLUSTER_POINTER if shared else _GENERIC_POINTER],
        )

    def verify_(self) -> None:
        _check_space(self, "operand #0", self.a.type, (GENERIC, SHARED))
        _check_space(self, "result #0", self.res.type, (GENERIC, SHARED_CLUSTER))
        shared = address_space(self.a) == SHARED
        expected = SHARED_CLUSTER if shared else GENERIC
        if address_space(self.res) != expected:
            raise VerifyException(
                f"'{self.name}' op failed to verify that Valid address-space "
                "check(or mapping) for mapa Op"
            )

    def llvm_ir(self, emitter: Any) -> None:
        if address_space(self.a) == SHARED:
            name, arg = "llvm.nvvm.mapa.shared.cluster", "ptr addrspace(3)"
        else:
            name, arg = "llvm.nvvm.mapa", "ptr"
        emitter.call_intrinsic(
            name,
            self.res.type,
            [(arg, emitter.ref(self.a)), ("i32", emitter.ref(self.b))],
            result=self.res,
        )


_ZERO = IntegerAttr(0, i64)


@irdl_op_definition
class StBulkOp(IRDLOperation):
    """``nvvm.st.bulk``: set ``size`` bytes from ``addr`` (generic or shared) to
    ``initVal``, which must be 0."""

    name = "nvvm.st.bulk"

    addr = operand_def(LLVMPointerType)
    size = operand_def(I64)
    init_val = prop_def(IntegerAttr[I64], default_value=_ZERO, prop_name="initVal")

    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, addr: SSAValue | Operation, size: SSAValue | Operation):
        super().__init__(operands=[addr, size], properties={"initVal": _ZERO})

    @classmethod
    def parse(cls, parser: Parser) -> StBulkOp:
        addr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("size")
        parser.parse_punctuation("=")
        size = parser.parse_unresolved_operand()
        properties: dict[str, Attribute] = {"initVal": _ZERO}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("init")
            parser.parse_punctuation("=")
            properties["initVal"] = IntegerAttr(parser.parse_integer(), i64)
        attributes = parser.parse_optional_attr_dict()
        if "initVal" in attributes:
            properties["initVal"] = attributes.pop("initVal")
        parser.parse_punctuation(":")
        addr_type = parser.parse_type()
        return cls.create(
            operands=[
                parser.resolve_operand(addr, addr_type),
                parser.resolve_operand(size, i64),
            ],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.addr)
        printer.print_string(", size = ")
        printer.print_operand(self.size)
        if self.init_val != _ZERO:
            printer.print_string(f", init = {self.init_val.value.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.addr.type)

    def verify_(self) -> None:
        _check_space(self, "operand #0", self.addr.type, (GENERIC, SHARED))
        if self.init_val.value.data != 0:
            raise VerifyException(
                f"'{self.name}' op only 0 is supported for initVal, got "
                f"{self.init_val.value.data}"
            )

    def llvm_ir(self, emitter: Any) -> None:
        if address_space(self.addr) == SHARED:
            name, arg = "llvm.nvvm.st.bulk.shared.cta", "ptr addrspace(3)"
        else:
            name, arg = "llvm.nvvm.st.bulk", "ptr"
        emitter.call_intrinsic(
            name,
            None,
            [
                (arg, emitter.ref(self.addr)),
                ("i64", emitter.ref(self.size)),
                ("i64", str(self.init_val.value.data)),
            ],
        )


OPERATIONS: tuple[type[Operation], ...] = (MapaOp, StBulkOp)

__all__ = ["MapaOp", "StBulkOp"]
