"""The compile-cache key of one NVVM serialization (``xdsl_gpu/targets/compile_cache.py``).

It names everything that decides the bytes ``serializer.serialize`` returns:

* the module's LLVM IR (the translation's output: a change in the ``gpu.module``
  or in the translation shows here);
* every field of ``NVVMOptions`` (chip, features, O, triple, fast/ftz, link files,
  assembler options, toolkit, module name) and the format;
* the contents of the ``link`` files, and libdevice's path, size and modification
  time when the module calls ``__nv_*`` functions;
* the toolchain: the versions of xdsl-gpu, llvmlite, cuda-bindings, nvJitLink,
  nvFatbin and nvidia-nvvm, the size and time of llvmlite's LLVM library, the
  ``CUDA_*`` variables that choose a toolkit, ``ptxas``/``fatbinary`` when a toolkit
  is used, and the source of the serializer itself (so that editing it in a
  development checkout never reuses an object the old code built).

Reading versions from the installed packages' metadata costs a few milliseconds;
importing llvmlite's binding or cuda-bindings to ask them would cost tens, on every
cache hit.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget
from xdsl_gpu.targets.compile_cache import cache_key
from xdsl_gpu.targets.nvvm import toolkit
from xdsl_gpu.targets.nvvm.serializer import NVVMOptions

__all__ = ["nvvm_cache_key", "toolchain_fingerprint"]

_DISTRIBUTIONS = (
    "xdsl-gpu",
    "llvmlite",
    "cuda-bindings",
    "nvidia-nvjitlink",
    "nvidia-nvfatbin",
    "nvidia-nvvm",
)

_SOURCES = (
    "serializer.py",
    "shared_alignment.py",
    "dynamic_shared_memory.py",
    "ptx_isa.py",
    "toolkit.py",
    "cache_key.py",
)
"""This package's files whose code decides the compiled bytes."""


def _stat(path: Path | str) -> str:
    try:
        info = os.stat(path)
    except OSError:
        return f"{path}:absent"
    return f"{path}:{info.st_size}:{info.st_mtime_ns}"


@cache
def toolchain_fingerprint() -> str:
    """What this installation compiles with (computed once per process)."""
    from importlib import metadata

    parts: list[str] = []
    for name in _DISTRIBUTIONS:
        try:
            parts.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{name} absent")
    try:
        import llvmlite

        folder = Path(llvmlite.__file__).parent / "binding"
        parts += sorted(_stat(p) for p in folder.glob("libllvmlite*"))
    except ImportError:
        parts.append("llvmlite absent")
    parts += [f"{v}={os.environ.get(v, '')}" for v in toolkit.TOOLKIT_VARIABLES]
    here = Path(__file__).parent
    source = hashlib.sha256()
    for name in _SOURCES:
        try:
            source.update((here / name).read_bytes())
        except OSError:
            source.update(f"{name} absent".encode())
    parts.append(f"source {source.hexdigest()}")
    return "\n".join(parts)


def _file_digest(path: str) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError as e:  # the compile reports it; the key only has to differ
        return f"unreadable {e}"


def nvvm_cache_key(llvm_ir: str, options: NVVMOptions, fmt: CompilationTarget) -> str:
    """The key of compiling ``llvm_ir`` with ``options`` to ``fmt``."""
    parts = [
        "nvvm",
        toolchain_fingerprint(),
        repr(options),
        fmt.name,
        *(f"link {p} {_file_digest(p)}" for p in options.link),
    ]
    if "@__nv_" in llvm_ir:
        try:
            parts.append(f"libdevice {_stat(toolkit.find_libdevice(options.toolkit))}")
        except UserError as e:
            parts.append(f"libdevice missing {e}")
    if options.use_toolkit:
        for tool in ("ptxas", "fatbinary"):
            try:
                parts.append(_stat(toolkit.find_tool(tool, options.toolkit)))
            except UserError:
                parts.append(f"{tool} absent")
    parts.append(llvm_ir)
    return cache_key(*parts)
