"""``#nvvm.target``'s ``gpu::TargetAttrInterface`` model (upstream's
``NVVMTargetAttrImpl`` in mlir/lib/Target/LLVM/NVVM/Target.cpp).

``serialize_to_object`` translates the ``gpu.module`` to LLVM IR
(``xdsl_gpu.targets.llvm_ir``) and compiles it with ``serializer.py`` (LLVM IR →
PTX → cubin → fatbin); ``create_object`` wraps the bytes into a ``#gpu.object`` with
upstream's properties. :func:`register_nvvm_target_interface_external_models` attaches
the model to :class:`NVVMTargetAttr` (``registerNVVMTargetInterfaceExternalModels``);
``xdsl_gpu.targets.register_target_interfaces`` calls it.
"""

from __future__ import annotations

import shlex

from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, StringAttr, i32, i64
from xdsl.ir import Attribute, Operation

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget, ObjectAttr
from xdsl_gpu.gpu_dialect.gpu.interfaces import (
    TargetAttrInterface,
    TargetOptions,
    register_external_model,
)
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import ModuleOp as GPUModuleOp
from xdsl_gpu.gpu_dialect.nvvm.target import NVVMTargetAttr

__all__ = [
    "TIMING_PROPERTIES",
    "NVVMTargetAttrImpl",
    "register_nvvm_target_interface_external_models",
]

TIMING_PROPERTIES = ("ISAToBinaryTimeInMs", "LLVMIRToISATimeInMs")
"""Upstream's compile-time properties: ``serialize_to_object`` records them on the
``gpu.module`` (as upstream does) and ``create_object`` moves them to the object."""


class NVVMTargetAttrImpl(TargetAttrInterface):
    """Serialize ``gpu.module``s for ``#nvvm.target``, without a CUDA toolkit."""

    def serialize_to_object(
        self, attr: Attribute, module: Operation, options: TargetOptions
    ) -> bytes | None:
        # LLVM (llvmlite) loads only when something is compiled, not when the model
        # is registered (which every xdsl-opt run does).
        from xdsl_gpu.targets.llvm_ir import NVPTX_DATA_LAYOUT, convert_module
        from xdsl_gpu.targets.nvvm.serializer import NVVMOptions, serialize

        assert isinstance(attr, NVVMTargetAttr)
        if not isinstance(module, GPUModuleOp):
            raise UserError(
                f"'{module.name}' op cannot be serialized for #nvvm.target: only "
                "gpu.module can"
            )
        name = module.sym_name.data
        _check_lowered(module)
        nvvm_options = NVVMOptions(
            chip=attr.chip,
            features=attr.features,
            opt_level=attr.opt_level,
            triple=attr.triple,
            fast=attr.fast_math,
            ftz=attr.ftz,
            link=(*attr.link_files, *options.libraries_to_link),
            ptxas_options=(
                *attr.ptxas_options,
                *_assembler_options(options.cmd_options),
            ),
            toolkit=options.toolkit_path,
            use_toolkit=bool(options.toolkit_path),
            module_name=name,
        )
        llvm_ir = convert_module(
            module, triple=attr.triple, data_layout=NVPTX_DATA_LAYOUT, module_name=name
        )
        serialized = serialize(llvm_ir, nvvm_options, options.compilation_target)
        for key in TIMING_PROPERTIES:
            if key in serialized.properties:
                module.attributes[key] = IntegerAttr(serialized.properties[key], i64)
        return serialized.data

    def create_object(
        self,
        attr: Attribute,
        module: Operation,
        serialized: bytes,
        options: TargetOptions,
    ) -> Attribute:
        assert isinstance(attr, NVVMTargetAttr)
        fmt = options.compilation_target
        properties: dict[str, Attribute] = {}
        if fmt is CompilationTarget.Assembly:
            properties["O"] = IntegerAttr(attr.opt_level, i32)
        for key in TIMING_PROPERTIES:
            value = module.attributes.get(key)
            if isinstance(value, IntegerAttr):
                properties[key] = IntegerAttr(value.value.data, i64)
        if options.elf_section:
            properties["section"] = StringAttr(options.elf_section)
        return ObjectAttr(
            attr,
            serialized,
            format=fmt,
            properties=DictionaryAttr(properties) if properties else None,
        )


def _check_lowered(module: GPUModuleOp) -> None:
    for op in module.body.walk():
        if not _is_llvm_level(op):
            raise UserError(
                f"gpu.module @{module.sym_name.data} still contains '{op.name}', "
                "which has no LLVM IR form: lower the module with convert-gpu-to-nvvm "
                "(or gpu-lower-to-nvvm-pipeline) first"
            )


def _is_llvm_level(op: Operation) -> bool:
    return (
        op.name.startswith(("llvm.", "nvvm."))
        or op.name == "builtin.unrealized_conversion_cast"
    )


def _assembler_options(opts: str) -> tuple[str, ...]:
    # Upstream passes -32 to fatbinary; nvFatbin builds 64-bit images only.
    return tuple(o for o in shlex.split(opts) if o != "-32")


def register_nvvm_target_interface_external_models() -> None:
    """Attach :class:`NVVMTargetAttrImpl` to ``#nvvm.target``."""
    register_external_model(NVVMTargetAttr, TargetAttrInterface, NVVMTargetAttrImpl())
