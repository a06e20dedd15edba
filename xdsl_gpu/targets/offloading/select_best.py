"""``#xgpu.select_best``: embed *every* object of a ``gpu.binary`` and let the runtime
load the one that fits the GPU (``mgpuModuleLoadBest``), a sibling of
``#gpu.select_object`` (``select_object.py``). Like it, ``#xgpu.select_best``
implements ``OffloadingTranslationAttrInterface`` through an external model
(:class:`SelectBestAttrImpl`); both share ``common.py`` and neither imports the other.

For ``gpu.binary @M <#xgpu.select_best> [obj0, obj1, ...]``:

* ``@M_binary_<i>``: each object's bytes (internal constant, alignment 8, ``section``
  from its properties; PTX gets a trailing NUL), and ``@M_label_<i>``, a description
  for load-time messages (``@M[i] sm_90 bin "kernels_sm_90.cubin"``);
* ``@M_module`` and ``@M_unload`` as with ``#gpu.select_object``;
* ``@M_load`` fills a stack table of ``{ ptr data, i64 size, i32 format, i32 O,
  ptr label }`` (format: upstream's ``CompilationTarget`` numbers; ``O``: the JIT
  level for PTX from the object's properties, default 0 as upstream) and calls
  ``mgpuModuleLoadBest(table, count)``; ctor/dtor priority 123.

Launches are translated exactly as for ``#gpu.select_object``.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import IntAttr, IntegerAttr, StringAttr, i32, i64
from xdsl.ir import Attribute, Block, Operation

from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import CompilationTarget, ObjectAttr
from xdsl_gpu.gpu_dialect.gpu.interfaces import (
    OffloadingTranslationAttrInterface,
    register_external_model,
)
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp, LaunchFuncOp
from xdsl_gpu.gpu_dialect.xgpu import SelectBestAttr
from xdsl_gpu.targets.offloading.common import (
    CONSTRUCTOR_PRIORITY,
    PTR,
    HostModuleBuilder,
    OffloadingError,
    byte_array,
    bytes_attr,
    check_embedded,
    null_initializer,
    startup_function,
    translate_launch,
)

__all__ = [
    "ENTRY_TYPE",
    "LOAD_BEST",
    "SelectBestAttrImpl",
    "embed_all_objects",
    "register_select_best_external_model",
    "uses_select_best",
]

LOAD_BEST = "mgpuModuleLoadBest"
ENTRY_TYPE = llvm.LLVMStructType.from_type_list([PTR, i64, i32, i32, PTR])
"""One table entry: data, size, format, JIT optimization level, label."""


def uses_select_best(binary: BinaryOp) -> bool:
    return isinstance(binary.offloading_handler, SelectBestAttr)


def _label(binary: str, index: int, obj: ObjectAttr) -> bytes:
    chip = getattr(obj.target, "chip", None)
    text = f"@{binary}[{index}]"
    if isinstance(chip, str):
        text += f" {chip}"
    text += f" {obj.format.value}"
    source = obj.get_property("xgpu.file")
    if isinstance(source, StringAttr):
        text += f' "{source.data}"'
    return text.encode()


def _declare_load_best(builder: HostModuleBuilder) -> None:
    if LOAD_BEST in builder.declared or LOAD_BEST in builder.symbols:
        return
    builder.declared.add(LOAD_BEST)
    builder.add(
        llvm.FuncOp(
            LOAD_BEST,
            llvm.LLVMFunctionType([PTR, i64], PTR),
            linkage=llvm.LinkageAttr("external"),
        )
    )


def _embed_object(
    name: str, index: int, obj: ObjectAttr, builder: HostModuleBuilder
) -> int:
    """Add ``@<name>_binary_<index>``; returns its size."""
    data = obj.object_bytes
    if obj.format is CompilationTarget.Assembly:
        data += b"\0"
    section = obj.get_property("section")
    builder.add(
        llvm.GlobalOp(
            byte_array(len(data)),
            f"{name}_binary_{index}",
            "internal",
            constant=True,
            value=bytes_attr(data),
            alignment=8,
            section=section.data if isinstance(section, StringAttr) else None,
        )
    )
    return len(data)


def _opt_level(obj: ObjectAttr) -> int:
    level = obj.get_property("O")
    return level.value.data if isinstance(level, IntegerAttr) else 0


def embed_all_objects(binary: BinaryOp, builder: HostModuleBuilder) -> None:
    """Embed every object of ``binary`` and load the best one in ``@<name>_load``."""
    check_embedded(binary)
    name = binary.sym_name.data
    objects = [o for o in binary.objects.data if isinstance(o, ObjectAttr)]
    if len(objects) != len(binary.objects.data):
        raise OffloadingError(f"gpu.binary @{name}: every object must be a #gpu.object")
    sizes = [_embed_object(name, i, o, builder) for i, o in enumerate(objects)]
    labels = [
        builder.string(f"{name}_label_{i}", _label(name, i, o))
        for i, o in enumerate(objects)
    ]
    builder.add(
        llvm.GlobalOp(
            PTR, f"{name}_module", "internal", value=None, body=null_initializer()
        )
    )
    block = Block()
    ops: list[Operation] = []
    one = llvm.ConstantOp(IntegerAttr(1, i64), i64)
    count = llvm.ConstantOp(IntegerAttr(len(objects), i64), i64)
    table_type = llvm.LLVMArrayType(IntAttr(len(objects)), ENTRY_TYPE)
    table = llvm.AllocaOp(one, table_type, alignment=8)
    ops += [one, count, table]
    for i, obj in enumerate(objects):
        fields: list[tuple[Operation, Attribute]] = [
            (llvm.AddressOfOp(f"{name}_binary_{i}", PTR), PTR),
            (llvm.ConstantOp(IntegerAttr(sizes[i], i64), i64), i64),
            (llvm.ConstantOp(IntegerAttr(obj.format.int_value, i32), i32), i32),
            (llvm.ConstantOp(IntegerAttr(_opt_level(obj), i32), i32), i32),
            (llvm.AddressOfOp(labels[i], PTR), PTR),
        ]
        for number, (value, _) in enumerate(fields):
            slot = llvm.GEPOp(table, [0, i, number], table_type, inbounds=True)
            ops += [
                value,
                slot,
                llvm.StoreOp(value, slot, alignment=8 if number in (0, 1, 4) else 4),
            ]
    _declare_load_best(builder)
    loaded = llvm.CallOp(LOAD_BEST, table, count, return_type=PTR)
    slot = llvm.AddressOfOp(f"{name}_module", PTR)
    ops += [loaded, slot, llvm.StoreOp(loaded, slot, alignment=8), llvm.ReturnOp()]
    block.add_ops(ops)
    builder.add(startup_function(f"{name}_load", block))
    builder.declare("mgpuModuleUnload")
    block = Block()
    slot = llvm.AddressOfOp(f"{name}_module", PTR)
    module_ptr = llvm.LoadOp(slot, PTR, alignment=8)
    block.add_ops(
        [slot, module_ptr, llvm.CallOp("mgpuModuleUnload", module_ptr), llvm.ReturnOp()]
    )
    builder.add(startup_function(f"{name}_unload", block))
    builder.add(llvm.GlobalCtorsOp([f"{name}_load"], [CONSTRUCTOR_PRIORITY]))
    builder.add(llvm.GlobalDtorsOp([f"{name}_unload"], [CONSTRUCTOR_PRIORITY]))


class SelectBestAttrImpl(OffloadingTranslationAttrInterface):
    """``#xgpu.select_best``'s model: embed every object; launch as usual."""

    def embed_binary(
        self, attr: Attribute, binary_op: Operation, host_builder: Any
    ) -> None:
        assert isinstance(binary_op, BinaryOp)
        embed_all_objects(binary_op, host_builder)

    def launch_kernel(
        self,
        attr: Attribute,
        launch_func_op: Operation,
        binary_op: Operation,
        host_builder: Any,
    ) -> None:
        assert isinstance(launch_func_op, LaunchFuncOp)
        translate_launch(launch_func_op, host_builder)


def register_select_best_external_model() -> None:
    """Attach :class:`SelectBestAttrImpl` to ``#xgpu.select_best``."""
    register_external_model(
        SelectBestAttr, OffloadingTranslationAttrInterface, SelectBestAttrImpl()
    )
