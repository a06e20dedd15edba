"""``gpu-module-to-binary``: every ``gpu.module`` becomes a ``gpu.binary`` with one
``#gpu.object`` per target (upstream's ``ModuleToBinary.cpp``; same options).

The pass knows no target: for each target attribute of a module it asks the
attribute's ``gpu::TargetAttrInterface`` implementation
(``xdsl_gpu/gpu_dialect/gpu/interfaces.py``) to ``serialize_to_object`` and then to
``create_object``. ``#nvvm.target``'s implementation lives in
``xdsl_gpu/targets/nvvm/target_interface.py`` (LLVM IR → PTX → cubin → fatbin, no CUDA
toolkit needed) and is registered by ``xdsl_gpu.register_dialects(ctx)`` /
``xdsl_gpu.targets.register_target_interfaces()``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.diagnostics import UserError, at_op
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget
from xdsl_gpu.gpu_dialect.gpu.interfaces import (
    TargetAttrInterface,
    TargetOptions,
    lookup,
)
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import ModuleOp as GPUModuleOp
from xdsl_gpu.passes.ir_walk import preorder

SERIALIZABLE_TARGETS = ("nvvm.target",)
"""The target attributes xdsl-gpu itself can serialize (when registered)."""

EARLY_STARTS: list[tuple[Callable[[Operation], None], Callable[[], None]]] = []
"""What a target may start before a pipeline lowers the kernels that it will
serialize, as ``(start, stop)``; ``start`` sees the program as it is before the
first step: the NVVM target forks the child that will compile them
(``targets/nvvm/prestarted_compiler.py``), which loads LLVM meanwhile (and
libdevice, for a program with math functions). The targets register them
(``register_target_interfaces``); passes know no target."""


def start_early(program: Operation) -> None:
    """Start what the registered targets start early for ``program`` (a pipeline,
    before its steps)."""
    for start, _ in EARLY_STARTS:
        start(program)


def stop_early() -> None:
    """Stop what :func:`start_early` started and the serialization did not use
    (a pipeline, once its steps are done or failed)."""
    for _, stop in EARLY_STARTS:
        stop()


@dataclass(frozen=True)
class GpuModuleToBinaryPass(ModulePass):
    """Serialize each ``gpu.module`` for each of its targets.

    Options (upstream's): ``format`` (``offloading``/``llvm``, ``assembly``/``isa``,
    ``binary``/``bin``, ``fatbinary``/``fatbin``; default ``fatbin``), ``toolkit`` (a
    toolkit folder; for NVVM a CUDA toolkit: libdevice from there, and
    ``ptxas``/``fatbinary`` instead of nvJitLink/nvFatbin), ``l`` (more bitcode files
    to link), ``opts`` (options for the assembler; NVVM drops ``-32`` like upstream
    routes it to fatbinary), ``section`` (ELF section of the embedded binary). They
    reach the targets as ``TargetOptions``.
    """

    name = "gpu-module-to-binary"

    format: str = "fatbin"
    toolkit: str = ""
    l: tuple[str, ...] = ()  # noqa: E741 (upstream's option name)
    opts: str = ""
    section: str = ""

    def target_options(self) -> TargetOptions:
        """The options every target's serializer gets."""
        try:
            fmt = CompilationTarget.from_option(self.format)
        except UserError as e:
            raise PassFailedException(f"gpu-module-to-binary: {e}") from None
        return TargetOptions(
            compilation_target=fmt,
            toolkit_path=self.toolkit,
            libraries_to_link=tuple(self.l),
            cmd_options=self.opts,
            elf_section=self.section,
        )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = self.target_options()
        modules = [m for m in preorder(op) if isinstance(m, GPUModuleOp)]
        objects = iter(
            serialize_modules([(m, t) for m in modules for t in _targets(m)], options)
        )
        for module in modules:
            binary = BinaryOp(
                module.sym_name,
                [next(objects) for _ in _targets(module)],
                module.offloading_handler,
            )
            Rewriter.replace_op(module, binary)


def serialize_modules(
    requests: list[tuple[GPUModuleOp, Attribute]], options: TargetOptions
) -> list[Attribute]:
    """The ``#gpu.object`` of each ``(module, target)``, in order. Each target's
    model gets all of its requests at once (``serialize_to_objects``: the NVVM
    target compiles them in parallel and through its compile cache); a failure is
    reported at its module, the first one in program order."""
    impls: list[TargetAttrInterface] = []
    for module, target in requests:
        impl = lookup(target, TargetAttrInterface)
        if impl is None:
            raise at_op(PassFailedException(_no_serializer(target)), module)
        impls.append(impl)
    serialized: list[bytes | Exception | None] = [None] * len(requests)
    by_model: dict[int, list[int]] = {}
    for index, impl in enumerate(impls):
        by_model.setdefault(id(impl), []).append(index)
    for indices in by_model.values():
        impl = impls[indices[0]]
        asked = [(requests[i][1], requests[i][0]) for i in indices]
        try:
            results = impl.serialize_to_objects(asked, options)
        except NotImplementedError:
            results = [NotImplementedError() for _ in indices]
        for index, result in zip(indices, results, strict=True):
            serialized[index] = result
    return [
        _create_object(module, target, impl, result, options)
        for (module, target), impl, result in zip(
            requests, impls, serialized, strict=True
        )
    ]


def serialize_module(
    module: GPUModuleOp, target: Attribute, options: TargetOptions
) -> Attribute:
    """The ``#gpu.object`` of ``module`` for ``target``, through the target's
    ``TargetAttrInterface`` (upstream's ``moduleSerializer``)."""
    impl = lookup(target, TargetAttrInterface)
    if impl is None:
        raise at_op(PassFailedException(_no_serializer(target)), module)
    try:
        serialized = impl.serialize_to_object(target, module, options)
    except Exception as error:
        return _create_object(module, target, impl, error, options)
    return _create_object(module, target, impl, serialized, options)


def _create_object(
    module: GPUModuleOp,
    target: Attribute,
    impl: TargetAttrInterface,
    serialized: bytes | Exception | None,
    options: TargetOptions,
) -> Attribute:
    name = module.sym_name.data
    try:
        if isinstance(serialized, Exception):
            raise serialized
        if serialized is None:
            raise at_op(
                PassFailedException(
                    f"'gpu.module' op @{name}: an error happened while serializing "
                    f"the module for {target}"
                ),
                module,
            )
        return impl.create_object(target, module, serialized, options)
    except NotImplementedError:
        raise at_op(PassFailedException(_no_serializer(target)), module) from None
    except UserError as e:
        message = str(e)
        if not message.startswith(f"gpu.module @{name} "):
            message = f"gpu.module @{name}: {message}"
        raise at_op(PassFailedException(message), module) from None


def _no_serializer(target: Attribute) -> str:
    text = f"'gpu.module' op the target attribute {target} has no serializer registered"
    if getattr(target, "name", None) in SERIALIZABLE_TARGETS:
        return (
            f"{text}: register xdsl-gpu's target interfaces first: call "
            "xdsl_gpu.register_dialects(ctx) or "
            "xdsl_gpu.targets.register_target_interfaces() (xdsl-opt does so when "
            "xdsl-gpu is installed)"
        )
    return f"{text}: xdsl-gpu serializes only #nvvm.target"


def _targets(module: GPUModuleOp) -> list[Attribute]:
    targets = list(module.targets.data) if isinstance(module.targets, ArrayAttr) else []
    if not targets:
        raise PassFailedException(
            # Upstream's words first, then which module and the fix.
            f"the module has no target attributes (gpu.module "
            f"@{module.sym_name.data}): run nvvm-attach-target (e.g. -p "
            "'nvvm-attach-target{chip=sm_90}') or write "
            '[#nvvm.target<chip = "sm_90">] on the module'
        )
    return targets
