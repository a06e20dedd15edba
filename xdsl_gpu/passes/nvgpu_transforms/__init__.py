"""What MLIR 22's ``transform.nvgpu.*`` ops do
(:mod:`xdsl_gpu.gpu_dialect.transform_nvgpu`), one file per op, and
:class:`NVGPUTransformFunctions`, their implementations for the transform
interpreter (:mod:`xdsl_gpu.passes.transform_interpreter`)."""

from xdsl_gpu.passes.nvgpu_transforms.interpreter import NVGPUTransformFunctions

__all__ = ["NVGPUTransformFunctions"]
