"""``xgpu-check-kernel-abi``: every ``gpu.launch_func`` of a ``gpu.binary`` kernel
must pass what the kernel's machine code takes.

For each object of the binary (``#gpu.object``, or ``#xgpu.object_file`` read through
the search path) the kernel's parameter list is read from the code itself
(``xdsl_gpu/objects/object_info.py``: PTX ``.entry`` parameters with their types; cubin
``EIATTR_KPARAM_INFO`` sizes; each image of a fatbin). The launch's operands are laid
out as the host will pass them: LLVM-typed operands (after ``gpu-to-llvm``) as they
are; before it, a memref as its descriptor fields (allocated pointer, aligned pointer,
offset, sizes, strides) or, with ``use-bare-pointers-for-kernels``, as one pointer,
and ``index`` as an ``index-bitwidth`` integer.

Count, then per position size and kind (pointer / integer / float / aggregate) must
agree. A mismatch is an error at the launch that shows both signatures side by side,
with the first disagreement marked; when the same parameters appear in another order
it says so. A kernel missing from an object is an error too (it would fail at run time
with ``CUDA_ERROR_NOT_FOUND``).

Limits (the objects do not say more): PTX writes ``.ptr`` only when the compiler knows
the parameter is a pointer (LLVM does, NVRTC/nvcc do not), so a plain ``.u64`` accepts a
pointer or a 64-bit integer; a cubin records sizes only, so kinds are checked only
when the binary also holds PTX (as PTX or inside a fatbin).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    UnrankedMemRefType,
    VectorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from xdsl_gpu.diagnostics import UserError, at_op
from xdsl_gpu.gpu_dialect import llvm
from xdsl_gpu.gpu_dialect.gpu.compilation_attrs import ObjectAttr
from xdsl_gpu.gpu_dialect.gpu.kernel_ops import BinaryOp, LaunchFuncOp
from xdsl_gpu.gpu_dialect.xgpu import ObjectFileAttr
from xdsl_gpu.objects.object_info import (
    ImageInfo,
    KernelParam,
    ObjectInfoError,
    ParamKind,
    inspect_object,
)
from xdsl_gpu.passes.llvm_type_converter import describe
from xdsl_gpu.passes.xgpu_object_files import effective_search_path, load_object_file


class KernelAbiError(PassFailedException):
    """A launch that disagrees with its kernel's parameters."""


@dataclass(frozen=True)
class LaunchArg:
    """One parameter as the host passes it."""

    origin: str
    """Which launch operand it comes from (``operand 0 (memref<8xf32>) aligned``)."""
    type_text: str
    """Its LLVM type: ``ptr``, ``i64``, ``f32``, ``!llvm.struct<...>``."""
    size: int
    kind: ParamKind
    """POINTER, INTEGER, FLOAT or AGGREGATE."""


# ---------------------------------------------------------------------------------
# The launch side
# ---------------------------------------------------------------------------------


def _llvm_layout(t: Attribute) -> tuple[int, int] | None:
    """(size, alignment) in bytes of an LLVM-compatible type on a 64-bit host."""
    if isinstance(t, IntegerType):
        size = max(1, (t.width.data + 7) // 8)
        size = 1 << (size - 1).bit_length()
        return size, min(size, 16)
    if isinstance(t, Float16Type | BFloat16Type):
        return 2, 2
    if isinstance(t, Float32Type):
        return 4, 4
    if isinstance(t, Float64Type):
        return 8, 8
    if isinstance(t, llvm.LLVMPointerType | IndexType):
        return 8, 8
    if isinstance(t, llvm.LLVMArrayType):
        inner = _llvm_layout(t.type)
        return None if inner is None else (inner[0] * t.size.data, inner[1])
    if isinstance(t, VectorType):
        inner = _llvm_layout(t.element_type)
        if inner is None:
            return None
        count = 1
        for dim in t.get_shape():
            count *= dim
        size = 1 << max(0, (inner[0] * count - 1).bit_length())
        return size, size
    if isinstance(t, llvm.LLVMStructType):
        offset, align = 0, 1
        for field in t.types.data:
            layout = _llvm_layout(field)
            if layout is None:
                return None
            size, field_align = layout
            offset = (offset + field_align - 1) // field_align * field_align + size
            align = max(align, field_align)
        return (offset + align - 1) // align * align, align
    return None


def _kind_of(t: Attribute) -> ParamKind:
    if isinstance(t, llvm.LLVMPointerType):
        return ParamKind.POINTER
    if isinstance(t, IntegerType | IndexType):
        return ParamKind.INTEGER
    if isinstance(t, Float16Type | BFloat16Type | Float32Type | Float64Type):
        return ParamKind.FLOAT
    return ParamKind.AGGREGATE


def _scalar(origin: str, t: Attribute, index_bits: int) -> LaunchArg:
    if isinstance(t, IndexType):
        return LaunchArg(origin, f"i{index_bits}", index_bits // 8, ParamKind.INTEGER)
    layout = _llvm_layout(t)
    if layout is None:
        raise UserError(f"{origin}: cannot tell how a {t} is passed to a kernel")
    text = "ptr" if isinstance(t, llvm.LLVMPointerType) else str(t)
    return LaunchArg(origin, text, layout[0], _kind_of(t))


def launch_arguments(
    operands: Sequence[SSAValue], bare_pointers: bool, index_bits: int = 64
) -> list[LaunchArg]:
    """The kernel parameters the host passes for ``operands``."""
    ptr = llvm.LLVMPointerType()
    index = IndexType()
    args: list[LaunchArg] = []
    for number, operand in enumerate(operands):
        t = operand.type
        name = f"%{operand.name_hint}" if operand.name_hint else f"operand {number}"
        origin = f"{name} : {t}"
        if isinstance(t, MemRefType):
            if bare_pointers:
                args.append(_scalar(f"{origin}", ptr, index_bits))
                continue
            rank = len(t.get_shape())
            fields = [("allocated", ptr), ("aligned", ptr), ("offset", index)]
            fields += [(f"size[{d}]", index) for d in range(rank)]
            fields += [(f"stride[{d}]", index) for d in range(rank)]
            args += [_scalar(f"{origin} {what}", ft, index_bits) for what, ft in fields]
        elif isinstance(t, UnrankedMemRefType):
            args.append(_scalar(f"{origin} rank", index, index_bits))
            args.append(_scalar(f"{origin} descriptor", ptr, index_bits))
        else:
            args.append(_scalar(origin, t, index_bits))
    return args


# ---------------------------------------------------------------------------------
# Matching
# ---------------------------------------------------------------------------------


def mismatch(arg: LaunchArg, param: KernelParam) -> str | None:
    """``"size"`` or ``"kind"`` when ``arg`` cannot bind to ``param``, else None."""
    if arg.size != param.size:
        return "size"
    expected = param.kind
    if expected is ParamKind.UNKNOWN:
        return None
    allowed = {
        ParamKind.POINTER: {ParamKind.POINTER},
        ParamKind.INT_OR_POINTER: {ParamKind.POINTER, ParamKind.INTEGER},
        ParamKind.INTEGER: {ParamKind.INTEGER},
        ParamKind.FLOAT: {ParamKind.FLOAT},
        # LLVM passes half and i128 as .b8 arrays, and structs/vectors are arrays.
        ParamKind.AGGREGATE: {ParamKind.AGGREGATE, ParamKind.FLOAT, ParamKind.INTEGER},
    }[expected]
    return None if arg.kind in allowed else "kind"


def _article(kind: ParamKind) -> str:
    return {
        ParamKind.POINTER: "a pointer",
        ParamKind.INTEGER: "an integer",
        ParamKind.FLOAT: "a float",
        ParamKind.INT_OR_POINTER: "an integer or pointer",
        ParamKind.AGGREGATE: "an aggregate",
        ParamKind.UNKNOWN: "a value",
    }[kind]


def _permutation_exists(args: list[LaunchArg], params: list[KernelParam]) -> bool:
    """Whether the arguments bind to the parameters in some other order."""
    remaining = list(params)
    for arg in args:
        for i, param in enumerate(remaining):
            if mismatch(arg, param) is None:
                del remaining[i]
                break
        else:
            return False
    return not remaining


def _table(
    args: list[LaunchArg], params: list[KernelParam], header: tuple[str, str], bad: int
) -> str:
    left = [f"{a.type_text} ({a.size} B) from {a.origin}" for a in args]
    right = [f"{p.text} ({p.size} B, {p.kind.value})" for p in params]
    rows = max(len(left), len(right))
    left += ["-"] * (rows - len(left))
    right += ["-"] * (rows - len(right))
    width = max(len(header[0]), *(len(s) for s in left)) if rows else len(header[0])
    lines = [f"    #  {header[0].ljust(width)}  {header[1]}"]
    for i in range(rows):
        marker = "  <-- first difference" if i == bad else ""
        lines.append(f"  {i:>3}  {left[i].ljust(width)}  {right[i]}{marker}")
    return "\n".join(lines)


def compare(
    launch: LaunchFuncOp,
    args: list[LaunchArg],
    params: list[KernelParam],
    where: str,
    convention: str,
) -> str | None:
    """The error text when ``args`` do not fit ``params``, else None."""
    kernel = launch.kernel_name
    problem: str | None = None
    bad = -1
    if len(args) != len(params):
        bad = min(len(args), len(params))
        problem = (
            f"passes {len(args)} argument{'s' * (len(args) != 1)} but kernel "
            f"'{kernel}' in {where} takes {len(params)}"
        )
        if any(a.origin.endswith(("allocated", "aligned")) for a in args):
            problem += (
                " (memrefs are passed as descriptors; set use-bare-pointers-for-kernels"
                " if the kernel takes plain pointers)"
            )
    else:
        for i, (arg, param) in enumerate(zip(args, params)):
            why = mismatch(arg, param)
            if why is None:
                continue
            bad = i
            if why == "size":
                problem = (
                    f"argument {i} is {arg.size} bytes ({arg.type_text}) but parameter "
                    f"{i} of kernel '{kernel}' in {where} is {param.size} bytes "
                    f"({param.text})"
                )
            else:
                problem = (
                    f"argument {i} is {_article(arg.kind)} ({arg.type_text}) but "
                    f"parameter {i} of kernel '{kernel}' in {where} is "
                    f"{_article(param.kind)} ({param.text})"
                )
            if _permutation_exists(args, params):
                problem += (
                    "; the kernel takes the same parameters in another order: check "
                    "the order of the launch's arguments"
                )
            break
    if problem is None:
        return None
    table = _table(
        args, params, (f"launch ({convention})", f"kernel '{kernel}' in {where}"), bad
    )
    return (
        f"{describe(launch)} @{launch.kernel_module_name}::@{kernel} {problem}\n{table}"
    )


# ---------------------------------------------------------------------------------
# The pass
# ---------------------------------------------------------------------------------


def _object_images(
    binary: BinaryOp,
    index: int,
    obj: Attribute,
    search_path: Sequence[str],
    allow_absolute: bool,
) -> tuple[str, list[ImageInfo]]:
    """A name for the object in messages, and its readable images."""
    if isinstance(obj, ObjectFileAttr):
        data, _ = load_object_file(binary, index, obj, search_path, allow_absolute)
        fmt, name = obj.format.value, obj.path
    elif isinstance(obj, ObjectAttr):
        data, fmt = obj.object_bytes, obj.format.value
        source = obj.get_property("xgpu.file")
        name = (
            f"object {index}"
            if source is None
            else str(getattr(source, "data", source))
        )
    else:
        return f"object {index}", []
    if fmt == "offload":
        return name, []
    try:
        info = inspect_object(data, fmt)
    except ObjectInfoError as e:
        raise at_op(
            KernelAbiError(
                f"{describe(binary)}: object {index} ({name}) cannot be read as "
                f"{fmt}: {e}"
            ),
            binary,
        ) from None
    return name, [i for i in info.images if i.kernels is not None]


def check_binary_launches(
    module: ModuleOp,
    *,
    bare_pointers: bool = False,
    index_bitwidth: int = 64,
    search_path: Sequence[str] = (),
    allow_absolute: bool = False,
) -> None:
    """Check every launch of a ``gpu.binary`` kernel in ``module``."""
    binaries = {
        op.sym_name.data: op for op in module.walk() if isinstance(op, BinaryOp)
    }
    launches: dict[str, list[LaunchFuncOp]] = {}
    for op in module.walk():
        if isinstance(op, LaunchFuncOp) and op.kernel_module_name in binaries:
            launches.setdefault(op.kernel_module_name, []).append(op)
    convention = "bare pointers" if bare_pointers else "memref descriptors"
    for name, ops in launches.items():
        binary = binaries[name]
        objects = [
            _object_images(binary, i, o, search_path, allow_absolute)
            for i, o in enumerate(binary.objects.data)
        ]
        for launch in ops:
            _check_launch(launch, objects, bare_pointers, index_bitwidth, convention)


def _check_launch(
    launch: LaunchFuncOp,
    objects: list[tuple[str, list[ImageInfo]]],
    bare_pointers: bool,
    index_bitwidth: int,
    convention: str,
) -> None:
    operands = list(launch.kernel_operands)
    lowered = all(
        not isinstance(o.type, MemRefType | UnrankedMemRefType | IndexType)
        for o in operands
    )
    try:
        args = launch_arguments(operands, bare_pointers, index_bitwidth)
    except UserError as e:
        raise at_op(KernelAbiError(f"{describe(launch)}: {e}"), launch) from None
    if lowered:
        convention = "LLVM-typed operands"
    kernel = launch.kernel_name
    # PTX first: its parameters carry kinds, so its report says more.
    pairs = [(name, image) for name, images in objects for image in images]
    pairs.sort(key=lambda pair: pair[1].kind != "ptx")
    for name, image in pairs:
        assert image.kernels is not None
        where = f"{name} ({image.kind}, {image.chip.name})"
        params = image.kernels.get(kernel)
        if params is None:
            defined = ", ".join(sorted(image.kernels)) or "no kernels"
            raise at_op(
                KernelAbiError(
                    f"{describe(launch)} launches kernel '{kernel}', which {where} "
                    f"does not define (it defines: {defined}); fix the kernel name or "
                    "rebuild the object"
                ),
                launch,
            )
        if (error := compare(launch, args, params, where, convention)) is not None:
            raise at_op(KernelAbiError(error), launch)


@dataclass(frozen=True)
class XgpuCheckKernelAbiPass(ModulePass):
    """Check each ``gpu.launch_func`` against the parameters its kernel's objects
    declare.

    Options: ``use-bare-pointers-for-kernels`` (memrefs are passed as one pointer, as
    ``gpu-to-llvm`` does with that option; default: descriptors), ``index-bitwidth``
    (default 64), and for ``#xgpu.object_file`` objects that are not embedded yet the
    ``search-path`` / ``allow-absolute`` of ``xgpu-embed-object-files``.
    """

    name = "xgpu-check-kernel-abi"

    use_bare_pointers_for_kernels: bool = False
    index_bitwidth: int = 64
    search_path: tuple[str, ...] = ()
    allow_absolute: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_binary_launches(
            op,
            bare_pointers=self.use_bare_pointers_for_kernels,
            index_bitwidth=self.index_bitwidth,
            search_path=effective_search_path(self.search_path),
            allow_absolute=self.allow_absolute,
        )
