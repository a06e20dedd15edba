"""Inline PTX for the nvvm ops that MLIR 22 lowers through ``BasicPtxBuilderInterface``.

Upstream, such an op (``mbarrier.try_wait.parity``, a predicated ``mbarrier.init``,
``cp.async.bulk.tensor`` with a predicate, ``wgmma.mma_async``...) has no LLVM IR
translation of its own: ``convert-nvvm-to-llvm`` replaces it by an ``llvm.inline_asm``
whose text is the op's PTX with ``%N`` written ``$N``, whose constraints follow from the
operand types, and whose predicate (if any) is the last operand, guarding the
instruction with ``@$N``. Here the op's ``llvm_ir`` hook writes that same call directly
(``convert-nvvm-to-llvm`` is a check only in this project), so that the PTX that
``ptxas`` receives is the one ``mlir-opt-22`` + ``mlir-translate-22`` produce.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import IntAttr, IntegerAttr, IntegerType
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, SSAValue

SHARED_ADDRESS_SPACE = 3
"""Shared-memory pointers are 32-bit registers in PTX (constraint ``r``)."""


def constraint_of(t: Attribute) -> str:
    """The inline-asm constraint upstream's PTX builder gives an operand of type
    ``t``: ``b`` (i1), ``h`` (i16), ``r`` (i32 and shared pointers), ``l`` (i64 and
    other pointers), ``f`` (f32), ``d`` (f64)."""
    if isinstance(t, LLVMPointerType):
        space = t.addr_space.data if isinstance(t.addr_space, IntAttr) else 0
        return "r" if space == SHARED_ADDRESS_SPACE else "l"
    if isinstance(t, IntegerType):
        return {1: "b", 8: "c", 16: "h", 32: "r", 64: "l"}[t.width.data]
    if t.name == "f32":
        return "f"
    if t.name == "f64":
        return "d"
    return "r"


def llvm_ir_string(text: str) -> str:
    """``text`` as an LLVM IR string literal body: printable ASCII as it is, the
    rest (newlines, tabs, ``"`` and ``\\``) as ``\\XX`` hex escapes, as LLVM prints."""
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        if 0x20 <= code < 0x7F and ch not in '"\\':
            out.append(ch)
        else:
            out.append(f"\\{code:02X}")
    return "".join(out)


def dollar_operands(ptx: str) -> str:
    """Upstream's operand references: ``%N`` in an op's PTX becomes ``$N``."""
    return re.sub(r"%(?=\d)", "$", ptx)


@dataclass(frozen=True)
class AsmArgument:
    """One input of the inline asm: its LLVM IR type, value and constraint."""

    llvm_type: str
    value: str
    constraint: str


def _constant_attr(value: SSAValue) -> IntegerAttr | None:
    owner = value.owner
    if getattr(owner, "name", None) != "llvm.mlir.constant":
        return None
    attr = owner.properties.get("value")  # pyright: ignore[reportAttributeAccessIssue]
    if not isinstance(attr, IntegerAttr) or not isinstance(attr.type, IntegerType):
        return None
    return attr


def _integer_constant(value: SSAValue) -> int | None:
    """The value of an integer ``llvm.mlir.constant``, or of ``llvm.zext`` of one
    (which upstream's canonicalizer folds before its PTX builder runs, inside
    ``convert-gpu-to-nvvm``)."""
    attr = _constant_attr(value)
    if attr is not None:
        return attr.value.data
    owner = value.owner
    if getattr(owner, "name", None) == "llvm.zext":
        attr = _constant_attr(owner.operands[0])  # pyright: ignore
        if attr is not None:
            assert isinstance(attr.type, IntegerType)
            return attr.value.data & ((1 << attr.type.width.data) - 1)
    return None


def value_argument(emitter: Any, value: SSAValue) -> AsmArgument:
    """An SSA operand as an inline-asm input. Its constraint follows from its type,
    except that an integer constant is an immediate (``n``), as upstream's PTX
    builder passes the operands that are constants when it runs."""
    llvm_type, ref = emitter.typed(value).rsplit(" ", 1)
    constant = _integer_constant(value)
    if constant is not None:
        return AsmArgument(llvm_type, str(constant), "n")
    return AsmArgument(llvm_type, ref, constraint_of(value.type))


def immediate_argument(value: int) -> AsmArgument:
    """An ``i32`` immediate (constraint ``n``), as the wgmma scale/transpose flags."""
    return AsmArgument("i32", str(value), "n")


def emit_inline_ptx(
    emitter: Any,
    ptx: str,
    arguments: Sequence[AsmArgument],
    predicate: SSAValue | None = None,
    *,
    result: SSAValue | None = None,
    result_type: str = "void",
    output_constraints: Sequence[str] = (),
) -> str | None:
    """Write ``call <result_type> asm sideeffect "<ptx>", "<constraints>"(args)``.

    ``ptx`` uses ``%N`` operand references (as upstream's ``getPtx``); outputs come
    first in the numbering, then ``arguments``, then ``predicate``, which guards the
    instruction with ``@$N``. Returns the call's value name when it has a result
    (bound to ``result`` when given)."""
    text = dollar_operands(ptx)
    args = list(arguments)
    if predicate is not None:
        index = len(output_constraints) + len(args)
        text = f"@${index} {text}"
        args.append(value_argument(emitter, predicate))
    constraints = ",".join([*output_constraints, *(a.constraint for a in args)])
    call = (
        f'call {result_type} asm sideeffect "{llvm_ir_string(text)}", '
        f'"{constraints}"({", ".join(f"{a.llvm_type} {a.value}" for a in args)})'
    )
    if result_type == "void":
        emitter.emit(call)
        return None
    if result is not None:
        return emitter.define(result, call)
    name = emitter.fresh()
    emitter.emit(f"{name} = {call}")
    return name


__all__ = [
    "AsmArgument",
    "constraint_of",
    "dollar_operands",
    "emit_inline_ptx",
    "immediate_argument",
    "llvm_ir_string",
    "value_argument",
]
