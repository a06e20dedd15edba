"""``transform-interpreter``: xDSL's transform interpreter with MLIR 22's GPU and
NVGPU pattern extensions.

Upstream: ``mlir/lib/Dialect/Transform/Transforms/InterpreterPass.cpp``; the
descriptors in ``GPUTransformOps.cpp``, ``NVGPUTransformOps.cpp`` and the
``func``/``memref``/``scf``/``vector`` transform extensions (MLIR 22).

The pass runs ``@__transform_main`` (option ``entry-point``) on the module, with
xDSL's implementations of its own transform ops plus these:

* ``transform.apply_conversion_patterns``: for each payload op of the handle, one
  conversion with the patterns of this project's lowering passes that the descriptors
  name (:data:`_CONVERSION_DESCRIPTORS`) and the type converter of the
  ``with type_converter`` region (``memref_to_llvm_type_converter``: ``index_bitwidth``,
  ``use_bare_ptr_call_conv``). Ops that ``legal_ops``/``legal_dialects`` make legal are
  not rewritten (their regions are); afterwards an op that ``illegal_ops``/
  ``illegal_dialects`` names is an error, and without ``partial_conversion`` so is
  every op that is not legal, as in MLIR's dialect conversion.
* ``transform.apply_patterns``: the descriptors' patterns applied greedily to each
  payload op, then CSE with ``apply_cse``.

What a descriptor does differs from upstream where this project's pass does (see
``docs/passes/transform.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.dialects import transform as xdsl_transform
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.printf import PrintfFunctions
from xdsl.interpreters.transform import OperationHandle, TransformFunctions
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.dead_code_elimination import region_dce
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.diagnostics import at_op
from xdsl_gpu.gpu_dialect import transform
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.gpu_dialect.gpu.types import MMAMatrixType
from xdsl_gpu.passes.convert_arith_to_llvm import arith_to_llvm_patterns
from xdsl_gpu.passes.convert_cf_to_llvm import cf_to_llvm_patterns
from xdsl_gpu.passes.convert_func_to_llvm import func_to_llvm_patterns
from xdsl_gpu.passes.convert_index_to_llvm import index_to_llvm_patterns
from xdsl_gpu.passes.convert_math_to_llvm import math_to_llvm_patterns
from xdsl_gpu.passes.cse import eliminate_common_subexpressions
from xdsl_gpu.passes.dialect_presence import dialect_loaded
from xdsl_gpu.passes.finalize_memref_to_llvm import (
    MemRefLoweringOptions,
    memref_to_llvm_patterns,
)
from xdsl_gpu.passes.gpu_eliminate_barriers import eliminate_barriers, erase_dead_ops
from xdsl_gpu.passes.gpu_to_nvvm_patterns import (
    NVVMLowering,
    attribution_patterns,
    func_patterns,
    index_expansion_patterns,
    index_patterns,
    libdevice_patterns,
    printf_patterns,
    shuffle_patterns,
)
from xdsl_gpu.passes.gpu_to_nvvm_patterns.reductions import (
    AllReduceExpansion,
    BarrierLowering,
    ReduxLowering,
)
from xdsl_gpu.passes.gpu_to_nvvm_patterns.wmma import (
    mma_matrix_llvm_type,
    wmma_patterns,
)
from xdsl_gpu.passes.ir_walk import preorder
from xdsl_gpu.passes.llvm_type_converter import (
    NVVM_ADDRESS_SPACES,
    erase_dead_casts,
    rewrite_each,
)
from xdsl_gpu.passes.nvgpu_to_nvvm_patterns import PATTERN_MODULES
from xdsl_gpu.passes.nvgpu_to_nvvm_patterns.common import (
    NVGPULowering,
    NVGPUTypeConverter,
)
from xdsl_gpu.passes.scf_structural_type_conversion import (
    scf_structural_type_patterns,
)
from xdsl_gpu.passes.transform_gpu_map_forall import GPUMappingFunctions

PASS_NAME = "transform-interpreter"


class TransformError(PassFailedException):
    """A transform op that cannot apply to its payload (MLIR's silenceable and
    definite failures alike stop the run, as with ``failures(propagate)``)."""


def _error(op: Operation, message: str) -> TransformError:
    return at_op(TransformError(message), op)  # type: ignore[return-value]


@dataclass(frozen=True)
class TransformTypeConverter(NVGPUTypeConverter):
    """One LLVM type converter for every descriptor of a conversion: the builtin
    types, ``!gpu.mma_matrix`` (``gpu_wmma_to_nvvm``) and the ``nvgpu`` types
    (``nvgpu_to_nvvm``), as the descriptors add their conversions to upstream's one
    ``LLVMTypeConverter``."""

    def convert_type(self, t: Attribute) -> Attribute | None:
        if isinstance(t, MMAMatrixType):
            return mma_matrix_llvm_type(t)
        return super().convert_type(t)


def _symbol_table(op: Operation) -> Operation:
    """The payload op itself if it is a ``gpu.module``/``builtin.module``, else the
    closest one around it (where lowerings declare ``vprintf``, ``__nv_*``...)."""
    current: Operation | None = op
    while current is not None:
        if isinstance(current, kernel_ops.ModuleOp | ModuleOp):
            return current
        current = current.parent_op()
    return op


@dataclass
class _Conversion:
    """What the descriptors of one ``apply_conversion_patterns`` share."""

    converter: TransformTypeConverter
    anchor: Operation
    use_bare_ptr_call_conv: bool

    def nvvm(self) -> NVVMLowering:
        return NVVMLowering(
            self.converter,
            cast(kernel_ops.ModuleOp, self.anchor),
            use_bare_ptr_memref_call_conv=self.use_bare_ptr_call_conv,
            # The descriptor always lowers to redux (MLIR 22 ignores has_redux).
            has_redux=True,
        )

    def memref(self) -> MemRefLoweringOptions:
        return MemRefLoweringOptions(self.converter, pass_name=PASS_NAME)


def _gpu_to_nvvm(c: _Conversion, op: Operation) -> list[RewritePattern]:
    lowering = c.nvvm()
    return [
        *func_patterns(lowering),
        *index_patterns(lowering),
        *shuffle_patterns(lowering),
        BarrierLowering(),
        *printf_patterns(lowering),
        *attribution_patterns(lowering),
        *libdevice_patterns(lowering),
    ]


def _vector_to_llvm(c: _Conversion, op: Operation) -> list[RewritePattern]:
    if not dialect_loaded("vector"):
        return []
    from xdsl_gpu.passes.convert_vector_to_llvm import vector_to_llvm_patterns

    return vector_to_llvm_patterns(c.memref())


def _dialect_to_llvm(c: _Conversion, op: Operation) -> list[RewritePattern]:
    assert isinstance(op, transform.ApplyDialectToLLVMConversionPatternsOp)
    name = op.dialect.data
    if name == "memref":
        return memref_to_llvm_patterns(c.memref(), strict=False)
    if name == "vector":
        return _vector_to_llvm(c, op)
    return _DIALECT_TO_LLVM[name](c)


_DIALECT_TO_LLVM: dict[str, Callable[[_Conversion], list[RewritePattern]]] = {
    "arith": lambda c: arith_to_llvm_patterns(c.converter),
    "cf": lambda c: cf_to_llvm_patterns(c.converter),
    "func": lambda c: func_to_llvm_patterns(c.converter, c.use_bare_ptr_call_conv),
    "index": lambda c: index_to_llvm_patterns(c.converter),
    "math": lambda c: math_to_llvm_patterns(c.converter, approximate_log1p=False),
}
_DIALECTS_TO_LLVM = sorted([*_DIALECT_TO_LLVM, "memref", "vector"])

_CONVERSION_DESCRIPTORS: dict[
    type[Operation], Callable[[_Conversion, Operation], list[RewritePattern]]
] = {
    transform.ApplyGPUToNVVMConversionPatternsOp: _gpu_to_nvvm,
    transform.ApplyGPUWwmaToNVVMConversionPatternsOp: lambda c, op: wmma_patterns(
        c.nvvm()
    ),
    transform.ApplyGPUSubgroupReduceToNVVMConversionPatternsOp: lambda c, op: [
        ReduxLowering(c.nvvm())
    ],
    transform.ApplyNVGPUToNVVMConversionPatternsOp: lambda c, op: [
        p
        for module in PATTERN_MODULES
        for p in module.patterns(NVGPULowering(c.converter))
    ],
    transform.ApplyFuncToLLVMConversionPatternsOp: lambda c, op: func_to_llvm_patterns(
        c.converter, c.use_bare_ptr_call_conv
    ),
    transform.ApplyVectorToLLVMConversionPatternsOp: _vector_to_llvm,
    transform.ApplySCFStructuralConversionPatternsOp: lambda c, op: (
        scf_structural_type_patterns(c.converter)
    ),
    transform.ApplyDialectToLLVMConversionPatternsOp: _dialect_to_llvm,
}
"""Each conversion descriptor's patterns, taken from this project's passes."""

_GPU_ADDRESS_SPACES = (
    transform.ApplyGPUToNVVMConversionPatternsOp,
    transform.ApplyGPUWwmaToNVVMConversionPatternsOp,
    transform.ApplyGPUSubgroupReduceToNVVMConversionPatternsOp,
    transform.ApplyNVGPUToNVVMConversionPatternsOp,
)
"""Descriptors that add ``#gpu.address_space`` → NVVM address spaces to the
converter (upstream's ``populateGpuMemorySpaceAttributeConversions``)."""


# -- legality --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Legality:
    """MLIR's ``ConversionTarget`` as the op's four lists build it: an op's own entry
    wins over its dialect's."""

    legal_ops: frozenset[str]
    illegal_ops: frozenset[str]
    legal_dialects: frozenset[str]
    illegal_dialects: frozenset[str]

    @staticmethod
    def of(op: transform.ApplyConversionPatternsOp) -> _Legality:
        def names(attr: builtin.ArrayAttr[builtin.StringAttr] | None) -> frozenset[str]:
            return (
                frozenset(a.data for a in attr.data)
                if attr is not None
                else frozenset()
            )

        return _Legality(
            names(op.legal_ops),
            names(op.illegal_ops),
            names(op.legal_dialects),
            names(op.illegal_dialects),
        )

    def __call__(self, op: Operation) -> bool | None:
        """True: legal; False: illegal; None: unknown."""
        if op.name in self.legal_ops:
            return True
        if op.name in self.illegal_ops:
            return False
        dialect = op.name.split(".", 1)[0]
        if dialect in self.legal_dialects:
            return True
        if dialect in self.illegal_dialects:
            return False
        return None


def check_conversion_patterns(
    op: transform.ApplyConversionPatternsOp,
) -> Operation | None:
    """What MLIR rejects whatever the payload: descriptors without a type
    converter, a dialect without LLVM patterns. Returns the type converter op."""
    converter_op: Operation | None = None
    if op.default_type_converter_region is not None:
        converter_op = op.default_type_converter_region.block.first_op
    if converter_op is None and op.patterns.block.first_op is not None:
        raise _error(
            op,
            "pattern descriptor does not specify type converter and "
            "apply_conversion_patterns op has no default type converter (add "
            "'with type_converter { "
            "transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter }')",
        )
    for descriptor in op.patterns.ops:
        if (
            isinstance(descriptor, transform.ApplyDialectToLLVMConversionPatternsOp)
            and descriptor.dialect.data not in _DIALECTS_TO_LLVM
        ):
            raise _error(
                descriptor,
                "dialect does not implement ConvertToLLVMPatternInterface or "
                f"extension was not loaded: {descriptor.dialect.data} (xdsl-gpu has "
                f"{', '.join(_DIALECTS_TO_LLVM)})",
            )
    return converter_op


def apply_conversion_patterns(
    op: transform.ApplyConversionPatternsOp, payload: Operation
) -> None:
    """One dialect conversion of ``payload`` as ``op`` describes it."""
    descriptors = list(op.patterns.ops)
    converter_op = check_conversion_patterns(op)
    index_bitwidth, bare = 64, False
    if isinstance(converter_op, transform.MemrefToLLVMTypeConverterOp):
        index_bitwidth = transform.integer(converter_op.index_bitwidth, 64)
        bare = transform.flag(converter_op.use_bare_ptr_call_conv)
    conversions = tuple(
        conversion
        for module in PATTERN_MODULES
        for conversion in getattr(module, "TYPE_CONVERSIONS", ())
    )
    spaces = (
        NVVM_ADDRESS_SPACES
        if any(isinstance(d, _GPU_ADDRESS_SPACES) for d in descriptors)
        else None
    )
    conversion = _Conversion(
        TransformTypeConverter(index_bitwidth, spaces, conversions),
        _symbol_table(payload),
        bare,
    )
    # MLIR tries patterns by benefit: the descriptors with a higher one go first.
    ordered = sorted(
        descriptors,
        key=lambda d: -transform.integer(getattr(d, "benefit", None), 1),
    )
    patterns = [
        p for d in ordered for p in _CONVERSION_DESCRIPTORS[type(d)](conversion, d)
    ]
    legality = _Legality.of(op)
    rewrite_each(
        [o for o in preorder(payload)[1:] if legality(o) is not True], payload, patterns
    )
    erase_dead_casts(payload)
    _check_legality(op, payload, legality)


def _check_legality(
    op: transform.ApplyConversionPatternsOp, payload: Operation, legality: _Legality
) -> None:
    partial = op.partial_conversion is not None
    for inner in preorder(payload):
        if isinstance(inner, UnrealizedConversionCastOp):
            continue  # the conversion's own materializations
        legal = legality(inner)
        if legal is False:
            raise _error(
                inner,
                f"failed to legalize operation '{inner.name}' that was explicitly "
                "marked illegal",
            )
        if legal is None and not partial:
            raise _error(
                inner,
                f"failed to legalize operation '{inner.name}' (a full conversion: "
                "add its dialect to legal_dialects, or partial_conversion)",
            )


# -- greedy patterns -------------------------------------------------------------------


def _pattern_descriptor(
    descriptor: Operation, payload: Operation
) -> list[RewritePattern]:
    if isinstance(descriptor, transform.ApplyGPURewritePatternsOp):
        return [AllReduceExpansion(), *index_expansion_patterns()]
    if isinstance(descriptor, transform.ApplyCanonicalizationPatternsOp):
        return [CanonicalizationRewritePattern()]
    if isinstance(descriptor, transform.ApplyGPUEliminateBarriersPatternsOp):
        return []  # not a pattern: an analysis of the whole payload (above)
    if isinstance(descriptor, transform.ApplyUnrollVectorsSubgroupMmaOp):
        from xdsl_gpu.passes.vector_transforms.subgroup_mma_unroll import (
            unroll_vectors_subgroup_mma_patterns,
        )

        return unroll_vectors_subgroup_mma_patterns(
            descriptor.m.value.data, descriptor.n.value.data, descriptor.k.value.data
        )
    raise _error(
        descriptor,
        f"'{descriptor.name}' is parsed but not implemented by xdsl-gpu's "
        "transform interpreter (docs/passes/transform.md lists what is)",
    )


def apply_patterns(
    op: transform.ApplyPatternsOp, payload: Operation, ctx: Context
) -> None:
    if any(
        isinstance(d, transform.ApplyGPUEliminateBarriersPatternsOp)
        for d in op.patterns.ops
    ) and eliminate_barriers(payload):
        erase_dead_ops(payload)
    patterns = [p for d in op.patterns.ops for p in _pattern_descriptor(d, payload)]
    if patterns:
        walker = PatternRewriteWalker(
            GreedyRewritePatternApplier(patterns, ctx=ctx, folding_enabled=True),
            post_walk_func=region_dce,
        )
        for region in payload.regions:
            walker.rewrite_region(region)
    if op.apply_cse is not None:
        eliminate_common_subexpressions(payload)


# -- the interpreter -------------------------------------------------------------------


def _handle(value: object) -> OperationHandle:
    assert isinstance(value, OperationHandle)
    return cast(OperationHandle, value)


@register_impls
class GPUTransformFunctions(InterpreterFunctions):
    """The ops that xdsl-gpu adds to the ``transform`` dialect."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    @impl(transform.ApplyConversionPatternsOp)
    def run_apply_conversion_patterns(
        self,
        interpreter: Interpreter,
        op: transform.ApplyConversionPatternsOp,
        args: PythonValues,
    ) -> PythonValues:
        check_conversion_patterns(op)
        for payload in _handle(args[0]).ops:
            apply_conversion_patterns(op, payload)
        return ()

    @impl(transform.ApplyPatternsOp)
    def run_apply_patterns(
        self,
        interpreter: Interpreter,
        op: transform.ApplyPatternsOp,
        args: PythonValues,
    ) -> PythonValues:
        for payload in _handle(args[0]).ops:
            apply_patterns(op, payload, self.ctx)
        return ()


def _available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """The passes ``transform.apply_registered_pass`` can name: xDSL's, ours, and
    ours in place of xDSL's where both define one."""
    from xdsl.transforms import get_all_passes as xdsl_passes

    from xdsl_gpu.passes import get_all_passes
    from xdsl_gpu.passes.registration import REPLACED_PASSES

    return {**xdsl_passes(), **get_all_passes(), **REPLACED_PASSES}


def _entry_point(root: ModuleOp, name: str) -> xdsl_transform.NamedSequenceOp:
    for op in root.walk():
        if isinstance(op, xdsl_transform.NamedSequenceOp) and op.sym_name.data == name:
            return op
    raise _error(
        root,
        f"could not find a nested named sequence with name: {name} (the script "
        "goes in 'module attributes {transform.with_named_sequence} { "
        f"transform.named_sequence @{name}(%root: !transform.any_op) {{ ... }} }}')",
    )


@dataclass(frozen=True)
class TransformInterpreterPass(ModulePass):
    """Run the transform script ``@entry-point`` on the module (see the module
    docstring).

    Options:
      entry-point: the ``transform.named_sequence`` to run (``__transform_main``).
    """

    name = PASS_NAME

    entry_point: str = "__transform_main"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        schedule = _entry_point(op, self.entry_point)
        interpreter = Interpreter(op)
        interpreter.register_implementations(
            TransformFunctions(ctx, _available_passes())
        )
        interpreter.register_implementations(PrintfFunctions())
        interpreter.register_implementations(GPUTransformFunctions(ctx))
        interpreter.register_implementations(GPUMappingFunctions())
        # Imported here: it uses this module's TransformError.
        from xdsl_gpu.passes.nvgpu_transforms import NVGPUTransformFunctions

        interpreter.register_implementations(NVGPUTransformFunctions())
        interpreter.call_op(schedule, (OperationHandle(op),))


__all__: Sequence[str] = (
    "GPUTransformFunctions",
    "TransformInterpreterPass",
    "apply_conversion_patterns",
    "apply_patterns",
)
