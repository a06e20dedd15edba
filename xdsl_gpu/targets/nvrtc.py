"""CUDA C++ to PTX or cubin without nvcc: NVRTC from PyPI (``nvidia-cuda-nvrtc``,
reached through ``cuda.bindings.nvrtc``), one compilation per architecture.

API::

    from xdsl_gpu.targets.nvrtc import NvrtcOptions, compile_file
    outputs = compile_file("kernels.cu", NvrtcOptions(archs=("sm_80", "sm_90"),
                                                      emit=("ptx", "cubin")))
    # [kernels_sm_80.ptx, kernels_sm_80.cubin, kernels_sm_90.ptx, kernels_sm_90.cubin]

Command line (``xdsl-gpu-nvrtc``)::

    xdsl-gpu-nvrtc kernels.cu -arch=sm_80 -arch=sm_90 --emit=ptx,cubin -O3 \\
        -I include -D TILE=64 -o build/

Outputs are named ``<stem>_sm_XX.ptx`` / ``<stem>_sm_XX.cubin``. The folder of the
source is searched for ``#include "..."`` first, as nvcc does (NVRTC alone does not).
A compilation error prints NVRTC's log with ``file:line:`` locations and exits 1.

``--ptx-version=X.Y`` rewrites the ``.version`` directive of the PTX (NVRTC always
writes its own, newest one, which an older driver's JIT refuses) and checks the result
by assembling it with nvJitLink: PTX that uses something newer fails with the
assembler's message instead of at load time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.objects.object_info import Chip, ObjectInfoError

EMIT_KINDS = ("ptx", "cubin")


class NvrtcError(UserError):
    """NVRTC refused the source or the options."""


@dataclass(frozen=True)
class NvrtcOptions:
    """How to compile: architectures, outputs, optimization, preprocessor."""

    archs: tuple[str, ...] = ("sm_80",)
    """``sm_XY`` (``a``/``f`` suffixes allowed); each gives one PTX and/or cubin."""
    emit: tuple[str, ...] = ("ptx",)
    """``ptx``, ``cubin`` or both."""
    opt_level: int = 3
    """0 turns device optimization off; the level goes to the assembler (cubin)."""
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    """``NAME`` or ``NAME=VALUE``."""
    std: str = ""
    """``c++17``, ``c++20``, ... (NVRTC's default when empty)."""
    fast_math: bool = False
    line_info: bool = False
    ptx_version: str = ""
    """``X.Y``: write this PTX ISA version instead of NVRTC's (checked)."""
    extra: tuple[str, ...] = ()
    """More NVRTC options, verbatim."""


@dataclass
class CompiledSource:
    """What one architecture produced."""

    chip: Chip
    ptx: str | None = None
    cubin: bytes | None = None
    log: str = ""
    outputs: list[Path] = field(default_factory=list[Path])


def _nvrtc() -> Any:
    try:
        import cuda.bindings.nvrtc as nvrtc
    except ImportError as e:  # pragma: no cover - a dependency of the project
        raise NvrtcError(
            "NVRTC is not available: `pip install cuda-python nvidia-cuda-nvrtc`"
        ) from e
    return nvrtc


def nvrtc_version() -> tuple[int, int]:
    nvrtc = _nvrtc()
    try:
        result, major, minor = nvrtc.nvrtcVersion()
    except RuntimeError as e:  # the shared library is missing
        raise NvrtcError(
            f"NVRTC cannot be loaded ({e}); `pip install nvidia-cuda-nvrtc`"
        ) from None
    _check(result, "nvrtcVersion")
    return int(major), int(minor)


def supported_archs() -> list[int]:
    nvrtc = _nvrtc()
    result, archs = nvrtc.nvrtcGetSupportedArchs()
    _check(result, "nvrtcGetSupportedArchs")
    return [int(a) for a in archs]


def _check(result: Any, what: str) -> None:
    nvrtc = _nvrtc()
    if result != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        _, text = nvrtc.nvrtcGetErrorString(result)
        raise NvrtcError(f"{what} failed: {text.decode() if text else result}")


def _out_buffer(size: int) -> bytes:
    """A fresh bytes object for NVRTC to write ``size`` bytes into. Never one of
    CPython's shared one-byte objects (``b" " * 1`` is the interned ``b" "``, which
    NVRTC would overwrite for every user of it in the process)."""
    return b" " * max(size, 2)


_LOG_LOCATION = re.compile(r"^(.*?)\((\d+)\): ", re.MULTILINE)


def readable_log(log: str) -> str:
    """NVRTC's ``file(12): error: ...`` as ``file:12: error: ...``."""
    return _LOG_LOCATION.sub(lambda m: f"{m.group(1)}:{m.group(2)}: ", log.strip())


def _options(chip: Chip, options: NvrtcOptions, source_dir: Path | None) -> list[str]:
    flags = [f"-arch={chip.name}"]
    if options.opt_level == 0:
        flags.append("--dopt=off")
    flags.append(f"-Xptxas=-O{options.opt_level}")
    if source_dir is not None:
        flags.append(f"-I{source_dir}")
    flags += [f"-I{d}" for d in options.include_dirs]
    flags += [f"-D{d}" for d in options.defines]
    if options.std:
        flags.append(f"-std={options.std}")
    if options.fast_math:
        flags.append("--use_fast_math")
    if options.line_info:
        flags.append("-lineinfo")
    flags += list(options.extra)
    return flags


def _validate(options: NvrtcOptions) -> list[Chip]:
    if not options.archs:
        raise NvrtcError("no architecture given: add -arch=sm_XY (e.g. -arch=sm_80)")
    bad = [e for e in options.emit if e not in EMIT_KINDS]
    if bad or not options.emit:
        raise NvrtcError(
            f"--emit={','.join(options.emit)}: choose from {', '.join(EMIT_KINDS)}"
        )
    if not 0 <= options.opt_level <= 3:
        raise NvrtcError(f"-O{options.opt_level}: the level must be 0 to 3")
    if options.ptx_version and not re.fullmatch(r"\d+\.\d", options.ptx_version):
        raise NvrtcError(f"--ptx-version={options.ptx_version}: write X.Y, e.g. 9.0")
    try:
        chips = [Chip.parse(a) for a in options.archs]
    except ObjectInfoError as e:
        raise NvrtcError(f"-arch: {e}") from None
    known = supported_archs()
    for chip in chips:
        if chip.sm not in known:
            major, minor = nvrtc_version()
            raise NvrtcError(
                f"-arch={chip.name}: NVRTC {major}.{minor} does not support sm_{chip.sm}; "
                f"it supports {', '.join(f'sm_{a}' for a in known)}"
            )
    return chips


def compile_source(
    source: str,
    name: str,
    chip: Chip,
    options: NvrtcOptions = NvrtcOptions(),
    source_dir: Path | None = None,
) -> CompiledSource:
    """Compile CUDA C++ ``source`` (called ``name`` in messages) for ``chip``."""
    nvrtc = _nvrtc()
    nvrtc_version()  # a clear error when the library is missing
    result, program = nvrtc.nvrtcCreateProgram(
        source.encode(), name.encode(), 0, [], []
    )
    _check(result, "nvrtcCreateProgram")
    try:
        flags = [f.encode() for f in _options(chip, options, source_dir)]
        (result,) = nvrtc.nvrtcCompileProgram(program, len(flags), flags)
        _, size = nvrtc.nvrtcGetProgramLogSize(program)
        buffer = _out_buffer(size)
        nvrtc.nvrtcGetProgramLog(program, buffer)
        log = buffer[:size].split(b"\0", 1)[0].decode(errors="replace")
        if result == nvrtc.nvrtcResult.NVRTC_ERROR_INVALID_OPTION:
            raise NvrtcError(f"NVRTC rejected an option: {log.strip()}")
        if result != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise NvrtcError(
                f"compiling {name} for {chip.name} failed:\n{readable_log(log)}"
            )
        compiled = CompiledSource(chip, log=readable_log(log))
        if "ptx" in options.emit:
            _, size = nvrtc.nvrtcGetPTXSize(program)
            buffer = _out_buffer(size)
            _check(nvrtc.nvrtcGetPTX(program, buffer)[0], "nvrtcGetPTX")
            compiled.ptx = buffer[:size].split(b"\0", 1)[0].decode()
            if options.ptx_version:
                compiled.ptx = set_ptx_version(compiled.ptx, options.ptx_version, chip)
        if "cubin" in options.emit:
            _, size = nvrtc.nvrtcGetCUBINSize(program)
            buffer = _out_buffer(size)
            _check(nvrtc.nvrtcGetCUBIN(program, buffer)[0], "nvrtcGetCUBIN")
            compiled.cubin = bytes(buffer[:size])
        return compiled
    finally:
        nvrtc.nvrtcDestroyProgram(program)


_VERSION_LINE = re.compile(r"^(\s*\.version\s+)(\d+\.\d+)", re.MULTILINE)


def set_ptx_version(ptx: str, version: str, chip: Chip) -> str:
    """``ptx`` with ``.version`` set to ``version``, checked by assembling it."""
    from xdsl_gpu.targets.nvvm.ptx_isa import Chip as SerializerChip
    from xdsl_gpu.targets.nvvm.serializer import (
        NVVMOptions,
        SerializationError,
        assemble_cubin,
    )

    match = _VERSION_LINE.search(ptx)
    if match is None:
        raise NvrtcError("the PTX has no .version directive to rewrite")
    if tuple(map(int, version.split("."))) > tuple(map(int, match.group(2).split("."))):
        raise NvrtcError(
            f"--ptx-version={version} is newer than the PTX NVRTC wrote "
            f"({match.group(2)}); it can only be lowered"
        )
    rewritten = _VERSION_LINE.sub(lambda m: m.group(1) + version, ptx, count=1)
    SerializerChip.parse(chip.name)
    try:
        assemble_cubin(rewritten, NVVMOptions(chip=chip.name, module_name="nvrtc"))
    except SerializationError as e:
        raise NvrtcError(
            f"the PTX for {chip.name} needs a newer PTX ISA than {version}:\n{e}"
        ) from None
    return rewritten


def output_path(source: Path, out_dir: Path, chip: Chip, kind: str) -> Path:
    """``<out_dir>/<stem>_sm_XX.ptx`` (or ``.cubin``)."""
    return out_dir / f"{source.stem}_{chip.name}.{kind}"


def compile_file(
    path: str | Path,
    options: NvrtcOptions = NvrtcOptions(),
    out_dir: str | Path | None = None,
    warn: Callable[[str], None] | None = None,
) -> list[Path]:
    """Compile a ``.cu`` file for every architecture of ``options``; write and return
    the outputs (next to the source unless ``out_dir`` is given). NVRTC's warnings
    go to ``warn``."""
    source = Path(path)
    try:
        text = source.read_text()
    except OSError as e:
        raise NvrtcError(f"cannot read {source}: {e.strerror}") from None
    folder = Path(out_dir) if out_dir is not None else source.parent
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for chip in _validate(options):
        compiled = compile_source(
            text, str(source), chip, options, source.parent.resolve()
        )
        if compiled.log and warn is not None:
            warn(compiled.log)
        if compiled.ptx is not None:
            target = output_path(source, folder, chip, "ptx")
            target.write_text(compiled.ptx)
            written.append(target)
        if compiled.cubin is not None:
            target = output_path(source, folder, chip, "cubin")
            target.write_bytes(compiled.cubin)
            written.append(target)
    return written
