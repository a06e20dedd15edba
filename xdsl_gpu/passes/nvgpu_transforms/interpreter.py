"""The transform interpreter's implementations of ``transform.nvgpu.*``.

Failures stop the run with MLIR 22's message at the transform op (as with
``failures(propagate)``); a note says which payload op it was about.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.ops import MatmulOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Operation

from xdsl_gpu.diagnostics import at_op, operation_text, source_location
from xdsl_gpu.gpu_dialect import transform_nvgpu as ops
from xdsl_gpu.passes.nvgpu_transforms.create_async_groups import create_async_groups
from xdsl_gpu.passes.nvgpu_transforms.rewrite_matmul_as_mma_sync import (
    has_user_defined_maps,
    mma_sync_shape,
    rewrite_matmul_as_mma_sync,
)
from xdsl_gpu.passes.transform_interpreter import TransformError


def _error(
    op: Operation, message: str, payload: Operation | None = None, note: str = ""
) -> TransformError:
    error = TransformError(message)
    if payload is not None:
        where = source_location(payload.location)
        error.add_note(f"{note} ({where})" if where else note)
    return at_op(error, op)  # type: ignore[return-value]


def _payload(value: object) -> tuple[Operation, ...]:
    assert isinstance(value, OperationHandle)
    return cast(OperationHandle, value).ops


@register_impls
class NVGPUTransformFunctions(InterpreterFunctions):
    """``transform.nvgpu.*`` for xDSL's transform interpreter."""

    @impl(ops.RewriteMatmulAsMmaSyncOp)
    def run_rewrite_matmul_as_mma_sync(
        self,
        interpreter: Interpreter,
        op: ops.RewriteMatmulAsMmaSyncOp,
        args: PythonValues,
    ) -> PythonValues:
        for target in _payload(args[0]):
            if not isinstance(target, LinalgStructuredOperation):
                raise _error(
                    op,
                    "transform applied to the wrong op kind (it takes linalg ops: "
                    "match 'linalg.matmul')",
                    target,
                    f"when applied to this op: '{target.name}'",
                )
            if isinstance(target, MatmulOp) and has_user_defined_maps(target):
                raise _error(
                    op,
                    "only matmul ops with non-extended semantics are supported",
                    target,
                    "target op",
                )
            shape = mma_sync_shape(target) if isinstance(target, MatmulOp) else None
            if shape is None:
                raise _error(
                    op,
                    f"unsupported target op: {operation_text(target)} (supported: "
                    "linalg.matmul on memrefs of 16x16 x 16x8 -> 16x8 f16, or "
                    "16x4 x 4x8 -> 16x8 f32)",
                    target,
                    "target op",
                )
            rewrite_matmul_as_mma_sync(cast(MatmulOp, target), shape)
        return ()

    @impl(ops.CreateAsyncGroupsOp)
    def run_create_async_groups(
        self,
        interpreter: Interpreter,
        op: ops.CreateAsyncGroupsOp,
        args: PythonValues,
    ) -> PythonValues:
        targets = _payload(args[0])
        for target in targets:
            create_async_groups(target, bypass_l1=op.bypass_l1 is not None)
        return (OperationHandle(*targets),)

    @impl(ops.PipelineSharedMemoryCopiesOp)
    def run_pipeline_shared_memory_copies(
        self,
        interpreter: Interpreter,
        op: ops.PipelineSharedMemoryCopiesOp,
        args: PythonValues,
    ) -> PythonValues:
        raise _error(
            op,
            f"'{op.name}' is not supported by xdsl-gpu's transform interpreter (it "
            "has no scf.for software pipeliner): pipeline the copies to shared "
            "memory by hand, or run this step with mlir-opt",
        )


__all__ = ["NVGPUTransformFunctions"]
