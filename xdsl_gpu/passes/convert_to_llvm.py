"""``convert-to-llvm``: every dialect's LLVM lowering in one conversion.

Upstream: ``mlir/lib/Conversion/ConvertToLLVM/ConvertToLLVMPass.cpp`` (MLIR 22), which
gathers the patterns of every loaded dialect that implements
``ConvertToLLVMPatternInterface`` and applies them in one partial conversion, with one
LLVM type converter. Here the dialects with such an interface, and the project's
patterns for each, are

| dialect | patterns |
|---|---|
| ``arith`` | ``convert-arith-to-llvm`` |
| ``cf`` | ``convert-cf-to-llvm`` |
| ``func`` | ``convert-func-to-llvm`` |
| ``index`` | ``convert-index-to-llvm`` |
| ``math`` | ``convert-math-to-llvm`` |
| ``memref`` | ``finalize-memref-to-llvm`` |
| ``nvvm`` | ``convert-nvvm-to-llvm`` |
| ``ub`` | ``ub.poison`` → ``llvm.mlir.poison`` |
| ``vector`` | ``convert-vector-to-llvm`` (without ``vector.print``) |

As upstream, ops of other dialects (``gpu``, ``scf``, ``affine``...) stay, values that
cross between converted and unconverted ops go through
``builtin.unrealized_conversion_cast`` (dead ones are erased, live ones stay for
``reconcile-unrealized-casts``), and ``index`` is ``i64`` (MLIR 22's pass reads no
``dlti.dl_spec`` either).

Options, as MLIR 22:

* ``filter-dialects``: only these dialects' patterns (a name that no dialect has, or
  one without an LLVM lowering, is an error, as upstream's "dialect not loaded");
* ``dynamic``: also the patterns of the conversion attributes of the anchor op. The
  only such attribute here is ``#nvvm.target``, whose patterns are
  ``convert-gpu-to-nvvm``'s: each ``gpu.module`` with an ``#nvvm.target`` is lowered to
  NVVM first (upstream does so when the pass is anchored on that ``gpu.module``:
  ``gpu.module(convert-to-llvm{dynamic=true})``; xdsl-opt runs every pass on the whole
  module, whatever its anchor);
* ``allow-pattern-rollback``: accepted (this conversion never rolls back).

Not here: ``complex`` and the dialects of other targets (``amx``, ``x86vector``,
``openmp``, ``ptr``...), whose ops stay.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import ub
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.passes.convert_arith_to_llvm import arith_to_llvm_patterns
from xdsl_gpu.passes.convert_cf_to_llvm import cf_to_llvm_patterns
from xdsl_gpu.passes.convert_func_to_llvm import func_to_llvm_patterns
from xdsl_gpu.passes.convert_index_to_llvm import index_to_llvm_patterns
from xdsl_gpu.passes.convert_math_to_llvm import math_to_llvm_patterns
from xdsl_gpu.passes.convert_nvvm_to_llvm import nvvm_to_llvm_patterns
from xdsl_gpu.passes.finalize_memref_to_llvm import (
    MemRefLoweringOptions,
    memref_to_llvm_patterns,
)
from xdsl_gpu.passes.ir_walk import preorder
from xdsl_gpu.passes.llvm_type_converter import LLVMTypeConverter, PatternSet
from xdsl_gpu.passes.options import UpstreamOptions

PASS_NAME = "convert-to-llvm"


class UBPoisonLowering(RewritePattern):
    """``ub.poison`` → ``llvm.mlir.poison`` of the converted type."""

    acts_on = (ub.PoisonOp,)

    def __init__(self, converter: LLVMTypeConverter) -> None:
        self.converter = converter

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ub.PoisonOp):
            return
        t = self.converter.convert_type(op.result.type)
        if t is None:
            return
        poison = llvm.PoisonOp(t)
        rewriter.replace(op, poison, [poison.res])


def _vector_patterns(options: MemRefLoweringOptions) -> list[RewritePattern]:
    # Imported here: the vector lowering is large and most programs have no vector.
    from xdsl_gpu.passes.convert_vector_to_llvm import vector_to_llvm_patterns

    return vector_to_llvm_patterns(options)


DIALECTS: dict[str, Callable[[MemRefLoweringOptions], list[RewritePattern]]] = {
    "arith": lambda o: arith_to_llvm_patterns(o.converter),
    "cf": lambda o: cf_to_llvm_patterns(o.converter),
    "func": lambda o: func_to_llvm_patterns(o.converter),
    "index": lambda o: index_to_llvm_patterns(o.converter),
    "math": lambda o: math_to_llvm_patterns(o.converter),
    "memref": lambda o: memref_to_llvm_patterns(o, strict=False),
    "nvvm": lambda o: list(nvvm_to_llvm_patterns()),
    "ub": lambda o: [UBPoisonLowering(o.converter)],
    "vector": _vector_patterns,
}
"""The dialects with an LLVM lowering (upstream: a ``ConvertToLLVMPatternInterface``),
each with its patterns, given the memref lowering options (type converter included)."""


@dataclass(frozen=True)
class ConvertToLLVMPass(UpstreamOptions, ModulePass):
    """Lower every dialect with an LLVM lowering in one conversion (see the module
    docstring).

    Options:
      filter-dialects: only the patterns of these dialects.
      dynamic: also lower each ``gpu.module`` with an ``#nvvm.target`` to NVVM.
      allow-pattern-rollback: accepted, without effect.
    """

    name = PASS_NAME

    filter_dialects: tuple[str, ...] = ()
    dynamic: bool = False
    allow_pattern_rollback: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for dialect in self.filter_dialects:
            if dialect not in DIALECTS:
                raise PassFailedException(
                    f"{self.name}: filter-dialects: dialect not loaded or without an "
                    f"LLVM lowering: {dialect} (those with one: {', '.join(DIALECTS)})"
                )
        if self.dynamic:
            self._lower_nvvm_modules(op)
        # MLIR 22 reads no data layout here: index is i64.
        converter = LLVMTypeConverter.for_pass(self.name, 64)
        options = MemRefLoweringOptions(converter, pass_name=self.name)
        names = self.filter_dialects or tuple(DIALECTS)
        patterns = [p for name in names for p in DIALECTS[name](options)]
        PatternSet(patterns).apply(op)

    @staticmethod
    def _lower_nvvm_modules(op: ModuleOp) -> None:
        """``#nvvm.target``'s conversion attribute: convert-gpu-to-nvvm's patterns."""
        from xdsl_gpu.gpu_dialect.nvvm.target import NVVMTargetAttr
        from xdsl_gpu.passes.convert_gpu_to_nvvm import ConvertGpuToNVVMPass

        lowering = ConvertGpuToNVVMPass()
        for module in [m for m in preorder(op) if isinstance(m, kernel_ops.ModuleOp)]:
            targets = module.targets.data if module.targets is not None else ()
            if any(isinstance(t, NVVMTargetAttr) for t in targets):
                lowering.lower_module(module)
