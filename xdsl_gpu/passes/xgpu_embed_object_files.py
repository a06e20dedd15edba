"""``xgpu-embed-object-files``: read the files that ``#xgpu.object_file`` objects of
each ``gpu.binary`` name and make them ordinary ``#gpu.object``s.

Files are looked up in the search path, in order: the ``search-path`` option
(comma-separated folders), then the folders of ``$XDSL_GPU_OBJECT_SEARCH_PATH``
(``:``-separated; it reaches every ``xdsl-opt`` run, like IREE's
``--iree-hal-executable-object-search-path``); the current folder when both are empty.

Confinement: a path must stay inside the folder it is found in (``..`` that leaves it,
or a symbolic link that points out of it, is refused) and may not be absolute unless
``allow-absolute=true``. A missing file is an error that lists every place looked at.

Each file is checked against its declaration: its bytes must be of the declared (or
extension's) format, and the chip of a PTX or cubin must be the chip of the object's
``#nvvm.target``. The object keeps the declared properties and gains
``"xgpu.file" = "<path as written>"`` (so load-time reports can name it) and, for PTX,
``O = 3`` when no ``O`` is given (``#gpu.select_object`` JITs at ``O`` and defaults
to 0). Then ``xgpu-check-kernel-abi`` runs on the module (options
``use-bare-pointers-for-kernels``, ``check-abi=false`` to skip it).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, StringAttr, i32
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget, ObjectAttr
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp
from xdsl_gpu.gpu_dialect.nvvm.target import NVVMTargetAttr
from xdsl_gpu.gpu_dialect.xgpu import ObjectFileAttr
from xdsl_gpu.passes.llvm_type_converter import describe
from xdsl_gpu.passes.xgpu_check_kernel_abi import check_binary_launches
from xdsl_gpu.targets.nvvm.object_info import (
    Chip,
    ObjectInfoError,
    inspect_object,
    sniff_format,
)

SEARCH_PATH_VARIABLE = "XDSL_GPU_OBJECT_SEARCH_PATH"
SOURCE_PROPERTY = "xgpu.file"
DEFAULT_PTX_JIT_LEVEL = 3


class ObjectFileError(PassFailedException):
    """An object file that cannot be found, read, or trusted."""


def effective_search_path(option: Sequence[str]) -> tuple[str, ...]:
    """The option's folders, then ``$XDSL_GPU_OBJECT_SEARCH_PATH``'s; ``.`` if none."""
    folders = [f for f in option if f]
    folders += [
        f for f in os.environ.get(SEARCH_PATH_VARIABLE, "").split(os.pathsep) if f
    ]
    return tuple(folders) or (".",)


def _where(binary: BinaryOp, index: int, obj: ObjectFileAttr) -> str:
    return f'{describe(binary)}: object {index} "{obj.path}"'


def resolve_object_file(
    path: str, search_path: Sequence[str], allow_absolute: bool, where: str
) -> Path:
    """The file ``path`` names, confined to ``search_path``."""
    written = PurePath(path)
    if written.is_absolute():
        if not allow_absolute:
            raise ObjectFileError(
                f"{where}: absolute paths are not allowed; make the path relative to a "
                "folder of the search path (search-path=... or "
                f"${SEARCH_PATH_VARIABLE}), or pass allow-absolute=true"
            )
        if Path(path).is_file():
            return Path(path)
        raise ObjectFileError(f"{where}: object file not found; looked at:\n  {path}")
    looked: list[str] = []
    for folder in search_path:
        root = Path(folder).resolve()
        candidate = (root / written).resolve()
        if not candidate.is_relative_to(root):
            raise ObjectFileError(
                f"{where}: the path leaves the search path folder {root} (it resolves "
                f"to {candidate}); object files must lie inside a search path folder"
            )
        if candidate.is_file():
            return candidate
        looked.append(str(root / written))
    raise ObjectFileError(
        f"{where}: object file not found; looked at:\n  "
        + "\n  ".join(looked)
        + f"\nadd its folder to search-path=... or ${SEARCH_PATH_VARIABLE}"
    )


def load_object_file(
    binary: BinaryOp,
    index: int,
    obj: ObjectFileAttr,
    search_path: Sequence[str],
    allow_absolute: bool,
) -> tuple[bytes, Path]:
    """The bytes of an ``#xgpu.object_file``, checked against its declaration."""
    where = _where(binary, index, obj)
    found = resolve_object_file(obj.path, search_path, allow_absolute, where)
    try:
        data = found.read_bytes()
    except OSError as e:
        raise ObjectFileError(f"{where}: cannot read {found}: {e.strerror}") from None
    declared = obj.format.value
    actual = sniff_format(data)
    if actual is not None and actual != declared:
        raise ObjectFileError(
            f"{where}: {found} holds {_FORMAT_WORDS.get(actual, actual)}, but the object "
            f"is declared as {_FORMAT_WORDS.get(declared, declared)}; fix the format "
            "keyword or the file"
        )
    _check_chip(obj, data, declared, where, found)
    return data, found


_FORMAT_WORDS = {
    "assembly": "PTX (assembly)",
    "bin": "a cubin (bin)",
    "fatbin": "a fatbin",
    "offload": "LLVM bitcode (offload)",
}


def _check_chip(
    obj: ObjectFileAttr, data: bytes, fmt: str, where: str, found: Path
) -> None:
    """A PTX or cubin must be code for the chip its ``#nvvm.target`` names."""
    if not isinstance(obj.target, NVVMTargetAttr) or fmt not in ("assembly", "bin"):
        return
    try:
        image = inspect_object(data, fmt).images[0]
        declared = Chip.parse(obj.target.chip)
    except ObjectInfoError as e:
        raise ObjectFileError(f"{where}: {found}: {e}") from None
    if (image.chip.sm, image.chip.variant) != (declared.sm, declared.variant) and not (
        fmt == "bin" and image.chip.sm == declared.sm and declared.variant == "f"
    ):
        what = "PTX" if fmt == "assembly" else "a cubin"
        raise ObjectFileError(
            f"{where}: {found} is {what} for {image.chip.name}, but the object is "
            f'declared for chip "{obj.target.chip}"; write '
            f'#nvvm.target<chip = "{image.chip.name}"> or use the file built for '
            f"{obj.target.chip}"
        )


def embed_object_file(
    binary: BinaryOp,
    index: int,
    obj: ObjectFileAttr,
    search_path: Sequence[str],
    allow_absolute: bool,
) -> ObjectAttr:
    """The ``#gpu.object`` that replaces ``obj``."""
    data, _ = load_object_file(binary, index, obj, search_path, allow_absolute)
    properties: dict[str, Attribute] = {}
    if (declared := obj.properties_dict) is not None:
        properties.update(declared.data)
    properties[SOURCE_PROPERTY] = StringAttr(obj.path)
    if obj.format is CompilationTarget.Assembly:
        properties.setdefault("O", IntegerAttr(DEFAULT_PTX_JIT_LEVEL, i32))
    return ObjectAttr(obj.target, data, obj.format, properties)


@dataclass(frozen=True)
class XgpuEmbedObjectFilesPass(ModulePass):
    """Replace each ``#xgpu.object_file`` by a ``#gpu.object`` holding the file.

    Options: ``search-path`` (folders, comma-separated; then
    ``$XDSL_GPU_OBJECT_SEARCH_PATH``; ``.`` when both are empty), ``allow-absolute``
    (accept absolute paths; default false), ``check-abi`` (run
    ``xgpu-check-kernel-abi`` afterwards; default true),
    ``use-bare-pointers-for-kernels`` and ``index-bitwidth`` (the launch convention
    that check assumes).
    """

    name = "xgpu-embed-object-files"

    search_path: tuple[str, ...] = ()
    allow_absolute: bool = False
    check_abi: bool = True
    use_bare_pointers_for_kernels: bool = False
    index_bitwidth: int = 64

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        folders = effective_search_path(self.search_path)
        for binary in [b for b in op.walk() if isinstance(b, BinaryOp)]:
            objects = binary.objects.data
            if not any(isinstance(o, ObjectFileAttr) for o in objects):
                continue
            binary.objects = ArrayAttr(
                [
                    embed_object_file(binary, i, o, folders, self.allow_absolute)
                    if isinstance(o, ObjectFileAttr)
                    else o
                    for i, o in enumerate(objects)
                ]
            )
        if self.check_abi:
            check_binary_launches(
                op,
                bare_pointers=self.use_bare_pointers_for_kernels,
                index_bitwidth=self.index_bitwidth,
            )
