"""``gpu-to-llvm``: the host side of a GPU program to the ``llvm`` dialect.

Upstream: ``mlir/lib/Conversion/GPUCommon/GPUToLLVMConversion.cpp`` (MLIR 22). In one
walk over the host code (everything but ``gpu.module`` and ``gpu.binary``, which are
left alone), it lowers

* the std dialects, with the project's std→LLVM patterns: ``func``, ``arith``, ``cf``,
  ``index``, ``math``, ``memref``, ``vector`` (upstream applies every ConvertToLLVM
  interface); first, as MLIR 22 does, 1-D ``vector`` transfers that are in bounds
  become loads and stores (``gpu_to_llvm_patterns/vector.py``), so that
  ``vector.print`` and 1-D transfers on the host need no convert-vector-to-llvm;
* the host-side gpu ops to ``mgpu*`` runtime calls (``xdsl_gpu/passes/gpu_to_llvm_patterns``):
  ``gpu.wait`` in all forms, ``alloc`` (``host_shared``: managed memory), ``dealloc``,
  ``memcpy``, ``memset`` (16 and 32 bits), ``host_register``/``host_unregister``,
  ``set_default_device``; tokens become streams and events (see
  :mod:`xdsl_gpu.passes.gpu_to_llvm_patterns.streams`);
* ``gpu.launch_func``, which stays, with LLVM-typed operands (each memref as its
  descriptor fields, or as its aligned pointer with bare pointers, followed by its
  size in bytes with ``intersperse-sizes-for-kernels``) and its stream as
  ``<%stream : !llvm.ptr>``; ``xdsl-opt -t llvm-offload`` turns it into
  ``mgpuLaunchKernel``.

Options, as upstream: ``use-bare-pointers-for-host`` (host functions pass static
memrefs as bare pointers; kernel operands then too), ``use-bare-pointers-for-kernels``,
``intersperse-sizes-for-kernels``.

Beyond MLIR 22 (docs/passes/gpu-to-llvm.md): several dependencies on one op (the extra
ones are waited for through events instead of failing to legalize); synchronous
``alloc``/``dealloc``/``memcpy``/``memset`` and synchronous ops with dependencies are
lowered instead of being left behind; a stream that is provably dead is destroyed (the
streams that ``gpu.wait async`` joins leak upstream); every op the pass cannot lower
stops it with a diagnostic at the op (upstream: "failed to legalize", or silence).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import RewritePattern

from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import ModuleOp as GpuModuleOp
from xdsl_gpu.passes.convert_arith_to_llvm import arith_to_llvm_patterns
from xdsl_gpu.passes.convert_cf_to_llvm import cf_to_llvm_patterns
from xdsl_gpu.passes.convert_func_to_llvm import func_to_llvm_patterns
from xdsl_gpu.passes.convert_index_to_llvm import index_to_llvm_patterns
from xdsl_gpu.passes.convert_math_to_llvm import math_to_llvm_patterns
from xdsl_gpu.passes.dialect_presence import dialect_loaded
from xdsl_gpu.passes.finalize_memref_to_llvm import (
    MemRefLoweringOptions,
    memref_to_llvm_patterns,
)
from xdsl_gpu.passes.gpu_to_llvm_patterns.patterns import (
    HostLowering,
    HostTypeConverter,
    gpu_to_llvm_patterns,
)
from xdsl_gpu.passes.gpu_to_llvm_patterns.runtime import PASS_NAME, RuntimeCalls
from xdsl_gpu.passes.gpu_to_llvm_patterns.streams import StreamPlan, Streams
from xdsl_gpu.passes.ir_walk import preorder
from xdsl_gpu.passes.llvm_type_converter import (
    NVVM_ADDRESS_SPACES,
    erase_dead_casts,
    rewrite_each,
)
from xdsl_gpu.passes.reconcile_unrealized_casts import reconcile_unrealized_casts


@dataclass(frozen=True)
class GpuToLLVMPass(ModulePass):
    """Lower the host code of a GPU program to the ``llvm`` dialect (see the module
    docstring).

    Options:
      use-bare-pointers-for-host: static memrefs cross host function boundaries as
        bare pointers (and are passed to kernels as such).
      use-bare-pointers-for-kernels: memref kernel operands are passed as their
        aligned pointer instead of their descriptor fields.
      intersperse-sizes-for-kernels: after each (bare-pointer) memref kernel operand,
        pass its size in bytes as an ``i64``.
    """

    name = "gpu-to-llvm"

    use_bare_pointers_for_host: bool = False
    use_bare_pointers_for_kernels: bool = False
    intersperse_sizes_for_kernels: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        roots = [o for o in op.ops if not isinstance(o, GpuModuleOp | BinaryOp)]
        vector_loaded = dialect_loaded("vector")
        if vector_loaded:
            from xdsl_gpu.passes.gpu_to_llvm_patterns.vector import lower_transfers

            lower_transfers(roots)
        converter = HostTypeConverter(address_spaces=NVVM_ADDRESS_SPACES)
        memref = MemRefLoweringOptions(converter, pass_name=PASS_NAME)
        runtime = RuntimeCalls(op)
        plan = StreamPlan.analyze(o for root in roots for o in preorder(root))
        lowering = HostLowering(
            converter,
            memref,
            runtime,
            Streams(plan, runtime),
            kernel_bare_pointers=self.use_bare_pointers_for_kernels
            or self.use_bare_pointers_for_host,
            intersperse_sizes=self.intersperse_sizes_for_kernels,
        )
        patterns: list[RewritePattern] = [
            *gpu_to_llvm_patterns(lowering),
            *func_to_llvm_patterns(converter, self.use_bare_pointers_for_host),
            *arith_to_llvm_patterns(converter),
            *cf_to_llvm_patterns(converter),
            *index_to_llvm_patterns(converter),
            *math_to_llvm_patterns(converter),
            *memref_to_llvm_patterns(memref),
        ]
        if vector_loaded:  # upstream: the vector dialect's ConvertToLLVM patterns
            from xdsl_gpu.passes.gpu_to_llvm_patterns.vector import (
                host_vector_patterns,
            )

            patterns += host_vector_patterns(memref, op)
        _apply_once(op, roots, patterns)
        for root in op.ops:
            if not isinstance(root, GpuModuleOp | BinaryOp):
                erase_dead_casts(root)
                reconcile_unrealized_casts(root)


def _apply_once(
    module: ModuleOp, roots: Sequence[Operation], patterns: Sequence[RewritePattern]
) -> None:
    """One forward walk over ``roots`` and everything in them (each op is converted
    once, as ``xdsl_gpu.passes.llvm_type_converter.PatternSet`` does, but from the roots
    themselves: a top-level ``func.func`` is converted too)."""
    rewrite_each([o for root in roots for o in preorder(root)], module, patterns)
