"""Integer dot products with accumulation: ``nvvm.dot.accumulate.4way`` (four 8-bit
pairs, PTX ``dp4a``) and ``nvvm.dot.accumulate.2way`` (two 16-bit by 8-bit pairs,
``dp2a``), each operand ``signed`` or ``unsigned``.

Printed forms (MLIR 22)::

    %r = nvvm.dot.accumulate.4way %a <unsigned>, %b <signed>, %c
        : vector<4xi8>, vector<4xi8>
    %r = nvvm.dot.accumulate.2way %a <signed>, %b <unsigned>, %c {b_hi = true}
        : vector<2xi16>, vector<4xi8>

LLVM IR as ``mlir-translate-22`` writes it: both vectors are ``bitcast`` to ``i32``,
then ``llvm.nvvm.idp4a.<a>.<b>(a, b, c)`` or ``llvm.nvvm.idp2a.<a>.<b>(a, b, i1 b_hi,
c)``, ``<a>``/``<b>`` being ``s`` or ``u``.
"""

from __future__ import annotations

from abc import ABC
from typing import Any, ClassVar

from xdsl.dialects.builtin import I32, BoolAttr, VectorType, i8, i16, i32
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    EqAttrConstraint,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.nvvm.attributes import AngleBracketSyntax


class DotAccumulateType(StrEnum):
    SIGNED = "signed"
    UNSIGNED = "unsigned"


@irdl_attr_definition
class DotAccumulateTypeAttr(AngleBracketSyntax, EnumAttribute[DotAccumulateType]):
    """``#nvvm.dot_accumulate_type<signed|unsigned>``; ``<signed>`` inside the op."""

    name = "nvvm.dot_accumulate_type"


_VECTOR_4XI8 = VectorType(i8, [4])
_VECTOR_2XI16 = VectorType(i16, [2])


class DotAccumulateOp(IRDLOperation, ABC):
    """What both widths share: the signedness of ``a`` and ``b``, the ``i32``
    result. The operands ``a`` (by width), ``b`` (``vector<4xi8>``) and ``c``
    (``i32``) are declared by each op, in that order."""

    INTRINSIC_PREFIX: ClassVar[str]

    a_type = prop_def(DotAccumulateTypeAttr)
    b_type = prop_def(DotAccumulateTypeAttr)
    res = result_def(I32)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$a $a_type `,` $b $b_type `,` $c attr-dict `:` type($a) `,` type($b)"
    )

    def _intrinsic(self) -> str:
        signs = (self.a_type.data, self.b_type.data)
        letters = ".".join("s" if s == DotAccumulateType.SIGNED else "u" for s in signs)
        return f"{self.INTRINSIC_PREFIX}.{letters}"

    def _packed(self, emitter: Any, value: SSAValue) -> str:
        """``value`` (a 32-bit vector) bitcast to ``i32``."""
        name = emitter.fresh()
        emitter.emit(f"{name} = bitcast {emitter.typed(value)} to i32")
        return name

    def _emit(
        self, emitter: Any, operands: tuple[SSAValue, SSAValue, SSAValue], *extra: str
    ) -> None:
        """The call with ``a``, ``b``, ``c``, ``extra`` (``i1`` flags) before ``c``."""
        a, b, c = operands
        packed_a = self._packed(emitter, a)
        packed_b = self._packed(emitter, b)
        args = [("i32", packed_a), ("i32", packed_b), *(("i1", e) for e in extra)]
        args.append(("i32", emitter.ref(c)))
        emitter.call_intrinsic(self._intrinsic(), i32, args, result=self.res)


def _signs(
    a: DotAccumulateType | str, b: DotAccumulateType | str
) -> dict[str, Attribute]:
    return {
        "a_type": DotAccumulateTypeAttr(DotAccumulateType(a)),
        "b_type": DotAccumulateTypeAttr(DotAccumulateType(b)),
    }


@irdl_op_definition
class DotAccumulate4WayOp(DotAccumulateOp):
    """``nvvm.dot.accumulate.4way``: ``c`` plus the sum of the products of the four
    bytes of ``a`` and ``b``."""

    name = "nvvm.dot.accumulate.4way"
    INTRINSIC_PREFIX: ClassVar[str] = "llvm.nvvm.idp4a"

    a = operand_def(EqAttrConstraint(_VECTOR_4XI8))
    b = operand_def(EqAttrConstraint(_VECTOR_4XI8))
    c = operand_def(I32)

    def __init__(
        self,
        a: SSAValue | Operation,
        a_type: DotAccumulateType | str,
        b: SSAValue | Operation,
        b_type: DotAccumulateType | str,
        c: SSAValue | Operation,
    ):
        super().__init__(
            operands=[a, b, c], result_types=[i32], properties=_signs(a_type, b_type)
        )

    def llvm_ir(self, emitter: Any) -> None:
        self._emit(emitter, (self.a, self.b, self.c))


@irdl_op_definition
class DotAccumulate2WayOp(DotAccumulateOp):
    """``nvvm.dot.accumulate.2way``: ``c`` plus the sum of the products of the two
    16-bit halves of ``a`` and two bytes of ``b``, its high two with ``b_hi``, else
    its low two."""

    name = "nvvm.dot.accumulate.2way"
    INTRINSIC_PREFIX: ClassVar[str] = "llvm.nvvm.idp2a"

    a = operand_def(EqAttrConstraint(_VECTOR_2XI16))
    b = operand_def(EqAttrConstraint(_VECTOR_4XI8))
    c = operand_def(I32)
    b_hi = prop_def(BoolAttr)

    def __init__(
        self,
        a: SSAValue | Operation,
        a_type: DotAccumulateType | str,
        b: SSAValue | Operation,
        b_type: DotAccumulateType | str,
        c: SSAValue | Operation,
        b_hi: bool,
    ):
        super().__init__(
            operands=[a, b, c],
            result_types=[i32],
            properties={**_signs(a_type, b_type), "b_hi": BoolAttr.from_bool(b_hi)},
        )

    def llvm_ir(self, emitter: Any) -> None:
        hi = "true" if self.b_hi.value.data else "false"
        self._emit(emitter, (self.a, self.b, self.c), hi)


OPERATIONS: tuple[type[Operation], ...] = (DotAccumulate4WayOp, DotAccumulate2WayOp)
ATTRIBUTES: tuple[type[Attribute], ...] = (DotAccumulateTypeAttr,)

__all__ = [
    "DotAccumulate2WayOp",
    "DotAccumulate4WayOp",
    "DotAccumulateType",
    "DotAccumulateTypeAttr",
]
