"""``xgpu.wgmma.mma_async.reg_a``: a warpgroup MMA whose A operand is in registers.

PTX's ``wgmma.mma_async`` reads A either through a shared-memory descriptor or from
registers (``d, a, b-desc, ...``). MLIR 22's ``nvvm.wgmma.mma_async`` (and upstream
main's, checked against ``NVVMOps.td`` of llvm-project at the time of writing) has
only the descriptor form, yet the register form is what fused attention needs: the
probabilities ``P`` of ``softmax(Q K^T)`` are computed in registers, in the
accumulator layout of the first product, which for 16-bit A is exactly the register
fragment layout of A in ``m64nNk16`` (so ``O += P V`` needs no trip through shared
memory). This op is xdsl-gpu's, hence in the ``xgpu`` dialect::

    %d = xgpu.wgmma.mma_async.reg_a %a, %descB, %c, <m = 64, n = 64, k = 16>,
        D[<f32>, <one>], A[<f16>, <one>], B[<f16>, <one>, <row>]
        : !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>,
          !llvm.struct<(f32, ...)> -> !llvm.struct<(f32, ...)>

Operands: A's four 32-bit registers (an ``!llvm.struct`` of four ``vector<2xf16>``
for f16, ``vector<2xbf16>`` for bf16, ``i32`` for tf32, e4m3, e5m2, s8 and u8), B's
64-bit descriptor, the accumulator; shape, types, scales, layout of B and
``satfinite`` as in ``nvvm.wgmma.mma_async`` (same attributes, same verifier rules).
A has no layout: the register form has no ``imm-trans-a`` (A is row-major, "K-major").
``b1`` is not accepted (its ``.and.popc`` form is not written by the descriptor op
either).

Lowering (the op's LLVM IR hook, and ``convert-nvvm-to-llvm``): inline
``wgmma.mma_async.sync.aligned.m64nNkK.<D>.<A>.<B> {d...}, {a0, a1, a2, a3}, b-desc,
p, [scale-a, scale-b[, trans-b]]`` with the accumulator registers as outputs tied to
the inputs (as for the descriptor form), the A registers as ``r`` inputs (16-bit
pairs bit-cast to ``i32``), ``scale-d`` through a predicate and the immediates the
types take. As for every wgmma, a ``nvvm.wgmma.fence.aligned`` must come between the
instructions that write A's registers (or the accumulator) and the op.
"""

from __future__ import annotations

from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    I64,
    BFloat16Type,
    Float16Type,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.llvm import LLVMStructType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.nvvm.mma_attrs import (
    MMAIntOverflow,
    MMAIntOverflowAttr,
    MMALayout,
    MMALayoutAttr,
    MMAShapeAttr,
)
from xdsl_gpu.gpu_dialect.nvvm.ptx_builder import (
    AsmArgument,
    emit_inline_ptx,
    immediate_argument,
)
from xdsl_gpu.gpu_dialect.nvvm.wgmma_ops import (
    _K_OF_TYPE,  # pyright: ignore[reportPrivateUsage]
    _N_FLOAT,  # pyright: ignore[reportPrivateUsage]
    _N_INT,  # pyright: ignore[reportPrivateUsage]
    WGMMA_M,
    WGMMAScaleIn,
    WGMMAScaleInAttr,
    WGMMAScaleOut,
    WGMMAScaleOutAttr,
    WGMMATypes,
    WGMMATypesAttr,
    _is_transposable,  # pyright: ignore[reportPrivateUsage]
    _scalar_llvm,  # pyright: ignore[reportPrivateUsage]
    _types_allowed,  # pyright: ignore[reportPrivateUsage]
    accumulator_registers,
    parse_property_groups,
    print_property_groups,
)

A_REGISTERS = 4
"""Every register-A fragment is four 32-bit registers (PTX ISA, wgmma register
fragments): eight 16-bit, four tf32 or sixteen 8-bit elements of A per thread."""


def a_register_type(type_a: WGMMATypes) -> Attribute:
    """The type of each of A's four registers for elements of ``type_a``."""
    if type_a == WGMMATypes.F16:
        return VectorType(Float16Type(), [2])
    if type_a == WGMMATypes.BF16:
        return VectorType(BFloat16Type(), [2])
    return i32


@irdl_op_definition
class WgmmaMmaAsyncRegAOp(IRDLOperation):
    """``D = A * B (+ D)`` over a warpgroup with A in registers (module
    docstring)."""

    name = "xgpu.wgmma.mma_async.reg_a"

    a = operand_def(LLVMStructType)
    descriptor_b = operand_def(I64)
    inouts = operand_def(LLVMStructType)
    res = result_def(LLVMStructType)

    shape = prop_def(MMAShapeAttr)
    type_a = prop_def(WGMMATypesAttr, prop_name="typeA")
    type_b = prop_def(WGMMATypesAttr, prop_name="typeB")
    type_d = prop_def(WGMMATypesAttr, prop_name="typeD")
    scale_d = prop_def(WGMMAScaleOutAttr, prop_name="scaleD")
    scale_a = prop_def(WGMMAScaleInAttr, prop_name="scaleA")
    scale_b = prop_def(WGMMAScaleInAttr, prop_name="scaleB")
    layout_b = prop_def(MMALayoutAttr, prop_name="layoutB")
    satfinite = opt_prop_def(MMAIntOverflowAttr)

    _GROUPS: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = (
        ("D", ("typeD", "scaleD", "satfinite")),
        ("A", ("typeA", "scaleA")),
        ("B", ("typeB", "scaleB", "layoutB")),
    )
    _KINDS: ClassVar[dict[str, type[Attribute]]] = {
        "typeD": WGMMATypesAttr,
        "scaleD": WGMMAScaleOutAttr,
        "satfinite": MMAIntOverflowAttr,
        "typeA": WGMMATypesAttr,
        "scaleA": WGMMAScaleInAttr,
        "typeB": WGMMATypesAttr,
        "scaleB": WGMMAScaleInAttr,
        "layoutB": MMALayoutAttr,
    }

    def __init__(
        self,
        result_type: LLVMStructType,
        a: SSAValue | Operation,
        descriptor_b: SSAValue | Operation,
        inouts: SSAValue | Operation,
        shape: tuple[int, int, int],
        types: tuple[WGMMATypes, WGMMATypes, WGMMATypes],
        scales: tuple[WGMMAScaleOut, WGMMAScaleIn, WGMMAScaleIn],
        layout_b: MMALayout,
        satfinite: MMAIntOverflow | None = None,
    ):
        type_d, type_a, type_b = types
        properties: dict[str, Attribute] = {
            "shape": MMAShapeAttr(*shape),
            "typeA": WGMMATypesAttr(type_a),
            "typeB": WGMMATypesAttr(type_b),
            "typeD": WGMMATypesAttr(type_d),
            "scaleD": WGMMAScaleOutAttr(scales[0]),
            "scaleA": WGMMAScaleInAttr(scales[1]),
            "scaleB": WGMMAScaleInAttr(scales[2]),
            "layoutB": MMALayoutAttr(layout_b),
        }
        if satfinite is not None:
            properties["satfinite"] = MMAIntOverflowAttr(satfinite)
        super().__init__(
            operands=[a, descriptor_b, inouts],
            result_types=[result_type],
            properties=properties,
        )

    @classmethod
    def parse(cls, parser: Parser) -> WgmmaMmaAsyncRegAOp:
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        desc_b = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        inouts = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        properties: dict[str, Attribute] = {
            "shape": MMAShapeAttr.new(MMAShapeAttr.parse_parameters(parser)),
            **parse_property_groups(parser, cls._GROUPS, cls._KINDS),
        }
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        a_type = parser.parse_type()
        parser.parse_punctuation(",")
        inouts_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        operands = [
            parser.resolve_operand(a, a_type),
            parser.resolve_operand(desc_b, i64),
            parser.resolve_operand(inouts, inouts_type),
        ]
        return cls.create(
            operands=operands,
            result_types=[result_type],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(
            (self.a, self.descriptor_b, self.inouts), printer.print_operand
        )
        printer.print_string(", ")
        self.shape.print_parameters(printer)
        print_property_groups(printer, self.properties, self._GROUPS)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.a.type)
        printer.print_string(", ")
        printer.print_attribute(self.inouts.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    # -- verification ------------------------------------------------------------------

    def types(self) -> tuple[WGMMATypes, WGMMATypes, WGMMATypes]:
        """The element types of A, B and D."""
        return (
            WGMMATypes(self.type_a.data),
            WGMMATypes(self.type_b.data),
            WGMMATypes(self.type_d.data),
        )

    def _register_count(self) -> int:
        return accumulator_registers(self.shape.n.data, self.type_d.data)

    def verify_(self) -> None:
        prefix = f"'{self.name}' op "
        if self.inouts.type != self.res.type:
            raise VerifyException(
                f"{prefix}failed to verify that input struct and result struct must "
                "be the same type"
            )
        a, b, d = self.types()
        m, n, k = self.shape.m.data, self.shape.n.data, self.shape.k.data
        if m != WGMMA_M:
            raise VerifyException(f"{prefix}shape 'm' must be {WGMMA_M}")
        if a == WGMMATypes.B1:
            raise VerifyException(f"{prefix}A in registers is not supported for b1")
        if not _types_allowed(d, a, b):
            raise VerifyException(
                f"{prefix}{d.value} += {a.value} * {b.value}, it is not supported."
            )
        if k != _K_OF_TYPE[a]:
            raise VerifyException(
                f"{prefix}shape 'k' must be {_K_OF_TYPE[a]} for input type {a.value}"
            )
        allowed_n = _N_INT if a in (WGMMATypes.S8, WGMMATypes.U8) else _N_FLOAT
        if n not in allowed_n:
            raise VerifyException(
                f"{prefix}has input type {a.value} n is set to {n}, it is not supported."
            )
        if self.layout_b.data == MMALayout.ROW and not _is_transposable(b):
            raise VerifyException(
                f"{prefix}layout_b = row for input type {b.value} requires transpose, "
                "which is only supported for f16 and bf16"
            )
        if (
            self.satfinite is not None
            and self.satfinite.data == MMAIntOverflow.SATFINITE
            and d != WGMMATypes.S32
        ):
            raise VerifyException(
                f"{prefix}`satfinite` can be only used with s32 accumulator, however "
                f"the current accumulator is {d.value}"
            )
        expected = a_register_type(a)
        registers = self.a.type.types.data  # pyright: ignore[reportAttributeAccessIssue]
        if len(registers) != A_REGISTERS or any(r != expected for r in registers):
            raise VerifyException(
                f"{prefix}A in registers for input type {a.value} must be "
                f"!llvm.struct of {A_REGISTERS} x {expected}, got {self.a.type}"
            )
        count = len(self.res.type.types.data)  # pyright: ignore
        if count != self._register_count():
            raise VerifyException(
                f"{prefix}results {self._register_count()}, however output struct has "
                f"{count} elements"
            )

    # -- LLVM IR ------------------------------------------------------------------------

    def immediates(self) -> list[int]:
        """The instruction's trailing immediates: ``scale-a, scale-b`` for floating
        point, then ``trans-b`` for f16 and bf16; none for integers."""
        a, _, d = self.types()
        if d == WGMMATypes.S32:
            return []
        values = [
            -1 if scale.data == WGMMAScaleIn.NEG else 1
            for scale in (self.scale_a, self.scale_b)
        ]
        if _is_transposable(a):
            values.append(int(self.layout_b.data == MMALayout.ROW))
        return values

    def ptx(self) -> str:
        """The PTX, numbered as the inline asm's operands: the accumulator outputs
        (and their tied inputs), A's four registers, B's descriptor, the scale-d
        flag, the immediates."""
        a, b, d = self.types()
        m, n, k = self.shape.m.data, self.shape.n.data, self.shape.k.data
        count = self._register_count()
        name = (
            f"wgmma.mma_async.sync.aligned.m{m}n{n}k{k}.{d.value}.{a.value}.{b.value}"
        )
        if (
            self.satfinite is not None
            and self.satfinite.data == MMAIntOverflow.SATFINITE
        ):
            name += ".satfinite"
        registers = ", ".join(f"%{i}" for i in range(count))
        first = 2 * count
        a_regs = ", ".join(f"%{first + i}" for i in range(A_REGISTERS))
        desc, flag = first + A_REGISTERS, first + A_REGISTERS + 1
        text = (
            f"{{\n.reg .pred p;\nsetp.ne.b32 p, %{flag}, 0;\n"
            f"{name} {{{registers}}}, {{{a_regs}}}, %{desc}, p"
        )
        for i in range(len(self.immediates())):
            text += f", %{flag + 1 + i}"
        return text + ";\n}\n"

    def llvm_ir(self, emitter: Any) -> None:
        struct = self.inouts.type
        assert isinstance(struct, LLVMStructType)
        struct_type = emitter.typed(self.inouts).rsplit(" ", 1)[0]
        accumulators: list[AsmArgument] = []
        for i, element in enumerate(struct.types.data):
            llvm_type = (
                "<2 x half>" if element == VectorType(Float16Type(), [2]) else None
            )
            name = emitter.fresh()
            emitter.emit(f"{name} = extractvalue {struct_type} {emitter.ref(self.inouts)}, {i}")  # fmt: skip
            accumulators.append(
                AsmArgument(llvm_type or _scalar_llvm(element), name, str(i))
            )
        a_struct = emitter.typed(self.a).rsplit(" ", 1)[0]
        a_llvm = {WGMMATypes.F16: "<2 x half>", WGMMATypes.BF16: "<2 x bfloat>"}.get(
            self.types()[0]
        )
        registers: list[AsmArgument] = []
        for i in range(A_REGISTERS):
            name = emitter.fresh()
            emitter.emit(f"{name} = extractvalue {a_struct} {emitter.ref(self.a)}, {i}")
            if a_llvm is not None:
                word = emitter.fresh()
                emitter.emit(f"{word} = bitcast {a_llvm} {name} to i32")
                name = word
            registers.append(AsmArgument("i32", name, "r"))
        integer = self.type_d.data == WGMMATypes.S32
        args = [
            *accumulators,
            *registers,
            AsmArgument("i64", emitter.ref(self.descriptor_b), "l"),
            immediate_argument(int(self.scale_d.data == WGMMAScaleOut.ONE)),
            *(immediate_argument(v) for v in self.immediates()),
        ]
        emit_inline_ptx(
            emitter,
            self.ptx(),
            args,
            result=self.res,
            result_type=struct_type,
            output_constraints=["=r" if integer else "=f"] * len(accumulators),
        )


OPERATIONS: tuple[type[Operation], ...] = (WgmmaMmaAsyncRegAOp,)

__all__ = ["A_REGISTERS", "WgmmaMmaAsyncRegAOp", "a_register_type"]
