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

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, StringAttr, i32
from xdsl.ir import Attribute
from xdsl.passes import ModulePass

from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget, ObjectAttr
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp
from xdsl_gpu.gpu_dialect.xgpu import ObjectFileAttr
from xdsl_gpu.passes.xgpu_check_kernel_abi import check_binary_launches
from xdsl_gpu.passes.xgpu_object_files import (
    SEARCH_PATH_VARIABLE,
    SOURCE_PROPERTY,
    ObjectFileError,
    effective_search_path,
    load_object_file,
    resolve_object_file,
)

__all__ = [
    "DEFAULT_PTX_JIT_LEVEL",
    "SEARCH_PATH_VARIABLE",
    "SOURCE_PROPERTY",
    "ObjectFileError",
    "XgpuEmbedObjectFilesPass",
    "effective_search_path",
    "embed_object_file",
    "load_object_file",
    "resolve_object_file",
]

DEFAULT_PTX_JIT_LEVEL = 3


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
