"""Asynchronous global → shared copies: ``device_async_copy``,
``device_async_create_group`` and ``device_async_wait``.

Printed forms (MLIR 22)::

    %t = nvgpu.device_async_copy %src[%i], %dst[%j], 4, %n {bypassL1}
        : memref<128xf32> to memref<128xf32, 3>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %g {numGroups = 1 : i32}

Verifier messages are upstream's, word for word (typos included).
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    I32,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvgpu.mma_ops import bitwidth
from xdsl_gpu.gpu_dialect.nvgpu.types import (
    SHARED_MEMORY_ADDRESS_SPACE,
    DeviceAsyncTokenType,
    is_shared_memory_space,
)


def last_dim_unit_stride(t: MemRefType) -> bool:
    """Upstream's ``MemRefType::isLastDimUnitStride`` (true for the identity
    layout)."""
    if isinstance(t.layout, NoneAttr):
        return True
    strides = t.get_strides()
    return strides is not None and (not strides or strides[-1] == 1)


@irdl_op_definition
class DeviceAsyncCopyOp(IRDLOperation):
    """``nvgpu.device_async_copy``: start copying ``dstElements`` elements from
    global ``src`` to shared ``dst`` (reading only ``srcElements`` and zero-filling
    the rest when given); lowered to ``nvvm.cp.async.shared.global``."""

    name = "nvgpu.device_async_copy"

    dst = operand_def(MemRefType)
    dst_indices = var_operand_def(IndexType)
    src = operand_def(MemRefType)
    src_indices = var_operand_def(IndexType)
    src_elements = opt_operand_def(IndexType)
    async_token = result_def(DeviceAsyncTokenType)
    dst_elements = prop_def(IntegerAttr[IndexType], prop_name="dstElements")
    bypass_l1 = opt_prop_def(UnitAttr, prop_name="bypassL1")

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    assembly_format = (
        "$src `[` $src_indices `]` `,` $dst `[` $dst_indices `]` `,` $dstElements "
        "(`,` $src_elements^)? attr-dict `:` type($src) `to` type($dst)"
    )

    def __init__(
        self,
        dst: SSAValue | Operation,
        dst_indices: list[SSAValue | Operation],
        src: SSAValue | Operation,
        src_indices: list[SSAValue | Operation],
        dst_elements: int,
        src_elements: SSAValue | Operation | None = None,
        bypass_l1: bool = False,
    ):
        properties: dict[str, Attribute] = {
            "dstElements": IntegerAttr(dst_elements, IndexType())
        }
        if bypass_l1:
            properties["bypassL1"] = UnitAttr()
        super().__init__(
            operands=[
                dst,
                dst_indices,
                src,
                src_indices,
                [] if src_elements is None else [src_elements],
            ],
            result_types=[DeviceAsyncTokenType()],
            properties=properties,
        )

    def verify_(self) -> None:
        src, dst = self.src.type, self.dst.type
        assert isinstance(src, MemRefType)
        assert isinstance(dst, MemRefType)
        if not last_dim_unit_stride(src):
            raise VerifyException("source memref most minor dim must have unit stride")
        if not last_dim_unit_stride(dst):
            raise VerifyException(
                "destination memref most minor dim must have unit stride"
            )
        if not is_shared_memory_space(dst.memory_space):
            raise VerifyException(
                "destination memref must have a memory space attribute of "
                f"IntegerAttr({SHARED_MEMORY_ADDRESS_SPACE}) or "
                "gpu::AddressSpaceAttr(Workgroup)"
            )
        if dst.element_type != src.element_type:
            raise VerifyException(
                "source and destination must have the same element type"
            )
        for label, t, indices in (
            ("source", src, self.src_indices),
            ("destination", dst, self.dst_indices),
        ):
            if len(t.get_shape()) != len(indices):
                raise VerifyException(
                    f"'{self.name}' op expected {len(t.get_shape())} {label} "
                    f"indices, got {len(indices)}"
                )
        self._verify_size(dst)

    def _verify_size(self, dst: MemRefType) -> None:
        elements = self.dst_elements.value.data
        width = bitwidth(dst.element_type)
        size = width * elements // 8
        if size not in (4, 8, 16):
            options = [f"{bits // width}" for bits in (32, 64, 128) if bits >= width]
            raise VerifyException(
                f"Requested copy elements is {elements} with width {width}. But copy "
                f"elements could be one of {', '.join(options)}."
            )
        if self.bypass_l1 is not None and size != 16:
            raise VerifyException(
                f"'{self.name}' op bypassL1 does not satify alignment for {dst} with "
                f"destination element {elements}. Unset bypassL1, or set destination "
                f"element to {128 // width}"
            )


@irdl_op_definition
class DeviceAsyncCreateGroupOp(IRDLOperation):
    """``nvgpu.device_async_create_group %t...``: close a group of the pending
    copies; lowered to ``nvvm.cp.async.commit.group``."""

    name = "nvgpu.device_async_create_group"

    input_tokens = var_operand_def(DeviceAsyncTokenType)
    async_token = result_def(DeviceAsyncTokenType)

    assembly_format = "$input_tokens attr-dict"

    def __init__(self, input_tokens: list[SSAValue | Operation]):
        super().__init__(operands=[input_tokens], result_types=[DeviceAsyncTokenType()])


@irdl_op_definition
class DeviceAsyncWaitOp(IRDLOperation):
    """``nvgpu.device_async_wait %g``: wait until at most ``numGroups`` (default 0)
    groups are pending; lowered to ``nvvm.cp.async.wait.group``."""

    name = "nvgpu.device_async_wait"

    async_dependencies = operand_def(DeviceAsyncTokenType)
    num_groups = opt_prop_def(IntegerAttr[I32], prop_name="numGroups")

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$async_dependencies attr-dict"

    def __init__(self, token: SSAValue | Operation, num_groups: int | None = None):
        super().__init__(
            operands=[token],
            properties={}
            if num_groups is None
            else {"numGroups": IntegerAttr(num_groups, i32)},
        )


OPERATIONS: tuple[type[Operation], ...] = (
    DeviceAsyncCopyOp,
    DeviceAsyncCreateGroupOp,
    DeviceAsyncWaitOp,
)

__all__ = [
    "DeviceAsyncCopyOp",
    "DeviceAsyncCreateGroupOp",
    "DeviceAsyncWaitOp",
    "last_dim_unit_stride",
]
