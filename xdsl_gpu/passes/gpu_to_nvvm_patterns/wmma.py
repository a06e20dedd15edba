"""Warp matrix ops: ``gpu.subgroup_mma_*`` → ``nvvm.wmma.*`` and ``llvm`` (upstream's
``populateGpuWMMAToNVVMConversionPatterns``, ``WmmaOpsToNvvm.cpp``).

``!gpu.mma_matrix<MxNxT, "XOp">`` becomes the registers one lane holds of that
fragment: an ``!llvm.struct`` of them (``vector<2xf16>`` x 8 for an f16 A or B,
``f32`` x 8 for an f32 C...), or a bare ``f64`` for the A and B of the f64 shape
(:class:`WMMATypeConverter`). The shape ``m x n x k`` of the WMMA instruction is the
first one of MLIR 22's list that fits the two dimensions the type gives (an f32 C
of 16x16 is m16n16k16, whether an f16 or a tf32 product made it).

* ``subgroup_mma_load_matrix`` / ``store_matrix`` → ``nvvm.wmma.load`` /
  ``wmma.store`` at ``memref[indices]`` with ``leadDimension`` as the stride;
  ``transpose`` reads or writes the fragment column-major (layout ``col``).
* ``subgroup_mma_compute`` → ``nvvm.wmma.mma`` on the unpacked registers;
  ``a_transpose``/``b_transpose`` make that operand's layout ``col``.
* ``subgroup_mma_constant_matrix`` → the value in every register (packed into a
  ``vector<2xf16>`` first for f16).
* ``subgroup_mma_elementwise`` → the op on every register. MLIR 22 lowers ``addf``,
  ``mulf``, ``divf``, ``maxf`` and ``minf`` (NaN-propagating, as upstream); beyond it
  (it crashes on them) ``subf``, ``negatef``, the integer ops on an i32 C fragment
  (``addi``, ``muli``, ``subi``, ``divs``, ``divu``, ``negates``) and ``extf`` from an
  f16 to an f32 C fragment of the same shape, which relies on the lane holding the
  same elements, in the same order, in both fragments (true of every NVIDIA GPU that
  has tensor cores; the GPU test of ``tests/filecheck/integration/wmma-elementwise.mlir``
  checks it).

What has no WMMA instruction (a shape or element type outside MLIR 22's table) stops
the pass with "failed to legalize" and the reason.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import (
    AnyFloat,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    Signedness,
    VectorType,
    f32,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xdsl_gpu.gpu_dialect import llvm, nvvm
from xdsl_gpu.gpu_dialect.gpu import mma_ops as gpu
from xdsl_gpu.gpu_dialect.gpu.types import MMAMatrixType
from xdsl_gpu.gpu_dialect.nvvm.mma_attrs import MMALayout, MMATypes
from xdsl_gpu.gpu_dialect.nvvm.wmma_ops import (
    Geometry,
    MMAFrag,
    fragment_type,
    is_valid_load_store,
    is_valid_mma,
)
from xdsl_gpu.passes.gpu_to_nvvm_patterns.common import (
    NVVMLowering,
    i32_constant,
    legalize_error,
)
from xdsl_gpu.passes.llvm_type_converter import (
    LLVMTypeConverter,
    convert_operands,
    extract,
    insert,
    replace_op,
)
from xdsl_gpu.passes.memref_descriptor import MemRefDescriptor, strided_element_ptr

GEOMETRIES: tuple[Geometry, ...] = (
    (16, 16, 16),
    (32, 8, 16),
    (8, 32, 16),
    (16, 16, 8),
    (8, 8, 4),
)
"""The WMMA shapes of MLIR 22, in the order its shape inference tries them."""

_FRAGS = {"AOp": MMAFrag.A, "BOp": MMAFrag.B, "COp": MMAFrag.C}


def wmma_element_type(t: MMAMatrixType) -> MMATypes | None:
    """The WMMA element type of a matrix type: f32 inputs are tf32, as upstream."""
    element = t.element_type
    if isinstance(element, Float16Type):
        return MMATypes.F16
    if isinstance(element, Float32Type):
        return MMATypes.F32 if t.operand.data == "COp" else MMATypes.TF32
    if isinstance(element, Float64Type):
        return MMATypes.F64
    if isinstance(element, IntegerType):
        if element.width.data == 32:
            return MMATypes.S32
        if element.signedness.data == Signedness.SIGNED:
            return MMATypes.S8
        if element.signedness.data == Signedness.UNSIGNED:
            return MMATypes.U8
    return None


def wmma_geometry(t: MMAMatrixType) -> Geometry | None:
    """The first WMMA shape whose fragment of this operand has this type's
    dimensions and element type (upstream's ``infer{M,N,K}Dimension``)."""
    eltype = wmma_element_type(t)
    if eltype is None:
        return None
    frag = _FRAGS[t.operand.data]
    rows, cols = t.get_shape()
    for m, n, k in GEOMETRIES:
        dims = {MMAFrag.A: (m, k), MMAFrag.B: (k, n), MMAFrag.C: (m, n)}[frag]
        if dims == (rows, cols) and is_valid_load_store((m, n, k), frag, eltype):
            return (m, n, k)
    return None


def mma_matrix_llvm_type(t: MMAMatrixType) -> Attribute | None:
    """What one lane holds of the fragment (upstream's ``convertMMAToLLVMType``),
    ``None`` when no WMMA instruction has such a fragment."""
    eltype = wmma_element_type(t)
    geometry = wmma_geometry(t)
    if eltype is None or geometry is None:
        return None
    return fragment_type(eltype, _FRAGS[t.operand.data], geometry)


class WMMATypeConverter(LLVMTypeConverter):
    """The LLVM type converter of ``convert-gpu-to-nvvm``: the builtin types, and
    ``!gpu.mma_matrix`` as the registers of a WMMA fragment."""

    def convert_type(self, t: Attribute) -> Attribute | None:
        if isinstance(t, MMAMatrixType):
            return mma_matrix_llvm_type(t)
        return super().convert_type(t)


# -- helpers ---------------------------------------------------------------------------


def _no_variant(op: Operation, t: MMAMatrixType) -> Exception:
    return legalize_error(
        op,
        f"no WMMA instruction has a fragment {t} (MLIR 22 has m16n16k16, m32n8k16 and "
        "m8n32k16 for f16 and 8-bit integers, m16n16k8 for tf32, m8n8k4 for f64)",
    )


def _matrix(op: Operation, value: SSAValue) -> tuple[MMAMatrixType, MMATypes, Geometry]:
    t = value.type
    assert isinstance(t, MMAMatrixType)
    eltype = wmma_element_type(t)
    geometry = wmma_geometry(t)
    if eltype is None or geometry is None:
        raise _no_variant(op, t)
    return t, eltype, geometry


def _operands(
    lowering: NVVMLowering, op: Operation, rewriter: PatternRewriter
) -> list[SSAValue]:
    converted = convert_operands(lowering.converter, op, rewriter)
    if converted is None:
        raise legalize_error(op, "an operand type has no LLVM form")
    return converted


def _registers(rewriter: PatternRewriter, value: SSAValue) -> list[SSAValue]:
    """The registers of a converted fragment, in order (a bare ``f64`` is one)."""
    t = value.type
    if not isinstance(t, llvm.LLVMStructType):
        return [value]
    return [
        rewriter.insert(extract(value, i)).results[0] for i in range(len(t.types.data))
    ]


def _address(
    lowering: NVVMLowering,
    rewriter: PatternRewriter,
    op: Operation,
    memref_type: Attribute,
    descriptor: SSAValue,
    indices: list[SSAValue],
) -> SSAValue:
    assert isinstance(memref_type, MemRefType)
    element = lowering.converter.convert_type(memref_type.element_type)
    if element is None:
        raise legalize_error(op, f"memref element type {memref_type.element_type}")
    return strided_element_ptr(
        rewriter, memref_type, MemRefDescriptor(descriptor), indices, element
    )


def _lead_dimension(rewriter: PatternRewriter, lead: IntegerAttr) -> SSAValue:
    """``llvm.mlir.constant(<leadDimension> : index) : i32``, as upstream writes it."""
    constant = llvm.ConstantOp(IntegerAttr(lead.value.data, IndexType()), i32)
    return rewriter.insert(constant).results[0]


# -- patterns --------------------------------------------------------------------------


class _WMMAPattern(RewritePattern):
    def __init__(self, lowering: NVVMLowering):
        self.lowering = lowering


class LoadMatrixLowering(_WMMAPattern):
    acts_on = (gpu.SubgroupMmaLoadMatrixOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.SubgroupMmaLoadMatrixOp):
            return
        t, eltype, geometry = _matrix(op, op.res)
        layout = MMALayout.COL if op.transpose is not None else MMALayout.ROW
        descriptor, *indices = _operands(self.lowering, op, rewriter)
        pointer = _address(
            self.lowering, rewriter, op, op.srcMemref.type, descriptor, indices
        )
        lead = _lead_dimension(rewriter, op.leadDimension)
        frag = _FRAGS[t.operand.data]
        load = nvvm.WMMALoadOp(pointer, lead, geometry, layout, eltype, frag)
        replace_op(op, [load], [load.res], rewriter)


class StoreMatrixLowering(_WMMAPattern):
    acts_on = (gpu.SubgroupMmaStoreMatrixOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.SubgroupMmaStoreMatrixOp):
            return
        _, eltype, geometry = _matrix(op, op.src)
        layout = MMALayout.COL if op.transpose is not None else MMALayout.ROW
        source, descriptor, *indices = _operands(self.lowering, op, rewriter)
        registers = _registers(rewriter, source)
        pointer = _address(
            self.lowering, rewriter, op, op.dstMemref.type, descriptor, indices
        )
        lead = _lead_dimension(rewriter, op.leadDimension)
        store = nvvm.WMMAStoreOp(pointer, lead, registers, geometry, layout, eltype)
        replace_op(op, [store], [], rewriter)


class ComputeLowering(_WMMAPattern):
    acts_on = (gpu.SubgroupMmaComputeOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.SubgroupMmaComputeOp):
            return
        a, eltype_a, _ = _matrix(op, op.opA)
        c, eltype_c, _ = _matrix(op, op.opC)
        geometry = (c.get_shape()[0], c.get_shape()[1], a.get_shape()[1])
        if not is_valid_mma(geometry, eltype_a, eltype_c):
            m, n, k = geometry
            raise legalize_error(
                op,
                f"no WMMA instruction computes m{m}n{n}k{k} with {eltype_a.value} "
                f"inputs and a {eltype_c.value} accumulator",
            )
        layouts = (
            MMALayout.COL if op.a_transpose is not None else MMALayout.ROW,
            MMALayout.COL if op.b_transpose is not None else MMALayout.ROW,
        )
        registers: list[SSAValue] = []
        for value in _operands(self.lowering, op, rewriter):
            registers += _registers(rewriter, value)
        mma = nvvm.WMMAMmaOp(registers, geometry, layouts, eltype_a, eltype_c)
        replace_op(op, [mma], [mma.res], rewriter)


class ConstantMatrixLowering(_WMMAPattern):
    acts_on = (gpu.SubgroupMmaConstantMatrixOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.SubgroupMmaConstantMatrixOp):
            return
        t = op.res.type
        assert isinstance(t, MMAMatrixType)
        struct = mma_matrix_llvm_type(t)
        if not isinstance(struct, llvm.LLVMStructType):
            raise _no_variant(op, t)
        (value,) = _operands(self.lowering, op, rewriter)
        field = struct.types.data[0]
        if isinstance(field, VectorType):
            vector = rewriter.insert(llvm.PoisonOp(field)).results[0]
            for lane in range(field.element_count()):
                position = i32_constant(rewriter, lane)
                vector = rewriter.insert(
                    llvm.InsertElementOp(vector, value, position)
                ).results[0]
            value = vector
        if value.type != field:
            raise legalize_error(
                op,
                f"the registers of {t} pack several {t.element_type} elements; only "
                "f16, f32 and i32 fragments of one element per register can be splat",
            )
        result = rewriter.insert(llvm.PoisonOp(struct)).results[0]
        for i in range(len(struct.types.data)):
            result = rewriter.insert(insert(result, value, i)).results[0]
        replace_op(op, [], [result], rewriter)


# -- elementwise ----------------------------------------------------------------------

ScalarBuilder = Callable[[PatternRewriter, list[SSAValue]], SSAValue]


def _emit(rewriter: PatternRewriter, op: Operation) -> SSAValue:
    return rewriter.insert(op).results[0]


def _min_max(is_min: bool) -> ScalarBuilder:
    """``x < y ? x : y`` (or ``>``), NaN if either is NaN: upstream's ``minf``/``maxf``."""

    def build(rewriter: PatternRewriter, args: list[SSAValue]) -> SSAValue:
        lhs, rhs = args
        t = lhs.type
        element = t.element_type if isinstance(t, VectorType) else t
        assert isinstance(element, AnyFloat)
        compare = _emit(rewriter, llvm.FCmpOp(lhs, rhs, "olt" if is_min else "ogt"))
        chosen = _emit(rewriter, llvm.SelectOp(compare, lhs, rhs))
        unordered = _emit(rewriter, llvm.FCmpOp(lhs, rhs, "uno"))
        nan = FloatAttr(float("nan"), element)
        quiet_nan = _emit(rewriter, llvm.ConstantOp(nan, t))
        return _emit(rewriter, llvm.SelectOp(unordered, quiet_nan, chosen))

    return build


def _binary(op_class: Callable[[SSAValue, SSAValue], Operation]) -> ScalarBuilder:
    return lambda rewriter, args: _emit(rewriter, op_class(args[0], args[1]))


def _negate_integer(rewriter: PatternRewriter, args: list[SSAValue]) -> SSAValue:
    t = args[0].type
    assert isinstance(t, IntegerType)
    zero = _emit(rewriter, llvm.ConstantOp(IntegerAttr(0, t), t))
    return _emit(rewriter, llvm.SubOp(zero, args[0]))


_E = gpu.MMAElementwiseOp
FLOAT_OPS: dict[gpu.MMAElementwiseOp, ScalarBuilder] = {
    _E.ADDF: _binary(llvm.FAddOp),
    _E.MULF: _binary(llvm.FMulOp),
    _E.SUBF: _binary(llvm.FSubOp),
    _E.DIVF: _binary(llvm.FDivOp),
    _E.MAXF: _min_max(is_min=False),
    _E.MINF: _min_max(is_min=True),
    _E.NEGATEF: lambda rewriter, args: _emit(rewriter, llvm.FNegOp(args[0])),
}
INTEGER_OPS: dict[gpu.MMAElementwiseOp, ScalarBuilder] = {
    _E.ADDI: _binary(llvm.AddOp),
    _E.MULI: _binary(llvm.MulOp),
    _E.SUBI: _binary(llvm.SubOp),
    _E.DIVS: _binary(llvm.SDivOp),
    _E.DIVU: _binary(llvm.UDivOp),
    _E.NEGATES: _negate_integer,
}


def _one_element_per_register(t: MMAMatrixType) -> bool:
    """Whether an op on each register is the op on each element: not for the
    packed 8-bit and tf32 input fragments."""
    return wmma_element_type(t) not in (MMATypes.S8, MMATypes.U8, MMATypes.TF32)


class ElementwiseLowering(_WMMAPattern):
    acts_on = (gpu.SubgroupMmaElementwiseOp,)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, gpu.SubgroupMmaElementwiseOp):
            return
        kind = gpu.MMAElementwiseOp(op.opType.data)
        result_type = op.res.type
        assert isinstance(result_type, MMAMatrixType)
        for value in (*op.args, op.res):
            _matrix(op, value)
            assert isinstance(value.type, MMAMatrixType)
            if not _one_element_per_register(value.type):
                raise legalize_error(
                    op,
                    f"the registers of {value.type} pack several elements; elementwise "
                    "ops work on f16, f32, f64 and i32 fragments",
                )
        args = _operands(self.lowering, op, rewriter)
        if kind == _E.EXTF:
            self._extend(op, args[0], rewriter)
            return
        is_float = not isinstance(result_type.element_type, IntegerType)
        table = FLOAT_OPS if is_float else INTEGER_OPS
        if kind not in table or any(a.type != args[0].type for a in args):
            raise legalize_error(
                op,
                f"'{kind.value}' on {', '.join(str(a.type) for a in op.args)}: no "
                "lowering (floating-point ops take float fragments, integer ops i32 "
                "ones, all of one type)",
            )
        struct = args[0].type
        assert isinstance(struct, llvm.LLVMStructType)
        result = _emit(rewriter, llvm.PoisonOp(struct))
        for i in range(len(struct.types.data)):
            fields = [_emit(rewriter, extract(a, i)) for a in args]
            value = table[kind](rewriter, fields)
            result = _emit(rewriter, insert(result, value, i))
        replace_op(op, [], [result], rewriter)

    def _extend(
        self,
        op: gpu.SubgroupMmaElementwiseOp,
        source: SSAValue,
        rewriter: PatternRewriter,
    ) -> None:
        """``extf``: each f16 of the source fragment, in order, becomes the f32 in the
        same place of the result fragment."""
        (arg,) = op.args
        source_type, result_type = arg.type, op.res.type
        assert isinstance(source_type, MMAMatrixType)
        assert isinstance(result_type, MMAMatrixType)
        target = mma_matrix_llvm_type(result_type)
        if (
            wmma_element_type(source_type) != MMATypes.F16
            or wmma_element_type(result_type) != MMATypes.F32
            or source_type.get_shape() != result_type.get_shape()
            or source_type.operand.data != "COp"
            or result_type.operand.data != "COp"
            or not isinstance(target, llvm.LLVMStructType)
        ):
            raise legalize_error(
                op,
                "'extf' lowers from an f16 to an f32 C fragment of the same shape",
            )
        wide = VectorType(f32, [2])
        elements: list[SSAValue] = []
        for pair in _registers(rewriter, source):
            extended = _emit(rewriter, llvm.FPExtOp(pair, wide))
            for lane in range(2):
                position = i32_constant(rewriter, lane)
                elements.append(
                    _emit(rewriter, llvm.ExtractElementOp(extended, position))
                )
        result = _emit(rewriter, llvm.PoisonOp(target))
        for i, element in enumerate(elements):
            result = _emit(rewriter, insert(result, element, i))
        replace_op(op, [], [result], rewriter)


def wmma_patterns(lowering: NVVMLowering) -> list[RewritePattern]:
    """The lowerings of the five ``gpu.subgroup_mma_*`` ops."""
    return [
        LoadMatrixLowering(lowering),
        StoreMatrixLowering(lowering),
        ComputeLowering(lowering),
        ConstantMatrixLowering(lowering),
        ElementwiseLowering(lowering),
    ]


__all__ = [
    "GEOMETRIES",
    "WMMATypeConverter",
    "mma_matrix_llvm_type",
    "wmma_element_type",
    "wmma_geometry",
    "wmma_patterns",
]
