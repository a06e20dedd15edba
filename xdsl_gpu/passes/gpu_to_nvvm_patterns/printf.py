"""``gpu.printf`` → ``vprintf(format, arguments)``, CUDA's device printf.

As upstream (``GPUPrintfOpToVPrintfLowering``): the format string becomes an internal
constant global ``@printfFormat_<n>`` at the start of the ``gpu.module``; the
arguments are stored in an ``llvm.alloca`` of a struct of their types (one
``getelementptr``/``store`` per field) and ``@vprintf(!llvm.ptr, !llvm.ptr) -> i32``
is declared once. Floats are promoted to ``f64``, as C varargs are.

Beyond MLIR 22: integers narrower than 32 bits are promoted to ``i32`` (``i1`` zero-
extended, the others sign-extended), as C varargs are; upstream stores them with
their own width, so ``%d`` of an ``i1``, ``i8`` or ``i16`` printed whatever bytes
followed. An ``f64`` argument is stored as is (upstream emits an ``fpext`` from
``f64`` to ``f64``, which LLVM IR does not allow).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntegerType,
    LocationAttr,
    NameLoc,
    UnknownLoc,
    f64,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu import compute_ops as gpu
from xdsl_gpu.passes.gpu_to_nvvm_patterns.common import (
    NVVMLowering,
    legalize_error,
    string_pointer,
)
from xdsl_gpu.passes.llvm_type_converter import convert_operands
from xdsl_gpu.passes.memref_descriptor import alloca, gep, index_constant, store

VPRINTF = "vprintf"


def file_location(loc: Attribute) -> LocationAttr:
    """The first ``file:line:col`` in ``loc`` (``loc(unknown)`` if none), as
    upstream's ``findInstanceOf<FileLineColLoc>``: the place of a module-level op
    made for an op inside a function, without the function's debug-info metadata
    (the ``#di_subprogram`` of ``loc(fused<#di_subprogram>[...])``)."""
    if isinstance(loc, FileLineColLoc):
        return loc
    inner: list[Attribute] = []
    if isinstance(loc, NameLoc):
        inner = [loc.location]
    elif isinstance(loc, CallSiteLoc):
        inner = [loc.callee, loc.caller]
    elif isinstance(loc, FusedLoc):
        inner = list(cast(ArrayAttr[Attribute], loc.locations).data)
    for child in inner:
        found = file_location(child)
        if isinstance(found, FileLineColLoc):
            return found
    return UnknownLoc()


def promote(builder: Builder, value: SSAValue) -> SSAValue:
    """The value as C varargs pass it: floats as ``f64``, small integers as
    ``i32``."""
    t = value.type
    if isinstance(t, AnyFloat):
        if t == f64:
            return value
        return builder.insert(llvm.FPExtOp(value, f64)).results[0]
    if isinstance(t, IntegerType) and t.width.data < 32:
        extend = llvm.ZExtOp if t.width.data == 1 else llvm.SExtOp
        return builder.insert(extend(value, i32)).results[0]
    return value


@dataclass
class PrintfLowering(RewritePattern):
    lowering: NVVMLowering

    acts_on = (gpu.PrintfOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.PrintfOp):
            return
        operands = convert_operands(self.lowering.converter, op, rewriter)
        if operands is None:
            raise legalize_error(op, "an argument has no LLVM type")
        ptr = llvm.LLVMPointerType()
        decl = self.lowering.declare_function(
            VPRINTF, llvm.LLVMFunctionType([ptr, ptr], i32)
        )
        fmt = self.lowering.string_global("printfFormat", op.format.data)
        # Module-level ops: the printf's file:line:col, as upstream.
        for made in (decl, fmt):
            if isinstance(made.location, UnknownLoc):
                made.location = file_location(op.location)
        builder = Builder(InsertPoint.before(op))
        fmt_ptr = string_pointer(builder, fmt)
        values = [promote(builder, v) for v in operands]
        fields: list[Attribute] = [v.type for v in values]
        struct = llvm.LLVMStructType.from_type_list(fields)
        one = index_constant(builder, self.lowering.index_type, 1)
        buffer = alloca(builder, one, struct)
        for i, v in enumerate(values):
            store(builder, v, gep(builder, buffer, [0, i], struct))
        builder.insert(llvm.CallOp(VPRINTF, fmt_ptr, buffer, return_type=i32))
        rewriter.erase(op)


def printf_patterns(lowering: NVVMLowering) -> list[RewritePattern]:
    return [PrintfLowering(lowering)]
