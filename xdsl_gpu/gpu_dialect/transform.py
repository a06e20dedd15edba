"""The ``transform`` dialect: xDSL's ops and the GPU/NVGPU extensions of MLIR 22.

MLIR drives GPU rewrites from transform scripts (``mlir-opt --transform-interpreter``):
``transform.apply_conversion_patterns`` and ``transform.apply_patterns`` hold
*pattern descriptor* ops, each naming a set of patterns (``...gpu.gpu_to_nvvm``,
``...memref.memref_to_llvm_type_converter``). xDSL 0.74's ``transform`` dialect has
neither container nor descriptors; :data:`TRANSFORM` is xDSL's dialect with them
added (by name, as upstream's ``GPUTransformOps.td``, ``NVGPUTransformOps.td``,
``TransformOps.td`` and the ``func``/``memref``/``scf``/``vector`` extensions spell
them). A run with xdsl-gpu's dialects gets it in place of xDSL's
(:mod:`xdsl_gpu.gpu_dialect.registration`). What the descriptors do is in
:mod:`xdsl_gpu.passes.transform_interpreter`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import transform as xdsl_transform
from xdsl.dialects.builtin import (
    I16,
    I64,
    ArrayAttr,
    BoolAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_region_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from xdsl_gpu.gpu_dialect.transform_gpu_map import GPU_MAPPING_OPS
from xdsl_gpu.gpu_dialect.transform_nvgpu import NVGPU_TRANSFORM_OPS

# -- the containers ------------------------------------------------------------------


def _single_block(region: Region) -> Region:
    """MLIR's builder gives an empty ``{}`` region its one block."""
    if not region.blocks:
        region.add_block(Block())
    return region


def _parse_target(parser: Parser) -> UnresolvedOperand:
    parser.parse_characters("to")
    return parser.parse_unresolved_operand()


def _parse_trailer(
    parser: Parser, target: UnresolvedOperand
) -> tuple[SSAValue, dict[str, Attribute]]:
    """``attr-dict : type($target)``, properties read from the dictionary."""
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    return parser.resolve_operand(target, parser.parse_type()), attrs


def _split_properties(
    op_type: type[IRDLOperation], attrs: dict[str, Attribute]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    props = op_type.get_irdl_definition().properties
    return (
        {k: v for k, v in attrs.items() if k in props},
        {k: v for k, v in attrs.items() if k not in props},
    )


def _print_trailer(printer: Printer, op: IRDLOperation, target: SSAValue) -> None:
    # MLIR prints one dictionary, sorted by name.
    printer.print_op_attributes(
        dict(sorted({**op.properties, **op.attributes}.items()))
    )
    printer.print_string(" : ")
    printer.print_attribute(target.type)


@irdl_op_definition
class ApplyConversionPatternsOp(IRDLOperation):
    """``transform.apply_conversion_patterns to %h { descriptors } (with
    type_converter { converter })? {legality} : type``: one dialect conversion per
    payload op of ``%h``."""

    name = "transform.apply_conversion_patterns"

    target = operand_def(xdsl_transform.TransformHandleType)
    legal_ops = opt_prop_def(ArrayAttr[StringAttr])
    illegal_ops = opt_prop_def(ArrayAttr[StringAttr])
    legal_dialects = opt_prop_def(ArrayAttr[StringAttr])
    illegal_dialects = opt_prop_def(ArrayAttr[StringAttr])
    partial_conversion = opt_prop_def(UnitAttr)
    preserve_handles = opt_prop_def(UnitAttr)
    patterns = region_def("single_block")
    default_type_converter_region = opt_region_def("single_block")

    traits = traits_def(NoTerminator())

    def __init__(
        self,
        target: SSAValue,
        patterns: Region,
        type_converter: Region | None = None,
        properties: dict[str, Attribute] | None = None,
    ) -> None:
        super().__init__(
            operands=[target],
            regions=[patterns, type_converter],
            properties=properties or {},
        )

    @classmethod
    def parse(cls, parser: Parser) -> ApplyConversionPatternsOp:
        target = _parse_target(parser)
        patterns = _single_block(parser.parse_region())
        converter: Region | None = None
        if parser.parse_optional_keyword("with") is not None:
            parser.parse_keyword("type_converter")
            converter = _single_block(parser.parse_region())
        value, parsed = _parse_trailer(parser, target)
        props, attrs = _split_properties(cls, parsed)
        op = cls(value, patterns, converter, props)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" to ")
        printer.print_operand(self.target)
        printer.print_string(" ")
        printer.print_region(self.patterns, print_block_terminators=False)
        if self.default_type_converter_region is not None:
            printer.print_string(" with type_converter ")
            printer.print_region(
                self.default_type_converter_region, print_block_terminators=False
            )
        _print_trailer(printer, self, self.target)

    def verify_(self) -> None:
        for op in self.patterns.ops:
            if not isinstance(op, ConversionPatternDescriptor):
                raise VerifyException(
                    f"expected pattern children ops to implement "
                    f"ConversionPatternDescriptorOpInterface, found '{op.name}'"
                )
        region = self.default_type_converter_region
        if region is not None:
            ops = list(region.ops)
            if len(ops) != 1 or not isinstance(ops[0], TypeConverterBuilder):
                raise VerifyException(
                    "expected exactly one op in default type converter region, "
                    "implementing TypeConverterBuilderOpInterface"
                )


@irdl_op_definition
class ApplyPatternsOp(IRDLOperation):
    """``transform.apply_patterns to %h { descriptors } {apply_cse} : type``: the
    descriptors' patterns applied greedily to each payload op of ``%h``."""

    name = "transform.apply_patterns"

    target = operand_def(xdsl_transform.TransformHandleType)
    apply_cse = opt_prop_def(UnitAttr)
    max_iterations = opt_prop_def(IntegerAttr[I64])
    max_num_rewrites = opt_prop_def(IntegerAttr[I64])
    patterns = region_def("single_block")

    traits = traits_def(NoTerminator())

    def __init__(
        self,
        target: SSAValue,
        patterns: Region,
        properties: dict[str, Attribute] | None = None,
    ) -> None:
        super().__init__(
            operands=[target], regions=[patterns], properties=properties or {}
        )

    @classmethod
    def parse(cls, parser: Parser) -> ApplyPatternsOp:
        target = _parse_target(parser)
        patterns = _single_block(parser.parse_region())
        value, parsed = _parse_trailer(parser, target)
        props, attrs = _split_properties(cls, parsed)
        op = cls(value, patterns, props)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" to ")
        printer.print_operand(self.target)
        printer.print_string(" ")
        printer.print_region(self.patterns, print_block_terminators=False)
        _print_trailer(printer, self, self.target)

    def verify_(self) -> None:
        for op in self.patterns.ops:
            if not isinstance(op, PatternDescriptor):
                raise VerifyException(
                    "expected children ops to implement PatternDescriptorOpInterface"
                )


# -- descriptors -----------------------------------------------------------------------


class ConversionPatternDescriptor(IRDLOperation):
    """A child of ``transform.apply_conversion_patterns`` (upstream's
    ``ConversionPatternDescriptorOpInterface``)."""

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def _verify_parent(self, kind: type[Operation], what: str) -> None:
        parent = self.parent_op()
        if parent is not None and not isinstance(parent, kind):
            raise VerifyException(f"expects parent op '{what}'")

    def verify_(self) -> None:
        self._verify_parent(ApplyConversionPatternsOp, ApplyConversionPatternsOp.name)


class TypeConverterBuilder(IRDLOperation):
    """The op of a ``with type_converter`` region (upstream's
    ``TypeConverterBuilderOpInterface``)."""

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"


class PatternDescriptor(IRDLOperation):
    """A child of ``transform.apply_patterns`` (``PatternDescriptorOpInterface``)."""

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"


@irdl_op_definition
class ApplyGPUToNVVMConversionPatternsOp(ConversionPatternDescriptor):
    name = "transform.apply_conversion_patterns.gpu.gpu_to_nvvm"

    benefit = opt_prop_def(IntegerAttr[I16])


@irdl_op_definition
class ApplyGPUWwmaToNVVMConversionPatternsOp(ConversionPatternDescriptor):
    name = "transform.apply_conversion_patterns.gpu.gpu_wmma_to_nvvm"


@irdl_op_definition
class ApplyGPUSubgroupReduceToNVVMConversionPatternsOp(ConversionPatternDescriptor):
    name = "transform.apply_conversion_patterns.gpu.gpu_subgroup_reduce_to_nvvm"


@irdl_op_definition
class ApplyNVGPUToNVVMConversionPatternsOp(ConversionPatternDescriptor):
    name = "transform.apply_conversion_patterns.nvgpu.nvgpu_to_nvvm"


@irdl_op_definition
class ApplyFuncToLLVMConversionPatternsOp(ConversionPatternDescriptor):
    name = "transform.apply_conversion_patterns.func.func_to_llvm"


@irdl_op_definition
class ApplyVectorToLLVMConversionPatternsOp(ConversionPatternDescriptor):
    name = "transform.apply_conversion_patterns.vector.vector_to_llvm"

    reassociate_fp_reductions = opt_prop_def(BoolAttr)
    force_32bit_vector_indices = opt_prop_def(BoolAttr)
    use_vector_alignment = opt_prop_def(BoolAttr)


@irdl_op_definition
class ApplySCFStructuralConversionPatternsOp(ConversionPatternDescriptor):
    name = "transform.apply_conversion_patterns.scf.structural_conversions"


@irdl_op_definition
class ApplyDialectToLLVMConversionPatternsOp(ConversionPatternDescriptor):
    name = "transform.apply_conversion_patterns.dialect_to_llvm"

    # ``Operation.dialect_name`` is taken: the property keeps upstream's name.
    dialect = prop_def(StringAttr, prop_name="dialect_name")

    assembly_format = "$dialect_name attr-dict"


@irdl_op_definition
class MemrefToLLVMTypeConverterOp(TypeConverterBuilder):
    name = "transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter"

    use_aligned_alloc = opt_prop_def(BoolAttr)
    index_bitwidth = opt_prop_def(IntegerAttr[I64])
    use_generic_functions = opt_prop_def(BoolAttr)
    use_bare_ptr_call_conv = opt_prop_def(BoolAttr)
    data_layout = opt_prop_def(StringAttr)


@irdl_op_definition
class ApplyGPURewritePatternsOp(PatternDescriptor):
    name = "transform.apply_patterns.gpu.gpu_rewrite_patterns"


@irdl_op_definition
class ApplyGPUEliminateBarriersPatternsOp(PatternDescriptor):
    name = "transform.apply_patterns.gpu.eliminate_barriers"


@irdl_op_definition
class ApplyUnrollVectorsSubgroupMmaOp(PatternDescriptor):
    name = "transform.apply_patterns.gpu.unroll_vectors_subgroup_mma"

    m = prop_def(IntegerAttr[I64])
    n = prop_def(IntegerAttr[I64])
    k = prop_def(IntegerAttr[I64])

    irdl_options = ()
    assembly_format = "`[` $m `,` $n `,` $k `]` attr-dict"


@irdl_op_definition
class ApplyCanonicalizationPatternsOp(PatternDescriptor):
    name = "transform.apply_patterns.canonicalization"


def flag(value: BoolAttr | None, default: bool = False) -> bool:
    """A ``BoolAttr`` property's value, or its upstream default when absent."""
    return default if value is None else bool(value.value.data)


def integer(value: IntegerAttr | None, default: int) -> int:
    return default if value is None else value.value.data


EXTENSION_OPS: Sequence[type[Operation]] = (
    ApplyConversionPatternsOp,
    ApplyPatternsOp,
    ApplyGPUToNVVMConversionPatternsOp,
    ApplyGPUWwmaToNVVMConversionPatternsOp,
    ApplyGPUSubgroupReduceToNVVMConversionPatternsOp,
    ApplyNVGPUToNVVMConversionPatternsOp,
    ApplyFuncToLLVMConversionPatternsOp,
    ApplyVectorToLLVMConversionPatternsOp,
    ApplySCFStructuralConversionPatternsOp,
    ApplyDialectToLLVMConversionPatternsOp,
    MemrefToLLVMTypeConverterOp,
    ApplyGPURewritePatternsOp,
    ApplyGPUEliminateBarriersPatternsOp,
    ApplyUnrollVectorsSubgroupMmaOp,
    ApplyCanonicalizationPatternsOp,
    *NVGPU_TRANSFORM_OPS,
    *GPU_MAPPING_OPS,
)
"""The ops xdsl-gpu adds to xDSL's ``transform`` dialect."""


TRANSFORM = Dialect(
    "transform",
    [
        *xdsl_transform.Transform.operations,
        *(
            op
            for op in EXTENSION_OPS
            if op.name not in {o.name for o in xdsl_transform.Transform.operations}
        ),
    ],
    [*xdsl_transform.Transform.attributes],
)
"""xDSL's ``transform`` dialect with :data:`EXTENSION_OPS`."""
