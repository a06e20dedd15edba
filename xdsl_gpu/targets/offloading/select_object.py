"""``#gpu.select_object``: embed one object of each ``gpu.binary`` and launch kernels
from it (upstream's ``SelectObjectAttr.cpp``, as ``mlir-translate --mlir-to-llvmir``
applies it), written as a rewrite of the host module into plain llvm-dialect ops.

As upstream, ``#gpu.select_object`` implements ``OffloadingTranslationAttrInterface``
through an external model (:class:`SelectObjectAttrImpl`), which
``translation.lower_offloading`` calls for each ``gpu.binary`` and ``gpu.launch_func``.

For ``gpu.binary @M``:

* ``@M_binary`` (internal constant bytes, alignment 8, ``section`` from the object's
  properties; PTX gets a trailing NUL) and ``@M_module`` (internal global ptr);
* ``@M_load`` / ``@M_unload`` (section ``.text.startup``) call ``mgpuModuleLoad(data,
  size)`` (``mgpuModuleLoadJIT(data, O)`` for PTX, O from the object's properties,
  default 0) and ``mgpuModuleUnload``; they run from ``llvm.global_ctors`` /
  ``global_dtors`` at priority 123.

Each ``gpu.launch_func`` is lowered by ``common.translate_launch``: it packs its
operands into a struct and an array of pointers to the fields, gets the function from
the loaded module, and calls ``mgpuLaunchKernel`` (``mgpuLaunchClusterKernel`` with
clusters) on its stream, or on a stream it creates, synchronizes and destroys when it
has none. Beyond upstream: before the launch it stores "<kernel> at <location>" in
``@__xdsl_gpu_launch_site``, so a CUDA error names the kernel and the MLIR location of
the launch (see xdsl_gpu/targets/runtime).
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import IntegerAttr, StringAttr, i32, i64
from xdsl.ir import Attribute, Block, Operation

from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import (
    CompilationTarget,
    ObjectAttr,
    SelectObjectAttr,
)
from xdsl_gpu.gpu_dialect.gpu.interfaces import (
    OffloadingTranslationAttrInterface,
    register_external_model,
)
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp, LaunchFuncOp
from xdsl_gpu.targets.offloading.common import (
    CONSTRUCTOR_PRIORITY,
    PTR,
    HostModuleBuilder,
    OffloadingError,
    byte_array,
    bytes_attr,
    null_initializer,
    startup_function,
    translate_launch,
)

__all__ = [
    "SelectObjectAttrImpl",
    "embed_selected_object",
    "register_select_object_external_model",
    "select",
]


class SelectObjectAttrImpl(OffloadingTranslationAttrInterface):
    """``#gpu.select_object``'s model: embed the selected object; launch as usual."""

    def embed_binary(
        self, attr: Attribute, binary_op: Operation, host_builder: Any
    ) -> None:
        assert isinstance(attr, SelectObjectAttr)
        assert isinstance(binary_op, BinaryOp)
        embed_selected_object(attr, binary_op, host_builder)

    def launch_kernel(
        self,
        attr: Attribute,
        launch_func_op: Operation,
        binary_op: Operation,
        host_builder: Any,
    ) -> None:
        assert isinstance(launch_func_op, LaunchFuncOp)
        translate_launch(launch_func_op, host_builder)


def register_select_object_external_model() -> None:
    """Attach :class:`SelectObjectAttrImpl` to ``#gpu.select_object``."""
    register_external_model(
        SelectObjectAttr, OffloadingTranslationAttrInterface, SelectObjectAttrImpl()
    )


def select(handler: SelectObjectAttr, binary: BinaryOp) -> ObjectAttr:
    """The object of ``binary`` that ``handler`` embeds."""
    objects = [o for o in binary.objects.data if isinstance(o, ObjectAttr)]
    try:
        return handler.select(objects)
    except Exception as e:  # VerifyException with upstream's message
        raise OffloadingError(f"gpu.binary @{binary.sym_name.data}: {e}") from None


def embed_selected_object(
    handler: SelectObjectAttr, binary: BinaryOp, builder: HostModuleBuilder
) -> None:
    """Embed the object ``handler`` selects, with its load and unload functions."""
    name = binary.sym_name.data
    selected = select(handler, binary)
    data = selected.object_bytes
    properties = selected.properties_dict
    is_ptx = selected.format is CompilationTarget.Assembly
    if is_ptx:
        data += b"\0"
    section = None
    if properties is not None and isinstance(
        s := properties.data.get("section"), StringAttr
    ):
        section = s.data
    builder.add(
        llvm.GlobalOp(
            byte_array(len(data)),
            f"{name}_binary",
            "internal",
            constant=True,
            value=bytes_attr(data),
            alignment=8,
            section=section,
        )
    )
    builder.add(
        llvm.GlobalOp(
            PTR, f"{name}_module", "internal", value=None, body=null_initializer()
        )
    )
    # @M_load
    block = Block()
    data_ptr = llvm.AddressOfOp(f"{name}_binary", PTR)
    block.add_op(data_ptr)
    if is_ptx:
        level = 0
        if properties is not None and isinstance(
            o := properties.data.get("O"), IntegerAttr
        ):
            level = o.value.data
        argument = llvm.ConstantOp(IntegerAttr(level, i32), i32)
        callee = "mgpuModuleLoadJIT"
    else:
        argument = llvm.ConstantOp(IntegerAttr(len(data), i64), i64)
        callee = "mgpuModuleLoad"
    builder.declare(callee)
    loaded = llvm.CallOp(callee, data_ptr, argument, return_type=PTR)
    slot = llvm.AddressOfOp(f"{name}_module", PTR)
    block.add_ops(
        [
            argument,
            loaded,
            slot,
            llvm.StoreOp(loaded, slot, alignment=8),
            llvm.ReturnOp(),
        ]
    )
    builder.add(startup_function(f"{name}_load", block))
    # @M_unload
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
