"""llvm-dialect types → LLVM IR type syntax.

One ``_convert_*`` per kind of type, as in xDSL's ``xdsl/backend/llvm/convert_type.py``,
with the types that one lacks: ``bf16``, ``f80``, ``f128``, scalable vectors, named
structs and pointers in any address space. ``index`` is refused: the module must have
been lowered to fixed-width integers first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
    IndexType,
    IntAttr,
    IntegerType,
    NoneType,
    Signedness,
    VectorType,
)
from xdsl.dialects.llvm import (
    LLVMArrayType,
    LLVMFunctionType,
    LLVMPointerType,
    LLVMStructType,
    LLVMVoidType,
)
from xdsl.ir import Attribute

from xdsl_gpu.diagnostics import UserError


class LLVMIRTranslationError(UserError):
    """The module holds something that has no LLVM IR form (or not yet here)."""


def identifier(name: str, sigil: str) -> str:
    """``@name``/``%name``, quoted and escaped where LLVM IR needs it."""
    if (
        name
        and (name[0].isalpha() or name[0] in "$._-")
        and all(c.isalnum() or c in "$._-" for c in name)
    ):
        return f"{sigil}{name}"
    escaped = "".join(
        c if 0x20 <= ord(c) < 0x7F and c not in '"\\' else f"\\{ord(c):02X}"
        for c in name
    )
    return f'{sigil}"{escaped}"'


def _convert_integer(t: IntegerType) -> str:
    if t.signedness.data != Signedness.SIGNLESS:
        raise LLVMIRTranslationError(
            f"type {t} has no LLVM IR form: LLVM integers are signless"
        )
    return f"i{t.width.data}"


def _convert_pointer(t: LLVMPointerType) -> str:
    if isinstance(t.addr_space, IntAttr) and t.addr_space.data != 0:
        return f"ptr addrspace({t.addr_space.data})"
    return "ptr"


def _convert_vector(t: VectorType) -> str:
    if t.get_num_dims() != 1:
        raise LLVMIRTranslationError(
            f"type {t} has no LLVM IR form: LLVM vectors have one dimension "
            "(lower n-D vectors to arrays of vectors first)"
        )
    element = convert_type(t.element_type)
    count = t.get_shape()[0]
    if t.get_num_scalable_dims():
        return f"<vscale x {count} x {element}>"
    return f"<{count} x {element}>"


def _convert_struct(t: LLVMStructType) -> str:
    if t.struct_name.data:
        return identifier(t.struct_name.data, "%")
    return struct_body(t)


def struct_body(t: LLVMStructType) -> str:
    """``{ T, ... }`` (the body of a struct type, named or not)."""
    if not t.types.data:
        return "{}"
    return "{ " + ", ".join(convert_type(e) for e in t.types.data) + " }"


def _convert_function(t: LLVMFunctionType) -> str:
    args = [convert_type(a) for a in t.inputs.data]
    if t.is_variadic:
        args.append("...")
    return f"{convert_type(t.output)} ({', '.join(args)})"


def _refuse_index(t: IndexType) -> str:
    raise LLVMIRTranslationError(
        "type 'index' has no LLVM IR form: lower the module to the llvm dialect "
        "first (convert-*-to-llvm, then reconcile-unrealized-casts)"
    )


_TYPE_CONVERTERS: dict[type[Attribute], Callable[[Any], str]] = {
    IntegerType: _convert_integer,
    Float16Type: lambda _: "half",
    BFloat16Type: lambda _: "bfloat",
    Float32Type: lambda _: "float",
    Float64Type: lambda _: "double",
    Float80Type: lambda _: "x86_fp80",
    Float128Type: lambda _: "fp128",
    LLVMVoidType: lambda _: "void",
    NoneType: lambda _: "void",
    LLVMPointerType: _convert_pointer,
    VectorType: _convert_vector,
    LLVMArrayType: lambda t: f"[{t.size.data} x {convert_type(t.type)}]",
    LLVMStructType: _convert_struct,
    LLVMFunctionType: _convert_function,
    IndexType: _refuse_index,
}


def convert_type(t: Attribute) -> str:
    """The LLVM IR spelling of an llvm-dialect-compatible type.

    Raises:
        LLVMIRTranslationError: for ``index``, signed/unsigned integers, n-D vectors
            and any type without an LLVM IR form.
    """
    converter = _TYPE_CONVERTERS.get(type(t))
    if converter is None:
        raise LLVMIRTranslationError(f"type {t} has no LLVM IR form")
    return converter(t)


def intrinsic_suffix(t: Attribute) -> str:
    """The name mangling of an overloaded intrinsic's type: ``f32``, ``v4f32``,
    ``p0``, ``p3``, ``i64``, ``nxv4f32``."""
    match t:
        case IntegerType():
            return f"i{t.width.data}"
        case LLVMPointerType():
            space = t.addr_space.data if isinstance(t.addr_space, IntAttr) else 0
            return f"p{space}"
        case VectorType():
            prefix = "nxv" if t.get_num_scalable_dims() else "v"
            return f"{prefix}{t.get_shape()[0]}{intrinsic_suffix(t.element_type)}"
        case LLVMArrayType():
            return f"a{t.size.data}{intrinsic_suffix(t.type)}"
        case _:
            return {
                Float16Type: "f16",
                BFloat16Type: "bf16",
                Float32Type: "f32",
                Float64Type: "f64",
                Float80Type: "f80",
                Float128Type: "f128",
            }.get(type(t)) or _no_suffix(t)


def _no_suffix(t: Attribute) -> str:
    raise LLVMIRTranslationError(f"no intrinsic name mangling for type {t}")


def store_size(t: Attribute) -> int:
    """Bytes a value of ``t`` occupies (the natural alignment of a scalar): what
    atomic accesses use when they name no alignment."""
    match t:
        case IntegerType():
            n = max(1, (t.width.data + 7) // 8)
            return 1 << (n - 1).bit_length()
        case LLVMPointerType():
            return 8
        case VectorType():
            return t.get_shape()[0] * store_size(t.element_type)
        case _:
            return {
                Float16Type: 2,
                BFloat16Type: 2,
                Float32Type: 4,
                Float64Type: 8,
                Float80Type: 16,
                Float128Type: 16,
            }.get(type(t), 8)
