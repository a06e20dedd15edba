"""Asynchronous global → shared copies: ``nvvm.cp.async.shared.global``,
``nvvm.cp.async.commit.group`` and ``nvvm.cp.async.wait.group``.

Printed forms (MLIR 22)::

    nvvm.cp.async.shared.global %dst, %src, 16, cache =  cg : !llvm.ptr<3>, !llvm.ptr<1>
    nvvm.cp.async.shared.global %dst, %src, 16, cache =  ca, %n
        : !llvm.ptr<3>, !llvm.ptr<1>, i32
    nvvm.cp.async.commit.group
    nvvm.cp.async.wait.group 1
"""

from __future__ import annotations

from typing import Any, ClassVar

from xdsl.dialects.builtin import I32, IntegerAttr, i32
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvvm.base import IntrinsicOp
from xdsl_gpu.gpu_dialect.nvvm.mma_attrs import (
    LoadCacheModifier,
    LoadCacheModifierAttr,
)


@irdl_op_definition
class CpAsyncOp(IntrinsicOp):
    """``nvvm.cp.async.shared.global``: copy ``size`` (4, 8 or 16) bytes; with
    ``cpSize``, only that many are read and the rest zero-filled. Translated to
    ``llvm.nvvm.cp.async.<ca|cg>.shared.global.<size>[.s]``."""

    name = "nvvm.cp.async.shared.global"

    dst = operand_def(LLVMPointerType)
    src = operand_def(LLVMPointerType)
    cp_size = opt_operand_def(I32)
    size = prop_def(IntegerAttr[I32])
    modifier = prop_def(LoadCacheModifierAttr)

    assembly_format = (
        "$dst `,` $src `,` $size `,` `cache` `=` $modifier (`,` $cp_size^)? "
        "attr-dict `:` type($dst) `,` type($src) (`,` type($cp_size)^)?"
    )

    def __init__(
        self,
        dst: SSAValue | Operation,
        src: SSAValue | Operation,
        size: int,
        modifier: LoadCacheModifier,
        cp_size: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[dst, src, [] if cp_size is None else [cp_size]],
            properties={
                "size": IntegerAttr(size, i32),
                "modifier": LoadCacheModifierAttr(modifier),
            },
        )

    def verify_(self) -> None:
        modifier = self.modifier.data
        if modifier not in (LoadCacheModifier.CG, LoadCacheModifier.CA):
            raise VerifyException("Only CG and CA cache modifiers are supported.")
        if self.size.value.data not in (4, 8, 16):
            raise VerifyException("expected byte size to be either 4, 8 or 16.")
        if modifier == LoadCacheModifier.CG and self.size.value.data != 16:
            raise VerifyException(
                "CG cache modifier is only support for 16 bytes copy."
            )

    def get_llvm_intrinsic(self) -> str:
        suffix = "" if self.cp_size is None else ".s"
        return (
            f"llvm.nvvm.cp.async.{self.modifier.data.value}.shared.global."
            f"{self.size.value.data}{suffix}"
        )


@irdl_op_definition
class CpAsyncCommitGroupOp(IntrinsicOp):
    name = "nvvm.cp.async.commit.group"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.cp.async.commit.group"

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class CpAsyncWaitGroupOp(IntrinsicOp):
    """``nvvm.cp.async.wait.group N``: translated to
    ``llvm.nvvm.cp.async.wait.group(i32 immarg N)``."""

    name = "nvvm.cp.async.wait.group"
    LLVM_INTRINSIC: ClassVar[str] = "llvm.nvvm.cp.async.wait.group"

    n = prop_def(IntegerAttr[I32])

    assembly_format = "$n attr-dict"

    def __init__(self, n: int):
        super().__init__(properties={"n": IntegerAttr(n, i32)})

    def llvm_ir(self, emitter: Any) -> None:
        """The call with ``n`` as its argument: an ``immarg``, so the count is a
        property rather than an operand and the table-driven rule (operands as
        arguments) would call the intrinsic with none (``xdsl_gpu/targets/llvm_ir``:
        ``LLVMIRTranslatable``)."""
        emitter.call_intrinsic(
            self.LLVM_INTRINSIC, None, [("i32", str(self.n.value.data))]
        )


OPERATIONS: tuple[type[Operation], ...] = (
    CpAsyncOp,
    CpAsyncCommitGroupOp,
    CpAsyncWaitGroupOp,
)

__all__ = ["CpAsyncCommitGroupOp", "CpAsyncOp", "CpAsyncWaitGroupOp"]
