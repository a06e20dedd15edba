"""``#nvvm.target``'s ``gpu::TargetAttrInterface`` model (upstream's
``NVVMTargetAttrImpl`` in mlir/lib/Target/LLVM/NVVM/Target.cpp).

``serialize_to_object`` translates the ``gpu.module`` to LLVM IR
(``xdsl_gpu.targets.llvm_ir``) and compiles it with ``serializer.py`` (LLVM IR →
PTX → cubin → fatbin); ``create_object`` wraps the bytes into a ``#gpu.object`` with
upstream's properties. :func:`register_nvvm_target_interface_external_models` attaches
the model to :class:`NVVMTargetAttr` (``registerNVVMTargetInterfaceExternalModels``);
``xdsl_gpu.targets.register_target_interfaces`` calls it.

``serialize_to_objects`` (what ``gpu-module-to-binary`` calls, once for all of a
program's modules) translates every module here, takes what it can from the compile
cache (``xdsl_gpu/targets/compile_cache.py``) and compiles the rest in forked
children, several at once (``xdsl_gpu/forked_jobs.py``, ``XDSL_GPU_JOBS``).
The objects are the same bytes whichever way they were made; a cached object keeps
the timing properties of the compile that made it.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, StringAttr, i32, i64
from xdsl.ir import Attribute, Operation

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.forked_jobs import Outcome
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget, ObjectAttr
from xdsl_gpu.gpu_dialect.gpu.interfaces import (
    TargetAttrInterface,
    TargetOptions,
    register_external_model,
)
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import ModuleOp as GPUModuleOp
from xdsl_gpu.gpu_dialect.nvvm.target import NVVMTargetAttr
from xdsl_gpu.targets.nvvm.serializer import (
    NVVMOptions,
    SerializedObject,
    assembler_cuda_version,
    backend_failure,
    serialize,
)

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

    def __init__(self) -> None:
        # The timing properties of each (module, target) of the last
        # serialize_to_objects, for create_object: a module with several targets is
        # compiled for all of them before the first object is created. The ops are
        # kept to check that an id still names the same one.
        self._properties: dict[
            tuple[int, int], tuple[Operation, Attribute, dict[str, int]]
        ] = {}

    def serialize_to_object(
        self, attr: Attribute, module: Operation, options: TargetOptions
    ) -> bytes | None:
        (result,) = self.serialize_to_objects([(attr, module)], options)
        if isinstance(result, Exception):
            raise result
        return result

    def serialize_to_objects(
        self,
        requests: Sequence[tuple[Attribute, Operation]],
        options: TargetOptions,
    ) -> list[bytes | Exception | None]:
        from xdsl_gpu.forked_jobs import default_jobs, run_jobs
        from xdsl_gpu.targets.compile_cache import default_cache
        from xdsl_gpu.targets.nvvm.cache_key import nvvm_cache_key

        fmt = options.compilation_target
        self._properties = {}  # a previous batch's creates are done (or failed)
        results: list[bytes | Exception | None] = []
        prepared: list[tuple[int, str, NVVMOptions, str]] = []
        for index, (attr, module) in enumerate(requests):
            try:
                llvm_ir, nvvm_options = _prepare(attr, module, options)
            except UserError as e:
                results.append(e)
                continue
            results.append(None)
            key = nvvm_cache_key(llvm_ir, nvvm_options, fmt)
            prepared.append((index, llvm_ir, nvvm_options, key))
        cache = default_cache()
        compiled: dict[int, SerializedObject] = {}
        missing: list[tuple[int, str, NVVMOptions, str]] = []
        for item in prepared:
            entry = cache.get(item[3]) if cache is not None else None
            if entry is None:
                missing.append(item)
                continue
            properties = entry.metadata.get("properties", {})
            compiled[item[0]] = SerializedObject(entry.data, fmt, dict(properties))
        outcomes = _compile_early([(ir, o, fmt) for _, ir, o, _ in missing])
        if outcomes is None:
            workers = min(default_jobs(), len(missing))
            if workers > 1:
                _load_toolchain(fmt, [o for _, _, o, _ in missing])
            outcomes = run_jobs(
                [_compile_job(ir, o, fmt) for _, ir, o, _ in missing], workers
            )
        for (index, _, nvvm_options, key), outcome in zip(
            missing, outcomes, strict=True
        ):
            if outcome.died is not None:
                results[index] = backend_failure(nvvm_options, outcome.died)
            elif isinstance(outcome.error, Exception):
                results[index] = outcome.error
            elif isinstance(outcome.value, SerializedObject):
                compiled[index] = outcome.value
                if cache is not None:
                    metadata = {"properties": outcome.value.properties}
                    cache.put(key, outcome.value.data, metadata)
        for index, obj in compiled.items():
            attr, module = requests[index]
            properties = {k: v for k, v in obj.properties.items() if k != "O"}
            self._properties[(id(module), id(attr))] = (module, attr, properties)
            for key in TIMING_PROPERTIES:
                if key in properties:
                    module.attributes[key] = IntegerAttr(properties[key], i64)
            results[index] = obj.data
        return results

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
        entry = self._properties.pop((id(module), id(attr)), None)
        recorded = None
        if entry is not None and entry[0] is module and entry[1] is attr:
            recorded = entry[2]
        for key in TIMING_PROPERTIES:
            if recorded is not None:
                if key in recorded:
                    properties[key] = IntegerAttr(recorded[key], i64)
                continue
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


def _prepare(
    attr: Attribute, module: Operation, options: TargetOptions
) -> tuple[str, NVVMOptions]:
    """The LLVM IR of ``module`` and the options to compile it with (what needs
    the IR; the compile itself does not)."""
    from xdsl_gpu.targets.llvm_ir import NVPTX_DATA_LAYOUT, convert_module

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
    return llvm_ir, nvvm_options


def _compile_early(
    requests: list[tuple[str, NVVMOptions, CompilationTarget]],
) -> list[Outcome[SerializedObject]] | None:
    """The outcomes from the compile child that the pipeline started early
    (``prestarted_compiler.py``), if it did; None: compile them the usual way."""
    from xdsl_gpu.targets.nvvm import prestarted_compiler

    child = prestarted_compiler.take()
    if child is None:
        return None
    if not requests:  # every object came from the cache
        child.cancel()
        return None
    return child.compile(requests)


def _compile_job(
    llvm_ir: str, options: NVVMOptions, fmt: CompilationTarget
) -> Callable[[], SerializedObject]:
    def run() -> SerializedObject:
        # run_jobs already runs this in a child of its own (when it can fork).
        return serialize(llvm_ir, options, fmt, isolate=False)

    return run


def _load_toolchain(fmt: CompilationTarget, options: list[NVVMOptions]) -> None:
    """Load LLVM (and nvJitLink, whose version also picks the PTX ISA) here, once,
    rather than in every child."""
    from xdsl_gpu.targets.nvvm.serializer import _initialize_llvm

    _initialize_llvm()
    if fmt is not CompilationTarget.Offload and not all(o.use_toolkit for o in options):
        assembler_cuda_version()


def _check_lowered(module: GPUModuleOp) -> None:
    for op in module.body.walk():
        if not _is_llvm_level(op):
            raise UserError(
                f"gpu.module @{module.sym_name.data} still contains '{op.name}', "
                "which has no LLVM IR form: lower the module with convert-gpu-to-nvvm "
                "(or gpu-lower-to-nvvm-pipeline) first"
            )


def _is_llvm_level(op: Operation) -> bool:
    """Whether translation to LLVM IR takes ``op``: the llvm and nvvm dialects, and
    any op that writes its own LLVM IR (the ``llvm_ir`` hook the translation calls:
    ``xgpu.wgmma.mma_async.reg_a``)."""
    return (
        op.name.startswith(("llvm.", "nvvm."))
        or op.name == "builtin.unrealized_conversion_cast"
        or callable(getattr(op, "llvm_ir", None))
    )


def _assembler_options(opts: str) -> tuple[str, ...]:
    # Upstream passes -32 to fatbinary; nvFatbin builds 64-bit images only.
    return tuple(o for o in shlex.split(opts) if o != "-32")


def register_nvvm_target_interface_external_models() -> None:
    """Attach :class:`NVVMTargetAttrImpl` to ``#nvvm.target``."""
    register_external_model(NVVMTargetAttr, TargetAttrInterface, NVVMTargetAttrImpl())
