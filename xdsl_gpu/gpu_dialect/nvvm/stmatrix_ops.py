"""``nvvm.stmatrix``: the warp-level store of ``ldmatrix``'s matrices (sm_90), with
``ldmatrix``'s attributes (:mod:`.mma_attrs`).

Printed form (MLIR 22)::

    nvvm.stmatrix %ptr, %r1, %r2 {eltType = #nvvm.ld_st_matrix_elt_type<b16>,
        layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
        : !llvm.ptr<3>, i32, i32

LLVM IR as ``mlir-translate-22`` writes it:
``llvm.nvvm.stmatrix.sync.aligned.m<M>n<N>.x<count>[.trans].<eltType>.p3(ptr
addrspace(3), i32...)``, ``.trans`` for the ``col`` layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import I32
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvvm.mbarrier_ops import address_space
from xdsl_gpu.gpu_dialect.nvvm.mma_attrs import (
    LdStMatrixEltType,
    LdStMatrixEltTypeAttr,
    LdStMatrixShapeAttr,
    MMALayout,
    MMALayoutAttr,
)

_SHARED = 3


@irdl_op_definition
class StMatrixOp(IRDLOperation):
    """``nvvm.stmatrix``: store 1, 2 or 4 matrices (one ``i32`` source register
    each per thread) to shared memory at ``ptr``; 8x8 of b16 in either layout, or
    16x8 of b8 transposed (``col``)."""

    name = "nvvm.stmatrix"

    ptr = operand_def(LLVMPointerType)
    sources = var_operand_def(I32)
    layout = prop_def(MMALayoutAttr)
    shape = prop_def(LdStMatrixShapeAttr)
    elt_type = prop_def(LdStMatrixEltTypeAttr, prop_name="eltType")

    def __init__(
        self,
        ptr: SSAValue | Operation,
        sources: Sequence[SSAValue | Operation],
        layout: MMALayoutAttr,
        shape: LdStMatrixShapeAttr,
        elt_type: LdStMatrixEltTypeAttr,
    ):
        super().__init__(
            operands=[ptr, sources],
            properties={"eltType": elt_type, "layout": layout, "shape": shape},
        )

    @classmethod
    def parse(cls, parser: Parser) -> StMatrixOp:
        # MLIR 22's format: $ptr `,` $sources attr-dict `:` type(operands)
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_type
        )
        properties = {
            key: attributes.pop(key)
            for key in ("eltType", "layout", "shape")
            if key in attributes
        }
        resolved = parser.resolve_operands(operands, types, parser.pos)
        return cls.create(
            operands=resolved, properties=properties, attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        # Properties and attributes in one dictionary, by name, as MLIR prints it.
        merged = {**self.properties, **self.attributes}
        printer.print_op_attributes(dict(sorted(merged.items())))
        printer.print_string(" : ")
        printer.print_list((o.type for o in self.operands), printer.print_attribute)

    def verify_(self) -> None:
        if address_space(self.ptr) != _SHARED:
            raise VerifyException(
                f"'{self.name}' op operand #0 must be LLVM pointer in address space "
                f"{_SHARED}, but got '{self.ptr.type}'"
            )
        if len(self.sources) not in (1, 2, 4):
            raise VerifyException(
                f"'{self.name}' op expected num attribute to be 1, 2 or 4"
            )
        m, n = self.shape.m.data, self.shape.n.data
        elt = self.elt_type.data
        if (m, n) == (8, 8):
            if elt != LdStMatrixEltType.B16:
                raise VerifyException(
                    f"'{self.name}' op expected element type to be B16 for 8x8 matrix"
                )
        elif (m, n) == (16, 8):
            if self.layout.data != MMALayout.COL:
                raise VerifyException(
                    f"'{self.name}' op expected layout to be col for 16x8 matrix"
                )
            if elt != LdStMatrixEltType.B8:
                raise VerifyException(
                    f"'{self.name}' op expected element type to be B8 for 16x8 matrix"
                )
        else:
            raise VerifyException(f"'{self.name}' op expected shape to be 8x8 or 16x8")

    def llvm_ir(self, emitter: Any) -> None:
        trans = ".trans" if self.layout.data == MMALayout.COL else ""
        shape = f"m{self.shape.m.data}n{self.shape.n.data}"
        name = (
            f"llvm.nvvm.stmatrix.sync.aligned.{shape}.x{len(self.sources)}{trans}."
            f"{self.elt_type.data.value}.p{_SHARED}"
        )
        args = [("ptr addrspace(3)", emitter.ref(self.ptr))]
        args += [("i32", emitter.ref(s)) for s in self.sources]
        emitter.call_intrinsic(name, None, args)


OPERATIONS: tuple[type[Operation], ...] = (StMatrixOp,)

__all__ = ["StMatrixOp"]
