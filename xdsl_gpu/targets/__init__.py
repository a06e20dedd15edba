"""Serialization and translation targets (``xdsl-opt -t NAME``), and the
implementations of the ``gpu`` dialect's attribute interfaces.

:func:`register_target_interfaces` attaches xdsl-gpu's external models (upstream's
``registerNVVMTargetInterfaceExternalModels`` and the offloading handlers' models):

* ``#nvvm.target``: ``TargetAttrInterface`` (``nvvm/target_interface.py``);
* ``#gpu.select_object`` and ``#xgpu.select_best``:
  ``OffloadingTranslationAttrInterface`` (``offloading/select_object.py``,
  ``offloading/select_best.py``).
"""

from collections.abc import Callable

from xdsl.utils.target import Target

__all__ = ["get_all_targets", "register_target_interfaces"]


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
    if get_external_model(SelectObjectAttr, OffloadingTranslationAttrInterface) is None:
        register_select_object_external_model()
    if get_external_model(SelectBestAttr, OffloadingTranslationAttrInterface) is None:
        register_select_best_external_model()


def _llvmir() -> type[Target]:
    from xdsl_gpu.targets.llvm_ir.target import LLVMIRTarget

    return LLVMIRTarget


def _llvm_offload() -> type[Target]:
    from xdsl_gpu.targets.offloading.target import LLVMOffloadTarget

    return LLVMOffloadTarget


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """Lazy getters for every target, keyed by its ``-t`` name.

    The ``xdsl.universe`` plugin asks for them when ``xdsl-opt`` starts; that is
    also where the interface models are attached, so that ``gpu-module-to-binary``
    and ``-t llvm-offload`` work in every ``xdsl-opt`` run (cheap: LLVM loads only
    when something is compiled)."""
    register_target_interfaces()
    return {"llvm-offload": _llvm_offload, "llvmir": _llvmir}
