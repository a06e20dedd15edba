"""``convert-gpu-to-nvvm``: the ops inside each ``gpu.module`` → ``llvm`` and ``nvvm``.

Upstream: ``mlir/lib/Conversion/GPUToNVVM/LowerGpuOpsToNVVMOps.cpp`` (MLIR 22),
anchored on ``gpu.module``. Here the pass runs on a ``builtin.module`` and lowers every
``gpu.module`` in it; the ``gpu.module`` stays, with its targets and attributes.

For each module, as upstream:

1. every ``func.func`` gets ``llvm.emit_c_interface``;
2. a rewrite before the conversion (upstream's greedy ``populateGpuRewritePatterns``):
   ``all_reduce`` and ``subgroup_reduce`` become shuffles (plus, for ``all_reduce``, a
   workgroup buffer and barriers), ``global_id`` becomes
   ``thread_id + block_id * block_dim``; before it, the constants move to the front of
   their function, once each, and after it ops without uses and effects go (both as
   the greedy driver does; it also folds ops, which this pass does not);
3. one conversion with the gpu → NVVM patterns (:mod:`xdsl_gpu.passes.gpu_to_nvvm_patterns`),
   the libdevice patterns, and the std → LLVM patterns of this project for
   ``arith``, ``cf``, ``func``, ``memref`` and ``index`` (``allowed-dialects`` keeps
   only the named ones, as upstream's list of dialects whose
   ``ConvertToLLVMPatternInterface`` it uses), with ``#gpu.address_space`` mapped to
   NVVM's address spaces (global 1, workgroup 3, private 0).

What cannot be lowered stops the pass with ``failed to legalize operation 'x'``, the
function it is in and the fix: ``gpu`` ops, ``func.func``, ``cf.assert``, and (beyond
upstream, which leaves them in place to fail later) ops of ``arith``/``cf``/``func``/
``memref``/``index``/``math``/``scf``/``affine``/``vector`` that nothing lowered. Ops of
other dialects (``test.*``) are left alone, as upstream's partial conversion does.

Options, as upstream: ``index-bitwidth`` (0: from the module's ``dlti.dl_spec``
``index`` entry, else 64), ``has-redux``, ``use-bare-ptr-memref-call-conv``,
``allow-pattern-rollback`` (accepted; this conversion never rolls back) and
``allowed-dialects``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, UnitAttr
from xdsl.dialects.dlti import DataLayoutSpecAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import RewritePattern
from xdsl.transforms.dead_code_elimination import RemoveUnusedOperations
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.diagnostics import at_op
from xdsl_gpu.gpu_dialect.gpu import kernel_ops
from xdsl_gpu.passes.convert_arith_to_llvm import arith_to_llvm_patterns
from xdsl_gpu.passes.convert_cf_to_llvm import cf_to_llvm_patterns
from xdsl_gpu.passes.convert_func_to_llvm import C_INTERFACE, func_to_llvm_patterns
from xdsl_gpu.passes.convert_index_to_llvm import index_to_llvm_patterns
from xdsl_gpu.passes.convert_math_to_llvm import math_to_llvm_patterns
from xdsl_gpu.passes.dialect_presence import dialect_loaded
from xdsl_gpu.passes.finalize_memref_to_llvm import (
    MemRefLoweringOptions,
    memref_to_llvm_patterns,
)
from xdsl_gpu.passes.gpu_to_nvvm_patterns import (
    PASS_NAME,
    NVVMLowering,
    attribution_patterns,
    expansion_patterns,
    func_patterns,
    index_expansion_patterns,
    index_patterns,
    legalize_error,
    libdevice_patterns,
    printf_patterns,
    reduction_patterns,
    shuffle_patterns,
)
from xdsl_gpu.passes.gpu_to_nvvm_patterns.libdevice import ILLEGAL_INTRINSICS
from xdsl_gpu.passes.gpu_to_nvvm_patterns.wmma import WMMATypeConverter, wmma_patterns
from xdsl_gpu.passes.greedy_constants import unique_constants
from xdsl_gpu.passes.greedy_dispatch import DispatchingApplier, DispatchingWalker
from xdsl_gpu.passes.ir_walk import preorder
from xdsl_gpu.passes.llvm_type_converter import (
    NVVM_ADDRESS_SPACES,
    LLVMTypeConverter,
    PatternSet,
)

STD_DIALECTS = ("arith", "cf", "func", "index", "memref")
"""The dialects whose LLVM patterns the conversion uses (``allowed-dialects``)."""

_HINTS: dict[str, str] = {
    "scf": "run convert-scf-to-cf before convert-gpu-to-nvvm",
    "affine": "run lower-affine before convert-gpu-to-nvvm",
    "vector": "no pattern lowers it inside a gpu.module (nor in MLIR 22): use "
    "vector.load/store for transfers, convert-vector-to-scf for n-D transfers",
    "math": "no libdevice function or LLVM intrinsic computes it",
}


def _index_bitwidth(module: kernel_ops.ModuleOp, option: int) -> int:
    """``index-bitwidth``, or the module's data layout, or 64."""
    if option:
        return option
    spec = module.attributes.get("dlti.dl_spec")
    if isinstance(spec, DataLayoutSpecAttr):
        for key in (IndexType(), "index"):
            try:
                value = spec[key]
            except Exception:
                continue
            if isinstance(value, IntegerAttr):
                return value.value.data
    return 64


@dataclass(frozen=True)
class ConvertGpuToNVVMPass(ModulePass):
    """Lower the ops of every ``gpu.module`` to ``llvm`` and ``nvvm`` (see the module
    docstring).

    Options:
      index-bitwidth: bit width of ``index`` (0: from the data layout, else 64).
      has-redux: lower uniform ``i32`` ``subgroup_reduce`` with ``nvvm.redux.sync``
        (sm_80 and newer).
      use-bare-ptr-memref-call-conv: pass static memrefs as bare pointers.
      allow-pattern-rollback: accepted for upstream compatibility; no effect.
      allowed-dialects: only use the LLVM patterns of these dialects (empty: all).
    """

    name = "convert-gpu-to-nvvm"

    index_bitwidth: int = 0
    has_redux: bool = False
    use_bare_ptr_memref_call_conv: bool = False
    allow_pattern_rollback: bool = True
    allowed_dialects: tuple[str, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        modules = [m for m in preorder(op) if isinstance(m, kernel_ops.ModuleOp)]
        loaded = {d.name for d in ctx.loaded_dialects}
        for unknown in self.allowed_dialects:
            if unknown not in STD_DIALECTS and unknown != "math":
                error = PassFailedException(
                    f"{PASS_NAME}: dialect does not implement "
                    f"ConvertToLLVMPatternInterface: {unknown} (allowed-dialects "
                    f"takes {', '.join(STD_DIALECTS)})"
                )
                # MLIR reports a dialect the program uses at its gpu.module.
                raise (
                    at_op(error, modules[0]) if modules and unknown in loaded else error
                )
        for module in modules:
            self.lower_module(module)

    def _allowed(self, dialect: str) -> bool:
        return not self.allowed_dialects or dialect in self.allowed_dialects

    def lower_module(self, module: kernel_ops.ModuleOp) -> None:
        """Lower one ``gpu.module`` in place."""
        converter = WMMATypeConverter.for_pass(
            PASS_NAME,
            _index_bitwidth(module, self.index_bitwidth),
            NVVM_ADDRESS_SPACES,
        )
        lowering = NVVMLowering(
            converter,
            module,
            use_bare_ptr_memref_call_conv=self.use_bare_ptr_memref_call_conv,
            has_redux=self.has_redux,
        )
        for op in module.body.block.ops:
            if isinstance(op, func.FuncOp):
                op.attributes[C_INTERFACE] = UnitAttr()

        # Upstream's greedy rewrite first hoists and uniques the constants.
        unique_constants(module)
        PatternSet(
            [*expansion_patterns(lowering), *index_expansion_patterns()],
            erase_dead_casts=False,
        ).apply(module)
        # xDSL's dead-code walker, skipping ops with a result in use.
        DispatchingWalker(
            DispatchingApplier([RemoveUnusedOperations()], dce_enabled=False),
            apply_recursively=True,
            walk_reverse=True,
        ).rewrite_region(module.body)

        PatternSet(self._patterns(lowering, converter)).apply(module)
        self._check_legality(module)

    def _patterns(
        self, lowering: NVVMLowering, converter: LLVMTypeConverter
    ) -> list[RewritePattern]:
        patterns: list[RewritePattern] = [
            *func_patterns(lowering),
            *index_patterns(lowering),
            *shuffle_patterns(lowering),
            *reduction_patterns(lowering),
            *printf_patterns(lowering),
            *attribution_patterns(lowering),
            *libdevice_patterns(lowering),
            *wmma_patterns(lowering),
        ]
        if self._allowed("func"):
            patterns += func_to_llvm_patterns(
                converter, self.use_bare_ptr_memref_call_conv
            )
        if self._allowed("arith"):
            patterns += arith_to_llvm_patterns(converter)
        if self._allowed("index"):
            patterns += index_to_llvm_patterns(converter)
        if self._allowed("cf"):
            patterns += cf_to_llvm_patterns(converter)
        if self._allowed("memref"):
            options = MemRefLoweringOptions(converter, pass_name=PASS_NAME)
            patterns += memref_to_llvm_patterns(options)
        # Math ops without a libdevice function: LLVM intrinsics (upstream leaves
        # them to gpu-to-llvm, which lowers them the same way).
        patterns += math_to_llvm_patterns(converter, approximate_log1p=False)
        # The vector dialect's LLVM patterns, which upstream's pass also takes from
        # the dialect's ConvertToLLVMPatternInterface.
        # Imported only when vector ops can exist (passes/dialect_presence.py): no
        # pattern here creates one.
        if dialect_loaded("vector"):
            from xdsl_gpu.passes.convert_vector_to_llvm import vector_to_llvm_patterns

            patterns += vector_to_llvm_patterns(
                MemRefLoweringOptions(converter, pass_name=PASS_NAME)
            )
        return patterns

    def _check_legality(self, module: kernel_ops.ModuleOp) -> None:
        # The reason depends on the op's name, which is its class's.
        reasons: dict[type[Operation], str | None] = {}
        for op in preorder(module):
            if op is module:
                continue
            kind = type(op)
            if kind in reasons:
                reason = reasons[kind]
            else:
                reason = reasons[kind] = self._illegal(op)
            if reason is not None:
                raise legalize_error(op, reason)

    def _illegal(self, op: Operation) -> str | None:
        """Why ``op`` may not remain after the conversion, or ``None``."""
        dialect = op.name.split(".", 1)[0]
        if op.name.startswith("gpu.subgroup_mma_"):
            return (
                "no WMMA lowering exists for it (neither in MLIR 22): per-lane access "
                "to a fragment's elements has no NVVM form"
            )
        if dialect == "gpu":
            return (
                "no lowering to NVVM exists for it (host-side gpu ops belong outside "
                "gpu.module)"
            )
        if op.name in ILLEGAL_INTRINSICS:
            return "NVPTX has no instruction for it (upstream marks it illegal)"
        if op.name in ("func.func", "cf.assert"):
            return "it must be lowered inside a gpu.module"
        if dialect in STD_DIALECTS:
            if not self._allowed(dialect):
                return None  # left in place on purpose (allowed-dialects)
            return "no pattern lowers it with these types"
        if dialect in _HINTS:
            return _HINTS[dialect]
        return None
