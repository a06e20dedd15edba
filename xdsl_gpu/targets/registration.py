"""``register_target_interfaces``: attach xdsl-gpu's external models of the ``gpu``
dialect's interfaces (``xdsl_gpu/gpu_dialect/gpu/interfaces.py``), as upstream's
``registerNVVMTargetInterfaceExternalModels`` and the offloading handlers'
registrations do. Re-exported as ``xdsl_gpu.targets.register_target_interfaces``.
"""

from __future__ import annotations

__all__ = ["register_target_interfaces"]


def register_target_interfaces() -> None:
    """Register every external model of xdsl-gpu's targets: needed before
    ``gpu-module-to-binary`` can serialize ``#nvvm.target`` and before the
    offloading translation can lower ``gpu.binary``. ``xdsl_gpu.register_dialects``
    calls it. Idempotent: a model already registered for an attribute (xdsl-gpu's,
    or one a user attached in its place) is kept."""
    from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import SelectObjectAttr
    from xdsl_gpu.gpu_dialect.gpu.interfaces import (
        OffloadingTranslationAttrInterface,
        TargetAttrInterface,
        get_external_model,
    )
    from xdsl_gpu.gpu_dialect.nvvm.target import NVVMTargetAttr
    from xdsl_gpu.gpu_dialect.xgpu import SelectBestAttr
    from xdsl_gpu.passes.gpu_module_to_binary import EARLY_STARTS
    from xdsl_gpu.targets.nvvm import prestarted_compiler
    from xdsl_gpu.targets.nvvm.target_interface import (
        register_nvvm_target_interface_external_models,
    )
    from xdsl_gpu.targets.offloading.select_best import (
        register_select_best_external_model,
    )
    from xdsl_gpu.targets.offloading.select_object import (
        register_select_object_external_model,
    )

    if get_external_model(NVVMTargetAttr, TargetAttrInterface) is None:
        register_nvvm_target_interface_external_models()
    early = (prestarted_compiler.prestart, prestarted_compiler.discard)
    if early not in EARLY_STARTS:
        EARLY_STARTS.append(early)
    if get_external_model(SelectObjectAttr, OffloadingTranslationAttrInterface) is None:
        register_select_object_external_model()
    if get_external_model(SelectBestAttr, OffloadingTranslationAttrInterface) is None:
        register_select_best_external_model()
