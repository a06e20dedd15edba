"""Warpgroup matrix multiply (sm_90a): ``nvvm.wgmma.fence.aligned``,
``nvvm.wgmma.commit.group.sync.aligned``, ``nvvm.wgmma.wait.group.sync.aligned`` and
``nvvm.wgmma.mma_async``.

Printed forms (MLIR 22)::

    nvvm.wgmma.fence.aligned
    %d = nvvm.wgmma.mma_async %descA, %descB, %c, <m = 64, n = 8, k = 16>,
        D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
        : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 1

``mma_async`` multiplies the shared-memory matrices of the 64-bit descriptors A
(``m x k``) and B (``k x n``) into the accumulator registers ``inouts`` (``D[...]``:
its type, whether D is added (``one``) or not (``zero``), and integer saturation);
A and B can be negated (``neg``, floating point) and transposed (``col`` A, ``row``
B; f16 and bf16 only). Upstream lowers it through its PTX builder: the LLVM IR is the
inline ``wgmma.mma_async`` that ``convert-nvvm-to-llvm`` writes, with the accumulator
registers tied to the results (:mod:`.ptx_builder`). The three others are intrinsics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    VectorType,
    f16,
    i64,
)
from xdsl.dialects.llvm import LLVMStructType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_gpu.gpu_dialect.nvvm.attributes import AngleBracketSyntax
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
from xdsl_gpu.gpu_dialect.nvvm.sm import RequiresSM

WGMMA_M = 64
"""Every wgmma instruction computes 64 rows."""

_SM_90A = RequiresSM(90, arch_accelerated=True)
"""MLIR 22 gives the fence, commit and wait ops (not ``mma_async``) this requirement."""


class WGMMATypes(StrEnum):
    F16 = "f16"
    TF32 = "tf32"
    U8 = "u8"
    S8 = "s8"
    B1 = "b1"
    BF16 = "bf16"
    E4M3 = "e4m3"
    E5M2 = "e5m2"
    F32 = "f32"
    S32 = "s32"


class WGMMAScaleIn(StrEnum):
    ONE = "one"
    NEG = "neg"


class WGMMAScaleOut(StrEnum):
    ZERO = "zero"
    ONE = "one"


@irdl_attr_definition
class WGMMATypesAttr(AngleBracketSyntax, EnumAttribute[WGMMATypes]):
    """``#nvvm.wgmma_type<f16>``: an element type of a wgmma operand."""

    name = "nvvm.wgmma_type"


@irdl_attr_definition
class WGMMAScaleInAttr(AngleBracketSyntax, EnumAttribute[WGMMAScaleIn]):
    """``#nvvm.wgmma_scale_in<one|neg>``: A or B as it is, or negated."""

    name = "nvvm.wgmma_scale_in"


@irdl_attr_definition
class WGMMAScaleOutAttr(AngleBracketSyntax, EnumAttribute[WGMMAScaleOut]):
    """``#nvvm.wgmma_scale_out<zero|one>``: whether D is added to the product."""

    name = "nvvm.wgmma_scale_out"


_FLOAT8 = (WGMMATypes.E4M3, WGMMATypes.E5M2)
_INT8 = (WGMMATypes.S8, WGMMATypes.U8)
_K_OF_TYPE: dict[WGMMATypes, int] = {
    WGMMATypes.F16: 16,
    WGMMATypes.BF16: 16,
    WGMMATypes.TF32: 8,
    WGMMATypes.E4M3: 32,
    WGMMATypes.E5M2: 32,
    WGMMATypes.S8: 32,
    WGMMATypes.U8: 32,
    WGMMATypes.B1: 256,
}
_N_FLOAT = tuple(range(8, 257, 8))
_N_INT = (8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224)
_N_INT += (240, 256)


def _types_allowed(d: WGMMATypes, a: WGMMATypes, b: WGMMATypes) -> bool:
    """The type combinations of PTX's ``wgmma.mma_async``."""
    if a in (WGMMATypes.F16, WGMMATypes.BF16, WGMMATypes.TF32):
        if a != b:
            return False
        if a == WGMMATypes.F16:
            return d in (WGMMATypes.F16, WGMMATypes.F32)
        return d == WGMMATypes.F32
    if a in _FLOAT8 and b in _FLOAT8:
        return d in (WGMMATypes.F16, WGMMATypes.F32)
    if a in _INT8 and b in _INT8:
        return d == WGMMATypes.S32
    if a == WGMMATypes.B1 and b == WGMMATypes.B1:
        return d == WGMMATypes.S32
    return False


def _is_transposable(t: WGMMATypes) -> bool:
    return t in (WGMMATypes.F16, WGMMATypes.BF16)


@irdl_op_definition
class WgmmaFenceAlignedOp(IRDLOperation):
    """``nvvm.wgmma.fence.aligned``: order register (and shared memory) accesses
    before the following ``wgmma.mma_async``."""

    name = "nvvm.wgmma.fence.aligned"
    traits = traits_def(_SM_90A)

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()

    def llvm_ir(self, emitter: Any) -> None:
        emitter.call_intrinsic("llvm.nvvm.wgmma.fence.sync.aligned", None, [])


@irdl_op_definition
class WgmmaGroupSyncAlignedOp(IRDLOperation):
    """``nvvm.wgmma.commit.group.sync.aligned``: close the current wgmma-group."""

    name = "nvvm.wgmma.commit.group.sync.aligned"
    traits = traits_def(_SM_90A)

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()

    def llvm_ir(self, emitter: Any) -> None:
        emitter.call_intrinsic("llvm.nvvm.wgmma.commit_group.sync.aligned", None, [])


@irdl_op_definition
class WgmmaWaitGroupSyncOp(IRDLOperation):
    """``nvvm.wgmma.wait.group.sync.aligned N``: wait until at most ``N``
    wgmma-groups are pending."""

    name = "nvvm.wgmma.wait.group.sync.aligned"
    traits = traits_def(_SM_90A)

    group = prop_def(IntegerAttr[I64])

    assembly_format = "attr-dict $group"

    def __init__(self, group: int):
        super().__init__(properties={"group": IntegerAttr(group, i64)})

    def llvm_ir(self, emitter: Any) -> None:
        emitter.call_intrinsic(
            "llvm.nvvm.wgmma.wait_group.sync.aligned",
            None,
            [("i64", str(self.group.value.data))],
        )


def parse_property_groups(
    parser: Parser,
    groups: Sequence[tuple[str, Sequence[str]]],
    kinds: Mapping[str, type[Attribute]],
) -> dict[str, Attribute]:
    """The ``, D[...], A[...], B[...]`` groups of a wgmma op's custom form: each
    letter, then its properties' parameters in order, separated by commas; a
    group may stop early (D's ``satfinite`` is optional)."""
    properties: dict[str, Attribute] = {}
    for letter, names in groups:
        parser.parse_punctuation(",")
        parser.parse_keyword(letter)
        parser.parse_punctuation("[")
        for i, key in enumerate(names):
            if i and parser.parse_optional_punctuation(",") is None:
                break
            kind = kinds[key]
            properties[key] = kind.new(kind.parse_parameter(parser))  # pyright: ignore
        parser.parse_punctuation("]")
    return properties


def print_property_groups(
    printer: Printer,
    properties: Mapping[str, Attribute],
    groups: Sequence[tuple[str, Sequence[str]]],
) -> None:
    """Print what :func:`parse_property_groups` reads (absent properties left out)."""
    for letter, names in groups:
        shown = [v for v in (properties.get(k) for k in names) if v is not None]
        printer.print_string(f", {letter}[")
        for i, value in enumerate(shown):
            if i:
                printer.print_string(", ")
            value.print_parameter(printer)  # pyright: ignore
        printer.print_string("]")


def accumulator_registers(n: int, type_d: str) -> int:
    """Accumulator registers per thread of an m64nN wgmma: ``n / 2`` (f32, s32),
    ``n / 4`` (f16, two per register)."""
    return n // 4 if type_d == WGMMATypes.F16 else n // 2


@irdl_op_definition
class WgmmaMmaAsyncOp(IRDLOperation):
    """``nvvm.wgmma.mma_async``: ``D = A * B (+ D)`` over a warpgroup (see the
    module docstring)."""

    name = "nvvm.wgmma.mma_async"

    inouts = operand_def(LLVMStructType)
    descriptor_a = operand_def(I64)
    descriptor_b = operand_def(I64)
    res = result_def(LLVMStructType)

    shape = prop_def(MMAShapeAttr)
    type_a = prop_def(WGMMATypesAttr, prop_name="typeA")
    type_b = prop_def(WGMMATypesAttr, prop_name="typeB")
    type_d = prop_def(WGMMATypesAttr, prop_name="typeD")
    scale_d = prop_def(WGMMAScaleOutAttr, prop_name="scaleD")
    scale_a = prop_def(WGMMAScaleInAttr, prop_name="scaleA")
    scale_b = prop_def(WGMMAScaleInAttr, prop_name="scaleB")
    layout_a = prop_def(MMALayoutAttr, prop_name="layoutA")
    layout_b = prop_def(MMALayoutAttr, prop_name="layoutB")
    satfinite = opt_prop_def(MMAIntOverflowAttr)

    _GROUPS: ClassVar[tuple[tuple[str, tuple[str, str, str]], ...]] = (
        ("D", ("typeD", "scaleD", "satfinite")),
        ("A", ("typeA", "scaleA", "layoutA")),
        ("B", ("typeB", "scaleB", "layoutB")),
    )
    _KINDS: ClassVar[dict[str, type[Attribute]]] = {
        "typeD": WGMMATypesAttr,
        "scaleD": WGMMAScaleOutAttr,
        "satfinite": MMAIntOverflowAttr,
        "typeA": WGMMATypesAttr,
        "scaleA": WGMMAScaleInAttr,
        "layoutA": MMALayoutAttr,
        "typeB": WGMMATypesAttr,
        "scaleB": WGMMAScaleInAttr,
        "layoutB": MMALayoutAttr,
    }

    def __init__(
        self,
        result_type: LLVMStructType,
        inouts: SSAValue | Operation,
        descriptor_a: SSAValue | Operation,
        descriptor_b: SSAValue | Operation,
        shape: tuple[int, int, int],
        types: tuple[WGMMATypes, WGMMATypes, WGMMATypes],
        scales: tuple[WGMMAScaleOut, WGMMAScaleIn, WGMMAScaleIn],
        layouts: tuple[MMALayout, MMALayout],
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
            "layoutA": MMALayoutAttr(layouts[0]),
            "layoutB": MMALayoutAttr(layouts[1]),
        }
        if satfinite is not None:
            properties["satfinite"] = MMAIntOverflowAttr(satfinite)
        super().__init__(
            operands=[inouts, descriptor_a, descriptor_b],
            result_types=[result_type],
            properties=properties,
        )

    @classmethod
    def parse(cls, parser: Parser) -> WgmmaMmaAsyncOp:
        desc_a = parser.parse_unresolved_operand()
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
        inouts_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        operands = [
            parser.resolve_operand(inouts, inouts_type),
            parser.resolve_operand(desc_a, i64),
            parser.resolve_operand(desc_b, i64),
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
            (self.descriptor_a, self.descriptor_b, self.inouts), printer.print_operand
        )
        printer.print_string(", ")
        self.shape.print_parameters(printer)
        print_property_groups(printer, self.properties, self._GROUPS)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
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
        if not _types_allowed(d, a, b):
            raise VerifyException(
                f"{prefix}{d.value} += {a.value} * {b.value}, it is not supported."
            )
        if k != _K_OF_TYPE[a]:
            raise VerifyException(
                f"{prefix}shape 'k' must be {_K_OF_TYPE[a]} for input type {a.value}"
            )
        allowed_n = _N_INT if a in (*_INT8, WGMMATypes.B1) else _N_FLOAT
        if n not in allowed_n:
            raise VerifyException(
                f"{prefix}has input type {a.value} n is set to {n}, it is not supported."
            )
        transposed = (
            self.layout_a.data == MMALayout.COL or self.layout_b.data == MMALayout.ROW
        )
        if transposed and not (_is_transposable(a) and _is_transposable(b)):
            raise VerifyException(
                f"{prefix}given layouts layout_a = {self.layout_a.data.value} and "
                f"layout_b = {self.layout_b.data.value} for input types {a.value} and "
                f"{b.value} requires transpose. However, this is only supported for: "
                "f16 and bf16"
            )
        if (
            self.satfinite is not None
            and self.satfinite.data == MMAIntOverflow.SATFINITE
            and d != WGMMATypes.S32
        ):
            raise VerifyException(
                f"{prefix} `satfinite` can be only used with s32 accumulator, however "
                f"the current accumulator is {d.value}"
            )
        count = len(self.res.type.types.data)  # pyright: ignore
        if count != self._register_count():
            raise VerifyException(
                f"{prefix}results {self._register_count()}, however output struct has "
                f"{count} elements"
            )

    # -- LLVM IR ------------------------------------------------------------------------

    def ptx(self) -> str:
        """Upstream's PTX: the accumulator registers (outputs, then tied inputs), the
        two descriptors, the scale-d predicate, then the immediates the types take
        (scale A/B for floating point, transpose A/B for f16 and bf16)."""
        a, b, d = self.types()
        m, n, k = self.shape.m.data, self.shape.n.data, self.shape.k.data
        count = self._register_count()
        integer = d == WGMMATypes.S32
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
        text = (
            f"{{\n.reg .pred p;\nsetp.ne.b32 p, %{first + 2}, 0;\n"
            f"{name} {{{registers}}}, %{first}, %{first + 1}, p"
        )
        index = first + 3
        if not integer:
            text += f", %{index},  %{index + 1}"
            index += 2
            if _is_transposable(a):
                text += f", %{index},  %{index + 1}"
        return text + ";\n}\n"

    def llvm_ir(self, emitter: Any) -> None:
        struct = self.inouts.type
        assert isinstance(struct, LLVMStructType)
        struct_type = emitter.typed(self.inouts).rsplit(" ", 1)[0]
        element_types = [
            "<2 x half>" if e == VectorType(f16, [2]) else _scalar_llvm(e)
            for e in struct.types.data
        ]
        # Upstream lowers this op to inline asm before canonicalize, which folds
        # extractvalue(extractvalue(c)[p])[i] into extractvalue(c)[p, i]: read the
        # registers through the outer container the same way (LLVM's later choices,
        # hence the PTX, follow the form of the IR).
        source, prefix, source_type = self.inouts, "", struct_type
        owner = source.owner
        if isinstance(owner, Operation) and owner.name == "llvm.extractvalue":
            position = owner.properties["position"]
            assert isinstance(position, DenseArrayBase)
            source = owner.operands[0]
            prefix = "".join(f"{p}, " for p in position.get_values())
            source_type = emitter.typed(source).rsplit(" ", 1)[0]
        registers: list[AsmArgument] = []
        for i, element_type in enumerate(element_types):
            name = emitter.fresh()
            emitter.emit(
                f"{name} = extractvalue {source_type} {emitter.ref(source)}, "
                f"{prefix}{i}"
            )
            registers.append(AsmArgument(element_type, name, str(i)))
        integer = self.type_d.data == WGMMATypes.S32
        output = "=r" if integer else "=f"
        args = [
            *registers,
            AsmArgument("i64", emitter.ref(self.descriptor_a), "l"),
            AsmArgument("i64", emitter.ref(self.descriptor_b), "l"),
            immediate_argument(int(self.scale_d.data == WGMMAScaleOut.ONE)),
        ]
        if not integer:
            for scale in (self.scale_a, self.scale_b):
                args.append(
                    immediate_argument(-1 if scale.data == WGMMAScaleIn.NEG else 1)
                )
            if _is_transposable(self.types()[0]):
                args.append(
                    immediate_argument(int(self.layout_a.data == MMALayout.COL))
                )
                args.append(
                    immediate_argument(int(self.layout_b.data == MMALayout.ROW))
                )
        emit_inline_ptx(
            emitter,
            self.ptx(),
            args,
            result=self.res,
            result_type=struct_type,
            output_constraints=[output] * len(registers),
        )


def _scalar_llvm(t: Attribute) -> str:
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    return {"f32": "float", "f16": "half", "f64": "double"}[t.name]


OPERATIONS: tuple[type[Operation], ...] = (
    WgmmaFenceAlignedOp,
    WgmmaGroupSyncAlignedOp,
    WgmmaWaitGroupSyncOp,
    WgmmaMmaAsyncOp,
)

ATTRIBUTES: tuple[type[Attribute], ...] = (
    WGMMATypesAttr,
    WGMMAScaleInAttr,
    WGMMAScaleOutAttr,
)

__all__ = [
    "WGMMAScaleIn",
    "WGMMAScaleInAttr",
    "WGMMAScaleOut",
    "WGMMAScaleOutAttr",
    "WGMMATypes",
    "WGMMATypesAttr",
    "WgmmaFenceAlignedOp",
    "WgmmaGroupSyncAlignedOp",
    "WgmmaMmaAsyncOp",
    "WgmmaWaitGroupSyncOp",
    "accumulator_registers",
    "parse_property_groups",
    "print_property_groups",
]
