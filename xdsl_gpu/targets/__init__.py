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

from xdsl_gpu.targets.registration import register_target_interfaces

__all__ = ["get_all_targets", "register_target_interfaces"]


def _llvmir() -> type[Target]:
    from xdsl_gpu.targets.llvm_ir.target import LLVMIRTarget

    return LLVMIRTarget


def _llvm_offload() -> type[Target]:
    from xdsl_gpu.targets.offloading.target import LLVMOffloadTarget

    return LLVMOffloadTarget


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """Lazy getters for every target, keyed by its ``-t`` name."""
    return {"llvm-offload": _llvm_offload, "llvmir": _llvmir}
