"""LLVM IR of a ``gpu.module`` → optimised LLVM IR → PTX → cubin → fatbin.

The analogue of upstream's ``NVPTXSerializer`` (mlir/lib/Target/LLVM/NVVM/Target.cpp),
without a CUDA toolkit: LLVM (through llvmlite) optimises and emits PTX, nvJitLink
assembles the cubin and nvFatbin packs cubin + PTX. ``ptxas``/``fatbinary`` are used
only when a toolkit is asked for (``use_toolkit``).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.forked_jobs import fork_is_safe, run_jobs
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget
from xdsl_gpu.targets.nvvm import ptx_isa, toolkit
from xdsl_gpu.targets.nvvm.dynamic_shared_memory import (
    align_dynamic_shared_memory,
    declare_dynamic_shared_memory,
    pad_static_shared_memory,
)
from xdsl_gpu.targets.nvvm.shared_alignment import align_shared_variables

if TYPE_CHECKING:
    import llvmlite.binding as llvm

# llvmlite's binding (LLVM itself) is imported by the functions that compile, not
# with this module: a compile-cache hit never loads it.

NVPTX_TRIPLE = "nvptx64-nvidia-cuda"
NVPTX_DATA_LAYOUT = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"


class SerializationError(UserError):
    """The assembler or linker refused what LLVM produced."""


@dataclass(frozen=True)
class NVVMOptions:
    """Everything that decides how a module is compiled for one ``#nvvm.target``."""

    chip: str = "sm_75"
    features: str = ""
    opt_level: int = 2
    triple: str = NVPTX_TRIPLE
    fast: bool = False
    ftz: bool = False
    link: tuple[str, ...] = ()
    ptxas_options: tuple[str, ...] = ()
    toolkit: str = ""
    use_toolkit: bool = False
    module_name: str = "module"


@dataclass
class SerializedObject:
    """The bytes of one object and upstream's properties for it."""

    data: bytes
    format: CompilationTarget
    properties: dict[str, int] = field(default_factory=dict[str, int])
    ptx: str | None = None


@cache
def _initialize_llvm() -> None:
    import llvmlite.binding as llvm

    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()


@cache
def assembler_cuda_version() -> tuple[int, int] | None:
    """The CUDA version of the installed nvJitLink, or None without one."""
    try:
        import cuda.bindings.nvjitlink as nvjitlink
    except ImportError:
        return None
    major, minor = nvjitlink.version()
    return int(major), int(minor)


def target_machine(options: NVVMOptions) -> llvm.TargetMachine:
    """A new NVPTX target machine for ``options``. Not shared between modules: LLVM
    numbers call sequences (``callseq``) per target machine, so a shared one would
    make a module's PTX depend on what was compiled before it in this process."""
    import llvmlite.binding as llvm

    _initialize_llvm()
    features = _target_features(options.chip, options.features, options.use_toolkit)
    target = llvm.Target.from_triple(options.triple)
    return target.create_target_machine(
        cpu=options.chip, features=features, opt=options.opt_level, reloc="pic"
    )


@cache
def _target_features(chip_name: str, feature_text: str, use_toolkit: bool) -> str:
    """``+ptxNN`` (the ISA version chosen for the chip and the assembler) and the
    other features asked for."""
    chip = ptx_isa.Chip.parse(chip_name)
    version = ptx_isa.choose_ptx_version(
        chip, feature_text, None if use_toolkit else assembler_cuda_version()
    )
    _, other_features = ptx_isa.split_features(feature_text)
    return ",".join([f"+ptx{version}", *other_features])


def _uses_libdevice(module: llvm.ModuleRef) -> bool:
    return any(
        f.is_declaration and f.name.startswith("__nv_") for f in module.functions
    )


def _link_bitcode(module: llvm.ModuleRef, path: Path, origin: str) -> None:
    """Link ``path`` into ``module``, keeping only what ``module`` uses: every
    definition of the library becomes ``linkonce_odr`` (it still resolves the
    module's declarations, unlike ``internal``), so global DCE drops the rest."""
    library = _take_preparsed(path)
    if library is None:
        library = _library(path, origin)
    library.triple = module.triple
    library.data_layout = module.data_layout
    module.link_in(library)


def _library(path: Path, origin: str) -> llvm.ModuleRef:
    """``path`` parsed, its definitions made ``linkonce_odr``."""
    import llvmlite.binding as llvm

    try:
        library = llvm.parse_bitcode(path.read_bytes())
    except (OSError, RuntimeError) as e:
        raise UserError(f"cannot read {origin} {path}: {e}") from e
    for function in library.functions:
        if not function.is_declaration:
            function.linkage = "linkonce_odr"
    for variable in library.global_variables:
        if not variable.is_declaration:
            variable.linkage = "linkonce_odr"
    return library


_preparsed: tuple[Path, tuple[int, int], llvm.ModuleRef] | None = None
"""libdevice parsed ahead of its first use (:func:`preparse_libdevice`): its path,
the (size, mtime) it had then, and the module, which linking consumes."""


def preparse_libdevice() -> None:
    """Parse the default libdevice now, for the next module that links it: the
    compile child that a pipeline starts early does it while it waits for the
    modules (~25 ms of a kernel that calls math functions, off the pipeline's
    way). Nothing when it cannot be found (the link reports that)."""
    global _preparsed
    try:
        path = toolkit.find_libdevice("")
        stat = path.stat()
        _preparsed = (path, (stat.st_size, stat.st_mtime_ns), _library(path, ""))
    except (UserError, OSError):
        _preparsed = None


def _take_preparsed(path: Path) -> llvm.ModuleRef | None:
    """The preparsed libdevice if it is ``path`` as it was parsed (once: linking
    consumes it)."""
    global _preparsed
    found, _preparsed = _preparsed, None
    if found is None or found[0] != path:
        return None
    try:
        stat = path.stat()
    except OSError:
        return None
    return found[2] if (stat.st_size, stat.st_mtime_ns) == found[1] else None


def _set_module_flags(ir_text: str, options: NVVMOptions) -> str:
    """libdevice reads ``__CUDA_FTZ`` through NVVMReflect from this module flag."""
    if "nvvm-reflect-ftz" in ir_text:
        return ir_text
    ftz = 1 if options.ftz else 0
    if "!llvm.module.flags" in ir_text:
        return ir_text
    return (
        f"{ir_text}\n!llvm.module.flags = !{{!9000}}\n"
        f'!9000 = !{{i32 4, !"nvvm-reflect-ftz", i32 {ftz}}}\n'
    )


def link_and_optimize(ir_text: str, options: NVVMOptions) -> llvm.ModuleRef:
    """Parse the module's LLVM IR, link libdevice and ``link`` files when needed,
    and optimise at ``O``."""
    import llvmlite.binding as llvm

    _initialize_llvm()
    tm = target_machine(options)
    try:
        # Zero-length shared arrays are the block's dynamic shared memory.
        ir_text = declare_dynamic_shared_memory(ir_text)
        module = llvm.parse_assembly(_set_module_flags(ir_text, options))
        module.verify()
    except RuntimeError as e:
        raise SerializationError(
            f"LLVM rejected the IR of gpu.module @{options.module_name}: {e}"
        ) from e
    module.triple = options.triple
    module.data_layout = str(tm.target_data)
    for path in options.link:
        _link_bitcode(module, Path(path), "link file")
    if _uses_libdevice(module):
        _link_bitcode(module, toolkit.find_libdevice(options.toolkit), "libdevice")
    _optimize(module, tm, options.opt_level)
    return module


def _optimize(module: llvm.ModuleRef, tm: llvm.TargetMachine, level: int) -> None:
    import llvmlite.binding as llvm

    tuning = llvm.create_pipeline_tuning_options(speed_level=max(level, 1))
    builder = llvm.create_pass_builder(tm, tuning)
    manager = builder.getModulePassManager()
    # Drop what the libraries brought in but the kernels do not use.
    manager.add_global_dead_code_eliminate_pass()
    manager.run(module, builder)


def emit_ptx(module: llvm.ModuleRef, options: NVVMOptions, isolate: bool = True) -> str:
    """The PTX of ``module``. Instruction selection runs in a forked child: LLVM
    ends the process (``LLVM ERROR: Cannot select: intrinsic ...``, an abort) on IR
    its NVPTX back end cannot compile for the chip, such as a cluster register on
    sm_75; here that becomes a diagnostic that quotes LLVM's message. Without
    ``isolate`` (the caller already runs in a child of its own,
    ``xdsl_gpu/forked_jobs.py``) it runs in this process."""
    machine = target_machine(options)
    if not isolate or not fork_is_safe():
        # fork() copies one thread only: with other threads running (the CUDA
        # runtime's, in xdsl-gpu-run) a lock they hold could hang the child.
        return machine.emit_assembly(module)
    (outcome,) = run_jobs([lambda: machine.emit_assembly(module)], 1)
    if outcome.died is not None:
        raise backend_failure(options, outcome.died)
    if outcome.error is not None:
        raise outcome.error
    assert outcome.value is not None
    return outcome.value


def backend_failure(options: NVVMOptions, said: str) -> SerializationError:
    """The diagnostic for a compile whose process LLVM ended, quoting what it
    said."""
    return SerializationError(
        f"LLVM cannot compile gpu.module @{options.module_name} for {options.chip}: "
        f"{said or 'its NVPTX back end stopped'}"
        + (
            "; a cluster op needs sm_90 or newer (set the chip)"
            if "cluster" in said
            else ""
        )
    )


_PTX_LINE = re.compile(r"line (\d+)")


def _explain_assembler_log(log: str, ptx: str, options: NVVMOptions) -> str:
    """Quote the PTX lines an assembler error refers to."""
    lines = ptx.splitlines()
    quoted: list[str] = []
    for number in dict.fromkeys(int(m) for m in _PTX_LINE.findall(log)):
        if 0 < number <= len(lines):
            quoted.append(f"  PTX line {number}: {lines[number - 1].strip()}")
    text = f"assembling gpu.module @{options.module_name} for {options.chip} failed:\n"
    text += log.strip()
    if quoted:
        text += "\n" + "\n".join(quoted)
    return text


def assemble_cubin(ptx: str, options: NVVMOptions) -> bytes:
    """PTX → cubin with nvJitLink (or ``ptxas`` from a toolkit when asked for)."""
    chip = ptx_isa.Chip.parse(options.chip)
    if options.use_toolkit:
        return _run_ptxas(ptx, options)
    cuda = assembler_cuda_version()
    if cuda is None:
        raise UserError(
            "nvJitLink is not installed; `pip install nvidia-nvjitlink cuda-python`, "
            "or use format=isa"
        )
    if cuda >= (13, 0) and chip.sm < ptx_isa.OLDEST_SM_FOR_CUDA_13:
        raise UserError(
            f"chip {chip.name} is not supported by CUDA {cuda[0]}.{cuda[1]}, whose "
            f"oldest target is sm_{ptx_isa.OLDEST_SM_FOR_CUDA_13}; set chip = "
            f'"sm_{ptx_isa.OLDEST_SM_FOR_CUDA_13}" or newer'
        )
    # nvJitLink itself takes only -O0/-O3; the assembler gets the level as is.
    link_options = [f"-arch=sm_{chip.arch_number}", f"-Xptxas=-O{options.opt_level}"]
    link_options += [f"-Xptxas={o}" for o in options.ptxas_options]
    # nvJitLink's linker lays shared variables out by declared alignment, not
    # in declaration order as ptxas does (shared_alignment.py), and starts
    # dynamic shared memory 16-byte aligned whatever its declaration asks
    # (dynamic_shared_memory.py): pad, then link again, until the layout holds.
    linked = align_shared_variables(ptx)
    cubin = _nvjitlink(linked, link_options, ptx, options)
    for _ in range(_MAX_PADDING_ROUNDS):
        padded = pad_static_shared_memory(linked, cubin)
        if padded == linked:
            break
        linked = padded
        cubin = _nvjitlink(linked, link_options, ptx, options)
    return cubin


_MAX_PADDING_ROUNDS = 4
"""Growing a variable that several kernels share can move another kernel's end;
each round fixes what the last one moved (one round in practice)."""


def _nvjitlink(
    linked: str, link_options: list[str], ptx: str, options: NVVMOptions
) -> bytes:
    """``linked`` (the PTX as the assembler is given it) assembled and linked by
    nvJitLink; errors are explained against ``ptx``, the PTX LLVM emitted."""
    import cuda.bindings.nvjitlink as nvjitlink

    handle = nvjitlink.create(len(link_options), link_options)
    try:
        data = linked.encode() + b"\0"
        try:
            nvjitlink.add_data(
                handle, nvjitlink.InputType.PTX, data, len(data), options.module_name
            )
            nvjitlink.complete(handle)
        except nvjitlink.nvJitLinkError as e:
            size = nvjitlink.get_error_log_size(handle)
            log = bytearray(size)
            nvjitlink.get_error_log(handle, log)
            message = log.rstrip(b"\0").decode(errors="replace") or str(e)
            raise SerializationError(
                _explain_assembler_log(message, ptx, options)
            ) from None
        size = nvjitlink.get_linked_cubin_size(handle)
        cubin = bytearray(size)
        nvjitlink.get_linked_cubin(handle, cubin)
        return bytes(cubin)
    finally:
        nvjitlink.destroy(handle)


def _run_ptxas(ptx: str, options: NVVMOptions) -> bytes:
    ptxas = toolkit.find_tool("ptxas", options.toolkit)
    with tempfile.TemporaryDirectory(prefix="xdsl-gpu-") as folder:
        source, out = Path(folder) / "m.ptx", Path(folder) / "m.cubin"
        source.write_text(ptx)
        command = [str(ptxas), "-arch", options.chip, str(source), "-o", str(out)]
        command += ["--opt-level", str(options.opt_level), *options.ptxas_options]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SerializationError(_explain_assembler_log(done.stderr, ptx, options))
        return out.read_bytes()


def create_fatbin(cubin: bytes, ptx: str, options: NVVMOptions) -> bytes:
    """cubin + PTX → fatbin with nvFatbin (or ``fatbinary`` from a toolkit)."""
    chip = ptx_isa.Chip.parse(options.chip)
    if options.use_toolkit:
        return _run_fatbinary(cubin, ptx, chip, options)
    import cuda.bindings.nvfatbin as nvfatbin

    handle = nvfatbin.create(["-64"], 1)
    try:
        nvfatbin.add_cubin(
            handle, cubin, len(cubin), chip.arch_number, options.module_name
        )
        source = ptx.encode() + b"\0"
        nvfatbin.add_ptx(
            handle, source, len(source), chip.arch_number, options.module_name, ""
        )
        size = nvfatbin.size(handle)
        out = bytearray(size)
        nvfatbin.get(handle, out)
        return bytes(out)
    except nvfatbin.nvFatbinError as e:
        raise SerializationError(
            f"packing the fatbin of gpu.module @{options.module_name} failed: {e}"
        ) from None
    finally:
        nvfatbin.destroy(handle)


def _run_fatbinary(
    cubin: bytes, ptx: str, chip: ptx_isa.Chip, options: NVVMOptions
) -> bytes:
    fatbinary = toolkit.find_tool("fatbinary", options.toolkit)
    with tempfile.TemporaryDirectory(prefix="xdsl-gpu-") as folder:
        cubin_file, ptx_file = Path(folder) / "m.cubin", Path(folder) / "m.ptx"
        out = Path(folder) / "m.fatbin"
        cubin_file.write_bytes(cubin)
        ptx_file.write_text(ptx)
        number = chip.arch_number
        command = [
            str(fatbinary), "-64",
            f"--image3=kind=elf,sm={number},file={cubin_file}",
            f"--image3=kind=ptx,sm={number},file={ptx_file}",
            "--create", str(out),
        ]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SerializationError(f"fatbinary failed: {done.stderr.strip()}")
        return out.read_bytes()


def serialize(
    ir_text: str, options: NVVMOptions, fmt: CompilationTarget, isolate: bool = True
) -> SerializedObject:
    """Compile one module's LLVM IR to ``fmt``, with upstream's timing properties.
    ``isolate``: see :func:`emit_ptx`."""
    start = time.perf_counter()
    module = link_and_optimize(ir_text, options)
    if fmt is CompilationTarget.Offload:
        return SerializedObject(module.as_bitcode(), fmt)
    ptx = align_dynamic_shared_memory(emit_ptx(module, options, isolate))
    to_isa_ms = int((time.perf_counter() - start) * 1000)
    if fmt is CompilationTarget.Assembly:
        properties = {"O": options.opt_level, "LLVMIRToISATimeInMs": to_isa_ms}
        return SerializedObject(ptx.encode(), fmt, properties, ptx)
    start = time.perf_counter()
    cubin = assemble_cubin(ptx, options)
    data = (
        cubin if fmt is CompilationTarget.Binary else create_fatbin(cubin, ptx, options)
    )
    to_binary_ms = int((time.perf_counter() - start) * 1000)
    properties = {
        "ISAToBinaryTimeInMs": to_binary_ms,
        "LLVMIRToISATimeInMs": to_isa_ms,
    }
    return SerializedObject(data, fmt, properties, ptx)
