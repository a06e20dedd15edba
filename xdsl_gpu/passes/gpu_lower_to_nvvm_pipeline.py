"""``gpu-lower-to-nvvm-pipeline``: upstream's default NVVM compilation pipeline
(``mlir/lib/Dialect/GPU/Pipelines/GPUToNVVMPipeline.cpp``, MLIR 22), the same 23 passes
in the same order with the same options, built from this project's passes.

The sequence (``mlir-opt-22 --dump-pass-pipeline`` prints the same, option for option)::

    convert-nvgpu-to-nvvm, gpu-kernel-outlining, convert-vector-to-scf,
    convert-scf-to-cf, convert-nvvm-to-llvm, convert-func-to-llvm,
    expand-strided-metadata, nvvm-attach-target{O chip features triple
    ptxas-cmd-options}, lower-affine, convert-arith-to-llvm,
    convert-index-to-llvm{index-bitwidth}, canonicalize, cse,
    gpu.module(convert-gpu-to-nvvm{index-bitwidth use-bare-ptr-memref-call-conv
    allow-pattern-rollback}), gpu.module(canonicalize), gpu.module(cse),
    gpu.module(reconcile-unrealized-casts), gpu-to-llvm{use-bare-pointers-for-host
    use-bare-pointers-for-kernels}, gpu-module-to-binary{format}, convert-math-to-llvm,
    canonicalize, cse, reconcile-unrealized-casts

One of them has nothing to do here and runs as a check only (:data:`NO_OP_PASSES`):
``nvvm`` ops are translated to LLVM intrinsics directly by
``xdsl_gpu/targets/llvm_ir``. ``gpu.module(...)``
steps run on each ``gpu.module`` directly inside the top-level module, as upstream's
nested pass manager does.

Defaults that differ from upstream's (which fail with CUDA 13: ``ptxas`` rejects
``sm_50``, and ``+ptx60`` cannot target ``sm_75`` or newer): ``cubin-chip`` is the
chip of the GPU found on this machine (device 0), ``sm_75`` (the oldest chip CUDA 13
supports) without one; ``cubin-features`` is empty, so the serializer picks the PTX
ISA version that the chip and the installed assembler both support.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec, ParameterListType
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.forked_jobs import fork_is_safe, run_jobs
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import ModuleOp as GPUModuleOp
from xdsl_gpu.passes.dialect_presence import dialect_loaded
from xdsl_gpu.passes.gc_tuning import fewer_collections
from xdsl_gpu.passes.gpu_module_to_binary import start_early, stop_early
from xdsl_gpu.passes.parallel_device_lowering import (
    ParallelRun,
    ParallelScheduleWarning,
    Part,
    device_op_count,
    parallel_schedule_possible,
    run_parallel,
)
from xdsl_gpu.passes.pipeline_verification import (
    run_steps,
    take_input_text,
    verify_after_each_step,
)

PIPELINE_NAME = "gpu-lower-to-nvvm-pipeline"

FALLBACK_CHIP = "sm_75"
"""The default chip without a GPU: the oldest that CUDA 13's assembler accepts."""

OptionValue = str | int | bool

IGNORABLE_OPTIONS = frozenset({"allow-pattern-rollback"})
"""Options that only steer MLIR's dialect-conversion driver (rollback or one-shot
rewriting); xDSL's pattern rewriter has no rollback, so a pass without the option
simply does not receive it."""


@cache
def default_cubin_chip() -> str:
    """``sm_XY`` of CUDA device 0 when there is one, else :data:`FALLBACK_CHIP`.

    Only device attributes are read (no context is created), and in a forked child
    where forking is safe: ``cuInit`` starts a driver thread, and a process with
    two threads may no longer fork, which would turn off the parallel compiles and
    the pipeline's parallel schedule."""
    if fork_is_safe():
        (outcome,) = run_jobs([_query_chip], 1)
        return outcome.value if isinstance(outcome.value, str) else FALLBACK_CHIP
    return _query_chip()


def _query_chip() -> str:
    try:
        import cuda.bindings.driver as driver

        (result,) = driver.cuInit(0)
        if result != driver.CUresult.CUDA_SUCCESS:
            return FALLBACK_CHIP
        result, dev = driver.cuDeviceGet(0)
        if result != driver.CUresult.CUDA_SUCCESS:
            return FALLBACK_CHIP
        attr = driver.CUdevice_attribute
        r1, major = driver.cuDeviceGetAttribute(
            attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev
        )
        r2, minor = driver.cuDeviceGetAttribute(
            attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev
        )
        if driver.CUresult.CUDA_SUCCESS != r1 or driver.CUresult.CUDA_SUCCESS != r2:
            return FALLBACK_CHIP
        return f"sm_{major}{minor}"
    except Exception:  # no cuda-python, no libcuda.so: no GPU to take the chip from
        return FALLBACK_CHIP


def _format_value(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class PipelineStep:
    """One pass of the pipeline: its upstream name, the options the pipeline sets on
    it (the others keep their defaults) and whether it runs on each ``gpu.module``."""

    pass_name: str
    options: tuple[tuple[str, OptionValue], ...] = ()
    nested: bool = False

    def __str__(self) -> str:
        text = self.pass_name
        if self.options:
            text += (
                "{" + " ".join(f"{k}={_format_value(v)}" for k, v in self.options) + "}"
            )
        return f"gpu.module({text})" if self.nested else text


def _check_no_ops(pass_name: str, prefixes: tuple[str, ...], why: str):
    """A stand-in for a pass that has nothing to convert here; it stops with a
    diagnostic if the input has ops it would have had to convert."""

    def run(ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if inner.name.startswith(prefixes):
                raise PassFailedException(
                    f"{PIPELINE_NAME}: '{inner.name}' needs {pass_name}, which "
                    f"xdsl-gpu does not implement ({why}); lower it before the pipeline"
                )

    return run


NO_OP_PASSES: dict[str, tuple[tuple[str, ...], str]] = {
    "convert-vector-to-scf": (
        ("vector.transfer_read", "vector.transfer_write"),
        "no vector transfer lowering",
    ),
    # Every nvvm op carries its LLVM intrinsic and is emitted as a call to it by
    # xdsl_gpu/targets/llvm_ir; none needs the inline-PTX form that this pass produces.
    "convert-nvvm-to-llvm": ((), "nvvm ops are translated to intrinsics directly"),
}
"""Upstream passes of the pipeline that have nothing to do in xdsl-gpu: the op
prefixes each would convert, and why it is not needed. Used only when no pass of that
name is registered."""


CHECK_ONLY_STEPS = frozenset({"convert-nvvm-to-llvm"})
"""Steps left to the ops' own translation although the pass exists. Upstream's
``convert-vector-to-scf`` folds the whole module (its greedy driver) before step 5, so
an ``llvm.zext`` of a constant reaches the PTX builder as a constant (an immediate);
this pipeline does not fold there, and the ops' LLVM IR hooks
(``gpu_dialect/nvvm/ptx_builder.py``) make up for it. Run the pass once the pipeline
folds as upstream does."""


DIALECT_PASSES: dict[str, str] = {
    "convert-vector-to-scf": "vector",
    "convert-index-to-llvm": "index",
    "convert-math-to-llvm": "math",
}
"""Steps that convert the ops of one dialect and nothing else. While no op of that
dialect can exist (``passes/dialect_presence.py``) the step is skipped, and its pass
(with its patterns) is not even imported: start-up time of a program without
vector, index or math ops. Checked when the step is reached, as an earlier step may
create such ops."""


def _dialect_absent(step: PipelineStep) -> bool:
    dialect = DIALECT_PASSES.get(step.pass_name)
    return dialect is not None and not dialect_loaded(dialect)


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass the pipeline may use: ours (``xdsl_gpu.passes.get_all_passes``), our
    replacements of xDSL's (``cse``, ``convert-scf-to-cf``, ...), then xDSL's own
    (``canonicalize``)."""
    from xdsl.universe import XDSL_UNIVERSE

    from xdsl_gpu.passes import get_all_passes
    from xdsl_gpu.passes.registration import REPLACED_PASSES

    found: dict[str, Callable[[], type[ModulePass]]] = dict(XDSL_UNIVERSE.all_passes)
    found.update(REPLACED_PASSES)
    found.update(get_all_passes())
    return found


def _field_names(cls: type[ModulePass]) -> set[str]:
    return {f.name for f in dataclasses.fields(cls) if f.init}


def instantiate(
    step: PipelineStep, registry: dict[str, Callable[[], type[ModulePass]]]
) -> ModulePass | None:
    """The pass object for ``step``, or ``None`` for one of :data:`NO_OP_PASSES`."""
    factory = registry.get(step.pass_name)
    if factory is None or step.pass_name in CHECK_ONLY_STEPS:
        if step.pass_name in NO_OP_PASSES:
            return None
        raise PassFailedException(
            f"{PIPELINE_NAME}: the pass '{step.pass_name}' is not available; it is "
            "part of the pipeline (install xdsl-gpu completely, or run the passes "
            "you have one by one with -p)"
        )
    cls = factory()
    fields = _field_names(cls)
    parameters: dict[str, ParameterListType] = {}
    for key, value in step.options:
        if key.replace("-", "_") not in fields:
            if key in IGNORABLE_OPTIONS:
                continue
            raise PassFailedException(
                f"{PIPELINE_NAME}: the pass '{step.pass_name}' has no option '{key}' "
                "that the pipeline must set"
            )
        parameters[key] = (value,)
    try:
        return cls.from_pass_spec(ArgSpec(step.pass_name, parameters))
    except ValueError as e:
        raise PassFailedException(f"{PIPELINE_NAME}: {step}: {e}") from None


def _bool_option(name: str, value: bool | int) -> bool:
    # LLVM's command-line parser takes 1/0 for booleans (the seeds use `=1`).
    if value not in (0, 1):
        raise PassFailedException(
            f"{PIPELINE_NAME}: {name}={value}: a boolean option takes true, false, "
            "1 or 0"
        )
    return bool(value)


@dataclass(frozen=True)
class GpuLowerToNVVMPipelinePass(ModulePass):
    """Lower ``gpu``, ``arith``, ``index``, ``math``, ``memref``, ``scf``, ``cf``,
    ``affine`` and ``func`` to LLVM with NVVM kernels, serialize the kernels and
    leave host code ready for the offloading translation (``-t llvm-offload``) or
    ``xdsl-gpu-run``.

    Options (upstream's names): ``cubin-triple``, ``cubin-chip`` (default: this
    machine's GPU, else ``sm_75``), ``cubin-features`` (default empty: automatic PTX
    ISA), ``cubin-format`` (``fatbin``), ``opt-level`` (2), ``index-bitwidth`` (64),
    ``ptxas-cmd-options``, ``kernel-bare-ptr-calling-convention``,
    ``host-bare-ptr-calling-convention``, ``allow-pattern-rollback`` (accepted; no
    effect where a pass has no rollback). Booleans take ``true``/``false``/``1``/``0``.
    """

    name = PIPELINE_NAME
    verifies_its_result: ClassVar[bool] = True
    """It verifies the module it leaves (``passes/pipeline_verification.py``), so
    ``xdsl-opt`` does not verify it again (``compat.no_second_verification``)."""

    cubin_triple: str = "nvptx64-nvidia-cuda"
    cubin_chip: str = field(default_factory=default_cubin_chip)
    cubin_features: str = ""
    cubin_format: str = "fatbin"
    opt_level: int = 2
    index_bitwidth: int = 64
    ptxas_cmd_options: str = ""
    kernel_bare_ptr_calling_convention: bool | int = False
    host_bare_ptr_calling_convention: bool | int = False
    allow_pattern_rollback: bool | int = True

    def __post_init__(self) -> None:
        for name in (
            "kernel_bare_ptr_calling_convention",
            "host_bare_ptr_calling_convention",
            "allow_pattern_rollback",
        ):
            option = name.replace("_", "-")
            object.__setattr__(self, name, _bool_option(option, getattr(self, name)))
        if not 0 <= self.opt_level <= 3:
            raise PassFailedException(
                f"{PIPELINE_NAME}: opt-level={self.opt_level}: the optimization level "
                "must be a number between 0 and 3"
            )
        if self.index_bitwidth not in (0, 32, 64):
            raise PassFailedException(
                f"{PIPELINE_NAME}: index-bitwidth={self.index_bitwidth}: use 64 "
                "(or 32; 0 takes it from the data layout)"
            )
        from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget

        try:
            CompilationTarget.from_option(self.cubin_format)
        except UserError as e:
            raise PassFailedException(f"{PIPELINE_NAME}: cubin-format: {e}") from None

    def steps(self) -> tuple[PipelineStep, ...]:
        """The passes in upstream's order, with the options the pipeline sets."""
        ib = self.index_bitwidth
        kernel_bare = bool(self.kernel_bare_ptr_calling_convention)
        host_bare = bool(self.host_bare_ptr_calling_convention)
        return (
            PipelineStep("convert-nvgpu-to-nvvm"),
            PipelineStep("gpu-kernel-outlining"),
            PipelineStep("convert-vector-to-scf"),
            PipelineStep("convert-scf-to-cf"),
            PipelineStep("convert-nvvm-to-llvm"),
            PipelineStep("convert-func-to-llvm"),
            PipelineStep("expand-strided-metadata"),
            PipelineStep(
                "nvvm-attach-target",
                (
                    ("O", self.opt_level),
                    ("chip", self.cubin_chip),
                    ("features", self.cubin_features),
                    ("triple", self.cubin_triple),
                    ("ptxas-cmd-options", self.ptxas_cmd_options),
                ),
            ),
            PipelineStep("lower-affine"),
            PipelineStep("convert-arith-to-llvm"),
            PipelineStep("convert-index-to-llvm", (("index-bitwidth", ib),)),
            PipelineStep("canonicalize"),
            PipelineStep("cse"),
            PipelineStep(
                "convert-gpu-to-nvvm",
                (
                    ("index-bitwidth", ib),
                    ("use-bare-ptr-memref-call-conv", kernel_bare),
                    ("allow-pattern-rollback", bool(self.allow_pattern_rollback)),
                ),
                nested=True,
            ),
            PipelineStep("canonicalize", nested=True),
            PipelineStep("cse", nested=True),
            PipelineStep("reconcile-unrealized-casts", nested=True),
            PipelineStep(
                "gpu-to-llvm",
                (
                    ("use-bare-pointers-for-host", host_bare),
                    ("use-bare-pointers-for-kernels", kernel_bare),
                ),
            ),
            PipelineStep("gpu-module-to-binary", (("format", self.cubin_format),)),
            PipelineStep("convert-math-to-llvm"),
            PipelineStep("canonicalize"),
            PipelineStep("cse"),
            PipelineStep("reconcile-unrealized-casts"),
        )

    def pipeline_text(self) -> str:
        """The pipeline as a ``--pass-pipeline`` string, nested steps included."""
        return "builtin.module(" + ", ".join(str(s) for s in self.steps()) + ")"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with fewer_collections():  # passes/gc_tuning.py: a third of a big compile
            self._apply(ctx, op)

    def _apply(self, ctx: Context, op: ModuleOp) -> None:
        registry = available_passes()
        # Resolve every pass first: a missing one fails before the IR is touched.
        plan = [
            (step, None if _dialect_absent(step) else instantiate(step, registry))
            for step in self.steps()
        ]
        for step, _ in plan:
            if step.pass_name not in registry and step.pass_name not in NO_OP_PASSES:
                instantiate(step, registry)  # its diagnostic
        steps = [
            (str(step), functools.partial(self._step, step, pass_, registry, ctx))
            for step, pass_ in plan
        ]
        # Device modules in forked workers while the host is lowered here
        # (passes/parallel_device_lowering.py); sequentially when that cannot be
        # done, and to report any error.
        # The input as xdsl-opt's text, taken once by this run: parsed again where
        # it would be copied (passes/pipeline_verification.py).
        parse_again = take_input_text(op)
        attempt = ParallelRun(False)
        if not verify_after_each_step() and parallel_schedule_possible():
            parts = _parts([step for step, _ in plan])
            attempt = run_parallel(
                ctx, op, list(zip(parts, (run for _, run in steps))), parse_again
            )
            if attempt:
                return
        # What will compile the kernels gets ready meanwhile (for NVVM, a child
        # that loads LLVM: targets/nvvm/prestarted_compiler.py).
        if device_op_count(op):
            start_early(op)
        try:
            # Verified once, each step blamed on failure (passes/pipeline_verification.py).
            run_steps(op, steps, PIPELINE_NAME, parse_again)
        finally:
            stop_early()
        if attempt.gave_up is not None:  # and yet the program compiles
            warnings.warn(
                ParallelScheduleWarning(
                    f"{PIPELINE_NAME}: the kernels could not be lowered in parallel "
                    f"({attempt.gave_up}), so the steps ran one after the other: "
                    "the output is the same, only slower; please report it with "
                    "this input"
                ),
                stacklevel=2,
            )

    @classmethod
    def _step(
        cls,
        step: PipelineStep,
        pass_: ModulePass | None,
        registry: dict[str, Callable[[], type[ModulePass]]],
        ctx: Context,
        op: ModuleOp,
    ) -> bool:
        """Run one step; whether it may have changed ``op``."""
        if pass_ is None and step.pass_name in DIALECT_PASSES:
            if _dialect_absent(step):
                return False
            pass_ = instantiate(step, registry)
        cls._run(step, pass_, ctx, op)
        return pass_ is not None  # else a check only

    @staticmethod
    def _run(
        step: PipelineStep, pass_: ModulePass | None, ctx: Context, op: ModuleOp
    ) -> None:
        if pass_ is None:
            prefixes, why = NO_OP_PASSES[step.pass_name]
            if prefixes:
                _check_no_ops(step.pass_name, prefixes, why)(ctx, op)
            return
        if not step.nested:
            pass_.apply(ctx, op)
            return
        for gpu_module in [o for o in op.ops if isinstance(o, GPUModuleOp)]:
            _apply_nested(pass_, ctx, gpu_module)


SPLIT_STEPS: dict[str, Part] = {
    # Top-level steps that convert what they find, in each part alike.
    **dict.fromkeys(
        (
            "convert-vector-to-scf",
            "convert-scf-to-cf",
            "convert-nvvm-to-llvm",
            "convert-func-to-llvm",
            "expand-strided-metadata",
            "nvvm-attach-target",
            "lower-affine",
            "convert-arith-to-llvm",
            "convert-index-to-llvm",
            "canonicalize",
            "cse",
        ),
        Part.BOTH,
    ),
    "gpu-to-llvm": Part.HOST,  # leaves gpu.modules alone
    "gpu-module-to-binary": Part.SERIALIZE,
}
"""Where each step after kernel outlining runs in the parallel schedule
(``passes/parallel_device_lowering.py``). A step not listed here (one added to the
pipeline later, say, that compares host and kernels) is never split: the schedule
gives way to the sequential one."""

AFTER_BINARIES = frozenset(
    {"convert-math-to-llvm", "canonicalize", "cse", "reconcile-unrealized-casts"}
)
"""The steps after ``gpu-module-to-binary`` that may run before the binaries are in
place: they do not look at a kernel's module."""


def _parts(steps: Sequence[PipelineStep]) -> list[Part]:
    """Where each step runs in the parallel schedule: the whole program up to
    kernel outlining, then the parts; :attr:`Part.WHOLE` after the split for a
    step that may not be split (the schedule then does not apply)."""
    parts: list[Part] = []
    outlined = serialized = False
    for step in steps:
        if not outlined:
            parts.append(Part.WHOLE)
            outlined = step.pass_name == "gpu-kernel-outlining"
        elif serialized:
            parts.append(Part.HOST if step.pass_name in AFTER_BINARIES else Part.WHOLE)
        elif step.nested:
            parts.append(Part.DEVICE)
        else:
            parts.append(SPLIT_STEPS.get(step.pass_name, Part.WHOLE))
            serialized = parts[-1] is Part.SERIALIZE
    return parts


def _apply_nested(pass_: ModulePass, ctx: Context, gpu_module: GPUModuleOp) -> None:
    """Run ``pass_`` on ``gpu_module`` alone: it is moved into a scratch module for
    the pass (so that nothing outside it is touched) and whatever the pass leaves
    there is put back in its place."""
    parent = gpu_module.parent_block()
    assert parent is not None
    anchor = gpu_module.next_op
    gpu_module.detach()
    scratch = ModuleOp([gpu_module])
    try:
        pass_.apply(ctx, scratch)
    finally:
        for result in list(scratch.ops):
            result.detach()
            if anchor is not None:
                parent.insert_op_before(result, anchor)
            else:
                parent.add_op(result)
