"""The rewrite passes of the GPU flow, registered with xdsl-opt by upstream name."""

from collections.abc import Callable
from importlib import import_module

from xdsl.passes import ModulePass


def _load(module: str, name: str) -> type[ModulePass]:
    return getattr(import_module(f"xdsl_gpu.passes.{module}"), name)


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Lazy getters for every pass, keyed by its upstream MLIR name."""
    return {
        "buffer-deallocation-pipeline": lambda: _load(
            "buffer_deallocation_pipeline", "BufferDeallocationPipelinePass"
        ),
        "convert-arith-to-llvm": lambda: _load(
            "convert_arith_to_llvm", "ConvertArithToLLVMPass"
        ),
        "convert-cf-to-llvm": lambda: _load(
            "convert_cf_to_llvm", "ConvertControlFlowToLLVMPass"
        ),
        "convert-gpu-to-nvvm": lambda: _load(
            "convert_gpu_to_nvvm", "ConvertGpuToNVVMPass"
        ),
        "convert-nvgpu-to-nvvm": lambda: _load(
            "convert_nvgpu_to_nvvm", "ConvertNVGPUToNVVMPass"
        ),
        "convert-nvvm-to-llvm": lambda: _load(
            "convert_nvvm_to_llvm", "ConvertNVVMToLLVMPass"
        ),
        "convert-func-to-llvm": lambda: _load(
            "convert_func_to_llvm", "ConvertFuncToLLVMPass"
        ),
        "convert-index-to-llvm": lambda: _load(
            "convert_index_to_llvm", "ConvertIndexToLLVMPass"
        ),
        "convert-to-llvm": lambda: _load("convert_to_llvm", "ConvertToLLVMPass"),
        "convert-vector-to-llvm": lambda: _load(
            "convert_vector_to_llvm", "ConvertVectorToLLVMPass"
        ),
        "convert-vector-to-scf": lambda: _load(
            "convert_vector_to_scf", "ConvertVectorToSCFPass"
        ),
        "convert-math-to-llvm": lambda: _load(
            "convert_math_to_llvm", "ConvertMathToLLVMPass"
        ),
        "expand-strided-metadata": lambda: _load(
            "expand_strided_metadata", "ExpandStridedMetadataPass"
        ),
        "finalize-memref-to-llvm": lambda: _load(
            "finalize_memref_to_llvm", "FinalizeMemRefToLLVMPass"
        ),
        "gpu-async-region": lambda: _load("gpu_async_region", "GpuAsyncRegionPass"),
        "gpu-eliminate-barriers": lambda: _load(
            "gpu_eliminate_barriers", "GpuEliminateBarriersPass"
        ),
        "gpu-kernel-outlining": lambda: _load(
            "gpu_kernel_outlining", "GpuKernelOutliningPass"
        ),
        "gpu-launch-sink-index-computations": lambda: _load(
            "gpu_launch_sink_index_computations",
            "GpuLaunchSinkIndexComputationsPass",
        ),
        "gpu-lower-to-nvvm-pipeline": lambda: _load(
            "gpu_lower_to_nvvm_pipeline", "GpuLowerToNVVMPipelinePass"
        ),
        "gpu-module-to-binary": lambda: _load(
            "gpu_module_to_binary", "GpuModuleToBinaryPass"
        ),
        "gpu-to-llvm": lambda: _load("gpu_to_llvm", "GpuToLLVMPass"),
        "int-range-optimizations": lambda: _load(
            "int_range_optimizations", "IntRangeOptimizationsPass"
        ),
        "lower-vector-mask": lambda: _load("lower_vector_mask", "LowerVectorMaskPass"),
        "nvgpu-optimize-shared-memory": lambda: _load(
            "nvgpu_optimize_shared_memory", "NVGPUOptimizeSharedMemoryPass"
        ),
        "nvvm-attach-target": lambda: _load(
            "nvvm_attach_target", "NVVMAttachTargetPass"
        ),
        "test-gpu-memory-promotion": lambda: _load(
            "test_gpu_memory_promotion", "TestGpuMemoryPromotionPass"
        ),
        "test-gpu-rewrite": lambda: _load("test_gpu_rewrite", "TestGpuRewritePass"),
        "test-gpu-subgroup-reduce-lowering": lambda: _load(
            "test_gpu_subgroup_reduce_lowering", "TestGpuSubgroupReduceLoweringPass"
        ),
        "test-nvgpu-mmasync-f32-to-tf32-patterns": lambda: _load(
            "test_nvgpu_mmasync_f32_to_tf32_patterns",
            "TestNVGPUMmaSyncF32ToTF32PatternsPass",
        ),
        "xgpu-check-kernel-abi": lambda: _load(
            "xgpu_check_kernel_abi", "XgpuCheckKernelAbiPass"
        ),
        "xgpu-embed-object-files": lambda: _load(
            "xgpu_embed_object_files", "XgpuEmbedObjectFilesPass"
        ),
    }
