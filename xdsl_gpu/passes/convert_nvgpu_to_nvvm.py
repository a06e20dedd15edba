"""``convert-nvgpu-to-nvvm``: ``nvgpu`` ops → ``nvvm`` and ``llvm`` ops.

Upstream: ``mlir/lib/Conversion/NVGPUToNVVM/NVGPUToNVVM.cpp`` (MLIR 22), a partial
conversion of the whole module. As there, memrefs stay memrefs (an op that needs an
address takes it from the descriptor through ``builtin.unrealized_conversion_cast``),
``#gpu.address_space`` maps to NVVM's address spaces (global 1, workgroup 3,
private 0), ``!nvgpu.device.async.token`` becomes a dummy ``i32``, and ``scf``
regions that carry converted types (a token in ``scf.for``'s ``iter_args``) get the
converted types. As the folds of upstream's conversion driver do, a
``gpu.all_reduce``/``gpu.subgroup_reduce`` in the entry block of a ``gpu.launch``
becomes ``uniform``.

The patterns live in :mod:`xdsl_gpu.passes.nvgpu_to_nvvm_patterns`, one module per
family of ops (``ampere``: ``mma.sync``, ``mma.sp.sync``, ``ldmatrix``,
``device_async_*``, ``rcp``). An ``nvgpu`` op that no pattern lowers stops the pass
with a diagnostic at the op. The pass has no options.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import RewritePattern

from xdsl_gpu.gpu_dialect.gpu.compute_ops import MakeGroupOpUniform
from xdsl_gpu.passes.dialect_presence import dialect_loaded
from xdsl_gpu.passes.ir_walk import preorder
from xdsl_gpu.passes.llvm_type_converter import NVVM_ADDRESS_SPACES, PatternSet
from xdsl_gpu.passes.nvgpu_to_nvvm_patterns.common import (
    PASS_NAME,
    NVGPULowering,
    NVGPUTypeConverter,
    lowering_error,
)
from xdsl_gpu.passes.scf_structural_type_conversion import (
    scf_structural_type_patterns,
)


def _families() -> tuple[ModuleType, ...]:
    """The pattern families; none while no ``nvgpu`` op or type can exist (the
    dialect is not imported: ``passes/dialect_presence.py``), since each family
    acts on ``nvgpu`` ops and types only. Their imports, and the dialect's, were
    ~50 ms of every run of the pipeline on a program without them."""
    if not dialect_loaded("nvgpu"):
        return ()
    from xdsl_gpu.passes.nvgpu_to_nvvm_patterns import PATTERN_MODULES

    return PATTERN_MODULES


def type_converter(index_bitwidth: int = 64) -> NVGPUTypeConverter:
    """The pass's LLVM type converter, with every family's ``nvgpu`` types."""
    conversions = tuple(
        conversion
        for module in _families()
        for conversion in getattr(module, "TYPE_CONVERSIONS", ())
    )
    return NVGPUTypeConverter(index_bitwidth, NVVM_ADDRESS_SPACES, conversions)


def nvgpu_to_nvvm_patterns(lowering: NVGPULowering) -> list[RewritePattern]:
    """The patterns of every family of :data:`PATTERN_MODULES`."""
    return [p for module in _families() for p in module.patterns(lowering)]


@dataclass(frozen=True)
class ConvertNVGPUToNVVMPass(ModulePass):
    """Lower ``nvgpu`` ops to ``nvvm`` and ``llvm`` (see the module docstring)."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lowering = NVGPULowering(type_converter())
        PatternSet(
            [
                *nvgpu_to_nvvm_patterns(lowering),
                *scf_structural_type_patterns(lowering.converter),
                # Upstream's conversion driver folds each op it may not leave as
                # it is before trying patterns; the folder of these group ops
                # marks them `uniform` in a gpu.launch's entry block, which is
                # what lets the pipeline lower an all_reduce written without it.
                MakeGroupOpUniform(),
            ]
        ).apply(op)
        if not dialect_loaded("nvgpu"):
            return  # no nvgpu op can exist (passes/dialect_presence.py)
        for inner in preorder(op):
            if inner.name.startswith("nvgpu."):
                raise lowering_error(
                    inner, "has no lowering to NVVM with these operand types"
                )
