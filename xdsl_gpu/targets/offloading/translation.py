"""The offloading translation of a host module (upstream: the ``gpu`` dialect's
``LLVMTranslationDialectInterface``, which hands ``gpu.binary`` and
``gpu.launch_func`` to the binary's offloading handler).

:func:`lower_offloading` rewrites the host module into llvm-dialect ops: for every
``gpu.launch_func`` and every ``gpu.binary`` it asks the binary's handler (the
attribute between ``gpu.binary @name`` and its objects; ``#gpu.select_object`` when
there is none) for its ``OffloadingTranslationAttrInterface`` implementation and
calls ``launch_kernel`` / ``embed_binary``. It imports no handler: they are external
models, registered by ``xdsl_gpu.targets.register_target_interfaces``.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xdsl.rewriter import Rewriter

from xdsl_gpu.diagnostics import at_op
from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import SelectObjectAttr
from xdsl_gpu.gpu_dialect.gpu.interfaces import (
    OffloadingTranslationAttrInterface,
    lookup,
)
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp, LaunchFuncOp
from xdsl_gpu.targets.offloading.common import (
    LAUNCH_SITE,
    PTR,
    HostModuleBuilder,
    OffloadingError,
    check_embedded,
)

__all__ = ["BUILTIN_HANDLERS", "handler_of", "lower_offloading"]

BUILTIN_HANDLERS = ("gpu.select_object", "xgpu.select_best")
"""The offloading handlers xdsl-gpu implements (when registered)."""


def handler_of(
    binary: BinaryOp,
) -> tuple[Attribute, OffloadingTranslationAttrInterface]:
    """``binary``'s offloading handler and its implementation."""
    handler = binary.offloading_handler
    if handler is None:
        handler = SelectObjectAttr()
    impl = lookup(handler, OffloadingTranslationAttrInterface)
    if impl is None:
        text = (
            f"gpu.binary @{binary.sym_name.data}: offloading handler {handler} is not "
            "supported by this translation"
        )
        if getattr(handler, "name", None) in BUILTIN_HANDLERS:
            raise OffloadingError(
                f"{text}: no OffloadingTranslationAttrInterface model is registered "
                "for it; call xdsl_gpu.register_dialects(ctx) or "
                "xdsl_gpu.targets.register_target_interfaces() first"
            )
        raise OffloadingError(f"{text}; use #gpu.select_object or #xgpu.select_best")
    return handler, impl


def lower_offloading(module: ModuleOp) -> None:
    """Rewrite ``module`` in place: every ``gpu.binary`` embedded, every
    ``gpu.launch_func`` a runtime call, leaving a module of llvm-dialect ops."""
    builder = HostModuleBuilder(module)
    binaries = [op for op in module.ops if isinstance(op, BinaryOp)]
    launches = [op for op in module.walk() if isinstance(op, LaunchFuncOp)]
    if launches and LAUNCH_SITE not in builder.symbols:
        builder.add(llvm.GlobalOp(PTR, LAUNCH_SITE, "external"))
    known = {b.sym_name.data: b for b in binaries}
    for launch in launches:
        container = launch.kernel.root_reference.data
        binary = known.get(container)
        if binary is None:
            raise OffloadingError(
                f"gpu.launch_func refers to @{container}, which is not a gpu.binary; "
                "run gpu-module-to-binary first"
            )
        handler, impl = handler_of(binary)
        impl.launch_kernel(handler, launch, binary, builder)
    for binary in binaries:
        check_embedded(binary)
        handler, impl = handler_of(binary)
        impl.embed_binary(handler, binary, builder)
        Rewriter.erase_op(binary)
    leftover = next((op for op in module.walk() if op.name.startswith("gpu.")), None)
    if leftover is not None:
        raise at_op(
            OffloadingError(
                f"'{leftover.name}' cannot be translated to LLVM IR; "
                + (
                    "serialize it with gpu-module-to-binary first (or run "
                    "gpu-lower-to-nvvm-pipeline)"
                    if leftover.name == "gpu.module"
                    else "lower the host code with gpu-to-llvm first"
                )
            ),
            leftover,
        )
    if "gpu.container_module" in module.attributes:
        del module.attributes["gpu.container_module"]
