"""What ``xgpu-embed-object-files`` and ``xgpu-check-kernel-abi`` share: finding the
file an ``#xgpu.object_file`` names in the search path (confined to it) and reading
it, checked against its declared format and chip.

Both passes import from here (neither from the other), so there is no import cycle.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path, PurePath

from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.diagnostics import at_op
from xdsl_gpu.file_access import report_probe
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp
from xdsl_gpu.gpu_dialect.nvvm.target import NVVMTargetAttr
from xdsl_gpu.gpu_dialect.xgpu import ObjectFileAttr
from xdsl_gpu.objects.object_info import (
    Chip,
    ObjectInfoError,
    inspect_object,
    sniff_format,
)
from xdsl_gpu.passes.llvm_type_converter import describe

SEARCH_PATH_VARIABLE = "XDSL_GPU_OBJECT_SEARCH_PATH"
MAX_OBJECT_BYTES = 512 * 2**20
"""The largest object file read into the IR: its bytes become a string attribute of
a ``gpu.binary`` that is printed and parsed again, so a file of gigabytes (a sparse
file, a wrong path) would take minutes and all memory before any error."""
SOURCE_PROPERTY = "xgpu.file"


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
        report_probe(path)  # a cache of whole runs checks it again
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
        report_probe(str(candidate))
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
    """The bytes of an ``#xgpu.object_file``, checked against its declaration;
    an :class:`ObjectFileError` is about ``binary`` (reported at its location)."""
    try:
        return _load_object_file(binary, index, obj, search_path, allow_absolute)
    except ObjectFileError as error:
        raise at_op(error, binary) from None


def _load_object_file(
    binary: BinaryOp,
    index: int,
    obj: ObjectFileAttr,
    search_path: Sequence[str],
    allow_absolute: bool,
) -> tuple[bytes, Path]:
    where = _where(binary, index, obj)
    found = resolve_object_file(obj.path, search_path, allow_absolute, where)
    try:
        size = found.stat().st_size
        if size > MAX_OBJECT_BYTES:
            raise ObjectFileError(
                f"{where}: {found} has {size / 2**20:.0f} MiB, more than the "
                f"{MAX_OBJECT_BYTES // 2**20} MiB an object file embedded in the IR "
                "may have; is it the right file? Load one this large at run time "
                "instead (cuModuleLoad)"
            )
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
