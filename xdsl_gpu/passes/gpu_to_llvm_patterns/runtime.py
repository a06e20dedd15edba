"""The ``mgpu*`` runtime functions that ``gpu-to-llvm`` calls (inventory §4), declared
as ``llvm.func`` externals at the end of the module in the order of first use, as
upstream's ``FunctionCallBuilder`` does."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp, StringAttr, i8, i16, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.passes.llvm_type_converter import ConversionError, conversion_error

PASS_NAME = "gpu-to-llvm"

PTR = llvm.LLVMPointerType()
VOID = llvm.LLVMVoidType()

RUNTIME_FUNCTIONS: dict[str, tuple[tuple[Attribute, ...], Attribute]] = {
    "mgpuStreamCreate": ((), PTR),
    "mgpuStreamDestroy": ((PTR,), VOID),
    "mgpuStreamSynchronize": ((PTR,), VOID),
    "mgpuStreamWaitEvent": ((PTR, PTR), VOID),
    "mgpuEventCreate": ((), PTR),
    "mgpuEventDestroy": ((PTR,), VOID),
    "mgpuEventSynchronize": ((PTR,), VOID),
    "mgpuEventRecord": ((PTR, PTR), VOID),
    "mgpuMemAlloc": ((i64, PTR, i8), PTR),
    "mgpuMemFree": ((PTR, PTR), VOID),
    "mgpuMemcpy": ((PTR, PTR, i64, PTR), VOID),
    "mgpuMemset16": ((PTR, i16, i64, PTR), VOID),
    "mgpuMemset32": ((PTR, i32, i64, PTR), VOID),
    "mgpuMemHostRegisterMemRef": ((i64, PTR, i64), VOID),
    "mgpuMemHostUnregisterMemRef": ((i64, PTR, i64), VOID),
    "mgpuSetDefaultDevice": ((i32,), VOID),
}
"""Name → (argument types, result type): the C ABI of ``CudaRuntimeWrappers.cpp`` as
MLIR 22's gpu-to-llvm declares it (``mgpuMemAlloc`` takes an ``i8`` host-shared
flag)."""


def error(op: Operation, why: str) -> ConversionError:
    """``gpu-to-llvm: 'gpu.memset' op in @f <why>``."""
    return conversion_error(PASS_NAME, op, why)


@dataclass
class RuntimeCalls:
    """Builds ``llvm.call @mgpu*`` and declares each callee once in ``module``."""

    module: ModuleOp
    _declared: set[str] = field(default_factory=set[str])

    def declare(self, name: str, op: Operation) -> llvm.LLVMFunctionType:
        inputs, output = RUNTIME_FUNCTIONS[name]
        function_type = llvm.LLVMFunctionType(inputs, output)
        if name in self._declared:
            return function_type
        for candidate in self.module.ops:
            sym = candidate.properties.get("sym_name") or candidate.attributes.get(
                "sym_name"
            )
            if not (isinstance(sym, StringAttr) and sym.data == name):
                continue
            if not isinstance(candidate, llvm.FuncOp):
                raise error(
                    op,
                    f"needs the runtime function @{name}, but the module defines "
                    f"@{name} as '{candidate.name}': rename that symbol",
                )
            if candidate.function_type != function_type:
                raise error(
                    op,
                    f"needs @{name} of type {function_type}, but the module "
                    f"declares it as {candidate.function_type}: drop that "
                    "declaration (gpu-to-llvm adds the right one)",
                )
            break
        else:
            self.module.body.block.add_op(
                llvm.FuncOp(name, function_type, linkage=llvm.LinkageAttr("external"))
            )
        self._declared.add(name)
        return function_type

    def call(
        self,
        rewriter: PatternRewriter,
        op: Operation,
        name: str,
        args: Sequence[SSAValue],
        insert_after: Operation | None = None,
    ) -> SSAValue | None:
        """``llvm.call @name(args)`` at the rewriter's insertion point (or right after
        ``insert_after``), with the location of ``op``; its result, if any."""
        self.declare(name, op)
        _, output = RUNTIME_FUNCTIONS[name]
        call = llvm.CallOp(name, *args, return_type=None if output == VOID else output)
        call.location = op.location
        if insert_after is None:
            rewriter.insert(call)
        else:
            rewriter.insert(call, InsertPoint.after(insert_after))
        return call.returned if output != VOID else None
