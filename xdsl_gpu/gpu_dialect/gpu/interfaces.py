"""Attribute interfaces of the ``gpu`` dialect, and their external-model registry.

Upstream MLIR decouples the ``gpu`` dialect from the targets that compile for it with
two attribute interfaces:

* :class:`TargetAttrInterface` (``gpu::TargetAttrInterface``): what a target
  attribute such as ``#nvvm.target`` does for ``gpu-module-to-binary``:
  :meth:`~TargetAttrInterface.serialize_to_object` compiles a ``gpu.module`` to bytes,
  :meth:`~TargetAttrInterface.create_object` wraps them into a ``#gpu.object``;
* :class:`OffloadingTranslationAttrInterface`
  (``gpu::OffloadingLLVMTranslationAttrInterface``): what an offloading handler such
  as ``#gpu.select_object`` does in the translation of the host module to LLVM IR:
  :meth:`~OffloadingTranslationAttrInterface.embed_binary` embeds a ``gpu.binary``,
  :meth:`~OffloadingTranslationAttrInterface.launch_kernel` lowers one
  ``gpu.launch_func`` of it.

The attributes live in the dialect layer; the implementations live with the targets
(``xdsl_gpu/targets``) and are attached as *external models*, as upstream's
``registerNVVMTargetInterfaceExternalModels`` does::

    from xdsl_gpu.gpu_dialect.gpu.interfaces import (
        TargetAttrInterface, register_external_model)

    class MyTargetAttrImpl(TargetAttrInterface):
        def serialize_to_object(self, attr, module, options):
            ...  # compile `module` for `attr`; raise UserError on failure
        def create_object(self, attr, module, serialized, options):
            return ObjectAttr(attr, serialized, options.compilation_target)

    register_external_model(MyTargetAttr, TargetAttrInterface, MyTargetAttrImpl())

and looked up with :func:`lookup`. An attribute class may instead implement an
interface in-class, by deriving from it; :func:`lookup` then returns the attribute
itself. Either way the methods take the attribute as their first argument, so callers
write ``lookup(attr, I).method(attr, ...)`` whatever the kind of implementation.

Nothing here imports a pass or a target: ``xdsl_gpu.targets.register_target_interfaces``
registers xdsl-gpu's own models (``#nvvm.target``, ``#gpu.select_object``,
``#xgpu.select_best``), and ``xdsl_gpu.register_dialects`` calls it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from xdsl.ir import Attribute, Operation

if TYPE_CHECKING:
    from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget

__all__ = [
    "AttrInterface",
    "OffloadingTranslationAttrInterface",
    "TargetAttrInterface",
    "TargetOptions",
    "get_external_model",
    "implements",
    "lookup",
    "register_external_model",
    "registered_models",
    "unregister_external_model",
]


class AttrInterface:
    """Base of the attribute interfaces: a subclass is one interface, an instance of
    a subclass of that is one implementation (an external model, or the attribute
    itself when it implements the interface in-class)."""

    INTERFACE_NAME: ClassVar[str] = ""
    """Upstream's C++ name, for messages."""


# ---------------------------------------------------------------------------------
# gpu::TargetAttrInterface
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TargetOptions:
    """``gpu::TargetOptions``: what ``gpu-module-to-binary`` passes to every target.

    ``compilation_target`` is the format asked for (``format=`` of the pass); the
    rest are the pass's other options, which a target may use or ignore.
    """

    compilation_target: CompilationTarget
    """Offload (LLVM bitcode), Assembly (e.g. PTX), Binary (e.g. cubin) or Fatbin."""
    toolkit_path: str = ""
    """``toolkit=``: a toolkit folder (for NVVM: a CUDA toolkit, whose libdevice and
    ``ptxas``/``fatbinary`` are then used)."""
    libraries_to_link: tuple[str, ...] = ()
    """``l=``: more bitcode files to link."""
    cmd_options: str = ""
    """``opts=``: options for the target's assembler, one string as written."""
    elf_section: str = ""
    """``section=``: the ELF section the binary is embedded in (``section`` property)."""


class TargetAttrInterface(AttrInterface):
    """``gpu::TargetAttrInterface``: serialize a ``gpu.module`` for one target.

    Failure: raise a ``UserError`` (``xdsl_gpu.diagnostics``) whose text says what
    to fix, or return None from :meth:`serialize_to_object` (the pass then reports
    upstream's "An error happened while serializing the module.").
    """

    INTERFACE_NAME: ClassVar[str] = "gpu::TargetAttrInterface"

    def serialize_to_object(
        self, attr: Attribute, module: Operation, options: TargetOptions
    ) -> bytes | None:
        """The bytes of ``module`` (a ``gpu.module``) compiled for ``attr`` in the
        format ``options.compilation_target``."""
        raise NotImplementedError

    def serialize_to_objects(
        self,
        requests: Sequence[tuple[Attribute, Operation]],
        options: TargetOptions,
    ) -> list[bytes | Exception | None]:
        """:meth:`serialize_to_object` for several ``(attr, module)`` pairs at once
        (``gpu-module-to-binary`` asks each model once, with all of a program's
        modules): a target may compile them concurrently or reuse earlier results.
        Each request's result, in order, is what :meth:`serialize_to_object` would
        return, or the exception it would raise. The default serializes them one
        after the other."""
        results: list[bytes | Exception | None] = []
        for attr, module in requests:
            try:
                results.append(self.serialize_to_object(attr, module, options))
            except Exception as error:
                results.append(error)
        return results

    def create_object(
        self,
        attr: Attribute,
        module: Operation,
        serialized: bytes,
        options: TargetOptions,
    ) -> Attribute:
        """The ``#gpu.object`` holding ``serialized``, with the target's properties."""
        raise NotImplementedError


# ---------------------------------------------------------------------------------
# gpu::OffloadingLLVMTranslationAttrInterface
# ---------------------------------------------------------------------------------


class OffloadingTranslationAttrInterface(AttrInterface):
    """``gpu::OffloadingLLVMTranslationAttrInterface``: how an offloading handler
    (the attribute between ``gpu.binary @name`` and its objects) turns a binary and
    its launches into host code.

    xdsl-gpu's translation is a rewrite of the host module into llvm-dialect ops
    before it is printed as LLVM IR, so where upstream passes an
    ``llvm::IRBuilderBase`` and the ``LLVM::ModuleTranslation``, ``host_builder`` is
    the translation's builder of the host module (in xdsl-gpu,
    ``xdsl_gpu.targets.offloading.common.HostModuleBuilder``: ``add(op)`` at the top
    of the module, ``declare(runtime_function)``, ``string(name, bytes)``).
    """

    INTERFACE_NAME: ClassVar[str] = "gpu::OffloadingLLVMTranslationAttrInterface"

    def embed_binary(
        self, attr: Attribute, binary_op: Operation, host_builder: Any
    ) -> None:
        """Embed ``binary_op`` (a ``gpu.binary`` whose handler is ``attr``) in the
        host module: its object's bytes, and the code that loads and unloads it."""
        raise NotImplementedError

    def launch_kernel(
        self,
        attr: Attribute,
        launch_func_op: Operation,
        binary_op: Operation,
        host_builder: Any,
    ) -> None:
        """Replace ``launch_func_op`` (a ``gpu.launch_func`` of a kernel of
        ``binary_op``) by the host code that launches the kernel."""
        raise NotImplementedError


# ---------------------------------------------------------------------------------
# The registry of external models
# ---------------------------------------------------------------------------------

_I = TypeVar("_I", bound=AttrInterface)

_MODELS: dict[tuple[type[Attribute], type[AttrInterface]], AttrInterface] = {}


def register_external_model(
    attr_class: type[Attribute], interface: type[_I], impl: _I
) -> None:
    """Attach ``impl`` (an instance of a subclass of ``interface``) to every
    attribute of ``attr_class`` (and of its subclasses), as MLIR's
    ``Attr::attachInterface<Model>(ctx)``. Registering again replaces the model."""
    if not (isinstance(interface, type) and issubclass(interface, AttrInterface)):
        raise TypeError(f"{interface!r} is not an attribute interface")
    if not isinstance(impl, interface):
        raise TypeError(
            f"{type(impl).__name__} does not implement {interface.__name__}: "
            f"derive it from {interface.__name__}"
        )
    _MODELS[(attr_class, interface)] = impl


def unregister_external_model(
    attr_class: type[Attribute], interface: type[AttrInterface]
) -> AttrInterface | None:
    """Detach the model of ``interface`` from ``attr_class``; returns it (or None)."""
    return _MODELS.pop((attr_class, interface), None)


def get_external_model(attr_class: type[Attribute], interface: type[_I]) -> _I | None:
    """The model registered for exactly ``attr_class`` and ``interface``, or None."""
    return cast("_I | None", _MODELS.get((attr_class, interface)))


def lookup(attr: Attribute, interface: type[_I]) -> _I | None:
    """The implementation of ``interface`` for ``attr`` (upstream's
    ``dyn_cast<Interface>(attr)``): the attribute itself when its class derives from
    ``interface``, else the external model registered for its class or the nearest
    base class, else None."""
    if isinstance(attr, interface):
        return attr
    for cls in type(attr).__mro__:
        model = _MODELS.get((cast(type[Attribute], cls), interface))
        if model is not None:
            return cast(_I, model)
    return None


def implements(attr: Attribute, interface: type[AttrInterface]) -> bool:
    """Whether :func:`lookup` finds an implementation."""
    return lookup(attr, interface) is not None


def registered_models() -> Iterator[
    tuple[type[Attribute], type[AttrInterface], AttrInterface]
]:
    """Every registered external model: attribute class, interface, model."""
    for (attr_class, interface), impl in list(_MODELS.items()):
        yield attr_class, interface, impl
