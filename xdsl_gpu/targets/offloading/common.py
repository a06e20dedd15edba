"""What the offloading translations share: the builder of the host module, the
runtime functions they call, and the lowering of one ``gpu.launch_func`` (the same for
``#gpu.select_object`` and ``#xgpu.select_best``).

``select_object.py`` and ``select_best.py`` both import from here, neither from the
other; ``translation.py`` drives them through ``OffloadingTranslationAttrInterface``.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    i8,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xdsl_gpu.diagnostics import UserError, source_location
from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp, LaunchFuncOp
from xdsl_gpu.gpu_dialect.xgpu import ObjectFileAttr

PTR = llvm.LLVMPointerType()
CONSTRUCTOR_PRIORITY = 123
LAUNCH_SITE = "__xdsl_gpu_launch_site"


class OffloadingError(UserError):
    """A ``gpu.binary`` or ``gpu.launch_func`` that cannot be translated."""


def runtime_functions() -> dict[str, llvm.LLVMFunctionType]:
    void = llvm.LLVMVoidType()
    return {
        "mgpuModuleLoad": llvm.LLVMFunctionType([PTR, i64], PTR),
        "mgpuModuleLoadJIT": llvm.LLVMFunctionType([PTR, i32], PTR),
        "mgpuModuleUnload": llvm.LLVMFunctionType([PTR], void),
        "mgpuModuleGetFunction": llvm.LLVMFunctionType([PTR, PTR], PTR),
        "mgpuLaunchKernel": llvm.LLVMFunctionType(
            [PTR, *[i64] * 6, i32, PTR, PTR, PTR, i64], void
        ),
        "mgpuLaunchClusterKernel": llvm.LLVMFunctionType(
            [PTR, *[i64] * 9, i32, PTR, PTR, PTR], void
        ),
        "mgpuStreamCreate": llvm.LLVMFunctionType([], PTR),
        "mgpuStreamSynchronize": llvm.LLVMFunctionType([PTR], void),
        "mgpuStreamDestroy": llvm.LLVMFunctionType([PTR], void),
    }


def byte_array(size: int) -> llvm.LLVMArrayType:
    return llvm.LLVMArrayType(IntAttr(size), i8)


def bytes_attr(data: bytes) -> StringAttr:
    # The LLVM IR translation reads string initializers as latin-1 bytes.
    return StringAttr(data.decode("latin-1"))


class HostModuleBuilder:
    """Adds globals and declarations to the top of the host module, once each."""

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self.symbols = {
            name.data
            for op in module.ops
            if isinstance(
                name := op.properties.get("sym_name") or op.attributes.get("sym_name"),
                StringAttr,
            )
        }
        self.declared: set[str] = set()
        self.strings: dict[tuple[str, bytes], str] = {}

    def add(self, op: Operation) -> None:
        self.module.body.block.add_op(op)

    def declare(self, name: str) -> None:
        if name in self.declared or name in self.symbols:
            return
        self.declared.add(name)
        self.add(
            llvm.FuncOp(
                name, runtime_functions()[name], linkage=llvm.LinkageAttr("external")
            )
        )

    def string(self, name: str, text: bytes) -> str:
        """A private NUL-terminated string constant; returns its symbol. Asked again
        for the same name and text, it is reused; like upstream, kernel names are
        per module (``@<module>_<kernel>_name``) even where the text is the same."""
        if (name, text) in self.strings:
            return self.strings[(name, text)]
        symbol = name
        suffix = 0
        while symbol in self.symbols:
            suffix += 1
            symbol = f"{name}_{suffix}"
        self.symbols.add(symbol)
        data = text + b"\0"
        self.add(
            llvm.GlobalOp(
                byte_array(len(data)),
                symbol,
                "private",
                constant=True,
                value=bytes_attr(data),
                alignment=1,
                unnamed_addr=2,
            )
        )
        self.strings[(name, text)] = symbol
        return symbol


def null_pointer() -> llvm.ZeroOp:
    return llvm.ZeroOp(result_types=[PTR])


def null_initializer() -> Region:
    zero = null_pointer()
    return Region(Block([zero, llvm.ReturnOp(zero.res)]))


def startup_function(name: str, body: Block) -> llvm.FuncOp:
    return llvm.FuncOp(
        name,
        llvm.LLVMFunctionType([], None),
        linkage=llvm.LinkageAttr("internal"),
        body=Region(body),
        other_props={"section": StringAttr(".text.startup")},
    )


def as_i64(value: SSAValue, ops: list[Operation], what: str) -> SSAValue:
    t = value.type
    if isinstance(t, IntegerType):
        if t.width.data == 64:
            return value
        widened = llvm.ZExtOp(value, i64)
        ops.append(widened)
        return widened.results[0]
    raise OffloadingError(
        f"gpu.launch_func {what} has type {t}; run gpu-to-llvm before the offloading "
        "translation"
    )


def launch_site(op: Operation, module_name: str, kernel_name: str) -> bytes:
    """What a CUDA error report says about the launch: kernel, and source location
    when the op has one."""
    site = f"gpu.launch_func @{module_name}::@{kernel_name}"
    location = source_location(op.location)
    if location is not None:
        site += f" at {location}"
    return site.encode()


def translate_launch(launch: LaunchFuncOp, builder: HostModuleBuilder) -> None:
    kernel = launch.kernel
    module_name = kernel.root_reference.data
    kernel_name = kernel.nested_references.data[-1].data
    operands = list(launch.kernel_operands)
    for operand in operands:
        if isinstance(operand.type, IndexType) or "memref" in str(operand.type)[:8]:
            raise OffloadingError(
                f"gpu.launch_func @{module_name}::@{kernel_name}: operand of type "
                f"{operand.type} has no LLVM form; run gpu-to-llvm first"
            )
    ops: list[Operation] = []
    one = llvm.ConstantOp(IntegerAttr(1, i64), i64)
    count = llvm.ConstantOp(IntegerAttr(len(operands), i64), i64)
    ops += [one, count]
    struct_type = llvm.LLVMStructType.from_type_list([o.type for o in operands])
    if operands:
        struct = llvm.AllocaOp(one, struct_type, alignment=8)
        array = llvm.AllocaOp(count, PTR, alignment=8)
        ops += [struct, array]
        for index, operand in enumerate(operands):
            field = llvm.GEPOp(struct, [0, index], struct_type, inbounds=True)
            slot = llvm.GEPOp(array, [index], PTR)
            ops += [field, llvm.StoreOp(operand, field, alignment=8), slot]
            ops.append(llvm.StoreOp(field, slot, alignment=8))
        params: Operation = array
    else:
        params = null_pointer()
        ops.append(params)
    module_slot = llvm.AddressOfOp(f"{module_name}_module", PTR)
    module_ptr = llvm.LoadOp(module_slot, PTR, alignment=8)
    name = builder.string(f"{module_name}_{kernel_name}_name", kernel_name.encode())
    name_ptr = llvm.AddressOfOp(name, PTR)
    builder.declare("mgpuModuleGetFunction")
    function = llvm.CallOp(
        "mgpuModuleGetFunction", module_ptr, name_ptr, return_type=PTR
    )
    ops += [module_slot, module_ptr, name_ptr, function]
    stream = launch.async_object
    created = stream is None
    if created:
        builder.declare("mgpuStreamCreate")
        create = llvm.CallOp("mgpuStreamCreate", return_type=PTR)
        ops.append(create)
        stream = create.results[0]
    site = builder.string(
        "__xdsl_gpu_site", launch_site(launch, module_name, kernel_name)
    )
    site_ptr = llvm.AddressOfOp(site, PTR)
    site_slot = llvm.AddressOfOp(LAUNCH_SITE, PTR)
    ops += [site_ptr, site_slot, llvm.StoreOp(site_ptr, site_slot, alignment=8)]
    dims = [
        as_i64(v, ops, "grid/block size")
        for v in (
            launch.grid_size_x, launch.grid_size_y, launch.grid_size_z,
            launch.block_size_x, launch.block_size_y, launch.block_size_z,
        )
    ]  # fmt: skip
    if launch.dynamic_shared_memory_size is not None:
        smem: SSAValue = launch.dynamic_shared_memory_size
    else:
        zero32 = llvm.ConstantOp(IntegerAttr(0, i32), i32)
        ops.append(zero32)
        smem = zero32.results[0]
    null = null_pointer()
    ops.append(null)
    if launch.cluster_size_x is not None:
        clusters = [
            as_i64(v, ops, "cluster size")
            for v in (
                launch.cluster_size_x,
                launch.cluster_size_y,
                launch.cluster_size_z,
            )
            if v is not None
        ]
        builder.declare("mgpuLaunchClusterKernel")
        ops.append(
            llvm.CallOp(
                "mgpuLaunchClusterKernel",
                function,
                *clusters,
                *dims,
                smem,
                stream,
                params,
                null,
            )
        )
    else:
        builder.declare("mgpuLaunchKernel")
        ops.append(
            llvm.CallOp(
                "mgpuLaunchKernel", function, *dims, smem, stream, params, null, count
            )
        )
    if created:
        builder.declare("mgpuStreamSynchronize")
        builder.declare("mgpuStreamDestroy")
        ops += [
            llvm.CallOp("mgpuStreamSynchronize", stream),
            llvm.CallOp("mgpuStreamDestroy", stream),
        ]
    Rewriter.insert_op(ops, InsertPoint.before(launch))
    if launch.async_token is not None:
        if launch.async_object is None:
            raise OffloadingError(
                f"gpu.launch_func @{module_name}::@{kernel_name} is async but has no "
                "stream; run gpu-to-llvm first"
            )
        launch.async_token.replace_all_uses_with(launch.async_object)
    Rewriter.erase_op(launch)


def check_embedded(binary: BinaryOp) -> None:
    """Objects still naming files cannot be translated."""
    for index, obj in enumerate(binary.objects.data):
        if isinstance(obj, ObjectFileAttr):
            raise OffloadingError(
                f"gpu.binary @{binary.sym_name.data}: object {index} is the file "
                f'"{obj.path}", not embedded yet; run xgpu-embed-object-files first '
                "(e.g. -p 'xgpu-embed-object-files{search-path=\"<folder>\"}')"
            )
