"""``nvvm.match.sync``: which lanes of a warp hold the same value.

Printed form (MLIR 22)::

    %m = nvvm.match.sync any %mask, %v : i32 -> i32
    %s = nvvm.match.sync all %mask, %v : i64 -> !llvm.struct<(i32, i1)>

LLVM IR as ``mlir-translate-22`` writes it: ``llvm.nvvm.match.<kind>.sync.<i32|i64>``,
with a ``p`` suffix for ``all`` (which returns ``{i32, i1}``).
"""

from __future__ import annotations

from xdsl.dialects.builtin import I32, i1, i32, i64
from xdsl.dialects.llvm import LLVMStructType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    BaseAttr,
    EqAttrConstraint,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.nvvm.base import IntrinsicOp


class MatchSyncKind(StrEnum):
    ANY = "any"
    ALL = "all"


@irdl_attr_definition
class MatchSyncKindAttr(EnumAttribute[MatchSyncKind], SpacedOpaqueSyntaxAttribute):
    """``#nvvm<match_sync_kind any>``; a bare keyword inside the op."""

    name = "nvvm.match_sync_kind"


_ALL_RESULT = LLVMStructType.from_type_list([i32, i1])


@irdl_op_definition
class MatchSyncOp(IntrinsicOp):
    """``nvvm.match.sync``: ``any`` gives the mask of the lanes of ``thread_mask``
    whose ``val`` equals this lane's; ``all`` gives ``thread_mask`` and true if they
    all hold the same value (else 0 and false)."""

    name = "nvvm.match.sync"

    thread_mask = operand_def(I32)
    val = operand_def(EqAttrConstraint(i32) | EqAttrConstraint(i64))
    res = result_def(EqAttrConstraint(i32) | BaseAttr(LLVMStructType))
    kind = prop_def(MatchSyncKindAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$kind $thread_mask `,` $val attr-dict `:` type($val) `->` type($res)"
    )

    def __init__(
        self,
        kind: MatchSyncKind | str,
        thread_mask: SSAValue | Operation,
        val: SSAValue | Operation,
    ):
        kind = MatchSyncKind(kind)
        result: Attribute = _ALL_RESULT if kind == MatchSyncKind.ALL else i32
        super().__init__(
            operands=[thread_mask, val],
            result_types=[result],
            properties={"kind": MatchSyncKindAttr(kind)},
        )

    def get_llvm_intrinsic(self) -> str:
        kind = self.kind.data.value
        suffix = "i64" if self.val.type == i64 else "i32"
        if self.kind.data == MatchSyncKind.ALL:
            suffix += "p"
        return f"llvm.nvvm.match.{kind}.sync.{suffix}"

    def verify_(self) -> None:
        if self.kind.data == MatchSyncKind.ANY:
            if self.res.type != i32:
                raise VerifyException(
                    f"'{self.name}' op match.sync 'any' returns an i32"
                )
        elif self.res.type != _ALL_RESULT:
            raise VerifyException(
                f"'{self.name}' op match.sync 'all' returns a two element struct "
                "with first element as i32 and second element as i1"
            )


OPERATIONS: tuple[type[Operation], ...] = (MatchSyncOp,)
ATTRIBUTES: tuple[type[Attribute], ...] = (MatchSyncKindAttr,)

__all__ = ["MatchSyncKind", "MatchSyncKindAttr", "MatchSyncOp"]
