"""What every ``convert-nvgpu-to-nvvm`` pattern family shares: the type converter
with the ``nvgpu`` types, the lowering state, memref addressing and the diagnostic
for an op that cannot be lowered."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import MemRefType, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xdsl_gpu.diagnostics import at_op
from xdsl_gpu.passes.llvm_type_converter import (
    ConversionError,
    LLVMTypeConverter,
    to_llvm,
)
from xdsl_gpu.passes.memref_descriptor import MemRefDescriptor, strided_element_ptr

PASS_NAME = "convert-nvgpu-to-nvvm"

TypeConversion = Callable[[Attribute, LLVMTypeConverter], Attribute | None]
"""One family's conversion of its ``nvgpu`` types (``None``: not one of its types)."""


def convert_async_token(t: Attribute, converter: LLVMTypeConverter) -> Attribute | None:
    """``!nvgpu.device.async.token`` → ``i32``: the token has no NVVM value; upstream
    gives it a dummy ``i32`` so that it can be dropped during the conversion."""
    # (imported here: a program without nvgpu types does not load the dialect)
    from xdsl_gpu.gpu_dialect.nvgpu.types import DeviceAsyncTokenType

    return i32 if isinstance(t, DeviceAsyncTokenType) else None


@dataclass(frozen=True)
class NVGPUTypeConverter(LLVMTypeConverter):
    """The LLVM type converter of the pass, with the ``nvgpu`` types of every
    pattern family (:data:`xdsl_gpu.passes.nvgpu_to_nvvm_patterns.PATTERN_MODULES`)."""

    nvgpu_conversions: tuple[TypeConversion, ...] = ()

    def convert_type(self, t: Attribute) -> Attribute | None:
        if t.name.startswith("nvgpu."):
            for conversion in self.nvgpu_conversions:
                converted = conversion(t, self)
                if converted is not None:
                    return converted
            return None
        return super().convert_type(t)


@dataclass
class NVGPULowering:
    """The state shared by the patterns of one run of the pass."""

    converter: LLVMTypeConverter

    def llvm_value(
        self, value: SSAValue, rewriter: PatternRewriter, op: Operation
    ) -> SSAValue:
        """``value`` as a value of its converted type (a cast where needed)."""
        target = self.converter.convert_type(value.type)
        if target is None:
            raise lowering_error(
                op, f"has an operand of type {value.type} that has no LLVM type"
            )
        return to_llvm(value, target, rewriter)

    def element_address(
        self,
        rewriter: PatternRewriter,
        op: Operation,
        memref: SSAValue,
        descriptor: SSAValue,
        indices: Sequence[SSAValue],
    ) -> SSAValue:
        """The address of ``memref[indices]`` as an ``!llvm.ptr`` in the memref's
        address space (upstream's ``getStridedElementPtr``), from the converted
        ``descriptor`` and ``indices``."""
        memref_type = memref.type
        assert isinstance(memref_type, MemRefType)
        element = self.converter.convert_type(memref_type.element_type)
        if element is None:
            raise lowering_error(
                op,
                f"has a memref of {memref_type.element_type}, which has no LLVM type",
            )
        return strided_element_ptr(
            rewriter, memref_type, MemRefDescriptor(descriptor), indices, element
        )


class NVGPULoweringError(ConversionError):
    """An ``nvgpu`` op that the pass cannot lower."""


def lowering_error(op: Operation, why: str) -> NVGPULoweringError:
    """``convert-nvgpu-to-nvvm: 'nvgpu.x' op <why>``, located at the op."""
    error = NVGPULoweringError(f"{PASS_NAME}: '{op.name}' op {why}")
    return at_op(error, op)  # type: ignore[return-value]
