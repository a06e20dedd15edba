"""Warpgroup-level (wgmma) matrix ops: ``warpgroup.generate.descriptor``,
``warpgroup.mma``, ``warpgroup.mma.store`` and ``warpgroup.mma.init.accumulator``.

Printed forms (MLIR 22; nvgpu types are printed stripped)::

    %d = nvgpu.warpgroup.generate.descriptor %tile, %map
        : memref<128x64xf16, 3>, <tensor = ...> -> <tensor = memref<128x64xf16, 3>>
    %acc = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>
    %r = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB}
        : <tensor = ...>, <tensor = ...>, <fragmented = ...> -> <fragmented = ...>
    nvgpu.warpgroup.mma.store %r, %out : <fragmented = ...> to memref<128x128xf32, 3>

Verifier messages are upstream's, word for word.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    I64,
    Float8E4M3FNType,
    Float8E5M2Type,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvgpu.attributes import (
    TensorMapInterleaveKind,
    TensorMapSwizzleKind,
)
from xdsl_gpu.gpu_dialect.nvgpu.tma_ops import verify_descriptor
from xdsl_gpu.gpu_dialect.nvgpu.types import (
    TensorMapDescriptor,
    TensorMapDescriptorType,
    WarpgroupAccumulator,
    WarpgroupAccumulatorType,
    WarpgroupDescriptor,
    WarpgroupMatrixDescriptorType,
)

WGMMA_SIZE_M = 64
"""The M of one wgmma instruction (``kWgmmaSizeM``)."""

_Values = SSAValue | Operation
_FLOAT8 = (Float8E5M2Type, Float8E4M3FNType)


def _is_int(t: Attribute, width: int) -> bool:
    return isinstance(t, IntegerType) and t.width.data == width


def allowed_wgmma_types(d: Attribute, a: Attribute, b: Attribute) -> bool:
    """Upstream's ``isAllowedWGMMADataType``."""
    f16_or_f32 = d.name in ("f16", "f32")
    if a.name == "f16" and b.name == "f16" and f16_or_f32:
        return True
    if a.name == "tf32" and b.name == "tf32" and d.name == "f32":
        return True
    if _is_int(a, 16) and _is_int(b, 16) and _is_int(d, 32):
        return True
    if _is_int(a, 1) and _is_int(b, 1) and _is_int(d, 32):
        return True
    if a.name == "bf16" and b.name == "bf16" and f16_or_f32:
        return True
    return isinstance(a, _FLOAT8) and isinstance(b, _FLOAT8) and f16_or_f32


_ALLOWED_N = tuple(range(8, 257, 8))
_ALLOWED_N_SHORT = (8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208)
_ALLOWED_N_SHORT += (224, 240, 256)


def allowed_size_n(n: int, a: Attribute) -> bool:
    """Upstream's ``isAllowedSizeN``."""
    if a.name in ("bf16", "f16", "f32", "tf32") or isinstance(a, _FLOAT8):
        if n in _ALLOWED_N:
            return True
    return (_is_int(a, 8) or _is_int(a, 1)) and n in _ALLOWED_N_SHORT


@irdl_op_definition
class WarpgroupGenerateDescriptorOp(IRDLOperation):
    """``nvgpu.warpgroup.generate.descriptor``: the wgmma matrix descriptor of a
    shared-memory tile laid out by ``tensorMap``."""

    name = "nvgpu.warpgroup.generate.descriptor"

    tensor = operand_def(MemRefType)
    tensor_map = operand_def(TensorMapDescriptorType)
    descriptor = result_def(WarpgroupMatrixDescriptorType)

    custom_directives = (TensorMapDescriptor, WarpgroupDescriptor)
    assembly_format = (
        "$tensor `,` $tensor_map attr-dict `:` type($tensor) `,` "
        "custom<TensorMapDescriptor>(type($tensor_map)) `->` "
        "custom<WarpgroupDescriptor>(type($descriptor))"
    )

    def __init__(
        self,
        tensor: _Values,
        tensor_map: _Values,
        descriptor: WarpgroupMatrixDescriptorType,
    ):
        super().__init__(operands=[tensor, tensor_map], result_types=[descriptor])

    def verify_(self) -> None:
        desc = self.tensor_map.type
        assert isinstance(desc, TensorMapDescriptorType)
        verify_descriptor(desc)
        if desc.swizzle != TensorMapSwizzleKind.SWIZZLE_128B:
            raise VerifyException(
                "supports only swizzle_128b is supported for the time being"
            )
        if desc.interleave != TensorMapInterleaveKind.INTERLEAVE_NONE:
            raise VerifyException("supports only none is supported for the time being")


@irdl_op_definition
class WarpgroupMmaOp(IRDLOperation):
    """``nvgpu.warpgroup.mma``: ``D = A * B + C`` over a warpgroup, ``A`` and ``B``
    in shared memory (described by wgmma descriptors); lowered to a fenced,
    committed and awaited sequence of ``nvvm.wgmma.mma_async``."""

    name = "nvgpu.warpgroup.mma"

    descriptor_a = operand_def(WarpgroupMatrixDescriptorType)
    descriptor_b = operand_def(WarpgroupMatrixDescriptorType)
    matrix_c = operand_def(WarpgroupAccumulatorType)
    matrix_d = result_def(WarpgroupAccumulatorType)
    wait_group = prop_def(
        IntegerAttr[I64], default_value=IntegerAttr(1, i64), prop_name="waitGroup"
    )
    transpose_a = opt_prop_def(UnitAttr, prop_name="transposeA")
    transpose_b = opt_prop_def(UnitAttr, prop_name="transposeB")

    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (WarpgroupDescriptor, WarpgroupAccumulator)
    assembly_format = (
        "$descriptor_a `,` $descriptor_b `,` $matrix_c attr-dict `:` "
        "custom<WarpgroupDescriptor>(type($descriptor_a)) `,` "
        "custom<WarpgroupDescriptor>(type($descriptor_b)) `,` "
        "custom<WarpgroupAccumulator>(type($matrix_c)) `->` "
        "custom<WarpgroupAccumulator>(type($matrix_d))"
    )

    def __init__(
        self,
        descriptor_a: _Values,
        descriptor_b: _Values,
        matrix_c: _Values,
        transpose_b: bool = False,
    ):
        super().__init__(
            operands=[descriptor_a, descriptor_b, matrix_c],
            result_types=[SSAValue.get(matrix_c).type],
            properties={"transposeB": UnitAttr()} if transpose_b else {},
        )

    def verify_(self) -> None:
        prefix = f"'{self.name}' op "
        if self.transpose_a is not None and self.transpose_b is None:
            raise VerifyException(
                f"{prefix}supports non-transpose A (Row Major) and transpose B "
                "(Column Major) for the time being "
            )
        da, db = self.descriptor_a.type, self.descriptor_b.type
        c, d = self.matrix_c.type, self.matrix_d.type
        assert isinstance(da, WarpgroupMatrixDescriptorType)
        assert isinstance(db, WarpgroupMatrixDescriptorType)
        assert isinstance(c, WarpgroupAccumulatorType)
        assert isinstance(d, WarpgroupAccumulatorType)
        a, b, mc = da.tensor, db.tensor, c.fragmented
        if mc != d.fragmented:
            raise VerifyException(
                f"{prefix}type of matrix C and matrix D must be the same"
            )
        a_shape, b_shape, c_shape = a.get_shape(), b.get_shape(), mc.get_shape()
        if len(a_shape) != 2 or len(b_shape) != 2 or len(c_shape) != 2:
            raise VerifyException(
                f"{prefix}has matrices A, B, C and D, they must be 2 dimensional"
            )
        if a_shape[1] != b_shape[0]:
            raise VerifyException(
                f"{prefix}2nd dim matrix-A ({a_shape[1]})!= 1st dim matrix-B "
                f"({b_shape[0]} )"
            )
        if a_shape[0] != c_shape[0]:
            raise VerifyException(
                f"{prefix}1st dim matrix-A ( {a_shape[0]} )!= 1st dim matrix-C "
                f"( {c_shape[0]} )"
            )
        if b_shape[1] != c_shape[1]:
            raise VerifyException(
                f"{prefix}2nd dim matrix-B ( {b_shape[1]} ) != 2nd dim matrix-C "
                f"( {c_shape[1]} )"
            )
        # Types in diagnostics are quoted, as MLIR's diagnostics print them.
        types = f"'{mc.element_type}' += '{a.element_type}' * '{b.element_type}'"
        if not allowed_wgmma_types(mc.element_type, a.element_type, b.element_type):
            raise VerifyException(f"{prefix}{types}, it is not supported.")
        if not allowed_size_n(b_shape[1], a.element_type):
            raise VerifyException(
                f"{prefix}has input type '{b}' n is set to {b_shape[1]}, it is not "
                "supported"
            )
        if mc.element_type.name != "f32" and a.element_type.name not in (
            "f16",
            "bf16",
        ):
            raise VerifyException(
                f"{prefix}hit a limitation: {types}, it is not supported yet"
            )


@irdl_op_definition
class WarpgroupMmaStoreOp(IRDLOperation):
    """``nvgpu.warpgroup.mma.store``: store the warpgroup's fragmented result to a
    memref."""

    name = "nvgpu.warpgroup.mma.store"

    matrix_d = operand_def(WarpgroupAccumulatorType)
    dst_memref = operand_def(MemRefType)

    custom_directives = (WarpgroupAccumulator,)
    assembly_format = (
        "$matrix_d `,` $dst_memref attr-dict `:` "
        "custom<WarpgroupAccumulator>(type($matrix_d)) `to` type($dst_memref)"
    )

    def __init__(self, matrix_d: _Values, dst_memref: _Values):
        super().__init__(operands=[matrix_d, dst_memref])

    def verify_(self) -> None:
        acc, dst = self.matrix_d.type, self.dst_memref.type
        assert isinstance(acc, WarpgroupAccumulatorType)
        assert isinstance(dst, MemRefType)
        vtype = acc.fragmented
        if vtype.element_type.name != "f32":
            raise VerifyException(
                f"'{self.name}' op hit a limitation: only f32 results for the time "
                "being"
            )
        v_shape, d_shape = vtype.get_shape(), dst.get_shape()
        if v_shape[0] != d_shape[0] or v_shape[1] != d_shape[1]:
            raise VerifyException(
                f"'{self.name}' op results [{vtype}][{v_shape[1]}] values. However, "
                f"destination memref[{d_shape[0]}][{d_shape[1]}]  does not have same "
                "size as results"
            )


@irdl_op_definition
class WarpgroupMmaInitAccumulatorOp(IRDLOperation):
    """``nvgpu.warpgroup.mma.init.accumulator``: a zero accumulator."""

    name = "nvgpu.warpgroup.mma.init.accumulator"

    matrix_c = result_def(WarpgroupAccumulatorType)

    custom_directives = (WarpgroupAccumulator,)
    assembly_format = "attr-dict `->` custom<WarpgroupAccumulator>(type($matrix_c))"

    def __init__(self, accumulator: WarpgroupAccumulatorType):
        super().__init__(result_types=[accumulator])

    def verify_(self) -> None:
        acc = self.matrix_c.type
        assert isinstance(acc, WarpgroupAccumulatorType)
        vtype: VectorType = acc.fragmented
        m, n = vtype.get_shape()[0], vtype.get_shape()[1]
        if m % WGMMA_SIZE_M or not allowed_size_n(n, vtype.element_type):
            raise VerifyException(
                f"'{self.name}' op has type '{vtype}'. It does not fit into warp-group "
                "level (wgmma) matrix multiplication instruction (or not supported "
                "yet)"
            )


OPERATIONS: tuple[type[Operation], ...] = (
    WarpgroupGenerateDescriptorOp,
    WarpgroupMmaOp,
    WarpgroupMmaStoreOp,
    WarpgroupMmaInitAccumulatorOp,
)

__all__ = [
    "WGMMA_SIZE_M",
    "WarpgroupGenerateDescriptorOp",
    "WarpgroupMmaInitAccumulatorOp",
    "WarpgroupMmaOp",
    "WarpgroupMmaStoreOp",
    "allowed_size_n",
    "allowed_wgmma_types",
]
